//! FRACTAL_NZ, CANN's fractal layout of matmul weights (aclFormat 29): a row-major `[.., R, C]`
//! matrix is stored as `[.., ⌈C/c0⌉, ⌈R/16⌉, 16, c0]`, fractals of 16 rows by c0 = 32 bytes
//! of elements, zero-padded where R or C is not a whole number of fractals
//! ([`crate::kernels::nz_dims`]). Element `(r, c)` of a matrix lands at
//! `((c / c0)·⌈R/16⌉ + r / 16)·16·c0 + (r % 16)·c0 + c % c0`; batch dims stay outermost.
//! The WeightNz kernels (aclnnQuantMatmulWeightNz, aclnnGroupedMatmulSwigluQuantWeightNZ) take
//! their weight so; the lowering's init entry re-lays a weight argument once
//! (`dit_rt_to_nz`), which is what torch_npu's `npu_format_cast(w, 29)` does on the device.

use crate::{
    dtype::{read_bits, write_bits},
    kernels::nz_dims,
    DType,
};

/// For each row-major element index of `shape`, its element index in the NZ storage; and the
/// NZ storage's element count.
fn nz_index(shape: &[usize], bits: usize) -> Result<(Vec<usize>, usize), String> {
    let dims = nz_dims(shape, bits)?;
    let n = shape.len();
    let (rows, cols) = (shape[n - 2], shape[n - 1]);
    let c0 = 256 / bits;
    let r1 = rows.div_ceil(16);
    let fractals = |d: &[i64]| d.iter().map(|x| *x as usize).product::<usize>();
    let per_matrix = fractals(&dims[n - 2..]);
    let total = fractals(&dims);
    let batches: usize = shape[..n - 2].iter().product();
    let mut index = Vec::with_capacity(batches * rows * cols);
    for b in 0..batches {
        for r in 0..rows {
            for c in 0..cols {
                index.push(
                    b * per_matrix + ((c / c0) * r1 + r / 16) * 16 * c0 + (r % 16) * c0 + c % c0,
                );
            }
        }
    }
    Ok((index, total))
}

/// The NZ storage bytes of the row-major tensor `data` (`dtype`, `shape`), zero-padded.
pub fn to_nz(dtype: DType, shape: &[usize], data: &[u8]) -> Result<Vec<u8>, String> {
    let (index, total) = nz_index(shape, dtype.bits())?;
    let mut out = vec![0u8; dtype.storage_bytes(total)];
    for (i, j) in index.into_iter().enumerate() {
        write_bits(dtype, &mut out, j, read_bits(dtype, data, i));
    }
    Ok(out)
}

/// The row-major bytes of an NZ-stored tensor of logical `shape` (the inverse of [`to_nz`]).
/// Shapes were checked when the NZ tensor was made, so a bad one gives zeros.
pub fn from_nz(dtype: DType, shape: &[usize], nz: &[u8]) -> Vec<u8> {
    let numel: usize = shape.iter().product();
    let mut out = vec![0u8; dtype.storage_bytes(numel)];
    if let Ok((index, _)) = nz_index(shape, dtype.bits()) {
        for (i, j) in index.into_iter().enumerate() {
            write_bits(dtype, &mut out, i, read_bits(dtype, nz, j));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int8_matrix_goes_to_fractals_and_back() {
        // 20 x 40 int8: c0 = 32, so 2 column fractals and 2 row fractals, zero-padded.
        let shape = [20usize, 40];
        let data: Vec<u8> = (0..800).map(|i| (i % 251) as u8 + 1).collect();
        let nz = to_nz(DType::I8, &shape, &data).unwrap();
        assert_eq!(nz.len(), 2 * 2 * 16 * 32);
        // Storage index of (column fractal, row fractal, row in it, column in it).
        let at = |cf: usize, rf: usize, r: usize, c: usize| ((cf * 2 + rf) * 16 + r) * 32 + c;
        // (r, c) = (17, 33): column fractal 1, row fractal 1, row 1, column 1 within it.
        assert_eq!(nz[at(1, 1, 1, 1)], data[17 * 40 + 33]);
        // Padding is zero: row 20 is row 4 of the second row fractal.
        assert_eq!(nz[at(0, 1, 4, 0)], 0);
        assert_eq!(from_nz(DType::I8, &shape, &nz), data);
    }

    #[test]
    fn batches_and_half_types_round_trip() {
        // 2 x 3 x 5 bf16: c0 = 16.
        let shape = [2usize, 3, 5];
        let data: Vec<u8> = (0..60).map(|i| i as u8).collect();
        let nz = to_nz(DType::BF16, &shape, &data).unwrap();
        assert_eq!(nz.len(), 2 * (16 * 16) * 2);
        assert_eq!(from_nz(DType::BF16, &shape, &nz), data);
        assert!(to_nz(DType::I8, &[4], &[0; 4]).is_err());
    }
}
