//! Data movement: reshape, bitcast, broadcast, transpose, slice, split, concat. Elements move
//! as raw storage bits, so NaN payloads, signed zeros and packed nibbles survive unchanged.

use super::{broadcast_offsets, strides, type_string, Ctx, Res};
use crate::{DType, Tensor, TensorType};

/// A tensor of type `ty` whose element `i` is element `source[i]` of `x`.
fn gather(x: &Tensor, ty: &TensorType, source: impl IntoIterator<Item = usize>) -> Tensor {
    let mut y = Tensor::zeros(ty.clone());
    for (i, s) in source.into_iter().enumerate() {
        y.set_bits(i, x.get_bits(s));
    }
    y
}

/// dit.reshape: same element type and count; the bytes are unchanged.
pub(crate) fn reshape(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(1)?;
    let x = ctx.input(0, "x")?;
    let out = ctx.result()?;
    if out.dtype != x.dtype || out.checked_numel() != Some(x.numel()) {
        return Err(ctx.err(format!(
            "cannot reshape {} to {}: element type and count must stay",
            type_string(&x.ty()),
            type_string(out)
        )));
    }
    Ok(vec![Tensor {
        dtype: x.dtype,
        shape: out.shape.clone(),
        data: x.data.clone(),
    }])
}

/// dit.bitcast: the same bits read as the result type (same total size in bits). `i1` has no
/// defined bit layout in MLIR terms (1 bit) versus storage (1 byte), so it is refused.
pub(crate) fn bitcast(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(1)?;
    let x = ctx.input(0, "x")?;
    let out = ctx.result()?;
    if x.dtype == DType::I1 || out.dtype == DType::I1 {
        return Err(ctx.err("i1 has no bit layout to reinterpret"));
    }
    let bits = |t: &TensorType| {
        t.checked_numel()
            .and_then(|n| n.checked_mul(t.dtype.bits()))
    };
    if bits(&x.ty()) != bits(out) {
        return Err(ctx.err(format!(
            "bitcast changes the size in bits: {} to {}",
            type_string(&x.ty()),
            type_string(out)
        )));
    }
    Ok(vec![Tensor {
        dtype: out.dtype,
        shape: out.shape.clone(),
        data: x.data.clone(),
    }])
}

/// dit.broadcast: numpy broadcast to the result shape.
pub(crate) fn broadcast(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(1)?;
    let x = ctx.input(0, "x")?;
    let out = ctx.result()?;
    if out.dtype != x.dtype {
        return Err(ctx.err("broadcast keeps the element type"));
    }
    let offsets = broadcast_offsets(&x.shape, &out.shape).ok_or_else(|| {
        ctx.err(format!(
            "{:?} does not broadcast to {:?}",
            x.shape, out.shape
        ))
    })?;
    Ok(vec![gather(x, out, offsets)])
}

/// dit.transpose: result dimension i is operand dimension perm[i].
pub(crate) fn transpose(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(1)?;
    let x = ctx.input(0, "x")?;
    let out = ctx.result()?;
    let perm = ctx.attr_ints("perm")?;
    let rank = x.shape.len();
    let mut seen = vec![false; rank];
    let valid = perm.len() == rank
        && perm.iter().all(|&p| {
            let fresh = p >= 0 && (p as usize) < rank && !seen[p as usize];
            if fresh {
                seen[p as usize] = true;
            }
            fresh
        });
    if !valid {
        return Err(ctx.err(format!("perm {perm:?} is not a permutation of 0..{rank}")));
    }
    let perm: Vec<usize> = perm.iter().map(|&p| p as usize).collect();
    let shape: Vec<usize> = perm.iter().map(|&p| x.shape[p]).collect();
    ctx.result_is(out, &TensorType::new(x.dtype, shape.clone()), "result")?;
    let in_strides = strides(&x.shape);
    let out_strides = strides(&shape);
    let source = (0..x.numel()).map(|i| {
        perm.iter()
            .enumerate()
            .map(|(k, &p)| (i / out_strides[k]) % shape[k] * in_strides[p])
            .sum()
    });
    Ok(vec![gather(x, out, source)])
}

