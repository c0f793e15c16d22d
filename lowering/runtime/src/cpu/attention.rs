//! dit.attention: softmax(q·kᵀ·scale, masked)·v per batch and head.
//!
//! Layouts: "BNSD" `[B, N, S, D]` (default), "BSND" `[B, S, N, D]`, and "BSH" `[B, S, N·D]`.
//! BSH does not say how many heads the hidden size holds, so the reference needs an i64
//! attribute `num_heads` (q's head count) there; DIALECT.md has no such attribute yet, so a BSH
//! op without it is refused. k and v may have fewer heads than q (grouped-query attention): q
//! head h reads kv head h / (Nq / Nk). v's head dimension may differ from q's and k's.
//!
//! The mask's kind is the `mask_kind` attribute. "masked_out" (the default) follows
//! aclnnFusedInferAttentionScore's attenMask: a non-zero element means "do not attend"
//! (whatever the element type, i1 included). "additive" follows its pseShift with pseType 0
//! ("先mul再add", aclnnFusedInferAttentionScoreV5.md): the mask, of q's float type, is added
//! to the scaled scores, softmax(q·kᵀ·scale + mask)·v, which is torch's float `attn_mask` of
//! scaled_dot_product_attention; a -inf element masks its key out. Either way the mask's last
//! two dimensions are [query, key] (each may be 1); a 3-d mask is `[B, Sq, Skv]`, a 4-d one
//! `[B, N, Sq, Skv]`, and every leading dimension is either full or 1. A query row whose keys
//! are all masked yields zeros (the kernels do not produce NaN there).
//!
//! The bool attribute `causal` (default false) masks key j out of query i when j > i: torch's
//! `is_causal`, whose mask is `ones(Sq, Skv).tril()`, aligned at the top left also when
//! Sq != Skv (FusedInferAttentionScore's sparseMode 2, leftUpCausal). A causal op takes no mask
//! operand, as torch refuses attn_mask together with is_causal.

use super::{tensor_from, Ctx, Res};
use crate::{Tensor, TensorType};

/// The dimensions of one attention operand in a layout.
struct Heads {
    batch: usize,
    seq: usize,
    heads: usize,
    dim: usize,
}

/// Reads `[B, N, S, D]` / `[B, S, N, D]` / `[B, S, H]` (with the head count for BSH).
fn heads(ctx: &Ctx<'_>, t: &Tensor, layout: &str, n: Option<usize>, what: &str) -> Res<Heads> {
    let s = &t.shape;
    let rank = if layout == "BSH" { 3 } else { 4 };
    if s.len() != rank {
        return Err(ctx.err(format!(
            "{what} must have rank {rank} in layout {layout}, got shape {s:?}"
        )));
    }
    Ok(match layout {
        "BNSD" => Heads {
            batch: s[0],
            heads: s[1],
            seq: s[2],
            dim: s[3],
        },
        "BSND" => Heads {
            batch: s[0],
            seq: s[1],
            heads: s[2],
            dim: s[3],
        },
        _ => {
            let n = n.unwrap_or(0);
            if n == 0 || !s[2].is_multiple_of(n) {
                return Err(ctx.err(format!(
                    "{what}'s hidden size {} is not a multiple of its head count {n}",
                    s[2]
                )));
            }
            Heads {
                batch: s[0],
                seq: s[1],
                heads: n,
                dim: s[2] / n,
            }
        }
    })
}

/// Flat index of element (b, n, s, d) of a tensor in `layout` with dims `h`.
fn at(layout: &str, h: &Heads, b: usize, n: usize, s: usize, d: usize) -> usize {
    match layout {
        "BNSD" => ((b * h.heads + n) * h.seq + s) * h.dim + d,
        // BSH is BSND with N and D fused: the same memory order.
        _ => ((b * h.seq + s) * h.heads + n) * h.dim + d,
    }
}

