//! `dit-merge-horizontal`: horizontal fusion of projections that read the same input (issue 5
//! item 3; seed 004's QKV / FFN horizontal fusion). `dit.linear` ops (or `dit.matmul` ops with
//! equal transpose flags) on the same x whose weights (and biases, all or none) are arguments of
//! the enclosing `func.func` become one op on the concatenated weight plus one `dit.split` of its
//! result along the last dim. The weight (and bias) concatenations only read function arguments
//! and go to the top of the function's entry block, so that a load-time pre-pack can fold them.

use crate::registry::{DitPass, PassContext, PassFailed, PassOptionInfo};
use dit_dialect::ops::OpKind;
use dit_dialect::{
    ir::{self, Attr, Block, Op, Val},
    ops::{self, OpBuilder, Operands},
    tensor::{shape_string, Dim, TensorInfo},
};
use melior::ir::TypeLike;
use std::collections::HashMap;

/// The report's pattern name.
const PATTERN: &str = "dit-merge-horizontal";

/// The default largest group.
pub const DEFAULT_MAX_GROUP: usize = 8;

/// The pass's options.
pub fn options() -> Vec<PassOptionInfo> {
    vec![PassOptionInfo {
        name: "max-group",
        help: "the most projections merged into one (an integer >= 2); a larger set of \
mergeable projections is cut into groups of this size in program order, and a last group of \
one is left alone",
        default: "8",
    }]
}

/// The pass with its options.
#[derive(Clone, Debug)]
pub struct MergeHorizontal {
    max_group: usize,
}

impl Default for MergeHorizontal {
    fn default() -> Self {
        Self {
            max_group: DEFAULT_MAX_GROUP,
        }
    }
}

impl MergeHorizontal {
    /// Builds the pass from pipeline options (`max-group=N`).
    pub fn from_options(options: &[(String, String)]) -> Result<Self, String> {
        let mut pass = Self::default();
        for (key, value) in options {
            match key.as_str() {
                "max-group" => {
                    pass.max_group =
                        value
                            .parse::<usize>()
                            .ok()
                            .filter(|n| *n >= 2)
                            .ok_or_else(|| {
                                format!("option 'max-group' must be an integer >= 2, got '{value}'")
                            })?
                }
                _ => return Err(format!("unknown option '{key}'")),
            }
        }
        Ok(pass)
    }
}

/// One mergeable projection.
#[derive(Clone, Debug)]
struct Candidate<'a> {
    op: Op<'a>,
    /// Argument index of the weight (and of the bias) in the function's entry block.
    weight: usize,
    bias: Option<usize>,
    /// The output features (the result's last dim), static.
    n: i64,
}

/// What candidates must share to be merged: the op kind, x, the block, the transpose flags,
/// the weight's type except its output-feature dim, the bias type except its length, and the
/// result's shape except its last dim (and its element type).
type GroupKey = String;

/// A weight or bias concatenation already emitted in a function: (argument indices, dim).
type ConcatKey = (Vec<usize>, i64);

impl DitPass for MergeHorizontal {
    fn run(&mut self, module: Op, context: &PassContext) -> Result<(), PassFailed> {
        let mut funcs = Vec::new();
        module.walk(&mut |op| {
            if op.is("func.func") && op.num_regions() == 1 && !op.region_blocks(0).is_empty() {
                funcs.push(op);
            }
        });
        for func in funcs {
            self.run_on_func(func, context);
        }
        Ok(())
    }
}

