//! Natives of the Linear + activation patterns (patterns/linear.pdll): whether a dit.linear
//! and the op after it fit aclnnFusedMatmul, and the rewrite that builds the dit.fused_matmul
//! (with the reshapes to 2-D and the weight transpose to [K, N] it needs).

use super::*;
use dit_dialect::ops::OpKind;
use dit_dialect::tensor::Dim;

/// The dit op each `fused_op_type` a pattern asks for is rooted at.
fn root_name(kind: &str) -> Option<OpKind> {
    Some(match kind {
        "gelu_tanh" | "gelu_erf" => OpKind::Gelu,
        "relu" => OpKind::Relu,
        "add" => OpKind::Add,
        "mul" => OpKind::Mul,
        _ => return None,
    })
}

/// Everything the rewrite builds, worked out (and checked) once for the constraint and the
/// rewrite alike.
struct Plan<'a> {
    x: Val<'a>,
    weight: Val<'a>,
    bias: Option<Val<'a>>,
    x3: Option<Val<'a>>,
    /// `[K, N]`: the weight's shape transposed.
    weight_t: Vec<Dim>,
    /// When x is not 2-D: the `[M, K]` x and `[M, N]` result / x3 shapes.
    flat: Option<(Vec<Dim>, Vec<Dim>)>,
}

fn shape_of(t: &dit_dialect::tensor::TensorInfo) -> String {
    format!("[{}]", dit_dialect::tensor::shape_string(&t.shape))
}

/// Whether `v` is a SiLU gate that enable_swiglu's two-input patterns fuse with the other
/// factor of a mul into dit.silu_mul: silu(g), cast(silu(cast(g))) or
/// cast(cast(g) * sigmoid(cast(g))), used once.
fn is_silu_gate(v: Val) -> bool {
    if v.use_count() != 1 {
        return false;
    }
    let Some(op) = v.defining_op() else {
        return false;
    };
    if op.is_kind(OpKind::Silu) {
        return true;
    }
    let Some(inner) = op
        .is_kind(OpKind::Cast)
        .then(|| op.operand(0).defining_op())
        .flatten()
    else {
        return false;
    };
    inner.is_kind(OpKind::Silu)
        || (inner.is_kind(OpKind::Mul)
            && inner
                .operands()
                .iter()
                .any(|o| o.defining_op().is_some_and(|p| p.is_kind(OpKind::Sigmoid))))
}

