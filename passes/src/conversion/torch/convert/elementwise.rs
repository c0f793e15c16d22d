//! Elementwise binary arithmetic: in the result's dtype (torch's type promotion), a Python
//! scalar as a 0-d constant of that type, `alpha` of add/sub/rsub scaling the second operand.

use super::{element, one, Converter, Node, Replacements, R};
use crate::conversion::torch::{
    emit::{Emitter, Num},
    mlir, scalars,
};
use dit_dialect::ir::Val;
use dit_dialect::ops::OpKind;

/// The topic's converters.
pub static CONVERTERS: &[Converter] = &[
    Converter {
        ops: &[
            "torch.aten.add.Tensor",
            "torch.aten.sub.Tensor",
            "torch.aten.mul.Tensor",
            "torch.aten.div.Tensor",
            "torch.aten.div.Tensor_mode",
            "torch.aten.pow.Tensor_Tensor",
            "torch.aten.rsub.Tensor",
        ],
        becomes: "`dit.add` / `sub` / `mul` / `div` / `pow` (alpha a `dit.mul`; div without rounding mode)",
        convert: tensor_tensor,
    },
    Converter {
        ops: &[
            "torch.aten.add.Scalar",
            "torch.aten.sub.Scalar",
            "torch.aten.mul.Scalar",
            "torch.aten.div.Scalar",
            "torch.aten.div.Scalar_mode",
            "torch.aten.pow.Tensor_Scalar",
            "torch.aten.rsub.Scalar",
        ],
        becomes: "the same dit ops with a 0-d constant (alpha folded into it)",
        convert: tensor_scalar,
    },
    Converter {
        ops: &["torch.aten.pow.Scalar"],
        becomes: "`dit.pow` of a 0-d constant",
        convert: scalar_pow,
    },
    Converter {
        ops: &["torch.aten.floor_divide", "torch.aten.floor_divide.Scalar"],
        becomes: "`dit.floor_div`",
        convert: floor_divide,
    },
    Converter {
        ops: &[
            "torch.aten.__and__.Tensor",
            "torch.aten.bitwise_and.Tensor",
            "torch.aten.logical_and",
        ],
        becomes: "`dit.mul` on bool (integer bitwise and is not converted)",
        convert: bool_and,
    },
];

fn tensor_tensor<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    let n = node.name.as_str();
    if n == "aten.div.Tensor_mode" {
        no_rounding_mode(node, 2)?;
    }
    let out = node.out(0)?;
    let a = node.tensor_as_out(e, 0)?;
    let b = node.tensor_as_out(e, 1)?;
    let alpha = match n {
        "aten.add.Tensor" | "aten.sub.Tensor" | "aten.rsub.Tensor" => node.alpha(2)?,
        _ => 1.0,
    };
    // rsub(a, b, alpha) = b - alpha·a: the scaled operand is the first.
    let (lhs, rhs) = if n == "aten.rsub.Tensor" {
        (b, scale(e, a, alpha)?)
    } else {
        (a, scale(e, b, alpha)?)
    };
    one(e.dit1(binary_op(n), &[&[lhs], &[rhs]], out, &[])?)
}

fn tensor_scalar<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    let n = node.name.as_str();
    if n == "aten.div.Scalar_mode" {
        no_rounding_mode(node, 2)?;
    }
    let out = node.out(0)?;
    let x = node.tensor_as_out(e, 0)?;
    let s = node.number(1)?;
    let alpha = match n {
        "aten.add.Scalar" | "aten.sub.Scalar" | "aten.rsub.Scalar" => node.alpha(2)?,
        _ => 1.0,
    };
    if n == "aten.rsub.Scalar" {
        // s - alpha·x.
        let c = e.scalar(element(out)?, s)?;
        let x = scale(e, x, alpha)?;
        return one(e.dit1(OpKind::Sub, &[&[c], &[x]], out, &[])?);
    }
    // x + alpha·s: the constant absorbs alpha.
    let s = if alpha == 1.0 {
        s
    } else {
        Num::Float(s.as_f64() * alpha)
    };
    let c = e.scalar(element(out)?, s)?;
    one(e.dit1(binary_op(n), &[&[x], &[c]], out, &[])?)
}

fn scalar_pow<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    // pow(s, x) = s ** x.
    let out = node.out(0)?;
    let c = e.scalar(element(out)?, node.number(0)?)?;
    let x = node.tensor_as_out(e, 1)?;
    one(e.dit1(OpKind::Pow, &[&[c], &[x]], out, &[])?)
}

fn floor_divide<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    // Python's `//` in the result type; a scalar divisor becomes a 0-d constant.
    let out = node.out(0)?;
    let x = node.tensor_as_out(e, 0)?;
    let d = if node.name == "aten.floor_divide" {
        node.tensor_as_out(e, 1)?
    } else {
        e.scalar(element(out)?, node.number(1)?)?
    };
    one(e.dit1(OpKind::FloorDiv, &[&[x], &[d]], out, &[])?)
}

fn bool_and<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    // On bool, a & b = a · b exactly ({0, 1} is closed under ·), and dit.mul takes i1:
    // the CPU reference multiplies and rounds to i1 (non-zero is true), aclnnMul takes
    // BOOL x1, x2 and y ([ops-math] math/mul/README.md, 参数说明). logical_and casts its
    // operands to bool first (non-zero is true, dit.cast's i1 rule), so any operand
    // type works; bitwise and of integers is not a product and stays opaque.
    let out = node.out(0)?;
    if mlir::type_text(element(out)?) != "i1" {
        return Err("bitwise and of integers (only bool and is converted)".into());
    }
    let a = node.tensor_as_out(e, 0)?;
    let b = node.tensor_as_out(e, 1)?;
    one(e.dit1(OpKind::Mul, &[&[a], &[b]], out, &[])?)
}

/// The dit op of an elementwise aten binary.
fn binary_op(aten: &str) -> OpKind {
    match aten.split('.').nth(1).unwrap_or("") {
        "add" => OpKind::Add,
        "sub" | "rsub" => OpKind::Sub,
        "mul" => OpKind::Mul,
        "div" => OpKind::Div,
        _ => OpKind::Pow,
    }
}

/// `v · alpha` (no op for alpha = 1).
fn scale<'a>(e: &mut Emitter<'a>, v: Val<'a>, alpha: f64) -> R<Val<'a>> {
    if alpha == 1.0 {
        return Ok(v);
    }
    let ty = mlir::type_of(v);
    let c = e.scalar(element(ty)?, Num::Float(alpha))?;
    e.dit1(OpKind::Mul, &[&[v], &[c]], ty, &[])
}

/// div's `rounding_mode` must be none (true division).
fn no_rounding_mode(node: &Node, i: usize) -> R<()> {
    match node.arg(i) {
        Ok(v) if !scalars::is_none(v) => Err(format!(
            "rounding_mode '{}' (dit.div is true division)",
            scalars::str(v).unwrap_or_else(|| "?".into())
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binaries_map_to_dit_ops() {
        assert_eq!(binary_op("aten.rsub.Scalar"), OpKind::Sub);
        assert_eq!(binary_op("aten.pow.Tensor_Scalar"), OpKind::Pow);
        assert_eq!(binary_op("aten.div.Tensor_mode"), OpKind::Div);
    }
}
