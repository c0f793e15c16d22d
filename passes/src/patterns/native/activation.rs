//! Natives of the gated-activation patterns (patterns/activation.pdll): halves, widths.

use super::*;
use dit_dialect::ops::OpKind;

/// Which half of a tensor the gate is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GateHalf {
    First,
    Second,
}

/// If `gate` and `up` are the two halves of one tensor along its last dim, that tensor and
/// which half the gate is.
fn halves<'a>(gate: Val<'a>, up: Val<'a>) -> Option<(Val<'a>, GateHalf)> {
    let (g, u) = (gate.defining_op()?, up.defining_op()?);
    if g.is_kind(OpKind::Split) && g == u {
        let x = g.operand(0);
        let rank = x.tensor()?.rank() as i64;
        let dim = i64_attr(g, "dim")?;
        let sizes = i64_array_attr(g, "sizes")?;
        if (dim == -1 || dim == rank - 1) && sizes.len() == 2 && sizes[0] == sizes[1] {
            let gate_index = (0..2).find(|i| g.result(*i) == gate)?;
            let up_index = (0..2).find(|i| g.result(*i) == up)?;
            return match (gate_index, up_index) {
                (0, 1) => Some((x, GateHalf::First)),
                (1, 0) => Some((x, GateHalf::Second)),
                _ => None,
            };
        }
        return None;
    }
    if g.is_kind(OpKind::Slice) && u.is_kind(OpKind::Slice) && g.operand(0) == u.operand(0) {
        let x = g.operand(0);
        let t = x.tensor()?;
        let d = t.dim_from_back(0)?;
        let bounds = last_dim_slice_bounds;
        let (gb, ub) = (bounds(g)?, bounds(u)?);
        let h = d / 2;
        if d % 2 != 0 {
            return None;
        }
        return match (gb, ub) {
            (a, b) if a == (0, h) && b == (h, d) => Some((x, GateHalf::First)),
            (a, b) if a == (h, d) && b == (0, h) => Some((x, GateHalf::Second)),
            _ => None,
        };
    }
    None
}

/// The activation a gated-activation switch puts on the gate.
fn activation_of(pattern: &str) -> OpKind {
    match pattern {
        "enable_gelu_mul" => OpKind::Gelu,
        _ => OpKind::Silu,
    }
}

/// Constraint: `GateIsFirstHalf(gate, up, act, root, pattern)`.
fn gate_is_first_half(args: Args, state: &NativeState) -> bool {
    let (Some(gate), Some(up)) = (args.value_at(0), args.value_at(1)) else {
        return false;
    };
    let (act, root) = (args.op_at(2), args.op_at(3));
    let pattern = string_of(args.attr_at(4));
    if !ops_are(&[(act, activation_of(&pattern)), (root, OpKind::Mul)]) {
        return false;
    }
    let Some((whole, half)) = halves(gate, up) else {
        return false;
    };
    let Some(root) = root else {
        return false;
    };
    let check = (|| {
        if half == GateHalf::Second {
            return Err(format!(
                "the gate is the second half of the tensor; {} takes it from the first half (swap the producer's weight rows to use it)",
                if pattern == "enable_gelu_mul" { OpKind::GeluMul } else { OpKind::Swiglu }
            ));
        }
        let half = whole
            .tensor()
            .and_then(|t| t.dim_from_back(0))
            .map(|d| d / 2);
        is_halved_type(whole, root.result(0), half)
    })();
    let fires = fits(state, args.attr_at(4), Some(root.result(0)), check);
    if fires && pattern == "enable_swiglu" {
        report_quant_linear_swiglu(state, whole, root);
    }
    fires
}

