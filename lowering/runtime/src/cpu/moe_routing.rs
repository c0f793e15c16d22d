//! Reference semantics of the MoE routing and indexing ops: dit.topk, dit.sort, dit.cumsum,
//! dit.floor_div, dit.index_select, dit.scatter_add and dit.index_add. Each follows the torch
//! op it is converted from (topk, sort / argsort, cumsum, floor_divide, index_select,
//! scatter_add, index_add with alpha 1), which is also what the aclnn kernel of the same name
//! documents (kernels.rs cites each). dit.moe_init_routing and dit.moe_finalize_routing follow
//! the formulas of aclnnMoeInitRoutingV2 and aclnnMoeFinalizeRoutingV2 (drop-less,
//! row-major expandedRowIdx), dit.moe_gating_topk_softmax that of aclnnMoeGatingTopKSoftmax.
//!
//! Integers are computed exactly in i64; floats in f64, rounded once to the result type (the
//! kernels accumulate in at least f32; a sum of two values, as in top-2 routing, rounds alike).
//! Indices out of range are a located error, as torch raises one.

use super::{broadcast_offsets, broadcast_shapes, tensor_from, tensor_from_i64, Ctx, Res};
use crate::{DType, Tensor, TensorType};
use std::cmp::Ordering;

/// A tensor's elements as exact integers or as floats.
enum Values {
    Ints(Vec<i64>),
    Floats(Vec<f64>),
}

impl Values {
    fn of(t: &Tensor) -> Values {
        if t.dtype.is_integer() {
            Values::Ints(t.to_i64())
        } else {
            Values::Floats(t.to_f64())
        }
    }

    /// Element order of torch's sort: NaN after every number, -0 equal to +0.
    fn cmp(&self, a: usize, b: usize) -> Ordering {
        match self {
            Values::Ints(v) => v[a].cmp(&v[b]),
            Values::Floats(v) => {
                let (x, y) = (v[a], v[b]);
                x.is_nan()
                    .cmp(&y.is_nan())
                    .then(x.partial_cmp(&y).unwrap_or(Ordering::Equal))
            }
        }
    }

    fn pick(&self, order: &[usize]) -> Values {
        match self {
            Values::Ints(v) => Values::Ints(order.iter().map(|i| v[*i]).collect()),
            Values::Floats(v) => Values::Floats(order.iter().map(|i| v[*i]).collect()),
        }
    }

    fn into_tensor(self, ctx: &Ctx<'_>, ty: &TensorType) -> Res<Tensor> {
        match self {
            Values::Ints(v) if ty.dtype.is_integer() => tensor_from_i64(ctx, ty, &v),
            Values::Ints(v) => {
                tensor_from(ctx, ty, &v.iter().map(|x| *x as f64).collect::<Vec<_>>())
            }
            Values::Floats(v) => tensor_from(ctx, ty, &v),
        }
    }
}

/// A tensor viewed as `[outer, n, inner]` around dimension `dim`.
#[derive(Clone, Copy)]
struct Around {
    outer: usize,
    n: usize,
    inner: usize,
}

impl Around {
    fn new(shape: &[usize], dim: usize) -> Around {
        Around {
            outer: shape[..dim].iter().product(),
            n: shape[dim],
            inner: shape[dim + 1..].iter().product(),
        }
    }

    fn at(&self, o: usize, j: usize, i: usize) -> usize {
        (o * self.n + j) * self.inner + i
    }
}

/// The indices of `index` (0-d or 1-d), each checked to lie in `0..size`.
fn index_list(ctx: &Ctx<'_>, index: &Tensor, size: usize) -> Res<Vec<usize>> {
    if index.shape.len() > 1 {
        return Err(ctx.err(format!(
            "index must be 0-d or 1-d, got shape {:?}",
            index.shape
        )));
    }
    ctx.dtype_in(index, &[DType::I64, DType::I32], "index")?;
    index
        .to_i64()
        .into_iter()
        .map(|i| {
            usize::try_from(i)
                .ok()
                .filter(|u| *u < size)
                .ok_or_else(|| {
                    ctx.err(format!(
                        "index {i} is out of range for a dim of size {size}"
                    ))
                })
        })
        .collect()
}

/// dit.topk (x; k, dim, largest, sorted) -> (values, indices i64): the k largest (smallest when
/// `largest` is false) elements along `dim`, best first; ties keep the lower index first. An
/// unsorted top-k may return its k elements in any order; best-first is one.
pub(crate) fn topk(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(1)?;
    let x = ctx.input(0, "x")?;
    let results = ctx.results(2)?;
    let dim = ctx.dim(ctx.attr_i64("dim")?, x.shape.len(), "dim")?;
    let largest = ctx.attr_bool("largest")?;
    ctx.attr_bool("sorted")?;
    let k = ctx.attr_i64("k")?;
    let a = Around::new(&x.shape, dim);
    let k = usize::try_from(k)
        .ok()
        .filter(|k| *k <= a.n)
        .ok_or_else(|| ctx.err(format!("k = {k} is outside 0..={}", a.n)))?;
    let mut shape = x.shape.clone();
    shape[dim] = k;
    ctx.result_is(
        &results[0],
        &TensorType::new(x.dtype, shape.clone()),
        "values",
    )?;
    ctx.result_is(&results[1], &TensorType::new(DType::I64, shape), "indices")?;
    let values = Values::of(x);
    let out = Around { n: k, ..a };
    let mut order = vec![0usize; out.outer * k * a.inner];
    let mut idx = vec![0i64; order.len()];
    for o in 0..a.outer {
        for i in 0..a.inner {
            let mut line: Vec<usize> = (0..a.n).collect();
            line.sort_by(|p, q| {
                let c = values.cmp(a.at(o, *p, i), a.at(o, *q, i));
                if largest {
                    c.reverse()
                } else {
                    c
                }
            });
            for (j, &p) in line[..k].iter().enumerate() {
                order[out.at(o, j, i)] = a.at(o, p, i);
                idx[out.at(o, j, i)] = p as i64;
            }
        }
    }
    Ok(vec![
        values.pick(&order).into_tensor(ctx, &results[0])?,
        tensor_from_i64(ctx, &results[1], &idx)?,
    ])
}

