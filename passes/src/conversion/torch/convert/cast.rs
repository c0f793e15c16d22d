//! Casts and identities: dtype conversions, copies and the ops that only alias (clone,
//! detach, inference dropout), all `e.to_type` of the operand (a `dit.cast` when the element
//! type changes, a view when only static information does).

use super::{element, one, Converter, Node, Replacements, R};
use crate::conversion::torch::{emit::Emitter, mlir, scalars};
use dit_dialect::ops::OpKind;

/// The topic's converters.
pub static CONVERTERS: &[Converter] = &[
    Converter {
        ops: &[
            "torch.aten._to_copy",
            "torch.aten.to.dtype",
            "torch.aten.to.dtype_layout",
            "torch.aten.to.device",
            "torch.aten.to.other",
            "torch.aten.type_as",
            "torch.prims.convert_element_type",
            "torch.aten.clone",
            "torch.aten.contiguous",
            "torch.aten.detach",
            "torch.aten.alias",
            "torch.aten.lift_fresh_copy",
            "torch.tensor_static_info_cast",
        ],
        becomes: "`dit.cast` to the result's element type and a view to its shape, or nothing",
        convert: to_type,
    },
    Converter {
        ops: &["torch.aten.copy"],
        becomes: "`dit.cast` + `dit.broadcast` of the source to self's type",
        convert: copy,
    },
    Converter {
        ops: &["torch.aten.dropout"],
        becomes: "its input (inference: train = false or p = 0)",
        convert: dropout,
    },
];

fn to_type<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    one(e.to_type(node.tensor(0)?, node.out(0)?)?)
}

fn copy<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    // copy(self, src): src, in self's dtype, broadcast to self's shape.
    let out = node.out(0)?;
    let src = e.cast(node.tensor(1)?, element(out)?)?;
    if mlir::same_type(mlir::type_of(src), out) {
        return one(src);
    }
    one(e.dit1(OpKind::Broadcast, &[&[src]], out, &[])?)
}

fn dropout<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    // Inference: dropout(x, p, train=False) is x.
    let p = node.float(1, "p")?;
    let train = scalars::bool(node.arg(2)?).ok_or("train is not a constant")?;
    if train && p != 0.0 {
        return Err("dropout in training mode".into());
    }
    one(e.to_type(node.tensor(0)?, node.out(0)?)?)
}