/// Python slice bounds: negative values count from the end, then clamp to `[0, size]`.
fn clamp_bound(v: i64, size: usize) -> usize {
    let size = size as i128;
    let v = i128::from(v);
    let c = if v < 0 {
        (v + size).max(0)
    } else {
        v.min(size)
    };
    c as usize
}

/// dit.slice: elements start, start+step, … below end along `dim` (Python semantics, step > 0).
pub(crate) fn slice(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(1)?;
    let x = ctx.input(0, "x")?;
    let out = ctx.result()?;
    let dim = ctx.dim(ctx.attr_i64("dim")?, x.shape.len(), "dim")?;
    let (start, end, step) = (
        ctx.attr_i64("start")?,
        ctx.attr_i64("end")?,
        ctx.attr_i64("step")?,
    );
    if step <= 0 {
        return Err(ctx.err(format!("step must be positive, got {step}")));
    }
    let size = x.shape[dim];
    let (s, e) = (clamp_bound(start, size), clamp_bound(end, size));
    let step = step as usize;
    let len = if e > s { (e - s).div_ceil(step) } else { 0 };
    let mut shape = x.shape.clone();
    shape[dim] = len;
    ctx.result_is(out, &TensorType::new(x.dtype, shape), "result")?;
    let inner: usize = x.shape[dim + 1..].iter().product();
    let outer: usize = x.shape[..dim].iter().product();
    let mut source = Vec::with_capacity(outer * len * inner);
    for o in 0..outer {
        for k in 0..len {
            let row = s + k * step;
            source.extend((0..inner).map(|i| (o * size + row) * inner + i));
        }
    }
    Ok(vec![gather(x, out, source)])
}

/// dit.split: consecutive parts of `sizes` along `dim`, one result each.
pub(crate) fn split(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(1)?;
    let x = ctx.input(0, "x")?;
    let dim = ctx.dim(ctx.attr_i64("dim")?, x.shape.len(), "dim")?;
    let sizes = ctx.attr_ints("sizes")?;
    let outs = ctx.results(sizes.len())?;
    if sizes.iter().any(|s| *s < 0) {
        return Err(ctx.err(format!("sizes must be non-negative, got {sizes:?}")));
    }
    let total: i128 = sizes.iter().map(|s| i128::from(*s)).sum();
    if total != x.shape[dim] as i128 {
        return Err(ctx.err(format!(
            "sizes {sizes:?} sum to {total}, but dimension {dim} is {}",
            x.shape[dim]
        )));
    }
    let size = x.shape[dim];
    let inner: usize = x.shape[dim + 1..].iter().product();
    let outer: usize = x.shape[..dim].iter().product();
    let mut at = 0usize;
    let mut results = Vec::with_capacity(sizes.len());
    for (i, (&part, out)) in sizes.iter().zip(outs).enumerate() {
        let part = part as usize;
        let mut shape = x.shape.clone();
        shape[dim] = part;
        ctx.result_is(
            out,
            &TensorType::new(x.dtype, shape),
            &format!("result #{i}"),
        )?;
        let mut source = Vec::with_capacity(outer * part * inner);
        for o in 0..outer {
            for k in 0..part {
                source.extend((0..inner).map(|j| (o * size + at + k) * inner + j));
            }
        }
        results.push(gather(x, out, source));
        at += part;
    }
    Ok(results)
}

