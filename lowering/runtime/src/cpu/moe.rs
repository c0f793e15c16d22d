//! Mixture-of-experts products: dit.grouped_matmul and dit.grouped_matmul_swiglu_quant. The
//! rows of x `[M, K]` are split into E consecutive groups by `group_list`; group e multiplies
//! expert weight `[K, N]` number e.
//!
//! Rows past the last group are not computed by the kernels (their output memory keeps whatever
//! it held); the reference writes zeros there so its output is deterministic.

use super::{silu, tensor_from, Ctx, Res};
use crate::{DType, Tensor, TensorType};
use std::ops::Range;

/// The row range of each group: "cumsum" lists end offsets (non-decreasing), "count" lists
/// group sizes; either way the groups must fit in `m` rows.
fn group_ranges(
    ctx: &Ctx<'_>,
    gl: &Tensor,
    e: usize,
    m: usize,
    kind: &str,
) -> Res<Vec<Range<usize>>> {
    ctx.dtype_in(gl, &[DType::I64], "group_list")?;
    ctx.shape_is(gl, &[e], "group_list")?;
    let mut ranges = Vec::with_capacity(e);
    let mut start = 0usize;
    for (g, v) in gl.to_i64().into_iter().enumerate() {
        let bad = || {
            ctx.err(format!(
                "group_list {:?} is not a valid {kind} list for {m} rows (entry {g})",
                gl.to_i64()
            ))
        };
        let v = usize::try_from(v).map_err(|_| bad())?;
        let end = if kind == "cumsum" {
            v
        } else {
            start.checked_add(v).ok_or_else(bad)?
        };
        if end < start || end > m {
            return Err(bad());
        }
        ranges.push(start..end);
        start = end;
    }
    Ok(ranges)
}

/// x `[M, K]`, weight `[E, K, N]`, and (E, K, N).
fn moe_shapes(ctx: &Ctx<'_>, x: &Tensor, w: &Tensor) -> Res<(usize, usize, usize, usize)> {
    let ([m, k], [e, wk, n]) = (x.shape.as_slice(), w.shape.as_slice()) else {
        return Err(ctx.err(format!(
            "x must be [M, K] and weight [E, K, N], got {:?} and {:?}",
            x.shape, w.shape
        )));
    };
    if k != wk {
        return Err(ctx.err(format!("x's K {k} and weight's K {wk} differ")));
    }
    Ok((*m, *k, *e, *n))
}

/// Σ_k x[row, k] · w[e, k, col]: exact in i64 for integers, f64 otherwise.
fn dot(x: &Values, w: &Values, k: usize, n: usize, row: usize, e: usize, col: usize) -> f64 {
    match (x, w) {
        (Values::Int(x), Values::Int(w)) => (0..k)
            .map(|kk| x[row * k + kk] * w[(e * k + kk) * n + col])
            .sum::<i64>() as f64,
        (Values::Float(x), Values::Float(w)) => (0..k)
            .map(|kk| x[row * k + kk] * w[(e * k + kk) * n + col])
            .sum(),
        // Callers check that x and weight are both integer or both float.
        _ => f64::NAN,
    }
}

/// A tensor's elements as exact integers or as floats.
enum Values {
    Int(Vec<i64>),
    Float(Vec<f64>),
}

impl Values {
    fn of(t: &Tensor) -> Values {
        if t.dtype.is_integer() {
            Values::Int(t.to_i64())
        } else {
            Values::Float(t.to_f64())
        }
    }
}

/// A per-expert-channel operand `[E, N]` as values (or `default` everywhere when absent).
fn per_expert(
    ctx: &Ctx<'_>,
    t: Option<&Tensor>,
    e: usize,
    n: usize,
    default: f64,
    what: &str,
) -> Res<Vec<f64>> {
    match t {
        None => Ok(vec![default; e * n]),
        Some(t) => {
            ctx.shape_is(t, &[e, n], what)?;
            Ok(t.to_f64())
        }
    }
}

