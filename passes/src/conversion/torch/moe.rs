//! Raising the importer's grouped-GEMM MoE routing onto CANN's MoE routing kernels.
//!
//! tools/dit-import writes a top-k MoE (HiDream's) as torch ops that convert one by one:
//!
//! ```text
//! w, e   = topk(probs [T, E], K, dim 1)            flat = reshape(e) [T·K]
//! order  = sort(flat, stable).indices               token = floor_div(order, K)
//! xs     = index_select(x [T, H], 0, token)        ends  = cumsum(scatter_add(0 [E], 0, flat, 1))
//! y      = experts(xs, ends)  (grouped matmuls)     ws    = index_select(reshape(w) [T·K, 1], 0, order)
//! out    = index_add(0 [T, H], 0, token, y · ws)
//! ```
//!
//! which is what aclnnMoeInitRoutingV2 (drop-less) and aclnnMoeFinalizeRoutingV2 compute in
//! two kernels ([ops-transformer] moe/moe_init_routing_v2/docs/aclnnMoeInitRoutingV2.md,
//! moe/moe_finalize_routing_v2/docs/aclnnMoeFinalizeRoutingV2.md):
//!
//! - init: `sortedRowIdx = keyValueSort(flatten(e))`, `expandedX[i] = x[sortedRowIdx[i] / K]`
//!   (= xs), `expertTokensCountOrCumsum = cumsum(histogram(e))` (= ends), and
//!   `expandedRowIdx[sortedRowIdx[i]] = i`;
//! - finalize: `out[t] = Σ_k scales[t, k] · expandedX[expandedRowIdx[t·K + k]]` with scales = w
//!   (or the weights derived from it that the graph gathers) and expandedX = y (= the
//!   index_add: row i of y is pair `order[i]`, weighted by that pair's weight, added to its
//!   token).
//!
//! The sort order within one expert's group does not matter: the expert products are per row,
//! and finalize reads each pair's row through the same expandedRowIdx, so a kernel that orders
//! ties differently gives the same `out`. The rewrite replaces xs, ends and out; what only fed
//! them becomes dead and is erased by the pass's clean-up.
//!
//! The init kernel takes the expert ids as INT32 on Atlas A2/A3 (INT32 or INT64 only on Ascend
//! 950: [ops-transformer] moe/moe_init_routing_v2/docs/aclnnMoeInitRoutingV2.md, "Atlas A2系列
//! 产品、Atlas A3系列产品：输入expertIdx数据类型支持INT32"; the kernel table's rule
//! moe_init_routing_v2.expert_idx_dtype), and torch's topk gives int64 ids: the raising narrows
//! them with a dit.cast (exact: an id is below the expert count). That cast is one kernel,
//! unless the router's softmax -> topk fuses into dit.moe_gating_topk_softmax, whose ids are
//! int32 already (the enable_moe_gating pattern takes the cast with it).
//!
//! The kernel writes the tokens per expert (expertTokensCountOrCumsumOut) as INT32 (the same
//! page's parameter table; rule moe_init_routing_v2.tokens_dtype), and dit.grouped_matmul's
//! group list is int64 (aclnnGroupedMatmulV4's groupListOptional: INT64): the graph's int64
//! cumsum is replaced by the init op's int32 result widened by a dit.cast, one more kernel
//! (see `replace_tokens`).

use super::mlir;
use dit_dialect::ops::OpKind;
use dit_dialect::{
    ir::{Attr, Op, Val},
    ops::OpBuilder,
    tensor::Elem,
    verifier,
};

/// The op defining `v` if it is `name`.
fn def(v: Val, kind: OpKind) -> Option<Op> {
    v.defining_op().filter(|o| o.is_kind(kind))
}

/// An i64 attribute.
fn int_attr(op: Op, name: &str) -> Option<i64> {
    op.attr(name).and_then(|a| a.as_i64())
}

/// The static shape of `v`.
fn shape(v: Val) -> Option<Vec<i64>> {
    v.tensor()?.shape.into_iter().collect()
}

