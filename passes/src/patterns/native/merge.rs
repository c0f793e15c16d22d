//! Natives of the projection-merging patterns (patterns/merge.pdll): the gate and up
//! projections of a gated activation, two dit.linear ops on one input, merged into one
//! dit.linear over the concatenated weights (gate rows first); and a merged projection that
//! a model chunks with the gate SECOND, reordered (weight rows, bias) so the gate comes first.
//! Either way dit.swiglu / dit.gelu_mul then takes the gate from the first half, as the
//! contract says (DIALECT.md).

use super::*;
use dit_dialect::ops::OpKind;
use dit_dialect::{ops::Operands, tensor::Dim};

/// The activation a gated-activation switch puts on the gate.
fn activation_of(pattern: &str) -> OpKind {
    match pattern {
        "enable_gelu_mul" => OpKind::Gelu,
        _ => OpKind::Silu,
    }
}

/// The operands of a dit.linear, by slot.
#[derive(Clone, Copy)]
struct Linear<'a> {
    x: Val<'a>,
    weight: Val<'a>,
    bias: Option<Val<'a>>,
}

fn linear_operands(op: Op) -> Option<Linear> {
    if !op.is_kind(OpKind::Linear) || op.num_results() != 1 {
        return None;
    }
    let spec = OpKind::Linear.spec();
    let ins = Operands::resolve(op, spec).ok()?;
    Some(Linear {
        x: ins.get("x")?,
        weight: ins.get("weight")?,
        bias: ins.get("bias"),
    })
}

/// The func.func that holds `op`.
fn enclosing_func(op: Op) -> Option<Op> {
    let mut at = op.parent();
    while let Some(p) = at {
        if p.is("func.func") {
            return Some(p);
        }
        at = p.parent();
    }
    None
}

/// `v` is an argument of `func`'s entry block.
fn is_argument_of(v: Val, func: Op) -> bool {
    let Some(entry) = func.region_blocks(0).first().copied() else {
        return false;
    };
    // SAFETY: queries on a live value and block.
    unsafe {
        mlirValueIsABlockArgument(v.raw())
            && mlirBlockEqual(mlirBlockArgumentGetOwner(v.raw()), entry.raw())
    }
}

/// The weight and bias of `lin` are arguments of the function that holds `at`.
fn params_are_arguments(lin: &Linear, at: Op) -> bool {
    enclosing_func(at).is_some_and(|f| {
        is_argument_of(lin.weight, f) && lin.bias.is_none_or(|b| is_argument_of(b, f))
    })
}

/// The rows N of a [N, K] weight, when static.
fn weight_rows(w: Val) -> Option<i64> {
    let t = w.tensor()?;
    if t.rank() != 2 {
        return None;
    }
    t.shape[0]
}

/// A ranked tensor type of `shape` with the element type (and encoding) of `like`.
fn tensor_like(shape: &[Dim], like: Val) -> MlirType {
    // SAFETY: `like` is alive and a ranked tensor (checked by the constraints); the new type
    // is uniqued in its context.
    unsafe {
        let ty = mlirValueGetType(like.raw());
        let dims: Vec<i64> = shape
            .iter()
            .map(|d| d.unwrap_or(mlirShapedTypeGetDynamicSize()))
            .collect();
        mlirRankedTensorTypeGet(
            dims.len() as isize,
            dims.as_ptr(),
            mlirShapedTypeGetElementType(ty),
            mlirRankedTensorTypeGetEncoding(ty),
        )
    }
}

/// `dit.concat(a, b) {dim = 0}` of two [N, …] tensors of one type.
fn concat_rows<'a>(
    rewriter: MlirPatternRewriter,
    at: Op<'a>,
    a: Val<'a>,
    b: Val<'a>,
    rows: i64,
) -> Val<'a> {
    let mut shape = a.tensor().map(|t| t.shape).unwrap_or_default();
    if let Some(first) = shape.first_mut() {
        *first = Some(rows);
    }
    create_via_rewriter(
        rewriter,
        at,
        OpKind::Concat,
        &[a, b],
        tensor_like(&shape, a),
        &[("dim", Attr::i64(at.context_raw(), 0))],
    )
}