impl MergeHorizontal {
    fn run_on_func<'a>(&self, func: Op<'a>, context: &PassContext) {
        let entry = func.region_blocks(0)[0];
        // Candidates grouped by key, groups in the program order of their first member.
        let mut order: Vec<GroupKey> = Vec::new();
        let mut groups: HashMap<GroupKey, Vec<Candidate>> = HashMap::new();
        let mut visit = |block: Block<'a>, op: Op<'a>| {
            if !(op.is_kind(OpKind::Linear) || op.is_kind(OpKind::Matmul)) {
                return;
            }
            match candidate(op, block, entry) {
                Ok((key, c)) => {
                    let key = format!("{:x}|{key}", block.raw().ptr as usize);
                    groups
                        .entry(key.clone())
                        .or_insert_with(|| {
                            order.push(key);
                            Vec::new()
                        })
                        .push(c);
                }
                // Matmuls on activations (attention scores) are no projections: not reported.
                Err(why) if op.is_kind(OpKind::Linear) => context.report.skipped(PATTERN, op, why),
                Err(_) => {}
            }
        };
        for block in func.region_blocks(0) {
            walk_block(block, &mut visit);
        }
        let mut concats: HashMap<ConcatKey, Val> = HashMap::new();
        let mut last_concat: Option<Op> = None;
        for key in order {
            let members = &groups[&key];
            for chunk in members.chunks(self.max_group) {
                if chunk.len() < 2 {
                    if members.len() > 1 {
                        context.report.skipped(
                            PATTERN,
                            chunk[0].op,
                            format!(
                                "left alone: the last of {} mergeable projections on the same input (max-group={})",
                                members.len(),
                                self.max_group
                            ),
                        );
                    }
                    continue;
                }
                if let Err(why) = merge(chunk, entry, &mut concats, &mut last_concat, context) {
                    context.report.skipped(PATTERN, chunk[0].op, why);
                }
            }
        }
    }
}

/// Calls `f` on every op under `block` in program order (pre-order), with the block that holds
/// it; nested functions are left to their own run.
fn walk_block<'a>(block: Block<'a>, f: &mut dyn FnMut(Block<'a>, Op<'a>)) {
    for op in block.ops() {
        f(block, op);
        if op.is("func.func") {
            continue;
        }
        for r in 0..op.num_regions() {
            for inner in op.region_blocks(r) {
                walk_block(inner, f);
            }
        }
    }
}

fn tensor(v: Val, what: &str) -> Result<TensorInfo, String> {
    v.tensor()
        .ok_or_else(|| format!("{what} is not a ranked tensor"))
}

/// The entry-block argument index of `v`, if it is an argument of the function's entry block.
fn argument_index(v: Val, entry: Block) -> Option<usize> {
    match v.block_argument() {
        Some((block, index)) if block.raw().ptr == entry.raw().ptr => Some(index),
        _ => None,
    }
}

fn dims(shape: &[Dim]) -> String {
    shape_string(shape)
}

/// Whether `op` can take part in a merge, and with which key.
fn candidate<'a>(
    op: Op<'a>,
    block: Block<'a>,
    entry: Block<'a>,
) -> Result<(GroupKey, Candidate<'a>), String> {
    let kind = op.kind().ok_or("not a dit op")?;
    let ins = Operands::resolve(op, kind.spec())?;
    let (x, weight, bias, flags) = if kind == OpKind::Linear {
        (
            ins.get("x").ok_or("no x")?,
            ins.get("weight").ok_or("no weight")?,
            ins.get("bias"),
            String::new(),
        )
    } else {
        let (ta, tb) = (
            ops::bool_attr(op, "transpose_a").ok_or("no transpose_a")?,
            ops::bool_attr(op, "transpose_b").ok_or("no transpose_b")?,
        );
        (
            ins.get("a").ok_or("no a")?,
            ins.get("b").ok_or("no b")?,
            None,
            format!("ta={ta},tb={tb}"),
        )
    };
    // Checked here, before any merge moves ops: MLIR numbers a block's ops once for
    // `is_before_in_block` and again after every insertion, so asking after each merge cost a
    // walk of the block per group (quadratic in a long function).
    if !dominates(x, op, block) {
        return Err("x does not dominate the projection".into());
    }
    let weight_index = argument_index(weight, entry)
        .ok_or("the weight is not an argument of the enclosing func")?;
    let bias_index = match bias {
        Some(b) => Some(
            argument_index(b, entry).ok_or("the bias is not an argument of the enclosing func")?,
        ),
        None => None,
    };
    let w = tensor(weight, "the weight")?;
    let out = tensor(op.result(0), "the result")?;
    if w.rank() < 2 || out.rank() < 1 {
        return Err("the weight must have rank >= 2".into());
    }
    let n_dim = weight_n_dim(op, w.rank());
    let n = out
        .dim_from_back(0)
        .filter(|_| w.shape[n_dim].is_some())
        .ok_or("the output features are dynamic: the split sizes must be static")?;
    let mut w_rest = w.shape.clone();
    w_rest[n_dim] = None;
    let bias_key = match bias {
        Some(b) => format!("bias {}", tensor(b, "the bias")?.elem),
        None => "no bias".to_string(),
    };
    let key = format!(
        "{}|{:x}|{flags}|w {} {}|{bias_key}|out {} [{}]",
        kind.name(),
        x.key(),
        w.elem,
        dims(&w_rest),
        out.elem,
        dims(&out.shape[..out.rank() - 1])
    );
    Ok((
        key,
        Candidate {
            op,
            weight: weight_index,
            bias: bias_index,
            n,
        },
    ))
}

