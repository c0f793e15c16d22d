//! Natives of the norm patterns (patterns/norm.pdll): RMSNorm and AdaLayerNorm.

use super::*;
use dit_dialect::ops::OpKind;

mod no_gamma;

/// Constraint: `IsLastDimMean(m)`: reduce_mean over the last dim only (`-1` or `rank-1`),
/// keepdim.
fn is_last_dim_mean(args: Args, _: &NativeState) -> bool {
    let Some(m) = args.op_at(0) else {
        return false;
    };
    let rank = m.operand(0).tensor().map_or(0, |t| t.rank()) as i64;
    let dims = i64_array_attr(m, "dims").unwrap_or_default();
    bool_attr(m, "keepdim") == Some(true)
        && dims.len() == 1
        && (dims[0] == -1 || dims[0] == rank - 1)
}

/// Constraint: `IsSquareOf(sq, x)`: `sq` is `pow(x, 2)` or `x·x`.
fn is_square_of(args: Args, _: &NativeState) -> bool {
    let (Some(sq), Some(x)) = (args.value_at(0), args.value_at(1)) else {
        return false;
    };
    let Some(op) = sq.defining_op() else {
        return false;
    };
    if op.is_kind(OpKind::Mul) {
        return op.operand(0) == x && op.operand(1) == x;
    }
    if op.is_kind(OpKind::Pow) && op.operand(0) == x {
        let exponent = op
            .operand(1)
            .defining_op()
            .filter(|c| c.is("arith.constant"));
        return exponent.and_then(|c| c.attr("value")).and_then(splat_float) == Some(2.0);
    }
    false
}

/// Constraint: `IsValueOrCastOf(v, of)`.
fn is_value_or_cast_of(args: Args, _: &NativeState) -> bool {
    let (Some(v), Some(of)) = (args.value_at(0), args.value_at(1)) else {
        return false;
    };
    v == of
        || v.defining_op()
            .is_some_and(|c| c.is_kind(OpKind::Cast) && c.operand(0) == of && of.has_uses())
}

/// Rewrite: `StripCast(v) -> Value`.
fn strip_cast(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    _: MlirPatternRewriter,
) -> bool {
    let Some(v) = args.value_at(0) else {
        return false;
    };
    // SAFETY: the result list is the interpreter's; the value is alive.
    unsafe { mlirPDLResultListPushBackValue(results, without_cast(v).raw()) };
    true
}

/// The value of a splat constant usable as an epsilon, as f32, with its defining op.
fn epsilon_constant(v: Option<Val>) -> Option<(Op, f32)> {
    let op = v?.defining_op()?;
    let value = op
        .is("arith.constant")
        .then(|| op.attr("value"))
        .flatten()
        .and_then(splat_float)? as f32;
    (value.is_finite() && value >= 0.0).then_some((op, value))
}

/// Constraint: `IsEpsilon(e)`.
fn is_epsilon(args: Args, _: &NativeState) -> bool {
    epsilon_constant(args.value_at(0)).is_some()
}

/// Rewrite: `EpsilonOf(e) -> Attr`: the splat constant as an f32 attribute.
fn epsilon_of(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    _: MlirPatternRewriter,
) -> bool {
    let Some((op, eps)) = epsilon_constant(args.value_at(0)) else {
        return false;
    };
    // SAFETY: as above.
    unsafe { mlirPDLResultListPushBackAttribute(results, Attr::f32(op.context_raw(), eps).raw()) };
    true
}

