//! dit.kv_rms_norm_rope_cache (KvRmsNormRopeCache, the DeepSeek MLA cache update): kv's last
//! dimension 576 splits into 512 values that are RMS-normalised (→ ckv_cache) and 64 that are
//! rotated (→ k_cache); each token's results are scattered into the caches at `index`.
//!
//! What the reference implements, from CANN's op documentation and kernels:
//! - kv is `[B, N, S, 576]`; cos/sin broadcast to `[B, N, S, 64]` (CANN: `[B, 1, S, 64]` or
//!   `[B, 1, 1, 64]`).
//! - rope is the "interleave-half" form: x1 = x[0::2], x2 = x[1::2], y = cat(x1, x2)·cos +
//!   cat(-x2, x1)·sin, so the cache holds the de-interleaved rotation.
//! - rms: y = x / sqrt(mean(x²) + ε) · γ. Both results are rounded to kv's type before they
//!   are stored (the kernel casts them back to kv's type).
//! - cache_mode "Norm": caches `[Bc, N, Sc, D]`, index `[B, S]`, token (b, s) goes to
//!   `cache[b, n, index[b, s]]`.
//! - "PA" / "PA_BNSD": caches `[BlockNum, BlockSize, N, D]`, index `[B·S]` holds a slot
//!   `block·BlockSize + offset`.
//! - "PA_BLK_BNSD": index `[B·ceil(S / BlockSize)]` holds one slot per page of BlockSize tokens;
//!   token s goes to block `index[b·pages + s / BlockSize] / BlockSize`, offset `s % BlockSize`.
//! - "PA_NZ" / "PA_BLK_NZ": the same slots, but each block is stored in the NZ layout the
//!   kernel writes: element d of the token at offset t of block p sits at
//!   `p·BlockSize·D + (d / D0)·BlockSize·D0 + t·D0 + d % D0`, D0 = 32 bytes / element size
//!   (N must be 1 there, as CANN requires).
//!
//! A negative index skips the token. int8 caches need the k_rope/c_kv scale operands, which
//! the dialect does not carry, so caches must be float. The results are the updated caches.

use super::{broadcast_values, rope::rotate, Ctx, Res};
use crate::{DType, Tensor};

const NORM: usize = 512;
const ROPE: usize = 64;

/// Where one token's vector of `d` values goes in a cache, or `None` to skip it.
struct Dest {
    /// Flat element index of each of the `d` values.
    offsets: Vec<usize>,
}

