//! Reference semantics for the `dit.opaque` ops the bundled MoE graphs use (torch_npu's names):
//! `topk`, `moe_token_permute`, `moe_token_unpermute`, and the KV-cache `scatter_update`. Any
//! other opaque name has no reference and is refused with its name.

use super::{Ctx, Res};
use crate::{DType, Tensor};

/// The opaque names this backend runs; the lowering refuses any other at compile time, so
/// that an op without semantics is a located error there, not a failure at run time.
pub const NAMES: &[&str] = &[
    "topk",
    "moe_token_permute",
    "moe_token_unpermute",
    "scatter_update",
];

/// Dispatches on the opaque op's `name` attribute.
pub fn opaque(ctx: &Ctx) -> Res<Vec<Tensor>> {
    let name = match ctx.attrs.get("name") {
        Some(crate::AttrValue::Str(n)) => n.clone(),
        _ => return Err(ctx.err("requires a string attribute 'name'")),
    };
    match name.as_str() {
        "topk" => topk(ctx),
        "moe_token_permute" => moe_token_permute(ctx),
        "moe_token_unpermute" => moe_token_unpermute(ctx),
        "scatter_update" => scatter_update(ctx),
        _ => Err(ctx.err(format!(
            "opaque op '{name}' has no reference semantics (known: topk, moe_token_permute, moe_token_unpermute, scatter_update)"
        ))),
    }
}

/// `topk(x) {k, dim = -1}` -> (values, indices i64) along the last dim, largest first; ties
/// keep the lower index first. (An unsorted top-k may return any order; largest-first is one.)
fn topk(ctx: &Ctx) -> Res<Vec<Tensor>> {
    ctx.slots(1)?;
    let x = ctx.input(0, "x")?;
    let results = ctx.results(2)?;
    let k = ctx.attr_i64("k")?;
    let rank = x.shape.len() as i64;
    let dim = ctx.attr_i64_or("dim", -1)?;
    if rank == 0 || !(dim == -1 || dim == rank - 1) {
        return Err(ctx.err("topk is supported along the last dim only"));
    }
    let n = x.shape[x.shape.len() - 1];
    if k < 1 || k as usize > n {
        return Err(ctx.err(format!("k = {k} is outside 1..={n}")));
    }
    let k = k as usize;
    let mut out_shape = x.shape.clone();
    *out_shape.last_mut().unwrap_or(&mut 0) = k;
    if results[0].shape != out_shape
        || results[1].shape != out_shape
        || results[1].dtype != DType::I64
    {
        return Err(ctx.err(format!("results must be [..., {k}] values and i64 indices")));
    }
    let rows = x.numel().checked_div(n).unwrap_or(0);
    let values = x.to_f64();
    let mut top = Vec::with_capacity(rows * k);
    let mut idx = Vec::with_capacity(rows * k);
    for r in 0..rows {
        let row = &values[r * n..(r + 1) * n];
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|a, b| row[*b].total_cmp(&row[*a]).then(a.cmp(b)));
        for &i in &order[..k] {
            top.push(row[i]);
            idx.push(i as i64);
        }
    }
    Ok(vec![
        Tensor::from_f64(results[0].dtype, &out_shape, &top)?,
        Tensor::from_i64(DType::I64, &out_shape, &idx)?,
    ])
}

/// `moe_token_permute(x [T, H], experts [T*k] i64) {num_experts}` -> (permuted [T*k, H],
/// sorted_indices [T*k] i64, tokens_per_expert [E] i64): the (token, choice) pairs stably
/// sorted by expert; row j of the result is token `sorted_indices[j] / k`.
fn moe_token_permute(ctx: &Ctx) -> Res<Vec<Tensor>> {
    ctx.slots(2)?;
    let x = ctx.input(0, "x")?;
    let experts = ctx.input(1, "expert_indices")?;
    let results = ctx.results(3)?;
    let e = ctx.attr_i64("num_experts")?;
    if x.shape.len() != 2 || experts.shape.len() != 1 || e < 1 {
        return Err(ctx.err("expects x [T, H], expert indices [T*k] and num_experts >= 1"));
    }
    let (t, h, n) = (x.shape[0], x.shape[1], experts.shape[0]);
    if t == 0 || !n.is_multiple_of(t) {
        return Err(ctx.err(format!("{n} expert choices do not split over {t} tokens")));
    }
    let k = n / t;
    let choice = experts.to_i64();
    if let Some(bad) = choice.iter().find(|c| **c < 0 || **c >= e) {
        return Err(ctx.err(format!("expert index {bad} is outside 0..{e}")));
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|j| choice[*j]);
    let mut permuted = Tensor::zeros(results[0].clone());
    if results[0].shape != [n, h] || results[0].dtype != x.dtype {
        return Err(ctx.err(format!(
            "result 0 must be {}[{n}, {h}]",
            x.dtype.mlir_name()
        )));
    }
    for (row, &j) in order.iter().enumerate() {
        let token = j / k;
        for c in 0..h {
            permuted.set_bits(row * h + c, x.get_bits(token * h + c));
        }
    }
    let mut counts = vec![0i64; e as usize];
    for c in &choice {
        counts[*c as usize] += 1;
    }
    Ok(vec![
        permuted,
        Tensor::from_i64(
            DType::I64,
            &[n],
            &order.iter().map(|j| *j as i64).collect::<Vec<_>>(),
        )?,
        Tensor::from_i64(DType::I64, &[e as usize], &counts)?,
    ])
}

