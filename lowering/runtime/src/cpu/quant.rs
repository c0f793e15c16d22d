//! Quantisation: dit.dynamic_quant (per-token symmetric), dit.quant_matmul
//! (QuantBatchMatmulV3/V4 semantics) and dit.quant_matmul_gelu (FusedQuantMatmul).
//!
//! Integer products accumulate exactly in i64 (the Cube unit accumulates int8×int8 in i32, which
//! is exact for every K a kernel accepts); FP8/FP4 products accumulate in f64. The dequantised
//! value is computed in f64 and rounded once to the output type.

use super::{gelu_erf, gelu_tanh, matmul::Plan, tensor_from, Ctx, Res};
use crate::{DType, Tensor, TensorType};

/// Element types QuantBatchMatmulV3 takes for x1/x2 (HiFloat8 has no MLIR type).
const QUANT_INPUTS: &[DType] = &[
    DType::I8,
    DType::I4,
    DType::F8E4M3FN,
    DType::F8E5M2,
    DType::F4E2M1FN,
];
/// Output types of QuantBatchMatmulV3.
const QUANT_OUTPUTS: &[DType] = &[DType::I8, DType::F16, DType::BF16, DType::I32, DType::F32];

/// dit.dynamic_quant: per row of the last dimension, input = x (· smooth_scale),
/// scale = max|input| / qmax (127 for i8, 7 for i4), y = round(input / scale) saturated.
///
/// y divides by the scale as stored (rounded to f32) so that y·scale reconstructs the input; a
/// row of zeros gets scale 0 and y 0. Rounding is half to even (the kernels' `rint` cast).
pub(crate) fn dynamic_quant(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(2)?;
    let x = ctx.input(0, "x")?;
    let smooth = ctx.optional(1);
    let outs = ctx.results(2)?;
    ctx.float(x, "x")?;
    let Some(&d) = x.shape.last() else {
        return Err(ctx.err("x must have rank >= 1"));
    };
    if let Some(s) = smooth {
        ctx.float(s, "smooth_scale")?;
        ctx.shape_is(s, &[d], "smooth_scale")?;
    }
    let qmax = match outs[0].dtype {
        DType::I8 => 127.0,
        DType::I4 => 7.0,
        other => return Err(ctx.err(format!("y must be i8 or i4, got {}", other.mlir_name()))),
    };
    ctx.result_is(
        &outs[0],
        &TensorType::new(outs[0].dtype, x.shape.clone()),
        "y",
    )?;
    let token_shape = x.shape[..x.shape.len() - 1].to_vec();
    ctx.result_is(&outs[1], &TensorType::new(DType::F32, token_shape), "scale")?;
    let sv = smooth.map(Tensor::to_f64);
    let mut y = Tensor::zeros(outs[0].clone());
    let mut scale = Tensor::zeros(outs[1].clone());
    let v = x.to_f64();
    for (r, row) in v.chunks(d.max(1)).enumerate() {
        if d == 0 {
            break;
        }
        let input: Vec<f64> = row
            .iter()
            .enumerate()
            .map(|(i, x)| sv.as_ref().map_or(*x, |s| x * s[i]))
            .collect();
        let amax = input.iter().fold(0f64, |m, x| m.max(x.abs()));
        let s = DType::F32.round(amax / qmax);
        scale.set(r, s);
        for (i, x) in input.iter().enumerate() {
            let q = if s == 0.0 { 0.0 } else { x / s };
            y.set(r * d + i, q);
        }
    }
    Ok(vec![y, scale])
}

/// Dequantisation scales of a tensor: f32/bf16 as they are, f8E8M0FNU powers of two, and i64
/// in aclnnTransQuantParam's packed form: f32 bits (low 13 mantissa bits cleared) in bits
/// 0..32 and a 9-bit signed offset in bits 37..46. Returns (scales, offsets).
fn scale_values(t: &Tensor) -> (Vec<f64>, Vec<f64>) {
    if t.dtype != DType::I64 {
        return (t.to_f64(), vec![0.0; t.numel()]);
    }
    t.to_i64()
        .into_iter()
        .map(|v| {
            let v = v as u64;
            let scale = f64::from(f32::from_bits(v as u32));
            let raw = ((v >> 37) & 0x1FF) as i64;
            let offset = if raw >= 256 { raw - 512 } else { raw };
            (scale, offset as f64)
        })
        .unzip()
}

