//! Matmuls, linear layers, grouped matmuls and the convolutions that are patch embeddings.

use super::{element, one, Converter, Node, Replacements, R};
use crate::conversion::torch::{emit::Emitter, mlir, scalars};
use dit_dialect::ir::{Attr, Val};
use dit_dialect::ops::OpKind;
use mlir_sys::MlirType;

/// The topic's converters.
pub static CONVERTERS: &[Converter] = &[
    Converter {
        ops: &["torch.aten.linear"],
        becomes: "`dit.linear` (bias optional)",
        convert: linear,
    },
    Converter {
        ops: &["torch.aten.mm", "torch.aten.bmm", "torch.aten.matmul"],
        becomes: "`dit.matmul`, an operand's transpose of the last two dims folded into its flag",
        convert: mm,
    },
    Converter {
        ops: &["torch.aten.addmm", "torch.aten.baddbmm"],
        becomes:
            "`dit.linear` for addmm(b, x, t(w)), else `dit.matmul` + `dit.add` (beta = alpha = 1)",
        convert: addmm,
    },
    Converter {
        ops: &["torch.aten.outer"],
        becomes: "`dit.mul` of a column and a row view",
        convert: outer,
    },
    Converter {
        ops: &[
            "torch.aten.conv1d",
            "torch.aten.conv2d",
            "torch.aten.conv3d",
            "torch.aten.convolution",
        ],
        becomes: "a patch embedding (stride = kernel, no padding, dilation or groups): \
                  `dit.transpose` of the patches + `dit.linear`",
        convert: convolution,
    },
    Converter {
        ops: &["torch.aten._grouped_mm"],
        becomes: "`dit.grouped_matmul` with a cumsum group list (no bias)",
        convert: grouped_mm,
    },
];

fn linear<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    let (x, w) = (node.tensor(0)?, node.tensor(1)?);
    let b = node.optional_tensor(2)?;
    let bias: Vec<Val> = b.into_iter().collect();
    one(e.dit1(OpKind::Linear, &[&[x], &[w], &bias], node.out(0)?, &[])?)
}

fn mm<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    one(matmul(e, node.tensor(0)?, node.tensor(1)?, node.out(0)?)?)
}

fn addmm<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    // addmm(bias, m1, m2, beta, alpha) = beta·bias + alpha·(m1·m2).
    let (bias, m1, m2) = (node.tensor(0)?, node.tensor(1)?, node.tensor(2)?);
    node.require_one(3, "beta")?;
    node.require_one(4, "alpha")?;
    let out = node.out(0)?;
    // addmm(b, x, t(w)) is how a decomposed nn.Linear reads: the dit.linear form keeps
    // the weight [N, K] a function argument (what merge-horizontal and the weight
    // pre-pack look for).
    if node.name == "aten.addmm" {
        if let Some(w) = swapped_last_two(m2) {
            let mark = e.mark();
            let linear = e.dit1(OpKind::Linear, &[&[m1], &[w], &[bias]], out, &[]);
            match linear {
                Ok(v) if e.check_from(mark).is_ok() => return one(v),
                _ => e.rollback_to(mark),
            }
        }
    }
    let mut product_ty = out;
    if let (Some(a), Some(b)) = (m1.tensor(), m2.tensor()) {
        // The product's own shape: [batch.., M, N] from m1 and m2.
        let mut shape = a.shape.clone();
        if let (Some(last), Some(n)) = (shape.last_mut(), b.dim_from_back(0)) {
            *last = Some(n);
        }
        product_ty = mlir::tensor_of(&shape, element(out)?);
    }
    let product = matmul(e, m1, m2, product_ty)?;
    let bias = e.cast(bias, element(out)?)?;
    one(e.dit1(OpKind::Add, &[&[product], &[bias]], out, &[])?)
}

