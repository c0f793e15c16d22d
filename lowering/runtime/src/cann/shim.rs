//! Calling an aclnn phase-one function whose prototype is known only as data.
//!
//! Every phase-one argument is of one of two register classes: integer-class (pointers,
//! `int64_t`, `int8_t`, `bool`, `aclDataType`) or `double`. On the two ABIs CANN ships for,
//! x86_64 System V and AArch64 AAPCS64 (Linux), the classes are assigned independently:
//! integer-class arguments take the general registers (6 on x86_64, 8 on AArch64) in order
//! and then 8-byte stack slots in order, and doubles take the FP registers (xmm0-7 / v0-7) in
//! order. Where a double sits among the integer arguments therefore does not change where
//! anything goes, as long as the doubles fit in FP registers (the table has at most one per
//! call; two are supported). So the call is made through a function-pointer type with the
//! doubles first and then N `u64` words, one shim per (doubles, words) pair: a typed call for
//! every signature class, with the exact arity (no extra arguments).
//!
//! Narrow integers are passed widened to 64 bits (bool as 0/1, int8 and enums sign-extended):
//! the callee reads only the low bits on both ABIs, and whatever it assumes about the upper
//! bits (clang assumes sign/zero extension to 32 bits on x86_64) holds. On the stack, a
//! narrow argument occupies the low bytes of its 8-byte slot (little-endian), which is where
//! both ABIs put it. Apple's AArch64 variant packs narrow stack arguments differently and is
//! not supported.

use std::ffi::c_void;

/// The most integer-class words (arguments incl. `workspaceSize` and `executor`) supported;
/// aclnnFusedInferAttentionScoreV5, the widest, has 49.
pub const MAX_WORDS: usize = 52;
/// The most `double` arguments supported.
pub const MAX_DOUBLES: usize = 2;

macro_rules! arms {
    // Accumulates one arm per (doubles, words) pair, then emits the match.
    (@acc $sym:ident $d:ident $w:ident [$($arms:tt)*] [$($i:tt)*] $n:tt $($rest:tt)*) => {
        arms!(@acc $sym $d $w [
            $($arms)*
            (0, $n) => {
                // SAFETY (all arms): the caller guarantees `$sym` is a function whose C
                // prototype has exactly these integer-class words and doubles (see the module
                // comment for why the order of classes does not matter).
                let f: unsafe extern "C" fn($(arms!(@word $i)),*) -> i32 =
                    unsafe { std::mem::transmute::<*const c_void, _>($sym) };
                unsafe { f($($w[$i]),*) }
            }
            (1, $n) => {
                let f: unsafe extern "C" fn(f64, $(arms!(@word $i)),*) -> i32 =
                    unsafe { std::mem::transmute::<*const c_void, _>($sym) };
                unsafe { f($d[0], $($w[$i]),*) }
            }
            (2, $n) => {
                let f: unsafe extern "C" fn(f64, f64, $(arms!(@word $i)),*) -> i32 =
                    unsafe { std::mem::transmute::<*const c_void, _>($sym) };
                unsafe { f($d[0], $d[1], $($w[$i]),*) }
            }
        ] [$($i)* $n] $($rest)*)
    };
    (@acc $sym:ident $d:ident $w:ident [$($arms:tt)*] [$($i:tt)*]) => {
        match ($d.len(), $w.len()) {
            $($arms)*
            (d, w) => {
                return Err(format!(
                    "no call shim for {d} double and {w} integer arguments (at most \
                     {MAX_DOUBLES} and {MAX_WORDS})"
                ))
            }
        }
    };
    (@word $i:tt) => { u64 };
}

/// Calls the phase-one function at `sym` with `doubles` (in order) and integer-class `words`
/// (in order), returning its `aclnnStatus`.
///
/// # Safety
/// `sym` must point to a function whose C prototype takes exactly `words.len()` integer-class
/// arguments and `doubles.len()` doubles, in the orders given (interleaved as the prototype
/// wants), and returns `aclnnStatus`; every pointer word must be valid for the callee.
pub unsafe fn call_phase_one(
    sym: *const c_void,
    doubles: &[f64],
    words: &[u64],
) -> Result<i32, String> {
    if !cfg!(all(
        target_os = "linux",
        any(target_arch = "x86_64", target_arch = "aarch64")
    )) {
        return Err("aclnn calls are supported on Linux x86_64 and aarch64 only".into());
    }
    let status = arms!(@acc sym doubles words [] []
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24
        25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52);
    Ok(status)
}

