//! `dit-sink-split`: seed 003 §2.6 (Sink Split). A tree of dit.split / dit.slice ops that cut
//! one value `x` along one dim `d` (split x into [a, b], then split a into [a1, a2]; or slices
//! x[..., :N] and x[..., N:]) becomes ONE dit.split of x at the union of the boundaries, and
//! every consumer of a piece reads the matching result. After it, the fusion patterns see the
//! halves of one split (two slices x[..., :N] / x[..., N:] next to a split of x, or a split
//! tree, become the [N, N] split the SwiGLU pattern recognises).
//!
//! Policy (no dit.concat is ever created): a piece that still has consumers besides the merged
//! cutters must be exactly one result of the merged split. A slice that would need a concat of
//! several results (overlapping slices, or slices cut by other boundaries) is left alone; a
//! split piece that would need one loses the cutters below it, or failing that its split is
//! left alone. The rewrite fires only when at least two split/slice ops merge into one split
//! of at least two pieces, so every rewrite removes split/slice ops.

use crate::registry::{DitPass, PassContext, PassFailed};
use dit_dialect::{
    ir::{create_op_before, Attr, Block, Op, Val},
    ops::{i64_array_attr, i64_attr},
};
use melior::ir::TypeLike;
use std::collections::{HashMap, HashSet};

/// The pass.
pub struct SinkSplit;

impl DitPass for SinkSplit {
    fn run(&mut self, module: Op, context: &PassContext) -> Result<(), PassFailed> {
        sink_splits(module, context);
        Ok(())
    }
}

/// Merges split/slice trees under `root` until none is left; returns how many merges applied.
pub fn sink_splits(root: Op, context: &PassContext) -> usize {
    let mut merged = 0;
    // A round merges every tree it can; a merge can make a new tree (a cutter left alone now
    // reads a result of the merged split), so rounds repeat until one merges nothing. Every
    // merge removes at least one split/slice op: this terminates.
    loop {
        let round = merge_round(root, context);
        if round == 0 {
            return merged;
        }
        merged += round;
    }
}

/// Applies every merge one walk finds; returns how many. One walk indexes every cutter by the
/// value it cuts, so a round costs one pass over the module however many trees there are.
fn merge_round(root: Op, context: &PassContext) -> usize {
    let mut inputs: Vec<Val> = Vec::new();
    let mut by_input: HashMap<usize, Vec<Op>> = HashMap::new();
    // Walk order keeps the program order of the ops of one block.
    let mut position: HashMap<usize, usize> = HashMap::new();
    root.walk(&mut |op| {
        if is_cutter(op) && op.num_operands() == 1 {
            position.insert(op.0.ptr as usize, position.len());
            let x = op.operand(0);
            by_input
                .entry(x.key())
                .or_insert_with(|| {
                    inputs.push(x);
                    Vec::new()
                })
                .push(op);
        }
    });
    // Values of trees merged in this round: their cutters are gone (a piece of one tree is
    // the input of a subtree listed after it, and must not be touched again).
    let mut dead: HashSet<usize> = HashSet::new();
    let mut merged = 0;
    for x in inputs {
        if dead.contains(&x.key()) {
            continue;
        }
        let Some(t) = x.tensor() else { continue };
        let rank = t.rank();
        let Some(block) = block_of(x) else { continue };
        let tree = tree_of(x, block, &by_input, &position);
        let mut dims: Vec<usize> = Vec::new();
        for op in &by_input[&x.key()] {
            if let Some(d) = cut_dim(*op, rank) {
                if !dims.contains(&d) {
                    dims.push(d);
                }
            }
        }
        for d in dims {
            let Some(size) = t.shape[d] else { continue };
            if let Some(plan) = plan(x, d, size, &tree) {
                for op in &tree {
                    dead.extend(op.results().into_iter().map(|r| r.key()));
                }
                apply(x, d, &t.shape, plan, context);
                merged += 1;
                break;
            }
        }
    }
    merged
}

/// The cutters of `x`'s tree in `block`: those of x, those of their pieces, and so on, in
/// program order (parents before children, as `plan` needs).
fn tree_of(
    x: Val,
    block: Block,
    by_input: &HashMap<usize, Vec<Op>>,
    position: &HashMap<usize, usize>,
) -> Vec<Op> {
    let mut tree: Vec<Op> = Vec::new();
    let mut frontier = vec![x];
    let mut seen = std::collections::HashSet::new();
    while let Some(v) = frontier.pop() {
        for op in by_input.get(&v.key()).into_iter().flatten() {
            let in_block = op.block().is_some_and(|b| b.0.ptr == block.0.ptr);
            if in_block && seen.insert(op.0.ptr as usize) {
                tree.push(*op);
                frontier.extend(op.results());
            }
        }
    }
    // Program order keeps a parent before its children (a child reads the parent's result).
    tree.sort_by_key(|o| {
        position
            .get(&(o.0.ptr as usize))
            .copied()
            .unwrap_or(usize::MAX)
    });
    tree
}

