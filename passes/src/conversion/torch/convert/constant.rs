//! Constants: tensor literals, filled tensors and constant aranges, built at compile time.

use super::{element, one, Converter, Node, Replacements, R};
use crate::conversion::torch::{
    emit::{Emitter, Num},
    mlir,
};
use dit_dialect::ir::Val;

/// The topic's converters.
pub static CONVERTERS: &[Converter] = &[
    Converter {
        ops: &["torch.vtensor.literal"],
        becomes: "`arith.constant` (signed integer data re-typed signless)",
        convert: literal,
    },
    Converter {
        ops: &[
            "torch.aten.full",
            "torch.aten.full_like",
            "torch.aten.new_full",
            "torch.aten.ones",
            "torch.aten.ones_like",
            "torch.aten.new_ones",
            "torch.aten.zeros",
            "torch.aten.zeros_like",
            "torch.aten.new_zeros",
            "torch.aten.empty.memory_format",
            "torch.aten.empty_like",
            "torch.aten.scalar_tensor",
            "torch.prim.NumToTensor.Scalar",
        ],
        becomes: "a splat constant (empty: zeros)",
        convert: fill,
    },
    Converter {
        ops: &[
            "torch.aten.arange",
            "torch.aten.arange.start",
            "torch.aten.arange.start_step",
        ],
        becomes: "a dense constant (constant bounds), folded into the tables computed from it",
        convert: arange_table,
    },
];

fn literal<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
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

fn fill<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    let n = node.name.as_str();
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

fn arange_table<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    one(arange(node, e)?)
}

/// aten.arange with constant bounds: a dense constant of the result type (the values
/// `start + i·step`, as torch computes them, rounded once to the element type).
fn arange<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Val<'a>> {
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
        crate::conversion::torch::fold::mark_source(def);
    }
    Ok(table)
}