/// The weight dim that holds the output features: 0 of a linear's [N, K]; of a matmul's b,
/// the second-to-last dim when transposed ([..., N, K]), else the last ([..., K, N]).
fn weight_n_dim(op: Op, rank: usize) -> usize {
    if op.is_kind(OpKind::Linear) {
        0
    } else if ops::bool_attr(op, "transpose_b").unwrap_or(false) {
        rank - 2
    } else {
        rank - 1
    }
}

/// Where x is defined relative to `at` (same block): x must be a block argument, defined in an
/// enclosing region, or defined by an op before `at` in its block.
fn dominates(x: Val, at: Op, block: Block) -> bool {
    let Some(def) = x.defining_op() else {
        return true; // A block argument of this block or of an enclosing one.
    };
    let in_block = |o: Op| o.block().is_some_and(|b| b.raw().ptr == block.raw().ptr);
    match (in_block(def), in_block(at)) {
        (true, true) => def.is_before_in_block(at),
        // Defined in an enclosing block (it is used here, so it dominates).
        (false, true) => true,
        _ => false,
    }
}

/// The concatenation of entry-block arguments `args` along `dim`, emitted once per function at
/// the top of the entry block (after the concatenations emitted before it).
fn concat_of<'a>(
    args: &[usize],
    dim: i64,
    entry: Block<'a>,
    concats: &mut HashMap<ConcatKey, Val<'a>>,
    last_concat: &mut Option<Op<'a>>,
) -> Result<(Val<'a>, bool), String> {
    let key = (args.to_vec(), dim);
    if let Some(v) = concats.get(&key) {
        return Ok((*v, true));
    }
    let values: Vec<Val> = args
        .iter()
        .map(|i| {
            entry
                .argument(*i)
                .ok_or("a weight index past the entry block's arguments")
        })
        .collect::<Result<_, _>>()?;
    let first = tensor(values[0], "a concatenated argument")?;
    let d = usize::try_from(dim).map_err(|_| "negative concat dim")?;
    let mut shape = first.shape.clone();
    shape[d] = values
        .iter()
        .map(|v| v.tensor().and_then(|t| t.shape[d]))
        .try_fold(0i64, |acc, n| n.and_then(|n| acc.checked_add(n)));
    let anchor = match last_concat {
        Some(last) => last.next_in_block().ok_or("no op after a concat")?,
        None => entry.first_op().ok_or("empty entry block")?,
    };
    let raw = anchor.context_raw();
    let ty = ir::tensor_type(raw, &shape, &first.elem)
        .ok_or_else(|| format!("no MLIR type for {}", first.elem))?;
    let concat = OpBuilder::before(anchor).create(
        OpKind::Concat,
        &[&values],
        &[ty],
        &[("dim", Attr::i64(raw, dim))],
    )?;
    *last_concat = Some(concat);
    concats.insert(key, concat.result(0));
    Ok((concat.result(0), false))
}

