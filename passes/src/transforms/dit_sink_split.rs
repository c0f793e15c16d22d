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

use crate::{
    registry::{DitPass, PassContext, PassFailed},
    transforms::greedy::{self, Pattern, Rewriter},
};
use dit_dialect::ops::OpKind;
use dit_dialect::tensor::TensorInfo;
use dit_dialect::{
    ir::{build_detached_op, Attr, Block, Op, Val},
    ops::{i64_array_attr, i64_attr},
};
use melior::ir::TypeLike;
use std::collections::HashSet;

/// The pass.
pub struct SinkSplit;

impl DitPass for SinkSplit {
    fn run(&mut self, module: Op, context: &PassContext) -> Result<(), PassFailed> {
        // SAFETY: the pass holds no handle into the module but `module` itself.
        unsafe { sink_splits(module, context) };
        Ok(())
    }
}

/// Merges split/slice trees under `root` and sinks splits below their consumers until
/// neither applies; returns how many rewrites applied.
///
/// A merge can make a new tree (a cutter left alone now reads a result of the merged split),
/// and a sink makes a new split (of the op's result) that may merge with cutters below it or
/// sink again: the greedy driver revisits both. Every merge removes at least one split/slice
/// op and every sink at least one kernel-or-split op, so this terminates; the bound on the
/// driver's passes is a guard only.
///
/// # Safety
/// As for [`greedy::apply`]: no handle into `root`'s regions taken before the call is used
/// after it (the rewrites erase ops).
pub unsafe fn sink_splits(root: Op, context: &PassContext) -> usize {
    let patterns = [
        // Merging first (the higher benefit): the merged split is the one that may sink.
        Pattern {
            root: OpKind::Split,
            benefit: 2,
            rewrite: merge_at as greedy::RewriteFn<PassContext>,
        },
        Pattern {
            root: OpKind::Slice,
            benefit: 2,
            rewrite: merge_at,
        },
        Pattern {
            root: OpKind::Split,
            benefit: 1,
            rewrite: sink_at,
        },
    ];
    let config = greedy::Config {
        max_iterations: -1,
        max_rewrites: -1,
        fold: false,
    };
    // SAFETY: the caller holds no handle into `root`'s regions across the call.
    unsafe { greedy::apply(root, &patterns, context, config) }
}

/// Seed 003 §2.6–2.7 (`add_config(op, {0, 1}, {0})` for mul and swiglu, `{0}, {0}` for the
/// GMM): when every piece of split `s` feeds the same kind of op, the op runs once on the
/// whole input and the split moves below it.
fn sink_at(s: Op, rewriter: &Rewriter, context: &PassContext) -> bool {
    if s.num_operands() != 1 || s.num_results() < 2 {
        return false;
    }
    match sink_plan(s) {
        Sink::No => false,
        Sink::Skip(reason) => {
            context.report.skipped("dit-sink-split", s, reason);
            false
        }
        Sink::Yes(plan) => sink(s, plan, rewriter, context),
    }
}