/// Whether `shape` is a vector of `len` values: `[len]`, or `[1, len]` / `[len, 1]`; `[1]` (and
/// `[1, 1]`) also counts when `allow_one` (a per-tensor value).
fn is_vector(shape: &[usize], len: usize, allow_one: bool) -> bool {
    let fits = |d: usize| d == len || (allow_one && d == 1);
    match shape {
        [a] => fits(*a),
        [1, b] => fits(*b),
        [a, 1] => fits(*a),
        _ => false,
    }
}

/// `len` values of a per-channel vector (`[len]`, `[1]`, or those written 2-d), broadcast.
fn vector(
    ctx: &Ctx<'_>,
    t: &Tensor,
    len: usize,
    allow_one: bool,
    what: &str,
) -> Res<(Vec<f64>, Vec<f64>)> {
    if !is_vector(&t.shape, len, allow_one) {
        let one = if allow_one { " or [1]" } else { "" };
        return Err(ctx.err(format!(
            "{what} must be [{len}]{one} (or that vector written 2-d), got {:?}",
            t.shape
        )));
    }
    let (s, o) = scale_values(t);
    if s.len() == len {
        Ok((s, o))
    } else {
        Ok((vec![s[0]; len], vec![o[0]; len]))
    }
}

/// Per-group values `[rows][groups]` (flattened rows-major) from a tensor written `[rows, G]`
/// (`rows_major`) or `[G, rows]`; the layout that follows the operand's storage is tried first,
/// then the other. A per-row vector (same value for every group) is accepted too.
fn grouped(
    ctx: &Ctx<'_>,
    t: &Tensor,
    rows: usize,
    groups: usize,
    rows_major: bool,
    what: &str,
) -> Res<Vec<f64>> {
    let (s, _) = scale_values(t);
    let mut layouts = [(true, [rows, groups]), (false, [groups, rows])];
    if !rows_major {
        layouts.swap(0, 1);
    }
    for (row_first, shape) in layouts {
        if t.shape == shape {
            let mut out = vec![0.0; rows * groups];
            for r in 0..rows {
                for g in 0..groups {
                    out[r * groups + g] = if row_first {
                        s[r * groups + g]
                    } else {
                        s[g * rows + r]
                    };
                }
            }
            return Ok(out);
        }
    }
    if is_vector(&t.shape, rows, true) {
        let per_row = vector(ctx, t, rows, true, what)?.0;
        return Ok((0..rows * groups).map(|i| per_row[i / groups]).collect());
    }
    Err(ctx.err(format!(
        "{what} must be per group [{rows}, {groups}] or [{groups}, {rows}], or per {}: got {:?}",
        if rows == 1 { "tensor" } else { "row" },
        t.shape
    )))
}

/// A bias `[n]`: i32 joins the integer accumulator before scaling, a float bias is added after
/// (QuantBatchMatmulV4's two bias formulas). Returns (pre-scale, post-scale) values.
fn bias_values(ctx: &Ctx<'_>, bias: Option<&Tensor>, n: usize) -> Res<(Vec<f64>, Vec<f64>)> {
    let Some(b) = bias else {
        return Ok((vec![0.0; n], vec![0.0; n]));
    };
    ctx.shape_is(b, &[n], "bias")?;
    ctx.dtype_in(
        b,
        &[DType::I32, DType::F32, DType::BF16, DType::F16],
        "bias",
    )?;
    if b.dtype == DType::I32 {
        Ok((b.to_f64(), vec![0.0; n]))
    } else {
        Ok((vec![0.0; n], b.to_f64()))
    }
}