/// Calls a phase-two function: `aclnnStatus aclnnXxx(void *workspace, uint64_t workspaceSize,
/// aclOpExecutor *executor, aclrtStream stream)`, the same prototype for every operator.
///
/// # Safety
/// `sym` must be such a function; `executor` must come from its phase one, `workspace` must
/// hold `workspace_size` bytes of device memory (or be null when that is 0).
pub unsafe fn call_phase_two(
    sym: *const c_void,
    workspace: *mut c_void,
    workspace_size: u64,
    executor: *mut c_void,
    stream: *mut c_void,
) -> i32 {
    // SAFETY: the caller guarantees the prototype above.
    let f: unsafe extern "C" fn(*mut c_void, u64, *mut c_void, *mut c_void) -> i32 =
        unsafe { std::mem::transmute::<*const c_void, _>(sym) };
    // SAFETY: arguments as documented by the caller.
    unsafe { f(workspace, workspace_size, executor, stream) }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Rust functions with the C ABI stand in for aclnn prototypes with a double in the middle,
    // so the shims are checked against the compiler's own placement of each argument.
    extern "C" fn mixed(
        a: u64,
        b: u64,
        eps: f64,
        c: u64,
        d: u64,
        e: u64,
        f: u64,
        g: u64,
        h: u64,
        i: u64,
    ) -> i32 {
        let ints = [a, b, c, d, e, f, g, h, i];
        let ok = ints.iter().enumerate().all(|(n, v)| *v == n as u64 + 1) && eps == 0.25;
        if ok {
            7
        } else {
            -1
        }
    }

    extern "C" fn narrow(p: u64, flag: bool, small: i8, dtype: i32, x: f64, y: f64) -> i32 {
        if p == 9 && flag && small == -3 && dtype == 27 && x == 1.5 && y == -2.0 {
            1
        } else {
            0
        }
    }

    // Narrow arguments after eight words: on the stack on both ABIs (6 / 8 GPRs).
    extern "C" fn stacked(
        a: u64,
        b: u64,
        c: u64,
        d: u64,
        e: u64,
        f: u64,
        g: u64,
        h: u64,
        flag: bool,
        small: i8,
        dtype: i32,
        eps: f64,
        last: i64,
    ) -> i32 {
        let ints = [a, b, c, d, e, f, g, h];
        let ok = ints.iter().enumerate().all(|(n, v)| *v == n as u64 + 1);
        i32::from(ok && flag && small == -128 && dtype == -1 && eps == 3.0 && last == -5)
    }

    #[test]
    fn shims_place_arguments_like_the_compiler() {
        let words: Vec<u64> = (1..=9).collect();
        let sym = mixed as *const c_void;
        // SAFETY: `mixed` takes nine integer words and one double.
        assert_eq!(unsafe { call_phase_one(sym, &[0.25], &words) }, Ok(7));
        let sym = narrow as *const c_void;
        let small = -3i8 as i64 as u64;
        // SAFETY: `narrow` takes four integer-class arguments and two doubles.
        assert_eq!(
            unsafe { call_phase_one(sym, &[1.5, -2.0], &[9, 1, small, 27]) },
            Ok(1)
        );
        let sym = stacked as *const c_void;
        let mut words: Vec<u64> = (1..=8).collect();
        words.extend([1, -128i8 as i64 as u64, -1i32 as i64 as u64, -5i64 as u64]);
        // SAFETY: `stacked` takes twelve integer-class arguments and one double.
        assert_eq!(unsafe { call_phase_one(sym, &[3.0], &words) }, Ok(1));
        // SAFETY: rejected before any call.
        assert!(unsafe { call_phase_one(sym, &[0.0; 3], &[]) }.is_err());
    }
}
