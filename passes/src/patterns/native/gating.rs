//! Natives of the MoE router pattern (patterns/moe.pdll): softmax(x, -1) -> topk is one
//! aclnnMoeGatingTopKSoftmax when its documented contract holds.
//!
//! The kernel ([ops-transformer] moe/moe_gating_top_k_softmax/docs/aclnnMoeGatingTopKSoftmax.md)
//! computes `softmaxOut = softmax(x, axis=-1)`, `yOut, expertIdxOut = topK(softmaxOut, k)`: the
//! k largest along the last dim, best first, so it stands for a largest top-k over the last dim
//! whether or not that top-k asked for sorted values (an unsorted top-k may return any order,
//! best first is one). Its expertIdxOut is INT32 where dit.topk's indices are i64: the fusion
//! hands the int32 ids to dit.moe_init_routing, whose kernel takes INT32 expertIdx
//! (aclnnMoeInitRoutingV2, [ops-transformer] moe/moe_init_routing_v2/docs/
//! aclnnMoeInitRoutingV2.md: "Atlas A2系列产品、Atlas A3系列产品：输入expertIdx数据类型支持INT32"),
//! and fires only when those are the indices' only readers (an int64 reader would need a cast
//! kernel, which would cancel the launch the fusion saves). The MoE raising narrows the ids
//! for the init kernel with a dit.cast to i32 (torch/moe.rs); the second pattern takes that
//! cast with the pair, so the imported router is one kernel where it was three.

use super::*;
use dit_dialect::verifier::MOE_GATING_MAX_K;

/// Whether `dim` names the last dim of a rank-`rank` tensor.
fn is_last(dim: Option<i64>, rank: usize) -> bool {
    dim.is_some_and(|d| d == -1 || d == rank as i64 - 1)
}

/// Whether `c` is a dit.cast of the topk ids to i32: the narrowing the MoE raising puts in
/// front of dit.moe_init_routing (torch/moe.rs), which the fused kernel's int32 ids make moot.
fn is_ids_narrowing(c: Op) -> bool {
    c.is_kind(OpKind::Cast)
        && c.result(0)
            .tensor()
            .is_some_and(|t| t.elem == dit_dialect::tensor::Elem::I32)
}

/// The checks both router patterns share: `sm` = dit.softmax(x) read only by the dit.topk
/// `root`, both over x's last dim, the k largest with k <= 1024, the ids (`root`'s, or those of
/// `narrowed`, their i32 cast and only reader) read by dit.moe_init_routing only, and x within
/// the kernel's rules on the target.
fn gating_fits(state: &NativeState, sm: Op, root: Op, narrowed: Option<Op>) -> Result<(), String> {
    let x = sm.operand(0);
    let t = x.tensor().ok_or("x has no ranked type")?;
    let rank = t.rank();
    if !is_last(i64_attr(sm, "dim"), rank) || !is_last(i64_attr(root, "dim"), rank) {
        return Err("the softmax or the topk is not over the last dim; \
                    aclnnMoeGatingTopKSoftmax works on axis -1"
            .to_string());
    }
    if bool_attr(root, "largest") != Some(true) {
        return Err("the topk takes the smallest values; the kernel takes the largest".into());
    }
    let k = i64_attr(root, "k").ok_or("the topk has no k")?;
    if !(0..=MOE_GATING_MAX_K).contains(&k) {
        return Err(format!(
            "k = {k} is over {MOE_GATING_MAX_K}, the kernel's limit \
             (aclnnMoeGatingTopKSoftmax.md: k不大于1024)"
        ));
    }
    let users = sm.result(0).users();
    if users.len() != 1 {
        return Err(format!(
            "the softmax has {} readers; the fused kernel does not return it",
            users.len()
        ));
    }
    let ids = match narrowed {
        Some(c) => {
            if root.result(1).users().len() != 1 {
                return Err("the int64 expert ids have readers besides their int32 cast".into());
            }
            c.result(0)
        }
        None => root.result(1),
    };
    if let Some(other) = ids
        .users()
        .into_iter()
        .find(|u| !u.is_kind(OpKind::MoeInitRouting))
    {
        return Err(format!(
            "the expert ids are read by {}: the kernel's expertIdx is int32 and only \
             dit.moe_init_routing (aclnnMoeInitRoutingV2, INT32 expertIdx) takes them as \
             they are; an int64 reader would need a cast kernel",
            other.name()
        ));
    }
    contract::kernel_accepts(
        state,
        OpKind::MoeGatingTopkSoftmax,
        &dit_kernel_spec::Attrs::new(),
        &[contract::desc(x), None],
    )
}