/// `dit.slice(v) {dim = 0, start, end, step = 1}`.
fn slice_rows<'a>(
    rewriter: MlirPatternRewriter,
    at: Op<'a>,
    v: Val<'a>,
    start: i64,
    end: i64,
) -> Val<'a> {
    let mut shape = v.tensor().map(|t| t.shape).unwrap_or_default();
    if let Some(first) = shape.first_mut() {
        *first = Some(end - start);
    }
    let context = at.context_raw();
    create_via_rewriter(
        rewriter,
        at,
        OpKind::Slice,
        &[v],
        tensor_like(&shape, v),
        &[
            ("dim", Attr::i64(context, 0)),
            ("start", Attr::i64(context, start)),
            ("end", Attr::i64(context, end)),
            ("step", Attr::i64(context, 1)),
        ],
    )
}

/// `dit.linear(x, weight, bias?)` of result type like `like` with the last dim `n`.
fn linear<'a>(
    rewriter: MlirPatternRewriter,
    at: Op<'a>,
    x: Val<'a>,
    weight: Val<'a>,
    bias: Option<Val<'a>>,
    like: Val<'a>,
    n: i64,
) -> Val<'a> {
    let mut shape = like.tensor().map(|t| t.shape).unwrap_or_default();
    if let Some(last) = shape.last_mut() {
        *last = Some(n);
    }
    let mut operands = vec![x, weight];
    operands.extend(bias);
    let segments = [1, 1, i32::from(bias.is_some())];
    create_via_rewriter(
        rewriter,
        at,
        OpKind::Linear,
        &operands,
        tensor_like(&shape, like),
        &[(
            "operandSegmentSizes",
            Attr::i32_array(at.context_raw(), &segments),
        )],
    )
}

/// The product `root` has two operands: `act`'s result and `other`, in either order.
fn is_product_of(root: Op, act: Val, other: Val) -> bool {
    root.num_operands() == 2
        && root.num_results() == 1
        && ((root.operand(0) == act && root.operand(1) == other)
            || (root.operand(1) == act && root.operand(0) == other))
}

/// The merged projection (`like`'s type with last dim `width`) fits the fused op of
/// `pattern`: for enable_gelu_mul, aclnnGeluMul's rules (gelu_mul.*) on the whole input.
fn width_fits(
    state: &NativeState,
    pattern: &str,
    act: Op,
    like: Val,
    width: i64,
) -> Result<(), String> {
    if pattern != "enable_gelu_mul" {
        return Ok(());
    }
    let mut whole = contract::desc(like).ok_or("the projection is not a ranked tensor")?;
    if let Some(last) = whole.dims.last_mut() {
        *last = width;
    }
    let approximate = str_attr(act, "approximate").unwrap_or_else(|| "none".to_string());
    let attrs = contract::str_attrs(&[("approximate", &approximate)]);
    contract::kernel_accepts(state, OpKind::GeluMul, &attrs, &[Some(whole)])
        .map_err(|e| format!("the merged projection breaks {e}; projections left separate"))
}

// ----- two projections on one input -----

/// What merging the gate projection `lg` and the up projection `lu` builds.
struct MergePlan<'a> {
    gate: Linear<'a>,
    up: Linear<'a>,
    /// Rows of each weight (the gate's N = the up's N).
    n: i64,
}

/// Whether `lg` (under `act`) and `lu` feed `root` on one input: the structure the patterns
/// match, checked again without reporting (the matcher may call a constraint early).
fn merge_candidate<'a>(
    lg: Op<'a>,
    lu: Op<'a>,
    act: Op<'a>,
    root: Op<'a>,
) -> Option<(Linear<'a>, Linear<'a>)> {
    if lg == lu || act.num_operands() != 1 || act.operand(0) != lg.result(0) {
        return None;
    }
    if !is_product_of(root, act.result(0), lu.result(0)) {
        return None;
    }
    let (gate, up) = (linear_operands(lg)?, linear_operands(lu)?);
    (gate.x == up.x).then_some((gate, up))
}

