//! Elementwise ops: unary activations, broadcasting binaries, cast, and the fused vector ops
//! (muls_add, silu_mul, swiglu, gelu_mul).

use super::{
    broadcast_offsets, broadcast_shapes, gelu_erf, gelu_tanh, sigmoid, silu, tensor_from, Ctx, Res,
};
use crate::{DType, Tensor, TensorType};
use dit_ops::OpKind as K;

/// Wraps an exact integer result to the two's complement width of `dtype` (integer arithmetic
/// on the NPU, as in PyTorch, wraps rather than saturates).
fn wrap(dtype: DType, v: i128) -> i64 {
    let bits = dtype.bits() as u32;
    let shift = 128 - bits;
    ((v << shift) >> shift) as i64
}

/// dit.neg … dit.relu, dit.gelu and dit.fast_gelu: result type = operand type.
pub(crate) fn unary(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(1)?;
    let x = ctx.input(0, "x")?;
    let out = ctx.result()?;
    ctx.result_is(out, &x.ty(), "result")?;
    let kind = ctx.kind;
    if !matches!(kind, K::Neg | K::Relu) {
        ctx.float(x, "operand")?;
    }
    if x.dtype.is_integer() {
        // Only neg and relu reach here: exact integer arithmetic.
        let values: Vec<i64> = x
            .to_i64()
            .into_iter()
            .map(|v| match kind {
                K::Neg => wrap(x.dtype, -i128::from(v)),
                _ => v.max(0),
            })
            .collect();
        return Ok(vec![super::tensor_from_i64(ctx, out, &values)?]);
    }
    let f: fn(f64) -> f64 = match kind {
        K::Neg => |x| -x,
        K::Exp => f64::exp,
        K::Sqrt => f64::sqrt,
        K::Rsqrt => |x| 1.0 / x.sqrt(),
        K::Tanh => f64::tanh,
        // Radians, computed in f64 and rounded once to the result type (as every unary op).
        K::Sin => f64::sin,
        K::Cos => f64::cos,
        K::Erf => super::erf,
        K::Sigmoid => sigmoid,
        K::Silu => silu,
        // max(x, 0) would turn NaN into 0; relu keeps NaN like the kernels do.
        K::Relu => |x| if x < 0.0 { 0.0 } else { x },
        K::Gelu => match ctx
            .attr_enum("approximate", &["none", "tanh"], None)?
            .as_str()
        {
            "none" => gelu_erf,
            _ => gelu_tanh,
        },
        // CANN FastGelu: x / (1 + e^(-1.702|x|)) · e^(0.851(x - |x|)), which equals
        // x·σ(1.702x) but never overflows the exponential.
        K::FastGelu => |x: f64| {
            let a = x.abs();
            x / (1.0 + (-1.702 * a).exp()) * (0.851 * (x - a)).exp()
        },
        _ => return Err(ctx.err("is not a unary op")),
    };
    let values: Vec<f64> = x.to_f64().into_iter().map(f).collect();
    Ok(vec![tensor_from(ctx, out, &values)?])
}

/// dit.add / sub / mul / div / pow with numpy broadcasting.
pub(crate) fn binary(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(2)?;
    let (l, r) = (ctx.input(0, "lhs")?, ctx.input(1, "rhs")?);
    let out = ctx.result()?;
    if l.dtype != r.dtype {
        return Err(ctx.err(format!(
            "lhs and rhs element types {} and {} differ",
            l.dtype.mlir_name(),
            r.dtype.mlir_name()
        )));
    }
    let kind = ctx.kind;
    if matches!(kind, K::Div | K::Pow) {
        ctx.float(l, "operand")?;
    }
    let shape = broadcast_shapes(&l.shape, &r.shape).ok_or_else(|| {
        ctx.err(format!(
            "shapes {:?} and {:?} do not broadcast",
            l.shape, r.shape
        ))
    })?;
    ctx.result_is(out, &TensorType::new(l.dtype, shape.clone()), "result")?;
    // Each operand broadcasts to the broadcast shape, so these cannot fail.
    let lo = broadcast_offsets(&l.shape, &shape).ok_or_else(|| ctx.err("lhs broadcast"))?;
    let ro = broadcast_offsets(&r.shape, &shape).ok_or_else(|| ctx.err("rhs broadcast"))?;
    if l.dtype.is_integer() {
        let (lv, rv) = (l.to_i64(), r.to_i64());
        let values: Vec<i64> = lo
            .iter()
            .zip(&ro)
            .map(|(&a, &b)| {
                let (a, b) = (i128::from(lv[a]), i128::from(rv[b]));
                wrap(
                    l.dtype,
                    match kind {
                        K::Add => a + b,
                        K::Sub => a - b,
                        _ => a * b,
                    },
                )
            })
            .collect();
        return Ok(vec![super::tensor_from_i64(ctx, out, &values)?]);
    }
    let f: fn(f64, f64) -> f64 = match kind {
        K::Add => |a, b| a + b,
        K::Sub => |a, b| a - b,
        K::Mul => |a, b| a * b,
        K::Div => |a, b| a / b,
        _ => f64::powf,
    };
    let (lv, rv) = (l.to_f64(), r.to_f64());
    let values: Vec<f64> = lo.iter().zip(&ro).map(|(&a, &b)| f(lv[a], rv[b])).collect();
    Ok(vec![tensor_from(ctx, out, &values)?])
}