/// Constraint: `RmsNormFits(xf, gamma, out, mean, rsqrt, pattern)`.
fn rms_norm_fits(args: Args, state: &NativeState) -> bool {
    let v = |i: usize| args.value_at(i);
    let (Some(xf), Some(gamma), Some(out)) = (v(0), v(1), v(2)) else {
        return false;
    };
    let (mean, rsqrt) = (args.op_at(3), args.op_at(4));
    let add = rsqrt.and_then(|r| r.operand(0).defining_op());
    if !ops_are(&[
        (mean, OpKind::ReduceMean),
        (rsqrt, OpKind::Rsqrt),
        (add, OpKind::Add),
        (out.defining_op(), OpKind::Mul),
    ]) {
        return false;
    }
    let x = without_cast(xf);
    let check = (|| {
        let xt = normalised_input(x, out)?;
        let gt = gamma.tensor().ok_or("gamma is not a ranked tensor")?;
        let d = xt.dim_from_back(0);
        if gt.rank() != 1 || !dims_compatible(gt.shape[0], d) {
            return Err(format!(
                "gamma must be a vector over the last dim, got rank {}",
                gt.rank()
            ));
        }
        if gt.elem != xt.elem && gt.elem != Elem::F32 {
            return Err(format!(
                "gamma element type {} is neither x's ({}) nor f32",
                gt.elem, xt.elem
            ));
        }
        Ok(())
    })();
    fits(state, args.attr_at(5), Some(out), check)
}

/// Constraint: `AdaLayerNormFits(x, scale, shift, out, ln, pattern)`.
fn ada_layer_norm_fits(args: Args, state: &NativeState) -> bool {
    let v = |i: usize| args.value_at(i);
    let (Some(x), Some(scale), Some(shift), Some(out)) = (v(0), v(1), v(2), v(3)) else {
        return false;
    };
    if !ops_are(&[
        (args.op_at(4), OpKind::LayerNorm),
        (out.defining_op(), OpKind::Add),
    ]) {
        return false;
    }
    let check = (|| {
        let xt = x.tensor().ok_or("x is not a ranked tensor")?;
        if !x.same_type(out) {
            return Err("the result type differs from x's".to_string());
        }
        for (name, t) in [("scale", scale), ("shift", shift)] {
            let tt = t.tensor().ok_or("not a ranked tensor")?;
            let fitsx = broadcast_shapes(&tt.shape, &xt.shape)
                .is_some_and(|b| shapes_compatible(&b, &xt.shape));
            if !fitsx || tt.elem != xt.elem {
                return Err(format!(
                    "{name} does not broadcast to x with x's element type"
                ));
            }
        }
        Ok(())
    })();
    fits(state, args.attr_at(5), Some(out), check)
}

/// The constraints of this topic, by the names PDLL declares.
pub const CONSTRAINTS: &[(&str, ConstraintFn)] = &[
    ("IsLastDimMean", is_last_dim_mean),
    ("IsSquareOf", is_square_of),
    ("IsValueOrCastOf", is_value_or_cast_of),
    ("IsEpsilon", is_epsilon),
    ("RmsNormFits", rms_norm_fits),
    ("AdaLayerNormFits", ada_layer_norm_fits),
    ("RmsNormNoGammaFits", no_gamma::rms_norm_no_gamma_fits),
];

/// The rewrites of this topic, by the names PDLL declares.
pub const REWRITES: &[(&str, RewriteFn)] = &[
    ("StripCast", strip_cast),
    ("EpsilonOf", epsilon_of),
    ("OnesOverLastDim", no_gamma::ones_over_last_dim),
];

/// What aclnnRmsNorm needs of `x` for `out` = the normalised x: a float ranked tensor, with
/// the result in x's own type (the kernel does no cast). Shared by the weighted and the
/// weightless raisings.
pub(super) fn normalised_input(
    x: Val,
    out: Val,
) -> Result<dit_dialect::tensor::TensorInfo, String> {
    let xt = x.tensor().ok_or("x is not a ranked tensor")?;
    if !xt.elem.is_float() {
        return Err(format!("x element type {} is not f32/f16/bf16", xt.elem));
    }
    if !x.same_type(out) {
        return Err(
            "the normalised result's type differs from x's (a cast the kernel would not do)"
                .to_string(),
        );
    }
    Ok(xt)
}