/// Checks that `lin` followed by `root` (the op of `kind`) fits aclnnFusedMatmul and plans
/// the rewrite; the error is the skip reason. The caller checked the ops' names and the target.
fn plan<'a>(lin: Op<'a>, root: Op<'a>, kind: &str) -> Result<Plan<'a>, String> {
    let y = lin.result(0);
    if !root.operands().contains(&y) || root.num_results() != 1 {
        return Err("the op after the linear does not consume it".to_string());
    }
    let t = |v: Val, what: &str| v.tensor().ok_or(format!("{what} is not a ranked tensor"));
    let spec = OpKind::Linear.spec();
    let ins = dit_dialect::ops::Operands::resolve(lin, spec)
        .map_err(|_| "the linear's operand segments do not resolve".to_string())?;
    let (Some(x), Some(weight)) = (ins.get("x"), ins.get("weight")) else {
        return Err("the linear has no x or weight".to_string());
    };
    let bias = ins.get("bias");
    let (xt, wt, yt) = (
        t(x, "x")?,
        t(weight, "weight")?,
        t(y, "the linear's result")?,
    );
    let out = t(root.result(0), "the result")?;
    if !matches!(xt.elem, Elem::F16 | Elem::BF16) {
        return Err(format!(
            "x is {}; FusedMatmul takes f16 or bf16 (no fusion for {} linears)",
            xt.elem, xt.elem
        ));
    }
    if wt.elem != xt.elem || yt.elem != xt.elem || out.elem != xt.elem {
        return Err("x, weight and result element types differ".to_string());
    }
    if bias.is_some_and(|b| b.tensor().map(|b| b.elem) != Some(xt.elem.clone())) {
        return Err("the bias element type differs from x's".to_string());
    }
    if wt.rank() != 2 || xt.rank() == 0 {
        return Err("weight must be [N, K] and x at least 1-D".to_string());
    }
    let x3 = match kind {
        "add" | "mul" => {
            if root.num_operands() != 2 {
                return Err(format!("the {kind} does not have two operands"));
            }
            let other = if root.operand(0) == y {
                root.operand(1)
            } else {
                root.operand(0)
            };
            let x3t = t(other, "x3")?;
            if x3t.elem != xt.elem {
                return Err(format!(
                    "x3 is {}, the linear {}; FusedMatmul takes them alike",
                    x3t.elem, xt.elem
                ));
            }
            if x3t.rank() != yt.rank()
                || !shapes_compatible(&x3t.shape, &yt.shape)
                || !shapes_compatible(&out.shape, &yt.shape)
            {
                return Err(format!(
                    "x3 {} is not of the linear's result shape {}: FusedMatmul's x3 is [M, N], \
                     it does not broadcast",
                    shape_of(&x3t),
                    shape_of(&yt)
                ));
            }
            if kind == "mul" && is_silu_gate(other) {
                return Err(
                    "x3 is a SiLU gate: left to enable_swiglu (silu_mul(gate, linear) \
                     is as many kernels without the weight transpose)"
                        .to_string(),
                );
            }
            Some(other)
        }
        _ => {
            if !shapes_compatible(&out.shape, &yt.shape) || out.rank() != yt.rank() {
                return Err("the activation changes the linear's shape".to_string());
            }
            None
        }
    };
    let weight_t = vec![wt.shape[1], wt.shape[0]];
    let flat = if xt.rank() == 2 {
        None
    } else {
        let (k, n) = (xt.dim_from_back(0), out.dim_from_back(0));
        let (Some(k), Some(n)) = (k, n) else {
            return Err(format!(
                "x {} is not 2-D and K or N is dynamic: the reshape to [M, K] and back could \
                 not be inferred",
                shape_of(&xt)
            ));
        };
        if out.shape.iter().filter(|d| d.is_none()).count() > 1 {
            return Err(format!(
                "the result {} has more than one dynamic dim: the reshape back from [M, N] \
                 could not be inferred",
                shape_of(&out)
            ));
        }
        let lead = &xt.shape[..xt.rank() - 1];
        let m = if lead.iter().all(|d| d.is_some()) {
            let m = lead
                .iter()
                .try_fold(1i64, |acc, d| acc.checked_mul((*d)?))
                .ok_or("M overflows i64")?;
            Some(m)
        } else {
            None
        };
        Some((vec![m, Some(k)], vec![m, Some(n)]))
    };
    Ok(Plan {
        x,
        weight,
        bias,
        x3,
        weight_t,
        flat,
    })
}

/// The dit.fused_matmul that `p` builds passes aclnnFusedMatmul's rules (fused_matmul.*): in
/// particular gelu_tanh / gelu_erf compute gelu(x1·x2) and refuse a bias, so a linear with a
/// bias followed by GELU stays unfused (rule fused_matmul.gelu_bias).
fn kernel_accepts_plan(state: &NativeState, p: &Plan, kind: &str) -> Result<(), String> {
    let with_dims = |v: Val, dims: Option<&[Dim]>| {
        contract::desc(v).map(|mut d| {
            if let Some(dims) = dims {
                d.dims = dims.iter().map(|x| x.unwrap_or(-1)).collect();
            }
            d
        })
    };
    let (mk, mn) = match &p.flat {
        Some((mk, mn)) => (Some(mk.as_slice()), Some(mn.as_slice())),
        None => (None, None),
    };
    let operands = [
        with_dims(p.x, mk),
        with_dims(p.weight, Some(&p.weight_t)),
        p.bias.and_then(contract::desc),
        p.x3.and_then(|v| with_dims(v, mn)),
    ];
    let attrs = contract::str_attrs(&[("fused_op_type", kind)]);
    contract::kernel_accepts(state, OpKind::FusedMatmul, &attrs, &operands)
}

/// The dit.linear a `dit.matmul` + `dit.add` (seed 000 path A) is: its operands, and whether
/// the weight needs a transpose to [N, K] and the bias a reshape to [N].
struct LinearPlan<'a> {
    x: Val<'a>,
    weight: Val<'a>,
    transpose_weight: bool,
    bias: Val<'a>,
    reshape_bias: bool,
}

