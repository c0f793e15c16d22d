//! RMSNorm without a weight (patterns/norm.pdll, enable_rms_norm__no_gamma*): diffusers'
//! RMSNorm with `elementwise_affine=False` (LTX-Video's block norms) writes
//! x·rsqrt(mean(x², -1, keepdim) + ε) and stops there. aclnnRmsNorm always takes gamma
//! ([ops-nn] norm/rms_norm/docs/aclnnRmsNorm.md: gamma, the weight over x's trailing dims, of
//! x's dtype or FLOAT32), so the rewrite passes a constant of ones over the last dim: x·1 is x
//! exactly in every float type, so the result is the unweighted norm.

use super::*;

/// Whether `out`'s one user is a dit.mul by a vector over the last dim: a weighted RMSNorm,
/// which enable_rms_norm's gamma patterns raise in one op (with the weight) instead.
fn weighted_next(out: Val) -> bool {
    let users = out.users();
    let [user] = users.as_slice() else {
        return false;
    };
    if !user.is_kind(OpKind::Mul) || user.num_operands() != 2 {
        return false;
    }
    let other = if user.operand(0) == out {
        user.operand(1)
    } else {
        user.operand(0)
    };
    let d = out.tensor().and_then(|t| t.dim_from_back(0));
    other
        .tensor()
        .is_some_and(|t| t.rank() == 1 && dims_compatible(t.shape[0], d))
}

/// Constraint: `RmsNormNoGammaFits(xf, out, mean, rsqrt, pattern)`: dit.rms_norm(x, ones)
/// (x = `xf` or the input of its cast) gives `out`'s type and the kernel takes it; not when a
/// weight follows (see [`weighted_next`]) or, for the product itself (`out` a dit.mul), when a
/// cast back follows (the pattern rooted at that cast takes it). Records the reason for
/// `pattern` when the form is found but a rule fails.
pub(super) fn rms_norm_no_gamma_fits(args: Args, state: &NativeState) -> bool {
    let (Some(xf), Some(out)) = (args.value_at(0), args.value_at(1)) else {
        return false;
    };
    let (mean, rsqrt) = (args.op_at(2), args.op_at(3));
    let add = rsqrt.and_then(|r| r.operand(0).defining_op());
    let root = out.defining_op();
    if !ops_are(&[
        (mean, OpKind::ReduceMean),
        (rsqrt, OpKind::Rsqrt),
        (add, OpKind::Add),
    ]) || !root.is_some_and(|r| r.is_kind(OpKind::Mul) || r.is_kind(OpKind::Cast))
    {
        return false;
    }
    if weighted_next(out) {
        return false;
    }
    let product = root.is_some_and(|r| r.is_kind(OpKind::Mul));
    if product && out.users().iter().any(|u| u.is_kind(OpKind::Cast)) {
        return false;
    }
    let x = without_cast(xf);
    let check = (|| {
        let xt = super::normalised_input(x, out)?;
        let d = xt
            .dim_from_back(0)
            .ok_or("the last dim is dynamic: no weight of ones can be built for it")?;
        let x_desc = contract::desc(x);
        let gamma_desc = x_desc.clone().map(|mut g| {
            g.dims = vec![d];
            g
        });
        contract::kernel_accepts(
            state,
            OpKind::RmsNorm,
            &Default::default(),
            &[x_desc, gamma_desc],
        )
    })();
    fits(state, args.attr_at(4), Some(out), check)
}

/// Rewrite: `OnesOverLastDim(x, root) -> Value`: `arith.constant dense<1.0> : tensor<D x elem>`
/// of x's last dim and element type, before `root`.
pub(super) fn ones_over_last_dim(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    rewriter: MlirPatternRewriter,
) -> bool {
    let (Some(x), Some(root)) = (args.value_at(0), args.op_at(1)) else {
        return false;
    };
    let Some(d) = x.tensor().and_then(|t| t.dim_from_back(0)) else {
        return false;
    };
    // SAFETY: x's type is alive; the vector type and the splat are uniqued in its context.
    let (ty, value) = unsafe {
        let element = mlirShapedTypeGetElementType(mlirValueGetType(x.raw()));
        let ty = mlirRankedTensorTypeGet(1, &d, element, mlirAttributeGetNull());
        let one = mlirFloatAttrDoubleGet(x.context_raw(), element, 1.0);
        (ty, Attr::from_raw(mlirDenseElementsAttrSplatGet(ty, one)))
    };
    // SAFETY: the root is alive; the constant goes right before it.
    unsafe {
        mlirRewriterBaseSetInsertionPointBefore(mlirPatternRewriterAsBase(rewriter), root.raw())
    };
    // arith.constant is not a dit op: built and inserted here rather than by OpKind.
    let constant =
        dit_dialect::ir::build_detached_op(root, "arith.constant", &[], &[ty], &[("value", value)]);
    // SAFETY: the op is new and unowned; the rewriter inserts it and owns it from then on.
    let ones = unsafe {
        Val::from_raw(mlirOperationGetResult(
            mlirRewriterBaseInsert(mlirPatternRewriterAsBase(rewriter), constant.raw()),
            0,
        ))
    };
    // SAFETY: the result list is the interpreter's; the value is alive.
    unsafe { mlirPDLResultListPushBackValue(results, ones.raw()) };
    true
}
