//! Concatenation, splitting, slicing and constant padding along a dim. Ops that return lists
//! of tensors (split, chunk, unbind) are read through the `torch.prim.ListUnpack` that unpacks
//! them: its result types give the pieces.

use super::{element, normalize_dim, one, rank_of, Converter, Node, Replacements, R};
use crate::conversion::torch::{
    emit::{Emitter, Num},
    mlir, scalars,
};
use dit_dialect::ir::{Attr, Val};
use dit_dialect::ops::OpKind;
use mlir_sys::MlirType;

/// The topic's converters.
pub static CONVERTERS: &[Converter] = &[
    Converter {
        ops: &["torch.aten.cat", "torch.aten.stack"],
        becomes: "`dit.concat` (stack: of size-1 views; zero-width pieces dropped)",
        convert: cat,
    },
    Converter {
        ops: &[
            "torch.aten.split.Tensor",
            "torch.aten.split_with_sizes",
            "torch.aten.split.sizes",
            "torch.aten.chunk",
            "torch.aten.tensor_split.sections",
            "torch.aten.unbind.int",
        ],
        becomes: "`dit.split`, the sizes from the unpacked pieces' types",
        convert: split,
    },
    Converter {
        ops: &[
            "torch.aten.slice.Tensor",
            "torch.aten.select.int",
            "torch.aten.narrow",
        ],
        becomes: "`dit.slice` (select: + a view dropping the dim; the whole dim: no op)",
        convert: slice,
    },
    Converter {
        ops: &["torch.aten.slice_scatter"],
        becomes: "`dit.concat` of slices and the source (a strided write: of `dit.split` columns)",
        convert: scatter,
    },
    Converter {
        ops: &["torch.aten.pad", "torch.aten.constant_pad_nd"],
        becomes: "`dit.concat` with constant blocks (constant mode, no negative pads)",
        convert: pad,
    },
];

fn cat<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    let n = node.name.as_str();
    let out = node.out(0)?;
    let elements = scalars::list_elements(node.arg(0)?)
        .ok_or("the tensor list is not a torch.prim.ListConstruct")?;
    let dim = node.int(1, "dim")?;
    let out_rank = rank_of(out)?;
    let mut xs = Vec::new();
    for x in elements {
        x.tensor().ok_or("a list element is not a tensor")?;
        let mut x = e.cast(x, element(out)?)?;
        if n == "aten.stack" {
            // stack = cat of the inputs with a size-1 dim inserted at `dim`.
            let d = normalize_dim(dim, out_rank)?;
            let mut shape = x.tensor().ok_or("not a ranked tensor")?.shape;
            if d > shape.len() {
                return Err("dim is out of range".into());
            }
            shape.insert(d, Some(1));
            x = e.reshape(x, mlir::tensor_of(&shape, element(out)?))?;
        }
        xs.push(x);
    }
    if xs.is_empty() {
        return Err("the tensor list is empty".into());
    }
    let d = normalize_dim(dim, out_rank)?;
    // A zero-width piece (x[..., d:] with d the full width, as a partial RoPE of the
    // whole head writes it) adds nothing: it is dropped, so no zero-element tensor
    // reaches a kernel and the slice that made it dies. One piece left is the result.
    let width = |x: &Val| x.tensor().and_then(|t| t.shape.get(d).copied().flatten());
    if xs.iter().any(|x| width(x) != Some(0)) {
        xs.retain(|x| width(x) != Some(0));
    }
    if let [x] = xs.as_slice() {
        return one(e.reshape(*x, out)?);
    }
    let attr = Attr::i64(e.context(), d as i64);
    one(e.dit1(OpKind::Concat, &[&xs], out, &[("dim", attr)])?)
}

fn split<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    let n = node.name.as_str();
    if node.outs.is_empty() {
        // Nobody unpacks the list: nothing to replace.
        return Ok(Vec::new());
    }
    let x = node.tensor(0)?;
    let info = x.tensor().ok_or("x is not a ranked tensor")?;
    let unbind = n == "aten.unbind.int";
    let dim_arg = if unbind { 1 } else { 2 };
    let dim = normalize_dim(node.int(dim_arg, "dim")?, info.rank())?;
    // The pieces' sizes along `dim` come from the unpacked result types.
    let mut piece_types = Vec::new();
    let mut sizes = Vec::new();
    for out in &node.outs {
        let t = mlir::tensor_info(*out).ok_or("a piece is not a ranked tensor")?;
        let mut shape = t.shape.clone();
        if unbind {
            // unbind drops the dim: the split piece keeps it as 1.
            if dim > shape.len() {
                return Err("dim is out of range".into());
            }
            shape.insert(dim, Some(1));
        }
        let size = shape
            .get(dim)
            .copied()
            .flatten()
            .ok_or("a piece's size along dim is not static")?;
        sizes.push(size);
        piece_types.push(mlir::tensor_of(&shape, element(*out)?));
    }
    let attrs = [
        ("dim", Attr::i64(e.context(), dim as i64)),
        ("sizes", node.op.i64_array_attr(&sizes)),
    ];
    let split = e.dit(OpKind::Split, &[&[x]], &piece_types, &attrs)?;
    let mut replacements = Vec::new();
    for (i, out) in node.outs.iter().enumerate() {
        replacements.push(Some(e.reshape(split.result(i), *out)?));
    }
    Ok(replacements)
}