/// dit.attention (q, k, v, mask?; scale, layout, and num_heads for BSH).
pub(crate) fn attention(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(4)?;
    let (q, k, v) = (ctx.input(0, "q")?, ctx.input(1, "k")?, ctx.input(2, "v")?);
    let mask = ctx.optional(3);
    let out = ctx.result()?;
    let additive =
        ctx.attr_enum("mask_kind", &["masked_out", "additive"], Some("masked_out"))? == "additive";
    let causal = ctx.attr_bool_or("causal", false)?;
    if causal && mask.is_some() {
        return Err(ctx.err("a causal attention takes no mask operand (causal = true is its mask)"));
    }
    let scale = ctx.attr_f64("scale")?;
    if !(scale.is_finite() && scale > 0.0) {
        return Err(ctx.err(format!("scale must be positive, got {scale}")));
    }
    let layout = ctx.attr_enum("layout", &["BNSD", "BSND", "BSH"], Some("BNSD"))?;
    for (t, what) in [(q, "q"), (k, "k"), (v, "v")] {
        ctx.float(t, what)?;
        if t.dtype != q.dtype {
            return Err(ctx.err("q, k and v element types differ"));
        }
    }
    let (qh, kh, vh) = if layout == "BSH" {
        let nq = ctx.attr_i64("num_heads").map_err(|_| {
            ctx.err("layout BSH needs an i64 attribute 'num_heads' (q's head count) to split the hidden size")
        })?;
        let nq = usize::try_from(nq).map_err(|_| ctx.err("num_heads must be positive"))?;
        let qh = heads(ctx, q, &layout, Some(nq), "q")?;
        // k's head count follows from q's head dimension.
        let nk = if qh.dim > 0 {
            k.shape.get(2).map_or(0, |h| h / qh.dim)
        } else {
            0
        };
        let kh = heads(ctx, k, &layout, Some(nk), "k")?;
        let vh = heads(ctx, v, &layout, Some(nk), "v")?;
        (qh, kh, vh)
    } else {
        (
            heads(ctx, q, &layout, None, "q")?,
            heads(ctx, k, &layout, None, "k")?,
            heads(ctx, v, &layout, None, "v")?,
        )
    };
    if qh.batch != kh.batch || kh.batch != vh.batch {
        return Err(ctx.err("q, k and v batch sizes differ"));
    }
    if kh.seq != vh.seq {
        return Err(ctx.err("k and v sequence lengths differ"));
    }
    if kh.heads != vh.heads {
        return Err(ctx.err("k and v head counts differ"));
    }
    if kh.heads == 0 || qh.heads % kh.heads != 0 {
        return Err(ctx.err(format!(
            "k's head count {} does not divide q's head count {}",
            kh.heads, qh.heads
        )));
    }
    if qh.dim != kh.dim {
        return Err(ctx.err(format!(
            "q and k head dimensions differ: {} vs {}",
            qh.dim, kh.dim
        )));
    }
    let mut shape = q.shape.clone();
    if let Some(last) = shape.last_mut() {
        *last = if layout == "BSH" {
            qh.heads * vh.dim
        } else {
            vh.dim
        };
    }
    ctx.result_is(out, &TensorType::new(q.dtype, shape), "result")?;
    let oh = Heads {
        batch: qh.batch,
        seq: qh.seq,
        heads: qh.heads,
        dim: vh.dim,
    };

    // The mask as a [B|1, N|1, Sq|1, Skv|1] array.
    let mask_dims = match mask {
        None => None,
        Some(m) => {
            let dims: [usize; 4] = match m.shape.as_slice() {
                [s, t] => [1, 1, *s, *t],
                [b, s, t] => [*b, 1, *s, *t],
                [b, n, s, t] => [*b, *n, *s, *t],
                _ => {
                    return Err(ctx.err(format!(
                        "mask must be [Sq, Skv], [B, Sq, Skv] or [B, N, Sq, Skv], got {:?}",
                        m.shape
                    )))
                }
            };
            let full = [qh.batch, qh.heads, qh.seq, kh.seq];
            if dims.iter().zip(full).any(|(&d, f)| d != 1 && d != f) {
                return Err(ctx.err(format!(
                    "mask {:?} does not broadcast to [batch {}, heads {}, query length {}, key length {}]",
                    m.shape, full[0], full[1], full[2], full[3]
                )));
            }
            if additive && m.dtype != q.dtype {
                return Err(ctx.err(format!(
                    "an additive mask must have q's element type {}, got {}",
                    q.dtype.mlir_name(),
                    m.dtype.mlir_name()
                )));
            }
            Some((m, dims))
        }
    };
    // The mask element for (b, n, i, j), broadcast over its size-1 dims.
    let mask_at = |b: usize, n: usize, i: usize, j: usize| -> Option<f64> {
        let (m, d) = mask_dims.as_ref()?;
        let pick = |x: usize, size: usize| if size == 1 { 0 } else { x };
        let idx =
            ((pick(b, d[0]) * d[1] + pick(n, d[1])) * d[2] + pick(i, d[2])) * d[3] + pick(j, d[3]);
        Some(m.get(idx))
    };
    let masked = |b: usize, n: usize, i: usize, j: usize| -> bool {
        (causal && j > i) || (!additive && mask_at(b, n, i, j).is_some_and(|v| v != 0.0))
    };
    // What an additive mask adds to a scaled score (0 without one).
    let bias = |b: usize, n: usize, i: usize, j: usize| -> f64 {
        if additive {
            mask_at(b, n, i, j).unwrap_or(0.0)
        } else {
            0.0
        }
    };

    let (qv, kv, vv) = (q.to_f64(), k.to_f64(), v.to_f64());
    let group = qh.heads / kh.heads;
    let mut y = vec![0f64; out.numel()];
    let mut scores = vec![0f64; kh.seq];
    for b in 0..qh.batch {
        for n in 0..qh.heads {
            let kvn = n / group;
            for i in 0..qh.seq {
                let mut max = f64::NEG_INFINITY;
                for (j, s) in scores.iter_mut().enumerate() {
                    *s = if masked(b, n, i, j) {
                        f64::NEG_INFINITY
                    } else {
                        let dot: f64 = (0..qh.dim)
                            .map(|d| {
                                qv[at(&layout, &qh, b, n, i, d)]
                                    * kv[at(&layout, &kh, b, kvn, j, d)]
                            })
                            .sum();
                        dot * scale + bias(b, n, i, j)
                    };
                    max = max.max(*s);
                }
                if max == f64::NEG_INFINITY {
                    // Every key masked (or no keys): the output row stays zero.
                    continue;
                }
                let total: f64 = scores.iter().map(|s| (s - max).exp()).sum();
                for d in 0..vh.dim {
                    let acc: f64 = scores
                        .iter()
                        .enumerate()
                        .map(|(j, s)| (s - max).exp() * vv[at(&layout, &vh, b, kvn, j, d)])
                        .sum();
                    y[at(&layout, &oh, b, n, i, d)] = acc / total;
                }
            }
        }
    }
    Ok(vec![tensor_from(ctx, out, &y)?])
}