/// dit.cast: to the result's element type. Floats round to nearest even; to an integer type
/// values round half to even and saturate (NaN → 0); integer → integer is exact then saturates;
/// to i1 any non-zero value is true.
pub(crate) fn cast(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(1)?;
    let x = ctx.input(0, "x")?;
    let out = ctx.result()?;
    if out.shape != x.shape {
        return Err(ctx.err(format!(
            "result shape {:?} differs from the operand's {:?}",
            out.shape, x.shape
        )));
    }
    let mut y = Tensor::zeros(out.clone());
    let exact_int = |d: DType| d.is_integer() || d == DType::I1;
    for i in 0..x.numel() {
        // Integer sources go through i64 (exact beyond 2^53); everything else through f64, and
        // `set` rounds half to even and saturates when the target is an integer type.
        if exact_int(x.dtype) {
            y.set_i64(i, x.get_i64(i));
        } else {
            y.set(i, x.get(i));
        }
    }
    Ok(vec![y])
}

/// dit.muls_add: x·scale + y (broadcasting).
pub(crate) fn muls_add(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(2)?;
    let (x, y) = (ctx.input(0, "x")?, ctx.input(1, "y")?);
    let scale = ctx.attr_f64("scale")?;
    let out = ctx.result()?;
    ctx.float(x, "x")?;
    if x.dtype != y.dtype {
        return Err(ctx.err("x and y element types differ"));
    }
    let shape = broadcast_shapes(&x.shape, &y.shape).ok_or_else(|| {
        ctx.err(format!(
            "x {:?} and y {:?} do not broadcast",
            x.shape, y.shape
        ))
    })?;
    ctx.result_is(out, &TensorType::new(x.dtype, shape.clone()), "result")?;
    let xv = super::broadcast_values(ctx, x, &shape, "x")?;
    let yv = super::broadcast_values(ctx, y, &shape, "y")?;
    let values: Vec<f64> = xv.iter().zip(&yv).map(|(a, b)| a * scale + b).collect();
    Ok(vec![tensor_from(ctx, out, &values)?])
}

/// dit.silu_mul: silu(gate)·up, both and the result of one type.
pub(crate) fn silu_mul(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(2)?;
    let (g, u) = (ctx.input(0, "gate")?, ctx.input(1, "up")?);
    let out = ctx.result()?;
    ctx.float(g, "gate")?;
    if g.ty() != u.ty() {
        return Err(ctx.err("gate and up must have the same type"));
    }
    ctx.result_is(out, &g.ty(), "result")?;
    let values: Vec<f64> = g
        .to_f64()
        .into_iter()
        .zip(u.to_f64())
        .map(|(a, b)| silu(a) * b)
        .collect();
    Ok(vec![tensor_from(ctx, out, &values)?])
}

/// Splits `x` along `dim` into its first and second halves (the gate is the FIRST half in
/// DIALECT.md) and applies `f(first, second)`, checking the result type.
fn gated(ctx: &Ctx<'_>, x: &Tensor, dim: usize, f: impl Fn(f64, f64) -> f64) -> Res<Vec<Tensor>> {
    let out = ctx.result()?;
    let size = x.shape[dim];
    if !size.is_multiple_of(2) {
        return Err(ctx.err(format!(
            "dimension {dim} has size {size}, which is not even"
        )));
    }
    let half = size / 2;
    let mut shape = x.shape.clone();
    shape[dim] = half;
    ctx.result_is(out, &TensorType::new(x.dtype, shape), "result")?;
    let inner: usize = x.shape[dim + 1..].iter().product();
    let outer: usize = x.shape[..dim].iter().product();
    let v = x.to_f64();
    let mut values = Vec::with_capacity(outer * half * inner);
    for o in 0..outer {
        for h in 0..half {
            for i in 0..inner {
                let a = v[(o * size + h) * inner + i];
                let b = v[(o * size + half + h) * inner + i];
                values.push(f(a, b));
            }
        }
    }
    Ok(vec![tensor_from(ctx, out, &values)?])
}

