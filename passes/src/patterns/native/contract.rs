//! The kernel contracts (dit_kernel_spec::contracts) as the fusion natives read them: a would-be
//! fused op's operands, described from their MLIR types, are checked against the rules of the
//! kernel-table entry the target would run, so that a fusion never builds a call the kernel
//! refuses. A refusal reads `rule <id>: <why> (aclnn error <code>; <doc>)`, which the natives
//! put in the report's skip as it is.

use super::*;
use dit_kernel_spec::contracts::{self, Format, OperandDesc};
use dit_kernel_spec::{kernels, AttrValue, Attrs};

/// `v` as a kernel would be handed it, described with `format`: element type and static dims
/// (a dynamic dim is -1). `None` when `v` is not a ranked tensor of a dialect element type.
pub(crate) fn desc_as(v: Val, format: Format) -> Option<OperandDesc> {
    let t = v.tensor()?;
    let dtype = t.elem.dtype()?;
    Some(OperandDesc {
        dtype,
        dims: t.shape.iter().map(|d| d.unwrap_or(-1)).collect(),
        format,
    })
}

/// `v` as a row-major operand.
pub(crate) fn desc(v: Val) -> Option<OperandDesc> {
    desc_as(v, Format::Nd)
}

/// String attributes for the entry selection and the rules.
pub(crate) fn str_attrs(pairs: &[(&str, &str)]) -> Attrs {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), AttrValue::Str(v.to_string())))
        .collect()
}

/// The format the entry `chip` runs for `op` passes operand `slot` with (its argument's view),
/// or `None` without an entry.
pub(crate) fn passed_format(
    chip: &str,
    op: OpKind,
    attrs: &Attrs,
    present: &[bool],
    slot: usize,
) -> Option<Format> {
    let spec = kernels::select_for_target(op, attrs, present, chip)?;
    spec.calls()
        .iter()
        .flat_map(|c| c.args.iter())
        .find_map(|a| match *a {
            kernels::Arg::Input(s, view) | kernels::Arg::OptionalInput(s, view) if s == slot => {
                Some(view.format())
            }
            kernels::Arg::TensorList(kernels::List::Input(s) | kernels::List::OptionalInput(s))
                if s == slot =>
            {
                Some(Format::Nd)
            }
            _ => None,
        })
}

/// Checks that the target would run `op` with `attrs` on `operands` (one per DIALECT.md slot,
/// `None` = empty): an entry exists on the target's chip and none of its rules is broken.
pub(crate) fn kernel_accepts(
    state: &NativeState,
    op: OpKind,
    attrs: &Attrs,
    operands: &[Option<OperandDesc>],
) -> Result<(), String> {
    let present: Vec<bool> = operands.iter().map(Option::is_some).collect();
    let chip = state.target.chip;
    let Some(spec) = kernels::select_for_target(op, attrs, &present, chip) else {
        // Say which rule keeps the entries of this op off the chip, if one does.
        let gated = kernels::KERNELS
            .iter()
            .filter(|k| k.op == op)
            .find_map(|k| contracts::check(k, chip, operands, attrs).err());
        return Err(match gated {
            Some(v) => v.to_string(),
            None => format!("no kernel-table entry runs {op} with these attributes on {chip}"),
        });
    };
    contracts::check(spec, chip, operands, attrs).map_err(|v| v.to_string())
}

/// The id of the first rule of the entry the target would run for `op` that `operands` break;
/// `None` when none is broken or no entry runs `op` there (see [`kernel_accepts`]).
pub(crate) fn broken_rule(
    state: &NativeState,
    op: OpKind,
    attrs: &Attrs,
    operands: &[Option<OperandDesc>],
) -> Option<&'static str> {
    let present: Vec<bool> = operands.iter().map(Option::is_some).collect();
    let chip = state.target.chip;
    let spec = kernels::select_for_target(op, attrs, &present, chip)?;
    contracts::check(spec, chip, operands, attrs)
        .err()
        .map(|v| v.rule)
}
