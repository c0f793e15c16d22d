//! `dit-sink-transpose`: moves layout transposes down through ops that do not care about the
//! order of the other dims (elementwise unary ops, norms and rope over the last dim, concat),
//! and folds the head transposes around attention into its `layout` attribute. A DiT block
//! transposes Q, K and V from [B, S, N, D] to [B, N, S, D] for attention and back afterwards;
//! attention reads [B, S, N, D] itself (layout "BSND"), so those transposes cost a kernel each
//! for nothing. dit-canonicalize then cancels the transposes that meet.

use crate::{
    registry::{DitPass, PassContext, PassFailed},
    transforms::greedy::{self, Pattern, Rewriter},
};
use dit_dialect::{
    ir::{build_detached_op, Attr, Op, Val},
    ops::{i64_array_attr, i64_attr, str_attr, OpKind},
    tensor::TensorInfo,
};
use melior::ir::TypeLike;

/// The pass.
pub struct SinkTranspose;

impl DitPass for SinkTranspose {
    fn run(&mut self, module: Op, context: &PassContext) -> Result<(), PassFailed> {
        // Each rewrite moves one transpose one op down (or into attention); the new transpose
        // below the op is then visited by the driver and meets its next consumer. Every
        // rewrite moves a transpose towards the end of its block, so the driver converges; the
        // rewrite budget (per pass of the driver over the IR) bounds a pathological graph, as
        // the hand-written loop's budget did.
        let config = greedy::Config {
            max_iterations: -1,
            max_rewrites: 100_000,
            fold: false,
        };
        // SAFETY: the pass holds no handle into the module but `module` itself.
        unsafe { greedy::apply(module, &patterns(), context, config) };
        Ok(())
    }
}

/// Whether a transpose sinks through `kind`: elementwise unary ops (the op table) and cast map
/// each element to itself; rms_norm and rope work on the last dim only.
fn sinks_through(kind: OpKind) -> bool {
    kind.is_unary() || matches!(kind, OpKind::Cast | OpKind::RmsNorm | OpKind::Rope)
}

/// One pattern per op kind a transpose moves below, plus concat and attention.
fn patterns() -> Vec<Pattern<PassContext>> {
    let below = OpKind::ALL
        .into_iter()
        .filter(|k| sinks_through(*k))
        .map(|root| Pattern {
            root,
            benefit: 1,
            rewrite: sink_below as greedy::RewriteFn<PassContext>,
        });
    below
        .chain([
            Pattern {
                root: OpKind::Concat,
                benefit: 1,
                rewrite: sink_below_concat,
            },
            Pattern {
                root: OpKind::Attention,
                benefit: 1,
                rewrite: fold_into_attention,
            },
        ])
        .collect()
}

/// The perm of a single-use dit.transpose feeding `v`, with its input.
fn transposed<'a>(v: Val<'a>) -> Option<(Op<'a>, Vec<i64>, Val<'a>)> {
    let t = v.defining_op().filter(|t| t.is_kind(OpKind::Transpose))?;
    (v.use_count() == 1).then_some(())?;
    Some((t, i64_array_attr(t, "perm")?, t.operand(0)))
}

/// `shape` permuted: result[i] = shape[perm[i]].
fn permute<T: Clone>(shape: &[T], perm: &[i64]) -> Option<Vec<T>> {
    perm.iter()
        .map(|&p| shape.get(usize::try_from(p).ok()?).cloned())
        .collect()
}

/// The inverse permutation.
fn inverse(perm: &[i64]) -> Vec<i64> {
    let mut inv = vec![0; perm.len()];
    for (i, &p) in perm.iter().enumerate() {
        if let Some(slot) = usize::try_from(p).ok().and_then(|p| inv.get_mut(p)) {
            *slot = i as i64;
        }
    }
    inv
}

fn keeps_last(perm: &[i64]) -> bool {
    perm.last().is_some_and(|&p| p == perm.len() as i64 - 1)
}

/// Builds `transpose(x, perm)` of type `out`, located at `at`, not yet in a block.
fn detached_transpose<'a>(at: Op<'a>, x: Val<'a>, perm: &[i64], out: &TensorInfo) -> Op<'a> {
    let t = build_detached_op(
        at,
        OpKind::Transpose.name(),
        &[x],
        &[x.ty().to_raw()],
        &[("perm", at.i64_array_attr(perm))],
    );
    t.result(0).set_tensor_type(&out.shape, x);
    t
}

/// Gives `op` (already reading the untransposed inputs) its result in their layout,
/// `new_shape`, and puts `transpose(result, perm)` (of the old type `out`) before `after`, the
/// op that follows it, for every old user.
fn transpose_back(
    op: Op,
    rewriter: &Rewriter,
    after: Op,
    perm: &[i64],
    out: &TensorInfo,
    new_shape: &[Option<i64>],
) {
    let result = op.result(0);
    rewriter.set_result_type(op, result, new_shape, result);
    let back = rewriter.insert_before(after, detached_transpose(after, result, perm, out));
    rewriter.replace_all_uses_except(result, back.result(0), back);
}

/// A transpose feeding an elementwise op, rms_norm or rope moves below it:
/// op(T(x)) == T(op'(x)), where op' runs on x's layout.
fn sink_below(op: Op, rewriter: &Rewriter, context: &PassContext) -> bool {
    sink_below_op(op, rewriter, context).is_some()
}