/// Merges `group` (at least two candidates, same key, in program order).
fn merge<'a>(
    group: &[Candidate<'a>],
    entry: Block<'a>,
    concats: &mut HashMap<ConcatKey, Val<'a>>,
    last_concat: &mut Option<Op<'a>>,
    context: &PassContext,
) -> Result<(), String> {
    let first = group[0].op;
    // x as the first projection reads it now: an earlier merge may have replaced the value
    // the candidates were grouped by (x was one of its projections) with a piece of its split.
    let kind = first.kind().ok_or("not a dit op")?;
    let x = Operands::resolve(first, kind.spec())?
        .get(if kind == OpKind::Linear { "x" } else { "a" })
        .ok_or("no x")?;
    let w = tensor(first.operand(1), "the weight")?;
    let n_dim = weight_n_dim(first, w.rank()) as i64;
    let weights: Vec<usize> = group.iter().map(|c| c.weight).collect();
    let (weight, reused) = concat_of(&weights, n_dim, entry, concats, last_concat)?;
    let bias = match group.iter().map(|c| c.bias).collect::<Option<Vec<usize>>>() {
        Some(biases) => Some(concat_of(&biases, 0, entry, concats, last_concat)?.0),
        None => None,
    };
    let out = tensor(first.result(0), "the result")?;
    let sizes: Vec<i64> = group.iter().map(|c| c.n).collect();
    let total = sizes
        .iter()
        .try_fold(0i64, |acc, n| acc.checked_add(*n))
        .ok_or("the merged output features overflow")?;
    let mut shape = out.shape.clone();
    let last = shape.len() - 1;
    shape[last] = Some(total);
    let raw = first.context_raw();
    let merged_ty = ir::tensor_type(raw, &shape, &out.elem)
        .ok_or_else(|| format!("no MLIR type for {}", out.elem))?;
    let b = OpBuilder::before(first);
    let merged = if first.is_kind(OpKind::Linear) {
        let bias_slot: Vec<Val> = bias.into_iter().collect();
        b.create(
            OpKind::Linear,
            &[&[x], &[weight], &bias_slot],
            &[merged_ty],
            &[],
        )?
    } else {
        let attrs: Vec<(String, Attr)> = first
            .attrs()
            .into_iter()
            .filter(|(n, _)| n == "transpose_a" || n == "transpose_b")
            .collect();
        let attrs: Vec<(&str, Attr)> = attrs.iter().map(|(n, a)| (n.as_str(), *a)).collect();
        b.create(OpKind::Matmul, &[&[x], &[weight]], &[merged_ty], &attrs)?
    };
    let piece_types: Vec<_> = group.iter().map(|c| c.op.result(0).ty().to_raw()).collect();
    let split = b.create(
        OpKind::Split,
        &[&[merged.result(0)]],
        &piece_types,
        &[
            ("dim", Attr::i64(raw, last as i64)),
            ("sizes", first.i64_array_attr(&sizes)),
        ],
    )?;
    for (i, c) in group.iter().enumerate() {
        c.op.result(0).replace_all_uses_with(split.result(i));
        // SAFETY: its one result's uses moved to the split; each candidate is in one group only.
        unsafe { c.op.erase() };
    }
    context.report.applied(
        PATTERN,
        merged,
        format!(
            "{} x {} on the same input -> one {} + dit.split {:?} (weight arguments {:?}{}{})",
            group.len(),
            merged.name(),
            merged.name(),
            sizes,
            weights,
            if bias.is_some() { ", with biases" } else { "" },
            if reused {
                ", weight concat shared with an earlier group"
            } else {
                ""
            }
        ),
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse() {
        assert_eq!(MergeHorizontal::from_options(&[]).unwrap().max_group, 8);
        let two = [("max-group".to_string(), "2".to_string())];
        assert_eq!(MergeHorizontal::from_options(&two).unwrap().max_group, 2);
        for bad in ["1", "0", "x", "-3"] {
            let o = [("max-group".to_string(), bad.to_string())];
            assert!(MergeHorizontal::from_options(&o).is_err(), "{bad}");
        }
        let unknown = [("size".to_string(), "2".to_string())];
        assert!(MergeHorizontal::from_options(&unknown).is_err());
    }
}