/// Constraint: `MoeGatingFits(sm, root, pattern)`: `sm` = dit.softmax(x), `root` = dit.topk of
/// its result whose int64 ids dit.moe_init_routing reads as they are, and the pair is what
/// aclnnMoeGatingTopKSoftmax computes on this target ([`gating_fits`]). Ids with an i32 cast
/// among their readers are `MoeGatingFitsNarrowed`'s (it reports for them). Records the reason
/// for `pattern` when not.
fn moe_gating_fits(args: Args, state: &NativeState) -> bool {
    let (sm, root) = (args.op_at(0), args.op_at(1));
    if !ops_are(&[(sm, OpKind::Softmax), (root, OpKind::Topk)]) {
        return false;
    }
    let (Some(sm), Some(root)) = (sm, root) else {
        return false;
    };
    if root.operand(0) != sm.result(0) {
        return false;
    }
    if root.result(1).users().into_iter().any(is_ids_narrowing) {
        return false;
    }
    let check = gating_fits(state, sm, root, None);
    fits(state, args.attr_at(2), Some(root.result(0)), check)
}

/// Constraint: `MoeGatingFitsNarrowed(sm, root, c, pattern)`: as `MoeGatingFits`, with the ids
/// read only by `c`, their dit.cast to i32, whose readers are dit.moe_init_routing only: the
/// fused kernel's int32 ids replace the cast's result, and the cast goes too.
fn moe_gating_fits_narrowed(args: Args, state: &NativeState) -> bool {
    let (sm, root, c) = (args.op_at(0), args.op_at(1), args.op_at(2));
    if !ops_are(&[
        (sm, OpKind::Softmax),
        (root, OpKind::Topk),
        (c, OpKind::Cast),
    ]) {
        return false;
    }
    let (Some(sm), Some(root), Some(c)) = (sm, root, c) else {
        return false;
    };
    if root.operand(0) != sm.result(0) || c.operand(0) != root.result(1) || !is_ids_narrowing(c) {
        return false;
    }
    let check = gating_fits(state, sm, root, Some(c));
    fits(state, args.attr_at(3), Some(root.result(0)), check)
}

/// Rewrite: `MoeGatingIdsType(root) -> Type`: the type of the topk's indices with i32
/// elements (aclnnMoeGatingTopKSoftmax's expertIdxOut and rowIdxOut are INT32).
fn moe_gating_ids_type(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    _: MlirPatternRewriter,
) -> bool {
    let Some(root) = args.op_at(0) else {
        return false;
    };
    let ids = root.result(1);
    // SAFETY: the value and its type are alive; builtin types are uniqued in their context.
    unsafe {
        let ty = mlirValueGetType(ids.raw());
        let context = mlirTypeGetContext(ty);
        let rank = mlirShapedTypeGetRank(ty);
        let dims: Vec<i64> = (0..rank)
            .map(|i| mlirShapedTypeGetDimSize(ty, i as isize))
            .collect();
        let i32 = mlirRankedTensorTypeGet(
            dims.len() as isize,
            dims.as_ptr(),
            mlirIntegerTypeGet(context, 32),
            MlirAttribute {
                ptr: std::ptr::null(),
            },
        );
        mlirPDLResultListPushBackType(results, i32);
    }
    true
}

/// The constraints of this topic, by the names PDLL declares.
pub const CONSTRAINTS: &[(&str, ConstraintFn)] = &[
    ("MoeGatingFits", moe_gating_fits),
    ("MoeGatingFitsNarrowed", moe_gating_fits_narrowed),
];

/// The rewrites of this topic, by the names PDLL declares.
pub const REWRITES: &[(&str, RewriteFn)] = &[("MoeGatingIdsType", moe_gating_ids_type)];