#[cfg(test)]
mod tests {
    use super::super::execute;
    use super::super::test_util::*;
    use crate::{AttrValue, Attrs, DType, Tensor};

    fn a(scale: f64, layout: &str) -> Attrs {
        attrs(&[("scale", AttrValue::Float(scale)), ("layout", s(layout))])
    }

    /// Straightforward attention for one head: q [Sq, D], k [Skv, D], v [Skv, Dv].
    fn manual(
        q: &[Vec<f64>],
        k: &[Vec<f64>],
        v: &[Vec<f64>],
        scale: f64,
        mask: &dyn Fn(usize, usize) -> bool,
    ) -> Vec<Vec<f64>> {
        q.iter()
            .enumerate()
            .map(|(i, qi)| {
                let w: Vec<f64> = k
                    .iter()
                    .enumerate()
                    .map(|(j, kj)| {
                        if mask(i, j) {
                            0.0
                        } else {
                            (qi.iter().zip(kj).map(|(a, b)| a * b).sum::<f64>() * scale).exp()
                        }
                    })
                    .collect();
                let total: f64 = w.iter().sum();
                (0..v[0].len())
                    .map(|d| {
                        if total == 0.0 {
                            0.0
                        } else {
                            w.iter().zip(v).map(|(wj, vj)| wj * vj[d]).sum::<f64>() / total
                        }
                    })
                    .collect()
            })
            .collect()
    }

    fn rows(v: &[f64], d: usize) -> Vec<Vec<f64>> {
        v.chunks(d).map(<[f64]>::to_vec).collect()
    }