/// Whether `v` is an `arith.constant` with every element equal to the integer `value` (for an
/// integer tensor) or to +0.0 (`value` 0, a float tensor).
fn constant_is(v: Val, value: i64) -> bool {
    let Some(c) = v.defining_op().filter(|o| o.is("arith.constant")) else {
        return false;
    };
    let Some(info) = v.tensor() else {
        return false;
    };
    let Some(bits) = info.elem.bits().filter(|b| *b >= 8 && b % 8 == 0) else {
        return false;
    };
    let width = (bits / 8) as usize;
    let Some((bytes, _)) = c.attr("value").and_then(|a| a.dense_bytes(width)) else {
        return false;
    };
    let is_float = matches!(info.elem, Elem::F32 | Elem::F16 | Elem::BF16);
    if is_float {
        // Only +0.0 is all zero bits in every float format.
        return value == 0 && bytes.iter().all(|b| *b == 0);
    }
    let want = value.to_le_bytes();
    bytes.chunks(width).all(|e| e == &want[..width])
}

/// The dim attribute of `op` equals `dim`.
fn dim_is(op: Op, dim: i64) -> bool {
    int_attr(op, "dim") == Some(dim)
}

/// One matched routing group.
struct Group<'a> {
    /// dit.topk over the router's probabilities.
    topk: Op<'a>,
    /// The tokens [T, H] routed.
    x: Val<'a>,
    /// The index_select of x by token (expandedX).
    gather: Op<'a>,
    /// cumsum of the tokens per expert, when the graph computes it.
    ends: Option<Op<'a>>,
    /// The expert outputs [T·K, H].
    y: Val<'a>,
    /// The routing weights [T, K].
    scales: Val<'a>,
    /// The final index_add.
    combine: Op<'a>,
    k: i64,
    experts: i64,
}

/// Matches the group that ends in `combine` (a dit.index_add), or None.
fn match_group<'a>(combine: Op<'a>) -> Option<Group<'a>> {
    if !combine.is_kind(OpKind::IndexAdd)
        || !dim_is(combine, 0)
        || !constant_is(combine.operand(0), 0)
    {
        return None;
    }
    let token = combine.operand(1);
    let fd = def(token, OpKind::FloorDiv)?;
    let order = fd.operand(0);
    let sort = def(order, OpKind::Sort)?;
    // order is the sort's indices, ascending along the only dim.
    if sort.result(1) != order
        || !dim_is(sort, 0)
        || sort.attr("descending").and_then(|a| a.as_bool()) != Some(false)
    {
        return None;
    }
    let flat = sort.operand(0);
    let topk = def(def(flat, OpKind::Reshape)?.operand(0), OpKind::Topk)?;
    if def(flat, OpKind::Reshape)?.operand(0) != topk.result(1) {
        return None;
    }
    let probs = shape(topk.operand(0))?;
    let k = int_attr(topk, "k")?;
    if probs.len() != 2 || !dim_is(topk, 1) || k < 1 || !constant_is(fd.operand(1), k) {
        return None;
    }
    let (t, experts) = (probs[0], probs[1]);
    // The combine adds y · ws, ws the weights [T, K] of the pairs (topk's values, or weights
    // computed from them, e.g. renormalised) flattened and put in sorted order.
    let mul = def(combine.operand(2), OpKind::Mul)?;
    let weights_in_order = |v| -> Option<Val> {
        let sel = def(v, OpKind::IndexSelect)?;
        let weights = def(sel.operand(0), OpKind::Reshape)?.operand(0);
        (dim_is(sel, 0)
            && sel.operand(1) == order
            && shape(weights) == Some(vec![t, k])
            && shape(v) == Some(vec![t * k, 1]))
        .then_some(weights)
    };
    let (y, scales) = if let Some(w) = weights_in_order(mul.operand(1)) {
        (mul.operand(0), w)
    } else if let Some(w) = weights_in_order(mul.operand(0)) {
        (mul.operand(1), w)
    } else {
        return None;
    };
    let out = shape(combine.result(0))?;
    let ys = shape(y)?;
    if out.len() != 2 || out[0] != t || ys != vec![t * k, out[1]] {
        return None;
    }
    // The tokens gathered for the experts: x [T, H] selected by token.
    let gather = token.users().into_iter().find(|u| {
        u.is_kind(OpKind::IndexSelect)
            && dim_is(*u, 0)
            && u.operand(1) == token
            && shape(u.operand(0)) == Some(vec![t, out[1]])
    })?;
    let x = gather.operand(0);
    if x.tensor().map(|i| i.elem) != y.tensor().map(|i| i.elem) {
        return None;
    }
    // Tokens per expert: cumsum(scatter_add(zeros [E], flat, ones)).
    let ends = flat.users().into_iter().find_map(|u| {
        let counts = u.is_kind(OpKind::ScatterAdd)
            && dim_is(u, 0)
            && u.operand(1) == flat
            && constant_is(u.operand(0), 0)
            && constant_is(u.operand(2), 1)
            && shape(u.result(0)) == Some(vec![experts]);
        if !counts {
            return None;
        }
        u.result(0)
            .users()
            .into_iter()
            .find(|c| c.is_kind(OpKind::Cumsum) && dim_is(*c, 0))
    });
    Some(Group {
        topk,
        x,
        gather,
        ends,
        y,
        scales,
        combine,
        k,
        experts,
    })
}

