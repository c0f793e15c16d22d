//! Natives of the quantized-kernel patterns (patterns/quant.pdll, patterns/moe.pdll).

use super::*;
use dit_kernel_spec::contracts;

/// Constraint: `QuantMatmulGeluFits(q, root, pattern)`.
fn quant_matmul_gelu_fits(args: Args, state: &NativeState) -> bool {
    let (q, root) = (args.op_at(0), args.op_at(1));
    if !ops_are(&[(q, OpKind::QuantMatmul), (root, OpKind::Gelu)]) {
        return false;
    }
    let (Some(q), Some(root)) = (q, root) else {
        return false;
    };
    let spec = OpKind::QuantMatmul.spec();
    let Ok(ins) = dit_dialect::ops::Operands::resolve(q, spec) else {
        return false;
    };
    // The operand count matched the pattern; the segments decide which slots those are.
    let Some(pertoken) = ins.get("pertoken_scale") else {
        return false;
    };
    let check = (|| {
        if !state.target.fused_quant_matmul {
            return Err(format!(
                "target {} has no FusedQuantMatmul (Atlas A2/A3 only)",
                state.target.name
            ));
        }
        if ins.get("offset").is_some() {
            return Err(
                "quant_matmul has an offset, which FusedQuantMatmul does not take".to_string(),
            );
        }
        let t = |v: Option<Val>| v.and_then(|v| v.tensor());
        let (x1, x2) = (
            t(ins.get("x1")).ok_or("x1 untyped")?,
            t(ins.get("x2")).ok_or("x2 untyped")?,
        );
        let a8w8 = x1.elem == Elem::I8 && x2.elem == Elem::I8;
        let a4w4 = x1.elem == Elem::I4 && x2.elem == Elem::I4;
        if !(a8w8 || a4w4) {
            return Err(format!(
                "x1 {} x x2 {} is neither A8W8 nor A4W4",
                x1.elem, x2.elem
            ));
        }
        // Both inputs may come as last-two-dims transposed views ([ops-nn]
        // matmul/fused_quant_mat_mul/docs/aclnnFusedQuantMatmul.md, x1 and x2: "最后两根轴转置
        // 情况下的非连续tensor"), so the flags carry over onto the fused op; int4 x1 is the
        // exception: "INT4量化场景 … 当前只支持不转置输入" (same page, 约束说明, x1).
        let (tx1, tx2) = (
            bool_attr(q, "transpose_x1").unwrap_or(false),
            bool_attr(q, "transpose_x2").unwrap_or(false),
        );
        if a4w4 && tx1 {
            return Err(
                "int4 x1 must not be transposed (FusedQuantMatmul's INT4 case takes x1 \
                 untransposed only)"
                    .to_string(),
            );
        }
        if i64_attr(q, "group_size").unwrap_or(0) != 0
            || str_attr(q, "x2_format").is_some_and(|f| f != "ND")
        {
            return Err(
                "per-group or FRACTAL_NZ quant_matmul has no fused GELU kernel".to_string(),
            );
        }
        fused_quant_matmul_accepts(state, &ins, tx1, tx2)?;
        let p = t(Some(pertoken)).ok_or("pertoken untyped")?;
        if p.elem != Elem::F32 || p.rank() != 1 {
            return Err(format!(
                "pertoken_scale must be f32 [M], got {} rank {}",
                p.elem,
                p.rank()
            ));
        }
        let scale = t(ins.get("scale")).ok_or("scale untyped")?;
        if !matches!(scale.elem, Elem::F32 | Elem::BF16) || scale.rank() != 1 {
            return Err(format!(
                "scale must be f32 or bf16 [N] or [1], got {} rank {}",
                scale.elem,
                scale.rank()
            ));
        }
        let bias = t(ins.get("bias"));
        let out = t(Some(root.result(0))).ok_or("result untyped")?;
        let wants_bf16 =
            scale.elem == Elem::BF16 || bias.as_ref().is_some_and(|b| b.elem == Elem::BF16);
        let out_ok = if wants_bf16 {
            out.elem == Elem::BF16
        } else {
            matches!(out.elem, Elem::F16 | Elem::BF16)
        };
        if !out_ok {
            return Err(format!(
                "output {} is not allowed (f16 or bf16; bf16 when scale or bias is bf16)",
                out.elem
            ));
        }
        Ok(())
    })();
    fits(state, args.attr_at(2), Some(root.result(0)), check)
}

