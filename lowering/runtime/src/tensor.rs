//! A dense, contiguous, row-major tensor holding its elements in their storage encoding, so a
//! value round-trips through the C ABI bit for bit.

use crate::{
    dtype::{read_bits, write_bits},
    DType, RuntimeError,
};

/// Shape and element type of a tensor (static: dynamic dims are bound before execution).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TensorType {
    /// Element type.
    pub dtype: DType,
    /// Dimensions, outermost first.
    pub shape: Vec<usize>,
}

impl TensorType {
    /// A tensor type from its parts.
    pub fn new(dtype: DType, shape: Vec<usize>) -> TensorType {
        TensorType { dtype, shape }
    }

    /// Number of elements.
    ///
    /// Panics (in debug builds) when the product overflows; [`TensorType::checked_numel`] does
    /// not.
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    /// Number of elements, `None` when it overflows `usize`.
    pub fn checked_numel(&self) -> Option<usize> {
        self.shape
            .iter()
            .try_fold(1usize, |acc, d| acc.checked_mul(*d))
    }

    /// Bytes of the storage encoding, `None` on overflow.
    pub fn checked_storage_bytes(&self) -> Option<usize> {
        self.dtype.checked_storage_bytes(self.checked_numel()?)
    }
}

/// A tensor value: its type and its bytes (contiguous, row-major, storage encoding).
#[derive(Debug, Clone, PartialEq)]
pub struct Tensor {
    /// Element type.
    pub dtype: DType,
    /// Dimensions, outermost first.
    pub shape: Vec<usize>,
    /// `dtype.storage_bytes(numel)` bytes.
    pub data: Vec<u8>,
}

impl Tensor {
    /// A tensor from raw storage bytes; errors when their length does not fit the type.
    pub fn new(dtype: DType, shape: Vec<usize>, data: Vec<u8>) -> Result<Tensor, RuntimeError> {
        let t = Tensor { dtype, shape, data };
        t.validate()?;
        Ok(t)
    }

    /// All-zero bits: 0 for every type except f8E8M0FNU, whose code 0 is 2^-127.
    ///
    /// Panics when the byte count overflows `usize`.
    pub fn zeros(ty: TensorType) -> Tensor {
        let bytes = ty
            .checked_storage_bytes()
            .expect("tensor size overflows usize");
        Tensor {
            dtype: ty.dtype,
            shape: ty.shape,
            data: vec![0; bytes],
        }
    }

    /// A tensor of `values` (row-major), each rounded to `dtype` as [`DType::encode`] does.
    pub fn from_f64(dtype: DType, shape: &[usize], values: &[f64]) -> Result<Tensor, RuntimeError> {
        let mut t = Tensor::sized(dtype, shape, values.len())?;
        for (i, v) in values.iter().enumerate() {
            dtype.encode(*v, &mut t.data, i);
        }
        Ok(t)
    }

    /// A tensor of integer `values` (exact for integer types, saturating to their range).
    pub fn from_i64(dtype: DType, shape: &[usize], values: &[i64]) -> Result<Tensor, RuntimeError> {
        let mut t = Tensor::sized(dtype, shape, values.len())?;
        for (i, v) in values.iter().enumerate() {
            dtype.encode_i64(*v, &mut t.data, i);
        }
        Ok(t)
    }

    /// A zero tensor of `shape` after checking that `count` values fill it.
    fn sized(dtype: DType, shape: &[usize], count: usize) -> Result<Tensor, RuntimeError> {
        let ty = TensorType::new(dtype, shape.to_vec());
        let size_error = || RuntimeError::Backend(format!("tensor shape {shape:?} is too large"));
        let numel = ty.checked_numel().ok_or_else(size_error)?;
        if numel != count {
            return Err(RuntimeError::Backend(format!(
                "{count} values do not fill a tensor of shape {shape:?} ({numel} elements)"
            )));
        }
        let bytes = ty.checked_storage_bytes().ok_or_else(size_error)?;
        Ok(Tensor {
            dtype,
            shape: ty.shape,
            data: vec![0; bytes],
        })
    }

    /// Checks that `data` has exactly the bytes the type needs.
    pub fn validate(&self) -> Result<(), RuntimeError> {
        let expected = self.ty().checked_storage_bytes().ok_or_else(|| {
            RuntimeError::Backend(format!("tensor shape {:?} is too large", self.shape))
        })?;
        if self.data.len() != expected {
            return Err(RuntimeError::Backend(format!(
                "a {} tensor of shape {:?} needs {expected} bytes, has {}",
                self.dtype.mlir_name(),
                self.shape,
                self.data.len()
            )));
        }
        Ok(())
    }

    /// The tensor's type.
    pub fn ty(&self) -> TensorType {
        TensorType::new(self.dtype, self.shape.clone())
    }

    /// Number of elements.
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    /// Element `i` (row-major) as a value. Panics if `i` is out of range.
    pub fn get(&self, i: usize) -> f64 {
        assert!(
            i < self.numel(),
            "element {i} of {} is out of range",
            self.numel()
        );
        self.dtype.decode(&self.data, i)
    }

    /// Sets element `i` to `value`, rounded to the element type. Panics if `i` is out of range.
    pub fn set(&mut self, i: usize, value: f64) {
        assert!(
            i < self.numel(),
            "element {i} of {} is out of range",
            self.numel()
        );
        self.dtype.encode(value, &mut self.data, i);
    }

    /// Element `i` as an integer (exact for integer types). Panics if `i` is out of range.
    pub fn get_i64(&self, i: usize) -> i64 {
        assert!(
            i < self.numel(),
            "element {i} of {} is out of range",
            self.numel()
        );
        self.dtype.decode_i64(&self.data, i)
    }