/// dit.moe_gating_topk_softmax (x [.., E], finished [..] optional; k) -> (y, expert_idx i32,
/// row_idx i32), as aclnnMoeGatingTopKSoftmax documents it: `softmaxOut = softmax(x, -1)`,
/// `yOut, expertIdxOut = topK(softmaxOut, k)`, `rowIdxOut = arange(T·k).reshape([k,
/// T]).transpose(1, 0)` over the T rows (all dims but the last, flattened), and expert E on a
/// row whose `finished` is true (the doc defines only its expert; its y is the row's top-k as
/// for any other row). The softmax is dit.softmax's, rounded to x's type, and the top-k
/// dit.topk's (largest first, ties keep the lower expert): the fused op equals the two ops it
/// replaces bit for bit, indices narrowed to i32.
pub(crate) fn moe_gating_topk_softmax(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(2)?;
    let x = ctx.input(0, "x")?;
    let finished = ctx.optional(1);
    let results = ctx.results(3)?;
    ctx.float(x, "x")?;
    let Some((&e, lead)) = x
        .shape
        .split_last()
        .filter(|_| (2..=3).contains(&x.shape.len()))
    else {
        return Err(ctx.err(format!("x must have rank 2 or 3, got shape {:?}", x.shape)));
    };
    let rows: usize = lead.iter().product();
    let k = ctx.attr_i64("k")?;
    let k = usize::try_from(k)
        .ok()
        .filter(|k| *k <= e && *k <= 1024)
        .ok_or_else(|| ctx.err(format!("k = {k} is outside 0..={}", e.min(1024))))?;
    let mut shape = lead.to_vec();
    shape.push(k);
    ctx.result_is(&results[0], &TensorType::new(x.dtype, shape.clone()), "y")?;
    ctx.result_is(
        &results[1],
        &TensorType::new(DType::I32, shape.clone()),
        "expert_idx",
    )?;
    ctx.result_is(&results[2], &TensorType::new(DType::I32, shape), "row_idx")?;
    let done = match finished {
        Some(f) => {
            ctx.dtype_in(f, &[DType::I1], "finished")?;
            ctx.shape_is(f, lead, "finished")?;
            f.to_i64().into_iter().map(|v| v != 0).collect()
        }
        None => vec![false; rows],
    };
    // softmax over the last dim, rounded to x's type as dit.softmax's result is.
    let v = x.to_f64();
    let mut probs = vec![0f64; v.len()];
    for r in 0..rows {
        let row = &v[r * e..(r + 1) * e];
        let max = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let sum: f64 = row.iter().map(|a| (a - max).exp()).sum();
        for (j, a) in row.iter().enumerate() {
            probs[r * e + j] = (a - max).exp() / sum;
        }
    }
    let probs = Values::Floats(tensor_from(ctx, &x.ty(), &probs)?.to_f64());
    let mut order = Vec::with_capacity(rows * k);
    let mut experts = Vec::with_capacity(rows * k);
    let mut row_idx = Vec::with_capacity(rows * k);
    for (r, &finished) in done.iter().enumerate() {
        let mut line: Vec<usize> = (0..e).collect();
        line.sort_by(|p, q| probs.cmp(r * e + *p, r * e + *q).reverse());
        for (j, &p) in line[..k].iter().enumerate() {
            order.push(r * e + p);
            experts.push(if finished { e as i64 } else { p as i64 });
            row_idx.push((j * rows + r) as i64);
        }
    }
    Ok(vec![
        probs.pick(&order).into_tensor(ctx, &results[0])?,
        tensor_from_i64(ctx, &results[1], &experts)?,
        tensor_from_i64(ctx, &results[2], &row_idx)?,
    ])
}

/// dit.sort (x; dim, descending, stable) -> (values, indices i64). Equal elements keep their
/// order (a stable sort is one valid unstable sort too).
pub(crate) fn sort(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(1)?;
    let x = ctx.input(0, "x")?;
    let results = ctx.results(2)?;
    let dim = ctx.dim(ctx.attr_i64("dim")?, x.shape.len(), "dim")?;
    let descending = ctx.attr_bool("descending")?;
    ctx.attr_bool("stable")?;
    ctx.result_is(&results[0], &x.ty(), "values")?;
    ctx.result_is(
        &results[1],
        &TensorType::new(DType::I64, x.shape.clone()),
        "indices",
    )?;
    let values = Values::of(x);
    let a = Around::new(&x.shape, dim);
    let mut order = vec![0usize; x.numel()];
    let mut idx = vec![0i64; x.numel()];
    for o in 0..a.outer {
        for i in 0..a.inner {
            let mut line: Vec<usize> = (0..a.n).collect();
            // `sort_by` is stable; reversing the comparison keeps equal elements in order.
            line.sort_by(|p, q| {
                let c = values.cmp(a.at(o, *p, i), a.at(o, *q, i));
                if descending {
                    c.reverse()
                } else {
                    c
                }
            });
            for (j, &p) in line.iter().enumerate() {
                order[a.at(o, j, i)] = a.at(o, p, i);
                idx[a.at(o, j, i)] = p as i64;
            }
        }
    }
    Ok(vec![
        values.pick(&order).into_tensor(ctx, &results[0])?,
        tensor_from_i64(ctx, &results[1], &idx)?,
    ])
}

