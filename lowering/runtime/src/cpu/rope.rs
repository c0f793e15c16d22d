//! dit.rope: rotary position embedding with aclnnRotaryPositionEmbedding's formulas,
//! y = x·cos + rotate(x)·sin, where rotate is
//! - "half" (mode 0, GPT-NeoX): cat(-x2, x1) of the two halves of the last dimension;
//! - "interleave" (mode 1, GPT-J): each pair (x[2i], x[2i+1]) becomes (-x[2i+1], x[2i]).
//!
//! cos and sin carry one angle per element of x's last dimension and broadcast to x.

use super::{broadcast_values, tensor_from, Ctx, Res};
use crate::Tensor;

/// rotate(x) of one row of even length `d` in `mode`.
pub(crate) fn rotate(row: &[f64], interleave: bool) -> Vec<f64> {
    let d = row.len();
    let half = d / 2;
    (0..d)
        .map(|i| match (interleave, i % 2 == 0, i < half) {
            (true, true, _) => -row[i + 1],
            (true, false, _) => row[i - 1],
            (false, _, true) => -row[i + half],
            (false, _, false) => row[i - half],
        })
        .collect()
}

/// dit.rope (x, cos, sin; mode "half" | "interleave").
pub(crate) fn rope(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(3)?;
    let x = ctx.input(0, "x")?;
    let (cos, sin) = (ctx.input(1, "cos")?, ctx.input(2, "sin")?);
    let out = ctx.result()?;
    let interleave = ctx.attr_enum("mode", &["half", "interleave"], None)? == "interleave";
    ctx.float(x, "x")?;
    ctx.result_is(out, &x.ty(), "result")?;
    if x.shape.len() < 2 {
        return Err(ctx.err("x must have rank >= 2"));
    }
    let d = x.shape[x.shape.len() - 1];
    if d % 2 != 0 {
        return Err(ctx.err(format!("x's last dimension {d} must be even")));
    }
    for (t, what) in [(cos, "cos"), (sin, "sin")] {
        ctx.float(t, what)?;
        if t.shape.last() != Some(&d) {
            return Err(ctx.err(format!(
                "{what}'s last dimension must equal x's last dimension {d}, got shape {:?}",
                t.shape
            )));
        }
    }
    if cos.ty() != sin.ty() {
        return Err(ctx.err("cos and sin must have the same type"));
    }
    let c = broadcast_values(ctx, cos, &x.shape, "cos")?;
    let s = broadcast_values(ctx, sin, &x.shape, "sin")?;
    let v = x.to_f64();
    let mut y = Vec::with_capacity(v.len());
    for (r, row) in v.chunks(d.max(1)).enumerate() {
        let rot = rotate(row, interleave);
        for i in 0..row.len() {
            let at = r * d + i;
            y.push(row[i] * c[at] + rot[i] * s[at]);
        }
    }
    Ok(vec![tensor_from(ctx, out, &y)?])
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use crate::DType;

    #[test]
    fn half_versus_interleave_on_four_elements() {
        let x = t(DType::F32, &[1, 4], &[1.0, 2.0, 3.0, 4.0]);
        // cos = 0, sin = 1 exposes rotate(x) itself.
        let zero = t(DType::F32, &[4], &[0.0; 4]);
        let one = t(DType::F32, &[4], &[1.0; 4]);
        let half = run(
            "dit.rope",
            &attrs(&[("mode", s("half"))]),
            &[&x, &zero, &one],
            &[x.ty()],
        );
        assert_eq!(half[0].to_f64(), vec![-3.0, -4.0, 1.0, 2.0]);
        let inter = run(
            "dit.rope",
            &attrs(&[("mode", s("interleave"))]),
            &[&x, &zero, &one],
            &[x.ty()],
        );
        assert_eq!(inter[0].to_f64(), vec![-2.0, 1.0, -4.0, 3.0]);
        // A real rotation by θ per pair: half pairs (x0, x2), (x1, x3); interleave (x0, x1), (x2, x3).
        let th = [0.3f64, 0.7];
        let ch = t(
            DType::F32,
            &[4],
            &[th[0].cos(), th[1].cos(), th[0].cos(), th[1].cos()],
        );
        let sh = t(
            DType::F32,
            &[4],
            &[th[0].sin(), th[1].sin(), th[0].sin(), th[1].sin()],
        );
        let r = run(
            "dit.rope",
            &attrs(&[("mode", s("half"))]),
            &[&x, &ch, &sh],
            &[x.ty()],
        );
        let rot = |a: f64, b: f64, t: f64| (a * t.cos() - b * t.sin(), a * t.sin() + b * t.cos());
        let (p0, q0) = rot(1.0, 3.0, th[0]);
        let (p1, q1) = rot(2.0, 4.0, th[1]);
        close(&r[0].to_f64(), &[p0, p1, q0, q1], 1e-6);
        let ci = t(
            DType::F32,
            &[4],
            &[th[0].cos(), th[0].cos(), th[1].cos(), th[1].cos()],
        );
        let si = t(
            DType::F32,
            &[4],
            &[th[0].sin(), th[0].sin(), th[1].sin(), th[1].sin()],
        );
        let r = run(
            "dit.rope",
            &attrs(&[("mode", s("interleave"))]),
            &[&x, &ci, &si],
            &[x.ty()],
        );
        let (a0, b0) = rot(1.0, 2.0, th[0]);
        let (a1, b1) = rot(3.0, 4.0, th[1]);
        close(&r[0].to_f64(), &[a0, b0, a1, b1], 1e-6);
    }

    #[test]
    fn tables_broadcast_per_position() {
        // x [1,2,2,2] (B,N,S,D), tables [2,2] per position S broadcast over heads.
        let x = t(
            DType::F32,
            &[1, 2, 2, 2],
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
        );
        let cos = t(DType::F32, &[2, 2], &[1.0, 1.0, 0.0, 0.0]);
        let sin = t(DType::F32, &[2, 2], &[0.0, 0.0, 1.0, 1.0]);
        let r = run(
            "dit.rope",
            &attrs(&[("mode", s("half"))]),
            &[&x, &cos, &sin],
            &[x.ty()],
        );
        assert_eq!(
            r[0].to_f64(),
            vec![1.0, 2.0, -4.0, 3.0, 5.0, 6.0, -8.0, 7.0]
        );
        let wrong = t(DType::F32, &[2, 4], &[0.0; 8]);
        assert!(run_err(
            "dit.rope",
            &attrs(&[("mode", s("half"))]),
            &[Some(&x), Some(&wrong), Some(&wrong)],
            &[x.ty()]
        )
        .contains("last dimension"));
        let odd = t(DType::F32, &[1, 3], &[0.0; 3]);
        let t3 = t(DType::F32, &[3], &[0.0; 3]);
        assert!(run_err(
            "dit.rope",
            &attrs(&[("mode", s("half"))]),
            &[Some(&odd), Some(&t3), Some(&t3)],
            &[odd.ty()]
        )
        .contains("even"));
    }
}
