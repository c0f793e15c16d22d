//! Element types, the one enum of them for every crate (the dialect's `Elem` is a `DType` or a
//! type the dialect does not model; the runtime uses it as is): their MLIR spelling, their
//! aclDataType code (the C ABI uses CANN's codes so a descriptor passes to aclCreateTensor
//! unchanged), storage size, and value conversion.
//!
//! Conversion to a type rounds to nearest, ties to even, in one step from `f64` (never through
//! `f32`, which could round twice). The encoders of the small float formats are written here
//! rather than taken from `half`: `half`'s `from_f64` drops the low 32 mantissa bits of the `f64`
//! before rounding, so a value just above a tie would round as if it were the tie. `half` decodes
//! f16/bf16 and checks the encoders in the tests.

/// An element type of the dit dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DType {
    /// IEEE binary32.
    F32,
    /// IEEE binary16.
    F16,
    /// bfloat16.
    BF16,
    /// Boolean (`i1`, attention masks), one byte per element as CANN's ACL_BOOL.
    I1,
    /// Signed 8-bit integer.
    I8,
    /// Signed 4-bit integer, two per byte, low nibble first (CANN's packing).
    I4,
    /// Signed 32-bit integer.
    I32,
    /// Signed 64-bit integer.
    I64,
    /// OCP FP8 E4M3 (finite-only, NaN = S.1111.111).
    F8E4M3FN,
    /// OCP FP8 E5M2.
    F8E5M2,
    /// OCP E8M0 scale (exponent only, unsigned).
    F8E8M0FNU,
    /// OCP FP4 E2M1, two per byte, low nibble first.
    F4E2M1FN,
}

impl DType {
    /// Every element type, in declaration order.
    pub const ALL: [DType; 12] = [
        DType::F32,
        DType::F16,
        DType::BF16,
        DType::I1,
        DType::I8,
        DType::I4,
        DType::I32,
        DType::I64,
        DType::F8E4M3FN,
        DType::F8E5M2,
        DType::F8E8M0FNU,
        DType::F4E2M1FN,
    ];