/// Checks a candidate; the error is the reason for the report.
fn merge_plan<'a>(
    lg: Op<'a>,
    lu: Op<'a>,
    act: Op<'a>,
    root: Op<'a>,
) -> Result<MergePlan<'a>, String> {
    let (gate, up) =
        merge_candidate(lg, lu, act, root).ok_or("not two projections of one input")?;
    if lg.result(0).use_count() != 1
        || lu.result(0).use_count() != 1
        || act.result(0).use_count() != 1
    {
        return Err(
            "the gate or up projection (or the activation) has another user; merging would compute it twice"
                .to_string(),
        );
    }
    if gate.bias.is_some() != up.bias.is_some() {
        return Err("one projection has a bias and the other none".to_string());
    }
    if !params_are_arguments(&gate, root) || !params_are_arguments(&up, root) {
        return Err(
            "the weights (or biases) are not arguments of the function; only those are concatenated ahead of the graph"
                .to_string(),
        );
    }
    let biases_alike = match (gate.bias, up.bias) {
        (Some(a), Some(b)) => a.same_type(b),
        _ => true,
    };
    if !gate.weight.same_type(up.weight) || !biases_alike || !lg.result(0).same_type(lu.result(0)) {
        return Err("the two projections differ in type".to_string());
    }
    let out = lg.result(0);
    if !root.result(0).same_type(out) || !out.tensor().is_some_and(|t| t.elem.is_float()) {
        return Err("the product's type is not the projections' float type".to_string());
    }
    let n = weight_rows(gate.weight).ok_or("the weights' row count is dynamic")?;
    Ok(MergePlan { gate, up, n })
}

/// Constraint: `MergeableLinears(lg, lu, act, root, pattern)`: `root` = act(lg) · lu (either
/// order), lg and lu dit.linear ops on one x, each used once (and act once), both with or
/// both without bias, weights (and biases) arguments of the function, of one type, the
/// product of the projections' type; for enable_gelu_mul the merged width fits GeluMul.
/// Records the reason for `pattern` when two projections of one x do not merge.
fn mergeable_linears(args: Args, state: &NativeState) -> bool {
    let op = |i: usize| args.op_at(i);
    let pattern_attr = args.attr_at(4);
    let pattern = string_of(pattern_attr);
    let (lg, lu, act, root) = (op(0), op(1), op(2), op(3));
    if !ops_are(&[
        (lg, OpKind::Linear),
        (lu, OpKind::Linear),
        (act, activation_of(&pattern)),
        (root, OpKind::Mul),
    ]) {
        return false;
    }
    let (Some(lg), Some(lu), Some(act), Some(root)) = (lg, lu, act, root) else {
        return false;
    };
    // Projections of different inputs (or no projections) are no candidates: nothing to say.
    if merge_candidate(lg, lu, act, root).is_none() {
        return false;
    }
    let check = merge_plan(lg, lu, act, root)
        .and_then(|p| width_fits(state, &pattern, act, lu.result(0), 2 * p.n));
    fits(state, pattern_attr, Some(root.result(0)), check)
}

/// Rewrite: `MergeLinears(lg, lu, act, root) -> Value`: builds, before `root`,
/// `linear(x, concat(wg, wu) {dim = 0}, concat(bg, bu) {dim = 0}?)` and returns it: the gate
/// rows first, so the gate is the first half of its result. MergeableLinears vouched for it.
fn merge_linears(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    rewriter: MlirPatternRewriter,
) -> bool {
    let op = |i: usize| args.op_at(i);
    let (Some(lg), Some(lu), Some(act), Some(root)) = (op(0), op(1), op(2), op(3)) else {
        return false;
    };
    let merged = match merge_plan(lg, lu, act, root) {
        Ok(p) => {
            // SAFETY: the root is alive; new ops go right before it.
            unsafe {
                mlirRewriterBaseSetInsertionPointBefore(
                    mlirPatternRewriterAsBase(rewriter),
                    root.raw(),
                )
            };
            let rows = 2 * p.n;
            let w = concat_rows(rewriter, root, p.gate.weight, p.up.weight, rows);
            let b = match (p.gate.bias, p.up.bias) {
                (Some(bg), Some(bu)) => Some(concat_rows(rewriter, root, bg, bu, rows)),
                _ => None,
            };
            linear(rewriter, root, p.gate.x, w, b, lg.result(0), rows)
        }
        // Unreachable (the constraint checked the same plan); a rewrite must not fail, and
        // the verifier after the pass rejects the half-width input.
        Err(_) => lg.result(0),
    };
    // SAFETY: the result list is the interpreter's; the value is alive.
    unsafe { mlirPDLResultListPushBackValue(results, merged.raw()) };
    true
}

// ----- one projection chunked with the gate second -----