/// dit.grouped_matmul (x, weight, group_list, bias?, scale?, per_token_scale?;
/// group_list_type "cumsum" | "count"):
///
/// - float x and weight (one type): y = x·w[e] + bias[e];
/// - integer x and weight (i8/i4, GroupedMatmul's quantised case): y = (x·w[e] + bias_i32[e]) ·
///   scale[e] [· per_token_scale[m]] + bias_float[e], scale 1 when absent (int32 output).
///
/// A float x with scales (weight-only "antiquant") has no slots in the dialect and is refused.
pub(crate) fn grouped_matmul(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(6)?;
    let (x, w, gl) = (
        ctx.input(0, "x")?,
        ctx.input(1, "weight")?,
        ctx.input(2, "group_list")?,
    );
    let (bias, scale, pts) = (ctx.optional(3), ctx.optional(4), ctx.optional(5));
    let out = ctx.result()?;
    let kind = ctx.attr_enum("group_list_type", &["cumsum", "count"], None)?;
    let (m, k, e, n) = moe_shapes(ctx, x, w)?;
    let ranges = group_ranges(ctx, gl, e, m, &kind)?;
    ctx.result_is(out, &TensorType::new(out.dtype, vec![m, n]), "result")?;
    let quantised = x.dtype.is_integer() && w.dtype.is_integer();
    if !quantised {
        ctx.float(x, "x")?;
        if w.dtype != x.dtype {
            return Err(ctx.err(format!(
                "x ({}) and weight ({}) must both be i8/i4 or share one float type",
                x.dtype.mlir_name(),
                w.dtype.mlir_name()
            )));
        }
        if scale.is_some() || pts.is_some() {
            return Err(ctx.err(
                "scale and per_token_scale dequantise integer products; float x takes neither",
            ));
        }
    }
    let (pre_bias, post_bias) = match bias {
        Some(b) if b.dtype == DType::I32 => {
            (per_expert(ctx, bias, e, n, 0.0, "bias")?, vec![0.0; e * n])
        }
        _ => (vec![0.0; e * n], per_expert(ctx, bias, e, n, 0.0, "bias")?),
    };
    if let Some(s) = scale {
        ctx.dtype_in(s, &[DType::F32, DType::BF16, DType::I64], "scale")?;
    }
    let sc = match scale {
        // An i64 scale is aclnnTransQuantParam's packed f32 (low 32 bits).
        Some(s) if s.dtype == DType::I64 => {
            ctx.shape_is(s, &[e, n], "scale")?;
            s.to_i64()
                .into_iter()
                .map(|v| f64::from(f32::from_bits(v as u32)))
                .collect()
        }
        _ => per_expert(ctx, scale, e, n, 1.0, "scale")?,
    };
    let pt = match pts {
        Some(p) => {
            ctx.shape_is(p, &[m], "per_token_scale")?;
            p.to_f64()
        }
        None => vec![1.0; m],
    };
    let (xv, wv) = (Values::of(x), Values::of(w));
    let mut y = vec![0.0; m * n];
    for (g, rows) in ranges.iter().enumerate() {
        for row in rows.clone() {
            for col in 0..n {
                let c = g * n + col;
                let acc = dot(&xv, &wv, k, n, row, g, col);
                y[row * n + col] = (acc + pre_bias[c]) * sc[c] * pt[row] + post_bias[c];
            }
        }
    }
    Ok(vec![tensor_from(ctx, out, &y)?])
}