/// The other operand of the binary ops a split sinks through.
#[derive(Clone, Copy)]
enum Other<'a> {
    /// One value every op reads, of size 1 (or absent) along the split dim: it broadcasts the
    /// same way against each piece and against the whole input.
    Broadcast(Val<'a>),
    /// The pieces of a second split with the same dim and sizes, of an input shaped like the
    /// first's: piece i meets piece i, so the whole inputs meet elementwise.
    Split(Op<'a>),
}

/// How a split's pieces are consumed.
struct SinkPlan<'a> {
    /// The consumer of each piece, in piece order.
    users: Vec<Op<'a>>,
    /// For a binary op: the operand slot the pieces take, and the other operand.
    binary: Option<(usize, Other<'a>)>,
    /// The dim of the consumers' results the new split cuts.
    out_dim: usize,
}

enum Sink<'a> {
    /// Not the shape sinking is about (pieces with other users, mixed consumers, …).
    No,
    /// The shape sinking is about, but it cannot fire; the reason goes to the report.
    Skip(String),
    Yes(SinkPlan<'a>),
}

/// Whether (and how) split `s` sinks below its consumers.
fn sink_plan<'a>(s: Op<'a>) -> Sink<'a> {
    let x = s.operand(0);
    let Some(t) = x.tensor() else { return Sink::No };
    let Some(d) = cut_dim(s, t.rank()) else {
        return Sink::No;
    };
    let Some(sizes) = i64_array_attr(s, "sizes") else {
        return Sink::No;
    };
    let pieces = s.results();
    let mut users = Vec::new();
    for p in &pieces {
        let u = p.users();
        if u.len() != 1 || users.contains(&u[0]) {
            return Sink::No;
        }
        users.push(u[0]);
    }
    let kind = users[0].name();
    let op_kind = users[0].kind();
    let block = users[0].block().map(|b| b.raw().ptr);
    if users
        .iter()
        .any(|u| u.name() != kind || u.block().map(|b| b.raw().ptr) != block || block.is_none())
    {
        return Sink::No;
    }
    // Each consumer's result must be its piece's share of one result: same shape but along
    // the cut dim, where it is the piece's size.
    let same_but = |out_dim: usize| {
        let r0 = users[0].result(0).tensor()?;
        for (u, size) in users.iter().zip(&sizes) {
            if u.num_results() != 1 {
                return None;
            }
            let r = u.result(0).tensor()?;
            if r.elem != r0.elem
                || r.rank() != r0.rank()
                || r.shape.get(out_dim) != Some(&Some(*size))
            {
                return None;
            }
            let others = |v: &TensorInfo| {
                let mut v = v.shape.clone();
                v[out_dim] = None;
                v
            };
            if others(&r) != others(&r0) {
                return None;
            }
        }
        Some(())
    };
    if op_kind == Some(OpKind::GroupedMatmul) {
        if users.iter().zip(&pieces).all(|(u, p)| u.operand(0) == *p) {
            return Sink::Skip(format!(
                "every piece of the split along dim {d} feeds a dit.grouped_matmul's x, but one \
                 grouped_matmul of the whole x reads one group_list that routes rows from the \
                 first row of x, while each piece's group_list routes from the piece's own first \
                 row: the rows of all but the first piece would go to other experts"
            ));
        }
        return Sink::No;
    }
    if op_kind == Some(OpKind::Swiglu) {
        let dims: Vec<Option<usize>> = users.iter().map(|u| cut_dim(*u, t.rank())).collect();
        let Some(e) = dims[0] else { return Sink::No };
        if dims.iter().any(|x| *x != Some(e))
            || users.iter().zip(&pieces).any(|(u, p)| u.operand(0) != *p)
        {
            return Sink::No;
        }
        if e == d {
            // swiglu halves the pieces along the cut dim: the whole input's halves are other
            // rows than the pieces' halves.
            return Sink::Skip(format!(
                "every piece of the split feeds a dit.swiglu that halves the split dim {d}: the \
                 halves of the whole input are not the halves of the pieces"
            ));
        }
        if same_but(d).is_none() {
            return Sink::No;
        }
        return Sink::Yes(SinkPlan {
            users,
            binary: None,
            out_dim: d,
        });
    }
    let silu_mul = op_kind == Some(OpKind::SiluMul);
    if !(silu_mul || op_kind.is_some_and(OpKind::is_binary)) {
        return Sink::No;
    }
    let slot_of = |u: &Op, p: &Val| {
        let at: Vec<usize> = (0..2).filter(|i| u.operand(*i) == *p).collect();
        (at.len() == 1 && u.num_operands() == 2).then(|| at[0])
    };
    let Some(slot) = slot_of(&users[0], &pieces[0]) else {
        return Sink::No;
    };
    // A commutative op may take its piece on either side: `a_i · b_i` and `b_i · a_i` are the
    // same product, so only a non-commutative op needs every piece in one slot.
    let commutative = matches!(op_kind, Some(OpKind::Add | OpKind::Mul));
    let slots: Vec<Option<usize>> = users
        .iter()
        .zip(&pieces)
        .map(|(u, p)| slot_of(u, p))
        .collect();
    if slots
        .iter()
        .any(|s| s.is_none() || (!commutative && *s != Some(slot)))
    {
        return Sink::No;
    }
    let others: Vec<Val> = users
        .iter()
        .zip(&slots)
        .map(|(u, s)| u.operand(1 - s.unwrap_or(slot)))
        .collect();
    let Some(r0) = users[0].result(0).tensor() else {
        return Sink::No;
    };
    let out_dim = d + r0.rank().saturating_sub(t.rank());
    let other = if others.iter().all(|o| *o == others[0]) {
        let q = others[0];
        let Some(qt) = q.tensor() else {
            return Sink::No;
        };
        // q's dim aligned (numpy, from the back) with the split dim, if q has one.
        let aligned = (d + qt.rank()).checked_sub(t.rank());
        let broadcasts = aligned.is_none_or(|j| qt.shape[j] == Some(1));
        if silu_mul || !broadcasts || r0.rank() != t.rank().max(qt.rank()) {
            return Sink::No;
        }
        Other::Broadcast(q)
    } else {
        let Some(other_split) = others[0].defining_op() else {
            return Sink::No;
        };
        // Its operand is read only once it is known to have one (an op without operands has
        // no operand 0 to read).
        let matches = other_split.is_kind(OpKind::Split)
            && other_split.num_operands() == 1
            && other_split.num_results() == pieces.len()
            && other_split != s
            && other_split
                .operand(0)
                .tensor()
                .is_some_and(|yt| yt.shape == t.shape)
            && cut_dim(other_split, t.rank()) == Some(d)
            && i64_array_attr(other_split, "sizes").as_ref() == Some(&sizes)
            && others
                .iter()
                .enumerate()
                .all(|(i, o)| *o == other_split.result(i) && o.use_count() == 1);
        if !matches || r0.rank() != t.rank() {
            return Sink::No;
        }
        Other::Split(other_split)
    };
    if same_but(out_dim).is_none() {
        return Sink::No;
    }
    Sink::Yes(SinkPlan {
        users,
        binary: Some((slot, other)),
        out_dim,
    })
}