fn outer<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    // outer(a [N], b [M]) = a[:, None] · b[None, :].
    let out = node.out(0)?;
    let elem = element(out)?;
    let a = node.tensor_as_out(e, 0)?;
    let b = node.tensor_as_out(e, 1)?;
    let (Some(ai), Some(bi)) = (a.tensor(), b.tensor()) else {
        return Err("an operand is not a ranked tensor".into());
    };
    if ai.rank() != 1 || bi.rank() != 1 {
        return Err("outer takes two vectors".into());
    }
    let col = e.reshape(a, mlir::tensor_of(&[ai.shape[0], Some(1)], elem))?;
    let row = e.reshape(b, mlir::tensor_of(&[Some(1), bi.shape[0]], elem))?;
    one(e.dit1(OpKind::Mul, &[&[col], &[row]], out, &[])?)
}

fn convolution<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    one(patch_convolution(node, e)?)
}

fn grouped_mm<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    // _grouped_mm(x [M, K], w [G, K, N], offs [G], bias?, out_dtype?): the rows of group g
    // end at offs[g] (cumulative, int32) -- dit.grouped_matmul with a "cumsum" group
    // list, which dit keeps as i64.
    let (x, w) = (node.tensor(0)?, node.tensor(1)?);
    let offs = node
        .optional_tensor(2)?
        .ok_or("without offs there are no groups")?;
    if node.optional_tensor(3)?.is_some() {
        return Err("a bias".into());
    }
    let i64_ = mlir::integer_type(e.context(), 64);
    let list = e.cast(offs, i64_)?;
    let attr = Attr::string(e.context(), "cumsum");
    one(e.dit1(
        OpKind::GroupedMatmul,
        &[&[x], &[w], &[list], &[], &[], &[]],
        node.out(0)?,
        &[("group_list_type", attr)],
    )?)
}

/// A convolution whose stride equals its kernel, without padding, dilation or groups (a
/// patch embedding: every input element is read by exactly one output position) is one linear
/// layer on the patches: x [B, C, S1..Sk] is cut into patches
/// ([B, C, P1, K1, ..., Pk, Kk] -> [B, P1..Pk, C, K1..Kk] -> [B, P, C·K]), multiplied by the
/// weight viewed [O, C·K] (a view of the contiguous [O, C, K1..Kk] weight: no data moves),
/// and put back in the channels-first layout torch returns ([B, P, O] -> [B, O, P1..Pk]).
fn patch_convolution<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Val<'a>> {
    let convolution = node.name == "aten.convolution";
    let out = node.out(0)?;
    let elem = element(out)?;
    let x = node.tensor_as_out(e, 0)?;
    let w = node.tensor_as_out(e, 1)?;
    let bias = match node.optional_tensor(2)? {
        Some(b) => vec![e.cast(b, elem)?],
        None => Vec::new(),
    };
    let (xi, wi) = (
        x.tensor().ok_or("x is not a ranked tensor")?,
        w.tensor().ok_or("the weight is not a ranked tensor")?,
    );
    let static_dims = |shape: &[Option<i64>], what: &str| -> R<Vec<i64>> {
        shape
            .iter()
            .map(|d| d.ok_or_else(|| format!("{what} has a dynamic dim")))
            .collect()
    };
    let xs = static_dims(&xi.shape, "x")?;
    let ws = static_dims(&wi.shape, "the weight")?;
    if xs.len() < 3 || ws.len() != xs.len() {
        return Err("x and the weight are not [B, C, spatial...] and [O, C, kernel...]".into());
    }
    let k = xs.len() - 2;
    let (groups_arg, transposed) = if convolution { (8, Some(6)) } else { (6, None) };
    if let Some(t) = transposed {
        if scalars::bool(node.arg(t)?) != Some(false) {
            return Err("a transposed convolution is not a patch embedding".into());
        }
    }
    let per_dim = |i: usize, what: &str| -> R<Vec<i64>> {
        let v = node.int_list(i, what)?;
        match v.len() {
            1 => Ok(vec![v[0]; k]),
            n if n == k => Ok(v),
            _ => Err(format!(
                "{what} has {} entries for {k} spatial dims",
                v.len()
            )),
        }
    };
    let stride = per_dim(3, "stride")?;
    let padding = per_dim(4, "padding")?;
    let dilation = per_dim(5, "dilation")?;
    let groups = node.int(groups_arg, "groups")?;
    let kernel = &ws[2..];
    let spatial = &xs[2..];
    let (b, c, o) = (xs[0], xs[1], ws[0]);
    if groups != 1 || ws[1] != c {
        return Err("a grouped convolution is not a patch embedding".into());
    }
    if stride != kernel || padding.iter().any(|p| *p != 0) || dilation.iter().any(|d| *d != 1) {
        return Err(
            "only stride == kernel, no padding, no dilation (a patch embedding) becomes a linear"
                .into(),
        );
    }
    if spatial.iter().zip(kernel).any(|(s, k)| s % k != 0) {
        return Err("a spatial size is not a multiple of the kernel".into());
    }
    let patches: Vec<i64> = spatial.iter().zip(kernel).map(|(s, k)| s / k).collect();
    let p: i64 = patches.iter().product();
    let ck: i64 = c * kernel.iter().product::<i64>();
    let dims = |v: &[i64]| v.iter().map(|d| Some(*d)).collect::<Vec<_>>();
    // [B, C, P1, K1, ..., Pk, Kk]
    let mut split = vec![b, c];
    for (pi, ki) in patches.iter().zip(kernel) {
        split.extend([*pi, *ki]);
    }
    let x = e.reshape(x, mlir::tensor_of(&dims(&split), elem))?;
    // -> [B, P1..Pk, C, K1..Kk]
    let mut perm: Vec<i64> = vec![0];
    perm.extend((0..k).map(|i| 2 + 2 * i as i64));
    perm.push(1);
    perm.extend((0..k).map(|i| 3 + 2 * i as i64));
    let moved: Vec<i64> = perm.iter().map(|d| split[*d as usize]).collect();
    let attr = node.op.i64_array_attr(&perm);
    let x = e.dit1(
        OpKind::Transpose,
        &[&[x]],
        mlir::tensor_of(&dims(&moved), elem),
        &[("perm", attr)],
    )?;
    let x = e.reshape(x, mlir::tensor_of(&dims(&[b, p, ck]), elem))?;
    let w = e.reshape(w, mlir::tensor_of(&dims(&[o, ck]), elem))?;
    let y = e.dit1(
        OpKind::Linear,
        &[&[x], &[w], &bias],
        mlir::tensor_of(&dims(&[b, p, o]), elem),
        &[],
    )?;
    let attr = node.op.i64_array_attr(&[0, 2, 1]);
    let y = e.dit1(
        OpKind::Transpose,
        &[&[y]],
        mlir::tensor_of(&dims(&[b, o, p]), elem),
        &[("perm", attr)],
    )?;
    e.reshape(y, out)
}