/// Partial products of `op(x1)·op(x2)` per K group, `[batch·M·N][groups]`: exact in i64 for
/// integer inputs, f64 otherwise (either way returned as f64, exact for any realistic K).
fn group_products(plan: &Plan, x1: &Tensor, x2: &Tensor, group: usize) -> (Vec<f64>, usize) {
    let groups = if group == 0 {
        1
    } else {
        plan.k.div_ceil(group).max(1)
    };
    let width = if group == 0 { plan.k.max(1) } else { group };
    let total = plan.batches() * plan.m * plan.n;
    let mut out = vec![0.0; total * groups];
    let integer = x1.dtype.is_integer();
    let (a_i, b_i) = if integer {
        (x1.to_i64(), x2.to_i64())
    } else {
        (vec![], vec![])
    };
    let (a_f, b_f) = if integer {
        (vec![], vec![])
    } else {
        (x1.to_f64(), x2.to_f64())
    };
    let mut at = 0;
    for batch in 0..plan.batches() {
        for i in 0..plan.m {
            for j in 0..plan.n {
                for g in 0..groups {
                    let ks = g * width..((g + 1) * width).min(plan.k);
                    out[at * groups + g] = if integer {
                        ks.map(|k| a_i[plan.a_index(batch, i, k)] * b_i[plan.b_index(batch, k, j)])
                            .sum::<i64>() as f64
                    } else {
                        ks.map(|k| a_f[plan.a_index(batch, i, k)] * b_f[plan.b_index(batch, k, j)])
                            .sum::<f64>()
                    };
                }
                at += 1;
            }
        }
    }
    (out, groups)
}

