//! Matrix products: dit.matmul (batched, transposes, batch broadcasting), dit.linear and
//! dit.fused_matmul, plus the index plan the quantised products share.

use super::{broadcast_offsets, broadcast_shapes, gelu_erf, gelu_tanh, tensor_from, Ctx, Res};
use crate::{Tensor, TensorType};
use std::ops::{Add, Mul};

/// Where the elements of a batched product `op(a)·op(b)` live: `a` is `[batch…, M, K]` (or
/// `[batch…, K, M]` when transposed), `b` is `[batch…, K, N]` (or `[batch…, N, K]`); the batch
/// dimensions broadcast numpy-style.
pub(crate) struct Plan {
    /// `[batch…, M, N]`.
    pub out_shape: Vec<usize>,
    /// Rows of op(a).
    pub m: usize,
    /// The contraction length.
    pub k: usize,
    /// Columns of op(b).
    pub n: usize,
    ta: bool,
    tb: bool,
    /// Flat index of the first element of each output batch's `a` and `b` matrices.
    a_base: Vec<usize>,
    b_base: Vec<usize>,
}

impl Plan {
    /// Checks ranks (≥ 2), the contraction dimension and the batch broadcast.
    pub fn new(ctx: &Ctx<'_>, a: &[usize], b: &[usize], ta: bool, tb: bool) -> Res<Plan> {
        if a.len() < 2 || b.len() < 2 {
            return Err(ctx.err(format!(
                "matrix operands need rank >= 2, got shapes {a:?} and {b:?}"
            )));
        }
        let (ra, rb) = (a.len(), b.len());
        let (m, ka) = if ta {
            (a[ra - 1], a[ra - 2])
        } else {
            (a[ra - 2], a[ra - 1])
        };
        let (kb, n) = if tb {
            (b[rb - 1], b[rb - 2])
        } else {
            (b[rb - 2], b[rb - 1])
        };
        if ka != kb {
            return Err(ctx.err(format!(
                "contraction dimensions differ: {ka} vs {kb} (shapes {a:?} and {b:?})"
            )));
        }
        let batch = broadcast_shapes(&a[..ra - 2], &b[..rb - 2]).ok_or_else(|| {
            ctx.err(format!(
                "batch dimensions of {a:?} and {b:?} do not broadcast"
            ))
        })?;
        // Both batch shapes broadcast to `batch`, so the offsets exist.
        let a_off = broadcast_offsets(&a[..ra - 2], &batch).unwrap_or_default();
        let b_off = broadcast_offsets(&b[..rb - 2], &batch).unwrap_or_default();
        let mut out_shape = batch;
        out_shape.extend([m, n]);
        Ok(Plan {
            out_shape,
            m,
            k: ka,
            n,
            ta,
            tb,
            a_base: a_off.into_iter().map(|o| o * m * ka).collect(),
            b_base: b_off.into_iter().map(|o| o * ka * n).collect(),
        })
    }

    /// Number of output batches.
    pub fn batches(&self) -> usize {
        self.a_base.len()
    }

    /// Flat index in `a` of op(a)[batch][i][k].
    pub fn a_index(&self, batch: usize, i: usize, k: usize) -> usize {
        self.a_base[batch]
            + if self.ta {
                k * self.m + i
            } else {
                i * self.k + k
            }
    }

    /// Flat index in `b` of op(b)[batch][k][j].
    pub fn b_index(&self, batch: usize, k: usize, j: usize) -> usize {
        self.b_base[batch]
            + if self.tb {
                j * self.k + k
            } else {
                k * self.n + j
            }
    }

    /// The product, row-major `[batch…, M, N]`, accumulating in `T`.
    pub fn product<T>(&self, a: &[T], b: &[T]) -> Vec<T>
    where
        T: Copy + Default + Add<Output = T> + Mul<Output = T>,
    {
        let mut out = Vec::with_capacity(self.batches() * self.m * self.n);
        for batch in 0..self.batches() {
            for i in 0..self.m {
                for j in 0..self.n {
                    let mut acc = T::default();
                    for k in 0..self.k {
                        acc = acc + a[self.a_index(batch, i, k)] * b[self.b_index(batch, k, j)];
                    }
                    out.push(acc);
                }
            }
        }
        out
    }
}

