//! The native constraints and rewrites the PDLL patterns call (declared in
//! patterns/natives.pdll). Each is an `extern "C"` callback of MLIR's PDL interpreter; the
//! interpreter's user data is the [`NativeState`] of the running pass.

use crate::report::FusionReport;
use dit_dialect::{
    ir::{Attr, Op, Val},
    Target,
};
use mlir_sys::*;
use std::ffi::c_void;

/// What the natives of one pattern application can see.
pub struct NativeState {
    pub report: FusionReport,
    pub target: &'static Target,
}

/// A PDL value handed to a native function.
#[derive(Clone, Copy)]
pub struct PdlArg(MlirPDLValue);

impl PdlArg {
    fn value(self) -> Option<Val> {
        // SAFETY: the interpreter passes live PDL values; the cast returns null on mismatch.
        let v = unsafe { mlirPDLValueAsValue(self.0) };
        (!v.ptr.is_null()).then_some(Val(v))
    }
    fn op(self) -> Option<Op> {
        // SAFETY: as above.
        let o = unsafe { mlirPDLValueAsOperation(self.0) };
        (!o.ptr.is_null()).then_some(Op(o))
    }
    fn attr(self) -> Option<Attr> {
        // SAFETY: as above.
        let a = unsafe { mlirPDLValueAsAttribute(self.0) };
        (!a.ptr.is_null()).then_some(Attr(a))
    }
}

/// The float value of a splat dense float constant.
pub fn splat_float(attr: Attr) -> Option<f64> {
    // SAFETY: predicates and getters on a live attribute.
    unsafe {
        if !mlirAttributeIsADenseFPElements(attr.0) {
            return None;
        }
        // A dense attribute with one element is always stored as a splat.
        if !mlirDenseElementsAttrIsSplat(attr.0) {
            return None;
        }
        let splat = mlirDenseElementsAttrGetSplatValue(attr.0);
        mlirAttributeIsAFloat(splat).then(|| mlirFloatAttrGetValueDouble(splat))
    }
}

fn num_elements(attr: Attr) -> i64 {
    // SAFETY: as above.
    unsafe { mlirElementsAttrGetNumElements(attr.0) }
}

fn string_of(attr: Option<Attr>) -> String {
    attr.and_then(|a| a.as_str()).unwrap_or_default()
}

pub type Args<'a> = &'a [PdlArg];

/// Constraint: `HasOneUse(value)`.
fn has_one_use(args: Args, _: &NativeState) -> bool {
    args.first()
        .and_then(|a| a.value())
        .is_some_and(|v| v.use_count() == 1)
}

/// Constraint: `IsScalarSplat(cst)`: a float constant with one element (0-d or all-1 shape).
fn is_scalar_splat(args: Args, _: &NativeState) -> bool {
    args.first()
        .and_then(|a| a.attr())
        .is_some_and(|a| splat_float(a).is_some() && num_elements(a) == 1)
}

/// Constraint: `SplatNear(cst, expected, tol)`: |c - e| <= tol * max(1, |e|).
fn splat_near(args: Args, _: &NativeState) -> bool {
    let get = |i: usize| args.get(i).and_then(|a| a.attr());
    let (Some(c), Some(e), Some(t)) = (
        get(0).and_then(splat_float),
        get(1).and_then(|a| a.as_f64()),
        get(2).and_then(|a| a.as_f64()),
    ) else {
        return false;
    };
    near(c, e, t)
}

/// Constraint: `ConstNear(value, expected, tol)`: `value` comes from an arith.constant splat
/// within `tol` (relative) of `expected`.
fn const_near(args: Args, _: &NativeState) -> bool {
    let Some(op) = args
        .first()
        .and_then(|a| a.value())
        .and_then(|v| v.defining_op())
    else {
        return false;
    };
    if !op.is("arith.constant") {
        return false;
    }
    let get = |i: usize| args.get(i).and_then(|a| a.attr()).and_then(|a| a.as_f64());
    let (Some(c), Some(e), Some(t)) = (op.attr("value").and_then(splat_float), get(1), get(2))
    else {
        return false;
    };
    near(c, e, t)
}