/// dit.cumsum (x; dim): inclusive prefix sums along `dim` in the result's element type (torch
/// sums integers into i64 by default; the converter states the type).
pub(crate) fn cumsum(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(1)?;
    let x = ctx.input(0, "x")?;
    let out = ctx.result()?;
    let dim = ctx.dim(ctx.attr_i64("dim")?, x.shape.len(), "dim")?;
    if out.shape != x.shape {
        return Err(ctx.err(format!(
            "result shape {:?} differs from x's {:?}",
            out.shape, x.shape
        )));
    }
    let a = Around::new(&x.shape, dim);
    let mut values = Values::of(x);
    if out.dtype.is_float() {
        if let Values::Ints(v) = &values {
            values = Values::Floats(v.iter().map(|x| *x as f64).collect());
        }
    }
    for o in 0..a.outer {
        for i in 0..a.inner {
            for j in 1..a.n {
                let (prev, cur) = (a.at(o, j - 1, i), a.at(o, j, i));
                match &mut values {
                    Values::Ints(v) => v[cur] = v[cur].wrapping_add(v[prev]),
                    Values::Floats(v) => v[cur] += v[prev],
                }
            }
        }
    }
    Ok(vec![values.into_tensor(ctx, out)?])
}

/// dit.floor_div (lhs, rhs): floor(lhs / rhs) elementwise with broadcasting, Python's `//`.
/// An integer division by zero is an error (torch raises one).
pub(crate) fn floor_div(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(2)?;
    let (l, r) = (ctx.input(0, "lhs")?, ctx.input(1, "rhs")?);
    let out = ctx.result()?;
    if l.dtype != r.dtype {
        return Err(ctx.err("lhs and rhs element types differ"));
    }
    let shape = broadcast_shapes(&l.shape, &r.shape)
        .ok_or_else(|| ctx.err(format!("{:?} and {:?} do not broadcast", l.shape, r.shape)))?;
    ctx.result_is(out, &TensorType::new(l.dtype, shape.clone()), "result")?;
    let lo =
        broadcast_offsets(&l.shape, &shape).ok_or_else(|| ctx.err("lhs does not broadcast"))?;
    let ro =
        broadcast_offsets(&r.shape, &shape).ok_or_else(|| ctx.err("rhs does not broadcast"))?;
    if l.dtype.is_integer() {
        let (lv, rv) = (l.to_i64(), r.to_i64());
        let mut y = Vec::with_capacity(lo.len());
        for (a, b) in lo.iter().zip(&ro) {
            let (a, b) = (lv[*a], rv[*b]);
            if b == 0 {
                return Err(ctx.err("integer division by zero"));
            }
            let q = a.wrapping_div(b);
            // Truncation rounds toward zero; floor differs when the signs differ and b does
            // not divide a.
            y.push(if a.wrapping_rem(b) != 0 && ((a < 0) != (b < 0)) {
                q - 1
            } else {
                q
            });
        }
        return Ok(vec![tensor_from_i64(ctx, out, &y)?]);
    }
    ctx.float(l, "lhs")?;
    let (lv, rv) = (l.to_f64(), r.to_f64());
    let y: Vec<f64> = lo
        .iter()
        .zip(&ro)
        .map(|(a, b)| (lv[*a] / rv[*b]).floor())
        .collect();
    Ok(vec![tensor_from(ctx, out, &y)?])
}

/// dit.index_select (x, index; dim): x's slices `index[0], index[1], …` along `dim`.
pub(crate) fn index_select(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(2)?;
    let (x, index) = (ctx.input(0, "x")?, ctx.input(1, "index")?);
    let out = ctx.result()?;
    let dim = ctx.dim(ctx.attr_i64("dim")?, x.shape.len(), "dim")?;
    let a = Around::new(&x.shape, dim);
    let picks = index_list(ctx, index, a.n)?;
    let mut shape = x.shape.clone();
    shape[dim] = picks.len();
    ctx.result_is(out, &TensorType::new(x.dtype, shape), "result")?;
    let o_a = Around {
        n: picks.len(),
        ..a
    };
    let mut y = Tensor::zeros(out.clone());
    for o in 0..a.outer {
        for (j, &p) in picks.iter().enumerate() {
            for i in 0..a.inner {
                y.set_bits(o_a.at(o, j, i), x.get_bits(a.at(o, p, i)));
            }
        }
    }
    Ok(vec![y])
}

