//! Layer and RMS norms over the last dim.

use super::{element, one, Converter, Node, Replacements, R};
use crate::conversion::torch::{
    emit::{Emitter, Num},
    mlir, scalars,
};
use dit_dialect::ops::OpKind;
use dit_dialect::{
    ir::{Attr, Val},
    tensor::TensorInfo,
};

/// The topic's converters.
pub static CONVERTERS: &[Converter] = &[
    Converter {
        ops: &["torch.aten.layer_norm", "torch.aten.native_layer_norm"],
        becomes: "`dit.layer_norm` (native_layer_norm: only when mean and rstd are unused)",
        convert: layer_norm,
    },
    Converter {
        ops: &["torch.aten.rms_norm"],
        becomes: "`dit.rms_norm` (no weight: a ones gamma; no eps: the dtype's machine epsilon)",
        convert: rms_norm,
    },
];

fn layer_norm<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    let x = node.tensor(0)?;
    normalized_last_dim(node, x, 1)?;
    let gamma: Vec<Val> = node.optional_tensor(2)?.into_iter().collect();
    let beta: Vec<Val> = node.optional_tensor(3)?.into_iter().collect();
    let eps = node.float(4, "eps")?;
    let mut replacements = Vec::new();
    if node.name == "aten.native_layer_norm" {
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

fn rms_norm<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    let x = node.tensor(0)?;
    normalized_last_dim(node, x, 1)?;
    let info = x.tensor().ok_or("x is not a ranked tensor")?;
    let eps = match node.arg(3) {
        Ok(v) if !scalars::is_none(v) => scalars::float(v).ok_or("eps is not a constant")?,
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