/// Checks that `mm` + `add` compute `dit.linear(x, weight, bias)` and plans it; the error is
/// the skip reason. None when the ops are not this pattern's match at all.
fn plan_linear_bias<'a>(mm: Op<'a>, add: Op<'a>) -> Option<Result<LinearPlan<'a>, String>> {
    let y = mm.result(0);
    if add.num_operands() != 2 || y.use_count() != 1 || mm.num_operands() != 2 {
        return None;
    }
    let bias = if add.operand(0) == y {
        add.operand(1)
    } else if add.operand(1) == y {
        add.operand(0)
    } else {
        return None;
    };
    let (x, w) = (mm.operand(0), mm.operand(1));
    Some((|| {
        let t = |v: Val, what: &str| v.tensor().ok_or(format!("{what} is not a ranked tensor"));
        let (xt, wt, bt, yt, out) = (
            t(x, "x")?,
            t(w, "the weight")?,
            t(bias, "the addend")?,
            t(y, "the matmul result")?,
            t(add.result(0), "the add result")?,
        );
        if bool_attr(mm, "transpose_a") != Some(false) {
            return Err(
                "the matmul transposes x (transpose_a): dit.linear reads x as [.., K]".to_string(),
            );
        }
        if wt.rank() != 2 {
            return Err(format!(
                "the weight is batched ([{}]): dit.linear's weight is [N, K]",
                dit_dialect::tensor::shape_string(&wt.shape)
            ));
        }
        if [&wt, &bt, &yt, &out].iter().any(|o| o.elem != xt.elem) {
            return Err("x, weight, bias and result element types differ".to_string());
        }
        // A bias over rows: one value per output column, so its shape is [N] or [1, .., 1, N]
        // and adding it does not change the matmul result's shape.
        let n = yt.dim_from_back(0);
        let row_bias = n.is_some()
            && bt.rank() >= 1
            && bt.rank() <= yt.rank()
            && bt.dim_from_back(0) == n
            && bt.shape[..bt.rank() - 1].iter().all(|d| *d == Some(1))
            && out.shape == yt.shape;
        if !row_bias {
            return Err(format!(
                "the addend [{}] is not a bias over rows ([N] or [1, .., 1, N] with N = {})",
                dit_dialect::tensor::shape_string(&bt.shape),
                dit_dialect::tensor::shape_string(&[n])
            ));
        }
        let transpose_weight = bool_attr(mm, "transpose_b") != Some(true);
        // dit.linear takes the weight as [N, K]. A [K, N] one needs a transpose, which costs
        // nothing per call only when the load-time pre-pack can do it: the weight must be a
        // function argument or a re-layout of arguments (cost::is_load_time_value).
        if transpose_weight && !crate::analysis::cost::is_load_time_value(w) {
            return Err(
                "the weight is [K, N] and not known at load time: its transpose to [N, K] would \
                 be a kernel on every call"
                    .to_string(),
            );
        }
        Ok(LinearPlan {
            x,
            weight: w,
            transpose_weight,
            bias,
            reshape_bias: bt.rank() != 1,
        })
    })())
}

/// Constraint: `MatmulBiasFits(mm, root, pattern)`.
fn matmul_bias_fits(args: Args, state: &NativeState) -> bool {
    let (mm, root) = (args.op_at(0), args.op_at(1));
    if !ops_are(&[(mm, OpKind::Matmul), (root, OpKind::Add)]) {
        return false;
    }
    let (Some(mm), Some(root)) = (mm, root) else {
        return false;
    };
    match plan_linear_bias(mm, root) {
        None => false,
        Some(check) => fits(
            state,
            args.attr_at(2),
            Some(root.result(0)),
            check.map(|_| ()),
        ),
    }
}

