//! Compile-time folding of the small f32 tables a whole model computes from constants: the
//! frequencies of its RoPE and sinusoidal timestep embeddings (`1 / theta^(arange(0, d, 2) / d)`,
//! `exp(-ln(10000) · arange(half) / half)`). torch computes them on every call from aten.arange;
//! after the conversion they are elementwise dit ops whose operands are all `arith.constant`,
//! and launching a kernel per op for a few dozen numbers known at compile time is waste.
//!
//! Only tables that start from an aten.arange are folded (its constant carries the transient
//! marker [`SOURCE`] until the fold is done): constants the graph spells out itself (literals,
//! `full`) stay as the model wrote them.
//!
//! Each such op is evaluated by the runtime's CPU reference kernels (`dit_runtime::cpu`, the
//! semantics dit-run checks against torch: computed in f64, rounded once to the result type),
//! so a folded graph computes what the unfolded one does, and replaced by an `arith.constant`.
//! Only elementwise ops and reshapes of f32 constants are folded, and only results of at most
//! [`FOLD_LIMIT`] elements: a fold never makes the module much larger than it was.

use super::{emit::Num, mlir};
use dit_dialect::ir::{self, Attr, Op, Val};
use dit_dialect::ops::OpKind;
use dit_runtime::{DType, Tensor, TensorType};

/// The largest result folded (elements): tables of positions or frequencies, not activations.
pub const FOLD_LIMIT: usize = 4096;

/// The transient unit attribute that marks an arange's constant (and what folds from it).
pub const SOURCE: &str = "dit.fold_source";

/// Marks `constant` (an `arith.constant`) as a table source.
pub fn mark_source(constant: Op) {
    constant.set_attr(SOURCE, mlir::unit_attr(constant.context_raw()));
}

/// Whether `op` is one of the ops folded (elementwise, or a reshape of a constant).
fn foldable(op: Op) -> bool {
    op.kind().is_some_and(|k| {
        k.is_binary() || k.is_unary() || matches!(k, OpKind::Cast | OpKind::Reshape)
    })
}

/// The f32 tensor an `arith.constant` defines, when `v` is one of at most [`FOLD_LIMIT`]
/// elements.
fn constant_f32(v: Val) -> Option<Tensor> {
    let def = v.defining_op()?;
    if !def.is("arith.constant") {
        return None;
    }
    let ty = f32_type(v)?;
    let (bytes, splat) = def.attr("value")?.dense_bytes(4)?;
    let data = if splat {
        bytes.repeat(ty.numel())
    } else {
        bytes
    };
    Tensor::new(ty.dtype, ty.shape, data).ok()
}

/// `v`'s type as a runtime type when it is a static f32 tensor of at most [`FOLD_LIMIT`]
/// elements.
fn f32_type(v: Val) -> Option<TensorType> {
    let info = v.tensor()?;
    // The element type as classified, not printed: printing a type builds an AsmState, and
    // this runs for every op's result.
    if info.elem != dit_dialect::tensor::Elem::F32 {
        return None;
    }
    let shape = info
        .shape
        .iter()
        .map(|d| d.and_then(|d| usize::try_from(d).ok()))
        .collect::<Option<Vec<_>>>()?;
    let ty = TensorType::new(DType::F32, shape);
    (ty.checked_numel()? <= FOLD_LIMIT).then_some(ty)
}

/// Folds `op` when it is foldable and every operand is a small f32 constant: returns the
/// constant that replaced it.
fn fold_op(op: Op) -> Option<Op> {
    if !foldable(op) || op.num_results() != 1 || op.num_operands() == 0 {
        return None;
    }
    let result_ty = f32_type(op.result(0))?;
    let from_table = op
        .operands()
        .into_iter()
        .any(|v| v.defining_op().is_some_and(|d| d.attr(SOURCE).is_some()));
    if !from_table {
        return None;
    }
    let inputs = op
        .operands()
        .into_iter()
        .map(constant_f32)
        .collect::<Option<Vec<_>>>()?;
    let attrs = crate::conversion::dit_lower_to_aclnn::runtime_attrs(op).ok()?;
    let refs: Vec<Option<&Tensor>> = inputs.iter().map(Some).collect();
    let out = dit_runtime::cpu::execute(&op.name(), &attrs, &refs, &[result_ty])
        .ok()?
        .into_iter()
        .next()?;
    let ty = mlir::type_of(op.result(0));
    let element = mlir::element_type(ty)?;
    let values: Vec<String> = out
        .to_f64()
        .into_iter()
        .map(|v| super::emit::element_literal(element, Num::Float(v)))
        .collect::<Result<_, _>>()
        .ok()?;
    let text = if values.len() == 1 {
        // One element (a 0-d tensor included) is a splat.
        format!("dense<{}> : {}", values[0], mlir::type_text(ty))
    } else {
        format!(
            "dense<{}> : {}",
            nested(&values, &out.shape),
            mlir::type_text(ty)
        )
    };
    let value: Attr = mlir::parse_attr(op.context_raw(), &text)?;
    let constant = ir::create_op_before(op, "arith.constant", &[], &[ty], &[("value", value)]);
    mark_source(constant);
    op.result(0).replace_all_uses_with(constant.result(0));
    // SAFETY: the op's one result now has no uses (moved to the constant); `fold_constants` walks a
    // list taken beforehand and does not come back to it.
    unsafe { op.erase() };
    Some(constant)
}

/// A dense literal's nested brackets for `shape` (MLIR wants `[[a, b], [c, d]]` for 2x2).
fn nested(values: &[String], shape: &[usize]) -> String {
    match shape.split_first() {
        None => values.first().cloned().unwrap_or_default(),
        Some((_, [])) => format!("[{}]", values.join(", ")),
        Some((n, rest)) => {
            let inner: usize = rest.iter().product();
            let rows: Vec<String> = (0..*n)
                .map(|i| nested(&values[i * inner..(i + 1) * inner], rest))
                .collect();
            format!("[{}]", rows.join(", "))
        }
    }
}

/// Folds every foldable op of `func` whose operands are small f32 constants, in order (a
/// folded result makes its users foldable in turn). Returns how many ops were folded.
pub fn fold_constants(func: Op) -> usize {
    let mut ops = Vec::new();
    func.walk(&mut |op| {
        if op.name().starts_with(dit_dialect::ops::DIALECT_PREFIX) {
            ops.push(op);
        }
    });
    let folded = ops.into_iter().filter(|op| fold_op(*op).is_some()).count();
    func.walk(&mut |op| {
        if op.is("arith.constant") {
            mlir::remove_attr(op, SOURCE);
        }
    });
    folded
}
