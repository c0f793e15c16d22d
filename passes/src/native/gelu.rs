//! Natives of the GELU raisings (patterns/gelu.pdll): the argument of tanh-GELU's tanh,
//! recognised as a polynomial in x whatever the exporter's grouping.

use super::*;

/// √(2/π).
const SQRT_2_OVER_PI: f64 = 0.797_884_560_802_865_4;
/// The cubic coefficient of tanh-GELU's inner polynomial.
const CUBIC: f64 = 0.044_715;
/// Relative tolerance on the polynomial's coefficients: bf16 rounds √(2/π) to 0.796875
/// (-0.13 %) and 0.044715 to 0.044677734 (-0.08 %); their product, or a pre-multiplied
/// 0.0356774 rounded alike, stays within 0.3 %.
const COEFF_TOL: f64 = 0.005;
/// Highest power of x tracked; a higher one means the expression is not the GELU polynomial.
const MAX_DEGREE: usize = 3;
/// Ops visited at most under one tanh argument (the longest export form has about 8).
const MAX_OPS: usize = 24;

/// Coefficients of 1, x, x², x³.
type Poly = [f64; MAX_DEGREE + 1];

fn constant(c: f64) -> Poly {
    [c, 0.0, 0.0, 0.0]
}

fn product(a: &Poly, b: &Poly) -> Option<Poly> {
    let mut out = [0.0; MAX_DEGREE + 1];
    for (i, ai) in a.iter().enumerate() {
        for (j, bj) in b.iter().enumerate() {
            let c = ai * bj;
            if c == 0.0 {
                continue;
            }
            *out.get_mut(i + j)? += c;
        }
    }
    Some(out)
}

/// The splat value of an arith.constant producing `v`.
fn splat_of(v: Val) -> Option<f64> {
    let op = v.defining_op().filter(|c| c.is("arith.constant"))?;
    op.attr("value").and_then(splat_float)
}

/// `v` as a polynomial in `x` (degree <= 3), built from `x`, splat float constants and
/// dit.add / sub / mul / neg, dit.div by a constant and dit.pow by a constant 0..=3, every op
/// other than the constants used once (so raising erases them all). `budget` bounds the
/// number of ops looked at.
fn poly_of(v: Val, x: Val, budget: &mut usize) -> Option<Poly> {
    if v == x {
        return Some([0.0, 1.0, 0.0, 0.0]);
    }
    if let Some(c) = splat_of(v) {
        return Some(constant(c));
    }
    let op = v.defining_op()?;
    if *budget == 0 || v.use_count() != 1 || op.num_results() != 1 {
        return None;
    }
    *budget -= 1;
    let unary = op.num_operands() == 1;
    let binary = op.num_operands() == 2;
    match op.name().as_str() {
        "dit.neg" if unary => {
            let a = poly_of(op.operand(0), x, budget)?;
            Some(a.map(|c| -c))
        }
        "dit.add" | "dit.sub" if binary => {
            let a = poly_of(op.operand(0), x, budget)?;
            let b = poly_of(op.operand(1), x, budget)?;
            let sign = if op.is("dit.sub") { -1.0 } else { 1.0 };
            let mut out = a;
            for (o, bi) in out.iter_mut().zip(b) {
                *o += sign * bi;
            }
            Some(out)
        }
        "dit.mul" if binary => {
            let a = poly_of(op.operand(0), x, budget)?;
            let b = poly_of(op.operand(1), x, budget)?;
            product(&a, &b)
        }
        "dit.div" if binary => {
            let a = poly_of(op.operand(0), x, budget)?;
            let d = splat_of(op.operand(1)).filter(|d| *d != 0.0)?;
            Some(a.map(|c| c / d))
        }
        "dit.pow" if binary => {
            let e = splat_of(op.operand(1))?;
            if e.fract() != 0.0 || !(0.0..=MAX_DEGREE as f64).contains(&e) {
                return None;
            }
            let a = poly_of(op.operand(0), x, budget)?;
            let mut out = constant(1.0);
            for _ in 0..e as usize {
                out = product(&out, &a)?;
            }
            Some(out)
        }
        _ => None,
    }
}

/// `c` is within `tol` of `expected`, relative to |expected|.
fn rel_near(c: f64, expected: f64, tol: f64) -> bool {
    (c - expected).abs() <= tol * expected.abs()
}

/// Constraint: `TanhGeluArg(z, x)`: `z` computes √(2/π)·(x + 0.044715·x³) from `x` (any
/// grouping: x + c·x³, x·(1 + c·x²), x³ as pow(x, 3) or products, the √(2/π) anywhere),
/// through ops used only there.
fn tanh_gelu_arg(args: Args, _: &NativeState) -> bool {
    let (Some(z), Some(x)) = (args.value_at(0), args.value_at(1)) else {
        return false;
    };
    if z == x {
        return false;
    }
    let mut budget = MAX_OPS;
    let Some(p) = poly_of(z, x, &mut budget) else {
        return false;
    };
    // The constant and square terms are absent in every written form (exactly 0 here).
    let negligible = |c: f64| c.abs() <= 1e-6;
    negligible(p[0])
        && negligible(p[2])
        && rel_near(p[1], SQRT_2_OVER_PI, COEFF_TOL)
        && rel_near(p[3], SQRT_2_OVER_PI * CUBIC, COEFF_TOL)
}

/// Constraint: `SameTypeAs(v, of)`: the raised op keeps the value's type (no constant of the
/// chain broadcast x to a larger shape).
fn same_type_as(args: Args, _: &NativeState) -> bool {
    let (Some(v), Some(of)) = (args.value_at(0), args.value_at(1)) else {
        return false;
    };
    v.same_type(of) && v.tensor().is_some_and(|t| t.elem.is_float())
}

/// The constraints of this topic, by the names PDLL declares.
pub const CONSTRAINTS: &[(&str, ConstraintFn)] =
    &[("TanhGeluArg", tanh_gelu_arg), ("SameTypeAs", same_type_as)];

/// The rewrites of this topic, by the names PDLL declares.
pub const REWRITES: &[(&str, RewriteFn)] = &[];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_past_the_cube_are_no_gelu_polynomial() {
        let x = [0.0, 1.0, 0.0, 0.0];
        let x2 = product(&x, &x).expect("x²");
        let x3 = product(&x2, &x).expect("x³");
        assert_eq!(x3, [0.0, 0.0, 0.0, 1.0]);
        assert!(product(&x3, &x).is_none());
        assert!(product(&x3, &constant(0.5)).is_some());
    }

    #[test]
    fn bf16_rounded_coefficients_are_near() {
        assert!(rel_near(0.796875, SQRT_2_OVER_PI, COEFF_TOL));
        assert!(rel_near(
            0.796875 * 0.044677734,
            SQRT_2_OVER_PI * CUBIC,
            COEFF_TOL
        ));
        assert!(!rel_near(0.5 * SQRT_2_OVER_PI, SQRT_2_OVER_PI, COEFF_TOL));
        assert!(!rel_near(
            SQRT_2_OVER_PI * 0.05,
            SQRT_2_OVER_PI * CUBIC,
            COEFF_TOL
        ));
    }
}