/// `a·b` for tensors of one element type: f64 accumulation for floats, exact i128 for integers
/// (saturated when stored).
fn product_tensor(
    ctx: &Ctx<'_>,
    plan: &Plan,
    a: &Tensor,
    b: &Tensor,
    out: &TensorType,
) -> Res<Tensor> {
    if a.dtype.is_integer() {
        let av: Vec<i128> = a.to_i64().into_iter().map(i128::from).collect();
        let bv: Vec<i128> = b.to_i64().into_iter().map(i128::from).collect();
        let values: Vec<i64> = plan
            .product(&av, &bv)
            .into_iter()
            .map(|v| v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64)
            .collect();
        return super::tensor_from_i64(ctx, out, &values);
    }
    tensor_from(ctx, out, &plan.product(&a.to_f64(), &b.to_f64()))
}

/// dit.matmul: op(a)·op(b) with `transpose_a` / `transpose_b` and batch broadcasting.
pub(crate) fn matmul(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(2)?;
    let (a, b) = (ctx.input(0, "a")?, ctx.input(1, "b")?);
    let out = ctx.result()?;
    if a.dtype != b.dtype {
        return Err(ctx.err("a and b element types differ"));
    }
    let plan = Plan::new(
        ctx,
        &a.shape,
        &b.shape,
        ctx.attr_bool("transpose_a")?,
        ctx.attr_bool("transpose_b")?,
    )?;
    ctx.result_is(
        out,
        &TensorType::new(a.dtype, plan.out_shape.clone()),
        "result",
    )?;
    Ok(vec![product_tensor(ctx, &plan, a, b, out)?])
}

/// dit.linear: x·weightᵀ + bias with weight `[N, K]` and x `[…, K]`.
pub(crate) fn linear(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(3)?;
    let (x, w) = (ctx.input(0, "x")?, ctx.input(1, "weight")?);
    let bias = ctx.optional(2);
    let out = ctx.result()?;
    if x.dtype != w.dtype {
        return Err(ctx.err("x and weight element types differ"));
    }
    if w.shape.len() != 2 {
        return Err(ctx.err(format!("weight must be [N, K], got shape {:?}", w.shape)));
    }
    let Some(&k) = x.shape.last() else {
        return Err(ctx.err("x must have rank >= 1"));
    };
    let (n, wk) = (w.shape[0], w.shape[1]);
    if k != wk {
        return Err(ctx.err(format!(
            "x's last dimension {k} does not match weight's K {wk}"
        )));
    }
    if let Some(b) = bias {
        ctx.shape_is(b, &[n], "bias")?;
        if b.dtype != x.dtype {
            return Err(ctx.err("x and bias element types differ"));
        }
    }
    let mut shape = x.shape.clone();
    *shape.last_mut().unwrap_or(&mut 0) = n;
    ctx.result_is(out, &TensorType::new(x.dtype, shape), "result")?;
    // As a [rows, K] · [N, K]ᵀ product; the bias joins before the single rounding.
    let rows = x.numel() / k.max(1);
    let plan = Plan::new(ctx, &[rows, k], &w.shape, false, true)?;
    if x.dtype.is_integer() {
        let av: Vec<i128> = x.to_i64().into_iter().map(i128::from).collect();
        let wv: Vec<i128> = w.to_i64().into_iter().map(i128::from).collect();
        let bv: Vec<i128> = bias.map_or(vec![0; n], |b| {
            b.to_i64().into_iter().map(i128::from).collect()
        });
        let values: Vec<i64> = plan
            .product(&av, &wv)
            .into_iter()
            .enumerate()
            .map(|(i, v)| (v + bv[i % n]).clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64)
            .collect();
        return Ok(vec![super::tensor_from_i64(ctx, out, &values)?]);
    }
    let mut v = plan.product(&x.to_f64(), &w.to_f64());
    if let Some(b) = bias {
        let bv = b.to_f64();
        for (i, y) in v.iter_mut().enumerate() {
            *y += bv[i % n];
        }
    }
    Ok(vec![tensor_from(ctx, out, &v)?])
}