/// `c` is within `tol` of `expected`, relative to |expected| (absolute below 1).
fn near(c: f64, expected: f64, tol: f64) -> bool {
    (c - expected).abs() <= tol * expected.abs().max(1.0)
}

/// Rewrite: `SplatAsF32(cst) -> Attr`.
fn splat_as_f32(args: Args, _: &NativeState, results: MlirPDLResultList) -> bool {
    let Some(cst) = args.first().and_then(|a| a.attr()) else {
        return false;
    };
    let Some(value) = splat_float(cst) else {
        return false;
    };
    // SAFETY: the attribute's context is the IR's; the result list is the interpreter's.
    unsafe {
        let context = mlirAttributeGetContext(cst.0);
        mlirPDLResultListPushBackAttribute(results, Attr::f32(context, value as f32).0);
    }
    true
}

/// Rewrite: `ReportApplied(op, pattern, detail)`.
fn report_applied(args: Args, state: &NativeState, _: MlirPDLResultList) -> bool {
    let Some(op) = args.first().and_then(|a| a.op()) else {
        return false;
    };
    let pattern = string_of(args.get(1).and_then(|a| a.attr()));
    let detail = string_of(args.get(2).and_then(|a| a.attr()));
    state.report.applied(intern(pattern), op, detail);
    true
}

/// Switch names live as long as the program (the report keys them by `&'static str`).
fn intern(name: String) -> &'static str {
    crate::fusion::SWITCHES
        .iter()
        .find(|s| s.name == name)
        .map(|s| s.name)
        .unwrap_or("unknown-pattern")
}

pub type ConstraintFn = fn(Args, &NativeState) -> bool;
pub type RewriteFn = fn(Args, &NativeState, MlirPDLResultList) -> bool;

/// Every native constraint, by the name PDLL declares.
pub const CONSTRAINTS: &[(&str, ConstraintFn)] = &[
    ("HasOneUse", has_one_use),
    ("IsScalarSplat", is_scalar_splat),
    ("SplatNear", splat_near),
    ("ConstNear", const_near),
];

/// Every native rewrite, by the name PDLL declares.
pub const REWRITES: &[(&str, RewriteFn)] = &[
    ("SplatAsF32", splat_as_f32),
    ("ReportApplied", report_applied),
];

/// What the interpreter's user data points to for one registered function.
pub struct Registered {
    pub state: *const NativeState,
    pub constraint: Option<ConstraintFn>,
    pub rewrite: Option<RewriteFn>,
}

fn args<'a>(n: usize, values: *mut MlirPDLValue) -> Vec<PdlArg> {
    if values.is_null() {
        return Vec::new();
    }
    // SAFETY: the interpreter passes `n` values.
    unsafe { std::slice::from_raw_parts(values, n) }
        .iter()
        .map(|v| PdlArg(*v))
        .collect()
}

/// The C callback for every native constraint. A panic is caught: it counts as "no match".
pub unsafe extern "C" fn constraint_trampoline(
    _: MlirPatternRewriter,
    _: MlirPDLResultList,
    n: usize,
    values: *mut MlirPDLValue,
    data: *mut c_void,
) -> MlirLogicalResult {
    // SAFETY: `data` is a `Registered` kept alive by the pattern engine while patterns run.
    let registered = unsafe { &*(data as *const Registered) };
    let state = unsafe { &*registered.state };
    let args = args(n, values);
    let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        registered.constraint.is_some_and(|f| f(&args, state))
    }))
    .unwrap_or(false);
    MlirLogicalResult {
        value: i8::from(ok),
    }
}

/// The C callback for every native rewrite.
pub unsafe extern "C" fn rewrite_trampoline(
    _: MlirPatternRewriter,
    results: MlirPDLResultList,
    n: usize,
    values: *mut MlirPDLValue,
    data: *mut c_void,
) -> MlirLogicalResult {
    // SAFETY: as in constraint_trampoline.
    let registered = unsafe { &*(data as *const Registered) };
    let state = unsafe { &*registered.state };
    let args = args(n, values);
    let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        registered.rewrite.is_some_and(|f| f(&args, state, results))
    }))
    .unwrap_or(false);
    MlirLogicalResult {
        value: i8::from(ok),
    }
}
