//! `dit-canonicalize`: folds of shape and type no-ops, zero-width concat pieces and constants
//! to the right of add/mul, with CSE and DCE, to a fixed point.

use crate::{
    registry::{DitPass, PassContext, PassFailed},
    transforms::dit_cse::eliminate_common_subexpressions,
    transforms::dit_dce::eliminate_dead_code,
};
use dit_dialect::ops::OpKind;
use dit_dialect::{
    ir::{create_op_before, Attr, Op, Val},
    ops::{i64_array_attr, i64_attr},
};
use melior::ir::TypeLike;

/// The pass. `max_iterations` bounds the fold/CSE/DCE rounds.
pub struct Canonicalize {
    pub max_iterations: usize,
}

impl Default for Canonicalize {
    fn default() -> Self {
        Self { max_iterations: 16 }
    }
}

impl DitPass for Canonicalize {
    fn run(&mut self, module: Op, _: &PassContext) -> Result<(), PassFailed> {
        for _ in 0..self.max_iterations {
            let changed = fold_all(module)
                + eliminate_common_subexpressions(module)
                + eliminate_dead_code(module);
            if changed == 0 {
                break;
            }
        }
        Ok(())
    }
}

/// Applies every fold once to every op under `root`; returns how many folds applied. Folds
/// only rewire uses, operands and attributes; the ops they leave dead are erased by DCE.
pub fn fold_all(root: Op) -> usize {
    let mut ops = Vec::new();
    root.walk(&mut |op| ops.push(op));
    ops.into_iter().filter(|op| fold(*op)).count()
}

/// Puts a constant operand of a commutative elementwise op (add, mul) on the right, as MLIR's
/// canonical form does, so patterns need to match one operand order only. Returns whether it
/// swapped.
pub fn constant_to_rhs(op: Op) -> bool {
    if !(op.is_kind(OpKind::Add) || op.is_kind(OpKind::Mul)) || op.num_operands() != 2 {
        return false;
    }
    let is_constant =
        |v: dit_dialect::ir::Val| v.defining_op().is_some_and(|d| d.is("arith.constant"));
    let (lhs, rhs) = (op.operand(0), op.operand(1));
    if is_constant(lhs) && !is_constant(rhs) {
        op.set_operand(0, rhs);
        op.set_operand(1, lhs);
        return true;
    }
    false
}

/// Folds one op; returns whether anything changed.
fn fold(op: Op) -> bool {
    if constant_to_rhs(op) {
        return true;
    }
    if op.is_kind(OpKind::Concat) {
        return concat_of_whole_split(op) || drop_empty_concat_pieces(op);
    }
    let kind = op.kind();
    let unary_shape_op = matches!(
        kind,
        Some(
            OpKind::Reshape
                | OpKind::Transpose
                | OpKind::Cast
                | OpKind::Bitcast
                | OpKind::Broadcast
        )
    );
    if !unary_shape_op || op.num_operands() != 1 || op.num_results() != 1 {
        return false;
    }
    let input = op.operand(0);
    let producer = input.defining_op();
    // reshape∘reshape and bitcast∘bitcast: only the outer result type matters.
    for chainable in [OpKind::Reshape, OpKind::Bitcast] {
        if kind == Some(chainable) {
            if let Some(inner) = producer.filter(|p| p.is_kind(chainable)) {
                op.set_operand(0, inner.operand(0));
                return true;
            }
        }
    }
    if op.is_kind(OpKind::Transpose) {
        return fold_transpose(op, input, producer);
    }
    // Identity reshape / cast / bitcast / broadcast.
    if op.result(0).same_type(input) && op.result(0).has_uses() {
        op.result(0).replace_all_uses_with(input);
        return true;
    }
    false
}

/// concat(split(x)) along the split's dim, every piece in order, is x: a model that cuts the
/// joint sequence into its image and text parts and joins them again unchanged (HunyuanVideo's
/// single-stream block) would otherwise copy the whole tensor in a concat kernel.
fn concat_of_whole_split(op: Op) -> bool {
    let pieces = op.operands();
    let Some(split) = pieces.first().and_then(|v| v.defining_op()) else {
        return false;
    };
    if !split.is("dit.split") || split.num_results() != pieces.len() || !op.result(0).has_uses() {
        return false;
    }
    let in_order = pieces
        .iter()
        .enumerate()
        .all(|(i, v)| *v == split.result(i));
    let whole = split.operand(0);
    let normalised = |o: Op, rank: Option<i64>| {
        let rank = rank?;
        i64_attr(o, "dim").map(|d| if d < 0 { d + rank } else { d })
    };
    let rank = whole.tensor().map(|t| t.rank() as i64);
    if !in_order
        || normalised(op, rank).is_none()
        || normalised(op, rank) != normalised(split, rank)
        || !whole.same_type(op.result(0))
    {
        return false;
    }
    op.result(0).replace_all_uses_with(whole);
    true
}

/// A dit.concat piece with no element along `dim` (x[..., d:] with d the full width) adds
/// nothing: the concat of the other pieces replaces it, or the one piece left itself. A
/// zero-element tensor then reaches no kernel, and the op that made it dies (DCE). A concat of
/// empty pieces only is left alone (its result has no element either).
fn drop_empty_concat_pieces(op: Op) -> bool {
    let Some(rank) = op.result(0).tensor().map(|t| t.rank() as i64) else {
        return false;
    };
    let Some(dim) = i64_attr(op, "dim").map(|d| if d < 0 { d + rank } else { d }) else {
        return false;
    };
    let empty = |v: &Val| {
        v.tensor().and_then(|t| {
            usize::try_from(dim)
                .ok()
                .and_then(|d| t.shape.get(d).copied())
        }) == Some(Some(0))
    };
    let pieces = op.operands();
    let kept: Vec<Val> = pieces.iter().copied().filter(|v| !empty(v)).collect();
    if kept.len() == pieces.len() || kept.is_empty() || !op.result(0).has_uses() {
        return false;
    }
    if let [only] = kept.as_slice() {
        if only.same_type(op.result(0)) {
            op.result(0).replace_all_uses_with(*only);
            return true;
        }
    }
    let attrs = op.attrs();
    let attrs: Vec<(&str, Attr)> = attrs.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    let concat = create_op_before(
        op,
        OpKind::Concat.name(),
        &kept,
        &[op.result(0).ty().to_raw()],
        &attrs,
    );
    op.result(0).replace_all_uses_with(concat.result(0));
    true
}

fn fold_transpose(op: Op, input: Val, producer: Option<Op>) -> bool {
    let Some(perm) = i64_array_attr(op, "perm") else {
        return false;
    };
    if let Some(inner) = producer.filter(|p| p.is_kind(OpKind::Transpose)) {
        if let Some(inner_perm) = i64_array_attr(inner, "perm") {
            // y1[i] = x[p1[i]], y2[i] = y1[p2[i]] = x[p1[p2[i]]].
            let composed: Option<Vec<i64>> = perm
                .iter()
                .map(|&p| inner_perm.get(usize::try_from(p).ok()?).copied())
                .collect();
            if let Some(composed) = composed {
                op.set_operand(0, inner.operand(0));
                op.set_attr("perm", op.i64_array_attr(&composed));
                return true;
            }
        }
    }
    let identity = perm.iter().enumerate().all(|(i, &p)| p == i as i64);
    if identity && op.result(0).same_type(input) && op.result(0).has_uses() {
        op.result(0).replace_all_uses_with(input);
        return true;
    }
    false
}