fn is_cutter(op: Op) -> bool {
    op.is("dit.split") || op.is("dit.slice")
}

/// The block `x` is defined in.
fn block_of(x: Val) -> Option<Block> {
    if let Some((block, _)) = x.block_argument() {
        return Some(block);
    }
    let op = x.defining_op()?;
    // SAFETY: the op is alive; a null block means it is in none.
    let block = unsafe { mlir_sys::mlirOperationGetBlock(op.0) };
    (!block.ptr.is_null()).then_some(Block(block))
}

/// The normalized `dim` of a split or slice whose input has rank `rank`.
fn cut_dim(op: Op, rank: usize) -> Option<usize> {
    let dim = i64_attr(op, "dim")?;
    let rank = i64::try_from(rank).ok()?;
    let d = if dim < 0 { dim + rank } else { dim };
    (0..rank).contains(&d).then_some(d as usize)
}

/// A piece of `x`: a result of a split or slice covering `[start, end)` of x along the dim.
#[derive(Clone, Copy, Debug)]
struct Piece {
    value: Val,
    start: i64,
    end: i64,
}

/// A split or slice of x, or of a piece of x, along the dim.
#[derive(Debug)]
struct Cutter {
    op: Op,
    is_slice: bool,
    /// The cutter that produced this one's input; `None` when it reads x.
    parent: Option<usize>,
    /// Index of the input among the parent's pieces.
    parent_piece: usize,
    pieces: Vec<Piece>,
}

/// The pieces `op` cuts out of an input covering `[base, base + len)` along `d`, or `None`
/// when it is not a mergeable cut: a split with a non-positive size, or a slice whose step is
/// not 1 or that is empty.
fn cut(op: Op, d: usize, rank: usize, base: i64, len: i64) -> Option<Vec<Piece>> {
    if op.num_operands() != 1 || cut_dim(op, rank)? != d {
        return None;
    }
    if op.is("dit.split") {
        let sizes = i64_array_attr(op, "sizes")?;
        if sizes.is_empty()
            || sizes.len() != op.num_results()
            || sizes.iter().any(|s| *s <= 0)
            || sizes.iter().map(|s| i128::from(*s)).sum::<i128>() != i128::from(len)
        {
            return None;
        }
        let mut at = base;
        let mut pieces = Vec::new();
        for (i, s) in sizes.iter().enumerate() {
            pieces.push(Piece {
                value: op.result(i),
                start: at,
                end: at + s,
            });
            at += s;
        }
        return Some(pieces);
    }
    if i64_attr(op, "step")? != 1 || op.num_results() != 1 {
        return None;
    }
    // Python slicing, as the verifier reads it: negative bounds count from the end, bounds
    // clamp to the size.
    let clamp = |v: i64| {
        if v < 0 {
            v.saturating_add(len).max(0)
        } else {
            v.min(len)
        }
    };
    let (s, e) = (clamp(i64_attr(op, "start")?), clamp(i64_attr(op, "end")?));
    (s < e).then(|| {
        vec![Piece {
            value: op.result(0),
            start: base + s,
            end: base + e,
        }]
    })
}

/// What to merge: the cutters, and the sizes of the merged split.
struct Plan {
    cutters: Vec<Cutter>,
    sizes: Vec<i64>,
    boundaries: Vec<i64>,
}

