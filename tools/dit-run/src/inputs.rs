//! Input values: seeded random tensors by element type, with the values some operands need to
//! be meaningful (a grouped matmul's group_list must split the rows), or .npy files.

use dit_dialect::ir::Val;
use dit_dialect::ops::OpKind;
use dit_runtime::{DType, Tensor, TensorType};

/// What an argument's uses require of its values.
#[derive(Clone, Debug, PartialEq)]
pub enum Role {
    /// Any value of its type.
    Free,
    /// A group_list splitting `rows` rows into its E groups, as end offsets or counts.
    GroupList { rows: usize, cumsum: bool },
    /// Integers whose bits a dit.bitcast reads as another type (fp8 weights stored as i8):
    /// small non-negative values, the bits of finite numbers in every 8-bit float format.
    FloatBits,
}

/// Whether `v` reaches a dit.bitcast through layout ops.
fn feeds_bitcast(v: Val, depth: usize) -> bool {
    depth < 8
        && v.users().into_iter().any(|u| {
            u.is_kind(OpKind::Bitcast)
                || ((u.is_kind(OpKind::Transpose) || u.is_kind(OpKind::Reshape))
                    && feeds_bitcast(u.result(0), depth + 1))
        })
}

/// The role of a function argument, from its users.
pub fn role(arg: Val) -> Role {
    for user in arg.users() {
        let grouped =
            user.is_kind(OpKind::GroupedMatmul) || user.is_kind(OpKind::GroupedMatmulSwigluQuant);
        if grouped && user.num_operands() > 2 && user.operand(2) == arg {
            let rows = user
                .operand(0)
                .tensor()
                .and_then(|t| t.shape.first().copied().flatten())
                .unwrap_or(0)
                .max(0) as usize;
            let cumsum = user
                .attr("group_list_type")
                .and_then(|a| a.as_str())
                .is_none_or(|k| k == "cumsum");
            return Role::GroupList { rows, cumsum };
        }
    }
    if arg
        .tensor()
        .is_some_and(|t| t.elem == dit_dialect::tensor::Elem::I8)
        && feeds_bitcast(arg, 0)
    {
        return Role::FloatBits;
    }
    Role::Free
}

/// A random value for input `index` of type `ty`: floats in `range`, integers in [-8, 8]
/// (i64/i32 in [0, 8]), and valid group lists.
pub fn random(ty: &TensorType, role: &Role, seed: u64, index: usize, range: (f64, f64)) -> Tensor {
    let seed = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index as u64);
    match role {
        Role::GroupList { rows, cumsum } if ty.dtype == DType::I64 && ty.shape.len() == 1 => {
            let groups = ty.shape[0].max(1);
            // Uneven but deterministic: group g gets rows*(g+1)/sum share, the last takes the rest.
            let total: usize = (1..=groups).sum();
            let mut counts: Vec<usize> = (1..=groups).map(|g| rows * g / total).collect();
            let assigned: usize = counts.iter().sum();
            if let Some(last) = counts.last_mut() {
                *last += rows - assigned;
            }
            let mut values = Vec::with_capacity(groups);
            let mut end = 0usize;
            for c in counts {
                end += c;
                values.push(if *cumsum { end as f64 } else { c as f64 });
            }
            Tensor::from_f64(ty.dtype, &ty.shape, &values)
                .unwrap_or_else(|_| Tensor::zeros(ty.clone()))
        }
        Role::FloatBits => Tensor::random(ty.clone(), seed, (0.0, 100.0)),
        _ => {
            let range = match ty.dtype {
                DType::I32 | DType::I64 => (0.0, 8.0),
                // E8M0 holds only positive powers of two: MX block scales.
                DType::F8E8M0FNU => (0.25, 4.0),
                d if d.is_integer() => (-8.0, 8.0),
                _ => range,
            };
            Tensor::random(ty.clone(), seed, range)
        }
    }
}

/// Reads a raw input file: exactly the storage bytes of `ty`, row-major.
pub fn read_raw(path: &str, ty: &TensorType) -> Result<Tensor, String> {
    let data = std::fs::read(path).map_err(|e| format!("{path}: error: cannot read: {e}"))?;
    let want = ty.dtype.storage_bytes(ty.numel());
    if data.len() != want {
        return Err(format!(
            "{path}: error: {} bytes, expected {want} for {}{:?}",
            data.len(),
            ty.dtype.mlir_name(),
            ty.shape
        ));
    }
    Ok(Tensor {
        dtype: ty.dtype,
        shape: ty.shape.clone(),
        data,
    })
}
