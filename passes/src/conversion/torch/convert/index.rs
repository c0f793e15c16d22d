//! Sorting, gathering and scattering along a dim (torch semantics, one dit op each): the ops
//! the importer's MoE routing is written in (torch/moe.rs raises them onto CANN's MoE kernels).

use super::{normalize_dim, one, rank, Converter, Node, Replacements, R};
use crate::conversion::torch::{emit::Emitter, mlir};
use dit_dialect::ir::Attr;
use dit_dialect::ops::OpKind;

/// The topic's converters.
pub static CONVERTERS: &[Converter] = &[
    Converter {
        ops: &["torch.aten.topk"],
        becomes: "`dit.topk` (values and indices)",
        convert: topk,
    },
    Converter {
        ops: &[
            "torch.aten.sort",
            "torch.aten.sort.stable",
            "torch.aten.argsort",
            "torch.aten.argsort.stable",
        ],
        becomes: "`dit.sort` (argsort: its indices)",
        convert: sort,
    },
    Converter {
        ops: &["torch.aten.index_select"],
        becomes: "`dit.index_select`",
        convert: index_select,
    },
    Converter {
        ops: &["torch.aten.scatter_add"],
        becomes: "`dit.scatter_add`",
        convert: scatter_add,
    },
    Converter {
        ops: &["torch.aten.index_add"],
        becomes: "`dit.index_add` (alpha 1)",
        convert: index_add,
    },
];

fn topk<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    // topk(self, k, dim=-1, largest=True, sorted=True) -> (values, indices).
    let x = node.tensor(0)?;
    let dim = normalize_dim(node.optional_int(2, "dim")?.unwrap_or(-1), rank(x)?)?;
    let c = e.context();
    let attrs = [
        ("k", Attr::i64(c, node.int(1, "k")?)),
        ("dim", Attr::i64(c, dim as i64)),
        (
            "largest",
            Attr::bool(c, node.optional_bool(3, "largest")?.unwrap_or(true)),
        ),
        (
            "sorted",
            Attr::bool(c, node.optional_bool(4, "sorted")?.unwrap_or(true)),
        ),
    ];
    let op = e.dit(OpKind::Topk, &[&[x]], &[node.out(0)?, node.out(1)?], &attrs)?;
    Ok(vec![Some(op.result(0)), Some(op.result(1))])
}

fn sort<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    // sort(self, dim=-1, descending=False); sort.stable(self, *, stable, dim=-1,
    // descending=False); argsort likewise, returning only the indices.
    let n = node.name.as_str();
    let x = node.tensor(0)?;
    let (stable, first) = if n.ends_with(".stable") {
        (node.optional_bool(1, "stable")?.unwrap_or(false), 2)
    } else {
        (false, 1)
    };
    let dim = normalize_dim(node.optional_int(first, "dim")?.unwrap_or(-1), rank(x)?)?;
    let descending = node
        .optional_bool(first + 1, "descending")?
        .unwrap_or(false);
    let c = e.context();
    let attrs = [
        ("dim", Attr::i64(c, dim as i64)),
        ("descending", Attr::bool(c, descending)),
        ("stable", Attr::bool(c, stable)),
    ];
    if n.starts_with("aten.argsort") {
        let op = e.dit(
            OpKind::Sort,
            &[&[x]],
            &[mlir::type_of(x), node.out(0)?],
            &attrs,
        )?;
        return one(op.result(1));
    }
    let op = e.dit(OpKind::Sort, &[&[x]], &[node.out(0)?, node.out(1)?], &attrs)?;
    Ok(vec![Some(op.result(0)), Some(op.result(1))])
}

fn index_select<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    // index_select(self, dim, index).
    let x = node.tensor(0)?;
    let dim = normalize_dim(node.int(1, "dim")?, rank(x)?)?;
    let attrs = [("dim", Attr::i64(e.context(), dim as i64))];
    one(e.dit1(
        OpKind::IndexSelect,
        &[&[x], &[node.tensor(2)?]],
        node.out(0)?,
        &attrs,
    )?)
}

fn scatter_add<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    // scatter_add(self, dim, index, src).
    let x = node.tensor_as_out(e, 0)?;
    let dim = normalize_dim(node.int(1, "dim")?, rank(x)?)?;
    let src = node.tensor_as_out(e, 3)?;
    let attrs = [("dim", Attr::i64(e.context(), dim as i64))];
    one(e.dit1(
        OpKind::ScatterAdd,
        &[&[x], &[node.tensor(2)?], &[src]],
        node.out(0)?,
        &attrs,
    )?)
}

fn index_add<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    // index_add(self, dim, index, source, *, alpha=1): dit.index_add adds with alpha 1.
    node.require_one(4, "alpha")?;
    let x = node.tensor_as_out(e, 0)?;
    let dim = normalize_dim(node.int(1, "dim")?, rank(x)?)?;
    let source = node.tensor_as_out(e, 3)?;
    let attrs = [("dim", Attr::i64(e.context(), dim as i64))];
    one(e.dit1(
        OpKind::IndexAdd,
        &[&[x], &[node.tensor(2)?], &[source]],
        node.out(0)?,
        &attrs,
    )?)
}