/// Adds `src` element `from` into accumulator element `to`.
fn accumulate(acc: &mut Values, src: &Values, to: usize, from: usize) {
    match (acc, src) {
        (Values::Ints(a), Values::Ints(s)) => a[to] = a[to].wrapping_add(s[from]),
        (Values::Floats(a), Values::Floats(s)) => a[to] += s[from],
        // Operand types are checked equal first.
        _ => {}
    }
}

/// dit.scatter_add (x, index, src; dim), torch.scatter_add: for every position p of index,
/// `out[p with p[dim] = index[p]] += src[p]`.
pub(crate) fn scatter_add(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(3)?;
    let (x, index, src) = (
        ctx.input(0, "x")?,
        ctx.input(1, "index")?,
        ctx.input(2, "src")?,
    );
    let out = ctx.result()?;
    ctx.result_is(out, &x.ty(), "result")?;
    if src.dtype != x.dtype {
        return Err(ctx.err("x and src element types differ"));
    }
    ctx.dtype_in(index, &[DType::I64, DType::I32], "index")?;
    let rank = x.shape.len();
    let dim = ctx.dim(ctx.attr_i64("dim")?, rank, "dim")?;
    if index.shape.len() != rank || src.shape.len() != rank {
        return Err(ctx.err("x, index and src must have one rank"));
    }
    for d in 0..rank {
        if index.shape[d] > src.shape[d] || (d != dim && index.shape[d] > x.shape[d]) {
            return Err(ctx.err(format!(
                "index {:?} must be no larger than src {:?} in every dim and than x {:?} outside dim {dim}",
                index.shape, src.shape, x.shape
            )));
        }
    }
    let (xs, ss) = (super::strides(&x.shape), super::strides(&src.shape));
    let iv = index.to_i64();
    let sv = Values::of(src);
    let mut acc = Values::of(x);
    let mut coord = vec![0usize; rank];
    for &target in &iv {
        let t = usize::try_from(target)
            .ok()
            .filter(|t| *t < x.shape[dim])
            .ok_or_else(|| {
                ctx.err(format!(
                    "index {target} is out of range for dim {dim} of size {}",
                    x.shape[dim]
                ))
            })?;
        let from: usize = coord.iter().zip(&ss).map(|(c, s)| c * s).sum();
        let to: usize = coord
            .iter()
            .enumerate()
            .map(|(d, c)| if d == dim { t } else { *c } * xs[d])
            .sum();
        accumulate(&mut acc, &sv, to, from);
        // Next position of index, row-major.
        for d in (0..rank).rev() {
            coord[d] += 1;
            if coord[d] < index.shape[d] {
                break;
            }
            coord[d] = 0;
        }
    }
    Ok(vec![acc.into_tensor(ctx, out)?])
}

/// dit.index_add (x, index, source; dim), torch.index_add with alpha 1: source's slice i along
/// `dim` is added to x's slice `index[i]`.
pub(crate) fn index_add(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(3)?;
    let (x, index, source) = (
        ctx.input(0, "x")?,
        ctx.input(1, "index")?,
        ctx.input(2, "source")?,
    );
    let out = ctx.result()?;
    ctx.result_is(out, &x.ty(), "result")?;
    if source.dtype != x.dtype {
        return Err(ctx.err("x and source element types differ"));
    }
    let dim = ctx.dim(ctx.attr_i64("dim")?, x.shape.len(), "dim")?;
    let a = Around::new(&x.shape, dim);
    let picks = index_list(ctx, index, a.n)?;
    let mut shape = x.shape.clone();
    shape[dim] = picks.len();
    if source.shape != shape {
        return Err(ctx.err(format!(
            "source has shape {:?}, expected {shape:?}",
            source.shape
        )));
    }
    let s_a = Around {
        n: picks.len(),
        ..a
    };
    let sv = Values::of(source);
    let mut acc = Values::of(x);
    for o in 0..a.outer {
        for (j, &p) in picks.iter().enumerate() {
            for i in 0..a.inner {
                accumulate(&mut acc, &sv, a.at(o, p, i), s_a.at(o, j, i));
            }
        }
    }
    Ok(vec![acc.into_tensor(ctx, out)?])
}