/// dit.kv_rms_norm_rope_cache (kv, gamma, cos, sin, index, k_cache, ckv_cache; epsilon,
/// cache_mode) → (k_cache, ckv_cache).
pub(crate) fn kv_rms_norm_rope_cache(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(7)?;
    let kv = ctx.input(0, "kv")?;
    let gamma = ctx.input(1, "gamma")?;
    let (cos, sin) = (ctx.input(2, "cos")?, ctx.input(3, "sin")?);
    let index = ctx.input(4, "index")?;
    let (k_cache, ckv_cache) = (ctx.input(5, "k_cache")?, ctx.input(6, "ckv_cache")?);
    let outs = ctx.results(2)?;
    let eps = ctx.epsilon()?;
    let mode = ctx.attr_enum(
        "cache_mode",
        &["Norm", "PA", "PA_BNSD", "PA_NZ", "PA_BLK_BNSD", "PA_BLK_NZ"],
        None,
    )?;
    ctx.float(kv, "kv")?;
    let [b, n, s, d] = kv.shape[..] else {
        return Err(ctx.err(format!("kv must be [B, N, S, 576], got {:?}", kv.shape)));
    };
    if d != NORM + ROPE {
        return Err(ctx.err(format!(
            "kv's last dimension must be 576 (512 normalised + 64 rotary), got {d}"
        )));
    }
    ctx.float(gamma, "gamma")?;
    ctx.shape_is(gamma, &[NORM], "gamma")?;
    let rope_shape = [b, n, s, ROPE];
    for (t, what) in [(cos, "cos"), (sin, "sin")] {
        ctx.float(t, what)?;
        if t.shape.last() != Some(&ROPE) {
            return Err(ctx.err(format!(
                "{what}'s last dimension must be 64, got {:?}",
                t.shape
            )));
        }
    }
    let cv = broadcast_values(ctx, cos, &rope_shape, "cos")?;
    let sv = broadcast_values(ctx, sin, &rope_shape, "sin")?;
    ctx.dtype_in(index, &[DType::I64, DType::I32], "index")?;
    for (cache, what) in [(k_cache, "k_cache"), (ckv_cache, "ckv_cache")] {
        if !cache.dtype.is_float() {
            return Err(ctx.err(format!(
                "{what} is {}: quantised caches need k_rope/c_kv scales, which the dialect does not carry",
                cache.dtype.mlir_name()
            )));
        }
    }
    ctx.result_is(&outs[0], &k_cache.ty(), "result #0 (k_cache)")?;
    ctx.result_is(&outs[1], &ckv_cache.ty(), "result #1 (ckv_cache)")?;
    let layout = Layout::new(ctx, &mode, index, k_cache, ckv_cache, [b, n, s])?;

    let mut k_out = k_cache.clone();
    let mut ckv_out = ckv_cache.clone();
    let kvv = kv.to_f64();
    let g = gamma.to_f64();
    for bi in 0..b {
        for ni in 0..n {
            for si in 0..s {
                let token = (bi * n + ni) * s + si;
                let row = &kvv[token * d..(token + 1) * d];
                // RMS norm of the first 512 values.
                let ms = row[..NORM].iter().map(|x| x * x).sum::<f64>() / NORM as f64;
                let inv = 1.0 / (ms + eps).sqrt();
                let normed: Vec<f64> = row[..NORM]
                    .iter()
                    .zip(&g)
                    .map(|(x, g)| kv.dtype.round(x * inv * g))
                    .collect();
                // De-interleave the last 64, then rotate-half.
                let x = &row[NORM..];
                let part1: Vec<f64> = (0..ROPE)
                    .map(|j| {
                        if j < ROPE / 2 {
                            x[2 * j]
                        } else {
                            x[2 * (j - ROPE / 2) + 1]
                        }
                    })
                    .collect();
                let part2 = rotate(&part1, false);
                let roped: Vec<f64> = (0..ROPE)
                    .map(|j| {
                        let at = token * ROPE + j;
                        kv.dtype.round(part1[j] * cv[at] + part2[j] * sv[at])
                    })
                    .collect();
                if let Some(dest) = layout.dest(ctx, &k_out, bi, ni, si, ROPE)? {
                    for (o, v) in dest.offsets.iter().zip(&roped) {
                        k_out.set(*o, *v);
                    }
                }
                if let Some(dest) = layout.dest(ctx, &ckv_out, bi, ni, si, NORM)? {
                    for (o, v) in dest.offsets.iter().zip(&normed) {
                        ckv_out.set(*o, *v);
                    }
                }
            }
        }
    }
    Ok(vec![k_out, ckv_out])
}

/// The cache layout of one cache_mode with its index values.
struct Layout {
    mode: String,
    index: Vec<i64>,
    /// kv's (B, N, S).
    bns: [usize; 3],
}