/// dit.concat: operands joined along `dim` (all other dimensions equal).
pub(crate) fn concat(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    let out = ctx.result()?;
    let xs: Vec<&Tensor> = ctx
        .inputs
        .iter()
        .enumerate()
        .map(|(i, _)| ctx.input(i, &format!("xs#{i}")))
        .collect::<Res<_>>()?;
    let Some(first) = xs.first() else {
        return Err(ctx.err("needs at least one operand"));
    };
    let rank = first.shape.len();
    let dim = ctx.dim(ctx.attr_i64("dim")?, rank, "dim")?;
    let mut total = 0usize;
    for (i, x) in xs.iter().enumerate() {
        let same_rest =
            x.shape.len() == rank && (0..rank).all(|d| d == dim || x.shape[d] == first.shape[d]);
        if x.dtype != first.dtype || !same_rest {
            return Err(ctx.err(format!(
                "operand #{i} {} does not concatenate with {} along dimension {dim}",
                type_string(&x.ty()),
                type_string(&first.ty())
            )));
        }
        total = total
            .checked_add(x.shape[dim])
            .ok_or_else(|| ctx.err("concatenated size overflows"))?;
    }
    let mut shape = first.shape.clone();
    shape[dim] = total;
    ctx.result_is(out, &TensorType::new(first.dtype, shape), "result")?;
    let inner: usize = first.shape[dim + 1..].iter().product();
    let outer: usize = first.shape[..dim].iter().product();
    let mut y = Tensor::zeros(out.clone());
    let mut i = 0;
    for o in 0..outer {
        for x in &xs {
            let block = x.shape[dim] * inner;
            for k in 0..block {
                y.set_bits(i, x.get_bits(o * block + k));
                i += 1;
            }
        }
    }
    Ok(vec![y])
}

#[cfg(test)]
mod tests {
    use super::super::execute;
    use super::super::test_util::*;
    use crate::{AttrValue, Attrs, DType, Tensor};

    fn int(v: i64) -> AttrValue {
        AttrValue::Int(v)
    }

    #[test]
    fn reshape_and_bitcast() {
        let x = ti(DType::I4, &[2, 3], &[1, -2, 3, -4, 5, -6]);
        let r = run(
            "dit.reshape",
            &Attrs::new(),
            &[&x],
            &[ty(DType::I4, &[3, 2])],
        );
        assert_eq!(r[0].to_i64(), x.to_i64());
        assert_eq!(r[0].shape, vec![3, 2]);
        assert!(run_err(
            "dit.reshape",
            &Attrs::new(),
            &[Some(&x)],
            &[ty(DType::I4, &[4])]
        )
        .contains("cannot reshape"));
        let f = t(DType::F32, &[2], &[1.0, -2.0]);
        let r = run("dit.bitcast", &Attrs::new(), &[&f], &[ty(DType::I32, &[2])]);
        assert_eq!(
            r[0].to_i64(),
            vec![0x3F80_0000, 0xC000_0000u32 as i32 as i64]
        );
        let r = run("dit.bitcast", &Attrs::new(), &[&f], &[ty(DType::F16, &[4])]);
        assert_eq!(r[0].get(1), 1.875); // high half of 1.0f32 is 0x3F80 = 1.875 in f16
        assert!(run_err(
            "dit.bitcast",
            &Attrs::new(),
            &[Some(&f)],
            &[ty(DType::F16, &[3])]
        )
        .contains("size in bits"));
    }