/// The dit.quant_matmul_gelu P0 builds passes aclnnFusedQuantMatmul's rules
/// (fused_quant_matmul.*), with x1 and x2 described as the kernel sees them: through the
/// transposed views the kernel entry passes them in when the flags are set.
fn fused_quant_matmul_accepts(
    state: &NativeState,
    ins: &dit_dialect::ops::Operands,
    tx1: bool,
    tx2: bool,
) -> Result<(), String> {
    let viewed = |slot: &str, transposed: bool| {
        ins.get(slot).and_then(contract::desc).map(|mut d| {
            let n = d.dims.len();
            if transposed && n >= 2 {
                d.dims.swap(n - 2, n - 1);
            }
            d
        })
    };
    let operands = [
        viewed("x1", tx1),
        viewed("x2", tx2),
        ins.get("pertoken_scale").and_then(contract::desc),
        ins.get("scale").and_then(contract::desc),
        ins.get("bias").and_then(contract::desc),
    ];
    let attrs = contract::str_attrs(&[("approximate", "gelu_tanh")]);
    contract::kernel_accepts(state, OpKind::QuantMatmulGelu, &attrs, &operands)
}

/// Rewrite: `CarryTransposeFlags(q, fused)`: sets transpose_x1 / transpose_x2 on the
/// dit.quant_matmul_gelu `fused` where the dit.quant_matmul `q` has them true (absent means
/// false, so an untransposed fusion prints as before).
fn carry_transpose_flags(
    args: Args,
    _: &NativeState,
    _: MlirPDLResultList,
    _: MlirPatternRewriter,
) -> bool {
    let (Some(q), Some(fused)) = (args.op_at(0), args.op_at(1)) else {
        return false;
    };
    for flag in ["transpose_x1", "transpose_x2"] {
        if bool_attr(q, flag) == Some(true) {
            fused.set_attr(flag, Attr::bool(fused.context_raw(), true));
        }
    }
    true
}

/// Constraint: `GmmSwigluQuantFits(g, s, root, pattern)`.
fn gmm_swiglu_quant_fits(args: Args, state: &NativeState) -> bool {
    let op = |i: usize| args.op_at(i);
    let (g, s, root) = (op(0), op(1), op(2));
    if !ops_are(&[
        (g, OpKind::GroupedMatmul),
        (s, OpKind::Swiglu),
        (root, OpKind::DynamicQuant),
    ]) {
        return false;
    }
    let (Some(g), Some(s), Some(root)) = (g, s, root) else {
        return false;
    };
    let spec = OpKind::GroupedMatmul.spec();
    let Ok(ins) = dit_dialect::ops::Operands::resolve(g, spec) else {
        return false;
    };
    // The five operands must be x, weight, group_list, scale, per_token_scale (no bias).
    if ins.get("bias").is_some()
        || ins.get("scale").is_none()
        || ins.get("per_token_scale").is_none()
    {
        return false;
    }
    let check = (|| {
        let t = |v: Option<Val>| v.and_then(|v| v.tensor());
        let (x, w) = (
            t(ins.get("x")).ok_or("x untyped")?,
            t(ins.get("weight")).ok_or("weight untyped")?,
        );
        if x.elem != Elem::I8 || w.elem != Elem::I8 {
            return Err(format!(
                "x {} x weight {} is not int8 x int8",
                x.elem, w.elem
            ));
        }
        let (ws, xs) = (
            t(ins.get("scale")).ok_or("scale untyped")?,
            t(ins.get("per_token_scale")).ok_or("scale untyped")?,
        );
        if ws.elem != Elem::F32 || xs.elem != Elem::F32 {
            return Err("weight and per-token scales must be f32".to_string());
        }
        let rank = g.result(0).tensor().map_or(0, |t| t.rank()) as i64;
        if !matches!(i64_attr(s, "dim"), Some(d) if d == -1 || d == rank - 1) {
            return Err("the swiglu is not over the last dim".to_string());
        }
        if root.num_operands() != 1 {
            return Err(
                "dynamic_quant has a smooth scale, which the fused kernel does not take"
                    .to_string(),
            );
        }
        let y = t(Some(root.result(0))).ok_or("y untyped")?;
        if y.elem != Elem::I8 {
            return Err(format!(
                "dynamic_quant gives {}, the fused kernel int8",
                y.elem
            ));
        }
        gmm_kernel_accepts(state, g, &ins)
    })();
    fits(state, args.attr_at(3), Some(root.result(0)), check)
}

/// The fused op's variant on `chip` for a group list of `kind`: "v1" where the chip's V1 entry
/// passes the weight as FRACTAL_NZ (aclnnGroupedMatmulSwigluQuantWeightNZ on Atlas A2/A3, the
/// A8W8 form the docs require there; it reads a cumsum list only), "v2" otherwise (V2 reads
/// both list kinds).
fn gmm_variant(chip: &str, kind: &str) -> &'static str {
    let v1 = contract::str_attrs(&[("variant", "v1"), ("group_list_type", kind)]);
    let present = [true; 5];
    if contract::passed_format(chip, OpKind::GroupedMatmulSwigluQuant, &v1, &present, 1)
        == Some(contracts::Format::Nz)
    {
        "v1"
    } else {
        "v2"
    }
}

