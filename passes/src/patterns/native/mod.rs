//! The native constraints and rewrites the PDLL patterns call (declared in
//! patterns/*.pdll), one module per pattern topic. Each is an `extern "C"` callback of MLIR's PDL interpreter; the
//! interpreter's user data is the [`NativeState`] of the running pass.

use crate::analysis::report::FusionReport;
use dit_dialect::ops::OpKind;
use dit_dialect::{
    ir::{Attr, Op, Val},
    ops::{bool_attr, i64_array_attr, i64_attr, str_attr},
    tensor::{broadcast_shapes, dims_compatible, shapes_compatible, Elem},
    Target,
};
use mlir_sys::*;
use std::ffi::c_void;

mod activation;
mod cache;
mod common;
mod contract;
mod gating;
mod gelu;
mod linear;
mod merge;
mod norm;
mod quant;
mod rope;

/// Creates `name` (one result of type `result`) at the rewriter's insertion point, through the
/// rewriter so that the greedy driver knows of it, located at `at`; returns the result.
pub(crate) fn create_via_rewriter<'a>(
    rewriter: MlirPatternRewriter,
    at: Op<'a>,
    kind: OpKind,
    operands: &[Val<'a>],
    result: MlirType,
    attributes: &[(&str, Attr<'a>)],
) -> Val<'a> {
    let op = dit_dialect::ir::build_detached_op(at, kind.name(), operands, &[result], attributes);
    // SAFETY: the op is new and unowned; the rewriter inserts it and owns it from then on.
    unsafe {
        let op = mlirRewriterBaseInsert(mlirPatternRewriterAsBase(rewriter), op.raw());
        Val::from_raw(mlirOperationGetResult(op, 0))
    }
}

/// The [start, end) a step-1 dit.slice of the last dim takes, with Python's negative and
/// out-of-range bounds resolved against the dim's static size.
pub(crate) fn last_dim_slice_bounds(s: Op) -> Option<(i64, i64)> {
    let t = s.operand(0).tensor()?;
    let d = t.dim_from_back(0)?;
    let dim = i64_attr(s, "dim")?;
    if !(dim == -1 || dim == t.rank() as i64 - 1) || i64_attr(s, "step")? != 1 {
        return None;
    }
    let clamp = |v: i64| if v < 0 { (v + d).max(0) } else { v.min(d) };
    Some((clamp(i64_attr(s, "start")?), clamp(i64_attr(s, "end")?)))
}

/// Whether `out` has `whole`'s element type (a float) and its shape with the last dim set to
/// `half` (the gated-activation ops halve the last dim).
pub(crate) fn is_halved_type(whole: Val, out: Val, half: Option<i64>) -> Result<(), String> {
    let (w, r) = (
        whole.tensor().ok_or("no ranked type")?,
        out.tensor().ok_or("no ranked type")?,
    );
    let mut expected = w.shape.clone();
    if let Some(last) = expected.last_mut() {
        *last = half;
    }
    if !w.elem.is_float() || w.elem != r.elem || !shapes_compatible(&expected, &r.shape) {
        return Err("the product's type is not the halved input's type".to_string());
    }
    Ok(())
}

/// Every native constraint, by the name PDLL declares (patterns/*.pdll).
pub fn constraints() -> impl Iterator<Item = &'static (&'static str, ConstraintFn)> {
    common::CONSTRAINTS
        .iter()
        .chain(norm::CONSTRAINTS)
        .chain(activation::CONSTRAINTS)
        .chain(quant::CONSTRAINTS)
        .chain(gelu::CONSTRAINTS)
        .chain(merge::CONSTRAINTS)
        .chain(linear::CONSTRAINTS)
        .chain(rope::CONSTRAINTS)
        .chain(cache::CONSTRAINTS)
        .chain(gating::CONSTRAINTS)
}

/// Every native rewrite, by the name PDLL declares.
///
/// A rewrite must not fail: MLIR's greedy driver aborts the process when a native rewrite
/// reports failure. Every check belongs in a constraint of the same pattern; rewrites only
/// compute what those constraints already vouched for.
pub fn rewrites() -> impl Iterator<Item = &'static (&'static str, RewriteFn)> {
    common::REWRITES
        .iter()
        .chain(norm::REWRITES)
        .chain(activation::REWRITES)
        .chain(quant::REWRITES)
        .chain(gelu::REWRITES)
        .chain(merge::REWRITES)
        .chain(linear::REWRITES)
        .chain(rope::REWRITES)
        .chain(cache::REWRITES)
        .chain(gating::REWRITES)
}

/// What the natives of one pattern application can see.
pub struct NativeState {
    pub report: FusionReport,
    pub target: &'static Target,
}

/// A PDL value handed to a native function.
#[derive(Clone, Copy)]
pub struct PdlArg(MlirPDLValue);

impl PdlArg {
    fn value<'a>(self) -> Option<Val<'a>> {
        // SAFETY: the interpreter passes live PDL values; the cast returns null on mismatch. A non-null result is live for the handle's lifetime.
        unsafe {
            let v = mlirPDLValueAsValue(self.0);
            (!v.ptr.is_null()).then(|| Val::from_raw(v))
        }
    }
    fn op<'a>(self) -> Option<Op<'a>> {
        // SAFETY: as above. A non-null result is live for the handle's lifetime.
        unsafe {
            let o = mlirPDLValueAsOperation(self.0);
            (!o.ptr.is_null()).then(|| Op::from_raw(o))
        }
    }
    fn attr<'a>(self) -> Option<Attr<'a>> {
        // SAFETY: as above. A non-null result is live for the handle's lifetime.
        unsafe {
            let a = mlirPDLValueAsAttribute(self.0);
            (!a.ptr.is_null()).then(|| Attr::from_raw(a))
        }
    }
}