/// dit.grouped_matmul_swiglu_quant (x, weight, group_list, weight_scale, x_scale, bias?,
/// offset?; variant "v1" | "v2") → (y i8 `[M, N/2]`, y_scale f32 `[M]`, y_offset):
///
/// C = (x·w[e] + bias[e]) · x_scale[m] · weight_scale[e] + offset[e] (bias and offset follow the
/// formula CANN documents for them; current kernels take neither), S = silu(first half of C) ·
/// second half, then per-row symmetric quantisation y_scale = max|S| / 127, y = round(S /
/// y_scale) (half to even, dividing by the stored f32 scale). y_offset is zero (symmetric).
///
/// group_list is "cumsum" unless an optional `group_list_type` attribute says "count" (V2 takes
/// either; the dialect has no attribute for it). v1 takes int8 weights only, v2 int8 or int4.
pub(crate) fn grouped_matmul_swiglu_quant(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(7)?;
    let (x, w, gl) = (
        ctx.input(0, "x")?,
        ctx.input(1, "weight")?,
        ctx.input(2, "group_list")?,
    );
    let (ws, xs) = (ctx.input(3, "weight_scale")?, ctx.input(4, "x_scale")?);
    let (bias, offset) = (ctx.optional(5), ctx.optional(6));
    let outs = ctx.results(3)?;
    let variant = ctx.attr_enum("variant", &["v1", "v2"], None)?;
    let kind = ctx.attr_enum("group_list_type", &["cumsum", "count"], Some("cumsum"))?;
    ctx.dtype_in(x, &[DType::I8], "x")?;
    let weights: &[DType] = if variant == "v1" {
        &[DType::I8]
    } else {
        &[DType::I8, DType::I4]
    };
    ctx.dtype_in(w, weights, "weight")?;
    let (m, k, e, n) = moe_shapes(ctx, x, w)?;
    if n % 2 != 0 {
        return Err(ctx.err(format!("weight's N {n} must be even (SwiGLU halves it)")));
    }
    let ranges = group_ranges(ctx, gl, e, m, &kind)?;
    ctx.dtype_in(ws, &[DType::F32, DType::F16, DType::BF16], "weight_scale")?;
    let wsv = per_expert(ctx, Some(ws), e, n, 1.0, "weight_scale")?;
    ctx.dtype_in(xs, &[DType::F32], "x_scale")?;
    ctx.shape_is(xs, &[m], "x_scale")?;
    let xsv = xs.to_f64();
    if let Some(b) = bias {
        ctx.dtype_in(b, &[DType::I32], "bias")?;
    }
    if let Some(o) = offset {
        ctx.dtype_in(o, &[DType::F32], "offset")?;
    }
    let bv = per_expert(ctx, bias, e, n, 0.0, "bias")?;
    let ov = per_expert(ctx, offset, e, n, 0.0, "offset")?;
    let half = n / 2;
    ctx.result_is(&outs[0], &TensorType::new(DType::I8, vec![m, half]), "y")?;
    ctx.result_is(&outs[1], &TensorType::new(DType::F32, vec![m]), "y_scale")?;
    let mut y = Tensor::zeros(outs[0].clone());
    let mut y_scale = Tensor::zeros(outs[1].clone());
    // y_offset: symmetric quantisation, so all zeros in whatever type the IR gives it.
    let y_offset = Tensor::zeros(outs[2].clone());
    let (xv, wv) = (Values::of(x), Values::of(w));
    for (g, rows) in ranges.iter().enumerate() {
        for row in rows.clone() {
            let c: Vec<f64> = (0..n)
                .map(|col| {
                    let at = g * n + col;
                    (dot(&xv, &wv, k, n, row, g, col) + bv[at]) * xsv[row] * wsv[at] + ov[at]
                })
                .collect();
            let s: Vec<f64> = (0..half).map(|j| silu(c[j]) * c[j + half]).collect();
            let amax = s.iter().fold(0f64, |a, v| a.max(v.abs()));
            let scale = DType::F32.round(amax / 127.0);
            y_scale.set(row, scale);
            for (j, v) in s.iter().enumerate() {
                y.set(row * half + j, if scale == 0.0 { 0.0 } else { v / scale });
            }
        }
    }
    Ok(vec![y, y_scale, y_offset])
}