/// Runs the consumers' op once on the whole input, before the first consumer, and splits its
/// result; rewrites only when the cost model says it pays (a broadcast operand can make the
/// result much larger than the input, and a split of a result that is not an offset view is
/// a copy kernel). Returns whether it rewrote; when it did not, it records a skip.
fn sink<'a>(s: Op<'a>, plan: SinkPlan<'a>, rewriter: &Rewriter, context: &PassContext) -> bool {
    sink_op(s, plan, rewriter, context).is_some()
}

/// The whole-input op and the split of its result that replace a sink's consumers.
struct SunkOps<'a> {
    whole: Op<'a>,
    split: Op<'a>,
}

fn sink_op<'a>(
    s: Op<'a>,
    plan: SinkPlan<'a>,
    rewriter: &Rewriter,
    context: &PassContext,
) -> Option<()> {
    let x = s.operand(0);
    let other_split = match plan.binary {
        Some((_, Other::Split(t))) => Some(t),
        _ => None,
    };
    let mut original_ops = vec![s];
    original_ops.extend(other_split);
    original_ops.extend(plan.users.iter().copied());
    let original = crate::analysis::cost::CallCost::of_ops(&original_ops);

    let mut anchor = plan.users[0];
    for u in &plan.users[1..] {
        if u.is_before_in_block(anchor) {
            anchor = *u;
        }
    }
    let first = plan.users[0];
    // Everything read off `s` is read before anything is created or erased.
    let t = x.tensor()?;
    let d = cut_dim(s, t.rank())?;
    let sizes = i64_array_attr(s, "sizes")?;
    let mut shape = first.result(0).tensor()?.shape;
    shape[plan.out_dim] = t.shape[d];
    let operands = match plan.binary {
        None => vec![x],
        Some((slot, other)) => {
            let o = match other {
                Other::Broadcast(q) => q,
                Other::Split(t) => t.operand(0),
            };
            if slot == 0 {
                vec![x, o]
            } else {
                vec![o, x]
            }
        }
    };
    let attrs = first.attrs();
    let attr_refs: Vec<(&str, Attr)> = attrs.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    let types: Vec<_> = plan
        .users
        .iter()
        .map(|u| u.result(0).ty().to_raw())
        .collect();
    let ctx = anchor.context_raw();
    let split_attrs = [
        ("dim", Attr::i64(ctx, plan.out_dim as i64)),
        ("sizes", anchor.i64_array_attr(&sizes)),
    ];
    // The whole-input op and its split, not yet in a block.
    let build = || {
        let whole = build_detached_op(
            anchor,
            &first.name(),
            &operands,
            &[first.result(0).ty().to_raw()],
            &attr_refs,
        );
        whole.result(0).set_tensor_type(&shape, first.result(0));
        let split = build_detached_op(
            anchor,
            OpKind::Split.name(),
            &[whole.result(0)],
            &types,
            &split_attrs,
        );
        SunkOps { whole, split }
    };

    // The cost of the new ops depends on where the lowering places them, which depends on who
    // reads them: measure them in place, with the consumers' readers rewired, then undo all of
    // it. The trial leaves the IR as it was, so the driver need not know of it; the rewrite
    // proper below goes through the rewriter.
    let trial = build();
    let trial_whole = insert_directly(anchor, trial.whole);
    let trial_split = insert_directly(anchor, trial.split);
    for (i, u) in plan.users.iter().enumerate() {
        u.result(0).replace_all_uses_with(trial_split.result(i));
    }
    let rewritten = crate::analysis::cost::CallCost::of_ops(&[trial_whole, trial_split]);
    for (i, u) in plan.users.iter().enumerate() {
        trial_split.result(i).replace_all_uses_with(u.result(0));
    }
    // SAFETY: the trial split's uses went back to the users' results (above), and neither
    // trial op is used afterwards (the rewrite proper builds its own).
    unsafe { trial_split.erase() };
    // SAFETY: its only user, the trial split, was erased first; not used afterwards.
    unsafe { trial_whole.erase() };
    if let Err(why) = crate::analysis::cost::rewrite_pays(original, rewritten) {
        context.report.skipped(
            "dit-sink-split",
            s,
            format!(
                "sinking the split below its {} {} ops does not pay: {why}",
                plan.users.len(),
                first.name()
            ),
        );
        return None;
    }

    let SunkOps { whole, split } = build();
    let whole = rewriter.insert_before(anchor, whole);
    let split = rewriter.insert_before(anchor, split);
    for (i, u) in plan.users.iter().enumerate() {
        rewriter.replace_all_uses_with(u.result(0), split.result(i));
    }
    let kind = first.name();
    let n = plan.users.len();
    for u in &plan.users {
        // SAFETY: each user's result now reads a piece of the new split (above); the users
        // are not read after this loop.
        unsafe { rewriter.erase(*u) };
    }
    // SAFETY: each piece of `s` had one use, by one of the users (the plan checks it), erased
    // above; `s` is not read afterwards.
    unsafe { rewriter.erase(s) };
    if let Some(t) = other_split {
        // SAFETY: as for `s`: the users of `t`'s pieces are gone; `t` is not read afterwards.
        unsafe { rewriter.erase(t) };
    }
    context.report.applied(
        "dit-sink-split",
        whole,
        format!(
            "split along dim {d} sunk below {n} {kind} ops: one {kind} of the whole input, \
             then a dit.split with sizes {sizes:?}"
        ),
    );
    Some(())
}