    /// The MLIR spelling (`bf16`, `f8E4M3FN`, …).
    pub fn mlir_name(self) -> &'static str {
        match self {
            DType::F32 => "f32",
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::I1 => "i1",
            DType::I8 => "i8",
            DType::I4 => "i4",
            DType::I32 => "i32",
            DType::I64 => "i64",
            DType::F8E4M3FN => "f8E4M3FN",
            DType::F8E5M2 => "f8E5M2",
            DType::F8E8M0FNU => "f8E8M0FNU",
            DType::F4E2M1FN => "f4E2M1FN",
        }
    }

    /// Parses an MLIR element type spelling.
    pub fn from_mlir_name(name: &str) -> Option<DType> {
        DType::ALL.into_iter().find(|d| d.mlir_name() == name)
    }

    /// CANN's aclDataType code (acl_base.h).
    pub fn acl_code(self) -> i32 {
        match self {
            DType::F32 => 0,
            DType::F16 => 1,
            DType::I8 => 2,
            DType::I32 => 3,
            DType::I64 => 9,
            DType::I1 => 12,
            DType::BF16 => 27,
            DType::I4 => 29,
            DType::F8E5M2 => 35,
            DType::F8E4M3FN => 36,
            DType::F8E8M0FNU => 37,
            DType::F4E2M1FN => 40,
        }
    }

    /// The element type with aclDataType code `code`.
    pub fn from_acl_code(code: i32) -> Option<DType> {
        DType::ALL.into_iter().find(|d| d.acl_code() == code)
    }

    /// Bits of one element as the IR counts them: [`DType::bits`], but 1 for `i1` (the
    /// dialect's sizes, cost model and tile planner count an i1 tensor packed; the runtime
    /// stores it a byte per element).
    pub fn ir_bits(self) -> u64 {
        match self {
            DType::I1 => 1,
            other => other.bits() as u64,
        }
    }

    /// Storage bits per element (4 for the packed types, 8 for `i1`, which CANN stores as a
    /// byte).
    pub fn bits(self) -> usize {
        match self {
            DType::I4 | DType::F4E2M1FN => 4,
            DType::I1 | DType::I8 | DType::F8E4M3FN | DType::F8E5M2 | DType::F8E8M0FNU => 8,
            DType::F16 | DType::BF16 => 16,
            DType::F32 | DType::I32 => 32,
            DType::I64 => 64,
        }
    }

    /// Bytes that `count` elements occupy (packed types round up).
    pub fn storage_bytes(self, count: usize) -> usize {
        (count * self.bits()).div_ceil(8)
    }

    /// Like [`DType::storage_bytes`], `None` when the byte count overflows `usize`.
    pub fn checked_storage_bytes(self, count: usize) -> Option<usize> {
        Some(count.checked_mul(self.bits())?.div_ceil(8))
    }

    /// True for the signed integer types (not `i1`, which is a boolean).
    pub fn is_integer(self) -> bool {
        matches!(self, DType::I4 | DType::I8 | DType::I32 | DType::I64)
    }

    /// True for f32, f16 and bf16: the types vector kernels compute in.
    pub fn is_float(self) -> bool {
        matches!(self, DType::F32 | DType::F16 | DType::BF16)
    }

    /// The inclusive value range of an integer type (`i1`: 0..=1).
    pub fn int_range(self) -> Option<(i64, i64)> {
        match self {
            DType::I1 => Some((0, 1)),
            DType::I4 => Some((-8, 7)),
            DType::I8 => Some((i8::MIN.into(), i8::MAX.into())),
            DType::I32 => Some((i32::MIN.into(), i32::MAX.into())),
            DType::I64 => Some((i64::MIN, i64::MAX)),
            _ => None,
        }
    }

    /// The largest finite value of the type.
    pub fn max_finite(self) -> f64 {
        match self {
            DType::F32 => f64::from(f32::MAX),
            DType::F16 => 65504.0,
            DType::BF16 => f64::from(half::bf16::MAX.to_f32()),
            DType::F8E4M3FN => 448.0,
            DType::F8E5M2 => 57344.0,
            DType::F8E8M0FNU => 2f64.powi(127),
            DType::F4E2M1FN => 6.0,
            other => other.int_range().map_or(0.0, |(_, hi)| hi as f64),
        }
    }

    /// Reads element `index` of a storage buffer as a value.
    ///
    /// Panics if the buffer is shorter than `storage_bytes(index + 1)`.
    pub fn decode(self, data: &[u8], index: usize) -> f64 {
        let bits = read_bits(self, data, index);
        match self {
            DType::F32 => f64::from(f32::from_bits(bits as u32)),
            DType::F16 => half::f16::from_bits(bits as u16).to_f64(),
            DType::BF16 => half::bf16::from_bits(bits as u16).to_f64(),
            DType::I1 => f64::from(u8::from(bits != 0)),
            DType::I4 | DType::I8 | DType::I32 | DType::I64 => self.decode_i64(data, index) as f64,
            DType::F8E4M3FN => E4M3FN.decode(bits),
            DType::F8E5M2 => E5M2.decode(bits),
            DType::F8E8M0FNU => e8m0_decode(bits as u8),
            DType::F4E2M1FN => E2M1.decode(bits),
        }
    }

    /// Writes `value` as element `index` of a storage buffer: floats round to nearest even;
    /// integers round half to even and saturate (NaN becomes 0), which is what Ascend's `rint`
    /// casts do; `i1` stores whether the value is non-zero.
    ///
    /// Panics if the buffer is shorter than `storage_bytes(index + 1)`.
    pub fn encode(self, value: f64, data: &mut [u8], index: usize) {
        let bits = self.to_bits(value);
        write_bits(self, data, index, bits);
    }

    /// Reads an integer element exactly (i64 values beyond 2^53 do not survive `f64`). Float
    /// elements are rounded half to even and saturated to `i64`.
    ///
    /// Panics if the buffer is too short.
    pub fn decode_i64(self, data: &[u8], index: usize) -> i64 {
        let bits = read_bits(self, data, index);
        match self {
            DType::I1 => i64::from(bits != 0),
            DType::I4 => (((bits as u8) << 4) as i8 >> 4).into(),
            DType::I8 => (bits as u8 as i8).into(),
            DType::I32 => (bits as u32 as i32).into(),
            DType::I64 => bits as i64,
            _ => round_to_i64(self.decode(data, index), i64::MIN, i64::MAX),
        }
    }

    /// Writes an integer as element `index`: integer types saturate to their range, `i1` stores
    /// whether it is non-zero, float types round it like [`DType::encode`].
    ///
    /// Panics if the buffer is too short.
    pub fn encode_i64(self, value: i64, data: &mut [u8], index: usize) {
        match self.int_range() {
            Some((lo, hi)) => {
                let v = if self == DType::I1 {
                    i64::from(value != 0)
                } else {
                    value.clamp(lo, hi)
                };
                // Two's complement truncated to the width is the storage encoding.
                write_bits(self, data, index, v as u64 & width_mask(self));
            }
            None => self.encode(value as f64, data, index),
        }
    }

    /// `value` rounded to this type (what a store followed by a load gives).
    pub fn round(self, value: f64) -> f64 {
        let mut buf = [0u8; 8];
        self.encode(value, &mut buf, 0);
        self.decode(&buf, 0)
    }

    /// The storage bits of `value` in this type (low `bits()` bits).
    pub fn to_bits(self, value: f64) -> u64 {
        match self {
            DType::F32 => u64::from((value as f32).to_bits()),
            DType::F16 => F16.encode(value),
            DType::BF16 => BF16.encode(value),
            DType::I1 => u64::from(value != 0.0),
            DType::I4 | DType::I8 | DType::I32 | DType::I64 => {
                let (lo, hi) = self.int_range().unwrap_or((0, 0));
                round_to_i64(value, lo, hi) as u64 & width_mask(self)
            }
            DType::F8E4M3FN => E4M3FN.encode(value),
            DType::F8E5M2 => E5M2.encode(value),
            DType::F8E8M0FNU => u64::from(e8m0_encode(value)),
            DType::F4E2M1FN => E2M1.encode(value),
        }
    }
}

