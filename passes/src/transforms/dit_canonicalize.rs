//! `dit-canonicalize`: folds of shape and type no-ops, zero-width concat pieces and constants
//! to the right of add/mul, with CSE and DCE, to a fixed point.

use crate::{
    registry::{DitPass, PassContext, PassFailed},
    transforms::dit_cse::eliminate_common_subexpressions,
    transforms::dit_dce::eliminate_dead_code,
    transforms::greedy::{self, Pattern, Rewriter},
};
use dit_dialect::ops::OpKind;
use dit_dialect::{
    ir::{Attr, Op, Val},
    ops::{i64_array_attr, i64_attr},
};
use melior::ir::TypeLike;

/// The pass. `max_iterations` bounds the rounds of folds (run by the greedy driver to their
/// fixed point) followed by CSE and DCE.
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
        let patterns = patterns();
        let config = greedy::Config::default();
        for _ in 0..self.max_iterations {
            // The driver runs the folds until none applies and erases what they leave dead;
            // merging equal ops can make new folds apply, so the rounds repeat until CSE (and
            // the DCE of what the driver does not know to be dead) finds nothing.
            greedy::apply(module, &patterns, &(), config);
            let changed = eliminate_common_subexpressions(module) + eliminate_dead_code(module);
            if changed == 0 {
                break;
            }
        }
        Ok(())
    }
}

/// The folds, each rooted at the op kinds it folds.
fn patterns() -> Vec<Pattern<()>> {
    let mut patterns: Vec<Pattern<()>> = [OpKind::Add, OpKind::Mul]
        .into_iter()
        .map(|root| Pattern {
            root,
            benefit: 1,
            rewrite: |op, rewriter, _| constant_to_rhs_with(op, Some(rewriter)),
        })
        .collect();
    patterns.push(Pattern {
        root: OpKind::Concat,
        benefit: 1,
        rewrite: |op, rewriter, _| {
            concat_of_whole_split(op, rewriter) || drop_empty_concat_pieces(op, rewriter)
        },
    });
    for root in [
        OpKind::Reshape,
        OpKind::Transpose,
        OpKind::Cast,
        OpKind::Bitcast,
        OpKind::Broadcast,
    ] {
        patterns.push(Pattern {
            root,
            benefit: 1,
            rewrite: |op, rewriter, _| fold_unary_shape_op(op, rewriter),
        });
    }
    patterns
}

/// Puts a constant operand of a commutative elementwise op (add, mul) on the right, as MLIR's
/// canonical form does, so patterns need to match one operand order only. Returns whether it
/// swapped.
pub fn constant_to_rhs(op: Op) -> bool {
    constant_to_rhs_with(op, None)
}

/// [`constant_to_rhs`], through `rewriter` when a driver runs it.
fn constant_to_rhs_with(op: Op, rewriter: Option<&Rewriter>) -> bool {
    if !(op.is_kind(OpKind::Add) || op.is_kind(OpKind::Mul)) || op.num_operands() != 2 {
        return false;
    }
    let is_constant =
        |v: dit_dialect::ir::Val| v.defining_op().is_some_and(|d| d.is("arith.constant"));
    let (lhs, rhs) = (op.operand(0), op.operand(1));
    if is_constant(lhs) && !is_constant(rhs) {
        let swap = || {
            op.set_operand(0, rhs);
            op.set_operand(1, lhs);
        };
        match rewriter {
            Some(rewriter) => rewriter.modify(op, swap),
            None => swap(),
        }
        return true;
    }
    false
}

/// Folds a reshape, transpose, cast, bitcast or broadcast; returns whether anything changed.
/// A fold that makes the op unused leaves it to the driver, which erases dead ops.
fn fold_unary_shape_op(op: Op, rewriter: &Rewriter) -> bool {
    if op.num_operands() != 1 || op.num_results() != 1 {
        return false;
    }
    let kind = op.kind();
    let input = op.operand(0);
    let producer = input.defining_op();
    // reshape∘reshape and bitcast∘bitcast: only the outer result type matters.
    for chainable in [OpKind::Reshape, OpKind::Bitcast] {
        if kind == Some(chainable) {
            if let Some(inner) = producer.filter(|p| p.is_kind(chainable)) {
                rewriter.set_operand(op, 0, inner.operand(0));
                return true;
            }
        }
    }
    if op.is_kind(OpKind::Transpose) {
        return fold_transpose(op, input, producer, rewriter);
    }
    // Identity reshape / cast / bitcast / broadcast.
    if op.result(0).same_type(input) && op.result(0).has_uses() {
        rewriter.replace_all_uses_with(op.result(0), input);
        return true;
    }
    false
}

/// concat(split(x)) along the split's dim, every piece in order, is x: a model that cuts the
/// joint sequence into its image and text parts and joins them again unchanged (HunyuanVideo's
/// single-stream block) would otherwise copy the whole tensor in a concat kernel.
fn concat_of_whole_split(op: Op, rewriter: &Rewriter) -> bool {
    let pieces = op.operands();
    let Some(split) = pieces.first().and_then(|v| v.defining_op()) else {
        return false;
    };
    if !split.is_kind(OpKind::Split)
        || split.num_results() != pieces.len()
        || !op.result(0).has_uses()
    {
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
    rewriter.replace_all_uses_with(op.result(0), whole);
    true
}

/// A dit.concat piece with no element along `dim` (x[..., d:] with d the full width) adds
/// nothing: the concat of the other pieces replaces it, or the one piece left itself. A
/// zero-element tensor then reaches no kernel, and the op that made it dies. A concat of
/// empty pieces only is left alone (its result has no element either).
fn drop_empty_concat_pieces(op: Op, rewriter: &Rewriter) -> bool {
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
            rewriter.replace_all_uses_with(op.result(0), *only);
            return true;
        }
    }
    let attrs = op.attrs();
    let attrs: Vec<(&str, Attr)> = attrs.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    let concat = rewriter.create_before(
        op,
        OpKind::Concat.name(),
        &kept,
        &[op.result(0).ty().to_raw()],
        &attrs,
    );
    rewriter.replace_all_uses_with(op.result(0), concat.result(0));
    true
}

fn fold_transpose(op: Op, input: Val, producer: Option<Op>, rewriter: &Rewriter) -> bool {
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
                rewriter.modify(op, || {
                    op.set_operand(0, inner.operand(0));
                    op.set_attr("perm", op.i64_array_attr(&composed));
                });
                return true;
            }
        }
    }
    let identity = perm.iter().enumerate().all(|(i, &p)| p == i as i64);
    if identity && op.result(0).same_type(input) && op.result(0).has_uses() {
        rewriter.replace_all_uses_with(op.result(0), input);
        return true;
    }
    false
}