/// The dit.grouped_matmul_swiglu_quant the rewrite builds passes its kernel's rules. Its weight
/// is passed as FRACTAL_NZ where the entry says so, which the load-time pre-pack can provide
/// only for a weight that is an argument of the function (converted once, ND→NZ); any other
/// weight is row-major, and rules such as gmm_swiglu_quant_weight_nz.weight_format refuse it.
fn gmm_kernel_accepts(
    state: &NativeState,
    g: Op,
    ins: &dit_dialect::ops::Operands,
) -> Result<(), String> {
    let chip = state.target.chip;
    let kind = group_list_kind(g);
    let variant = gmm_variant(chip, &kind);
    let attrs = contract::str_attrs(&[("variant", variant), ("group_list_type", &kind)]);
    let weight = ins.get("weight").ok_or("no weight")?;
    let present = [true; 5];
    let format = match contract::passed_format(
        chip,
        OpKind::GroupedMatmulSwigluQuant,
        &attrs,
        &present,
        1,
    ) {
        Some(contracts::Format::Nz) if weight.block_argument().is_some() => contracts::Format::Nz,
        _ => contracts::Format::Nd,
    };
    let operands = [
        ins.get("x").and_then(contract::desc),
        contract::desc_as(weight, format),
        ins.get("group_list").and_then(contract::desc),
        ins.get("scale").and_then(contract::desc),
        ins.get("per_token_scale").and_then(contract::desc),
    ];
    contract::kernel_accepts(state, OpKind::GroupedMatmulSwigluQuant, &attrs, &operands).map_err(
        |e| {
            if format == contracts::Format::Nd && weight.block_argument().is_none() {
                format!(
                    "{e}; the weight is not an argument of the function, so the load-time \
                     pre-pack cannot convert it to FRACTAL_NZ"
                )
            } else {
                e
            }
        },
    )
}

/// The grouped_matmul's group list kind ("cumsum" when unset).
fn group_list_kind(g: Op) -> String {
    str_attr(g, "group_list_type").unwrap_or_else(|| "cumsum".to_string())
}

/// Pushes a string attribute computed from the grouped_matmul (operand 0) as the result.
fn push_gmm_string(args: Args, results: MlirPDLResultList, value: fn(Op) -> String) -> bool {
    let Some(g) = args.op_at(0) else {
        return false;
    };
    let text = value(g);
    // SAFETY: the result list is the interpreter's.
    unsafe {
        mlirPDLResultListPushBackAttribute(results, Attr::string(g.context_raw(), &text).raw())
    };
    true
}

/// Rewrite: `GmmSwigluVariant(g) -> Attr`: the variant `gmm_variant` picks for the target
/// (V1 reads a cumulative list only; V2 also counts).
fn gmm_swiglu_variant(
    args: Args,
    state: &NativeState,
    results: MlirPDLResultList,
    _: MlirPatternRewriter,
) -> bool {
    let Some(g) = args.op_at(0) else {
        return false;
    };
    let text = gmm_variant(state.target.chip, &group_list_kind(g));
    // SAFETY: the result list is the interpreter's.
    unsafe {
        mlirPDLResultListPushBackAttribute(results, Attr::string(g.context_raw(), text).raw())
    };
    true
}

/// Rewrite: `GmmGroupListType(g) -> Attr`: the grouped_matmul's group list kind, carried onto
/// the fused op so that its kernel call and the reference read the list the same way.
fn gmm_group_list_type(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    _: MlirPatternRewriter,
) -> bool {
    push_gmm_string(args, results, group_list_kind)
}

/// Constraint: `ReportUnquantizedGmm(g, s, pattern)`: records and never holds.
fn report_unquantized_gmm(args: Args, state: &NativeState) -> bool {
    let (g, s) = (args.op_at(0), args.op_at(1));
    if !ops_are(&[(g, OpKind::GroupedMatmul), (s, OpKind::Swiglu)]) {
        return false;
    }
    let quantized = g
        .and_then(|g| g.operand(0).tensor())
        .is_some_and(|t| t.elem == Elem::I8);
    if !quantized {
        let reason = "unquantized grouped_matmul: GroupedMatmulSwigluQuant is an int8 kernel; only the SwiGLU fused (dit.swiglu)";
        fits(
            state,
            args.attr_at(2),
            s.map(|s| s.result(0)),
            Err(reason.to_string()),
        );
    }
    false
}

/// The constraints of this topic, by the names PDLL declares.
pub const CONSTRAINTS: &[(&str, ConstraintFn)] = &[
    ("QuantMatmulGeluFits", quant_matmul_gelu_fits),
    ("GmmSwigluQuantFits", gmm_swiglu_quant_fits),
    ("ReportUnquantizedGmm", report_unquantized_gmm),
];

/// The rewrites of this topic, by the names PDLL declares.
pub const REWRITES: &[(&str, RewriteFn)] = &[
    ("CarryTransposeFlags", carry_transpose_flags),
    ("GmmSwigluVariant", gmm_swiglu_variant),
    ("GmmGroupListType", gmm_group_list_type),
];
