//! Views, layout and broadcasting: views take their shape from the result's type, so their
//! size lists need not be constants; permutations become `dit.transpose` (none for the
//! identity), broadcasts and repeats `dit.broadcast` between views.

use super::{element, normalize_dim, one, rank, Converter, Node, Replacements, R};
use crate::conversion::torch::{emit::Emitter, mlir, scalars};
use dit_dialect::ir::Val;
use dit_dialect::ops::OpKind;

/// The topic's converters.
pub static CONVERTERS: &[Converter] = &[
    Converter {
        ops: &[
            "torch.aten.view",
            "torch.aten.reshape",
            "torch.aten._unsafe_view",
            "torch.aten.view_as",
            "torch.aten.reshape_as",
            "torch.aten.flatten.using_ints",
            "torch.aten.unflatten.int",
            "torch.aten.unsqueeze",
            "torch.aten.squeeze",
            "torch.aten.squeeze.dim",
            "torch.aten.squeeze.dims",
        ],
        becomes: "`dit.reshape` to the result's type (same element type)",
        convert: view,
    },
    Converter {
        ops: &["torch.aten.view.dtype"],
        becomes: "`dit.bitcast` (none when the type is unchanged)",
        convert: view_dtype,
    },
    Converter {
        ops: &[
            "torch.aten.permute",
            "torch.aten.transpose.int",
            "torch.aten.swapaxes",
            "torch.aten.t",
            "torch.aten.movedim.int",
        ],
        becomes: "`dit.transpose` (the identity: a view)",
        convert: permute,
    },
    Converter {
        ops: &["torch.aten.einsum"],
        becomes: "`dit.transpose` for a one-operand permutation",
        convert: einsum,
    },
    Converter {
        ops: &[
            "torch.aten.expand",
            "torch.aten.expand_as",
            "torch.aten.broadcast_to",
        ],
        becomes: "`dit.broadcast` (none when the type is unchanged)",
        convert: expand,
    },
    Converter {
        ops: &["torch.aten.repeat"],
        becomes: "`dit.broadcast` between views (torch's tile)",
        convert: tile,
    },
    Converter {
        ops: &["torch.aten.repeat_interleave.self_int"],
        becomes: "`dit.broadcast` of a size-1 dim after `dim`, between views",
        convert: repeat_interleave,
    },
];

fn view<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    let x = node.tensor(0)?;
    let out = node.out(0)?;
    if !mlir::same_type(element(mlir::type_of(x))?, element(out)?) {
        return Err("a view changes the element type".into());
    }
    one(e.reshape(x, out)?)
}

fn view_dtype<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    let x = node.tensor(0)?;
    let out = node.out(0)?;
    if mlir::same_type(mlir::type_of(x), out) {
        return one(x);
    }
    one(e.dit1(OpKind::Bitcast, &[&[x]], out, &[])?)
}

fn permute<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    let n = node.name.as_str();
    let x = node.tensor(0)?;
    let r = rank(x)?;
    let perm: Vec<i64> = match n {
        "aten.permute" => {
            let dims = node.int_list(1, "dims")?;
            dims.iter()
                .map(|d| normalize_dim(*d, r).map(|d| d as i64))
                .collect::<R<_>>()?
        }
        "aten.t" => {
            if r < 2 {
                return one(x);
            }
            vec![1, 0]
        }
        "aten.movedim.int" => {
            let from = normalize_dim(node.int(1, "source")?, r)?;
            let to = normalize_dim(node.int(2, "destination")?, r)?;
            let mut perm: Vec<i64> = (0..r as i64).filter(|d| *d != from as i64).collect();
            perm.insert(to, from as i64);
            perm
        }
        _ => {
            let a = normalize_dim(node.int(1, "dim0")?, r)?;
            let b = normalize_dim(node.int(2, "dim1")?, r)?;
            let mut perm: Vec<i64> = (0..r as i64).collect();
            perm.swap(a, b);
            perm
        }
    };
    if perm.iter().enumerate().all(|(i, p)| *p == i as i64) {
        return one(e.reshape(x, node.out(0)?)?);
    }
    let attr = node.op.i64_array_attr(&perm);
    one(e.dit1(OpKind::Transpose, &[&[x]], node.out(0)?, &[("perm", attr)])?)
}

fn einsum<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    one(permuting_einsum(node, e)?)
}

fn expand<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    let x = node.tensor(0)?;
    let out = node.out(0)?;
    if mlir::same_type(mlir::type_of(x), out) {
        return one(x);
    }
    one(e.dit1(OpKind::Broadcast, &[&[x]], out, &[])?)
}