/// dit.quant_matmul (x1, x2, scale, offset?, bias?, pertoken_scale?):
///
/// - per-channel (group_size = 0): y = (op(x1)·op(x2) + bias_i32) · scale[n] [· pertoken[m]]
///   + bias_float + offset[n];
/// - per-group (group_size = g > 0, MX or per-group int): y = Σ_groups (partial product over the
///   group's K) · scale[g][n] [· pertoken[m][g]] + bias + offset, with scale written `[N, G]`
///   when transpose_x2 (x2 stored `[N, K]`) or `[G, N]` otherwise (either is accepted), and
///   pertoken `[M, G]` / `[G, M]` likewise following x1, or one value per row. Any bias is added
///   after scaling there.
///
/// An i64 scale is aclnnTransQuantParam's packed form; its offset bits add like `offset`.
/// `x2_format = "FRACTAL_NZ"` is accepted and x2 is read as the logical ND tensor its type
/// states: the reference does not model the NZ byte layout (the runtime hands it ND data).
pub(crate) fn quant_matmul(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(6)?;
    let (x1, x2) = (ctx.input(0, "x1")?, ctx.input(1, "x2")?);
    let scale = ctx.input(2, "scale")?;
    let (offset, bias, pertoken) = (ctx.optional(3), ctx.optional(4), ctx.optional(5));
    let out = ctx.result()?;
    ctx.dtype_in(x1, QUANT_INPUTS, "x1")?;
    ctx.dtype_in(x2, QUANT_INPUTS, "x2")?;
    if x1.dtype.is_integer() != x2.dtype.is_integer() {
        return Err(ctx.err(format!(
            "x1 ({}) and x2 ({}) mix integer and floating-point formats",
            x1.dtype.mlir_name(),
            x2.dtype.mlir_name()
        )));
    }
    if !QUANT_OUTPUTS.contains(&out.dtype) {
        return Err(ctx.err(format!(
            "result element type {} is not one of i8, f16, bf16, i32, f32",
            out.dtype.mlir_name()
        )));
    }
    ctx.attr_enum("x2_format", &["ND", "FRACTAL_NZ"], Some("ND"))?;
    let group = ctx.attr_i64_or("group_size", 0)?;
    let group = usize::try_from(group)
        .map_err(|_| ctx.err(format!("group_size must be >= 0, got {group}")))?;
    if x1.shape.len() > 6 || x2.shape.len() > 6 {
        return Err(ctx.err("x1 and x2 must have rank 2..6"));
    }
    let (tx1, tx2) = (
        ctx.attr_bool("transpose_x1")?,
        ctx.attr_bool("transpose_x2")?,
    );
    let plan = Plan::new(ctx, &x1.shape, &x2.shape, tx1, tx2)?;
    let (m, n) = (plan.m, plan.n);
    ctx.result_is(
        out,
        &TensorType::new(out.dtype, plan.out_shape.clone()),
        "result",
    )?;
    ctx.dtype_in(
        scale,
        &[DType::F32, DType::BF16, DType::I64, DType::F8E8M0FNU],
        "scale",
    )?;
    let (pre_bias, post_bias) = bias_values(ctx, bias, n)?;
    let offsets = match offset {
        Some(o) => {
            ctx.dtype_in(o, &[DType::F32], "offset")?;
            vector(ctx, o, n, true, "offset")?.0
        }
        None => vec![0.0; n],
    };
    if let Some(p) = pertoken {
        ctx.dtype_in(p, &[DType::F32, DType::F8E8M0FNU], "pertoken_scale")?;
    }
    let (partials, groups) = group_products(&plan, x1, x2, group);
    let mut y = Vec::with_capacity(partials.len() / groups);
    if group == 0 {
        let (s2, packed) = vector(ctx, scale, n, true, "scale")?;
        let s1 = match pertoken {
            Some(p) => vector(ctx, p, m, false, "pertoken_scale")?.0,
            None => vec![1.0; m],
        };
        for (idx, acc) in partials.iter().enumerate() {
            let (i, j) = ((idx / n) % m, idx % n);
            y.push((acc + pre_bias[j]) * s2[j] * s1[i] + post_bias[j] + offsets[j] + packed[j]);
        }
    } else {
        // s2[j][g] with x2 stored [N, K] (transposed) giving the [N, G] layout first.
        let s2 = grouped(ctx, scale, n, groups, tx2, "scale")?;
        let s1 = match pertoken {
            Some(p) => grouped(ctx, p, m, groups, !tx1, "pertoken_scale")?,
            None => vec![1.0; m * groups],
        };
        let (_, packed) = scale_values(scale);
        let packed_at = |j: usize| {
            if packed.len() == n * groups {
                packed[j * groups]
            } else {
                0.0
            }
        };
        for (idx, parts) in partials.chunks(groups).enumerate() {
            let (i, j) = ((idx / n) % m, idx % n);
            let acc: f64 = parts
                .iter()
                .enumerate()
                .map(|(g, p)| p * s2[j * groups + g] * s1[i * groups + g])
                .sum();
            y.push(acc + pre_bias[j] + post_bias[j] + offsets[j] + packed_at(j));
        }
    }
    Ok(vec![tensor_from(ctx, out, &y)?])
}

