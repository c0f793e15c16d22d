//! Reductions, softmax and the cumulative sum: a dim (or dim list) attribute, negative dims
//! counted from the back as torch counts them.

use super::{normalize_dim, one, rank, Converter, Node, Replacements, R};
use crate::conversion::torch::{emit::Emitter, scalars};
use dit_dialect::ir::Attr;
use dit_dialect::ops::OpKind;

/// The topic's converters.
pub static CONVERTERS: &[Converter] = &[
    Converter {
        ops: &[
            "torch.aten.mean.dim",
            "torch.aten.sum.dim_IntList",
            "torch.aten.mean",
            "torch.aten.sum",
        ],
        becomes: "`dit.reduce_mean` / `dit.reduce_sum` (no dims: all of them)",
        convert: mean_sum,
    },
    Converter {
        ops: &["torch.aten.softmax.int", "torch.aten._softmax"],
        becomes: "`dit.softmax`",
        convert: softmax,
    },
    Converter {
        ops: &["torch.aten.cumsum"],
        becomes: "`dit.cumsum`",
        convert: cumsum,
    },
];

fn mean_sum<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    let n = node.name.as_str();
    let x = node.tensor_as_out(e, 0)?;
    let rank = rank(x)?;
    let all: Vec<i64> = (0..rank as i64).collect();
    let (dims, keepdim) = if n == "aten.mean" || n == "aten.sum" {
        (all, false)
    } else {
        let dims = match node.arg(1) {
            Ok(v) if !scalars::is_none(v) => {
                scalars::int_list(v).ok_or("dims is not a constant list")?
            }
            _ => Vec::new(),
        };
        // An empty dim list reduces every dim (torch's `dim=[]`).
        let dims = if dims.is_empty() { all } else { dims };
        let keepdim = scalars::bool(node.arg(2)?).ok_or("keepdim is not a constant")?;
        (dims, keepdim)
    };
    let dims: Vec<i64> = dims
        .iter()
        .map(|d| normalize_dim(*d, rank).map(|d| d as i64))
        .collect::<R<_>>()?;
    let op = if n.starts_with("aten.mean") {
        OpKind::ReduceMean
    } else {
        OpKind::ReduceSum
    };
    let attrs = [
        ("dims", node.op.i64_array_attr(&dims)),
        ("keepdim", Attr::bool(e.context(), keepdim)),
    ];
    one(e.dit1(op, &[&[x]], node.out(0)?, &attrs)?)
}

fn softmax<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    // softmax.int(x, dim, dtype?) and _softmax(x, dim, half_to_float): both compute in
    // the result's dtype.
    let x = node.tensor_as_out(e, 0)?;
    let dim = normalize_dim(node.int(1, "dim")?, rank(x)?)?;
    let attr = Attr::i64(e.context(), dim as i64);
    one(e.dit1(OpKind::Softmax, &[&[x]], node.out(0)?, &[("dim", attr)])?)
}

fn cumsum<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    // cumsum(self, dim, dtype=None): the result type states the accumulation type
    // (i64 for integer input when dtype is None).
    let x = node.tensor(0)?;
    let dim = normalize_dim(node.int(1, "dim")?, rank(x)?)?;
    let attrs = [("dim", Attr::i64(e.context(), dim as i64))];
    one(e.dit1(OpKind::Cumsum, &[&[x]], node.out(0)?, &attrs)?)
}
