//! Natives of the GELU raisings (patterns/gelu.pdll): the outer product 0.5·x·(1 + erf(…)) or
//! 0.5·x·(1 + tanh(…)) flattened into its factors, and the argument of erf or tanh recognised
//! as a polynomial in x, whatever the exporter's grouping.

use super::*;
use dit_dialect::ops::OpKind;

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

/// 1/√2, erf-GELU's scale of x.
const FRAC_1_SQRT_2: f64 = std::f64::consts::FRAC_1_SQRT_2;
/// Relative tolerance on the product of the outer constants (0.5): those are exact in every
/// float type, or products and quotients of such (x·0.25·2, x/2).
const HALF_TOL: f64 = 1e-3;
/// Factors visited at most in one outer product.
const MAX_FACTORS: usize = 16;

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
    match op.kind()? {
        OpKind::Neg if unary => {
            let a = poly_of(op.operand(0), x, budget)?;
            Some(a.map(|c| -c))
        }
        OpKind::Add | OpKind::Sub if binary => {
            let a = poly_of(op.operand(0), x, budget)?;
            let b = poly_of(op.operand(1), x, budget)?;
            let sign = if op.is_kind(OpKind::Sub) { -1.0 } else { 1.0 };
            let mut out = a;
            for (o, bi) in out.iter_mut().zip(b) {
                *o += sign * bi;
            }
            Some(out)
        }
        OpKind::Mul if binary => {
            let a = poly_of(op.operand(0), x, budget)?;
            let b = poly_of(op.operand(1), x, budget)?;
            product(&a, &b)
        }
        OpKind::Div if binary => {
            let a = poly_of(op.operand(0), x, budget)?;
            let d = splat_of(op.operand(1)).filter(|d| *d != 0.0)?;
            Some(a.map(|c| c / d))
        }
        OpKind::Pow if binary => {
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

/// A coefficient no written form has (the constant and square terms; exactly 0 there).
fn negligible(c: f64) -> bool {
    c.abs() <= 1e-6
}

/// `c` is within `tol` of `expected`, relative to |expected|.
fn rel_near(c: f64, expected: f64, tol: f64) -> bool {
    (c - expected).abs() <= tol * expected.abs()
}

/// `z` computes √(2/π)·(x + 0.044715·x³) from `x` (any grouping: x + c·x³, x·(1 + c·x²), x³
/// as pow(x, 3) or products, the √(2/π) anywhere), through ops used only there.
fn tanh_gelu_polynomial(z: Val, x: Val) -> bool {
    if z == x {
        return false;
    }
    let mut budget = MAX_OPS;
    let Some(p) = poly_of(z, x, &mut budget) else {
        return false;
    };
    negligible(p[0])
        && negligible(p[2])
        && rel_near(p[1], SQRT_2_OVER_PI, COEFF_TOL)
        && rel_near(p[3], SQRT_2_OVER_PI * CUBIC, COEFF_TOL)
}

/// The outer product of a GELU, flattened: its non-constant factors and the product of its
/// constant ones.
struct Product<'a> {
    factors: Vec<Val<'a>>,
    scale: f64,
}

/// Flattens `v` into `out` through dit.mul and dit.div by a nonzero constant; `root` may have
/// any number of uses, every other op taken apart must be used only in the product (raising
/// erases it).
fn flatten<'a>(v: Val<'a>, root: bool, out: &mut Product<'a>, budget: &mut usize) -> Option<()> {
    if let Some(c) = splat_of(v) {
        out.scale *= c;
        return Some(());
    }
    let op = v.defining_op();
    let binary = op.filter(|o| o.num_operands() == 2 && o.num_results() == 1);
    let inner = binary.filter(|_| root || v.use_count() == 1);
    match inner {
        Some(op) if op.is_kind(OpKind::Mul) || op.is_kind(OpKind::Div) => {
            *budget = budget.checked_sub(1)?;
            flatten(op.operand(0), false, out, budget)?;
            if op.is_kind(OpKind::Mul) {
                flatten(op.operand(1), false, out, budget)?;
            } else {
                let d = splat_of(op.operand(1)).filter(|d| *d != 0.0)?;
                out.scale /= d;
            }
        }
        _ => {
            *budget = budget.checked_sub(1)?;
            out.factors.push(v);
        }
    }
    Some(())
}

