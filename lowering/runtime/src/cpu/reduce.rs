//! Reductions: dit.reduce_mean / dit.reduce_sum over a set of dimensions, and dit.softmax.

use super::{strides, tensor_from, tensor_from_i64, Ctx, Res};
use crate::{Tensor, TensorType};

/// dit.reduce_mean / dit.reduce_sum: `dims` (non-empty, distinct, negative counts from the
/// end), `keepdim`. Floats sum in f64; integer sums are exact (i128) and saturate to the type,
/// an integer mean rounds half to even.
pub(crate) fn reduce(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(1)?;
    let x = ctx.input(0, "x")?;
    let out = ctx.result()?;
    let keepdim = ctx.attr_bool("keepdim")?;
    let rank = x.shape.len();
    let mut reduced = vec![false; rank];
    let dims = ctx.attr_ints("dims")?;
    if dims.is_empty() {
        return Err(ctx.err("dims must not be empty"));
    }
    for d in dims {
        let d = ctx.dim(d, rank, "reduced dim")?;
        if reduced[d] {
            return Err(ctx.err(format!("dims lists dimension {d} twice")));
        }
        reduced[d] = true;
    }
    let shape: Vec<usize> = (0..rank)
        .filter_map(|i| match (reduced[i], keepdim) {
            (true, true) => Some(1),
            (true, false) => None,
            (false, _) => Some(x.shape[i]),
        })
        .collect();
    ctx.result_is(out, &TensorType::new(x.dtype, shape), "result")?;
    // Output slot of every input element: its index with the reduced coordinates dropped.
    let kept: Vec<usize> = (0..rank).filter(|i| !reduced[*i]).collect();
    let kept_shape: Vec<usize> = kept.iter().map(|&i| x.shape[i]).collect();
    let kept_strides = strides(&kept_shape);
    let in_strides = strides(&x.shape);
    let slots: usize = kept_shape.iter().product();
    let count: usize = (0..rank)
        .filter(|i| reduced[*i])
        .map(|i| x.shape[i])
        .product();
    let target = |flat: usize| -> usize {
        kept.iter()
            .zip(&kept_strides)
            .map(|(&d, &s)| (flat / in_strides[d]) % x.shape[d] * s)
            .sum()
    };
    let mean = ctx.kind == dit_ops::OpKind::ReduceMean;
    if x.dtype.is_integer() {
        let mut sums = vec![0i128; slots];
        for (i, v) in x.to_i64().into_iter().enumerate() {
            sums[target(i)] += i128::from(v);
        }
        let values: Vec<i64> = sums
            .into_iter()
            .map(|s| {
                if mean {
                    // The mean of integers rounds half to even like every float → int here.
                    if count == 0 {
                        0
                    } else {
                        (s as f64 / count as f64).round_ties_even() as i64
                    }
                } else {
                    s.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
                }
            })
            .collect();
        return Ok(vec![tensor_from_i64(ctx, out, &values)?]);
    }
    let mut sums = vec![0f64; slots];
    for (i, v) in x.to_f64().into_iter().enumerate() {
        sums[target(i)] += v;
    }
    if mean {
        // An empty reduction gives 0/0 = NaN, as in PyTorch.
        for s in &mut sums {
            *s /= count as f64;
        }
    }
    Ok(vec![tensor_from(ctx, out, &sums)?])
}