fn tile<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    one(repeat(node, e)?)
}

fn repeat_interleave<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    // repeat_interleave(x, r, dim): each element r times along dim = x with a size-1 dim
    // after `dim`, broadcast to r, merged back.
    let x = node.tensor(0)?;
    let info = x.tensor().ok_or("x is not a ranked tensor")?;
    let r = node.int(1, "repeats")?;
    let dim = match node.arg(2) {
        Ok(d) if !scalars::is_none(d) => normalize_dim(
            scalars::int(d).ok_or("dim is not a constant integer")?,
            info.rank(),
        )?,
        _ => return Err("repeat_interleave without dim flattens first".into()),
    };
    if r < 0 {
        return Err("repeats is negative".into());
    }
    let elem = element(mlir::type_of(x))?;
    let mut shape = info.shape.clone();
    shape.insert(dim + 1, Some(1));
    let unit = e.reshape(x, mlir::tensor_of(&shape, elem))?;
    shape[dim + 1] = Some(r);
    let wide = e.dit1(
        OpKind::Broadcast,
        &[&[unit]],
        mlir::tensor_of(&shape, elem),
        &[],
    )?;
    one(e.reshape(wide, node.out(0)?)?)
}

/// aten.einsum of one operand whose output subscripts permute its input subscripts
/// (`nhwpqc->nchpwq`, SD3's unpatchify) is a transpose.
fn permuting_einsum<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Val<'a>> {
    let equation = scalars::str(node.arg(0)?).ok_or("the equation is not a constant string")?;
    let operands = scalars::list_elements(node.arg(1)?)
        .ok_or("the operand list is not a torch.prim.ListConstruct")?;
    let [x] = operands.as_slice() else {
        return Err("only a one-operand einsum (a permutation) is modelled".into());
    };
    let x = e.cast(*x, element(node.out(0)?)?)?;
    let eq: String = equation.chars().filter(|c| !c.is_whitespace()).collect();
    let (input, output) = eq
        .split_once("->")
        .ok_or("the equation has no explicit output ('->')")?;
    let letters = |s: &str| s.chars().all(|c| c.is_ascii_alphabetic());
    let mut sorted_in: Vec<char> = input.chars().collect();
    let mut sorted_out: Vec<char> = output.chars().collect();
    sorted_in.sort_unstable();
    sorted_out.sort_unstable();
    let unique = sorted_in.windows(2).all(|w| w[0] != w[1]);
    if !letters(input) || !unique || sorted_in != sorted_out || input.len() != rank(x)? {
        return Err(format!(
            "'{equation}' is not a permutation of the operand's dims"
        ));
    }
    // Every output letter is one of the input's (same sorted letters).
    let perm: Vec<i64> = output
        .chars()
        .filter_map(|c| input.find(c).map(|i| i as i64))
        .collect();
    if perm.iter().enumerate().all(|(i, p)| *p == i as i64) {
        return e.reshape(x, node.out(0)?);
    }
    let attr = node.op.i64_array_attr(&perm);
    e.dit1(OpKind::Transpose, &[&[x]], node.out(0)?, &[("perm", attr)])
}

/// aten.repeat(x, repeats): torch's tile. x (with leading size-1 dims when `repeats` is longer
/// than its rank) gets a size-1 dim before each of its dims, broadcast to the repeat count
/// (a view) and merged: out[i·d + j] = x[j] along every dim, the outer index the copy.
fn repeat<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Val<'a>> {
    let x = node.tensor(0)?;
    let info = x.tensor().ok_or("x is not a ranked tensor")?;
    let repeats = node.int_list(1, "repeats")?;
    if repeats.len() < info.rank() {
        return Err("repeats has fewer entries than x has dims".into());
    }
    if repeats.iter().any(|r| *r < 0) {
        return Err("a repeat count is negative".into());
    }
    let elem = element(mlir::type_of(x))?;
    let mut dims = vec![Some(1); repeats.len() - info.rank()];
    dims.extend(info.shape.iter().copied());
    let unit: Vec<Option<i64>> = dims.iter().flat_map(|d| [Some(1), *d]).collect();
    let wide: Vec<Option<i64>> = dims
        .iter()
        .zip(&repeats)
        .flat_map(|(d, r)| [Some(*r), *d])
        .collect();
    let unit = e.reshape(x, mlir::tensor_of(&unit, elem))?;
    let wide = e.dit1(
        OpKind::Broadcast,
        &[&[unit]],
        mlir::tensor_of(&wide, elem),
        &[],
    )?;
    e.reshape(wide, node.out(0)?)
}