/// dit.quant_matmul_gelu (FusedQuantMatmul): x1 `[…, M, K]` · x2 `[…, K, N]` (i8 or i4; stored
/// as `[…, K, M]` / `[…, N, K]` when transpose_x1 / transpose_x2 is set),
/// dequantised per token (x1_scale `[M]`, f32) and per channel (x2_scale `[N]` or `[1]`), bias
/// as in dit.quant_matmul, then GELU ("gelu_tanh" or "gelu_erf"). Output f16 or bf16 (bf16 when
/// x2_scale or bias is bf16).
pub(crate) fn quant_matmul_gelu(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(5)?;
    let (x1, x2) = (ctx.input(0, "x1")?, ctx.input(1, "x2")?);
    let (s1t, s2t) = (ctx.input(2, "x1_scale")?, ctx.input(3, "x2_scale")?);
    let bias = ctx.optional(4);
    let out = ctx.result()?;
    let gelu = match ctx
        .attr_enum("approximate", &["gelu_tanh", "gelu_erf"], None)?
        .as_str()
    {
        "gelu_tanh" => gelu_tanh,
        _ => gelu_erf,
    };
    ctx.dtype_in(x1, &[DType::I8, DType::I4], "x1")?;
    if x1.dtype != x2.dtype {
        return Err(ctx.err("x1 and x2 element types differ"));
    }
    // Absent flags are false: the fused op carries them only when set.
    let flag = |name: &str| match ctx.attr(name) {
        None => Ok(false),
        Some(_) => ctx.attr_bool(name),
    };
    let plan = Plan::new(
        ctx,
        &x1.shape,
        &x2.shape,
        flag("transpose_x1")?,
        flag("transpose_x2")?,
    )?;
    let (m, n) = (plan.m, plan.n);
    ctx.dtype_in(s1t, &[DType::F32], "x1_scale")?;
    ctx.shape_is(s1t, &[m], "x1_scale (per token)")?;
    ctx.dtype_in(s2t, &[DType::F32, DType::BF16], "x2_scale")?;
    let s2 = vector(ctx, s2t, n, true, "x2_scale")?.0;
    let s1 = s1t.to_f64();
    let (pre_bias, post_bias) = bias_values(ctx, bias, n)?;
    let wants_bf16 = s2t.dtype == DType::BF16 || bias.is_some_and(|b| b.dtype == DType::BF16);
    let out_ok = if wants_bf16 {
        out.dtype == DType::BF16
    } else {
        matches!(out.dtype, DType::F16 | DType::BF16)
    };
    if !out_ok {
        return Err(ctx.err(format!(
            "result element type {} is not allowed: f16 or bf16, and bf16 when x2_scale or bias is bf16",
            out.dtype.mlir_name()
        )));
    }
    ctx.result_is(
        out,
        &TensorType::new(out.dtype, plan.out_shape.clone()),
        "result",
    )?;
    let (partials, _) = group_products(&plan, x1, x2, 0);
    let y: Vec<f64> = partials
        .iter()
        .enumerate()
        .map(|(idx, acc)| {
            let (i, j) = ((idx / n) % m, idx % n);
            gelu((acc + pre_bias[j]) * s1[i] * s2[j] + post_bias[j])
        })
        .collect();
    Ok(vec![tensor_from(ctx, out, &y)?])
}

#[cfg(test)]
mod tests {
    use super::super::execute;
    use super::super::test_util::*;
    use crate::{AttrValue, Attrs, DType, Tensor};

    fn qm(tx1: bool, tx2: bool, group: i64) -> Attrs {
        attrs(&[
            ("transpose_x1", AttrValue::Bool(tx1)),
            ("transpose_x2", AttrValue::Bool(tx2)),
            ("group_size", AttrValue::Int(group)),
        ])
    }