impl Layout {
    fn new(
        ctx: &Ctx<'_>,
        mode: &str,
        index: &Tensor,
        k_cache: &Tensor,
        ckv_cache: &Tensor,
        bns: [usize; 3],
    ) -> Res<Layout> {
        let [b, n, s] = bns;
        for (cache, d, what) in [(k_cache, ROPE, "k_cache"), (ckv_cache, NORM, "ckv_cache")] {
            let ok = match (mode, &cache.shape[..]) {
                ("Norm", [_, cn, _, cd]) => *cn == n && *cd == d,
                (_, [_, bs, cn, cd]) if mode != "Norm" => *cn == n && *cd == d && *bs > 0,
                _ => false,
            };
            if !ok {
                let expected = if mode == "Norm" {
                    format!("[Bcache, {n}, Scache, {d}]")
                } else {
                    format!("[BlockNum, BlockSize, {n}, {d}]")
                };
                return Err(ctx.err(format!(
                    "{what} must be {expected} in cache_mode {mode}, got {:?}",
                    cache.shape
                )));
            }
        }
        if mode != "Norm" && k_cache.shape[1] != ckv_cache.shape[1] {
            return Err(ctx.err("k_cache and ckv_cache block sizes differ"));
        }
        if mode.ends_with("NZ") {
            if n != 1 {
                return Err(ctx.err(format!("NZ cache modes need N = 1, got {n}")));
            }
            for cache in [k_cache, ckv_cache] {
                let d0 = 32 / (cache.dtype.bits() / 8);
                if cache.shape[3] % d0 != 0 {
                    return Err(ctx.err("NZ caches need a 32-byte aligned last dimension"));
                }
            }
        }
        let expected: Vec<usize> = match mode {
            "Norm" => vec![b, s],
            "PA" | "PA_BNSD" | "PA_NZ" => vec![b * s],
            _ => vec![b * s.div_ceil(k_cache.shape[1])],
        };
        ctx.shape_is(index, &expected, &format!("index (cache_mode {mode})"))?;
        Ok(Layout {
            mode: mode.to_string(),
            index: index.to_i64(),
            bns,
        })
    }