fn sink_below_op(op: Op, rewriter: &Rewriter, context: &PassContext) -> Option<()> {
    let n = op.kind()?;
    let (t, perm, x) = transposed(op.operand(0))?;
    if !keeps_last(&perm) {
        return None;
    }
    x.tensor()?;
    // rope's tables broadcast over the transposed x: give them the inverse order, which
    // only moves size-1 dims when they broadcast (then a reshape, a view).
    let mut tables = Vec::new();
    if n == OpKind::Rope {
        for i in 1..3 {
            let table = op.operand(i);
            let tt = table.tensor()?;
            if tt.rank() != perm.len() {
                return None;
            }
            let shape = permute(&tt.shape, &inverse(&perm))?;
            let moved: Vec<i64> = tt
                .shape
                .iter()
                .filter(|d| **d != Some(1))
                .map(|d| d.unwrap_or(-1))
                .collect();
            let kept: Vec<i64> = shape
                .iter()
                .filter(|d| **d != Some(1))
                .map(|d| d.unwrap_or(-1))
                .collect();
            if moved != kept || tt.shape.iter().any(|d| d.is_none()) {
                return None;
            }
            tables.push((i, table, shape));
        }
    }
    let out = op.result(0).tensor()?;
    let new_shape = permute(&out.shape, &inverse(&perm))?;
    let after = op.next_in_block()?;
    // Everything is checked: from here on the rewrite always completes.
    rewriter.set_operand(op, 0, x);
    for (i, table, shape) in tables {
        let r = build_detached_op(
            op,
            OpKind::Reshape.name(),
            &[table],
            &[table.ty().to_raw()],
            &[],
        );
        r.result(0).set_tensor_type(&shape, table);
        let r = rewriter.insert_before(op, r);
        rewriter.set_operand(op, i, r.result(0));
    }
    transpose_back(op, rewriter, after, &perm, &out, &new_shape);
    // SAFETY: `t`'s result had one use (`transposed` checks it), which now reads `x`; `t` is
    // not read afterwards.
    unsafe { rewriter.erase(t) };
    report(context, op, format!("transpose moved below {n}"));
    Some(())
}

/// Transposes of one perm feeding every piece of a concat move below it (the concat dim
/// follows the perm).
fn sink_below_concat(op: Op, rewriter: &Rewriter, context: &PassContext) -> bool {
    sink_below_concat_op(op, rewriter, context).is_some()
}

fn sink_below_concat_op(op: Op, rewriter: &Rewriter, context: &PassContext) -> Option<()> {
    let inputs = op.operands();
    let parts: Vec<(Op, Vec<i64>, Val)> = inputs
        .iter()
        .map(|v| transposed(*v))
        .collect::<Option<_>>()?;
    let perm = parts.first()?.1.clone();
    if parts.iter().any(|p| p.1 != perm) {
        return None;
    }
    let dim = i64_attr(op, "dim")?;
    let rank = perm.len() as i64;
    let d = if dim < 0 { dim + rank } else { dim };
    let new_dim = *perm.get(usize::try_from(d).ok()?)?;
    let out = op.result(0).tensor()?;
    let new_shape = permute(&out.shape, &inverse(&perm))?;
    let after = op.next_in_block()?;
    rewriter.modify(op, || {
        for (i, p) in parts.iter().enumerate() {
            op.set_operand(i, p.2);
        }
        op.set_attr("dim", Attr::i64(op.context_raw(), new_dim));
    });
    transpose_back(op, rewriter, after, &perm, &out, &new_shape);
    for p in parts {
        // SAFETY: each transpose's result had one use (`transposed` checks it), which now
        // reads its input, so no transpose is listed twice; none is read afterwards.
        unsafe { rewriter.erase(p.0) };
    }
    report(context, op, "transposes moved below concat".to_string());
    Some(())
}

/// The BNSD head transposes of q, k and v fold into attention's layout BSND.
fn fold_into_attention(op: Op, rewriter: &Rewriter, context: &PassContext) -> bool {
    fold_into_attention_op(op, rewriter, context).is_some()
}

fn fold_into_attention_op(op: Op, rewriter: &Rewriter, context: &PassContext) -> Option<()> {
    const TO_BNSD: [i64; 4] = [0, 2, 1, 3];
    // A mask (operand 3) stays as it is: its dims are [B|1, N|1, Q_S, KV_S] in every
    // layout (aclnnFusedInferAttentionScoreV2.md: pseShiftOptional "(B,N,Q_S,KV_S) 或
    // (1,N,Q_S,KV_S), 其中Q_S为query的shape中的S"; attenMaskOptional likewise by Q_S and
    // KV_S), so only q, k and v change layout.
    if str_attr(op, "layout").as_deref().unwrap_or("BNSD") != "BNSD"
        || !(3..=4).contains(&op.num_operands())
    {
        return None;
    }
    let parts: Vec<(Op, Vec<i64>, Val)> = (0..3)
        .map(|i| transposed(op.operand(i)))
        .collect::<Option<_>>()?;
    if parts.iter().any(|p| p.1 != TO_BNSD) {
        return None;
    }
    let out = op.result(0).tensor()?;
    let new_shape = permute(&out.shape, &TO_BNSD)?;
    let after = op.next_in_block()?;
    rewriter.modify(op, || {
        for (i, p) in parts.iter().enumerate() {
            op.set_operand(i, p.2);
        }
        op.set_attr("layout", Attr::string(op.context_raw(), "BSND"));
    });
    transpose_back(op, rewriter, after, &TO_BNSD, &out, &new_shape);
    for p in parts {
        // SAFETY: as in concat's rewrite: one use each, now gone, and none is read afterwards.
        unsafe { rewriter.erase(p.0) };
    }
    report(
        context,
        op,
        "q, k, v head transposes folded into layout BSND".to_string(),
    );
    Some(())
}

fn report(context: &PassContext, op: Op, detail: String) {
    context.report.applied("dit-sink-transpose", op, detail);
}