    #[test]
    fn dynamic_quant_round_trip() {
        let xv = [
            0.5, -1.27, 0.01, 1.0, 0.0, 0.0, 0.0, 0.0, 2.0, 4.0, -8.0, 0.3,
        ];
        let x = t(DType::F32, &[3, 4], &xv);
        let outs = [ty(DType::I8, &[3, 4]), ty(DType::F32, &[3])];
        let r = execute("dit.dynamic_quant", &Attrs::new(), &[Some(&x), None], &outs).unwrap();
        let (y, s) = (&r[0], &r[1]);
        assert_eq!(s.get(0), DType::F32.round(x.get(1).abs() / 127.0));
        assert_eq!(y.get_i64(1), -127);
        assert_eq!(s.get(1), 0.0);
        assert_eq!(y.to_i64()[4..8], [0, 0, 0, 0]);
        assert_eq!(y.get_i64(10), -127);
        assert_eq!(y.get_i64(8), DType::I8.round(2.0 / s.get(2)) as i64);
        for (i, v) in xv.iter().enumerate() {
            let back = y.get(i) * s.get(i / 4);
            assert!(
                (back - v).abs() <= s.get(i / 4) / 2.0 + 1e-9,
                "{i}: {back} vs {v}"
            );
        }
        // Smooth scales multiply the last dimension first; i4 output uses qmax 7.
        let smooth = t(DType::F32, &[4], &[2.0, 1.0, 1.0, 1.0]);
        let outs4 = [ty(DType::I4, &[3, 4]), ty(DType::F32, &[3])];
        let r = execute(
            "dit.dynamic_quant",
            &Attrs::new(),
            &[Some(&x), Some(&smooth)],
            &outs4,
        )
        .unwrap();
        assert_eq!(r[1].get(0), DType::F32.round(x.get(1).abs() / 7.0));
        assert_eq!(r[0].get_i64(1), -7);
        assert_eq!(r[1].get(2), DType::F32.round(8.0 / 7.0));
        assert_eq!(r[0].get_i64(8), DType::I8.round(4.0 / r[1].get(2)) as i64);
        // Ties round half to even: row [2.5·s', …] with amax 127 → values exactly x.
        let tie = t(DType::F32, &[1, 3], &[127.0, 2.5, 3.5]);
        let r = execute(
            "dit.dynamic_quant",
            &Attrs::new(),
            &[Some(&tie), None],
            &[ty(DType::I8, &[1, 3]), ty(DType::F32, &[1])],
        )
        .unwrap();
        assert_eq!(r[0].to_i64(), vec![127, 2, 4]);
        let msg = run_err(
            "dit.dynamic_quant",
            &Attrs::new(),
            &[Some(&x), None],
            &[ty(DType::I8, &[3, 4]), ty(DType::F32, &[3, 1])],
        );
        assert!(msg.contains("scale"), "{msg}");
    }

    #[test]
    fn int8_exact_accumulation() {
        // K = 4096 with every product 127·127 = 16129: the sum 66_064_384 needs more than f32's
        // 24 bits of mantissa to be exact but is exact here, output i32 with scale 1.
        let k = 4096;
        let x1 = ti(DType::I8, &[1, k], &vec![127; k]);
        let x2 = ti(DType::I8, &[k, 2], &[127, -128].repeat(k));
        let one = t(DType::F32, &[1], &[1.0]);
        let r = execute(
            "dit.quant_matmul",
            &qm(false, false, 0),
            &[Some(&x1), Some(&x2), Some(&one), None, None, None],
            &[ty(DType::I32, &[1, 2])],
        )
        .unwrap();
        assert_eq!(r[0].to_i64(), vec![127 * 127 * 4096, -127 * 128 * 4096]);
        // A float output of a small exact sum.
        let x1 = ti(DType::I8, &[1, 3], &[127, 127, 1]);
        let x2 = ti(DType::I8, &[3, 1], &[127, 127, 1]);
        let r = execute(
            "dit.quant_matmul",
            &qm(false, false, 0),
            &[Some(&x1), Some(&x2), Some(&one), None, None, None],
            &[ty(DType::F32, &[1, 1])],
        )
        .unwrap();
        assert_eq!(r[0].get(0), 32259.0);
    }