    /// Sets element `i` to an integer (saturating). Panics if `i` is out of range.
    pub fn set_i64(&mut self, i: usize, value: i64) {
        assert!(
            i < self.numel(),
            "element {i} of {} is out of range",
            self.numel()
        );
        self.dtype.encode_i64(value, &mut self.data, i);
    }

    /// The raw storage bits of element `i` (low `bits()` bits); copies that must keep NaN
    /// payloads and signed zeros use these. Panics if `i` is out of range.
    pub fn get_bits(&self, i: usize) -> u64 {
        assert!(
            i < self.numel(),
            "element {i} of {} is out of range",
            self.numel()
        );
        read_bits(self.dtype, &self.data, i)
    }

    /// Sets the raw storage bits of element `i`. Panics if `i` is out of range.
    pub fn set_bits(&mut self, i: usize, bits: u64) {
        assert!(
            i < self.numel(),
            "element {i} of {} is out of range",
            self.numel()
        );
        write_bits(self.dtype, &mut self.data, i, bits);
    }

    /// Every element as a value, row-major.
    pub fn to_f64(&self) -> Vec<f64> {
        (0..self.numel())
            .map(|i| self.dtype.decode(&self.data, i))
            .collect()
    }

    /// Every element as an integer, row-major (exact for integer types).
    pub fn to_i64(&self) -> Vec<i64> {
        (0..self.numel())
            .map(|i| self.dtype.decode_i64(&self.data, i))
            .collect()
    }

    /// A deterministic pseudo-random tensor: floats uniform in `[range.0, range.1)` rounded to
    /// the type, integers uniform in `[ceil(range.0), floor(range.1)]` clamped to the type's
    /// range, `i1` a fair coin. The same `(ty, seed, range)` always gives the same bytes.
    ///
    /// Panics when the byte count overflows `usize`.
    pub fn random(ty: TensorType, seed: u64, range: (f64, f64)) -> Tensor {
        let mut rng = SplitMix64::new(seed);
        let mut t = Tensor::zeros(ty);
        let (lo, hi) = range;
        for i in 0..t.numel() {
            match t.dtype.int_range() {
                Some((tlo, thi)) if t.dtype != DType::I1 => {
                    let a = (lo.ceil() as i64).clamp(tlo, thi);
                    let b = (hi.floor() as i64).clamp(tlo, thi).max(a);
                    // The span fits u64 even for the full i64 range; `next_below` takes it + 1
                    // only when that does not overflow.
                    let span = b.abs_diff(a);
                    let offset = match span.checked_add(1) {
                        Some(n) => rng.next_below(n),
                        None => rng.next_u64(),
                    };
                    t.dtype
                        .encode_i64(a.wrapping_add(offset as i64), &mut t.data, i);
                }
                Some(_) => t
                    .dtype
                    .encode_i64((rng.next_u64() >> 63) as i64, &mut t.data, i),
                None => {
                    let v = lo + (hi - lo) * rng.next_f64();
                    t.dtype.encode(v, &mut t.data, i);
                }
            }
        }
        t
    }
}

/// The SplitMix64 generator (Steele, Lea, Flood 2014): tiny, fast, and good enough for test
/// data; not for anything that needs unpredictability.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)` with 53 random bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in `[0, n)` (n > 0), without modulo bias (Lemire's widening multiply with
    /// rejection).
    pub fn next_below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "next_below(0)");
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_and_accessors() {
        let t = Tensor::from_f64(DType::F16, &[2, 2], &[1.0, -2.5, 0.1, 65504.0]).unwrap();
        assert_eq!(t.data.len(), 8);
        assert_eq!(t.numel(), 4);
        assert_eq!(t.ty(), TensorType::new(DType::F16, vec![2, 2]));
        assert_eq!(t.get(1), -2.5);
        assert_eq!(t.get(2), DType::F16.round(0.1));
        let mut z = Tensor::zeros(TensorType::new(DType::I4, vec![3]));
        assert_eq!(z.data.len(), 2);
        z.set(2, -3.0);
        z.set(0, 9.0);
        assert_eq!(z.to_i64(), vec![7, 0, -3]);
        assert!(Tensor::from_f64(DType::F32, &[3], &[1.0]).is_err());
        assert!(Tensor::new(DType::F32, vec![2], vec![0; 7]).is_err());
        let big = Tensor::from_i64(DType::I64, &[1], &[i64::MAX - 1]).unwrap();
        assert_eq!(big.get_i64(0), i64::MAX - 1);
    }

    #[test]
    fn random_is_deterministic_and_in_range() {
        let ty = TensorType::new(DType::F32, vec![64]);
        let a = Tensor::random(ty.clone(), 7, (-1.0, 1.0));
        let b = Tensor::random(ty.clone(), 7, (-1.0, 1.0));
        let c = Tensor::random(ty, 8, (-1.0, 1.0));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.to_f64().iter().all(|v| (-1.0..1.0).contains(v)));
        let ints = Tensor::random(TensorType::new(DType::I8, vec![1000]), 1, (-3.0, 3.0));
        let v = ints.to_i64();
        assert!(v.iter().all(|x| (-3..=3).contains(x)));
        assert!(v.contains(&-3) && v.contains(&3));
        let i4 = Tensor::random(TensorType::new(DType::I4, vec![100]), 2, (-100.0, 100.0));
        assert!(i4.to_i64().iter().all(|x| (-8..=7).contains(x)));
        let full = Tensor::random(TensorType::new(DType::I64, vec![4]), 3, (-1e30, 1e30));
        assert_eq!(full.numel(), 4);
    }

    #[test]
    fn splitmix_reference_values() {
        // First outputs for seed 0 from the reference implementation.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let mut r = SplitMix64::new(5);
        for _ in 0..1000 {
            assert!(r.next_below(3) < 3);
        }
    }
}
