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

pub use dit_ops::DType;

/// The element type of a dit value: one of DIALECT.md's types (a [`DType`], the one
/// element-type enum the runtime shares) or `Other` for anything else (reported by the
/// verifier, carried by the ops that take any type).
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Elem {
    /// A DIALECT.md element type.
    Known(DType),
    /// A type the dialect does not model, as MLIR prints it.
    Other(String),
}

/// The DIALECT.md types by name, so `Elem::BF16` reads (and matches) like the type it is.
impl Elem {
    /// `f32`.
    pub const F32: Elem = Elem::Known(DType::F32);
    /// `f16`.
    pub const F16: Elem = Elem::Known(DType::F16);
    /// `bf16`.
    pub const BF16: Elem = Elem::Known(DType::BF16);
    /// `i1` (masks).
    pub const I1: Elem = Elem::Known(DType::I1);
    /// `i4`.
    pub const I4: Elem = Elem::Known(DType::I4);
    /// `i8`.
    pub const I8: Elem = Elem::Known(DType::I8);
    /// `i32`.
    pub const I32: Elem = Elem::Known(DType::I32);
    /// `i64`.
    pub const I64: Elem = Elem::Known(DType::I64);
    /// `f8E4M3FN`.
    pub const F8E4M3FN: Elem = Elem::Known(DType::F8E4M3FN);
    /// `f8E5M2`.
    pub const F8E5M2: Elem = Elem::Known(DType::F8E5M2);
    /// `f8E8M0FNU`.
    pub const F8E8M0FNU: Elem = Elem::Known(DType::F8E8M0FNU);
    /// `f4E2M1FN`.
    pub const F4E2M1FN: Elem = Elem::Known(DType::F4E2M1FN);
}

impl From<DType> for Elem {
    fn from(d: DType) -> Elem {
        Elem::Known(d)
    }
}

impl Elem {
    /// Classifies an MLIR element type.
    pub fn of(ty: Type) -> Elem {
        let raw = ty.to_raw();
        // SAFETY: type predicates only read the uniqued type storage.
        let known = unsafe {
            if mlirTypeIsAF32(raw) {
                Some(DType::F32)
            } else if mlirTypeIsAF16(raw) {
                Some(DType::F16)
            } else if mlirTypeIsABF16(raw) {
                Some(DType::BF16)
            } else if mlirTypeIsAFloat8E4M3FN(raw) {
                Some(DType::F8E4M3FN)
            } else if mlirTypeIsAFloat8E5M2(raw) {
                Some(DType::F8E5M2)
            } else if mlirTypeIsAFloat8E8M0FNU(raw) {
                Some(DType::F8E8M0FNU)
            } else if mlirTypeIsAFloat4E2M1FN(raw) {
                Some(DType::F4E2M1FN)
            } else if mlirTypeIsAInteger(raw) && mlirIntegerTypeIsSignless(raw) {
                match mlirIntegerTypeGetWidth(raw) {
                    1 => Some(DType::I1),
                    4 => Some(DType::I4),
                    8 => Some(DType::I8),
                    32 => Some(DType::I32),
                    64 => Some(DType::I64),
                    _ => None,
                }
            } else {
                None
            }
        };
        known.map_or_else(|| Elem::Other(ty.to_string()), Elem::Known)
    }

    /// The DIALECT.md type, `None` for `Other`.
    pub fn dtype(&self) -> Option<DType> {
        match self {
            Elem::Known(d) => Some(*d),
            Elem::Other(_) => None,
        }
    }

    /// f32, f16 or bf16: the types vector kernels compute in.
    pub fn is_float(&self) -> bool {
        self.dtype().is_some_and(DType::is_float)
    }

    /// Size of one element in bits as the IR counts it (i1 is 1 bit), if it is a known type.
    pub fn bits(&self) -> Option<u64> {
        self.dtype().map(DType::ir_bits)
    }

    /// Whether the type is one DIALECT.md allows on dit values (i1 is allowed for masks).
    pub fn is_dialect_type(&self) -> bool {
        !matches!(self, Elem::Other(_))
    }
}

/// `I8` for a known type (the DType's name, as messages and reports print it), `Other("...")`
/// for another.
impl fmt::Debug for Elem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Elem::Known(d) => fmt::Debug::fmt(d, f),
            Elem::Other(s) => f.debug_tuple("Other").field(s).finish(),
        }
    }
}

impl fmt::Display for Elem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Elem::Known(d) => f.write_str(d.mlir_name()),
            Elem::Other(s) => f.write_str(s),
        }
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