/// Collects the cutters of `x` along `d` (of static size `size`) in `ops` (x's block, in
/// order), drops those that would need a concat, and returns the merge if it pays.
fn plan(x: Val, d: usize, size: i64, ops: &[Op]) -> Option<Plan> {
    let rank = x.tensor()?.rank();
    let x_shape = x.tensor()?.shape;
    let mut cutters: Vec<Cutter> = Vec::new();
    for op in ops {
        if !is_cutter(*op) || op.num_operands() != 1 {
            continue;
        }
        let input = op.operand(0);
        let (parent, parent_piece, base, len) = if input == x {
            (None, 0, 0, size)
        } else {
            let found = cutters.iter().enumerate().find_map(|(ci, c)| {
                c.pieces
                    .iter()
                    .position(|p| p.value == input)
                    .map(|pi| (ci, pi, c.pieces[pi]))
            });
            let Some((ci, pi, p)) = found else { continue };
            (Some(ci), pi, p.start, p.end - p.start)
        };
        if let Some(pieces) = cut(*op, d, rank, base, len) {
            cutters.push(Cutter {
                op: *op,
                is_slice: op.is("dit.slice"),
                parent,
                parent_piece,
                pieces,
            });
        }
    }
    let mut active = vec![true; cutters.len()];
    loop {
        propagate(&cutters, &mut active);
        let boundaries = boundaries(&cutters, &active, size);
        let mut drop = Vec::new();
        for (ci, c) in cutters.iter().enumerate().filter(|(ci, _)| active[*ci]) {
            for (pi, p) in c.pieces.iter().enumerate() {
                let absorbed = cutters
                    .iter()
                    .enumerate()
                    .filter(|(k, k_c)| {
                        active[*k] && k_c.parent == Some(ci) && k_c.parent_piece == pi
                    })
                    .count();
                if p.value.use_count() <= absorbed {
                    continue;
                }
                let one_atom = !boundaries.iter().any(|b| p.start < *b && *b < p.end);
                let mut expected = x_shape.clone();
                expected[d] = Some(p.end - p.start);
                let same_type = p.value.tensor().is_some_and(|t| t.shape == expected);
                if one_atom && same_type {
                    continue;
                }
                if c.is_slice || !same_type || (!one_atom && absorbed == 0) {
                    drop.push(ci);
                } else {
                    // Boundaries inside a split piece that stays: let the cutters below it go.
                    drop.extend(cutters.iter().enumerate().filter_map(|(k, k_c)| {
                        (active[k] && k_c.parent == Some(ci) && k_c.parent_piece == pi).then_some(k)
                    }));
                }
            }
        }
        if drop.is_empty() {
            let merged = active.iter().filter(|a| **a).count();
            if merged < 2 || boundaries.len() < 3 {
                return None;
            }
            let cutters: Vec<Cutter> = cutters
                .into_iter()
                .zip(active)
                .filter_map(|(c, a)| a.then_some(c))
                .collect();
            let sizes = boundaries.windows(2).map(|w| w[1] - w[0]).collect();
            return Some(Plan {
                cutters,
                sizes,
                boundaries,
            });
        }
        for ci in drop {
            active[ci] = false;
        }
    }
}

/// Deactivates every cutter whose input comes from an inactive cutter.
fn propagate(cutters: &[Cutter], active: &mut [bool]) {
    // Parents come before children (block order), so one forward sweep suffices.
    for ci in 0..cutters.len() {
        if let Some(parent) = cutters[ci].parent {
            if !active[parent] {
                active[ci] = false;
            }
        }
    }
}

/// The sorted boundaries of the active cutters' pieces, with 0 and `size`.
fn boundaries(cutters: &[Cutter], active: &[bool], size: i64) -> Vec<i64> {
    let mut b = vec![0, size];
    for (c, _) in cutters.iter().zip(active).filter(|(_, a)| **a) {
        for p in &c.pieces {
            b.push(p.start);
            b.push(p.end);
        }
    }
    b.sort_unstable();
    b.dedup();
    b
}

/// Creates the merged split before the first cutter, rewires every piece that is still used
/// to its result, and erases the cutters that became unused.
fn apply(x: Val, d: usize, shape: &[Option<i64>], plan: Plan, context: &PassContext) {
    let anchor = plan.cutters[0].op;
    let ctx = anchor.context_raw();
    let types = vec![x.ty().to_raw(); plan.sizes.len()];
    let split = create_op_before(
        anchor,
        "dit.split",
        &[x],
        &types,
        &[
            ("dim", Attr::i64(ctx, d as i64)),
            ("sizes", anchor.i64_array_attr(&plan.sizes)),
        ],
    );
    for (i, s) in plan.sizes.iter().enumerate() {
        let mut piece_shape = shape.to_vec();
        piece_shape[d] = Some(*s);
        split.result(i).set_tensor_type(&piece_shape, x);
    }
    for c in &plan.cutters {
        for p in &c.pieces {
            if p.value.has_uses() {
                if let Ok(atom) = plan.boundaries.binary_search(&p.start) {
                    p.value.replace_all_uses_with(split.result(atom));
                }
            }
        }
    }
    for c in plan.cutters.iter().rev() {
        if !c.op.has_uses() {
            c.op.erase();
        }
    }
    context.report.applied(
        "dit-sink-split",
        split,
        format!(
            "{} split/slice ops along dim {d} -> one dit.split with sizes {:?}",
            plan.cutters.len(),
            plan.sizes
        ),
    );
}