fn slice<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    let n = node.name.as_str();
    let x = node.tensor(0)?;
    let info = x.tensor().ok_or("x is not a ranked tensor")?;
    let dim = normalize_dim(node.int(1, "dim")?, info.rank())?;
    let size = info.shape[dim];
    let (start, end, step) = match n {
        "aten.slice.Tensor" => {
            let start = node.optional_int(2, "start")?.unwrap_or(0);
            let end = node.optional_int(3, "end")?.unwrap_or(i64::MAX);
            let step = node.int(4, "step")?;
            // INT64_MAX (or any end past the dim) means "to the end".
            let end = match size {
                Some(s) if end > s => s,
                _ => end,
            };
            (start, end, step)
        }
        "aten.select.int" => {
            let index = node.int(2, "index")?;
            // x[..., -1] is the slice [-1:]; other negatives stay Python-relative.
            let end = match index {
                -1 => i64::MAX,
                _ => index.checked_add(1).ok_or("index overflows")?,
            };
            let end = match size {
                Some(s) if end > s => s,
                _ => end,
            };
            (index, end, 1)
        }
        _ => {
            let start = node.int(2, "start")?;
            let length = node.int(3, "length")?;
            let start = if start < 0 {
                start + size.ok_or("a negative start needs a static dim")?
            } else {
                start
            };
            let end = start
                .checked_add(length)
                .ok_or("start + length overflows")?;
            (start, end, 1)
        }
    };
    if step <= 0 {
        return Err("step is not positive".into());
    }
    let out = node.out(0)?;
    if step == 1 && start == 0 && size == Some(end) {
        // The whole dim (x[..., :d] with d the full width): no copy, x itself.
        return one(e.reshape(x, out)?);
    }
    let slice_ty = if n == "aten.select.int" {
        // select drops the dim: slice to size 1, then reshape it away.
        let mut shape = info.shape.clone();
        shape[dim] = Some(1);
        mlir::tensor_of(&shape, element(out)?)
    } else {
        out
    };
    let c = e.context();
    let attrs = [
        ("dim", Attr::i64(c, dim as i64)),
        ("start", Attr::i64(c, start)),
        ("end", Attr::i64(c, end)),
        ("step", Attr::i64(c, step)),
    ];
    let sliced = e.dit1(OpKind::Slice, &[&[x]], slice_ty, &attrs)?;
    one(e.reshape(sliced, out)?)
}

fn scatter<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    one(slice_scatter(node, e)?)
}

fn pad<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    one(constant_pad(node, e)?)
}

/// aten.pad(x, pad, "constant", value) and aten.constant_pad_nd(x, pad, value): `pad` lists
/// (before, after) pairs from the last dim backwards; each padded dim becomes a dit.concat of
/// a constant block of `value` (0 when None), x, and another block. Other modes (reflect,
/// replicate, circular) and negative pads (crops) are not converted.
fn constant_pad<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Val<'a>> {
    let out = node.out(0)?;
    let mut x = node.tensor_as_out(e, 0)?;
    let pad = node.int_list(1, "pad")?;
    let value_arg = if node.name == "aten.pad" {
        let mode = node.arg(2).ok().and_then(scalars::str);
        let mode = mode.as_deref().unwrap_or("constant");
        if mode != "constant" {
            return Err(format!("pad mode \"{mode}\" (only constant is converted)"));
        }
        3
    } else {
        2
    };
    let value = match node.arg(value_arg) {
        Err(_) => Num::Int(0),
        Ok(v) if scalars::is_none(v) => Num::Int(0),
        Ok(_) => node.number(value_arg)?,
    };
    let mut shape = x.tensor().ok_or("x is not a ranked tensor")?.shape;
    if pad.len() % 2 != 0 || pad.len() / 2 > shape.len() {
        return Err("pad is not (before, after) pairs of x's dims".into());
    }
    if pad.iter().any(|p| *p < 0) {
        return Err("a negative pad (a crop) is not converted".into());
    }
    let elem = element(out)?;
    for (k, pair) in pad.chunks(2).enumerate() {
        let d = shape.len() - 1 - k;
        let mut pieces = Vec::new();
        for (i, &p) in pair.iter().enumerate() {
            if p > 0 {
                let mut block = shape.clone();
                block[d] = Some(p);
                pieces.push((i, e.splat(&block, elem, value)?));
            }
        }
        if pieces.is_empty() {
            continue;
        }
        let mut xs: Vec<Val> = pieces
            .iter()
            .filter(|(i, _)| *i == 0)
            .map(|p| p.1)
            .collect();
        xs.push(x);
        xs.extend(pieces.iter().filter(|(i, _)| *i == 1).map(|p| p.1));
        shape[d] = Some(shape[d].ok_or("a padded dim is not static")? + pair[0] + pair[1]);
        let attr = Attr::i64(e.context(), d as i64);
        x = e.dit1(
            OpKind::Concat,
            &[&xs],
            mlir::tensor_of(&shape, elem),
            &[("dim", attr)],
        )?;
    }
    e.reshape(x, out)
}