/// Rewrite: `BuildLinear(mm, root) -> Value`: builds, before `root`, [dit.transpose(weight)
/// {perm = [1, 0]}], [dit.reshape(bias) to [N]] and the dit.linear(x, weight, bias) that
/// replaces `root`. MatmulBiasFits vouched for it.
fn build_linear(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    rewriter: MlirPatternRewriter,
) -> bool {
    let (Some(mm), Some(root)) = (args.op_at(0), args.op_at(1)) else {
        return false;
    };
    let Some(Ok(p)) = plan_linear_bias(mm, root) else {
        return false;
    };
    let (Some(wt), Some(bt)) = (p.weight.tensor(), p.bias.tensor()) else {
        return false;
    };
    let context = root.context_raw();
    // SAFETY: the root is alive; new ops go right before it.
    unsafe {
        mlirRewriterBaseSetInsertionPointBefore(mlirPatternRewriterAsBase(rewriter), root.raw())
    };
    let weight = if p.transpose_weight {
        create_via_rewriter(
            rewriter,
            root,
            OpKind::Transpose,
            &[p.weight],
            tensor_type(&[wt.shape[1], wt.shape[0]], p.weight),
            &[("perm", root.i64_array_attr(&[1, 0]))],
        )
    } else {
        p.weight
    };
    let bias = if p.reshape_bias {
        let n = bt.dim_from_back(0);
        create_via_rewriter(
            rewriter,
            root,
            OpKind::Reshape,
            &[p.bias],
            tensor_type(&[n], p.bias),
            &[],
        )
    } else {
        p.bias
    };
    // SAFETY: the root's result type is alive.
    let out_type = unsafe { mlirValueGetType(root.result(0).raw()) };
    let linear = create_via_rewriter(
        rewriter,
        root,
        OpKind::Linear,
        &[p.x, weight, bias],
        out_type,
        &[("operandSegmentSizes", Attr::i32_array(context, &[1, 1, 1]))],
    );
    // SAFETY: the result list is the interpreter's; the value is alive.
    unsafe { mlirPDLResultListPushBackValue(results, linear.raw()) };
    true
}

/// Constraint: `LinearActivationFits(lin, root, kind, pattern)`.
fn linear_activation_fits(args: Args, state: &NativeState) -> bool {
    let (lin, root) = (args.op_at(0), args.op_at(1));
    let kind = string_of(args.attr_at(2));
    let Some(root_op) = root_name(&kind) else {
        return false;
    };
    if !ops_are(&[(lin, OpKind::Linear), (root, root_op)]) {
        return false;
    }
    let (Some(lin), Some(root)) = (lin, root) else {
        return false;
    };
    // Not a match of this pattern at all: the linear feeds another op, or others too
    // (HasOneUse may not have been evaluated yet).
    if !root.operands().contains(&lin.result(0)) || lin.result(0).use_count() != 1 {
        return false;
    }
    let check = if state.target.fused_matmul {
        plan(lin, root, &kind).and_then(|p| kernel_accepts_plan(state, &p, &kind))
    } else {
        Err(format!(
            "target {} has no FusedMatmul (Ascend 950 only)",
            state.target.name
        ))
    };
    fits(state, args.attr_at(3), Some(root.result(0)), check)
}

/// Constraint: `LinearSiluUnfused(lin, root, pattern)`: records why a dit.linear followed by
/// dit.silu stays two kernels, and never holds. No aclnn kernel fuses it: aclnnFusedMatmul's
/// fusedOpType is "", add, mul, gelu_erf, gelu_tanh or relu ([ops-nn]
/// matmul/fused_mat_mul/docs/aclnnFusedMatmul.md) and aclnnFusedQuantMatmul's gelu_erf or
/// gelu_tanh ([ops-nn] matmul/fused_quant_mat_mul/docs/aclnnFusedQuantMatmul.md).
fn linear_silu_unfused(args: Args, state: &NativeState) -> bool {
    let (lin, root) = (args.op_at(0), args.op_at(1));
    if !ops_are(&[(lin, OpKind::Linear), (root, OpKind::Silu)]) {
        return false;
    }
    // A gated SiLU (silu(linear) · up, possibly through casts) is enable_swiglu's to fuse:
    // reporting it here would read as a missed fusion where dit.silu_mul applies.
    if root.is_some_and(|r| {
        r.result(0)
            .users()
            .iter()
            .any(|u| u.is_kind(OpKind::Mul) || u.is_kind(OpKind::Cast))
    }) {
        return false;
    }
    let reason = "linear + silu: no aclnn kernel fuses a SiLU into a matmul (FusedMatmul: add, \
                  mul, gelu_erf, gelu_tanh, relu; FusedQuantMatmul: gelu only)";
    fits(
        state,
        args.attr_at(2),
        root.map(|r| r.result(0)),
        Err(reason.to_string()),
    )
}

