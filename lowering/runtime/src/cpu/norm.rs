//! Normalisations over the last dimension: dit.rms_norm, dit.layer_norm and the fused
//! dit.ada_layer_norm. Statistics are computed in f64 (the Ascend kernels use f32).

use super::{broadcast_values, tensor_from, Ctx, Res};
use crate::{DType, Tensor};

/// Checks a per-feature vector of a norm: `[D]`, of x's element type or f32.
fn feature_vector(ctx: &Ctx<'_>, t: &Tensor, x: &Tensor, d: usize, what: &str) -> Res<Vec<f64>> {
    ctx.shape_is(t, &[d], what)?;
    if t.dtype != x.dtype && t.dtype != DType::F32 {
        return Err(ctx.err(format!(
            "{what} must be {} or f32, got {}",
            x.dtype.mlir_name(),
            t.dtype.mlir_name()
        )));
    }
    Ok(t.to_f64())
}

/// The x operand of a norm (float, rank ≥ 1) and its last dimension.
fn norm_input<'a>(ctx: &Ctx<'a>) -> Res<(&'a Tensor, usize)> {
    let x = ctx.input(0, "x")?;
    ctx.float(x, "x")?;
    let Some(&d) = x.shape.last() else {
        return Err(ctx.err("x must have rank >= 1"));
    };
    ctx.result_is(ctx.result()?, &x.ty(), "result")?;
    Ok((x, d))
}

/// Normalises each row of `d` values: (x - mean) / sqrt(var + eps), biased variance.
fn standardise(v: &[f64], d: usize, eps: f64) -> Vec<f64> {
    let mut out = Vec::with_capacity(v.len());
    for row in v.chunks(d.max(1)) {
        let n = row.len() as f64;
        let mean = row.iter().sum::<f64>() / n;
        let var = row.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
        let inv = 1.0 / (var + eps).sqrt();
        out.extend(row.iter().map(|x| (x - mean) * inv));
    }
    out
}

/// dit.rms_norm: x · rsqrt(mean(x²) + ε) · γ over the last dimension.
pub(crate) fn rms_norm(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(2)?;
    let (x, d) = norm_input(ctx)?;
    let eps = ctx.epsilon()?;
    let gamma = feature_vector(ctx, ctx.input(1, "gamma")?, x, d, "gamma")?;
    let v = x.to_f64();
    let mut y = Vec::with_capacity(v.len());
    for row in v.chunks(d.max(1)) {
        let ms = row.iter().map(|x| x * x).sum::<f64>() / row.len() as f64;
        let inv = 1.0 / (ms + eps).sqrt();
        y.extend(row.iter().zip(&gamma).map(|(x, g)| x * inv * g));
    }
    Ok(vec![tensor_from(ctx, ctx.result()?, &y)?])
}

/// dit.layer_norm: (x - mean)/sqrt(var + ε) · γ + β, γ and β optional.
pub(crate) fn layer_norm(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(3)?;
    let (x, d) = norm_input(ctx)?;
    let eps = ctx.epsilon()?;
    let gamma = ctx
        .optional(1)
        .map(|g| feature_vector(ctx, g, x, d, "gamma"))
        .transpose()?;
    let beta = ctx
        .optional(2)
        .map(|b| feature_vector(ctx, b, x, d, "beta"))
        .transpose()?;
    let mut y = standardise(&x.to_f64(), d, eps);
    for (i, v) in y.iter_mut().enumerate() {
        let f = i % d.max(1);
        if let Some(g) = &gamma {
            *v *= g[f];
        }
        if let Some(b) = &beta {
            *v += b[f];
        }
    }
    Ok(vec![tensor_from(ctx, ctx.result()?, &y)?])
}

/// dit.ada_layer_norm: layer_norm(x) · (1 + scale) + shift, the norm without affine
/// parameters, scale and shift broadcasting numpy-style to x.
pub(crate) fn ada_layer_norm(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(3)?;
    let (x, d) = norm_input(ctx)?;
    let eps = ctx.epsilon()?;
    let (scale, shift) = (ctx.input(1, "scale")?, ctx.input(2, "shift")?);
    ctx.float(scale, "scale")?;
    ctx.float(shift, "shift")?;
    let sc = broadcast_values(ctx, scale, &x.shape, "scale")?;
    let sh = broadcast_values(ctx, shift, &x.shape, "shift")?;
    let y: Vec<f64> = standardise(&x.to_f64(), d, eps)
        .into_iter()
        .enumerate()
        .map(|(i, v)| v * (1.0 + sc[i]) + sh[i])
        .collect();
    Ok(vec![tensor_from(ctx, ctx.result()?, &y)?])
}

#[cfg(test)]
mod tests {
    use super::super::execute;
    use super::super::test_util::*;
    use crate::{AttrValue, DType};

    fn eps(e: f64) -> crate::Attrs {
        attrs(&[("epsilon", AttrValue::Float(e))])
    }