/// Rounds half to even and saturates to `[lo, hi]`; NaN gives 0 (Ascend's float→int casts
/// give 0 for NaN).
fn round_to_i64(value: f64, lo: i64, hi: i64) -> i64 {
    if value.is_nan() {
        return 0;
    }
    let r = value.round_ties_even();
    // Compare in f64 first: `lo as f64` / `hi as f64` may round (i64 bounds), and `as i64`
    // saturates anyway for values outside i64.
    if r <= lo as f64 {
        lo
    } else if r >= hi as f64 {
        hi
    } else {
        (r as i64).clamp(lo, hi)
    }
}

/// A mask of the low `bits()` bits.
fn width_mask(dtype: DType) -> u64 {
    if dtype.bits() == 64 {
        u64::MAX
    } else {
        (1u64 << dtype.bits()) - 1
    }
}

/// Reads the raw storage bits of element `index` (little-endian; packed types low nibble
/// first). `data` must hold the element (the runtime's tensors check their byte counts).
pub fn read_bits(dtype: DType, data: &[u8], index: usize) -> u64 {
    match dtype.bits() {
        4 => {
            let byte = data[index / 2];
            u64::from(if index.is_multiple_of(2) {
                byte & 0x0F
            } else {
                byte >> 4
            })
        }
        bits => {
            let n = bits / 8;
            let start = index * n;
            data[start..start + n]
                .iter()
                .rev()
                .fold(0u64, |acc, b| (acc << 8) | u64::from(*b))
        }
    }
}

/// Writes the raw storage bits of element `index` (the inverse of [`read_bits`]).
pub fn write_bits(dtype: DType, data: &mut [u8], index: usize, bits: u64) {
    match dtype.bits() {
        4 => {
            let byte = &mut data[index / 2];
            let nibble = (bits & 0x0F) as u8;
            *byte = if index.is_multiple_of(2) {
                (*byte & 0xF0) | nibble
            } else {
                (*byte & 0x0F) | (nibble << 4)
            };
        }
        width => {
            let n = width / 8;
            let start = index * n;
            for (i, b) in data[start..start + n].iter_mut().enumerate() {
                *b = (bits >> (8 * i)) as u8;
            }
        }
    }
}