/// The activation and argument of `1 + act(z)` (either operand order), the add and the
/// activation used only there.
fn bracket(v: Val) -> Option<(Op, Val)> {
    let add = v
        .defining_op()
        .filter(|a| a.is_kind(OpKind::Add) && a.num_operands() == 2)?;
    if v.use_count() != 1 {
        return None;
    }
    let (a, b) = (add.operand(0), add.operand(1));
    let act = [(a, b), (b, a)].into_iter().find_map(|(act, one)| {
        let is_one = splat_of(one).is_some_and(|c| c == 1.0);
        let op = act.defining_op().filter(|o| o.num_operands() == 1)?;
        (is_one && act.use_count() == 1).then_some(op)
    })?;
    Some((act, act.operand(0)))
}

/// `z` computes erf-GELU's x/√2 from `x` (x·c, c·x, x/√2, …), through ops used only there.
fn is_erf_gelu_arg(z: Val, x: Val) -> bool {
    let mut budget = MAX_OPS;
    z != x
        && poly_of(z, x, &mut budget).is_some_and(|p| {
            negligible(p[0])
                && negligible(p[2])
                && negligible(p[3])
                && rel_near(p[1], FRAC_1_SQRT_2, COEFF_TOL)
        })
}

/// The x of `root` if it is the GELU 0.5·x·(1 + act(z)) for `approximate` ("none": act = erf,
/// "tanh": act = tanh with tanh-GELU's argument) in any grouping and order of the product, and
/// dit.gelu(x) would have `root`'s type.
fn gelu_product_input<'a>(root: Op<'a>, approximate: &str) -> Option<Val<'a>> {
    if !(root.is_kind(OpKind::Mul) || root.is_kind(OpKind::Div)) || root.num_results() != 1 {
        return None;
    }
    let out = root.result(0);
    let mut product = Product {
        factors: Vec::new(),
        scale: 1.0,
    };
    let mut budget = MAX_FACTORS;
    flatten(out, true, &mut product, &mut budget)?;
    if product.factors.len() != 2 || !rel_near(product.scale, 0.5, HALF_TOL) {
        return None;
    }
    let (f0, f1) = (product.factors[0], product.factors[1]);
    let (x, act, z) = [(f0, f1), (f1, f0)].into_iter().find_map(|(x, p)| {
        let (act, z) = bracket(p)?;
        Some((x, act, z))
    })?;
    let argument_fits = match approximate {
        "none" => act.is_kind(OpKind::Erf) && is_erf_gelu_arg(z, x),
        "tanh" => act.is_kind(OpKind::Tanh) && tanh_gelu_polynomial(z, x),
        _ => false,
    };
    let typed = out.same_type(x) && x.tensor().is_some_and(|t| t.elem.is_float());
    (argument_fits && typed).then_some(x)
}

/// Constraint: `GeluProduct(root, approximate)`: `root` is 0.5·x·(1 + erf(x/√2)) ("none") or
/// 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) ("tanh"), its product in any grouping and order
/// (dit.mul, dit.div by constants), every op but `root` used only there.
fn gelu_product(args: Args, _: &NativeState) -> bool {
    let (Some(root), Some(approximate)) = (args.op_at(0), args.attr_at(1)) else {
        return false;
    };
    gelu_product_input(root, &string_of(Some(approximate))).is_some()
}

/// Rewrite: `GeluProductInput(root, approximate) -> Value`: the x of a product `GeluProduct`
/// accepted.
fn gelu_product_x(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    _: MlirPatternRewriter,
) -> bool {
    let (Some(root), Some(approximate)) = (args.op_at(0), args.attr_at(1)) else {
        return false;
    };
    let Some(x) = gelu_product_input(root, &string_of(Some(approximate))) else {
        return false;
    };
    // SAFETY: the result list is the interpreter's; the value is alive.
    unsafe { mlirPDLResultListPushBackValue(results, x.raw()) };
    true
}

/// The constraints of this topic, by the names PDLL declares.
pub const CONSTRAINTS: &[(&str, ConstraintFn)] = &[("GeluProduct", gelu_product)];

/// The rewrites of this topic, by the names PDLL declares.
pub const REWRITES: &[(&str, RewriteFn)] = &[("GeluProductInput", gelu_product_x)];

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
