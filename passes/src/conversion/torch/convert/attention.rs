//! Scaled dot-product attention, with torch's masks turned into dit.attention's.

use super::{one, Converter, Node, Replacements, R};
use crate::conversion::torch::{
    emit::{Emitter, Num},
    mlir, scalars,
};
use dit_dialect::ir::{Attr, Val};
use dit_dialect::ops::OpKind;

/// The topic's converters.
pub static CONVERTERS: &[Converter] = &[Converter {
    ops: &["torch.aten.scaled_dot_product_attention"],
    becomes: "`dit.attention` (BNSD; a bool mask inverted, a float mask additive, is_causal \
              causal; dropout_p 0)",
    convert: sdpa,
}];

fn sdpa<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
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
        Ok(s) if !scalars::is_none(s) => scalars::float(s).ok_or("scale is not a constant")?,
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

/// torch's float attention mask (added to the scaled scores) as dit.attention's additive
/// mask: in q's element type, broadcast to `[B|1, N, Sq, Skv]`, the 4-d shape
/// aclnnFusedInferAttentionScore's pseShift takes (batch dim 1 only when torch's mask has it
/// as 1 in a 4-d mask).
fn additive_mask<'a>(e: &mut Emitter<'a>, m: Val<'a>, q: Val<'a>, k: Val<'a>) -> R<Val<'a>> {
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
fn keep_mask_to_masked_out<'a>(e: &mut Emitter<'a>, m: Val<'a>) -> R<Val<'a>> {
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