    #[test]
    fn single_head_matches_manual() {
        let qv = [0.1, 0.2, -0.3, 0.4, 0.5, -0.6];
        let kv = [0.3, -0.1, 0.2, 0.2, 0.0, 0.5, -0.4, 0.1, 0.3];
        let vv = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let q = t(DType::F32, &[1, 1, 2, 3], &qv);
        let k = t(DType::F32, &[1, 1, 3, 3], &kv);
        let v = t(DType::F32, &[1, 1, 3, 2], &vv);
        let r = execute(
            "dit.attention",
            &a(0.5, "BNSD"),
            &[Some(&q), Some(&k), Some(&v), None],
            &[ty(DType::F32, &[1, 1, 2, 2])],
        )
        .unwrap();
        let expected = manual(&rows(&qv, 3), &rows(&kv, 3), &rows(&vv, 2), 0.5, &|_, _| {
            false
        });
        close(&r[0].to_f64(), &expected.concat(), 1e-6);
        // Causal i1 mask: key j > query i is masked (non-zero = do not attend).
        let m = ti(DType::I1, &[2, 3], &[0, 1, 1, 0, 0, 1]);
        let r = execute(
            "dit.attention",
            &a(0.5, "BNSD"),
            &[Some(&q), Some(&k), Some(&v), Some(&m)],
            &[ty(DType::F32, &[1, 1, 2, 2])],
        )
        .unwrap();
        let expected = manual(&rows(&qv, 3), &rows(&kv, 3), &rows(&vv, 2), 0.5, &|i, j| {
            j > i
        });
        close(&r[0].to_f64(), &expected.concat(), 1e-6);
        assert_eq!(r[0].get(0), 1.0); // the first query sees only the first key
                                      // A fully masked row gives zeros.
        let all = ti(DType::I8, &[1, 3], &[1, 1, 1]);
        let r = execute(
            "dit.attention",
            &a(0.5, "BNSD"),
            &[Some(&q), Some(&k), Some(&v), Some(&all)],
            &[ty(DType::F32, &[1, 1, 2, 2])],
        )
        .unwrap();
        assert_eq!(r[0].to_f64(), vec![0.0; 4]);
    }

    #[test]
    fn additive_mask_is_added_to_the_scaled_scores() {
        // One query, two keys with q·k = 2 and 0, scale 0.5: scores 1 and 0. The additive mask
        // [ln 3, 0] makes them 1 + ln 3 and 0, so the weights are 3e/(3e+1) and 1/(3e+1).
        let q = t(DType::F32, &[1, 1, 1, 2], &[1.0, 1.0]);
        let k = t(DType::F32, &[1, 1, 2, 2], &[1.0, 1.0, 0.0, 0.0]);
        let v = t(DType::F32, &[1, 1, 2, 1], &[10.0, 20.0]);
        let additive = |scale: f64| {
            attrs(&[
                ("scale", AttrValue::Float(scale)),
                ("mask_kind", s("additive")),
            ])
        };
        let m = t(DType::F32, &[1, 1, 1, 2], &[3f64.ln(), 0.0]);
        let r = execute(
            "dit.attention",
            &additive(0.5),
            &[Some(&q), Some(&k), Some(&v), Some(&m)],
            &[ty(DType::F32, &[1, 1, 1, 1])],
        )
        .unwrap();
        let e = std::f64::consts::E;
        let expected = (3.0 * e * 10.0 + 20.0) / (3.0 * e + 1.0);
        // f32 rounding of the mask and the output: 1e-6.
        close(&r[0].to_f64(), &[expected], 1e-6);
        // The same non-zero mask read as "masked_out" drops the first key: v = 20.
        let r = execute(
            "dit.attention",
            &a(0.5, "BNSD"),
            &[Some(&q), Some(&k), Some(&v), Some(&m)],
            &[ty(DType::F32, &[1, 1, 1, 1])],
        )
        .unwrap();
        assert_eq!(r[0].to_f64(), vec![20.0]);
        // -inf masks a key out; a [1, 1] mask broadcasts over batch, heads and queries.
        let minf = t(DType::F32, &[1, 2], &[0.0, f64::NEG_INFINITY]);
        let r = execute(
            "dit.attention",
            &additive(0.5),
            &[Some(&q), Some(&k), Some(&v), Some(&minf)],
            &[ty(DType::F32, &[1, 1, 1, 1])],
        )
        .unwrap();
        assert_eq!(r[0].to_f64(), vec![10.0]);
        // An additive mask must have q's element type.
        let m16 = t(DType::BF16, &[1, 2], &[0.0, 0.0]);
        let msg = run_err(
            "dit.attention",
            &additive(0.5),
            &[Some(&q), Some(&k), Some(&v), Some(&m16)],
            &[ty(DType::F32, &[1, 1, 1, 1])],
        );
        assert!(msg.contains("additive mask"), "{msg}");
    }