/// What a format does with values it cannot represent.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Specials {
    /// IEEE: the all-ones exponent holds infinities and NaNs; overflow rounds to infinity.
    Ieee,
    /// OCP "FN" formats like E4M3FN: only S.1111.111 is NaN, no infinities; overflow and
    /// infinities saturate to the largest finite value.
    NanOnly,
    /// No NaN and no infinity (FP4 E2M1): overflow saturates, NaN becomes +0 (the OCP spec
    /// leaves it to the implementation).
    None,
}

/// A binary floating-point format with a sign bit, `exp` exponent bits and `man` mantissa bits.
#[derive(Clone, Copy)]
struct MiniFloat {
    exp: u32,
    man: u32,
    bias: i32,
    specials: Specials,
}

const F16: MiniFloat = MiniFloat {
    exp: 5,
    man: 10,
    bias: 15,
    specials: Specials::Ieee,
};
const BF16: MiniFloat = MiniFloat {
    exp: 8,
    man: 7,
    bias: 127,
    specials: Specials::Ieee,
};
const E5M2: MiniFloat = MiniFloat {
    exp: 5,
    man: 2,
    bias: 15,
    specials: Specials::Ieee,
};
const E4M3FN: MiniFloat = MiniFloat {
    exp: 4,
    man: 3,
    bias: 7,
    specials: Specials::NanOnly,
};
const E2M1: MiniFloat = MiniFloat {
    exp: 2,
    man: 1,
    bias: 1,
    specials: Specials::None,
};

impl MiniFloat {
    fn sign_bit(self) -> u64 {
        1 << (self.exp + self.man)
    }

    /// Magnitude code of +infinity (Ieee), or of the all-ones pattern.
    fn exp_all_ones(self) -> u64 {
        ((1u64 << self.exp) - 1) << self.man
    }

    /// Magnitude code of the largest finite value.
    fn max_code(self) -> u64 {
        match self.specials {
            Specials::Ieee => self.exp_all_ones() - 1,
            Specials::NanOnly => (self.sign_bit() - 1) - 1,
            Specials::None => self.sign_bit() - 1,
        }
    }

    fn nan_code(self) -> u64 {
        match self.specials {
            // Quiet NaN: all-ones exponent, mantissa MSB set.
            Specials::Ieee => self.exp_all_ones() | (1 << (self.man - 1)),
            Specials::NanOnly => self.sign_bit() - 1,
            Specials::None => 0,
        }
    }

    /// Rounds `value` to nearest, ties to even.
    fn encode(self, value: f64) -> u64 {
        let sign = if value.is_sign_negative() {
            self.sign_bit()
        } else {
            0
        };
        if value.is_nan() {
            // Formats without NaN map it to +0; the others keep the sign.
            return if self.specials == Specials::None {
                0
            } else {
                sign | self.nan_code()
            };
        }
        let a = value.abs();
        let overflow = match self.specials {
            Specials::Ieee => self.exp_all_ones(),
            _ => self.max_code(),
        };
        if a.is_infinite() {
            return sign | overflow;
        }
        if a == 0.0 {
            return sign;
        }
        // The quantum at `a` is 2^(e - man) with e = max(floor(log2 a), emin); subnormals share
        // the quantum of the smallest normal. Then code = ((e + bias - 1) << man) + round(a / q)
        // covers subnormals, normals and the carry into the next binade in one formula.
        let emin = 1 - self.bias;
        let e = floor_log2(a).max(emin);
        let scaled = a * pow2(self.man as i32 - e);
        let r = scaled.round_ties_even() as i64;
        let code = ((i64::from(e) + i64::from(self.bias) - 1) << self.man) + r;
        let code = code.max(0) as u64;
        if code > self.max_code() {
            return sign | overflow;
        }
        sign | code
    }

    fn decode(self, bits: u64) -> f64 {
        let negative = bits & self.sign_bit() != 0;
        let mag = bits & (self.sign_bit() - 1);
        let e_field = (mag >> self.man) as i32;
        let m = (mag & ((1 << self.man) - 1)) as f64;
        let all_ones = (1i32 << self.exp) - 1;
        let v = match self.specials {
            Specials::Ieee if e_field == all_ones => {
                if m == 0.0 {
                    f64::INFINITY
                } else {
                    f64::NAN
                }
            }
            Specials::NanOnly if mag == self.sign_bit() - 1 => f64::NAN,
            _ if e_field == 0 => m * pow2(1 - self.bias - self.man as i32),
            _ => (pow2(self.man as i32) + m) * pow2(e_field - self.bias - self.man as i32),
        };
        if negative {
            -v
        } else {
            v
        }
    }
}