/// Puts the detached `op` right before `anchor`, outside any rewrite driver (for a trial the
/// caller undoes before the driver looks again).
fn insert_directly<'a>(anchor: Op<'a>, op: Op<'a>) -> Op<'a> {
    let block = anchor
        .block()
        .expect("the anchor consumes a split piece, so it is in a block");
    // SAFETY: both ops are alive, the anchor is in `block`, which takes ownership of the
    // unowned op (built detached by the caller).
    unsafe { mlir_sys::mlirBlockInsertOwnedOperationBefore(block.raw(), anchor.raw(), op.raw()) };
    op
}

/// Merges the tree cutter `c` belongs to. The trees tried are those of the values above `c`
/// (the input of the topmost cutter of the chain of splits/slices that leads to `c`, then the
/// values down that chain to `c`'s input): the widest tree that merges wins, as when the trees
/// were tried in program order. Returns whether it merged.
fn merge_at(c: Op, rewriter: &Rewriter, context: &PassContext) -> bool {
    if c.num_operands() != 1 {
        return false;
    }
    let block = c.block().map(|b| b.raw().ptr);
    let mut chain = vec![c.operand(0)];
    while let Some(parent) = chain[chain.len() - 1].defining_op().filter(|p| {
        is_cutter(*p) && p.num_operands() == 1 && p.block().map(|b| b.raw().ptr) == block
    }) {
        chain.push(parent.operand(0));
    }
    chain
        .into_iter()
        .rev()
        .any(|x| merge_tree(x, rewriter, context))
}