/// dit.moe_init_routing (x [T, H], expert_idx [T, K]; num_experts, expert_tokens), as
/// aclnnMoeInitRoutingV2 documents it in the drop-less mode:
/// `sortedExpertIdx, sortedRowIdx = keyValueSort(flatten(expertIdx))`,
/// `expandedRowIdx[sortedRowIdx[i]] = i`, `expandedX[expandedRowIdx[i]] = x[i / K]`, and the
/// histogram of the experts (or its cumsum), INT32 as the kernel writes it (i64 accepted too).
/// The sort here is stable; a kernel that orders ties otherwise permutes rows within an
/// expert's group, which the finalize step undoes.
pub(crate) fn moe_init_routing(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(2)?;
    let (x, e) = (ctx.input(0, "x")?, ctx.input(1, "expert_idx")?);
    let results = ctx.results(3)?;
    let experts = ctx.attr_i64("num_experts")?;
    let cumsum = ctx.attr_enum("expert_tokens", &["cumsum", "count"], None)? == "cumsum";
    ctx.float(x, "x")?;
    ctx.dtype_in(e, &[DType::I64, DType::I32], "expert_idx")?;
    let (&[t, h], &[te, k]) = (x.shape.as_slice(), e.shape.as_slice()) else {
        return Err(ctx.err("expects x [T, H] and expert_idx [T, K]"));
    };
    if t != te || experts < 1 {
        return Err(ctx.err(format!(
            "x has {t} tokens, expert_idx {te}; num_experts {experts} must be positive"
        )));
    }
    let n = t * k;
    ctx.result_is(
        &results[0],
        &TensorType::new(x.dtype, vec![n, h]),
        "expanded_x",
    )?;
    ctx.result_is(
        &results[1],
        &TensorType::new(DType::I32, vec![n]),
        "expanded_row_idx",
    )?;
    let ue = experts as usize;
    // The kernel writes the tokens per expert as INT32 (aclnnMoeInitRoutingV2.md's parameter
    // table); an i64 result, which the verifier still accepts, gets the same values.
    let tokens_type = if results[2].dtype == DType::I64 {
        DType::I64
    } else {
        DType::I32
    };
    ctx.result_is(
        &results[2],
        &TensorType::new(tokens_type, vec![ue]),
        "expert_tokens",
    )?;
    let choice = e.to_i64();
    if let Some(bad) = choice.iter().find(|c| !(0..experts).contains(*c)) {
        return Err(ctx.err(format!("expert index {bad} is outside 0..{experts}")));
    }
    let mut sorted: Vec<usize> = (0..n).collect();
    sorted.sort_by_key(|j| choice[*j]);
    let mut row_idx = vec![0i64; n];
    let mut expanded = Tensor::zeros(results[0].clone());
    for (i, &j) in sorted.iter().enumerate() {
        row_idx[j] = i as i64;
        for c in 0..h {
            expanded.set_bits(i * h + c, x.get_bits((j / k) * h + c));
        }
    }
    let mut tokens = vec![0i64; ue];
    for c in &choice {
        tokens[*c as usize] += 1;
    }
    if cumsum {
        for i in 1..ue {
            tokens[i] += tokens[i - 1];
        }
    }
    Ok(vec![
        expanded,
        tensor_from_i64(ctx, &results[1], &row_idx)?,
        tensor_from_i64(ctx, &results[2], &tokens)?,
    ])
}

/// dit.moe_finalize_routing (expanded_x [T·K, H], expanded_row_idx [T·K], scales [T, K]), as
/// aclnnMoeFinalizeRoutingV2 documents it without x1, x2 and bias, dropPadMode 2:
/// `out[t, j] = Σ_k scales[t, k] · expandedX[expandedRowIdx[t·K + k], j]`.
pub(crate) fn moe_finalize_routing(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(3)?;
    let (x, r, s) = (
        ctx.input(0, "expanded_x")?,
        ctx.input(1, "expanded_row_idx")?,
        ctx.input(2, "scales")?,
    );
    let out = ctx.result()?;
    ctx.float(x, "expanded_x")?;
    ctx.float(s, "scales")?;
    ctx.dtype_in(r, &[DType::I32], "expanded_row_idx")?;
    let (&[n, h], &[t, k]) = (x.shape.as_slice(), s.shape.as_slice()) else {
        return Err(ctx.err("expects expanded_x [T*K, H] and scales [T, K]"));
    };
    if n != t * k || r.shape != [n] {
        return Err(ctx.err(format!(
            "expanded_x has {n} rows and expanded_row_idx {:?}; scales [{t}, {k}] needs {}",
            r.shape,
            t * k
        )));
    }
    ctx.result_is(out, &TensorType::new(x.dtype, vec![t, h]), "result")?;
    let rows = index_list(ctx, r, n)?;
    let (xv, sv) = (x.to_f64(), s.to_f64());
    let mut y = vec![0f64; t * h];
    for token in 0..t {
        for c in 0..k {
            let (row, w) = (rows[token * k + c], sv[token * k + c]);
            for j in 0..h {
                y[token * h + j] += w * xv[row * h + j];
            }
        }
    }
    Ok(vec![tensor_from(ctx, out, &y)?])
}

#[cfg(test)]
mod tests {
    use super::super::execute;
    use super::super::test_util::*;
    use crate::{AttrValue, DType};

    fn int(v: i64) -> AttrValue {
        AttrValue::Int(v)
    }

