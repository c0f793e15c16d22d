//! Natives every topic uses: use counts, constants, types, reporting, cleanup.

use super::*;

/// Constraint: `HasOneUse(value)`.
fn has_one_use(args: Args, _: &NativeState) -> bool {
    args.value_at(0).is_some_and(|v| v.use_count() == 1)
}

/// Constraint: `IsScalarSplat(cst)`: a float constant with one element (0-d or all-1 shape).
fn is_scalar_splat(args: Args, _: &NativeState) -> bool {
    args.attr_at(0)
        .is_some_and(|a| splat_float(a).is_some() && num_elements(a) == 1)
}

/// Constraint: `SplatNear(cst, expected, tol)`: |c - e| <= tol * max(1, |e|).
fn splat_near(args: Args, _: &NativeState) -> bool {
    let get = |i: usize| args.attr_at(i);
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
    let Some(op) = args.value_at(0).and_then(|v| v.defining_op()) else {
        return false;
    };
    if !op.is("arith.constant") {
        return false;
    }
    let get = |i: usize| args.attr_at(i).and_then(|a| a.as_f64());
    let (Some(c), Some(e), Some(t)) = (op.attr("value").and_then(splat_float), get(1), get(2))
    else {
        return false;
    };
    near(c, e, t)
}

/// Constraint: `SameTypes(a, b, c)`: one float tensor type.
fn same_types(args: Args, _: &NativeState) -> bool {
    let v: Vec<Val> = args.iter().filter_map(|a| a.value()).collect();
    v.len() == 3
        && v[0].same_type(v[1])
        && v[0].same_type(v[2])
        && v[0].tensor().is_some_and(|t| t.elem.is_float())
}

/// Constraint: `IsF32(v)`.
fn is_f32(args: Args, _: &NativeState) -> bool {
    args.value_at(0)
        .and_then(|v| v.tensor())
        .is_some_and(|t| t.elem == Elem::F32)
}

/// Rewrite: `SplatAsF32(cst) -> Attr`.
fn splat_as_f32(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    _: MlirPatternRewriter,
) -> bool {
    let Some(cst) = args.attr_at(0) else {
        return false;
    };
    let Some(value) = splat_float(cst) else {
        return false;
    };
    // SAFETY: the attribute's context is the IR's; the result list is the interpreter's.
    unsafe {
        let context = mlirAttributeGetContext(cst.raw());
        mlirPDLResultListPushBackAttribute(results, Attr::f32(context, value as f32).raw());
    }
    true
}

/// Rewrite: `ReportApplied(op, pattern, detail)`.
fn report_applied(
    args: Args,
    state: &NativeState,
    _: MlirPDLResultList,
    _: MlirPatternRewriter,
) -> bool {
    let Some(op) = args.op_at(0) else {
        return false;
    };
    let pattern = string_of(args.attr_at(1));
    let detail = string_of(args.attr_at(2));
    state.report.applied(intern(pattern), op, detail);
    true
}

/// Rewrite: `EraseDeadProducers(v)`: erases the op that produced `v` if nothing uses its
/// results any more, then its operands' producers the same way, through the pattern rewriter
/// (so the greedy driver knows). A pattern calls it after `replace` on the values its rewrite
/// bypassed: dead intermediates would otherwise keep `HasOneUse` from holding for the next
/// pattern until the pass's final DCE.
fn erase_dead_producers(
    args: Args,
    _: &NativeState,
    _: MlirPDLResultList,
    rewriter: MlirPatternRewriter,
) -> bool {
    let mut pending: Vec<Op> = Vec::new();
    // Two values may come from one op (x·x): it is erased once.
    for op in args
        .iter()
        .filter_map(|a| a.value())
        .filter_map(|v| v.defining_op())
    {
        if !pending.contains(&op) {
            pending.push(op);
        }
    }
    while let Some(op) = pending.pop() {
        if op.has_uses() || !crate::transforms::dit_dce::is_side_effect_free(op) {
            continue;
        }
        let producers: Vec<Op> = op
            .operands()
            .into_iter()
            .filter_map(|v| v.defining_op())
            .collect();
        // SAFETY: the op is alive, unused, and erased through the driver's own rewriter.
        unsafe { mlirRewriterBaseEraseOp(mlirPatternRewriterAsBase(rewriter), op.raw()) };
        for p in producers {
            if !pending.contains(&p) {
                pending.push(p);
            }
        }
    }
    true
}

/// The constraints of this topic, by the names PDLL declares.
pub const CONSTRAINTS: &[(&str, ConstraintFn)] = &[
    ("HasOneUse", has_one_use),
    ("IsScalarSplat", is_scalar_splat),
    ("SplatNear", splat_near),
    ("ConstNear", const_near),
    ("SameTypes", same_types),
    ("IsF32", is_f32),
];

/// The rewrites of this topic, by the names PDLL declares.
pub const REWRITES: &[(&str, RewriteFn)] = &[
    ("SplatAsF32", splat_as_f32),
    ("ReportApplied", report_applied),
    ("EraseDeadProducers", erase_dead_producers),
    ("EraseDeadProducersOfBoth", erase_dead_producers),
];