    #[test]
    fn rms_norm_known_values() {
        // Rows [1,2,3,4]: mean square 7.5; [2,2,2,2]: 4; [0,0,0,3]: 2.25. ε = 0.
        let x = t(
            DType::F32,
            &[3, 4],
            &[1.0, 2.0, 3.0, 4.0, 2.0, 2.0, 2.0, 2.0, 0.0, 0.0, 0.0, 3.0],
        );
        let g = t(DType::F32, &[4], &[1.0, 1.0, 2.0, 0.5]);
        let r = run("dit.rms_norm", &eps(0.0), &[&x, &g], &[x.ty()]);
        let s = 1.0 / 7.5f64.sqrt();
        close(
            &r[0].to_f64(),
            &[
                s,
                2.0 * s,
                6.0 * s,
                2.0 * s,
                1.0,
                1.0,
                2.0,
                0.5,
                0.0,
                0.0,
                0.0,
                1.0,
            ],
            1e-7,
        );
        // ε matters: a zero row stays zero, a small row is damped.
        let z = t(DType::F32, &[1, 4], &[0.0; 4]);
        let r = run("dit.rms_norm", &eps(1e-6), &[&z, &g], &[z.ty()]);
        assert_eq!(r[0].to_f64(), vec![0.0; 4]);
        // bf16 input with an f32 gamma is allowed; a wrong gamma length is not.
        let xb = t(DType::BF16, &[1, 4], &[1.0, 2.0, 3.0, 4.0]);
        let r = run("dit.rms_norm", &eps(0.0), &[&xb, &g], &[xb.ty()]);
        assert_eq!(r[0].get(0), DType::BF16.round(s));
        let g3 = t(DType::F32, &[3], &[1.0; 3]);
        assert!(
            run_err("dit.rms_norm", &eps(0.0), &[Some(&x), Some(&g3)], &[x.ty()]).contains("gamma")
        );
        assert!(
            run_err("dit.rms_norm", &eps(-1.0), &[Some(&x), Some(&g)], &[x.ty()])
                .contains("epsilon")
        );
    }

    #[test]
    fn layer_norm_with_optional_affine() {
        // Row [1,2,3,4]: mean 2.5, var 1.25.
        let x = t(DType::F32, &[1, 4], &[1.0, 2.0, 3.0, 4.0]);
        let inv = 1.0 / 1.25f64.sqrt();
        let plain: Vec<f64> = [-1.5, -0.5, 0.5, 1.5].iter().map(|v| v * inv).collect();
        let r = execute(
            "dit.layer_norm",
            &eps(0.0),
            &[Some(&x), None, None],
            &[x.ty()],
        )
        .unwrap();
        close(&r[0].to_f64(), &plain, 1e-7);
        let g = t(DType::F32, &[4], &[2.0, 2.0, 2.0, 2.0]);
        let b = t(DType::F32, &[4], &[1.0, 0.0, 0.0, 0.0]);
        let r = execute(
            "dit.layer_norm",
            &eps(0.0),
            &[Some(&x), Some(&g), Some(&b)],
            &[x.ty()],
        )
        .unwrap();
        let expected: Vec<f64> = plain
            .iter()
            .enumerate()
            .map(|(i, v)| 2.0 * v + if i == 0 { 1.0 } else { 0.0 })
            .collect();
        close(&r[0].to_f64(), &expected, 1e-7);
        let r = execute(
            "dit.layer_norm",
            &eps(0.0),
            &[Some(&x), None, Some(&b)],
            &[x.ty()],
        )
        .unwrap();
        close(
            &[r[0].get(0), r[0].get(1)],
            &[plain[0] + 1.0, plain[1]],
            1e-7,
        );
    }

    #[test]
    fn ada_layer_norm_broadcasts_scale_and_shift() {
        // x [2,1,4]; scale/shift [2,1,4] per batch row (numpy broadcast over the middle dim).
        let x = t(
            DType::F32,
            &[2, 1, 4],
            &[1.0, 2.0, 3.0, 4.0, 4.0, 3.0, 2.0, 1.0],
        );
        let scale = t(DType::F32, &[2, 1, 1], &[1.0, 0.0]);
        let shift = t(DType::F32, &[4], &[0.0, 0.0, 0.0, 10.0]);
        let r = run(
            "dit.ada_layer_norm",
            &eps(0.0),
            &[&x, &scale, &shift],
            &[x.ty()],
        );
        let inv = 1.0 / 1.25f64.sqrt();
        let n0: Vec<f64> = [-1.5, -0.5, 0.5, 1.5].iter().map(|v| v * inv).collect();
        let expected = vec![
            2.0 * n0[0],
            2.0 * n0[1],
            2.0 * n0[2],
            2.0 * n0[3] + 10.0,
            n0[3],
            n0[2],
            n0[1],
            n0[0] + 10.0,
        ];
        close(&r[0].to_f64(), &expected, 1e-7);
        let bad = t(DType::F32, &[3], &[0.0; 3]);
        assert!(run_err(
            "dit.ada_layer_norm",
            &eps(0.0),
            &[Some(&x), Some(&bad), Some(&shift)],
            &[x.ty()]
        )
        .contains("broadcast"));
    }
}
