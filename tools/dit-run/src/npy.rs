//! Reading .npy inputs (format 1.0–3.0, C order, little-endian): the header's dtype and shape
//! must match the argument, the data is taken as stored (bf16 as numpy's `V2`/`<u2` raw bits).

use dit_runtime::{DType, Tensor, TensorType};

/// numpy `descr` strings accepted for each element type.
fn descrs(dtype: DType) -> &'static [&'static str] {
    match dtype {
        DType::F32 => &["<f4"],
        DType::F16 => &["<f2"],
        // numpy has no bf16: its raw bits as 2-byte unsigned integers or void.
        DType::BF16 => &["<u2", "|V2", "<V2"],
        DType::I8 => &["|i1", "<i1"],
        DType::I32 => &["<i4"],
        DType::I64 => &["<i8"],
        DType::I1 => &["|b1", "<b1"],
        DType::F8E4M3FN | DType::F8E5M2 | DType::F8E8M0FNU => &["|u1", "<u1"],
        DType::I4 | DType::F4E2M1FN => &[],
    }
}

/// Reads `path` as a tensor of type `ty` (an argument).
pub fn read(path: &str, ty: &TensorType) -> Result<Tensor, String> {
    read_as(path, ty, "argument")
}

/// Reads `path` as a tensor of type `ty`; `what` names the tensor it must fit in errors
/// ("argument", "result 0 of @forward").
pub fn read_as(path: &str, ty: &TensorType, what: &str) -> Result<Tensor, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: error: cannot read: {e}"))?;
    let bad = |why: &str| format!("{path}: error: not a usable .npy file: {why}");
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err(bad("no NUMPY magic"));
    }
    let (header_len, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        _ => return Err(bad("unknown format version")),
    };
    let header = bytes
        .get(start..start + header_len)
        .and_then(|h| std::str::from_utf8(h).ok())
        .ok_or_else(|| bad("truncated header"))?;
    // numpy writes one Python dict literal, padded with spaces and a newline: a header that
    // does not close it is cut or forged, and its fields cannot be trusted.
    let dict = header.trim_end_matches([' ', '\n', '\0']);
    if !dict.starts_with('{') || !dict.ends_with('}') {
        return Err(bad("the header is not one closed {...} dict"));
    }
    let field = |key: &str| -> Option<&str> {
        let at = header.find(&format!("'{key}'"))?;
        Some(
            header[at + key.len() + 2..]
                .trim_start()
                .trim_start_matches(':')
                .trim_start(),
        )
    };
    let descr = field("descr")
        .and_then(|s| s.strip_prefix('\''))
        .and_then(|s| s.split('\'').next())
        .ok_or_else(|| bad("no descr"))?;
    if !descrs(ty.dtype).contains(&descr) {
        return Err(format!(
            "{path}: error: dtype '{descr}' does not fit the {what}'s {}",
            ty.dtype.mlir_name()
        ));
    }
    if field("fortran_order").is_some_and(|s| s.starts_with("True")) {
        return Err(bad("Fortran order is not supported"));
    }
    let shape_text = field("shape")
        .and_then(|s| s.strip_prefix('('))
        .and_then(|s| s.split(')').next())
        .ok_or_else(|| bad("no shape"))?;
    let shape = shape_text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<usize>().map_err(|_| bad("bad shape")))
        .collect::<Result<Vec<_>, _>>()?;
    if shape != ty.shape {
        return Err(format!(
            "{path}: error: shape {shape:?} does not match the {what}'s {:?}",
            ty.shape
        ));
    }
    let data = &bytes[start + header_len..];
    let want = ty.dtype.storage_bytes(ty.numel());
    if data.len() != want {
        return Err(bad(&format!("{} data bytes, expected {want}", data.len())));
    }
    Ok(Tensor {
        dtype: ty.dtype,
        shape,
        data: data.to_vec(),
    })
}

/// Writes `t` to `path` as a version 1.0 .npy file (bf16 as `<u2` raw bits, the 4-bit types
/// as their packed bytes `|u1`).
pub fn write(path: &std::path::Path, t: &Tensor) -> Result<(), String> {
    let descr = descrs(t.dtype).first().copied().unwrap_or("|u1");
    let shape = match t.shape.len() {
        1 => format!("({},)", t.shape[0]),
        _ => format!(
            "({})",
            t.shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    // Pad so that the data starts on a 64-byte boundary, as numpy writes it.
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    bytes.extend_from_slice(&t.data);
    std::fs::write(path, bytes).map_err(|e| format!("{}: error: cannot write: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn npy(descr: &str, shape: &str, data: &[u8]) -> tempfile::NamedTempFile {
        let mut header =
            format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
        while (10 + header.len() + 1) % 64 != 0 {
            header.push(' ');
        }
        header.push('\n');
        let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
        bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
        bytes.extend_from_slice(header.as_bytes());
        bytes.extend_from_slice(data);
        let f = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(f.path(), bytes).unwrap();
        f
    }

    #[test]
    fn write_then_read_round_trips() {
        let t = Tensor::from_f64(DType::BF16, &[2, 3], &[1.0, -2.0, 0.5, 3.0, 4.0, -0.25]).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.npy");
        write(&path, &t).unwrap();
        let back = read(path.to_str().unwrap(), &t.ty()).unwrap();
        assert_eq!(back, t);
    }

    #[test]
    fn reads_f32_and_checks_shape_and_dtype() {
        let data: Vec<u8> = [1.0f32, 2.0, 3.0, 4.0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let f = npy("<f4", "(2, 2)", &data);
        let ty = TensorType {
            dtype: DType::F32,
            shape: vec![2, 2],
        };
        let t = read(f.path().to_str().unwrap(), &ty).unwrap();
        assert_eq!(t.to_f64(), vec![1.0, 2.0, 3.0, 4.0]);
        let wrong = TensorType {
            dtype: DType::F32,
            shape: vec![4],
        };
        assert!(read(f.path().to_str().unwrap(), &wrong)
            .unwrap_err()
            .contains("shape"));
        let f16 = TensorType {
            dtype: DType::F16,
            shape: vec![2, 2],
        };
        assert!(read(f.path().to_str().unwrap(), &f16)
            .unwrap_err()
            .contains("dtype"));
    }
    #[test]
    fn an_unclosed_header_dict_is_refused() {
        let ty = TensorType {
            dtype: DType::F32,
            shape: vec![1],
        };
        let header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), ";
        let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
        bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
        bytes.extend_from_slice(header.as_bytes());
        bytes.extend_from_slice(&1.0f32.to_le_bytes());
        let f = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(f.path(), bytes).unwrap();
        let err = read(f.path().to_str().unwrap(), &ty).unwrap_err();
        assert!(err.contains("not one closed {...} dict"), "{err}");
        // The same header closed reads.
        let closed = npy("<f4", "(1,)", &1.0f32.to_le_bytes());
        assert!(read(closed.path().to_str().unwrap(), &ty).is_ok());
    }
}