/// If `gate` and `up` are the two halves of one tensor along its last dim (a 2-way even
/// dit.split, or two step-1 dit.slice ops covering [0, D/2) and [D/2, D)): that tensor, the
/// half width, and whether the gate is the first half.
fn halves<'a>(gate: Val<'a>, up: Val<'a>) -> Option<(Val<'a>, i64, bool)> {
    let (g, u) = (gate.defining_op()?, up.defining_op()?);
    if g.is_kind(OpKind::Split) && g == u && g.num_results() == 2 {
        let x = g.operand(0);
        let t = x.tensor()?;
        let rank = t.rank() as i64;
        let dim = i64_attr(g, "dim")?;
        let sizes = i64_array_attr(g, "sizes")?;
        if !(dim == -1 || dim == rank - 1) || sizes.len() != 2 || sizes[0] != sizes[1] {
            return None;
        }
        if t.dim_from_back(0)? != 2 * sizes[0] {
            return None;
        }
        return match (g.result(0) == gate, g.result(1) == up) {
            (true, true) => Some((x, sizes[0], true)),
            (false, false) if g.result(1) == gate && g.result(0) == up => {
                Some((x, sizes[0], false))
            }
            _ => None,
        };
    }
    if g.is_kind(OpKind::Slice)
        && u.is_kind(OpKind::Slice)
        && g != u
        && g.operand(0) == u.operand(0)
    {
        let x = g.operand(0);
        let t = x.tensor()?;
        let d = t.dim_from_back(0)?;
        if d % 2 != 0 {
            return None;
        }
        let bounds = last_dim_slice_bounds;
        let h = d / 2;
        return match (bounds(g)?, bounds(u)?) {
            (a, b) if a == (0, h) && b == (h, d) => Some((x, h, true)),
            (a, b) if a == (h, d) && b == (0, h) => Some((x, h, false)),
            _ => None,
        };
    }
    None
}

/// What reordering the chunked projection builds.
struct SwapPlan<'a> {
    lin: Op<'a>,
    ins: Linear<'a>,
    /// The half width N (the weight has 2N rows).
    n: i64,
}

/// Whether `root` = act(gate) · up with gate the SECOND half of a dit.linear's result and up
/// the first: the structure, checked without reporting.
fn swap_candidate<'a>(
    gate: Val<'a>,
    up: Val<'a>,
    act: Op<'a>,
    root: Op<'a>,
) -> Option<(Op<'a>, Linear<'a>, Val<'a>, i64)> {
    if act.num_operands() != 1 || act.operand(0) != gate {
        return None;
    }
    if !is_product_of(root, act.result(0), up) {
        return None;
    }
    let (whole, n, gate_first) = halves(gate, up)?;
    if gate_first {
        return None;
    }
    let lin = whole.defining_op()?;
    Some((lin, linear_operands(lin)?, whole, n))
}

/// Checks a candidate; the error is the reason for the report.
fn swap_plan<'a>(
    gate: Val<'a>,
    up: Val<'a>,
    act: Op<'a>,
    root: Op<'a>,
) -> Result<SwapPlan<'a>, String> {
    let (lin, ins, whole, n) =
        swap_candidate(gate, up, act, root).ok_or("not a projection chunked gate-second")?;
    let (g, u) = (gate.defining_op(), up.defining_op());
    let producers = if g == u { 1 } else { 2 };
    if act.result(0).use_count() != 1
        || gate.use_count() != 1
        || up.use_count() != 1
        || whole.use_count() != producers
    {
        return Err(
            "the projection, its halves or the activation have other users; reordering would compute the projection twice"
                .to_string(),
        );
    }
    if !params_are_arguments(&ins, root) {
        return Err(
            "the gate is the second half and the projection's weight (or bias) is not an argument of the function: its rows are not reordered here"
                .to_string(),
        );
    }
    if weight_rows(ins.weight) != Some(2 * n) {
        return Err("the weight's rows are not the projection's width".to_string());
    }
    is_halved_type(whole, root.result(0), Some(n))?;
    swap_pays(lin, &ins, whole, gate, up, root).map_err(|e| {
        format!("the gate is the second half; reordering the weight rows does not pay: {e}")
    })?;
    Ok(SwapPlan { lin, ins, n })
}