/// Rewrites one matched group; false (nothing changed) when the new ops do not verify.
fn rewrite(g: &Group) -> bool {
    let context = g.combine.context_raw();
    let Some(xi) = g.x.tensor() else {
        return false;
    };
    let rows = xi.shape[0].and_then(|t| t.checked_mul(g.k));
    let element = |v: Val| mlir::element_type(mlir::type_of(v));
    let Some(x_elem) = element(g.x) else {
        return false;
    };
    // The kernel's expandedRowIdxOut and expertTokensCountOrCumsumOut are INT32: with more
    // routed pairs than an int32 holds it cannot route them, so the group stays as it is.
    if rows.is_some_and(|r| r > i64::from(i32::MAX)) {
        return false;
    }
    let i32 = mlir::integer_type(context, 32);
    // expert_tokens is INT32 whatever the ids' type ([ops-transformer]
    // moe/moe_init_routing_v2/docs/aclnnMoeInitRoutingV2.md: expertTokensCountOrCumsumOut
    // INT32; rule moe_init_routing_v2.tokens_dtype).
    let types = [
        mlir::tensor_of(&[rows, xi.shape[1]], x_elem),
        mlir::tensor_of(&[rows], i32),
        mlir::tensor_of(&[Some(g.experts)], i32),
    ];
    let attrs = [
        ("num_experts", Attr::i64(context, g.experts)),
        ("expert_tokens", Attr::string(context, "cumsum")),
    ];
    // The init op goes where the gather was, or earlier, before the cumsum it replaces, when
    // x is already defined there (the cumsum's readers may precede the gather).
    let anchor = match g.ends {
        Some(c)
            if c.parent() == g.gather.parent()
                && c.is_before_in_block(g.gather)
                && g.x.defining_op().is_none_or(|d| d.is_before_in_block(c)) =>
        {
            c
        }
        _ => g.gather,
    };
    // int32 ids for the kernel (see the module comment); an id is in 0..experts, so exact.
    let ids = g.topk.result(1);
    let narrowed = if ids.tensor().is_some_and(|t| t.elem == Elem::I32) {
        None
    } else {
        let Some(ti) = ids.tensor() else {
            return false;
        };
        match OpBuilder::before(anchor).create(
            OpKind::Cast,
            &[&[ids]],
            &[mlir::tensor_of(&ti.shape, i32)],
            &[],
        ) {
            Ok(c) => Some(c),
            Err(_) => return false,
        }
    };
    let ids = narrowed.map_or(ids, |c| c.result(0));
    let Ok(init) =
        OpBuilder::before(anchor).create(OpKind::MoeInitRouting, &[&[g.x], &[ids]], &types, &attrs)
    else {
        if let Some(c) = narrowed {
            // SAFETY: `c` was created just above and nothing uses it.
            unsafe { c.erase() };
        }
        return false;
    };
    let finalize = OpBuilder::before(g.combine).create(
        OpKind::MoeFinalizeRouting,
        &[&[g.y], &[init.result(1)], &[g.scales]],
        &[mlir::type_of(g.combine.result(0))],
        &[],
    );
    let finalize = match finalize {
        Ok(f) if verifier::verify_op(init).is_ok() && verifier::verify_op(f).is_ok() => f,
        other => {
            if let Ok(f) = other {
                // SAFETY: `f` was created just above and nothing uses it.
                unsafe { f.erase() };
            }
            // SAFETY: `init` was created just above; its only user, `f`, was erased first.
            unsafe { init.erase() };
            if let Some(c) = narrowed {
                // SAFETY: `c` was created just above; its only user, `init`, was erased first.
                unsafe { c.erase() };
            }
            return false;
        }
    };
    g.gather.result(0).replace_all_uses_with(init.result(0));
    if let Some(ends) = g.ends {
        // The cumsum's readers must come after the new op (it sits where the gather was), in
        // its block (a function body here is one straight-line block).
        let after = ends
            .result(0)
            .users()
            .iter()
            .all(|u| u.parent() == init.parent() && init.is_before_in_block(*u));
        if after {
            replace_tokens(ends.result(0), init, rows);
        }
    }
    g.combine
        .result(0)
        .replace_all_uses_with(finalize.result(0));
    true
}

