//! Reading ranked tensor types: element type and shape, as the verifier and passes see them.

use melior::ir::{Type, TypeLike};
use mlir_sys::{
    mlirIntegerTypeGetWidth, mlirIntegerTypeIsSignless, mlirTypeIsABF16, mlirTypeIsAF16,
    mlirTypeIsAF32, mlirTypeIsAFloat4E2M1FN, mlirTypeIsAFloat8E4M3FN, mlirTypeIsAFloat8E5M2,
    mlirTypeIsAFloat8E8M0FNU, mlirTypeIsAInteger,
};
use std::fmt;

extern "C" {
    /// lib/CAPI/Dialects.cpp: a ranked tensor type's rank, dims and element type in one call
    /// (the C API's ShapedType accessors look the interface up on every call); false for any
    /// other type.
    fn ditRankedTensorShape(
        ty: mlir_sys::MlirType,
        rank: *mut isize,
        dims: *mut *const i64,
        element: *mut mlir_sys::MlirType,
    ) -> bool;
}

/// The element types of DIALECT.md, plus `Other` for anything else (reported by the verifier).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    F32,
    F16,
    BF16,
    I1,
    I4,
    I8,
    I32,
    I64,
    F8E4M3FN,
    F8E5M2,
    F8E8M0FNU,
    F4E2M1FN,
    Other(String),
}

impl Elem {
    /// Classifies an MLIR element type.
    pub fn of(ty: Type) -> Elem {
        let raw = ty.to_raw();
        // SAFETY: type predicates only read the uniqued type storage.
        unsafe {
            if mlirTypeIsAF32(raw) {
                Elem::F32
            } else if mlirTypeIsAF16(raw) {
                Elem::F16
            } else if mlirTypeIsABF16(raw) {
                Elem::BF16
            } else if mlirTypeIsAFloat8E4M3FN(raw) {
                Elem::F8E4M3FN
            } else if mlirTypeIsAFloat8E5M2(raw) {
                Elem::F8E5M2
            } else if mlirTypeIsAFloat8E8M0FNU(raw) {
                Elem::F8E8M0FNU
            } else if mlirTypeIsAFloat4E2M1FN(raw) {
                Elem::F4E2M1FN
            } else if mlirTypeIsAInteger(raw) && mlirIntegerTypeIsSignless(raw) {
                match mlirIntegerTypeGetWidth(raw) {
                    1 => Elem::I1,
                    4 => Elem::I4,
                    8 => Elem::I8,
                    32 => Elem::I32,
                    64 => Elem::I64,
                    _ => Elem::Other(ty.to_string()),
                }
            } else {
                Elem::Other(ty.to_string())
            }
        }
    }

    /// f32, f16 or bf16: the types vector kernels compute in.
    pub fn is_float(&self) -> bool {
        matches!(self, Elem::F32 | Elem::F16 | Elem::BF16)
    }

    /// Size of one element in bits, if it is a known type.
    pub fn bits(&self) -> Option<u64> {
        Some(match self {
            Elem::F32 | Elem::I32 => 32,
            Elem::F16 | Elem::BF16 => 16,
            Elem::I64 => 64,
            Elem::I8 | Elem::F8E4M3FN | Elem::F8E5M2 | Elem::F8E8M0FNU => 8,
            Elem::I4 | Elem::F4E2M1FN => 4,
            Elem::I1 => 1,
            Elem::Other(_) => return None,
        })
    }

    /// Whether the type is one DIALECT.md allows on dit values (i1 is allowed for masks).
    pub fn is_dialect_type(&self) -> bool {
        !matches!(self, Elem::Other(_))
    }
}

impl fmt::Display for Elem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Elem::F32 => "f32",
            Elem::F16 => "f16",
            Elem::BF16 => "bf16",
            Elem::I1 => "i1",
            Elem::I4 => "i4",
            Elem::I8 => "i8",
            Elem::I32 => "i32",
            Elem::I64 => "i64",
            Elem::F8E4M3FN => "f8E4M3FN",
            Elem::F8E5M2 => "f8E5M2",
            Elem::F8E8M0FNU => "f8E8M0FNU",
            Elem::F4E2M1FN => "f4E2M1FN",
            Elem::Other(s) => s,
        };
        f.write_str(s)
    }
}

/// A dimension: a static size or dynamic (`?`).
pub type Dim = Option<i64>;

/// A ranked tensor's element type and shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorInfo {
    pub elem: Elem,
    pub shape: Vec<Dim>,
}

impl TensorInfo {
    /// Reads a ranked tensor type; `None` for anything else.
    pub fn of(ty: Type) -> Option<TensorInfo> {
        let (mut rank, mut dims) = (0isize, std::ptr::null());
        let mut element = ty.to_raw();
        // SAFETY: the type is alive; on success `dims` points at `rank` dims in its uniqued
        // storage, which lives as long as the context (read here, not kept).
        let shape = unsafe {
            if !ditRankedTensorShape(ty.to_raw(), &mut rank, &mut dims, &mut element) {
                return None;
            }
            // A rank-0 shape may come with a null pointer, which a slice must not have.
            if rank == 0 {
                &[][..]
            } else {
                std::slice::from_raw_parts(dims, rank as usize)
            }
        };
        Some(TensorInfo {
            // A dynamic dim is ShapedType::kDynamic (negative); a static one never is.
            shape: shape.iter().map(|&d| (d >= 0).then_some(d)).collect(),
            // SAFETY: the element type of a live tensor type.
            elem: Elem::of(unsafe { Type::from_raw(element) }),
        })
    }