/// dit.swiglu: silu(first half)·second half along `dim`.
pub(crate) fn swiglu(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(1)?;
    let x = ctx.input(0, "x")?;
    ctx.float(x, "x")?;
    let dim = ctx.dim(ctx.attr_i64("dim")?, x.shape.len(), "dim")?;
    gated(ctx, x, dim, |a, b| silu(a) * b)
}

/// dit.gelu_mul: gelu(first half)·second half of the last dimension (GeluMul takes a last
/// dimension of at most 1024).
pub(crate) fn gelu_mul(ctx: &Ctx<'_>) -> Res<Vec<Tensor>> {
    ctx.slots(1)?;
    let x = ctx.input(0, "x")?;
    ctx.float(x, "x")?;
    let approximate = ctx.attr_enum("approximate", &["none", "tanh"], None)?;
    let Some(&last) = x.shape.last() else {
        return Err(ctx.err("x must have rank >= 1"));
    };
    if last > 1024 {
        return Err(ctx.err(format!(
            "x's last dimension {last} exceeds GeluMul's limit of 1024"
        )));
    }
    let gelu = if approximate == "none" {
        gelu_erf
    } else {
        gelu_tanh
    };
    gated(ctx, x, x.shape.len() - 1, |a, b| gelu(a) * b)
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use crate::{AttrValue, Attrs, DType};

    fn none() -> Attrs {
        Attrs::new()
    }

    #[test]
    fn unary_ops() {
        let x = t(DType::F32, &[4], &[-2.0, -0.5, 0.0, 1.5]);
        type Case = (&'static str, fn(f64) -> f64);
        let cases: &[Case] = &[
            ("dit.neg", |v| -v),
            ("dit.exp", f64::exp),
            ("dit.tanh", f64::tanh),
            ("dit.sin", f64::sin),
            ("dit.cos", f64::cos),
            ("dit.sigmoid", |v| 1.0 / (1.0 + (-v).exp())),
            ("dit.silu", |v| v / (1.0 + (-v).exp())),
            ("dit.relu", |v| v.max(0.0)),
            ("dit.erf", libm::erf),
        ];
        for (op, f) in cases {
            let y = run(op, &none(), &[&x], &[x.ty()]);
            let expected: Vec<f64> = x
                .to_f64()
                .into_iter()
                .map(f)
                .map(|v| DType::F32.round(v))
                .collect();
            close(&y[0].to_f64(), &expected, 1e-7);
        }
        let p = t(DType::F32, &[2], &[4.0, 0.25]);
        close(
            &run("dit.sqrt", &none(), &[&p], &[p.ty()])[0].to_f64(),
            &[2.0, 0.5],
            0.0,
        );
        close(
            &run("dit.rsqrt", &none(), &[&p], &[p.ty()])[0].to_f64(),
            &[0.5, 2.0],
            0.0,
        );
        // Integer neg wraps (i8: -(-128) = -128), relu clamps.
        let i = ti(DType::I8, &[3], &[-128, -3, 5]);
        assert_eq!(
            run("dit.neg", &none(), &[&i], &[i.ty()])[0].to_i64(),
            vec![-128, 3, -5]
        );
        assert_eq!(
            run("dit.relu", &none(), &[&i], &[i.ty()])[0].to_i64(),
            vec![0, 0, 5]
        );
        // Non-float operands of float ops are rejected.
        let msg = run_err("dit.exp", &none(), &[Some(&i)], &[i.ty()]);
        assert!(msg.contains("not one of"), "{msg}");
    }

    #[test]
    fn gelu_variants() {
        let x = t(DType::F32, &[3], &[-1.0, 0.5, 2.0]);
        let erf = run(
            "dit.gelu",
            &attrs(&[("approximate", s("none"))]),
            &[&x],
            &[x.ty()],
        );
        close(
            &erf[0].to_f64(),
            &[
                -0.158_655_253_931_457_05,
                0.345_731_230_637_006_56,
                1.954_499_736_103_642,
            ],
            1e-7,
        );
        let tanh = run(
            "dit.gelu",
            &attrs(&[("approximate", s("tanh"))]),
            &[&x],
            &[x.ty()],
        );
        close(
            &tanh[0].to_f64(),
            &[
                -0.158_808_009_391_723_5,
                0.345_714_009_825_143_94,
                1.954_597_694_087_775,
            ],
            1e-7,
        );
        // FastGelu: x·σ(1.702x).
        let fast = run("dit.fast_gelu", &none(), &[&x], &[x.ty()]);
        let expected: Vec<f64> = x
            .to_f64()
            .iter()
            .map(|v| v / (1.0 + (-1.702 * v).exp()))
            .collect();
        close(&fast[0].to_f64(), &expected, 1e-7);
        // Large negative inputs give -0-ish, not NaN.
        let big = t(DType::F32, &[1], &[-1000.0]);
        assert_eq!(
            run("dit.fast_gelu", &none(), &[&big], &[big.ty()])[0].get(0),
            0.0
        );
        let msg = run_err("dit.gelu", &none(), &[Some(&x)], &[x.ty()]);
        assert!(msg.contains("requires attribute 'approximate'"), "{msg}");
    }

    #[test]
    fn binary_broadcast() {
        let a = t(DType::F32, &[2, 1], &[1.0, 2.0]);
        let b = t(DType::F32, &[3], &[10.0, 20.0, 30.0]);
        let r = ty(DType::F32, &[2, 3]);
        let add = run("dit.add", &none(), &[&a, &b], std::slice::from_ref(&r));
        assert_eq!(add[0].to_f64(), vec![11.0, 21.0, 31.0, 12.0, 22.0, 32.0]);
        let sub = run("dit.sub", &none(), &[&a, &b], std::slice::from_ref(&r));
        assert_eq!(
            sub[0].to_f64(),
            vec![-9.0, -19.0, -29.0, -8.0, -18.0, -28.0]
        );
        let mul = run("dit.mul", &none(), &[&a, &b], std::slice::from_ref(&r));
        assert_eq!(mul[0].to_f64(), vec![10.0, 20.0, 30.0, 20.0, 40.0, 60.0]);
        let div = run("dit.div", &none(), &[&b, &a], std::slice::from_ref(&r));
        assert_eq!(div[0].to_f64(), vec![10.0, 20.0, 30.0, 5.0, 10.0, 15.0]);
        let pow = run("dit.pow", &none(), &[&a, &b], std::slice::from_ref(&r));
        assert_eq!(pow[0].get(4), 2f64.powi(20));
        // f16 rounds once: 1 + 2^-11 is a tie → 1.
        let h1 = t(DType::F16, &[1], &[1.0]);
        let h2 = t(DType::F16, &[1], &[2f64.powi(-11)]);
        assert_eq!(
            run("dit.add", &none(), &[&h1, &h2], &[h1.ty()])[0].get(0),
            1.0
        );
        // Integer add wraps like the NPU.
        let i = ti(DType::I8, &[2], &[100, -100]);
        assert_eq!(
            run("dit.add", &none(), &[&i, &i], &[i.ty()])[0].to_i64(),
            vec![-56, 56]
        );
        // Shapes that do not broadcast, a wrong result shape, mixed types.
        let c = t(DType::F32, &[2], &[1.0, 2.0]);
        assert!(
            run_err("dit.add", &none(), &[Some(&b), Some(&c)], &[b.ty()]).contains("broadcast")
        );
        assert!(
            run_err("dit.add", &none(), &[Some(&a), Some(&b)], &[a.ty()]).contains("result type")
        );
        let h = t(DType::F16, &[3], &[1.0, 2.0, 3.0]);
        assert!(run_err("dit.add", &none(), &[Some(&b), Some(&h)], &[b.ty()]).contains("differ"));
        assert!(
            run_err("dit.div", &none(), &[Some(&i), Some(&i)], &[i.ty()]).contains("not one of")
        );
    }

    #[test]
    fn cast_rounds_and_saturates() {
        let x = t(DType::F32, &[6], &[2.5, 3.5, -2.5, 300.0, -1e9, f64::NAN]);
        let y = run("dit.cast", &none(), &[&x], &[ty(DType::I8, &[6])]);
        assert_eq!(y[0].to_i64(), vec![2, 4, -2, 127, -128, 0]);
        let i = ti(DType::I64, &[2], &[i64::MAX, -5]);
        let y = run("dit.cast", &none(), &[&i], &[ty(DType::I32, &[2])]);
        assert_eq!(y[0].to_i64(), vec![i32::MAX as i64, -5]);
        let y = run("dit.cast", &none(), &[&x], &[ty(DType::F16, &[6])]);
        assert_eq!(y[0].get(3), 300.0);
        let y = run("dit.cast", &none(), &[&x], &[ty(DType::F8E4M3FN, &[6])]);
        assert_eq!(y[0].get(3), 288.0);
        assert_eq!(y[0].get(4), -448.0);
        let y = run("dit.cast", &none(), &[&x], &[ty(DType::I1, &[6])]);
        assert_eq!(y[0].to_i64(), vec![1, 1, 1, 1, 1, 1]);
        let y = run("dit.cast", &none(), &[&x], &[ty(DType::I4, &[6])]);
        assert_eq!(y[0].to_i64(), vec![2, 4, -2, 7, -8, 0]);
        assert!(
            run_err("dit.cast", &none(), &[Some(&x)], &[ty(DType::I8, &[3])]).contains("shape")
        );
    }

    #[test]
    fn fused_vector_ops() {
        let x = t(DType::F32, &[2, 2], &[1.0, 2.0, 3.0, 4.0]);
        let y = t(DType::F32, &[2], &[0.5, -0.5]);
        let a = attrs(&[("scale", AttrValue::Float(2.0))]);
        let r = run("dit.muls_add", &a, &[&x, &y], &[x.ty()]);
        assert_eq!(r[0].to_f64(), vec![2.5, 3.5, 6.5, 7.5]);

        let g = t(DType::F32, &[2], &[1.0, -1.0]);
        let u = t(DType::F32, &[2], &[2.0, 3.0]);
        let r = run("dit.silu_mul", &none(), &[&g, &u], &[g.ty()]);
        close(
            &r[0].to_f64(),
            &[2.0 * super::silu(1.0), 3.0 * super::silu(-1.0)],
            1e-7,
        );

        // swiglu: the FIRST half is the gate. x = [[a0 a1 | b0 b1]].
        let x = t(DType::F32, &[1, 4], &[1.0, -2.0, 3.0, 5.0]);
        let r = run(
            "dit.swiglu",
            &attrs(&[("dim", AttrValue::Int(-1))]),
            &[&x],
            &[ty(DType::F32, &[1, 2])],
        );
        close(
            &r[0].to_f64(),
            &[super::silu(1.0) * 3.0, super::silu(-2.0) * 5.0],
            1e-7,
        );
        // Along dim 0: rows are the halves.
        let x0 = t(DType::F32, &[2, 2], &[1.0, 2.0, 10.0, 20.0]);
        let r = run(
            "dit.swiglu",
            &attrs(&[("dim", AttrValue::Int(0))]),
            &[&x0],
            &[ty(DType::F32, &[1, 2])],
        );
        close(
            &r[0].to_f64(),
            &[super::silu(1.0) * 10.0, super::silu(2.0) * 20.0],
            1e-7,
        );
        let odd = t(DType::F32, &[3], &[1.0, 2.0, 3.0]);
        assert!(run_err(
            "dit.swiglu",
            &attrs(&[("dim", AttrValue::Int(0))]),
            &[Some(&odd)],
            &[ty(DType::F32, &[1])]
        )
        .contains("not even"));

        let r = run(
            "dit.gelu_mul",
            &attrs(&[("approximate", s("none"))]),
            &[&x],
            &[ty(DType::F32, &[1, 2])],
        );
        close(
            &r[0].to_f64(),
            &[super::gelu_erf(1.0) * 3.0, super::gelu_erf(-2.0) * 5.0],
            1e-7,
        );
        let r = run(
            "dit.gelu_mul",
            &attrs(&[("approximate", s("tanh"))]),
            &[&x],
            &[ty(DType::F32, &[1, 2])],
        );
        close(
            &r[0].to_f64(),
            &[super::gelu_tanh(1.0) * 3.0, super::gelu_tanh(-2.0) * 5.0],
            1e-7,
        );
        let wide = crate::Tensor::zeros(ty(DType::F16, &[1, 2048]));
        assert!(run_err(
            "dit.gelu_mul",
            &attrs(&[("approximate", s("none"))]),
            &[Some(&wide)],
            &[ty(DType::F16, &[1, 1024])]
        )
        .contains("1024"));
    }
}