    #[test]
    fn causal_is_aligned_at_the_top_left() {
        let causal = |scale: f64| {
            attrs(&[
                ("scale", AttrValue::Float(scale)),
                ("causal", AttrValue::Bool(true)),
            ])
        };
        // q = 0 gives equal scores, so query i's output is the mean of the v rows it sees.
        // Sq = 2 < Skv = 3: query 0 sees key 0, query 1 keys 0-1 (top-left alignment; a
        // bottom-right one would give [2, 3] and [3, 4]).
        let q = t(DType::F32, &[1, 1, 2, 2], &[0.0; 4]);
        let k = t(DType::F32, &[1, 1, 3, 2], &[0.3, -0.1, 0.2, 0.2, 0.0, 0.5]);
        let v = t(DType::F32, &[1, 1, 3, 2], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let r = execute(
            "dit.attention",
            &causal(0.5),
            &[Some(&q), Some(&k), Some(&v), None],
            &[ty(DType::F32, &[1, 1, 2, 2])],
        )
        .unwrap();
        assert_eq!(r[0].to_f64(), vec![1.0, 2.0, 2.0, 3.0]);
        // Sq = 3 > Skv = 2: the last query sees both keys.
        let q3 = t(DType::F32, &[1, 1, 3, 2], &[0.0; 6]);
        let k2 = t(DType::F32, &[1, 1, 2, 2], &[0.3, -0.1, 0.2, 0.2]);
        let v2 = t(DType::F32, &[1, 1, 2, 2], &[1.0, 2.0, 3.0, 4.0]);
        let r = execute(
            "dit.attention",
            &causal(0.5),
            &[Some(&q3), Some(&k2), Some(&v2), None],
            &[ty(DType::F32, &[1, 1, 3, 2])],
        )
        .unwrap();
        assert_eq!(r[0].to_f64(), vec![1.0, 2.0, 2.0, 3.0, 2.0, 3.0]);
        // Non-zero q: query 1 of 2 weighs keys 0 and 1 by exp(scale·q·k): q1 = [1, 1],
        // k0·q1 = 0.2, k1·q1 = 0.4, scale 0.5 → weights e^0.1 and e^0.2 over v rows 0 and 1.
        let q = t(DType::F32, &[1, 1, 2, 2], &[0.0, 0.0, 1.0, 1.0]);
        let r = execute(
            "dit.attention",
            &causal(0.5),
            &[Some(&q), Some(&k), Some(&v), None],
            &[ty(DType::F32, &[1, 1, 2, 2])],
        )
        .unwrap();
        let (w0, w1) = (0.1f64.exp(), 0.2f64.exp());
        let row1 = [
            (w0 * 1.0 + w1 * 3.0) / (w0 + w1),
            (w0 * 2.0 + w1 * 4.0) / (w0 + w1),
        ];
        close(&r[0].to_f64(), &[1.0, 2.0, row1[0], row1[1]], 1e-6);
        // causal = false is the unmasked attention.
        let mut off = causal(0.5);
        off.insert("causal".into(), AttrValue::Bool(false));
        let r = execute(
            "dit.attention",
            &off,
            &[Some(&q), Some(&k), Some(&v), None],
            &[ty(DType::F32, &[1, 1, 2, 2])],
        )
        .unwrap();
        assert_eq!(&r[0].to_f64()[..2], &[3.0, 4.0]);
        // A causal op with a mask is refused (torch refuses attn_mask with is_causal).
        let m = ti(DType::I1, &[2, 3], &[0; 6]);
        let msg = run_err(
            "dit.attention",
            &causal(0.5),
            &[Some(&q), Some(&k), Some(&v), Some(&m)],
            &[ty(DType::F32, &[1, 1, 2, 2])],
        );
        assert!(msg.contains("causal"), "{msg}");
    }

    #[test]
    fn gqa_and_layouts_agree() {
        // B=1, Nq=4, Nk=2, S=2, D=2 in BNSD; the same data in BSND and BSH.
        let qv: Vec<f64> = (0..16).map(|i| f64::from(i) * 0.1 - 0.7).collect();
        let kv: Vec<f64> = (0..8).map(|i| f64::from(i) * -0.2 + 0.5).collect();
        let vv: Vec<f64> = (0..8).map(f64::from).collect();
        let q = t(DType::F32, &[1, 4, 2, 2], &qv);
        let k = t(DType::F32, &[1, 2, 2, 2], &kv);
        let v = t(DType::F32, &[1, 2, 2, 2], &vv);
        let bnsd = execute(
            "dit.attention",
            &a(0.7, "BNSD"),
            &[Some(&q), Some(&k), Some(&v), None],
            &[ty(DType::F32, &[1, 4, 2, 2])],
        )
        .unwrap();
        // Head 3 uses kv head 1.
        let head = |x: &[f64], n: usize| rows(&x[n * 4..n * 4 + 4], 2);
        let expected3 = manual(&head(&qv, 3), &head(&kv, 1), &head(&vv, 1), 0.7, &|_, _| {
            false
        });
        close(&bnsd[0].to_f64()[12..16], &expected3.concat(), 1e-6);
        let expected0 = manual(&head(&qv, 0), &head(&kv, 0), &head(&vv, 0), 0.7, &|_, _| {
            false
        });
        close(&bnsd[0].to_f64()[0..4], &expected0.concat(), 1e-6);

        // BNSD → BSND by swapping N and S.
        let to_bsnd = |x: &Tensor, n: usize| {
            let vals = x.to_f64();
            let mut out = vec![0.0; vals.len()];
            for h in 0..n {
                for s in 0..2 {
                    for d in 0..2 {
                        out[(s * n + h) * 2 + d] = vals[(h * 2 + s) * 2 + d];
                    }
                }
            }
            out
        };
        let qs = t(DType::F32, &[1, 2, 4, 2], &to_bsnd(&q, 4));
        let ks = t(DType::F32, &[1, 2, 2, 2], &to_bsnd(&k, 2));
        let vs = t(DType::F32, &[1, 2, 2, 2], &to_bsnd(&v, 2));
        let bsnd = execute(
            "dit.attention",
            &a(0.7, "BSND"),
            &[Some(&qs), Some(&ks), Some(&vs), None],
            &[ty(DType::F32, &[1, 2, 4, 2])],
        )
        .unwrap();
        close(&bsnd[0].to_f64(), &to_bsnd(&bnsd[0], 4), 1e-12);
        // BSH: the same bytes as [1, 2, 8] with num_heads = 4.
        let qh = t(DType::F32, &[1, 2, 8], &qs.to_f64());
        let kh = t(DType::F32, &[1, 2, 4], &ks.to_f64());
        let vh = t(DType::F32, &[1, 2, 4], &vs.to_f64());
        let mut bsh_attrs = a(0.7, "BSH");
        bsh_attrs.insert("num_heads".into(), AttrValue::Int(4));
        let bsh = execute(
            "dit.attention",
            &bsh_attrs,
            &[Some(&qh), Some(&kh), Some(&vh), None],
            &[ty(DType::F32, &[1, 2, 8])],
        )
        .unwrap();
        close(&bsh[0].to_f64(), &bsnd[0].to_f64(), 1e-12);
        let msg = run_err(
            "dit.attention",
            &a(0.7, "BSH"),
            &[Some(&qh), Some(&kh), Some(&vh), None],
            &[ty(DType::F32, &[1, 2, 8])],
        );
        assert!(msg.contains("num_heads"), "{msg}");
        // Three kv heads do not divide four q heads.
        let k3 = Tensor::zeros(ty(DType::F32, &[1, 3, 2, 2]));
        let msg = run_err(
            "dit.attention",
            &a(0.7, "BNSD"),
            &[Some(&q), Some(&k3), Some(&k3), None],
            &[ty(DType::F32, &[1, 4, 2, 2])],
        );
        assert!(msg.contains("does not divide"), "{msg}");
        let bad_mask = ti(DType::I1, &[3, 2], &[0; 6]);
        let msg = run_err(
            "dit.attention",
            &a(0.7, "BNSD"),
            &[Some(&q), Some(&k), Some(&v), Some(&bad_mask)],
            &[ty(DType::F32, &[1, 4, 2, 2])],
        );
        assert!(msg.contains("mask"), "{msg}");
    }
}