    /// Number of dimensions.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Dimension `i` counted from the back (0 is the last).
    pub fn dim_from_back(&self, i: usize) -> Dim {
        self.shape
            .len()
            .checked_sub(i + 1)
            .and_then(|j| self.shape[j])
    }

    /// Storage bytes (sub-byte types round up; dynamic dims count as 1), `None` when they
    /// exceed `i64::MAX`: sizes travel as i64 through the runtime's C ABI, and every size
    /// computed from a shape (cost model, tile planner, allocations) must fit, so the verifier
    /// refuses a dit op whose tensor does not.
    pub fn checked_bytes(&self) -> Option<u64> {
        if self.shape.contains(&Some(0)) {
            return Some(0);
        }
        let bits = self
            .shape
            .iter()
            .try_fold(u128::from(self.elem.bits().unwrap_or(32)), |acc, d| {
                acc.checked_mul(d.unwrap_or(1).max(0) as u128)
            })?;
        let bytes = bits.div_ceil(8);
        u64::try_from(bytes).ok().filter(|b| *b <= i64::MAX as u64)
    }

    /// The number of elements, when every dimension is static.
    pub fn num_elements(&self) -> Option<i64> {
        self.shape
            .iter()
            .try_fold(1i64, |acc, d| acc.checked_mul((*d)?))
    }
}

/// Formats a shape like MLIR does: `4x?x8`.
pub fn shape_string(shape: &[Dim]) -> String {
    shape
        .iter()
        .map(|d| d.map_or("?".to_string(), |v| v.to_string()))
        .collect::<Vec<_>>()
        .join("x")
}

/// Numpy broadcasting of two shapes; `None` when two static dims differ and neither is 1.
pub fn broadcast_shapes(a: &[Dim], b: &[Dim]) -> Option<Vec<Dim>> {
    let rank = a.len().max(b.len());
    let mut out = vec![None; rank];
    for (i, slot) in out.iter_mut().enumerate() {
        let da = (i + a.len())
            .checked_sub(rank)
            .map(|j| a[j])
            .unwrap_or(Some(1));
        let db = (i + b.len())
            .checked_sub(rank)
            .map(|j| b[j])
            .unwrap_or(Some(1));
        *slot = match (da, db) {
            (Some(1), d) | (d, Some(1)) => d,
            (Some(x), Some(y)) if x == y => Some(x),
            (Some(_), Some(_)) => return None,
            (Some(x), None) | (None, Some(x)) => Some(x),
            (None, None) => None,
        };
    }
    Some(out)
}

/// Whether two dims can be equal (a dynamic dim matches anything).
pub fn dims_compatible(a: Dim, b: Dim) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    }
}

/// Whether two shapes can be equal dim by dim.
pub fn shapes_compatible(a: &[Dim], b: &[Dim]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| dims_compatible(*x, *y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broadcasting_follows_numpy() {
        let s = |v: &[i64]| v.iter().map(|d| Some(*d)).collect::<Vec<_>>();
        assert_eq!(
            broadcast_shapes(&s(&[4, 1, 8]), &s(&[3, 1])),
            Some(s(&[4, 3, 8]))
        );
        assert_eq!(broadcast_shapes(&s(&[2, 3]), &s(&[4, 3])), None);
        assert_eq!(broadcast_shapes(&s(&[]), &s(&[5])), Some(s(&[5])));
        assert_eq!(
            broadcast_shapes(&[None, Some(3)], &s(&[7, 3])),
            Some(s(&[7, 3]))
        );
    }

    #[test]
    fn tensor_types_read_with_dynamic_dims_rank_zero_and_non_tensors() {
        let context = crate::new_context().unwrap();
        let parse = |text: &str| Type::parse(&context, text).expect(text);
        let t = TensorInfo::of(parse("tensor<2x?x8xbf16>")).unwrap();
        assert_eq!(
            (t.elem, t.shape),
            (Elem::BF16, vec![Some(2), None, Some(8)])
        );
        let t = TensorInfo::of(parse("tensor<f32>")).unwrap();
        assert_eq!((t.elem, t.shape), (Elem::F32, vec![]));
        let t = TensorInfo::of(parse("tensor<0x3xi1>")).unwrap();
        assert_eq!((t.elem, t.shape), (Elem::I1, vec![Some(0), Some(3)]));
        let t = TensorInfo::of(parse("tensor<4xf64>")).unwrap();
        assert_eq!(t.elem, Elem::Other("f64".into()));
        assert!(TensorInfo::of(parse("tensor<*xf32>")).is_none());
        assert!(TensorInfo::of(parse("memref<4xf32>")).is_none());
        assert!(TensorInfo::of(parse("f32")).is_none());
    }
}