/// `dit.matmul` of a and b with result type `out`; a transpose of the last two dims on either
/// side (a `dit.transpose` emitted for an earlier aten.t / transpose) folds into the flags.
fn matmul<'a>(e: &mut Emitter<'a>, a: Val<'a>, b: Val<'a>, out: MlirType) -> R<Val<'a>> {
    let (a, ta) = match swapped_last_two(a) {
        Some(inner) => (inner, true),
        None => (a, false),
    };
    let (b, tb) = match swapped_last_two(b) {
        Some(inner) => (inner, true),
        None => (b, false),
    };
    let c = e.context();
    let attrs = [
        ("transpose_a", Attr::bool(c, ta)),
        ("transpose_b", Attr::bool(c, tb)),
    ];
    e.dit1(OpKind::Matmul, &[&[a], &[b]], out, &attrs)
}

/// The input of `v`'s defining `dit.transpose` when it swaps exactly the last two dims.
fn swapped_last_two<'a>(v: Val<'a>) -> Option<Val<'a>> {
    let def = v.defining_op()?;
    if !def.is_kind(OpKind::Transpose) {
        return None;
    }
    let perm = def.attr("perm")?.as_i64_array()?;
    let r = perm.len();
    let swaps = r >= 2
        && perm[..r - 2]
            .iter()
            .enumerate()
            .all(|(i, p)| *p == i as i64)
        && perm[r - 2] == r as i64 - 1
        && perm[r - 1] == r as i64 - 2;
    swaps.then(|| def.operand(0))
}