/// slice_scatter(x, src, dim, start, end, step): x with the slice replaced by src. With step 1
/// it is the concatenation of x before the slice, src and x after it. With step k over the
/// whole dim (size k·n, start s < k), the dim is viewed as [n, k] and column s replaced: this
/// is how an interleaving write (`out[..., 0::2] = a; out[..., 1::2] = b`) reads, and when x
/// itself came from such a write its columns are reused instead of split again.
fn slice_scatter<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Val<'a>> {
    let out = node.out(0)?;
    let elem = element(out)?;
    let x0 = node.tensor(0)?;
    let info = x0.tensor().ok_or("x is not a ranked tensor")?;
    let rank = info.rank();
    let dim = normalize_dim(node.int(2, "dim")?, rank)?;
    let size = info.shape[dim].ok_or("the scattered dim is dynamic")?;
    let clamp = |v: i64| {
        if v < 0 {
            (v + size).max(0)
        } else {
            v.min(size)
        }
    };
    let start = clamp(node.optional_int(3, "start")?.unwrap_or(0));
    let end = clamp(node.optional_int(4, "end")?.unwrap_or(i64::MAX));
    let step = match node.arg(5) {
        Ok(_) => node.int(5, "step")?,
        Err(_) => 1,
    };
    let src = e.cast(node.tensor(1)?, elem)?;
    let c = e.context();
    if step == 1 {
        let x = e.cast(x0, elem)?;
        let piece = |e: &mut Emitter<'a>, from: i64, to: i64| -> R<Val<'a>> {
            let mut shape = info.shape.clone();
            shape[dim] = Some(to - from);
            let attrs = [
                ("dim", Attr::i64(c, dim as i64)),
                ("start", Attr::i64(c, from)),
                ("end", Attr::i64(c, to)),
                ("step", Attr::i64(c, 1)),
            ];
            e.dit1(
                OpKind::Slice,
                &[&[x]],
                mlir::tensor_of(&shape, elem),
                &attrs,
            )
        };
        let mut pieces = Vec::new();
        if start > 0 {
            pieces.push(piece(e, 0, start)?);
        }
        pieces.push(src);
        if end < size {
            pieces.push(piece(e, end.max(start), size)?);
        }
        if pieces.len() == 1 {
            return e.to_type(src, out);
        }
        return e.dit1(
            OpKind::Concat,
            &[&pieces],
            out,
            &[("dim", Attr::i64(c, dim as i64))],
        );
    }
    if step <= 0 || start >= step || size % step != 0 {
        return Err(format!(
            "a step-{step} scatter from {start} over a dim of {size} is not one column of it"
        ));
    }
    let n = size / step;
    if (end - start + step - 1) / step != n {
        return Err("a strided scatter that does not reach the end of the dim".into());
    }
    // The dim as [n, step]: column `start` is the slice.
    let mut pairs = info.shape.clone();
    pairs[dim] = Some(n);
    pairs.insert(dim + 1, Some(step));
    let pairs_ty = mlir::tensor_of(&pairs, elem);
    let mut column = pairs.clone();
    column[dim + 1] = Some(1);
    let column_ty = mlir::tensor_of(&column, elem);
    let mut columns = match interleaved_columns(x0, pairs_ty, dim + 1) {
        Some(columns) => columns,
        None => {
            let x = e.cast(x0, elem)?;
            let p = e.reshape(x, pairs_ty)?;
            let sizes = node.op.i64_array_attr(&vec![1; step as usize]);
            let split = e.dit(
                OpKind::Split,
                &[&[p]],
                &vec![column_ty; step as usize],
                &[("dim", Attr::i64(c, dim as i64 + 1)), ("sizes", sizes)],
            )?;
            split.results()
        }
    };
    columns[start as usize] = e.reshape(src, column_ty)?;
    let joined = e.dit1(
        OpKind::Concat,
        &[&columns],
        pairs_ty,
        &[("dim", Attr::i64(c, dim as i64 + 1))],
    )?;
    e.reshape(joined, out)
}

/// The columns of `x` when it is `reshape(concat(columns, dim))` with the concat of type
/// `pairs` (what [`slice_scatter`] emits for a strided write).
fn interleaved_columns<'a>(x: Val<'a>, pairs: MlirType, dim: usize) -> Option<Vec<Val<'a>>> {
    let reshape = x.defining_op().filter(|o| o.is_kind(OpKind::Reshape))?;
    let concat = reshape
        .operand(0)
        .defining_op()
        .filter(|o| o.is_kind(OpKind::Concat))?;
    let same_dim = concat.attr("dim")?.as_i64()? == dim as i64;
    (same_dim && mlir::same_type(mlir::type_of(concat.result(0)), pairs)).then(|| concat.operands())
}