/// `moe_token_unpermute(permuted [T*k, H], sorted_indices [T*k], probs [T, k])` -> [T, H]:
/// out[t] = sum over the k choices c of probs[t, c] * permuted[row of (t, c)].
fn moe_token_unpermute(ctx: &Ctx) -> Res<Vec<Tensor>> {
    ctx.slots(3)?;
    let permuted = ctx.input(0, "permuted_tokens")?;
    let sorted = ctx.input(1, "sorted_indices")?;
    let probs = ctx.input(2, "probs")?;
    let result = ctx.result()?;
    if permuted.shape.len() != 2 || probs.shape.len() != 2 || sorted.shape.len() != 1 {
        return Err(ctx.err("expects permuted [T*k, H], sorted indices [T*k], probs [T, k]"));
    }
    let (n, h) = (permuted.shape[0], permuted.shape[1]);
    let (t, k) = (probs.shape[0], probs.shape[1]);
    if sorted.shape[0] != n || t * k != n || result.shape != [t, h] {
        return Err(ctx.err(format!(
            "shapes disagree: {n} rows for {t} tokens x {k} choices"
        )));
    }
    let order = sorted.to_i64();
    let (rows, weights) = (permuted.to_f64(), probs.to_f64());
    let mut out = vec![0.0f64; t * h];
    for (row, &j) in order.iter().enumerate() {
        if j < 0 || j as usize >= n {
            return Err(ctx.err(format!("sorted index {j} is outside 0..{n}")));
        }
        let (token, c) = (j as usize / k, j as usize % k);
        let w = weights[token * k + c];
        for col in 0..h {
            out[token * h + col] += w * rows[row * h + col];
        }
    }
    Ok(vec![Tensor::from_f64(result.dtype, &result.shape, &out)?])
}

/// `scatter_update(data [B, ..., S, D], indices [B, U] i64, updates [B, ..., U, D]) {axis = -2}`
/// (torch_npu.scatter_update): a copy of data where, for each batch b and update u, the slice
/// at position indices[b, u] along `axis` is updates[b, ..., u, ...]. A negative index skips
/// the update (as KV-cache kernels skip padded tokens).
fn scatter_update(ctx: &Ctx) -> Res<Vec<Tensor>> {
    ctx.slots(3)?;
    let data = ctx.input(0, "data")?;
    let indices = ctx.input(1, "indices")?;
    let updates = ctx.input(2, "updates")?;
    let result = ctx.result()?;
    let rank = data.shape.len();
    let axis = ctx.attr_i64_or("axis", -2)?;
    let axis = if axis < 0 { axis + rank as i64 } else { axis };
    if rank < 2 || axis <= 0 || axis as usize >= rank {
        return Err(ctx.err("axis must name a dim after the batch dim"));
    }
    let axis = axis as usize;
    let (b, u) = match indices.shape.as_slice() {
        [b, u] => (*b, *u),
        _ => return Err(ctx.err("indices must be [B, U]")),
    };
    let mut expected = data.shape.clone();
    expected[axis] = u;
    if data.shape[0] != b || updates.shape != expected || updates.dtype != data.dtype {
        return Err(ctx.err(format!(
            "updates must be {}{:?} for data {:?} and {u} indices per batch",
            data.dtype.mlir_name(),
            expected,
            data.shape
        )));
    }
    if result.shape != data.shape || result.dtype != data.dtype {
        return Err(ctx.err("the result has the data's type"));
    }
    let mut out = data.clone();
    let outer: usize = data.shape[1..axis].iter().product();
    let inner: usize = data.shape[axis + 1..].iter().product();
    let s = data.shape[axis];
    let idx = indices.to_i64();
    for bi in 0..b {
        for ui in 0..u {
            let at = idx[bi * u + ui];
            if at < 0 {
                continue;
            }
            if at as usize >= s {
                return Err(ctx.err(format!("index {at} is outside 0..{s}")));
            }
            for o in 0..outer {
                for i in 0..inner {
                    let dst = ((bi * outer + o) * s + at as usize) * inner + i;
                    let src = ((bi * outer + o) * u + ui) * inner + i;
                    out.set_bits(dst, updates.get_bits(src));
                }
            }
        }
    }
    Ok(vec![out])
}

