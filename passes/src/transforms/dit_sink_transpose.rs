//! `dit-sink-transpose`: moves layout transposes down through ops that do not care about the
//! order of the other dims (elementwise unary ops, norms and rope over the last dim, concat),
//! and folds the head transposes around attention into its `layout` attribute. A DiT block
//! transposes Q, K and V from [B, S, N, D] to [B, N, S, D] for attention and back afterwards;
//! attention reads [B, S, N, D] itself (layout "BSND"), so those transposes cost a kernel each
//! for nothing. dit-canonicalize then cancels the transposes that meet.

use crate::registry::{DitPass, PassContext, PassFailed};
use dit_dialect::{
    ir::{create_op_before, Attr, Op, Val},
    ops::{i64_array_attr, i64_attr, str_attr, OpKind},
    tensor::TensorInfo,
};
use melior::ir::TypeLike;

/// The pass.
pub struct SinkTranspose;

impl DitPass for SinkTranspose {
    fn run(&mut self, module: Op, context: &PassContext) -> Result<(), PassFailed> {
        // Each rewrite moves one transpose one op down (or into attention). A round visits the
        // ops in program order, so a moved transpose meets its next consumer in the same
        // round; rounds repeat to a fixed point, bounded by a rewrite budget. A rewrite erases
        // only the transposes feeding the op it visits, which come before it: the rest of the
        // round's list stays alive.
        let mut budget = 100_000usize;
        loop {
            let mut ops = Vec::new();
            module.walk(&mut |op| ops.push(op));
            let mut changed = false;
            for op in ops {
                if budget == 0 {
                    break;
                }
                if sink_once(op, context).is_some() {
                    changed = true;
                    budget -= 1;
                }
            }
            if !changed || budget == 0 {
                break;
            }
        }
        Ok(())
    }
}

/// The perm of a single-use dit.transpose feeding `v`, with its input.
fn transposed(v: Val) -> Option<(Op, Vec<i64>, Val)> {
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

/// A tensor type like `like`'s element type with `shape`.
fn retype(v: Val, shape: &[Option<i64>], like: Val) {
    v.set_tensor_type(shape, like);
}

/// Creates `transpose(x, perm)` before `anchor` and returns its result.
fn make_transpose(anchor: Op, x: Val, perm: &[i64], out: &TensorInfo) -> Val {
    let t = create_op_before(
        anchor,
        OpKind::Transpose.name(),
        &[x],
        &[x.ty().to_raw()],
        &[("perm", anchor.i64_array_attr(perm))],
    );
    retype(t.result(0), &out.shape, x);
    t.result(0)
}

/// One rewrite at `op`, if one applies.
fn sink_once(op: Op, context: &PassContext) -> Option<()> {
    // Elementwise unary ops (the op table) and cast: each element maps to itself.
    let elementwise = |k: OpKind| k.is_unary() || k == OpKind::Cast;
    match op.kind()? {
        n if elementwise(n) || n == OpKind::RmsNorm || n == OpKind::Rope => {
            let (t, perm, x) = transposed(op.operand(0))?;
            if !keeps_last(&perm) {
                return None;
            }
            let xt = x.tensor()?;
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
            let result = op.result(0);
            let out = result.tensor()?;
            // op(T(x)) == T(op'(x)): op' runs on x's layout.
            op.set_operand(0, x);
            for (i, table, shape) in tables {
                let r = create_op_before(
                    op,
                    OpKind::Reshape.name(),
                    &[table],
                    &[table.ty().to_raw()],
                    &[],
                );
                retype(r.result(0), &shape, table);
                op.set_operand(i, r.result(0));
            }
            let new_shape = permute(&out.shape, &inverse(&perm))?;
            retype(result, &new_shape, result);
            let _ = xt;
            let after = op.next_in_block()?;
            let back = make_transpose(after, result, &perm, &out);
            result.replace_all_uses_except(back, back.defining_op()?);
            t.erase();
            report(context, op, format!("transpose moved below {n}"));
            Some(())
        }
        OpKind::Concat => {
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
            let result = op.result(0);
            let out = result.tensor()?;
            for (i, p) in parts.iter().enumerate() {
                op.set_operand(i, p.2);
            }
            op.set_attr("dim", Attr::i64(op.context_raw(), new_dim));
            retype(result, &permute(&out.shape, &inverse(&perm))?, result);
            let after = op.next_in_block()?;
            let back = make_transpose(after, result, &perm, &out);
            result.replace_all_uses_except(back, back.defining_op()?);
            for p in parts {
                p.0.erase();
            }
            report(context, op, "transposes moved below concat".to_string());
            Some(())
        }
        OpKind::Attention => {
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
            let result = op.result(0);
            let out = result.tensor()?;
            for (i, p) in parts.iter().enumerate() {
                op.set_operand(i, p.2);
            }
            op.set_attr("layout", Attr::string(op.context_raw(), "BSND"));
            retype(result, &permute(&out.shape, &TO_BNSD)?, result);
            let after = op.next_in_block()?;
            let back = make_transpose(after, result, &TO_BNSD, &out);
            result.replace_all_uses_except(back, back.defining_op()?);
            for p in parts {
                p.0.erase();
            }
            report(
                context,
                op,
                "q, k, v head transposes folded into layout BSND".to_string(),
            );
            Some(())
        }
        _ => None,
    }
}

fn report(context: &PassContext, op: Op, detail: String) {
    context.report.applied("dit-sink-transpose", op, detail);
}