/// Merges the tree of cutters of `x` along the first dim (of x's cutters, in program order)
/// along which one merges; returns whether one did.
fn merge_tree(x: Val, rewriter: &Rewriter, context: &PassContext) -> bool {
    let Some(t) = x.tensor() else { return false };
    let rank = t.rank();
    let Some(block) = block_of(x) else {
        return false;
    };
    let tree = tree_of(x, block);
    let mut dims: Vec<usize> = Vec::new();
    for op in tree.iter().filter(|op| op.operand(0) == x) {
        if let Some(d) = cut_dim(*op, rank) {
            if !dims.contains(&d) {
                dims.push(d);
            }
        }
    }
    for d in dims {
        let Some(size) = t.shape[d] else { continue };
        if let Some(plan) = plan(x, d, size, &tree) {
            apply(x, d, &t.shape, plan, rewriter, context);
            return true;
        }
    }
    false
}

/// The cutters of `x`'s tree in `block`: those of x, those of their pieces, and so on, in
/// program order (parents before children, as `plan` needs).
fn tree_of<'a>(x: Val<'a>, block: Block<'a>) -> Vec<Op<'a>> {
    let mut tree: Vec<Op> = Vec::new();
    let mut frontier = vec![x];
    let mut seen = HashSet::new();
    while let Some(v) = frontier.pop() {
        for op in v.users() {
            let in_block = op.block().is_some_and(|b| b.raw().ptr == block.raw().ptr);
            if is_cutter(op) && op.num_operands() == 1 && in_block && seen.insert(op.raw().ptr) {
                tree.push(op);
                frontier.extend(op.results());
            }
        }
    }
    // Program order keeps a parent before its children (a child reads the parent's result).
    tree.sort_by(|a, b| {
        if a == b {
            std::cmp::Ordering::Equal
        } else if a.is_before_in_block(*b) {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Greater
        }
    });
    tree
}

fn is_cutter(op: Op) -> bool {
    op.is_kind(OpKind::Split) || op.is_kind(OpKind::Slice)
}

/// The block `x` is defined in.
fn block_of<'a>(x: Val<'a>) -> Option<Block<'a>> {
    if let Some((block, _)) = x.block_argument() {
        return Some(block);
    }
    x.defining_op()?.block()
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
struct Piece<'a> {
    value: Val<'a>,
    start: i64,
    end: i64,
}

/// A split or slice of x, or of a piece of x, along the dim.
#[derive(Debug)]
struct Cutter<'a> {
    op: Op<'a>,
    is_slice: bool,
    /// The cutter that produced this one's input; `None` when it reads x.
    parent: Option<usize>,
    /// Index of the input among the parent's pieces.
    parent_piece: usize,
    pieces: Vec<Piece<'a>>,
}

/// The pieces `op` cuts out of an input covering `[base, base + len)` along `d`, or `None`
/// when it is not a mergeable cut: a split with a non-positive size, or a slice whose step is
/// not 1 or that is empty.
fn cut<'a>(op: Op<'a>, d: usize, rank: usize, base: i64, len: i64) -> Option<Vec<Piece<'a>>> {
    if op.num_operands() != 1 || cut_dim(op, rank)? != d {
        return None;
    }
    if op.is_kind(OpKind::Split) {
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
struct Plan<'a> {
    cutters: Vec<Cutter<'a>>,
    sizes: Vec<i64>,
    boundaries: Vec<i64>,
}

/// Collects the cutters of `x` along `d` (of static size `size`) in `ops` (x's block, in
/// order), drops those that would need a concat, and returns the merge if it pays.
fn plan<'a>(x: Val<'a>, d: usize, size: i64, ops: &[Op<'a>]) -> Option<Plan<'a>> {
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
                is_slice: op.is_kind(OpKind::Slice),
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
fn apply(
    x: Val,
    d: usize,
    shape: &[Option<i64>],
    plan: Plan,
    rewriter: &Rewriter,
    context: &PassContext,
) {
    let anchor = plan.cutters[0].op;
    let ctx = anchor.context_raw();
    let types = vec![x.ty().to_raw(); plan.sizes.len()];
    let split = build_detached_op(
        anchor,
        OpKind::Split.name(),
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
    let split = rewriter.insert_before(anchor, split);
    for c in &plan.cutters {
        for p in &c.pieces {
            if p.value.has_uses() {
                if let Ok(atom) = plan.boundaries.binary_search(&p.start) {
                    rewriter.replace_all_uses_with(p.value, split.result(atom));
                }
            }
        }
    }
    for c in plan.cutters.iter().rev() {
        if !c.op.has_uses() {
            // SAFETY: unused (checked); the cutters are erased last-first and none is read
            // afterwards.
            unsafe { rewriter.erase(c.op) };
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