/// dit.softmax along `dim`: exp(x - max) / Σ exp(x - max).
pub(crate) fn softmax(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(1)?;
    let x = ctx.input(0, "x")?;
    let out = ctx.result()?;
    ctx.float(x, "x")?;
    ctx.result_is(out, &x.ty(), "result")?;
    let dim = ctx.dim(ctx.attr_i64("dim")?, x.shape.len(), "dim")?;
    let size = x.shape[dim];
    let inner: usize = x.shape[dim + 1..].iter().product();
    let outer: usize = x.shape[..dim].iter().product();
    let v = x.to_f64();
    let mut y = vec![0f64; v.len()];
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| (o * size + k) * inner + i;
            let max = (0..size)
                .map(|k| v[at(k)])
                .fold(f64::NEG_INFINITY, f64::max);
            let sum: f64 = (0..size).map(|k| (v[at(k)] - max).exp()).sum();
            for k in 0..size {
                y[at(k)] = (v[at(k)] - max).exp() / sum;
            }
        }
    }
    Ok(vec![tensor_from(ctx, out, &y)?])
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use crate::{AttrValue, DType};

    fn a(dims: &[i64], keepdim: bool) -> crate::Attrs {
        attrs(&[
            ("dims", AttrValue::Ints(dims.to_vec())),
            ("keepdim", AttrValue::Bool(keepdim)),
        ])
    }

    #[test]
    fn sums_and_means() {
        // x[2,3] = [[1,2,3],[4,5,6]]
        let x = t(DType::F32, &[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let r = run(
            "dit.reduce_sum",
            &a(&[1], false),
            &[&x],
            &[ty(DType::F32, &[2])],
        );
        assert_eq!(r[0].to_f64(), vec![6.0, 15.0]);
        let r = run(
            "dit.reduce_sum",
            &a(&[0], true),
            &[&x],
            &[ty(DType::F32, &[1, 3])],
        );
        assert_eq!(r[0].to_f64(), vec![5.0, 7.0, 9.0]);
        let r = run(
            "dit.reduce_mean",
            &a(&[-1, 0], false),
            &[&x],
            &[ty(DType::F32, &[])],
        );
        assert_eq!(r[0].to_f64(), vec![3.5]);
        let r = run(
            "dit.reduce_mean",
            &a(&[1], true),
            &[&x],
            &[ty(DType::F32, &[2, 1])],
        );
        assert_eq!(r[0].to_f64(), vec![2.0, 5.0]);
        // Middle dimension of a 3-d tensor.
        let y = t(
            DType::F32,
            &[2, 2, 2],
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
        );
        let r = run(
            "dit.reduce_sum",
            &a(&[1], false),
            &[&y],
            &[ty(DType::F32, &[2, 2])],
        );
        assert_eq!(r[0].to_f64(), vec![4.0, 6.0, 12.0, 14.0]);
        // Integers: exact sum, mean rounds half to even (5/2 = 2.5 → 2).
        let i = ti(DType::I32, &[2, 2], &[2, 3, 1, 2]);
        let r = run(
            "dit.reduce_mean",
            &a(&[1], false),
            &[&i],
            &[ty(DType::I32, &[2])],
        );
        assert_eq!(r[0].to_i64(), vec![2, 2]);
        let r = run(
            "dit.reduce_sum",
            &a(&[0, 1], false),
            &[&i],
            &[ty(DType::I32, &[])],
        );
        assert_eq!(r[0].to_i64(), vec![8]);
        // Bad dims and result shapes.
        let msg = run_err(
            "dit.reduce_sum",
            &a(&[1, 1], false),
            &[Some(&x)],
            &[ty(DType::F32, &[2])],
        );
        assert!(msg.contains("twice"), "{msg}");
        let msg = run_err(
            "dit.reduce_sum",
            &a(&[2], false),
            &[Some(&x)],
            &[ty(DType::F32, &[2])],
        );
        assert!(msg.contains("out of range"), "{msg}");
        let msg = run_err(
            "dit.reduce_sum",
            &a(&[1], true),
            &[Some(&x)],
            &[ty(DType::F32, &[2])],
        );
        assert!(msg.contains("result type"), "{msg}");
    }

    #[test]
    fn softmax_rows_and_columns() {
        let x = t(DType::F32, &[2, 2], &[0.0, 1.0, 1000.0, 1000.0]);
        let r = run(
            "dit.softmax",
            &attrs(&[("dim", AttrValue::Int(1))]),
            &[&x],
            &[x.ty()],
        );
        let e = 1f64.exp();
        close(
            &r[0].to_f64(),
            &[1.0 / (1.0 + e), e / (1.0 + e), 0.5, 0.5],
            1e-7,
        );
        let r = run(
            "dit.softmax",
            &attrs(&[("dim", AttrValue::Int(0))]),
            &[&x],
            &[x.ty()],
        );
        close(&r[0].to_f64(), &[0.0, 0.0, 1.0, 1.0], 1e-7);
    }
}