/// dit.fused_matmul (FusedMatmul, Ascend 950): x1 `[M, K]` · x2 `[K, N]` + bias, then
/// `fused_op_type`: "" nothing, "add" + x3, "mul" · x3, "gelu_tanh", "gelu_erf", "relu".
pub(crate) fn fused_matmul(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(4)?;
    let (x1, x2) = (ctx.input(0, "x1")?, ctx.input(1, "x2")?);
    let (bias, x3) = (ctx.optional(2), ctx.optional(3));
    let out = ctx.result()?;
    let kind = ctx.attr_enum(
        "fused_op_type",
        &["", "add", "mul", "gelu_tanh", "gelu_erf", "relu"],
        None,
    )?;
    ctx.float(x1, "x1")?;
    if x1.dtype != x2.dtype {
        return Err(ctx.err("x1 and x2 element types differ"));
    }
    if x1.shape.len() != 2 || x2.shape.len() != 2 {
        return Err(ctx.err("x1 and x2 must be 2-d"));
    }
    let plan = Plan::new(ctx, &x1.shape, &x2.shape, false, false)?;
    let (m, n) = (plan.m, plan.n);
    if let Some(b) = bias {
        ctx.float(b, "bias")?;
        ctx.shape_is(b, &[n], "bias")?;
    }
    let needs_x3 = kind == "add" || kind == "mul";
    if needs_x3 != x3.is_some() {
        return Err(ctx.err("x3 is required exactly when fused_op_type is \"add\" or \"mul\""));
    }
    if let Some(x3) = x3 {
        ctx.float(x3, "x3")?;
        ctx.shape_is(x3, &[m, n], "x3")?;
    }
    ctx.result_is(out, &TensorType::new(x1.dtype, vec![m, n]), "result")?;
    let mut v = plan.product(&x1.to_f64(), &x2.to_f64());
    let b = bias.map(Tensor::to_f64);
    let x3v = x3.map(Tensor::to_f64);
    for (i, y) in v.iter_mut().enumerate() {
        if let Some(b) = &b {
            *y += b[i % n];
        }
        *y = match (kind.as_str(), &x3v) {
            ("add", Some(x3)) => *y + x3[i],
            ("mul", Some(x3)) => *y * x3[i],
            ("gelu_tanh", _) => gelu_tanh(*y),
            ("gelu_erf", _) => gelu_erf(*y),
            ("relu", _) => y.max(0.0),
            _ => *y,
        };
    }
    Ok(vec![tensor_from(ctx, out, &v)?])
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use crate::{AttrValue, Attrs, DType};

    fn tr(a: bool, b: bool) -> Attrs {
        attrs(&[
            ("transpose_a", AttrValue::Bool(a)),
            ("transpose_b", AttrValue::Bool(b)),
        ])
    }

    #[test]
    fn matmul_plain_transposed_and_batched() {
        // a = [[1,2,3],[4,5,6]], b = [[1,0],[0,1],[1,1]] → [[4,5],[10,11]]
        let a = t(DType::F32, &[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let b = t(DType::F32, &[3, 2], &[1.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
        let r = run(
            "dit.matmul",
            &tr(false, false),
            &[&a, &b],
            &[ty(DType::F32, &[2, 2])],
        );
        assert_eq!(r[0].to_f64(), vec![4.0, 5.0, 10.0, 11.0]);
        // aᵀ given as [3,2] and bᵀ as [2,3].
        let at = t(DType::F32, &[3, 2], &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
        let bt = t(DType::F32, &[2, 3], &[1.0, 0.0, 1.0, 0.0, 1.0, 1.0]);
        let r = run(
            "dit.matmul",
            &tr(true, true),
            &[&at, &bt],
            &[ty(DType::F32, &[2, 2])],
        );
        assert_eq!(r[0].to_f64(), vec![4.0, 5.0, 10.0, 11.0]);
        // Batch broadcast: a [2,1,2,3] (second batch = 2·a) with b [3,3,2] → [2,3,2,2].
        let mut av = a.to_f64();
        av.extend(a.to_f64().iter().map(|v| 2.0 * v));
        let a4 = t(DType::F32, &[2, 1, 2, 3], &av);
        let mut bv = Vec::new();
        for s in 1..=3 {
            bv.extend(b.to_f64().iter().map(|v| v * f64::from(s)));
        }
        let b3 = t(DType::F32, &[3, 3, 2], &bv);
        let r = run(
            "dit.matmul",
            &tr(false, false),
            &[&a4, &b3],
            &[ty(DType::F32, &[2, 3, 2, 2])],
        );
        let y = r[0].to_f64();
        assert_eq!(y[..4], [4.0, 5.0, 10.0, 11.0]);
        assert_eq!(y[4..8], [8.0, 10.0, 20.0, 22.0]);
        assert_eq!(y[20..24], [24.0, 30.0, 60.0, 66.0]); // batch (1, 2): 2·a · 3·b
        let msg = run_err(
            "dit.matmul",
            &tr(false, false),
            &[Some(&a), Some(&a)],
            &[ty(DType::F32, &[2, 3])],
        );
        assert!(msg.contains("contraction"), "{msg}");
        // Integer matmul accumulates exactly.
        let i = ti(DType::I32, &[1, 2], &[i32::MAX as i64, 1]);
        let j = ti(DType::I32, &[2, 1], &[1, -1]);
        let r = run(
            "dit.matmul",
            &tr(false, false),
            &[&i, &j],
            &[ty(DType::I32, &[1, 1])],
        );
        assert_eq!(r[0].to_i64(), vec![i32::MAX as i64 - 1]);
    }

    #[test]
    fn linear_with_and_without_bias() {
        // x [2,2,3], W [2,3] → y [2,2,2]; y = x·Wᵀ + b.
        let x = t(
            DType::F32,
            &[2, 2, 3],
            &[1.0, 2.0, 3.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0, 2.0, 0.0, -1.0],
        );
        let w = t(DType::F32, &[2, 3], &[1.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
        let b = t(DType::F32, &[2], &[0.5, -0.5]);
        let out = ty(DType::F32, &[2, 2, 2]);
        let r = super::super::execute(
            "dit.linear",
            &Attrs::new(),
            &[Some(&x), Some(&w), Some(&b)],
            std::slice::from_ref(&out),
        )
        .unwrap();
        assert_eq!(r[0].to_f64(), vec![1.5, 5.5, 0.5, 0.5, 1.5, 2.5, 2.5, 0.5]);
        let r = super::super::execute(
            "dit.linear",
            &Attrs::new(),
            &[Some(&x), Some(&w), None],
            std::slice::from_ref(&out),
        )
        .unwrap();
        assert_eq!(r[0].to_f64(), vec![1.0, 6.0, 0.0, 1.0, 1.0, 3.0, 2.0, 1.0]);
        let bad_b = t(DType::F32, &[3], &[0.0; 3]);
        let msg = run_err(
            "dit.linear",
            &Attrs::new(),
            &[Some(&x), Some(&w), Some(&bad_b)],
            &[out],
        );
        assert!(msg.contains("bias"), "{msg}");
    }

    #[test]
    fn fused_matmul_epilogues() {
        let x1 = t(DType::F32, &[1, 2], &[1.0, -2.0]);
        let x2 = t(DType::F32, &[2, 2], &[1.0, 0.0, 0.0, 1.0]);
        let bias = t(DType::F32, &[2], &[0.5, 0.5]);
        let x3 = t(DType::F32, &[1, 2], &[2.0, 3.0]);
        let out = ty(DType::F32, &[1, 2]);
        let go = |kind: &str, x3: Option<&crate::Tensor>| {
            let a = attrs(&[("fused_op_type", s(kind))]);
            super::super::execute(
                "dit.fused_matmul",
                &a,
                &[Some(&x1), Some(&x2), Some(&bias), x3],
                std::slice::from_ref(&out),
            )
            .map(|r| r[0].to_f64())
        };
        assert_eq!(go("", None).unwrap(), vec![1.5, -1.5]);
        assert_eq!(go("add", Some(&x3)).unwrap(), vec![3.5, 1.5]);
        assert_eq!(go("mul", Some(&x3)).unwrap(), vec![3.0, -4.5]);
        assert_eq!(go("relu", None).unwrap(), vec![1.5, 0.0]);
        close(
            &go("gelu_erf", None).unwrap(),
            &[super::gelu_erf(1.5), super::gelu_erf(-1.5)],
            1e-7,
        );
        close(
            &go("gelu_tanh", None).unwrap(),
            &[super::gelu_tanh(1.5), super::gelu_tanh(-1.5)],
            1e-7,
        );
        assert!(go("add", None).is_err());
        assert!(go("relu", Some(&x3)).is_err());
    }
}