    /// The fused router equals dit.softmax(x, -1) then dit.topk(largest) bit for bit (values in
    /// x's type, ties on the rounded probabilities keep the lower expert), with the ids as i32,
    /// rowIdxOut = arange(T·k).reshape([k, T]).transpose(1, 0), and expert E on finished rows.
    #[test]
    fn moe_gating_topk_softmax_is_softmax_then_topk() {
        // The router with finished absent.
        let gate = |x: &crate::Tensor, k: i64, results: &[crate::TensorType]| {
            execute(
                "dit.moe_gating_topk_softmax",
                &attrs(&[("k", int(k))]),
                &[Some(x), None],
                results,
            )
            .expect("runs")
        };
        // bf16 logits [3 tokens, 5 experts]; row 1 has two equal logits (a tie after softmax).
        let logits = [
            0.3, -1.2, 2.5, 0.9, 0.1, 1.0, 1.0, -0.5, 0.2, -2.0, -0.7, 0.4, 0.4, 3.1, -3.0,
        ];
        for dtype in [DType::BF16, DType::F16, DType::F32] {
            let x = t(dtype, &[3, 5], &logits);
            let sm = run(
                "dit.softmax",
                &attrs(&[("dim", int(-1))]),
                &[&x],
                &[ty(dtype, &[3, 5])],
            );
            let topk = run(
                "dit.topk",
                &attrs(&[
                    ("k", int(2)),
                    ("dim", int(1)),
                    ("largest", AttrValue::Bool(true)),
                    ("sorted", AttrValue::Bool(false)),
                ]),
                &[&sm[0]],
                &[ty(dtype, &[3, 2]), ty(DType::I64, &[3, 2])],
            );
            let fused = gate(
                &x,
                2,
                &[
                    ty(dtype, &[3, 2]),
                    ty(DType::I32, &[3, 2]),
                    ty(DType::I32, &[3, 2]),
                ],
            );
            assert_eq!(fused[0].ty(), topk[0].ty());
            assert_eq!(fused[0].to_f64(), topk[0].to_f64(), "{dtype:?}");
            assert_eq!(fused[1].to_i64(), topk[1].to_i64(), "{dtype:?}");
            assert_eq!(fused[1].to_i64(), vec![2, 3, 0, 1, 3, 1]);
            // rowIdx[t, j] = j·T + t for T = 3.
            assert_eq!(fused[2].to_i64(), vec![0, 3, 1, 4, 2, 5]);
        }
        // A finished row's experts are E (the last dim's size, 5).
        let x = t(DType::F32, &[3, 5], &logits);
        let done = ti(DType::I1, &[3], &[0, 1, 0]);
        let r = execute(
            "dit.moe_gating_topk_softmax",
            &attrs(&[("k", int(1))]),
            &[Some(&x), Some(&done)],
            &[
                ty(DType::F32, &[3, 1]),
                ty(DType::I32, &[3, 1]),
                ty(DType::I32, &[3, 1]),
            ],
        )
        .expect("runs");
        assert_eq!(r[1].to_i64(), vec![2, 5, 3]);
        // A rank-3 x: the rows are all dims but the last.
        let x3 = t(DType::F32, &[1, 3, 5], &logits);
        let r = gate(
            &x3,
            2,
            &[
                ty(DType::F32, &[1, 3, 2]),
                ty(DType::I32, &[1, 3, 2]),
                ty(DType::I32, &[1, 3, 2]),
            ],
        );
        assert_eq!(r[2].to_i64(), vec![0, 3, 1, 4, 2, 5]);
        // k over the experts, and int64 ids, are refused.
        let e = run_err(
            "dit.moe_gating_topk_softmax",
            &attrs(&[("k", int(6))]),
            &[Some(&x), None],
            &[
                ty(DType::F32, &[3, 6]),
                ty(DType::I32, &[3, 6]),
                ty(DType::I32, &[3, 6]),
            ],
        );
        assert!(e.contains("k = 6"), "{e}");
        let e = run_err(
            "dit.moe_gating_topk_softmax",
            &attrs(&[("k", int(2))]),
            &[Some(&x), None],
            &[
                ty(DType::F32, &[3, 2]),
                ty(DType::I64, &[3, 2]),
                ty(DType::I32, &[3, 2]),
            ],
        );
        assert!(e.contains("expert_idx"), "{e}");
    }

    #[test]
    fn topk_picks_the_k_best_along_dim() {
        let x = t(DType::F32, &[2, 3], &[0.1, 0.7, 0.2, 0.5, 0.5, 0.9]);
        let a = attrs(&[
            ("k", int(2)),
            ("dim", int(-1)),
            ("largest", AttrValue::Bool(true)),
            ("sorted", AttrValue::Bool(true)),
        ]);
        let r = run(
            "dit.topk",
            &a,
            &[&x],
            &[ty(DType::F32, &[2, 2]), ty(DType::I64, &[2, 2])],
        );
        close(&r[0].to_f64(), &[0.7, 0.2, 0.9, 0.5], 1e-7);
        // The tie 0.5 / 0.5 keeps the lower index.
        assert_eq!(r[1].to_i64(), vec![1, 2, 2, 0]);
        // Smallest along dim 0.
        let a = attrs(&[
            ("k", int(1)),
            ("dim", int(0)),
            ("largest", AttrValue::Bool(false)),
            ("sorted", AttrValue::Bool(true)),
        ]);
        let r = run(
            "dit.topk",
            &a,
            &[&x],
            &[ty(DType::F32, &[1, 3]), ty(DType::I64, &[1, 3])],
        );
        close(&r[0].to_f64(), &[0.1, 0.5, 0.2], 1e-7);
        assert_eq!(r[1].to_i64(), vec![0, 1, 0]);
        let a = attrs(&[
            ("k", int(4)),
            ("dim", int(1)),
            ("largest", AttrValue::Bool(true)),
            ("sorted", AttrValue::Bool(true)),
        ]);
        let msg = run_err(
            "dit.topk",
            &a,
            &[Some(&x)],
            &[ty(DType::F32, &[2, 4]), ty(DType::I64, &[2, 4])],
        );
        assert!(msg.contains("outside 0..=3"), "{msg}");
    }