    #[test]
    fn broadcast_and_transpose() {
        let x = t(DType::BF16, &[2, 1], &[1.0, 2.0]);
        let r = run(
            "dit.broadcast",
            &Attrs::new(),
            &[&x],
            &[ty(DType::BF16, &[2, 2, 3])],
        );
        assert_eq!(
            r[0].to_f64(),
            vec![1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0]
        );
        assert!(run_err(
            "dit.broadcast",
            &Attrs::new(),
            &[Some(&x)],
            &[ty(DType::BF16, &[3, 3])]
        )
        .contains("broadcast"));

        // x[2,3,2] → perm [2,0,1] → [2,2,3]: y[c][a][b] = x[a][b][c].
        let v: Vec<f64> = (0..12).map(f64::from).collect();
        let x = t(DType::F32, &[2, 3, 2], &v);
        let a = attrs(&[("perm", AttrValue::Ints(vec![2, 0, 1]))]);
        let r = run("dit.transpose", &a, &[&x], &[ty(DType::F32, &[2, 2, 3])]);
        assert_eq!(
            r[0].to_f64(),
            vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 1.0, 3.0, 5.0, 7.0, 9.0, 11.0]
        );
        let bad = attrs(&[("perm", AttrValue::Ints(vec![0, 0, 1]))]);
        assert!(run_err(
            "dit.transpose",
            &bad,
            &[Some(&x)],
            &[ty(DType::F32, &[2, 2, 3])]
        )
        .contains("permutation"));
    }

    #[test]
    fn slice_split_concat() {
        let v: Vec<f64> = (0..10).map(f64::from).collect();
        let x = t(DType::F32, &[2, 5], &v);
        let a = attrs(&[
            ("dim", int(1)),
            ("start", int(-4)),
            ("end", int(100)),
            ("step", int(2)),
        ]);
        let r = run("dit.slice", &a, &[&x], &[ty(DType::F32, &[2, 2])]);
        assert_eq!(r[0].to_f64(), vec![1.0, 3.0, 6.0, 8.0]);
        let empty = attrs(&[
            ("dim", int(0)),
            ("start", int(3)),
            ("end", int(1)),
            ("step", int(1)),
        ]);
        let r = run("dit.slice", &empty, &[&x], &[ty(DType::F32, &[0, 5])]);
        assert_eq!(r[0].numel(), 0);
        let zero_step = attrs(&[
            ("dim", int(0)),
            ("start", int(0)),
            ("end", int(1)),
            ("step", int(0)),
        ]);
        assert!(run_err(
            "dit.slice",
            &zero_step,
            &[Some(&x)],
            &[ty(DType::F32, &[1, 5])]
        )
        .contains("step"));

        let a = attrs(&[("dim", int(-1)), ("sizes", AttrValue::Ints(vec![2, 3]))]);
        let parts = run(
            "dit.split",
            &a,
            &[&x],
            &[ty(DType::F32, &[2, 2]), ty(DType::F32, &[2, 3])],
        );
        assert_eq!(parts[0].to_f64(), vec![0.0, 1.0, 5.0, 6.0]);
        assert_eq!(parts[1].to_f64(), vec![2.0, 3.0, 4.0, 7.0, 8.0, 9.0]);
        let bad = attrs(&[("dim", int(1)), ("sizes", AttrValue::Ints(vec![2, 2]))]);
        assert!(run_err(
            "dit.split",
            &bad,
            &[Some(&x)],
            &[ty(DType::F32, &[2, 2]), ty(DType::F32, &[2, 2])]
        )
        .contains("sum to"));

        let c = attrs(&[("dim", int(1))]);
        let r = run(
            "dit.concat",
            &c,
            &[&parts[1], &parts[0]],
            &[ty(DType::F32, &[2, 5])],
        );
        assert_eq!(
            r[0].to_f64(),
            vec![2.0, 3.0, 4.0, 0.0, 1.0, 7.0, 8.0, 9.0, 5.0, 6.0]
        );
        let r = run(
            "dit.concat",
            &attrs(&[("dim", int(0))]),
            &[&x, &x],
            &[ty(DType::F32, &[4, 5])],
        );
        assert_eq!(r[0].to_f64()[10..], v[..]);
        // Packed i4 concat keeps nibbles straight.
        let p = ti(DType::I4, &[3], &[1, 2, 3]);
        let q = ti(DType::I4, &[1], &[-1]);
        let r = run(
            "dit.concat",
            &attrs(&[("dim", int(0))]),
            &[&p, &q],
            &[ty(DType::I4, &[4])],
        );
        assert_eq!(r[0].to_i64(), vec![1, 2, 3, -1]);
        let d0 = attrs(&[("dim", int(0))]);
        let msg = match execute(
            "dit.concat",
            &d0,
            &[Some(&parts[0]), Some(&x)],
            &[ty(DType::F32, &[4, 5])],
        ) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("mismatched concat accepted"),
        };
        assert!(msg.contains("does not concatenate"), "{msg}");
        let z: &[Option<&Tensor>] = &[];
        assert!(run_err("dit.concat", &c, z, &[ty(DType::F32, &[1])]).contains("at least one"));
    }
}