/// Replaces the graph's tokens per expert `ends` (the cumsum, int64 from torch) by the init
/// op's INT32 result 2, the same counts. The graph's own narrowings `cast(ends) : i32` (for
/// `_grouped_mm`'s offsets) read result 2 itself when `rows` (T·K) is known to fit an int32:
/// each count is in `[0, rows]`, so the narrowing is exact. Every other reader, e.g. the
/// widening back for dit.grouped_matmul's group list (aclnnGroupedMatmulV4's
/// groupListOptional is INT64: [ops-transformer] gmm/grouped_matmul/docs/aclnnGroupedMatmulV4.md),
/// reads a dit.cast of result 2 to `ends`' type: the int32 -> int64 cast is a kernel of its
/// own, the one the documented INT32 output costs. A widening the graph already had stays
/// (it now widens result 2); the new cast goes unused then and the clean-up erases it.
fn replace_tokens(ends: Val, init: Op, rows: Option<i64>) {
    let tokens = init.result(2);
    let narrowing = |u: &Op| {
        u.is_kind(OpKind::Cast)
            && mlir::same_type(mlir::type_of(u.result(0)), mlir::type_of(tokens))
    };
    if rows.is_some_and(|r| r <= i64::from(i32::MAX)) {
        for narrow in ends.users().iter().filter(|u| narrowing(u)) {
            narrow.result(0).replace_all_uses_with(tokens);
        }
    }
    if mlir::same_type(mlir::type_of(ends), mlir::type_of(tokens)) {
        ends.replace_all_uses_with(tokens);
        return;
    }
    let (Some(next), Some(ti)) = (init.next_in_block(), ends.tensor()) else {
        return;
    };
    let Some(elem) = mlir::element_type(mlir::type_of(ends)) else {
        return;
    };
    if let Ok(widen) = OpBuilder::before(next).create(
        OpKind::Cast,
        &[&[tokens]],
        &[mlir::tensor_of(&ti.shape, elem)],
        &[],
    ) {
        ends.replace_all_uses_with(widen.result(0));
    }
}

/// Raises every routing group of `func` onto dit.moe_init_routing / dit.moe_finalize_routing;
/// returns the finalize ops made (one per group).
pub fn raise_routing(func: Op) -> Vec<Op> {
    let mut combines = Vec::new();
    func.walk(&mut |op| {
        if op.is_kind(OpKind::IndexAdd) {
            combines.push(op);
        }
    });
    let mut raised = Vec::new();
    for combine in combines {
        if let Some(g) = match_group(combine) {
            if rewrite(&g) {
                raised.push(g.combine);
            }
        }
    }
    raised
}
