//! The aten op table: how each supported torch op becomes dit ops. A converter returns the
//! values that replace the op's tensor results, or the reason it cannot (an op outside the
//! table, or arguments the dit contract cannot express); the pass then keeps the op as
//! `dit.opaque`. Torch semantics the table relies on:
//!
//! - Elementwise arithmetic computes in the result's dtype (torch's type promotion), so every
//!   tensor operand is cast to the result's element type first and a Python scalar becomes a
//!   0-d constant of that type; `alpha` of add/sub/rsub scales the second operand.
//! - Views (view, reshape, flatten, unflatten, squeeze, unsqueeze, ...) take their shape from
//!   the result's type, so their size lists need not be constants.
//! - Ops that return lists of tensors (split, chunk, unbind) are read through the
//!   `torch.prim.ListUnpack` that unpacks them: its result types give the pieces.

use super::{
    emit::{Emitter, Num},
    mlir,
    scalars::{self, Scalar},
};
use dit_dialect::ops::OpKind;
use dit_dialect::{
    ir::{Attr, Op, Val},
    tensor::TensorInfo,
};
use mlir_sys::MlirType;

/// One torch op to convert: its name without the `torch.` prefix, and its tensor results
/// flattened (a list result contributes its unpacked elements), old values with new types.
pub struct Node {
    pub op: Op,
    pub name: String,
    /// The values the op defines that dit must replace, in order.
    pub olds: Vec<Val>,
    /// Their builtin tensor types.
    pub outs: Vec<MlirType>,
}

/// Replacement values, one per entry of [`Node::outs`]; `None` only for a value without uses
/// (native_layer_norm's mean and rstd).
pub type Replacements = Vec<Option<Val>>;

/// Every op name the table converts (without `torch.`), for the documentation and tests.
pub const SUPPORTED: &[&str] = &[
    "aten.linear",
    "aten.addmm",
    "aten.mm",
    "aten.bmm",
    "aten.matmul",
    "aten.baddbmm",
    "aten.outer",
    "aten.conv1d",
    "aten.conv2d",
    "aten.conv3d",
    "aten.convolution",
    "aten._grouped_mm",
    "aten.gelu",
    "aten.silu",
    "aten.sigmoid",
    "aten.tanh",
    "aten.relu",
    "aten.rsqrt",
    "aten.sqrt",
    "aten.exp",
    "aten.neg",
    "aten.erf",
    "aten.sin",
    "aten.cos",
    "aten.square",
    "aten.reciprocal",
    "aten.add.Tensor",
    "aten.add.Scalar",
    "aten.sub.Tensor",
    "aten.sub.Scalar",
    "aten.rsub.Tensor",
    "aten.rsub.Scalar",
    "aten.mul.Tensor",
    "aten.mul.Scalar",
    "aten.div.Tensor",
    "aten.div.Scalar",
    "aten.div.Tensor_mode",
    "aten.div.Scalar_mode",
    "aten.pow.Tensor_Tensor",
    "aten.pow.Tensor_Scalar",
    "aten.pow.Scalar",
    "aten.mean.dim",
    "aten.mean",
    "aten.sum.dim_IntList",
    "aten.sum",
    "aten.softmax.int",
    "aten._softmax",
    "aten.layer_norm",
    "aten.native_layer_norm",
    "aten.rms_norm",
    "aten.scaled_dot_product_attention",
    "aten.topk",
    "aten.sort",
    "aten.sort.stable",
    "aten.argsort",
    "aten.argsort.stable",
    "aten.cumsum",
    "aten.floor_divide",
    "aten.floor_divide.Scalar",
    "aten.index_select",
    "aten.scatter_add",
    "aten.index_add",
    "aten.cat",
    "aten.stack",
    "aten.split.Tensor",
    "aten.split_with_sizes",
    "aten.split.sizes",
    "aten.chunk",
    "aten.tensor_split.sections",
    "aten.unbind.int",
    "aten.slice.Tensor",
    "aten.select.int",
    "aten.narrow",
    "aten.slice_scatter",
    "aten.repeat_interleave.self_int",
    "aten.repeat",
    "aten.pad",
    "aten.constant_pad_nd",
    "aten.__and__.Tensor",
    "aten.bitwise_and.Tensor",
    "aten.logical_and",
    "aten.view",
    "aten.reshape",
    "aten._unsafe_view",
    "aten.view_as",
    "aten.reshape_as",
    "aten.flatten.using_ints",
    "aten.unflatten.int",
    "aten.unsqueeze",
    "aten.squeeze",
    "aten.squeeze.dim",
    "aten.squeeze.dims",
    "aten.view.dtype",
    "aten.permute",
    "aten.transpose.int",
    "aten.swapaxes",
    "aten.t",
    "aten.movedim.int",
    "aten.einsum",
    "aten.expand",
    "aten.expand_as",
    "aten.broadcast_to",
    "aten._to_copy",
    "aten.to.dtype",
    "aten.to.dtype_layout",
    "aten.to.device",
    "aten.to.other",
    "aten.type_as",
    "aten.copy",
    "prims.convert_element_type",
    "aten.clone",
    "aten.contiguous",
    "aten.detach",
    "aten.alias",
    "aten.lift_fresh_copy",
    "aten.dropout",
    "tensor_static_info_cast",
    "vtensor.literal",
    "aten.full",
    "aten.full_like",
    "aten.new_full",
    "aten.ones",
    "aten.ones_like",
    "aten.new_ones",
    "aten.zeros",
    "aten.zeros_like",
    "aten.new_zeros",
    "aten.empty.memory_format",
    "aten.empty_like",
    "aten.scalar_tensor",
    "prim.NumToTensor.Scalar",
    "aten.arange",
    "aten.arange.start",
    "aten.arange.start_step",
];