/// Seed 003 §2.7 lists SwiGLU fused behind the static-quant, int4, fp8 and mxfp4 linears. dit
/// models all of them as a dit.quant_matmul (QuantBatchMatmulV3), whose output is already
/// dequantized to a float type. The CANN kernels that put quantization around SwiGLU do not
/// take that output: aclnnDequantSwigluQuant dequantizes a matmul's raw (int32) result with the
/// weight/activation scales and writes a quantized y plus a per-token scale
/// ([ops-nn] quant/dequant_swiglu_quant/docs/aclnnDequantSwigluQuant.md), and
/// aclnnSwigluGroupQuant (Ascend 950 only) takes a float x and writes an fp8 / HiFloat8 y with
/// group scales ([ops-nn] activation/swiglu_group_quant/docs/aclnnSwigluGroupQuant.md). Both end
/// in a quantized tensor, where this graph keeps a float SwiGLU, and neither folds the matmul
/// in. So the linear and the dit.swiglu stay two kernels; the report says so at the SwiGLU
/// instead of staying silent.
fn report_quant_linear_swiglu(state: &NativeState, whole: Val, root: Op) {
    let Some(linear) = whole
        .defining_op()
        .filter(|o| o.is_kind(OpKind::QuantMatmul))
    else {
        return;
    };
    let elem = |v: Val| {
        v.tensor()
            .map_or("?".to_string(), |t| format!("{:?}", t.elem))
    };
    state.report.skipped(
        "quant_linear_swiglu",
        root,
        format!(
            "the gate and up halves come from a dit.quant_matmul ({} x {} -> {}); no aclnn kernel \
             takes a quantized linear's dequantized output into SwiGLU: aclnnDequantSwigluQuant \
             reads the matmul's raw int32 result and writes a quantized y, aclnnSwigluGroupQuant \
             (Ascend 950) writes an fp8/HiFloat8 y, and this SwiGLU's result stays {}, so the \
             linear and dit.swiglu stay two kernels",
            elem(linear.operand(0)),
            elem(linear.operand(1)),
            elem(whole),
            elem(root.result(0)),
        ),
    );
}

/// Rewrite: `WholeOfHalves(gate) -> Value`: the tensor the gate's split or slice reads.
fn whole_of_halves(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    _: MlirPatternRewriter,
) -> bool {
    let Some(op) = args.value_at(0).and_then(|v| v.defining_op()) else {
        return false;
    };
    // SAFETY: the result list is the interpreter's; the value is alive.
    unsafe { mlirPDLResultListPushBackValue(results, op.operand(0).raw()) };
    true
}

/// Constraint: `GeluMulWidthFits(gate, up, act, root, pattern)`: the whole tensor the halves
/// come from is an input aclnnGeluMul takes (its rules gelu_mul.*: dtype, rank 2-8, last dim
/// even and <= 1024, product of the other dims <= 200000).
fn gelu_mul_width_fits(args: Args, state: &NativeState) -> bool {
    let (Some(gate), Some(up)) = (args.value_at(0), args.value_at(1)) else {
        return false;
    };
    let (act, root) = (args.op_at(2), args.op_at(3));
    if !ops_are(&[(act, OpKind::Gelu), (root, OpKind::Mul)]) {
        return false;
    }
    let (Some((whole, GateHalf::First)), Some(root), Some(act)) = (halves(gate, up), root, act)
    else {
        return false;
    };
    let approximate = str_attr(act, "approximate").unwrap_or_else(|| "none".to_string());
    let attrs = contract::str_attrs(&[("approximate", &approximate)]);
    let check = contract::desc(whole)
        .ok_or_else(|| "the input is not a ranked tensor".to_string())
        .and_then(|d| contract::kernel_accepts(state, OpKind::GeluMul, &attrs, &[Some(d)]));
    fits(state, args.attr_at(4), Some(root.result(0)), check)
}

/// The constraints of this topic, by the names PDLL declares.
pub const CONSTRAINTS: &[(&str, ConstraintFn)] = &[
    ("GateIsFirstHalf", gate_is_first_half),
    ("GeluMulWidthFits", gelu_mul_width_fits),
];

/// The rewrites of this topic, by the names PDLL declares.
pub const REWRITES: &[(&str, RewriteFn)] = &[("WholeOfHalves", whole_of_halves)];