/// A ranked tensor type of `shape` with the element type of `like`.
fn tensor_type(shape: &[Dim], like: Val) -> MlirType {
    let dims: Vec<i64> = shape
        .iter()
        // SAFETY: a constant of MLIR.
        .map(|d| d.unwrap_or_else(|| unsafe { mlirShapedTypeGetDynamicSize() }))
        .collect();
    // SAFETY: `like` is alive; the type is uniqued in its context.
    unsafe {
        let element = mlirShapedTypeGetElementType(mlirValueGetType(like.raw()));
        mlirRankedTensorTypeGet(
            dims.len() as isize,
            dims.as_ptr(),
            element,
            MlirAttribute {
                ptr: std::ptr::null(),
            },
        )
    }
}

/// Rewrite: `BuildFusedMatmul(lin, root, kind) -> Value`: builds, before `root`,
/// `[reshape x to [M, K]] -> transpose(weight) {perm = [1, 0]} -> fused_matmul(x1, x2, bias?,
/// x3?) {fused_op_type = kind} -> [reshape back]` (x3 reshaped to [M, N] likewise) and returns
/// the value that replaces `root`. LinearActivationFits vouched for all of it.
fn build_fused_matmul(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    rewriter: MlirPatternRewriter,
) -> bool {
    let (Some(lin), Some(root)) = (args.op_at(0), args.op_at(1)) else {
        return false;
    };
    let kind = string_of(args.attr_at(2));
    let Ok(p) = plan(lin, root, &kind) else {
        return false;
    };
    let context = root.context_raw();
    // SAFETY: the root is alive; new ops go right before it.
    unsafe {
        mlirRewriterBaseSetInsertionPointBefore(mlirPatternRewriterAsBase(rewriter), root.raw())
    };
    let reshape = |v, shape: &[Dim]| {
        create_via_rewriter(
            rewriter,
            root,
            OpKind::Reshape,
            &[v],
            tensor_type(shape, v),
            &[],
        )
    };
    let (x1, x3) = match &p.flat {
        Some((mk, mn)) => (reshape(p.x, mk), p.x3.map(|v| reshape(v, mn))),
        None => (p.x, p.x3),
    };
    let x2 = create_via_rewriter(
        rewriter,
        root,
        OpKind::Transpose,
        &[p.weight],
        tensor_type(&p.weight_t, p.weight),
        &[("perm", root.i64_array_attr(&[1, 0]))],
    );
    let out = root.result(0);
    // SAFETY: the root's result type is alive.
    let out_type = unsafe { mlirValueGetType(out.raw()) };
    let fused_type = match &p.flat {
        Some((_, mn)) => tensor_type(mn, out),
        None => out_type,
    };
    let mut operands = vec![x1, x2];
    operands.extend(p.bias);
    operands.extend(x3);
    let segments = [1, 1, i32::from(p.bias.is_some()), i32::from(x3.is_some())];
    let fused = create_via_rewriter(
        rewriter,
        root,
        OpKind::FusedMatmul,
        &operands,
        fused_type,
        &[
            ("fused_op_type", Attr::string(context, &kind)),
            ("operandSegmentSizes", Attr::i32_array(context, &segments)),
        ],
    );
    let result = match &p.flat {
        Some(_) => create_via_rewriter(rewriter, root, OpKind::Reshape, &[fused], out_type, &[]),
        None => fused,
    };
    // SAFETY: the result list is the interpreter's; the value is alive.
    unsafe { mlirPDLResultListPushBackValue(results, result.raw()) };
    true
}

/// The constraints of this topic, by the names PDLL declares.
pub const CONSTRAINTS: &[(&str, ConstraintFn)] = &[
    ("LinearActivationFits", linear_activation_fits),
    ("MatmulBiasFits", matmul_bias_fits),
    ("LinearSiluUnfused", linear_silu_unfused),
];

/// The rewrites of this topic, by the names PDLL declares.
pub const REWRITES: &[(&str, RewriteFn)] = &[
    ("BuildFusedMatmul", build_fused_matmul),
    ("BuildLinear", build_linear),
];