#[cfg(test)]
mod tests {
    use super::super::execute;
    use super::super::test_util::*;
    use crate::{Attrs, DType, Tensor};

    fn kind(k: &str) -> Attrs {
        attrs(&[("group_list_type", s(k))])
    }

    #[test]
    fn cumsum_and_count_agree() {
        // M=5, K=2, E=3, N=2; groups [0,2), [2,2) (empty), [2,4); row 4 is past every group.
        let x = t(
            DType::F32,
            &[5, 2],
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0],
        );
        let w = t(
            DType::F32,
            &[3, 2, 2],
            &[1.0, 0.0, 0.0, 1.0, 9.0, 9.0, 9.0, 9.0, 0.0, 1.0, 1.0, 0.0],
        );
        let bias = t(DType::F32, &[3, 2], &[0.5, 0.5, 0.0, 0.0, -1.0, 1.0]);
        let out = ty(DType::F32, &[5, 2]);
        let cum = ti(DType::I64, &[3], &[2, 2, 4]);
        let cnt = ti(DType::I64, &[3], &[2, 0, 2]);
        let a = execute(
            "dit.grouped_matmul",
            &kind("cumsum"),
            &[Some(&x), Some(&w), Some(&cum), Some(&bias), None, None],
            std::slice::from_ref(&out),
        )
        .unwrap();
        let b = execute(
            "dit.grouped_matmul",
            &kind("count"),
            &[Some(&x), Some(&w), Some(&cnt), Some(&bias), None, None],
            std::slice::from_ref(&out),
        )
        .unwrap();
        assert_eq!(a[0], b[0]);
        assert_eq!(
            a[0].to_f64(),
            vec![1.5, 2.5, 3.5, 4.5, 5.0, 6.0, 7.0, 8.0, 0.0, 0.0]
        );
        // Decreasing cumsum, counts past M, negative entries.
        for (k, gl) in [
            ("cumsum", vec![3, 2, 4]),
            ("count", vec![3, 3, 0]),
            ("count", vec![-1, 2, 2]),
        ] {
            let g = ti(DType::I64, &[3], &gl);
            let msg = run_err(
                "dit.grouped_matmul",
                &kind(k),
                &[Some(&x), Some(&w), Some(&g), None, None, None],
                std::slice::from_ref(&out),
            );
            assert!(msg.contains("group_list"), "{msg}");
        }
    }

    #[test]
    fn quantised_groups_dequantise() {
        // int8 x [3,2], weight [2,2,2]; groups {0}, {1,2}; scale [2,2], per-token [3], i32 bias.
        let x = ti(DType::I8, &[3, 2], &[1, 2, 3, -4, 100, 100]);
        let w = ti(DType::I8, &[2, 2, 2], &[1, 0, 0, 1, 2, 1, 1, 2]);
        let scale = t(DType::F32, &[2, 2], &[0.5, 1.0, 0.25, 2.0]);
        let pts = t(DType::F32, &[3], &[1.0, 2.0, 0.01]);
        let bias = ti(DType::I32, &[2, 2], &[1, 1, 0, 10]);
        let gl = ti(DType::I64, &[2], &[1, 3]);
        let r = execute(
            "dit.grouped_matmul",
            &kind("cumsum"),
            &[
                Some(&x),
                Some(&w),
                Some(&gl),
                Some(&bias),
                Some(&scale),
                Some(&pts),
            ],
            &[ty(DType::F32, &[3, 2])],
        )
        .unwrap();
        // Row 0, expert 0: acc [1,2] (+1) · [0.5, 1] · 1 = [1, 3].
        // Row 1, expert 1: acc [2, -5] (+[0,10]) · [0.25, 2] · 2 = [1, 20].
        // Row 2, expert 1: acc [300, 300] (+[0,10]) · [0.25, 2] · 0.01 = [0.75, 6.2].
        close(&r[0].to_f64(), &[1.0, 3.0, 1.0, 20.0, 0.75, 6.2], 1e-7);
        let f = t(DType::F32, &[3, 2], &[0.0; 6]);
        let msg = run_err(
            "dit.grouped_matmul",
            &kind("cumsum"),
            &[Some(&f), Some(&w), Some(&gl), None, None, None],
            &[ty(DType::F32, &[3, 2])],
        );
        assert!(msg.contains("weight"), "{msg}");
    }

    #[test]
    fn gmm_swiglu_quant_pipeline() {
        // M=2, K=2, E=2, N=4: rows 0 → expert 0, row 1 → expert 1.
        let x = ti(DType::I8, &[2, 2], &[1, 2, -1, 3]);
        let w = ti(
            DType::I8,
            &[2, 2, 4],
            &[1, 0, 2, 1, 0, 1, 1, 1, 1, 1, 1, 1, 2, -1, 0, 3],
        );
        let ws = t(
            DType::F32,
            &[2, 4],
            &[1.0, 0.5, 1.0, 2.0, 0.1, 0.2, 0.3, 0.4],
        );
        let xs = t(DType::F32, &[2], &[0.5, 2.0]);
        let gl = ti(DType::I64, &[2], &[1, 2]);
        let outs = [
            ty(DType::I8, &[2, 2]),
            ty(DType::F32, &[2]),
            ty(DType::F32, &[2]),
        ];
        let a = attrs(&[("variant", s("v1"))]);
        let r = execute(
            "dit.grouped_matmul_swiglu_quant",
            &a,
            &[
                Some(&x),
                Some(&w),
                Some(&gl),
                Some(&ws),
                Some(&xs),
                None,
                None,
            ],
            &outs,
        )
        .unwrap();
        // Row 0 (expert 0): acc [1, 2, 4, 3]; row 1 (expert 1): acc [5, -4, -1, 8].
        let acc = [[1.0, 2.0, 4.0, 3.0], [5.0, -4.0, -1.0, 8.0]];
        for (row, acc) in acc.iter().enumerate() {
            let c: Vec<f64> = (0..4)
                .map(|j| acc[j] * xs.get(row) * ws.get(row * 4 + j))
                .collect();
            // Gate = FIRST half: silu(c0)·c2, silu(c1)·c3.
            let s = [super::silu(c[0]) * c[2], super::silu(c[1]) * c[3]];
            let amax = s[0].abs().max(s[1].abs());
            let scale = DType::F32.round(amax / 127.0);
            close(&[r[1].get(row)], &[scale], 1e-12);
            for (j, sj) in s.iter().enumerate() {
                assert_eq!(
                    r[0].get_i64(row * 2 + j),
                    DType::I8.round(sj / scale) as i64
                );
            }
        }
        assert_eq!(r[2].to_f64(), vec![0.0, 0.0]);
        // v1 refuses int4 weights; v2 takes them.
        let w4 = Tensor::from_i64(DType::I4, &[2, 2, 4], &w.to_i64()).unwrap();
        let ins = [
            Some(&x),
            Some(&w4),
            Some(&gl),
            Some(&ws),
            Some(&xs),
            None,
            None,
        ];
        assert!(run_err("dit.grouped_matmul_swiglu_quant", &a, &ins, &outs).contains("weight"));
        let v2 = attrs(&[("variant", s("v2"))]);
        let r4 = execute("dit.grouped_matmul_swiglu_quant", &v2, &ins, &outs).unwrap();
        assert_eq!(r4[0], r[0]);
        let bad = [
            ty(DType::I8, &[2, 4]),
            ty(DType::F32, &[2]),
            ty(DType::F32, &[2]),
        ];
        assert!(run_err(
            "dit.grouped_matmul_swiglu_quant",
            &a,
            &[
                Some(&x),
                Some(&w),
                Some(&gl),
                Some(&ws),
                Some(&xs),
                None,
                None
            ],
            &bad
        )
        .contains("y type"));
    }
}
