//! Elementwise unary ops: activations and math functions, computed in the result's dtype.

use super::{element, one, Converter, Node, Replacements, R};
use crate::conversion::torch::{
    emit::{Emitter, Num},
    scalars,
};
use dit_dialect::ir::Attr;
use dit_dialect::ops::OpKind;

/// The topic's converters.
pub static CONVERTERS: &[Converter] = &[
    Converter {
        ops: &["torch.aten.gelu"],
        becomes: "`dit.gelu` (approximate none or tanh)",
        convert: gelu,
    },
    Converter {
        ops: &[
            "torch.aten.silu",
            "torch.aten.sigmoid",
            "torch.aten.tanh",
            "torch.aten.relu",
            "torch.aten.rsqrt",
            "torch.aten.sqrt",
            "torch.aten.exp",
            "torch.aten.neg",
            "torch.aten.erf",
            "torch.aten.sin",
            "torch.aten.cos",
        ],
        becomes: "the dit op of the same name",
        convert: same_name,
    },
    Converter {
        ops: &["torch.aten.square"],
        becomes: "`dit.mul(x, x)`",
        convert: square,
    },
    Converter {
        ops: &["torch.aten.reciprocal"],
        becomes: "`dit.div(1, x)`",
        convert: reciprocal,
    },
];

fn gelu<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    let approximate = match node.arg(1) {
        Ok(v) if !scalars::is_none(v) => {
            scalars::str(v).ok_or("approximate is not a constant string")?
        }
        _ => "none".to_string(),
    };
    if approximate != "none" && approximate != "tanh" {
        return Err(format!("approximate '{approximate}' is not none or tanh"));
    }
    let x = node.tensor_as_out(e, 0)?;
    let attr = Attr::string(e.context(), &approximate);
    one(e.dit1(
        OpKind::Gelu,
        &[&[x]],
        node.out(0)?,
        &[("approximate", attr)],
    )?)
}

/// `aten.<f>` -> `dit.<f>`.
fn same_name<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    let n = node.name.as_str();
    let x = node.tensor_as_out(e, 0)?;
    let dit = &n["aten.".len()..];
    let kind = OpKind::ALL
        .into_iter()
        .find(|k| k.mnemonic() == dit)
        .ok_or_else(|| format!("no dit op for {n}"))?;
    one(e.dit1(kind, &[&[x]], node.out(0)?, &[])?)
}

fn square<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    let x = node.tensor_as_out(e, 0)?;
    one(e.dit1(OpKind::Mul, &[&[x], &[x]], node.out(0)?, &[])?)
}

fn reciprocal<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    let x = node.tensor_as_out(e, 0)?;
    let one_ = e.scalar(element(node.out(0)?)?, Num::Float(1.0))?;
    one(e.dit1(OpKind::Div, &[&[one_], &[x]], node.out(0)?, &[])?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_same_name_op_has_its_dit_op() {
        let entry = CONVERTERS
            .iter()
            .find(|c| c.ops.contains(&"torch.aten.silu"))
            .expect("the same-name entry");
        for op in entry.ops {
            let dit = &op["torch.aten.".len()..];
            assert!(
                OpKind::ALL.into_iter().any(|k| k.mnemonic() == dit),
                "no dit.{dit} for {op}"
            );
        }
    }
}