/// The cost-model check of the reorder. Without it the halves are cut out of the projection
/// (a view or a copy kernel, as the cost model places the split or slices) and their product is
/// one kernel; with it the fused op reads the whole projection, and the swapped weight (and bias)
/// rows are free only when the pre-pack computes them: per call they are a copy of the weight.
fn swap_pays(
    lin: Op,
    ins: &Linear,
    whole: Val,
    gate: Val,
    up: Val,
    root: Op,
) -> Result<(), String> {
    use crate::analysis::cost::{relayout_cost, tensor_bytes, CallCost};
    let bytes = |v: Val| v.tensor().map_or(0, |t| tensor_bytes(&t));
    let out = bytes(root.result(0));
    let projection = CallCost::of_ops(&[lin]);
    let mut halves: Vec<Op> = Vec::new();
    for producer in [gate.defining_op(), up.defining_op()].into_iter().flatten() {
        if !halves.contains(&producer) {
            halves.push(producer);
        }
    }
    let original = projection
        .plus(CallCost::of_ops(&halves))
        .plus(CallCost::kernel(
            bytes(gate).saturating_add(bytes(up)).saturating_add(out),
        ));
    let mut rewritten = projection
        .plus(CallCost::kernel(bytes(whole).saturating_add(out)))
        .plus(relayout_cost(ins.weight));
    if let Some(b) = ins.bias {
        rewritten = rewritten.plus(relayout_cost(b));
    }
    crate::analysis::cost::rewrite_pays(original, rewritten)
}

/// Constraint: `GateSecondOfLinear(gate, up, act, root, pattern)`: `root` = act(gate) · up
/// (either order) where up and gate are the first and second halves (split or slices) of a
/// dit.linear's result, used only there, whose weight (and bias) are arguments of the
/// function; for enable_gelu_mul the width fits GeluMul. Records the reason for `pattern`
/// when such a projection is not reordered.
fn gate_second_of_linear(args: Args, state: &NativeState) -> bool {
    let (Some(gate), Some(up)) = (args.value_at(0), args.value_at(1)) else {
        return false;
    };
    let (act, root) = (args.op_at(2), args.op_at(3));
    let pattern_attr = args.attr_at(4);
    let pattern = string_of(pattern_attr);
    if !ops_are(&[(act, activation_of(&pattern)), (root, OpKind::Mul)]) {
        return false;
    }
    let (Some(act), Some(root)) = (act, root) else {
        return false;
    };
    if swap_candidate(gate, up, act, root).is_none() {
        return false;
    }
    let check = swap_plan(gate, up, act, root)
        .and_then(|p| width_fits(state, &pattern, act, p.lin.result(0), 2 * p.n));
    fits(state, pattern_attr, Some(root.result(0)), check)
}

/// Rewrite: `SwapLinearHalves(gate, up, act, root) -> Value`: builds, before `root`,
/// `linear(x, concat(slice(w, N..2N), slice(w, 0..N)) {dim = 0}, <bias alike>?)` and returns
/// it: the old second half (the gate) is now the first. GateSecondOfLinear vouched for it.
fn swap_linear_halves(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    rewriter: MlirPatternRewriter,
) -> bool {
    let value = |i: usize| args.value_at(i);
    let op = |i: usize| args.op_at(i);
    let (Some(gate), Some(up), Some(act), Some(root)) = (value(0), value(1), op(2), op(3)) else {
        return false;
    };
    let reordered = match swap_plan(gate, up, act, root) {
        Ok(p) => {
            // SAFETY: the root is alive; new ops go right before it.
            unsafe {
                mlirRewriterBaseSetInsertionPointBefore(
                    mlirPatternRewriterAsBase(rewriter),
                    root.raw(),
                )
            };
            let (n, rows) = (p.n, 2 * p.n);
            let swap = |v| {
                let second = slice_rows(rewriter, root, v, n, rows);
                let first = slice_rows(rewriter, root, v, 0, n);
                concat_rows(rewriter, root, second, first, rows)
            };
            let w = swap(p.ins.weight);
            let b = p.ins.bias.map(swap);
            linear(rewriter, root, p.ins.x, w, b, p.lin.result(0), rows)
        }
        // Unreachable (the constraint checked the same plan); a rewrite must not fail, and
        // the result then keeps the gate second, as the input had it.
        Err(_) => gate,
    };
    // SAFETY: the result list is the interpreter's; the value is alive.
    unsafe { mlirPDLResultListPushBackValue(results, reordered.raw()) };
    true
}

/// The constraints of this topic, by the names PDLL declares.
pub const CONSTRAINTS: &[(&str, ConstraintFn)] = &[
    ("MergeableLinears", mergeable_linears),
    ("GateSecondOfLinear", gate_second_of_linear),
];

/// The rewrites of this topic, by the names PDLL declares.
pub const REWRITES: &[(&str, RewriteFn)] = &[
    ("MergeLinears", merge_linears),
    ("SwapLinearHalves", swap_linear_halves),
];