    /// Where token (b, n, s)'s `d` values go in `cache`, `None` when its index is negative.
    fn dest(
        &self,
        ctx: &Ctx<'_>,
        cache: &Tensor,
        b: usize,
        n: usize,
        s: usize,
        d: usize,
    ) -> Res<Option<Dest>> {
        let [_, heads, seq] = self.bns;
        let shape = &cache.shape;
        let out_of_range = |v: i64, limit: usize| {
            ctx.err(format!(
                "index value {v} is out of range [-1, {limit}) for cache_mode {}",
                self.mode
            ))
        };
        let contiguous = |start: usize| Dest {
            offsets: (start..start + d).collect(),
        };
        if self.mode == "Norm" {
            let v = self.index[b * seq + s];
            if v < 0 {
                return Ok(None);
            }
            let (bc, sc) = (shape[0], shape[2]);
            if v as u64 >= sc as u64 || b >= bc {
                return Err(out_of_range(v, sc));
            }
            return Ok(Some(contiguous(((b * heads + n) * sc + v as usize) * d)));
        }
        let (blocks, bs) = (shape[0], shape[1]);
        let (slot, v) = if self.mode.starts_with("PA_BLK") {
            let pages = seq.div_ceil(bs);
            let v = self.index[b * pages + s / bs];
            if v < 0 {
                return Ok(None);
            }
            // The page's block, at the token's offset within its page.
            ((v as u64 / bs as u64) * bs as u64 + (s % bs) as u64, v)
        } else {
            let v = self.index[b * seq + s];
            if v < 0 {
                return Ok(None);
            }
            (v as u64, v)
        };
        if slot >= (blocks as u64) * (bs as u64) {
            return Err(out_of_range(v, blocks * bs));
        }
        let (block, offset) = (slot as usize / bs, slot as usize % bs);
        if self.mode.ends_with("NZ") {
            let d0 = 32 / (cache.dtype.bits() / 8);
            let base = block * bs * d;
            return Ok(Some(Dest {
                offsets: (0..d)
                    .map(|e| base + (e / d0) * bs * d0 + offset * d0 + e % d0)
                    .collect(),
            }));
        }
        Ok(Some(contiguous(((block * bs + offset) * heads + n) * d)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::execute;
    use super::super::test_util::*;
    use super::*;
    use crate::{AttrValue, Attrs};

    /// The result types: the caches' own.
    fn result_types(k_cache: &Tensor, ckv_cache: &Tensor) -> [crate::TensorType; 2] {
        [k_cache.ty(), ckv_cache.ty()]
    }

    fn a(mode: &str) -> Attrs {
        attrs(&[("epsilon", AttrValue::Float(1e-5)), ("cache_mode", s(mode))])
    }

    /// kv [1,1,2,576], cos/sin [1,1,2,64] as random bf16 values.
    fn inputs() -> (Tensor, Tensor, Tensor, Tensor) {
        let kv = Tensor::random(ty(DType::BF16, &[1, 1, 2, 576]), 1, (-2.0, 2.0));
        let gamma = Tensor::random(ty(DType::BF16, &[512]), 2, (0.5, 1.5));
        let cos = Tensor::random(ty(DType::BF16, &[1, 1, 2, 64]), 3, (-1.0, 1.0));
        let sin = Tensor::random(ty(DType::BF16, &[1, 1, 2, 64]), 4, (-1.0, 1.0));
        (kv, gamma, cos, sin)
    }

    /// The expected (rope, norm) vectors of token `t`.
    fn expected(
        kv: &Tensor,
        gamma: &Tensor,
        cos: &Tensor,
        sin: &Tensor,
        t: usize,
    ) -> (Vec<f64>, Vec<f64>) {
        let row: Vec<f64> = (0..576).map(|i| kv.get(t * 576 + i)).collect();
        let ms = row[..512].iter().map(|x| x * x).sum::<f64>() / 512.0;
        let norm: Vec<f64> = (0..512)
            .map(|i| DType::BF16.round(row[i] / (ms + 1e-5).sqrt() * gamma.get(i)))
            .collect();
        let x = &row[512..];
        let rope: Vec<f64> = (0..64)
            .map(|j| {
                let (c, s) = (cos.get(t * 64 + j), sin.get(t * 64 + j));
                let v = if j < 32 {
                    x[2 * j] * c - x[2 * j + 1] * s
                } else {
                    x[2 * (j - 32) + 1] * c + x[2 * (j - 32)] * s
                };
                DType::BF16.round(v)
            })
            .collect();
        (rope, norm)
    }

    fn run_mode(mode: &str, index: &Tensor, kc: &Tensor, cc: &Tensor) -> Vec<Tensor> {
        let (kv, gamma, cos, sin) = inputs();
        execute(
            "dit.kv_rms_norm_rope_cache",
            &a(mode),
            &[
                Some(&kv),
                Some(&gamma),
                Some(&cos),
                Some(&sin),
                Some(index),
                Some(kc),
                Some(cc),
            ],
            &result_types(kc, cc),
        )
        .unwrap()
    }

    #[test]
    fn norm_mode_scatters_by_position() {
        let (kv, gamma, cos, sin) = inputs();
        let kc = Tensor::random(ty(DType::BF16, &[1, 1, 4, 64]), 9, (-1.0, 1.0));
        let cc = Tensor::random(ty(DType::BF16, &[1, 1, 4, 512]), 10, (-1.0, 1.0));
        let index = ti(DType::I64, &[1, 2], &[2, -1]);
        let r = run_mode("Norm", &index, &kc, &cc);
        let (rope, norm) = expected(&kv, &gamma, &cos, &sin, 0);
        assert_eq!(r[0].to_f64()[128..192], rope[..]);
        assert_eq!(r[1].to_f64()[1024..1536], norm[..]);
        // Everything else (token 1 was skipped) keeps the old cache contents.
        assert_eq!(r[0].to_f64()[..128], kc.to_f64()[..128]);
        assert_eq!(r[0].to_f64()[192..], kc.to_f64()[192..]);
        assert_eq!(r[1].to_f64()[..1024], cc.to_f64()[..1024]);
        let bad = ti(DType::I64, &[1, 2], &[4, 0]);
        let (kv, gamma, cos, sin) = inputs();
        let msg = run_err(
            "dit.kv_rms_norm_rope_cache",
            &a("Norm"),
            &[
                Some(&kv),
                Some(&gamma),
                Some(&cos),
                Some(&sin),
                Some(&bad),
                Some(&kc),
                Some(&cc),
            ],
            &result_types(&kc, &cc),
        );
        assert!(msg.contains("out of range"), "{msg}");
    }

    #[test]
    fn paged_modes() {
        let (kv, gamma, cos, sin) = inputs();
        let (rope0, norm0) = expected(&kv, &gamma, &cos, &sin, 0);
        let (rope1, norm1) = expected(&kv, &gamma, &cos, &sin, 1);
        let kc = Tensor::zeros(ty(DType::BF16, &[2, 16, 1, 64]));
        let cc = Tensor::zeros(ty(DType::BF16, &[2, 16, 1, 512]));
        // PA_BNSD: slot 17 = block 1 offset 1, slot 3 = block 0 offset 3.
        let index = ti(DType::I64, &[2], &[17, 3]);
        for mode in ["PA", "PA_BNSD"] {
            let r = run_mode(mode, &index, &kc, &cc);
            let k = r[0].to_f64();
            assert_eq!(k[17 * 64..18 * 64], rope0[..]);
            assert_eq!(k[3 * 64..4 * 64], rope1[..]);
            assert_eq!(r[1].to_f64()[17 * 512..18 * 512], norm0[..]);
            assert_eq!(r[1].to_f64()[3 * 512..4 * 512], norm1[..]);
        }
        // PA_NZ: block 1, offset 1, element e at 1·16·64 + (e/16)·16·16 + 1·16 + e%16.
        let r = run_mode("PA_NZ", &index, &kc, &cc);
        let k = r[0].to_f64();
        for (e, v) in rope0.iter().enumerate() {
            assert_eq!(k[1024 + (e / 16) * 256 + 16 + e % 16], *v, "element {e}");
        }
        let c = r[1].to_f64();
        for (e, v) in norm1.iter().enumerate() {
            assert_eq!(c[(e / 16) * 256 + 3 * 16 + e % 16], *v, "element {e}");
        }
        // PA_BLK_BNSD: one page (S = 2 < 16) whose slot 16 names block 1; tokens at offsets 0, 1.
        let page = ti(DType::I64, &[1], &[16]);
        let r = run_mode("PA_BLK_BNSD", &page, &kc, &cc);
        let k = r[0].to_f64();
        assert_eq!(k[16 * 64..17 * 64], rope0[..]);
        assert_eq!(k[17 * 64..18 * 64], rope1[..]);
        let r = run_mode("PA_BLK_NZ", &page, &kc, &cc);
        let k = r[0].to_f64();
        for (e, v) in rope1.iter().enumerate() {
            assert_eq!(k[1024 + (e / 16) * 256 + 16 + e % 16], *v, "element {e}");
        }
        // A skipped page leaves the cache as it was.
        let skip = ti(DType::I64, &[1], &[-1]);
        let r = run_mode("PA_BLK_BNSD", &skip, &kc, &cc);
        assert_eq!(r[0], kc);
        // int8 caches are refused (their scales are not in the dialect).
        let k8 = Tensor::zeros(ty(DType::I8, &[2, 16, 1, 64]));
        let msg = run_err(
            "dit.kv_rms_norm_rope_cache",
            &a("PA_BNSD"),
            &[
                Some(&kv),
                Some(&gamma),
                Some(&cos),
                Some(&sin),
                Some(&index),
                Some(&k8),
                Some(&cc),
            ],
            &result_types(&k8, &cc),
        );
        assert!(msg.contains("quantised caches"), "{msg}");
    }
}