    #[test]
    fn per_channel_pertoken_bias_offset() {
        // x1 [2,3] i8, x2ᵀ [2,3] (transpose_x2), scale [2], pertoken [2], i32 bias [2].
        let x1 = ti(DType::I8, &[2, 3], &[1, 2, 3, -1, 0, 4]);
        let x2 = ti(DType::I8, &[2, 3], &[1, 1, 1, 2, 0, -1]);
        let acc = [[6.0, -1.0], [3.0, -6.0]];
        let scale = t(DType::F32, &[2], &[0.5, 0.25]);
        let pts = t(DType::F32, &[2], &[2.0, 4.0]);
        let bias_i = ti(DType::I32, &[2], &[10, 20]);
        let bias_f = t(DType::F16, &[2], &[1.0, -1.0]);
        let run6 = |inputs: [Option<&Tensor>; 6], out: DType| {
            execute(
                "dit.quant_matmul",
                &qm(false, true, 0),
                &inputs,
                &[ty(out, &[2, 2])],
            )
            .unwrap()[0]
                .to_f64()
        };
        let y = run6(
            [Some(&x1), Some(&x2), Some(&scale), None, None, Some(&pts)],
            DType::F32,
        );
        let expect: Vec<f64> = (0..4)
            .map(|i| acc[i / 2][i % 2] * [0.5, 0.25][i % 2] * [2.0, 4.0][i / 2])
            .collect();
        assert_eq!(y, expect);
        let y = run6(
            [
                Some(&x1),
                Some(&x2),
                Some(&scale),
                None,
                Some(&bias_i),
                Some(&pts),
            ],
            DType::F32,
        );
        let expect: Vec<f64> = (0..4)
            .map(|i| {
                (acc[i / 2][i % 2] + [10.0, 20.0][i % 2]) * [0.5, 0.25][i % 2] * [2.0, 4.0][i / 2]
            })
            .collect();
        assert_eq!(y, expect);
        let y = run6(
            [
                Some(&x1),
                Some(&x2),
                Some(&scale),
                None,
                Some(&bias_f),
                None,
            ],
            DType::F16,
        );
        let expect: Vec<f64> = (0..4)
            .map(|i| acc[i / 2][i % 2] * [0.5, 0.25][i % 2] + [1.0, -1.0][i % 2])
            .collect();
        assert_eq!(y, expect);
        // int8 output with offset: round half to even and saturate.
        let off = t(DType::F32, &[2], &[100.0, -0.25]);
        let y = run6(
            [Some(&x1), Some(&x2), Some(&scale), Some(&off), None, None],
            DType::I8,
        );
        assert_eq!(y, vec![103.0, 0.0, 102.0, -2.0]);
        // Packed i64 scale: 0.5 in the low bits, offset 3 in bits 37..46 (with bit 46 set).
        let packed = (0.5f32.to_bits() as i64 & 0xFFFF_E000) | (3 << 37) | (1 << 46);
        let s64 = ti(DType::I64, &[1], &[packed]);
        let y = run6(
            [Some(&x1), Some(&x2), Some(&s64), None, None, None],
            DType::F32,
        );
        assert_eq!(y, vec![6.0, 2.5, 4.5, 0.0]);
        // Shape contract: a per-channel scale of the wrong length.
        let bad = t(DType::F32, &[3], &[1.0; 3]);
        let msg = run_err(
            "dit.quant_matmul",
            &qm(false, true, 0),
            &[Some(&x1), Some(&x2), Some(&bad), None, None, None],
            &[ty(DType::F16, &[2, 2])],
        );
        assert!(msg.contains("scale must be"), "{msg}");
        let f8 = t(DType::F8E4M3FN, &[2, 3], &[1.0; 6]);
        let msg = run_err(
            "dit.quant_matmul",
            &qm(false, true, 0),
            &[Some(&x1), Some(&f8), Some(&scale), None, None, None],
            &[ty(DType::F16, &[2, 2])],
        );
        assert!(msg.contains("mix integer"), "{msg}");
    }