    #[test]
    fn stable_sort_keeps_equal_elements_in_order() {
        // Expert choices of 4 (token, slot) pairs: a stable argsort groups them by expert.
        let x = ti(DType::I64, &[6], &[2, 0, 2, 1, 0, 2]);
        let up = attrs(&[
            ("dim", int(-1)),
            ("descending", AttrValue::Bool(false)),
            ("stable", AttrValue::Bool(true)),
        ]);
        let r = run(
            "dit.sort",
            &up,
            &[&x],
            &[ty(DType::I64, &[6]), ty(DType::I64, &[6])],
        );
        assert_eq!(r[0].to_i64(), vec![0, 0, 1, 2, 2, 2]);
        assert_eq!(r[1].to_i64(), vec![1, 4, 3, 0, 2, 5]);
        let down = attrs(&[
            ("dim", int(0)),
            ("descending", AttrValue::Bool(true)),
            ("stable", AttrValue::Bool(true)),
        ]);
        let r = run(
            "dit.sort",
            &down,
            &[&x],
            &[ty(DType::I64, &[6]), ty(DType::I64, &[6])],
        );
        assert_eq!(r[0].to_i64(), vec![2, 2, 2, 1, 0, 0]);
        assert_eq!(r[1].to_i64(), vec![0, 2, 5, 3, 1, 4]);
        // Floats: NaN sorts after every number.
        let f = t(DType::F32, &[3], &[f64::NAN, -1.0, 3.0]);
        let r = run(
            "dit.sort",
            &up,
            &[&f],
            &[ty(DType::F32, &[3]), ty(DType::I64, &[3])],
        );
        assert_eq!(r[1].to_i64(), vec![1, 2, 0]);
    }

    #[test]
    fn cumsum_sums_prefixes_in_the_result_type() {
        let x = ti(DType::I64, &[2, 3], &[1, 2, 3, 4, 5, 6]);
        let r = run(
            "dit.cumsum",
            &attrs(&[("dim", int(1))]),
            &[&x],
            &[ty(DType::I64, &[2, 3])],
        );
        assert_eq!(r[0].to_i64(), vec![1, 3, 6, 4, 9, 15]);
        let r = run(
            "dit.cumsum",
            &attrs(&[("dim", int(0))]),
            &[&x],
            &[ty(DType::F32, &[2, 3])],
        );
        assert_eq!(r[0].to_f64(), vec![1.0, 2.0, 3.0, 5.0, 7.0, 9.0]);
    }

    #[test]
    fn floor_div_rounds_toward_minus_infinity() {
        let a = ti(DType::I64, &[4], &[7, -7, 6, -1]);
        let b = ti(DType::I64, &[1], &[2]);
        let r = run(
            "dit.floor_div",
            &attrs(&[]),
            &[&a, &b],
            &[ty(DType::I64, &[4])],
        );
        assert_eq!(r[0].to_i64(), vec![3, -4, 3, -1]);
        let nb = ti(DType::I64, &[1], &[-2]);
        let r = run(
            "dit.floor_div",
            &attrs(&[]),
            &[&a, &nb],
            &[ty(DType::I64, &[4])],
        );
        assert_eq!(r[0].to_i64(), vec![-4, 3, -3, 0]);
        let f = t(DType::F32, &[2], &[7.5, -7.5]);
        let g = t(DType::F32, &[1], &[2.0]);
        let r = run(
            "dit.floor_div",
            &attrs(&[]),
            &[&f, &g],
            &[ty(DType::F32, &[2])],
        );
        assert_eq!(r[0].to_f64(), vec![3.0, -4.0]);
        let z = ti(DType::I64, &[1], &[0]);
        let msg = run_err(
            "dit.floor_div",
            &attrs(&[]),
            &[Some(&a), Some(&z)],
            &[ty(DType::I64, &[4])],
        );
        assert!(msg.contains("division by zero"), "{msg}");
    }