/// floor(log2(a)) for finite a > 0, exactly (from the f64 exponent field, not `log2`, which
/// may round up just below a power of two).
fn floor_log2(a: f64) -> i32 {
    let bits = a.to_bits();
    let e = ((bits >> 52) & 0x7FF) as i32;
    if e == 0 {
        // f64 subnormal: far below every format here, the exact value does not matter.
        -1075
    } else {
        e - 1023
    }
}

/// 2^n exactly, for n in f64's normal range.
fn pow2(n: i32) -> f64 {
    f64::from_bits(((n + 1023).clamp(1, 2046) as u64) << 52)
}

/// E8M0FNU: value 2^(code - 127) for codes 0..=254, 0xFF is NaN; no sign, no zero.
fn e8m0_decode(code: u8) -> f64 {
    if code == 0xFF {
        f64::NAN
    } else {
        pow2(i32::from(code) - 127)
    }
}

/// Rounds to the nearest power of two 2^(c-127); a tie (1.5·2^k) goes to the even code, the
/// round-to-nearest-even rule with no mantissa bits. NaN and negative values give NaN (0xFF: the
/// type is unsigned), zero and tiny values the smallest code, +inf and overflow saturate to 2^127
/// (the type has no infinity).
fn e8m0_encode(value: f64) -> u8 {
    if value.is_nan() || value < 0.0 {
        return 0xFF;
    }
    if value == 0.0 {
        return 0;
    }
    if value.is_infinite() {
        return 0xFE;
    }
    let e = floor_log2(value);
    let frac = value / pow2(e); // in [1, 2)
    let mut code = i64::from(e) + 127;
    if frac > 1.5 || (frac == 1.5 && code % 2 != 0) {
        code += 1;
    }
    code.clamp(0, 0xFE) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(d: DType, v: f64) -> u64 {
        d.to_bits(v)
    }

    #[test]
    fn codes_and_names_round_trip() {
        for d in DType::ALL {
            assert_eq!(DType::from_mlir_name(d.mlir_name()), Some(d));
            assert_eq!(DType::from_acl_code(d.acl_code()), Some(d));
        }
        assert_eq!(DType::I4.storage_bytes(3), 2);
        assert_eq!(DType::I1.storage_bytes(3), 3);
    }

    #[test]
    fn f16_and_bf16_match_half_on_f32_inputs() {
        // half's from_f32 is correctly rounded; ours must agree on every f32 we try.
        let mut x = 0x1234_5678u32;
        for _ in 0..20000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let f = f32::from_bits(x);
            if f.is_nan() {
                continue;
            }
            let v = f64::from(f);
            assert_eq!(
                bits(DType::F16, v),
                u64::from(half::f16::from_f32(f).to_bits()),
                "{f}"
            );
            assert_eq!(
                bits(DType::BF16, v),
                u64::from(half::bf16::from_f32(f).to_bits()),
                "{f}"
            );
        }
    }

    #[test]
    fn f16_edges() {
        // Halfway between 1 and 1 + 2^-10 rounds to even (1); just above rounds up. half's
        // from_f64 would see the second value as the tie (it drops the low mantissa bits).
        assert_eq!(bits(DType::F16, 1.0 + 2f64.powi(-11)), 0x3C00);
        assert_eq!(
            bits(DType::F16, 1.0 + 2f64.powi(-11) + 2f64.powi(-40)),
            0x3C01
        );
        assert_eq!(bits(DType::F16, 1.0 + 3.0 * 2f64.powi(-11)), 0x3C02);
        // Smallest subnormal and half of it (tie to even: 0).
        assert_eq!(bits(DType::F16, 2f64.powi(-24)), 0x0001);
        assert_eq!(bits(DType::F16, 2f64.powi(-25)), 0x0000);
        assert_eq!(bits(DType::F16, 1.5 * 2f64.powi(-24)), 0x0002);
        // Overflow: 65520 is the tie between 65504 and 65536 (infinity) and rounds to inf.
        assert_eq!(bits(DType::F16, 65519.0), 0x7BFF);
        assert_eq!(bits(DType::F16, 65520.0), 0x7C00);
        assert_eq!(bits(DType::F16, -f64::INFINITY), 0xFC00);
        assert!(DType::F16.round(f64::NAN).is_nan());
        assert_eq!(bits(DType::F16, -0.0), 0x8000);
        assert_eq!(DType::F16.decode(&[0x01, 0x00], 0), 2f64.powi(-24));
    }

    #[test]
    fn bf16_edges() {
        assert_eq!(bits(DType::BF16, 1.0), 0x3F80);
        // 1 + 2^-8 is the tie between 1 and 1 + 2^-7: even is 1.
        assert_eq!(bits(DType::BF16, 1.0 + 2f64.powi(-8)), 0x3F80);
        assert_eq!(
            bits(DType::BF16, 1.0 + 2f64.powi(-8) + 2f64.powi(-50)),
            0x3F81
        );
        // Smallest bf16 subnormal 2^-133.
        assert_eq!(bits(DType::BF16, 2f64.powi(-133)), 0x0001);
        assert_eq!(bits(DType::BF16, f64::MAX), 0x7F80);
    }

    #[test]
    fn e4m3fn() {
        let d = DType::F8E4M3FN;
        assert_eq!(bits(d, 1.0), 0x38);
        assert_eq!(bits(d, 448.0), 0x7E);
        // Saturating: beyond the largest finite value, and infinities, give ±448.
        assert_eq!(bits(d, 1e6), 0x7E);
        assert_eq!(bits(d, -f64::INFINITY), 0xFE);
        assert_eq!(bits(d, 464.0), 0x7E);
        assert_eq!(bits(d, f64::NAN), 0x7F);
        assert!(d.decode(&[0xFF], 0).is_nan());
        // Subnormals: smallest 2^-9, largest 7·2^-9; 2^-10 is a tie → 0.
        assert_eq!(bits(d, 2f64.powi(-9)), 0x01);
        assert_eq!(bits(d, 2f64.powi(-10)), 0x00);
        assert_eq!(bits(d, 1.5 * 2f64.powi(-9)), 0x02);
        assert_eq!(d.decode(&[0x07], 0), 7.0 * 2f64.powi(-9));
        // Tie between 1.125 and 1.25 (1.1875) goes to even 1.25 (mantissa 010).
        assert_eq!(bits(d, 1.1875), 0x3A);
        // Every code decodes and re-encodes to itself.
        for c in 0u8..=0xFF {
            let v = d.decode(&[c], 0);
            if !v.is_nan() {
                assert_eq!(bits(d, v), u64::from(c), "code {c:#x}");
            }
        }
    }

    #[test]
    fn e5m2() {
        let d = DType::F8E5M2;
        assert_eq!(bits(d, 1.0), 0x3C);
        assert_eq!(bits(d, 57344.0), 0x7B);
        // IEEE overflow: the tie 61440 rounds to infinity.
        assert_eq!(bits(d, 61440.0), 0x7C);
        assert_eq!(bits(d, 61439.0), 0x7B);
        assert_eq!(bits(d, f64::INFINITY), 0x7C);
        assert!(d.decode(&[0x7E], 0).is_nan());
        assert_eq!(d.decode(&[0x7C], 0), f64::INFINITY);
        assert_eq!(bits(d, 2f64.powi(-16)), 0x01);
        for c in 0u8..=0xFF {
            let v = d.decode(&[c], 0);
            if !v.is_nan() {
                assert_eq!(bits(d, v), u64::from(c), "code {c:#x}");
            }
        }
    }

    #[test]
    fn e8m0() {
        let d = DType::F8E8M0FNU;
        assert_eq!(bits(d, 1.0), 127);
        assert_eq!(d.decode(&[0], 0), 2f64.powi(-127));
        assert_eq!(d.decode(&[254], 0), 2f64.powi(127));
        assert!(d.decode(&[255], 0).is_nan());
        assert_eq!(bits(d, -1.0), 0xFF);
        assert_eq!(bits(d, 0.0), 0);
        assert_eq!(bits(d, 1.4), 127);
        assert_eq!(bits(d, 1.6), 128);
        // 1.5 = tie between codes 127 and 128: even is 128; 3 = tie between 128 and 129: 128.
        assert_eq!(bits(d, 1.5), 128);
        assert_eq!(bits(d, 3.0), 128);
        assert_eq!(bits(d, 1e300), 0xFE);
    }

    #[test]
    fn fp4_e2m1() {
        let d = DType::F4E2M1FN;
        let values = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0];
        for (c, v) in values.iter().enumerate() {
            assert_eq!(d.decode(&[c as u8], 0), *v);
            assert_eq!(d.decode(&[(c as u8) << 4], 1), *v);
            assert_eq!(d.decode(&[c as u8 | 8], 0), -v);
            assert_eq!(bits(d, *v), c as u64);
        }
        // Ties: 0.25 → 0, 0.75 → 1.0 (mantissa even), 2.5 → 2, 3.5 → 4, 5 → 4.
        assert_eq!(d.round(0.25), 0.0);
        assert_eq!(d.round(0.75), 1.0);
        assert_eq!(d.round(1.25), 1.0);
        assert_eq!(d.round(2.5), 2.0);
        assert_eq!(d.round(3.5), 4.0);
        assert_eq!(d.round(5.0), 4.0);
        assert_eq!(d.round(5.1), 6.0);
        // Saturation; NaN has no encoding and becomes +0.
        assert_eq!(d.round(100.0), 6.0);
        assert_eq!(d.round(-f64::INFINITY), -6.0);
        assert_eq!(bits(d, f64::NAN), 0);
        // Packing: low nibble first.
        let mut buf = [0u8; 1];
        d.encode(1.0, &mut buf, 0);
        d.encode(-6.0, &mut buf, 1);
        assert_eq!(buf[0], 0xF2);
    }

    #[test]
    fn integers_round_half_even_and_saturate() {
        assert_eq!(DType::I8.round(2.5), 2.0);
        assert_eq!(DType::I8.round(3.5), 4.0);
        assert_eq!(DType::I8.round(-2.5), -2.0);
        assert_eq!(DType::I8.round(127.6), 127.0);
        assert_eq!(DType::I8.round(-1000.0), -128.0);
        assert_eq!(DType::I8.round(f64::NAN), 0.0);
        assert_eq!(DType::I32.round(1e20), f64::from(i32::MAX));
        assert_eq!(DType::I64.round(1e30), i64::MAX as f64);
        let mut buf = [0u8; 8];
        DType::I64.encode_i64(i64::MIN + 1, &mut buf, 0);
        assert_eq!(DType::I64.decode_i64(&buf, 0), i64::MIN + 1);
        DType::I64.encode(-1e30, &mut buf, 0);
        assert_eq!(DType::I64.decode_i64(&buf, 0), i64::MIN);
    }

    #[test]
    fn int4_packing_and_range() {
        let d = DType::I4;
        let mut buf = [0u8; 2];
        for (i, v) in [-8i64, 7, -1, 3].iter().enumerate() {
            d.encode_i64(*v, &mut buf, i);
        }
        assert_eq!(buf, [0x78, 0x3F]);
        let back: Vec<i64> = (0..4).map(|i| d.decode_i64(&buf, i)).collect();
        assert_eq!(back, vec![-8, 7, -1, 3]);
        assert_eq!(d.round(9.0), 7.0);
        assert_eq!(d.round(-8.5), -8.0);
        assert_eq!(d.round(6.5), 6.0);
        d.encode_i64(100, &mut buf, 2);
        assert_eq!(d.decode_i64(&buf, 2), 7);
    }

    #[test]
    fn bool_stores_non_zero() {
        let d = DType::I1;
        assert_eq!(d.round(0.25), 1.0);
        assert_eq!(d.round(0.0), 0.0);
        assert_eq!(d.round(-3.0), 1.0);
        let mut buf = [0u8; 1];
        d.encode_i64(-5, &mut buf, 0);
        assert_eq!(buf[0], 1);
    }
}