    #[test]
    fn int4_weights_and_mx_groups() {
        // i8 x1 · i4 x2 (s8s4), per-tensor scale.
        let x1 = ti(DType::I8, &[1, 2], &[3, -5]);
        let x2 = ti(DType::I4, &[2, 2], &[-8, 7, 1, -1]);
        let s = t(DType::F32, &[1], &[0.5]);
        let r = execute(
            "dit.quant_matmul",
            &qm(false, false, 0),
            &[Some(&x1), Some(&x2), Some(&s), None, None, None],
            &[ty(DType::F32, &[1, 2])],
        )
        .unwrap();
        assert_eq!(r[0].to_f64(), vec![(-24.0 - 5.0) * 0.5, (21.0 + 5.0) * 0.5]);
        // MXFP8: K = 6 in three groups of 2, E8M0 scales [G, N] for x2 and [M, G] for x1.
        let a = t(DType::F8E4M3FN, &[1, 6], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let b = t(
            DType::F8E4M3FN,
            &[2, 6],
            &[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.5, -1.0, 2.0, 1.0, -1.0],
        ); // [N, K]
        let s2 = t(DType::F8E8M0FNU, &[3, 2], &[2.0, 1.0, 4.0, 0.5, 1.0, 2.0]); // [G, N]
        let s1 = t(DType::F8E8M0FNU, &[1, 3], &[1.0, 0.25, 2.0]); // [M, G]
        let r = execute(
            "dit.quant_matmul",
            &qm(false, true, 2),
            &[Some(&a), Some(&b), Some(&s2), None, None, Some(&s1)],
            &[ty(DType::BF16, &[1, 2])],
        )
        .unwrap();
        // Group sums n0: 3, 7, 11; n1: 1.5, 5, -1.
        assert_eq!(
            r[0].to_f64(),
            vec![
                3.0 * 2.0 + 7.0 * 4.0 * 0.25 + 11.0 * 2.0,
                1.5 + 5.0 * 0.5 * 0.25 - 4.0
            ]
        );
        // The same scale written [N, G] (x2's storage order) gives the same result.
        let s2t = t(DType::F8E8M0FNU, &[2, 3], &[2.0, 4.0, 1.0, 1.0, 0.5, 2.0]);
        let r2 = execute(
            "dit.quant_matmul",
            &qm(false, true, 2),
            &[Some(&a), Some(&b), Some(&s2t), None, None, Some(&s1)],
            &[ty(DType::BF16, &[1, 2])],
        )
        .unwrap();
        assert_eq!(r2[0].to_f64(), r[0].to_f64());
        let bad = t(DType::F32, &[3, 3], &[1.0; 9]);
        let msg = run_err(
            "dit.quant_matmul",
            &qm(false, true, 2),
            &[Some(&a), Some(&b), Some(&bad), None, None, None],
            &[ty(DType::BF16, &[1, 2])],
        );
        assert!(msg.contains("per group"), "{msg}");
    }

    #[test]
    fn quant_matmul_gelu_dequantises_then_gelu() {
        let x1 = ti(DType::I8, &[2, 2], &[1, 2, -3, 4]);
        let x2 = ti(DType::I8, &[2, 2], &[1, 0, 1, 1]);
        let s1 = t(DType::F32, &[2], &[0.1, 0.2]);
        let s2 = t(DType::F32, &[2], &[1.0, 0.5]);
        let bias = ti(DType::I32, &[2], &[1, -1]);
        for (approx, f) in [
            ("gelu_tanh", super::gelu_tanh as fn(f64) -> f64),
            ("gelu_erf", super::gelu_erf),
        ] {
            let a = attrs(&[("approximate", s(approx))]);
            let r = execute(
                "dit.quant_matmul_gelu",
                &a,
                &[Some(&x1), Some(&x2), Some(&s1), Some(&s2), Some(&bias)],
                &[ty(DType::F16, &[2, 2])],
            )
            .unwrap();
            let acc = [[3.0, 2.0], [1.0, 4.0]];
            let expect: Vec<f64> = (0..4)
                .map(|i| {
                    DType::F16.round(f((acc[i / 2][i % 2] + [1.0, -1.0][i % 2])
                        * [0.1, 0.2][i / 2]
                        * [1.0, 0.5][i % 2]))
                })
                .collect();
            assert_eq!(r[0].to_f64(), expect);
        }
        let bf = t(DType::BF16, &[2], &[1.0, 0.5]);
        let a = attrs(&[("approximate", s("gelu_erf"))]);
        let msg = run_err(
            "dit.quant_matmul_gelu",
            &a,
            &[Some(&x1), Some(&x2), Some(&s1), Some(&bf), None],
            &[ty(DType::F16, &[2, 2])],
        );
        assert!(msg.contains("bf16"), "{msg}");
    }
}