type R<T> = Result<T, String>;

/// Converts `node`, creating ops through `e`.
pub fn convert(node: &Node, e: &mut Emitter) -> R<Replacements> {
    let n = node.name.as_str();
    let one = |v: Val| Ok(vec![Some(v)]);
    match n {
        // ---- matmuls -----------------------------------------------------------------
        "aten.linear" => {
            let (x, w) = (node.tensor(0)?, node.tensor(1)?);
            let b = node.optional_tensor(2)?;
            let bias: Vec<Val> = b.into_iter().collect();
            one(e.dit1(OpKind::Linear, &[&[x], &[w], &bias], node.out(0)?, &[])?)
        }
        "aten.mm" | "aten.bmm" | "aten.matmul" => {
            one(matmul(e, node.tensor(0)?, node.tensor(1)?, node.out(0)?)?)
        }
        "aten.addmm" | "aten.baddbmm" => {
            // addmm(bias, m1, m2, beta, alpha) = beta·bias + alpha·(m1·m2).
            let (bias, m1, m2) = (node.tensor(0)?, node.tensor(1)?, node.tensor(2)?);
            node.require_one(3, "beta")?;
            node.require_one(4, "alpha")?;
            let out = node.out(0)?;
            // addmm(b, x, t(w)) is how a decomposed nn.Linear reads: the dit.linear form keeps
            // the weight [N, K] a function argument (what merge-horizontal and the weight
            // pre-pack look for).
            if n == "aten.addmm" {
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

        "aten.outer" => {
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
        "aten.conv1d" | "aten.conv2d" | "aten.conv3d" | "aten.convolution" => {
            one(patch_convolution(node, e)?)
        }
        "aten._grouped_mm" => {
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

        // ---- elementwise unary ----------------------------------------------------------
        "aten.gelu" => {
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
        "aten.silu" | "aten.sigmoid" | "aten.tanh" | "aten.relu" | "aten.rsqrt" | "aten.sqrt"
        | "aten.exp" | "aten.neg" | "aten.erf" | "aten.sin" | "aten.cos" => {
            let x = node.tensor_as_out(e, 0)?;
            let dit = &n["aten.".len()..];
            let kind = OpKind::ALL
                .into_iter()
                .find(|k| k.mnemonic() == dit)
                .ok_or_else(|| format!("no dit op for {n}"))?;
            one(e.dit1(kind, &[&[x]], node.out(0)?, &[])?)
        }
        "aten.square" => {
            let x = node.tensor_as_out(e, 0)?;
            one(e.dit1(OpKind::Mul, &[&[x], &[x]], node.out(0)?, &[])?)
        }
        "aten.reciprocal" => {
            let x = node.tensor_as_out(e, 0)?;
            let one_ = e.scalar(element(node.out(0)?)?, Num::Float(1.0))?;
            one(e.dit1(OpKind::Div, &[&[one_], &[x]], node.out(0)?, &[])?)
        }

        // ---- elementwise binary -----------------------------------------------------------
        "aten.add.Tensor"
        | "aten.sub.Tensor"
        | "aten.mul.Tensor"
        | "aten.div.Tensor"
        | "aten.div.Tensor_mode"
        | "aten.pow.Tensor_Tensor"
        | "aten.rsub.Tensor" => {
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
        "aten.add.Scalar"
        | "aten.sub.Scalar"
        | "aten.mul.Scalar"
        | "aten.div.Scalar"
        | "aten.div.Scalar_mode"
        | "aten.pow.Tensor_Scalar"
        | "aten.rsub.Scalar" => {
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
        "aten.pow.Scalar" => {
            // pow(s, x) = s ** x.
            let out = node.out(0)?;
            let c = e.scalar(element(out)?, node.number(0)?)?;
            let x = node.tensor_as_out(e, 1)?;
            one(e.dit1(OpKind::Pow, &[&[c], &[x]], out, &[])?)
        }

        // ---- reductions and softmax --------------------------------------------------------
        "aten.mean.dim" | "aten.sum.dim_IntList" | "aten.mean" | "aten.sum" => {
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
        "aten.softmax.int" | "aten._softmax" => {
            // softmax.int(x, dim, dtype?) and _softmax(x, dim, half_to_float): both compute in
            // the result's dtype.
            let x = node.tensor_as_out(e, 0)?;
            let dim = normalize_dim(node.int(1, "dim")?, rank(x)?)?;
            let attr = Attr::i64(e.context(), dim as i64);
            one(e.dit1(OpKind::Softmax, &[&[x]], node.out(0)?, &[("dim", attr)])?)
        }

        // ---- norms --------------------------------------------------------------------------
        "aten.layer_norm" | "aten.native_layer_norm" => {
            let x = node.tensor(0)?;
            normalized_last_dim(node, x, 1)?;
            let gamma: Vec<Val> = node.optional_tensor(2)?.into_iter().collect();
            let beta: Vec<Val> = node.optional_tensor(3)?.into_iter().collect();
            let eps = node.float(4, "eps")?;
            let mut replacements = Vec::new();
            if n == "aten.native_layer_norm" {
                // (out, mean, rstd): dit.layer_norm gives only out.
                for (i, old) in node.olds.iter().enumerate().skip(1) {
                    if old.has_uses() {
                        return Err(format!("result #{i} (mean or rstd) is used"));
                    }
                }
            }
            let attr = Attr::f32(e.context(), eps as f32);
            let y = e.dit1(
                OpKind::LayerNorm,
                &[&[x], &gamma, &beta],
                node.out(0)?,
                &[("epsilon", attr)],
            )?;
            replacements.push(Some(y));
            replacements.resize(node.outs.len(), None);
            Ok(replacements)
        }
        "aten.rms_norm" => {
            let x = node.tensor(0)?;
            normalized_last_dim(node, x, 1)?;
            let info = x.tensor().ok_or("x is not a ranked tensor")?;
            let eps = match node.arg(3) {
                Ok(v) if !scalars::is_none(v) => {
                    scalars::float(v).ok_or("eps is not a constant")?
                }
                // torch's default: the machine epsilon of x's dtype.
                _ => machine_epsilon(&info)?,
            };
            let gamma = match node.optional_tensor(2)? {
                Some(g) => g,
                None => {
                    // dit.rms_norm needs gamma: a weightless RMSNorm multiplies by ones.
                    let d = info.dim_from_back(0);
                    e.splat(&[d], element(mlir::type_of(x))?, Num::Float(1.0))?
                }
            };
            let attr = Attr::f32(e.context(), eps as f32);
            one(e.dit1(
                OpKind::RmsNorm,
                &[&[x], &[gamma]],
                node.out(0)?,
                &[("epsilon", attr)],
            )?)
        }

        // ---- attention ----------------------------------------------------------------------
        "aten.scaled_dot_product_attention" => {
            let (q, k, v) = (node.tensor(0)?, node.tensor(1)?, node.tensor(2)?);
            // A boolean mask says which keys to attend; a float one is added to the scores
            // (dit.attention's mask_kind = "additive").
            use dit_dialect::tensor::Elem;
            let (mask, additive): (Vec<Val>, bool) = match node.optional_tensor(3)? {
                None => (Vec::new(), false),
                Some(m) if m.tensor().is_some_and(|t| t.elem == Elem::I1) => {
                    (vec![keep_mask_to_masked_out(e, m)?], false)
                }
                Some(m) => (vec![additive_mask(e, m, q, k)?], true),
            };
            if let Ok(p) = node.arg(4) {
                if scalars::float(p) != Some(0.0) {
                    return Err("dropout_p is not 0".into());
                }
            }
            // is_causal: torch's top-left aligned ones(L, S).tril() mask, dit.attention's
            // causal = true. torch refuses it together with attn_mask, and so does dit.
            let causal = match node.arg(5) {
                Ok(c) => scalars::bool(c).ok_or("is_causal is not a constant bool")?,
                Err(_) => false,
            };
            if causal && !mask.is_empty() {
                return Err("is_causal = true with an attn_mask (torch refuses both)".into());
            }
            let scale = match node.arg(6) {
                Ok(s) if !scalars::is_none(s) => {
                    scalars::float(s).ok_or("scale is not a constant")?
                }
                _ => {
                    // torch's default: 1/sqrt(E), E the head dim of q.
                    let e_dim = q
                        .tensor()
                        .and_then(|t| t.dim_from_back(0))
                        .ok_or("the default scale needs q's head dim to be static")?;
                    1.0 / (e_dim as f64).sqrt()
                }
            };
            let mut attrs = vec![
                ("scale", Attr::f32(e.context(), scale as f32)),
                ("layout", Attr::string(e.context(), "BNSD")),
            ];
            if additive {
                attrs.push(("mask_kind", Attr::string(e.context(), "additive")));
            }
            if causal {
                attrs.push(("causal", Attr::bool(e.context(), true)));
            }
            one(e.dit1(
                OpKind::Attention,
                &[&[q], &[k], &[v], &mask],
                node.out(0)?,
                &attrs,
            )?)
        }

        // ---- MoE routing and indexing (torch semantics, one dit op each) ---------------------
        "aten.topk" => {
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
        "aten.sort" | "aten.sort.stable" | "aten.argsort" | "aten.argsort.stable" => {
            // sort(self, dim=-1, descending=False); sort.stable(self, *, stable, dim=-1,
            // descending=False); argsort likewise, returning only the indices.
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
        "aten.cumsum" => {
            // cumsum(self, dim, dtype=None): the result type states the accumulation type
            // (i64 for integer input when dtype is None).
            let x = node.tensor(0)?;
            let dim = normalize_dim(node.int(1, "dim")?, rank(x)?)?;
            let attrs = [("dim", Attr::i64(e.context(), dim as i64))];
            one(e.dit1(OpKind::Cumsum, &[&[x]], node.out(0)?, &attrs)?)
        }
        "aten.floor_divide" | "aten.floor_divide.Scalar" => {
            // Python's `//` in the result type; a scalar divisor becomes a 0-d constant.
            let out = node.out(0)?;
            let x = node.tensor_as_out(e, 0)?;
            let d = if n == "aten.floor_divide" {
                node.tensor_as_out(e, 1)?
            } else {
                e.scalar(element(out)?, node.number(1)?)?
            };
            one(e.dit1(OpKind::FloorDiv, &[&[x], &[d]], out, &[])?)
        }
        "aten.index_select" => {
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
        "aten.scatter_add" => {
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
        "aten.index_add" => {
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

        // ---- concatenation and splitting -------------------------------------------------------
        "aten.cat" | "aten.stack" => {
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
        "aten.split.Tensor"
        | "aten.split_with_sizes"
        | "aten.split.sizes"
        | "aten.chunk"
        | "aten.tensor_split.sections"
        | "aten.unbind.int" => {
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
        "aten.slice.Tensor" | "aten.select.int" | "aten.narrow" => {
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

        "aten.slice_scatter" => one(slice_scatter(node, e)?),
        "aten.repeat" => one(repeat(node, e)?),
        "aten.pad" | "aten.constant_pad_nd" => one(constant_pad(node, e)?),
        "aten.__and__.Tensor" | "aten.bitwise_and.Tensor" | "aten.logical_and" => {
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
        "aten.repeat_interleave.self_int" => {
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

        // ---- views and layout -----------------------------------------------------------------
        "aten.view"
        | "aten.reshape"
        | "aten._unsafe_view"
        | "aten.view_as"
        | "aten.reshape_as"
        | "aten.flatten.using_ints"
        | "aten.unflatten.int"
        | "aten.unsqueeze"
        | "aten.squeeze"
        | "aten.squeeze.dim"
        | "aten.squeeze.dims" => {
            let x = node.tensor(0)?;
            let out = node.out(0)?;
            if !mlir::same_type(element(mlir::type_of(x))?, element(out)?) {
                return Err("a view changes the element type".into());
            }
            one(e.reshape(x, out)?)
        }
        "aten.view.dtype" => {
            let x = node.tensor(0)?;
            let out = node.out(0)?;
            if mlir::same_type(mlir::type_of(x), out) {
                return one(x);
            }
            one(e.dit1(OpKind::Bitcast, &[&[x]], out, &[])?)
        }
        "aten.permute" | "aten.transpose.int" | "aten.swapaxes" | "aten.t" | "aten.movedim.int" => {
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
        "aten.einsum" => one(permuting_einsum(node, e)?),
        "aten.expand" | "aten.expand_as" | "aten.broadcast_to" => {
            let x = node.tensor(0)?;
            let out = node.out(0)?;
            if mlir::same_type(mlir::type_of(x), out) {
                return one(x);
            }
            one(e.dit1(OpKind::Broadcast, &[&[x]], out, &[])?)
        }

        // ---- casts and identities ---------------------------------------------------------------
        "aten._to_copy"
        | "aten.to.dtype"
        | "aten.to.dtype_layout"
        | "aten.to.device"
        | "aten.to.other"
        | "aten.type_as"
        | "prims.convert_element_type"
        | "aten.clone"
        | "aten.contiguous"
        | "aten.detach"
        | "aten.alias"
        | "aten.lift_fresh_copy"
        | "tensor_static_info_cast" => one(e.to_type(node.tensor(0)?, node.out(0)?)?),
        "aten.copy" => {
            // copy(self, src): src, in self's dtype, broadcast to self's shape.
            let out = node.out(0)?;
            let src = e.cast(node.tensor(1)?, element(out)?)?;
            if mlir::same_type(mlir::type_of(src), out) {
                return one(src);
            }
            one(e.dit1(OpKind::Broadcast, &[&[src]], out, &[])?)
        }
        "aten.dropout" => {
            // Inference: dropout(x, p, train=False) is x.
            let p = node.float(1, "p")?;
            let train = scalars::bool(node.arg(2)?).ok_or("train is not a constant")?;
            if train && p != 0.0 {
                return Err("dropout in training mode".into());
            }
            one(e.to_type(node.tensor(0)?, node.out(0)?)?)
        }

        // ---- constants -----------------------------------------------------------------------
        "vtensor.literal" => {
            let value = node.op.attr("value").ok_or("no value attribute")?;
            let out = node.out(0)?;
            let ty = mlir::attr_type(value);
            if mlir::same_type(ty, out) {
                return one(e.constant(value));
            }
            // torch keeps signed integer data (`tensor<2xsi64>`); dit's integers are signless.
            let (Some(from), Some(to)) = (element(ty).ok(), element(out).ok()) else {
                return Err("the literal is not a tensor".into());
            };
            let same_shape =
                mlir::tensor_info(ty).map(|t| t.shape) == mlir::tensor_info(out).map(|t| t.shape);
            match (mlir::integer_width(from), mlir::integer_width(to)) {
                (Some(a), Some(b)) if a == b && a >= 8 && same_shape => {
                    if mlir::is_dense_resource(value) {
                        return Err("a signed-integer dense_resource literal cannot be \
                                    re-typed to a signless tensor"
                            .into());
                    }
                    let retyped = mlir::retype_dense_int(value, out, (a / 8) as usize)
                        .ok_or("the literal's data could not be read")?;
                    one(e.constant(retyped))
                }
                _ => Err(format!(
                    "the literal's type {} differs from the result type {}",
                    mlir::type_text(ty),
                    mlir::type_text(out)
                )),
            }
        }
        "aten.full"
        | "aten.full_like"
        | "aten.new_full"
        | "aten.ones"
        | "aten.ones_like"
        | "aten.new_ones"
        | "aten.zeros"
        | "aten.zeros_like"
        | "aten.new_zeros"
        | "aten.empty.memory_format"
        | "aten.empty_like"
        | "aten.scalar_tensor"
        | "prim.NumToTensor.Scalar" => {
            let value = match n {
                "aten.full" | "aten.full_like" => node.number(1)?,
                "aten.new_full" => node.number(2)?,
                "aten.scalar_tensor" | "prim.NumToTensor.Scalar" => node.number(0)?,
                "aten.ones" | "aten.ones_like" | "aten.new_ones" => Num::Int(1),
                // zeros, and empty: its contents are unspecified, zeros are one choice.
                _ => Num::Int(0),
            };
            let out = node.out(0)?;
            let shape = mlir::tensor_info(out).ok_or("not a ranked tensor")?.shape;
            one(e.splat(&shape, element(out)?, value)?)
        }
        "aten.arange" | "aten.arange.start" | "aten.arange.start_step" => one(arange(node, e)?),
        _ => Err("no dit op models it".into()),
    }
}

impl Node {
    /// Operand `i`.
    pub fn arg(&self, i: usize) -> R<Val> {
        (i < self.op.num_operands())
            .then(|| self.op.operand(i))
            .ok_or_else(|| format!("operand #{i} is missing"))
    }

    /// Operand `i`, which must be a ranked (builtin) tensor.
    fn tensor(&self, i: usize) -> R<Val> {
        let v = self.arg(i)?;
        v.tensor()
            .map(|_| v)
            .ok_or_else(|| format!("operand #{i} is not a ranked tensor"))
    }

    /// Operand `i` cast to the element type of the first result.
    fn tensor_as_out(&self, e: &mut Emitter, i: usize) -> R<Val> {
        let v = self.tensor(i)?;
        e.cast(v, element(self.out(0)?)?)
    }

    /// Optional tensor operand `i` (`torch.constant.none`, or missing, is absent).
    fn optional_tensor(&self, i: usize) -> R<Option<Val>> {
        match self.arg(i) {
            Err(_) => Ok(None),
            Ok(v) if v.tensor().is_some() => Ok(Some(v)),
            Ok(v) if scalars::is_none(v) => Ok(None),
            Ok(_) => Err(format!("operand #{i} is neither a tensor nor none")),
        }
    }

    /// Result type `i`.
    fn out(&self, i: usize) -> R<MlirType> {
        self.outs
            .get(i)
            .copied()
            .ok_or_else(|| format!("result #{i} is missing"))
    }

    fn int(&self, i: usize, what: &str) -> R<i64> {
        scalars::int(self.arg(i)?).ok_or_else(|| format!("{what} is not a constant integer"))
    }

    fn optional_int(&self, i: usize, what: &str) -> R<Option<i64>> {
        match self.arg(i) {
            Err(_) => Ok(None),
            Ok(v) if scalars::is_none(v) => Ok(None),
            Ok(_) => self.int(i, what).map(Some),
        }
    }

    /// An optional bool operand (`None` or missing: absent).
    fn optional_bool(&self, i: usize, what: &str) -> R<Option<bool>> {
        match self.arg(i) {
            Err(_) => Ok(None),
            Ok(v) if scalars::is_none(v) => Ok(None),
            Ok(v) => scalars::bool(v)
                .map(Some)
                .ok_or_else(|| format!("{what} is not a constant bool")),
        }
    }

    fn float(&self, i: usize, what: &str) -> R<f64> {
        scalars::float(self.arg(i)?).ok_or_else(|| format!("{what} is not a constant number"))
    }

    fn int_list(&self, i: usize, what: &str) -> R<Vec<i64>> {
        scalars::int_list(self.arg(i)?)
            .ok_or_else(|| format!("{what} is not a constant integer list"))
    }

    /// A Python scalar operand as a number (int, float or bool).
    fn number(&self, i: usize) -> R<Num> {
        match scalars::eval(self.arg(i)?) {
            Some(Scalar::Int(v)) => Ok(Num::Int(v)),
            Some(Scalar::Float(v)) => Ok(Num::Float(v)),
            Some(Scalar::Bool(v)) => Ok(Num::Bool(v)),
            _ => Err(format!("operand #{i} is not a constant number")),
        }
    }

    /// `alpha` of add/sub (1 when missing).
    fn alpha(&self, i: usize) -> R<f64> {
        match self.arg(i) {
            Err(_) => Ok(1.0),
            Ok(_) => self.float(i, "alpha"),
        }
    }

    /// Operand `i` must be the constant 1 (addmm's beta and alpha).
    fn require_one(&self, i: usize, what: &str) -> R<()> {
        match self.arg(i) {
            Err(_) => Ok(()),
            Ok(_) if self.float(i, what)? == 1.0 => Ok(()),
            Ok(_) => Err(format!("{what} is not 1")),
        }
    }
}

/// aten.arange with constant bounds: a dense constant of the result type (the values
/// `start + i·step`, as torch computes them, rounded once to the element type).
fn arange(node: &Node, e: &mut Emitter) -> R<Val> {
    let (start, end, step) = match node.name.as_str() {
        "aten.arange" => (Num::Int(0), node.number(0)?, Num::Int(1)),
        "aten.arange.start" => (node.number(0)?, node.number(1)?, Num::Int(1)),
        _ => (node.number(0)?, node.number(1)?, node.number(2)?),
    };
    let out = node.out(0)?;
    let elem = element(out)?;
    let shape = mlir::tensor_info(out).ok_or("not a ranked tensor")?.shape;
    let len = match shape.as_slice() {
        [Some(n)] => *n,
        _ => return Err("the result is not a vector of static length".into()),
    };
    let (s, t, st) = (start.as_f64(), end.as_f64(), step.as_f64());
    if st == 0.0 || !(s.is_finite() && t.is_finite() && st.is_finite()) {
        return Err("step is 0 or a bound is not finite".into());
    }
    // torch's length: ceil((end - start) / step); the result type must agree.
    let expected = ((t - s) / st).ceil().max(0.0);
    if expected != len as f64 {
        return Err(format!(
            "arange({s}, {t}, {st}) has {expected} elements, the result type {len}"
        ));
    }
    let values: Vec<Num> = match (start, step) {
        // Integer bounds: exact integers (an i64 arange, or exact floats).
        (Num::Int(a), Num::Int(b)) => (0..len)
            .map(|i| {
                i.checked_mul(b)
                    .and_then(|v| v.checked_add(a))
                    .map(Num::Int)
                    .ok_or_else(|| "arange overflows i64".to_string())
            })
            .collect::<R<_>>()?,
        _ => (0..len).map(|i| Num::Float(s + i as f64 * st)).collect(),
    };
    let table = e.dense(&shape, elem, &values)?;
    // Tables computed from it fold at compile time (see torch/fold.rs).
    if let Some(def) = table.defining_op() {
        super::fold::mark_source(def);
    }
    Ok(table)
}

/// A convolution whose stride equals its kernel, without padding, dilation or groups (a
/// patch embedding: every input element is read by exactly one output position) is one linear
/// layer on the patches: x [B, C, S1..Sk] is cut into patches
/// ([B, C, P1, K1, ..., Pk, Kk] -> [B, P1..Pk, C, K1..Kk] -> [B, P, C·K]), multiplied by the
/// weight viewed [O, C·K] (a view of the contiguous [O, C, K1..Kk] weight: no data moves),
/// and put back in the channels-first layout torch returns ([B, P, O] -> [B, O, P1..Pk]).
fn patch_convolution(node: &Node, e: &mut Emitter) -> R<Val> {
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

/// aten.einsum of one operand whose output subscripts permute its input subscripts
/// (`nhwpqc->nchpwq`, SD3's unpatchify) is a transpose.
fn permuting_einsum(node: &Node, e: &mut Emitter) -> R<Val> {
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

/// aten.repeat(x, repeats): torch's tile. x (with leading size-1 dims when `repeats` is longer
/// than its rank) gets a size-1 dim before each of its dims, broadcast to the repeat count
/// (a view) and merged: out[i·d + j] = x[j] along every dim, the outer index the copy.
fn repeat(node: &Node, e: &mut Emitter) -> R<Val> {
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

/// aten.pad(x, pad, "constant", value) and aten.constant_pad_nd(x, pad, value): `pad` lists
/// (before, after) pairs from the last dim backwards; each padded dim becomes a dit.concat of
/// a constant block of `value` (0 when None), x, and another block. Other modes (reflect,
/// replicate, circular) and negative pads (crops) are not converted.
fn constant_pad(node: &Node, e: &mut Emitter) -> R<Val> {
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

/// `v · alpha` (no op for alpha = 1).
fn scale(e: &mut Emitter, v: Val, alpha: f64) -> R<Val> {
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

/// `dit.matmul` of a and b with result type `out`; a transpose of the last two dims on either
/// side (a `dit.transpose` emitted for an earlier aten.t / transpose) folds into the flags.
fn matmul(e: &mut Emitter, a: Val, b: Val, out: MlirType) -> R<Val> {
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
fn swapped_last_two(v: Val) -> Option<Val> {
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

/// torch's float attention mask (added to the scaled scores) as dit.attention's additive
/// mask: in q's element type, broadcast to `[B|1, N, Sq, Skv]`, the 4-d shape
/// aclnnFusedInferAttentionScore's pseShift takes (batch dim 1 only when torch's mask has it
/// as 1 in a 4-d mask).
fn additive_mask(e: &mut Emitter, m: Val, q: Val, k: Val) -> R<Val> {
    use dit_dialect::tensor::Elem;
    let info = m.tensor().ok_or("attn_mask is not a ranked tensor")?;
    if !matches!(info.elem, Elem::F32 | Elem::F16 | Elem::BF16) {
        return Err(format!(
            "attn_mask is {}: neither boolean nor float",
            info.elem
        ));
    }
    let (qi, ki) = (
        q.tensor().ok_or("q is not a ranked tensor")?,
        k.tensor().ok_or("k is not a ranked tensor")?,
    );
    if qi.rank() != 4 || ki.rank() != 4 || info.rank() > 4 || info.rank() < 2 {
        return Err("an additive mask needs 4-d q and k and a 2-d to 4-d mask".into());
    }
    let batch = if info.rank() == 4 && info.shape[0] == Some(1) {
        Some(1)
    } else {
        qi.shape[0]
    };
    let shape = [batch, qi.shape[1], qi.shape[2], ki.shape[2]];
    if shape.iter().any(Option::is_none) {
        return Err("an additive mask is broadcast to a static [B, N, Sq, Skv]".into());
    }
    let elem = mlir::element_type(mlir::type_of(q)).ok_or("q has no element type")?;
    let cast = e.cast(m, elem)?;
    let target = mlir::tensor_of(&shape, elem);
    if mlir::same_type(mlir::type_of(cast), target) {
        return Ok(cast);
    }
    e.dit1(OpKind::Broadcast, &[&[cast]], target, &[])
}

/// torch's boolean attention mask (true = may attend) as dit's (non-zero = masked out, as
/// aclnnFusedInferAttentionScore reads it): `1 - m` in i8. A float mask is additive (see
/// [`additive_mask`]).
fn keep_mask_to_masked_out(e: &mut Emitter, m: Val) -> R<Val> {
    let info = m.tensor().ok_or("attn_mask is not a ranked tensor")?;
    if info.elem != dit_dialect::tensor::Elem::I1 {
        return Err(format!(
            "attn_mask is {} (an additive mask; dit.attention masks are boolean, non-zero = \
             masked out)",
            info.elem
        ));
    }
    let i8 = mlir::integer_type(e.context(), 8);
    let m8 = e.cast(m, i8)?;
    let one = e.scalar(i8, Num::Int(1))?;
    e.dit1(OpKind::Sub, &[&[one], &[m8]], mlir::type_of(m8), &[])
}

/// slice_scatter(x, src, dim, start, end, step): x with the slice replaced by src. With step 1
/// it is the concatenation of x before the slice, src and x after it. With step k over the
/// whole dim (size k·n, start s < k), the dim is viewed as [n, k] and column s replaced: this
/// is how an interleaving write (`out[..., 0::2] = a; out[..., 1::2] = b`) reads, and when x
/// itself came from such a write its columns are reused instead of split again.
fn slice_scatter(node: &Node, e: &mut Emitter) -> R<Val> {
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
        let piece = |e: &mut Emitter, from: i64, to: i64| -> R<Val> {
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
fn interleaved_columns(x: Val, pairs: MlirType, dim: usize) -> Option<Vec<Val>> {
    let reshape = x.defining_op().filter(|o| o.is_kind(OpKind::Reshape))?;
    let concat = reshape
        .operand(0)
        .defining_op()
        .filter(|o| o.is_kind(OpKind::Concat))?;
    let same_dim = concat.attr("dim")?.as_i64()? == dim as i64;
    (same_dim && mlir::same_type(mlir::type_of(concat.result(0)), pairs)).then(|| concat.operands())
}

/// normalized_shape of layer_norm / rms_norm must be the last dim alone: dit's norms
/// normalize over the last dim.
fn normalized_last_dim(node: &Node, x: Val, i: usize) -> R<()> {
    let shape = node.int_list(i, "normalized_shape")?;
    let last = x.tensor().and_then(|t| t.dim_from_back(0));
    match (shape.as_slice(), last) {
        ([d], Some(l)) if *d == l => Ok(()),
        ([_], None) => Ok(()),
        _ => Err(format!(
            "normalized_shape {shape:?} is not the last dim alone (dit norms normalize the last dim)"
        )),
    }
}

/// torch.finfo(dtype).eps, rms_norm's default epsilon.
fn machine_epsilon(x: &TensorInfo) -> R<f64> {
    use dit_dialect::tensor::Elem;
    match x.elem {
        Elem::F32 => Ok(f64::from(f32::EPSILON)),
        Elem::F16 => Ok(0.0009765625),
        Elem::BF16 => Ok(0.0078125),
        _ => Err(format!("no default epsilon for {}", x.elem)),
    }
}

fn element(ty: MlirType) -> R<MlirType> {
    mlir::element_type(ty).ok_or_else(|| "not a tensor type".to_string())
}

fn rank(v: Val) -> R<usize> {
    v.tensor()
        .map(|t| t.rank())
        .ok_or_else(|| "not a ranked tensor".to_string())
}

fn rank_of(ty: MlirType) -> R<usize> {
    mlir::tensor_info(ty)
        .map(|t| t.rank())
        .ok_or_else(|| "not a ranked tensor".to_string())
}

/// A torch dim (negative counts from the back) as an index below `rank`.
fn normalize_dim(dim: i64, rank: usize) -> R<usize> {
    let r = i64::try_from(rank).map_err(|_| "rank overflows".to_string())?;
    let d = if dim < 0 {
        dim.checked_add(r)
    } else {
        Some(dim)
    };
    match d {
        Some(d) if (0..r.max(1)).contains(&d) => Ok(d as usize),
        _ => Err(format!("dim {dim} is out of range for rank {rank}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dims_normalize_like_torch() {
        assert_eq!(normalize_dim(-1, 4), Ok(3));
        assert_eq!(normalize_dim(0, 4), Ok(0));
        assert!(normalize_dim(4, 4).is_err());
        assert!(normalize_dim(-5, 4).is_err());
        assert!(normalize_dim(i64::MIN, 4).is_err());
        assert_eq!(normalize_dim(0, 0), Ok(0));
    }

    #[test]
    fn binaries_map_to_dit_ops() {
        assert_eq!(binary_op("aten.rsub.Scalar"), OpKind::Sub);
        assert_eq!(binary_op("aten.pow.Tensor_Scalar"), OpKind::Pow);
        assert_eq!(binary_op("aten.div.Tensor_mode"), OpKind::Div);
    }
}