#[cfg(test)]
mod tests {
    use crate::{cpu::execute, AttrValue, Attrs, DType, Tensor, TensorType};

    fn attrs(pairs: &[(&str, AttrValue)]) -> Attrs {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn permute_then_unpermute_with_unit_weights_sums_the_choices() {
        // 2 tokens, 2 choices each, 3 experts.
        let x = Tensor::from_f64(DType::F32, &[2, 2], &[1.0, 2.0, 3.0, 4.0]).unwrap();
        let experts = Tensor::from_i64(DType::I64, &[4], &[2, 0, 0, 1]).unwrap();
        let a = attrs(&[
            ("name", AttrValue::Str("moe_token_permute".into())),
            ("num_experts", AttrValue::Int(3)),
        ]);
        let types = [
            TensorType {
                dtype: DType::F32,
                shape: vec![4, 2],
            },
            TensorType {
                dtype: DType::I64,
                shape: vec![4],
            },
            TensorType {
                dtype: DType::I64,
                shape: vec![3],
            },
        ];
        let out = execute("dit.opaque", &a, &[Some(&x), Some(&experts)], &types).unwrap();
        // Stable order by expert: choices 1 (e0), 2 (e0), 3 (e1), 0 (e2).
        assert_eq!(out[1].to_i64(), vec![1, 2, 3, 0]);
        assert_eq!(out[2].to_i64(), vec![2, 1, 1]);
        assert_eq!(
            out[0].to_f64(),
            vec![1.0, 2.0, 3.0, 4.0, 3.0, 4.0, 1.0, 2.0]
        );
        let probs = Tensor::from_f64(DType::F32, &[2, 2], &[1.0, 1.0, 1.0, 1.0]).unwrap();
        let u = attrs(&[("name", AttrValue::Str("moe_token_unpermute".into()))]);
        let back = execute(
            "dit.opaque",
            &u,
            &[Some(&out[0]), Some(&out[1]), Some(&probs)],
            &[TensorType {
                dtype: DType::F32,
                shape: vec![2, 2],
            }],
        )
        .unwrap();
        assert_eq!(back[0].to_f64(), vec![2.0, 4.0, 6.0, 8.0]);
    }

    #[test]
    fn scatter_update_writes_rows_at_the_indices() {
        let data = Tensor::from_f64(DType::F32, &[1, 1, 3, 2], &[0.0; 6]).unwrap();
        let idx = Tensor::from_i64(DType::I64, &[1, 2], &[2, -1]).unwrap();
        let upd = Tensor::from_f64(DType::F32, &[1, 1, 2, 2], &[1.0, 2.0, 3.0, 4.0]).unwrap();
        let a = attrs(&[("name", AttrValue::Str("scatter_update".into()))]);
        let ty = [TensorType {
            dtype: DType::F32,
            shape: vec![1, 1, 3, 2],
        }];
        let out = execute(
            "dit.opaque",
            &a,
            &[Some(&data), Some(&idx), Some(&upd)],
            &ty,
        )
        .unwrap();
        assert_eq!(out[0].to_f64(), vec![0.0, 0.0, 0.0, 0.0, 1.0, 2.0]);
    }

    #[test]
    fn topk_takes_the_largest_first() {
        let x = Tensor::from_f64(DType::F32, &[1, 4], &[0.5, 3.0, -1.0, 3.0]).unwrap();
        let a = attrs(&[
            ("name", AttrValue::Str("topk".into())),
            ("k", AttrValue::Int(2)),
        ]);
        let types = [
            TensorType {
                dtype: DType::F32,
                shape: vec![1, 2],
            },
            TensorType {
                dtype: DType::I64,
                shape: vec![1, 2],
            },
        ];
        let out = execute("dit.opaque", &a, &[Some(&x)], &types).unwrap();
        assert_eq!(out[0].to_f64(), vec![3.0, 3.0]);
        assert_eq!(out[1].to_i64(), vec![1, 3]);
        let unknown = attrs(&[("name", AttrValue::Str("nosuch".into()))]);
        assert!(execute("dit.opaque", &unknown, &[Some(&x)], &types).is_err());
    }
}