/// The float value of a splat dense float constant.
pub fn splat_float(attr: Attr) -> Option<f64> {
    // SAFETY: predicates and getters on a live attribute.
    unsafe {
        if !mlirAttributeIsADenseFPElements(attr.raw()) {
            return None;
        }
        // A dense attribute with one element is always stored as a splat.
        if !mlirDenseElementsAttrIsSplat(attr.raw()) {
            return None;
        }
        let splat = mlirDenseElementsAttrGetSplatValue(attr.raw());
        mlirAttributeIsAFloat(splat).then(|| mlirFloatAttrGetValueDouble(splat))
    }
}

pub(crate) fn num_elements(attr: Attr) -> i64 {
    // SAFETY: as above.
    unsafe { mlirElementsAttrGetNumElements(attr.raw()) }
}

pub(crate) fn string_of(attr: Option<Attr>) -> String {
    attr.and_then(|a| a.as_str()).unwrap_or_default()
}

pub type Args<'a> = &'a [PdlArg];

/// Typed access to a native's arguments by position (`None` when absent or of another kind).
pub trait ArgsExt {
    fn value_at(&self, i: usize) -> Option<Val<'_>>;
    fn op_at(&self, i: usize) -> Option<Op<'_>>;
    fn attr_at(&self, i: usize) -> Option<Attr<'_>>;
}

impl ArgsExt for [PdlArg] {
    fn value_at(&self, i: usize) -> Option<Val<'_>> {
        self.get(i).and_then(|a| a.value())
    }
    fn op_at(&self, i: usize) -> Option<Op<'_>> {
        self.get(i).and_then(|a| a.op())
    }
    fn attr_at(&self, i: usize) -> Option<Attr<'_>> {
        self.get(i).and_then(|a| a.attr())
    }
}

/// `c` is within `tol` of `expected`, relative to |expected| (absolute below 1).
pub(crate) fn near(c: f64, expected: f64, tol: f64) -> bool {
    (c - expected).abs() <= tol * expected.abs().max(1.0)
}

/// Records a skip for the report when `check` fails; returns whether it passed.
pub(crate) fn fits(
    state: &NativeState,
    pattern: Option<Attr>,
    at: Option<Val>,
    check: Result<(), String>,
) -> bool {
    match check {
        Ok(()) => true,
        Err(reason) => {
            if let Some(op) = at.and_then(|v| v.defining_op()) {
                state.report.skipped(intern(string_of(pattern)), op, reason);
            }
            false
        }
    }
}

/// The input of a dit.cast, or the value itself.
pub(crate) fn without_cast(v: Val) -> Val {
    v.defining_op()
        .filter(|c| c.is_kind(OpKind::Cast))
        .map_or(v, |c| c.operand(0))
}

/// Whether each op is present and has the expected name: a reporting constraint checks its
/// pattern's ops itself before it records anything (see natives.pdll).
pub(crate) fn ops_are(ops: &[(Option<Op>, OpKind)]) -> bool {
    ops.iter()
        .all(|(op, kind)| op.is_some_and(|o| o.is_kind(*kind)))
}

/// Switch names live as long as the program (the report keys them by `&'static str`).
pub(crate) fn intern(name: String) -> &'static str {
    crate::fusion::SWITCHES
        .iter()
        .find(|s| s.name == name)
        .map(|s| s.name)
        .unwrap_or("unknown-pattern")
}

pub type ConstraintFn = fn(Args, &NativeState) -> bool;

pub type RewriteFn = fn(Args, &NativeState, MlirPDLResultList, MlirPatternRewriter) -> bool;

/// What the interpreter's user data points to for one registered function.
pub struct Registered {
    pub state: *const NativeState,
    pub constraint: Option<ConstraintFn>,
    /// A rewrite, or a constraint that returns values (same signature).
    pub rewrite: Option<RewriteFn>,
}

fn args(n: usize, values: *mut MlirPDLValue) -> Vec<PdlArg> {
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
///
/// # Safety
///
/// Called by MLIR's PDL interpreter only: `values` holds `n` live PDL values and `data` is the
/// `Registered` entry the pattern engine registered and keeps alive while patterns run.
pub unsafe extern "C" fn constraint_trampoline(
    rewriter: MlirPatternRewriter,
    results: MlirPDLResultList,
    n: usize,
    values: *mut MlirPDLValue,
    data: *mut c_void,
) -> MlirLogicalResult {
    // SAFETY: `data` is a `Registered` kept alive by the pattern engine while patterns run.
    let registered = unsafe { &*(data as *const Registered) };
    let state = unsafe { &*registered.state };
    let args = args(n, values);
    let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        match (registered.constraint, registered.rewrite) {
            (Some(f), _) => f(&args, state),
            (None, Some(f)) => f(&args, state, results, rewriter),
            (None, None) => false,
        }
    }))
    .unwrap_or(false);
    MlirLogicalResult {
        value: i8::from(ok),
    }
}

/// The C callback for every native rewrite.
///
/// # Safety
///
/// As for [`constraint_trampoline`].
pub unsafe extern "C" fn rewrite_trampoline(
    rewriter: MlirPatternRewriter,
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
        registered
            .rewrite
            .is_some_and(|f| f(&args, state, results, rewriter))
    }))
    .unwrap_or(false);
    MlirLogicalResult {
        value: i8::from(ok),
    }
}