    #[test]
    fn index_select_gathers_slices() {
        let x = t(DType::BF16, &[3, 2], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let i = ti(DType::I64, &[4], &[2, 0, 0, 1]);
        let r = run(
            "dit.index_select",
            &attrs(&[("dim", int(0))]),
            &[&x, &i],
            &[ty(DType::BF16, &[4, 2])],
        );
        assert_eq!(r[0].to_f64(), vec![5.0, 6.0, 1.0, 2.0, 1.0, 2.0, 3.0, 4.0]);
        let j = ti(DType::I32, &[1], &[1]);
        let r = run(
            "dit.index_select",
            &attrs(&[("dim", int(1))]),
            &[&x, &j],
            &[ty(DType::BF16, &[3, 1])],
        );
        assert_eq!(r[0].to_f64(), vec![2.0, 4.0, 6.0]);
        let bad = ti(DType::I64, &[1], &[3]);
        let msg = run_err(
            "dit.index_select",
            &attrs(&[("dim", int(0))]),
            &[Some(&x), Some(&bad)],
            &[ty(DType::BF16, &[1, 2])],
        );
        assert!(msg.contains("out of range"), "{msg}");
    }

    #[test]
    fn scatter_add_counts_tokens_per_expert() {
        // HiDream's count: zeros(E).scatter_add(0, experts, ones).
        let zeros = ti(DType::I64, &[3], &[0, 0, 0]);
        let experts = ti(DType::I64, &[5], &[2, 0, 2, 1, 2]);
        let ones = ti(DType::I64, &[5], &[1, 1, 1, 1, 1]);
        let r = run(
            "dit.scatter_add",
            &attrs(&[("dim", int(0))]),
            &[&zeros, &experts, &ones],
            &[ty(DType::I64, &[3])],
        );
        assert_eq!(r[0].to_i64(), vec![1, 1, 3]);
        // 2-d along dim 1, with index smaller than src: out[r][index[r][c]] += src[r][c].
        let x = t(DType::F32, &[2, 3], &[0.0; 6]);
        let idx = ti(DType::I64, &[2, 1], &[2, 0]);
        let src = t(DType::F32, &[2, 2], &[1.0, 9.0, 2.0, 9.0]);
        let r = run(
            "dit.scatter_add",
            &attrs(&[("dim", int(1))]),
            &[&x, &idx, &src],
            &[ty(DType::F32, &[2, 3])],
        );
        assert_eq!(r[0].to_f64(), vec![0.0, 0.0, 1.0, 2.0, 0.0, 0.0]);
        let bad = ti(DType::I64, &[1], &[3]);
        let msg = run_err(
            "dit.scatter_add",
            &attrs(&[("dim", int(0))]),
            &[Some(&zeros), Some(&bad), Some(&ones)],
            &[ty(DType::I64, &[3])],
        );
        assert!(msg.contains("out of range"), "{msg}");
    }

    #[test]
    fn moe_init_and_finalize_routing_follow_the_documented_formulas() {
        // 3 tokens, top-2 of 3 experts: choices [1 2], [0 2], [2 0]; flattened [1 2 0 2 2 0].
        let x = t(DType::F32, &[3, 2], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let e = ti(DType::I64, &[3, 2], &[1, 2, 0, 2, 2, 0]);
        let a = attrs(&[("num_experts", int(3)), ("expert_tokens", s("cumsum"))]);
        let r = run(
            "dit.moe_init_routing",
            &a,
            &[&x, &e],
            &[
                ty(DType::F32, &[6, 2]),
                ty(DType::I32, &[6]),
                ty(DType::I64, &[3]),
            ],
        );
        // Sorted pairs (stable): 2, 5 (expert 0), 0 (expert 1), 1, 3, 4 (expert 2), i.e.
        // tokens 1, 2, 0, 0, 1, 2.
        assert_eq!(
            r[0].to_f64(),
            vec![3.0, 4.0, 5.0, 6.0, 1.0, 2.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
        );
        // expandedRowIdx[sortedRowIdx[i]] = i.
        assert_eq!(r[1].to_i64(), vec![2, 3, 0, 4, 5, 1]);
        assert_eq!(r[2].to_i64(), vec![2, 3, 6]);
        let count = attrs(&[("num_experts", int(3)), ("expert_tokens", s("count"))]);
        let c = run(
            "dit.moe_init_routing",
            &count,
            &[&x, &e],
            &[
                ty(DType::F32, &[6, 2]),
                ty(DType::I32, &[6]),
                ty(DType::I64, &[3]),
            ],
        );
        assert_eq!(c[2].to_i64(), vec![2, 1, 3]);
        // Finalize: expert outputs = the expanded rows times (row + 1); token t gets
        // Σ_k scale[t,k] · output of its pair (t, k).
        let y: Vec<f64> = r[0]
            .to_f64()
            .chunks(2)
            .enumerate()
            .flat_map(|(i, row)| {
                row.iter()
                    .map(move |v| v * (i + 1) as f64)
                    .collect::<Vec<_>>()
            })
            .collect();
        let y = t(DType::F32, &[6, 2], &y);
        let scales = t(DType::F32, &[3, 2], &[0.5, 0.25, 1.0, 2.0, 0.125, 4.0]);
        let out = run(
            "dit.moe_finalize_routing",
            &attrs(&[]),
            &[&y, &r[1], &scales],
            &[ty(DType::F32, &[3, 2])],
        );
        // Token 0: pair (0,0) is expanded row 2 (factor 3), pair (0,1) row 3 (factor 4):
        // x0·(0.5·3 + 0.25·4) = x0·2.5. Token 1: rows 0 and 4: x1·(1·1 + 2·5) = x1·11.
        // Token 2: rows 5 and 1: x2·(0.125·6 + 4·2) = x2·8.75.
        assert_eq!(out[0].to_f64(), vec![2.5, 5.0, 33.0, 44.0, 43.75, 52.5]);
        let bad = ti(DType::I64, &[3, 2], &[1, 2, 0, 3, 2, 0]);
        let msg = run_err(
            "dit.moe_init_routing",
            &a,
            &[Some(&x), Some(&bad)],
            &[
                ty(DType::F32, &[6, 2]),
                ty(DType::I32, &[6]),
                ty(DType::I64, &[3]),
            ],
        );
        assert!(msg.contains("outside 0..3"), "{msg}");
    }

    #[test]
    fn index_add_sums_rows_back_per_token() {
        // Two expert outputs per token, rows 0 and 2 belong to token 1, row 1 to token 0.
        let x = t(DType::F32, &[2, 2], &[0.0; 4]);
        let idx = ti(DType::I64, &[3], &[1, 0, 1]);
        let src = t(DType::F32, &[3, 2], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let r = run(
            "dit.index_add",
            &attrs(&[("dim", int(0))]),
            &[&x, &idx, &src],
            &[ty(DType::F32, &[2, 2])],
        );
        assert_eq!(r[0].to_f64(), vec![3.0, 4.0, 6.0, 8.0]);
        let short = t(DType::F32, &[2, 2], &[0.0; 4]);
        let msg = run_err(
            "dit.index_add",
            &attrs(&[("dim", int(0))]),
            &[Some(&x), Some(&idx), Some(&short)],
            &[ty(DType::F32, &[2, 2])],
        );
        assert!(msg.contains("source has shape"), "{msg}");
    }
}
