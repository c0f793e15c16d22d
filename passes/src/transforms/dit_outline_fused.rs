//! `dit-outline-fused`: every `dit.fused` group becomes its own `func.func` of dit ops, named
//! after the group's kernel (captured values as arguments, yielded values as results), and
//! everything outside the groups is dropped. It lets `dit-run` run one group alone, on the same
//! inputs as the DEVICE function `dit-lower-fused-to-linalg` makes of it, so the two can be
//! compared number by number (issue 15: bishengir's CPU runner as a second numerical judge).
//!
//! The group's body is taken over as it is printed (generic form), with its `dit.yield`
//! becoming `func.return`, and parsed back into the module's context: the function is exactly
//! the region, verified by MLIR before anything is replaced.

use crate::conversion::dit_lower_fused_to_linalg::parse_in_context;
use crate::registry::{DitPass, PassContext, PassFailed};
use dit_dialect::diagnostics::emit_error;
use dit_dialect::ir::{Op, PrintOptions};
use dit_dialect::ops::OpKind;
use std::fmt::Write;

/// The pass: replaces the module's contents with one dit function per `dit.fused` group.
pub struct OutlineFused;

impl DitPass for OutlineFused {
    fn run(&mut self, module: Op, _: &PassContext) -> Result<(), PassFailed> {
        let mut groups = Vec::new();
        module.walk(&mut |op| {
            if op.is_kind(OpKind::Fused) {
                groups.push(op);
            }
        });
        let mut text = String::from("module {\n");
        let mut names: Vec<String> = Vec::new();
        let mut failed = false;
        for (i, op) in groups.into_iter().enumerate() {
            match outline(op, i) {
                Ok((name, _)) if names.contains(&name) => {
                    emit_error(
                        op.location(),
                        &format!(
                            "dit-outline-fused: a second group is named {name}: kernel names must be unique"
                        ),
                    );
                    failed = true;
                }
                Ok((name, func)) => {
                    names.push(name);
                    text.push_str(&func);
                }
                Err(message) => {
                    emit_error(op.location(), &format!("dit-outline-fused: {message}"));
                    failed = true;
                }
            }
        }
        if failed {
            return Err(PassFailed);
        }
        text.push_str("}\n");
        let parsed = parse_in_context(module, &text).ok_or_else(|| {
            emit_error(
                module.location(),
                "dit-outline-fused: the outlined functions do not parse (a bug in the pass)",
            );
            PassFailed
        })?;
        let body = module
            .region_blocks(0)
            .into_iter()
            .next()
            .expect("a module has a body");
        for op in body.ops() {
            // SAFETY: the module body's ops (functions) have no results; the list was taken first
            // and the outlined text holds no handle.
            unsafe { op.erase() };
        }
        let parsed_body = parsed
            .op()
            .region_blocks(0)
            .into_iter()
            .next()
            .expect("a module has a body");
        for op in parsed_body.ops() {
            // SAFETY: the op moves from `parsed`, destroyed next, into the module, which
            // outlives every handle to it.
            unsafe { op.move_to_end_of_other_tree(body) };
        }
        parsed.destroy();
        Ok(())
    }
}

/// The kernel name and the generic-form `func.func` text of one group.
fn outline(op: Op, index: usize) -> Result<(String, String), String> {
    let name = crate::conversion::dit_lower_fused_to_linalg::kernel_name(op, index);
    let block = op
        .region_blocks(0)
        .into_iter()
        .next()
        .ok_or_else(|| format!("{name}: dit.fused has no body"))?;
    // The terminator must be the group's own dit.yield: it is the one line rewritten below.
    match block.ops().last() {
        Some(last) if last.is_kind(OpKind::Yield) => {}
        _ => return Err(format!("{name}: the body does not end in dit.yield")),
    }
    let inputs: Vec<String> = block
        .arguments()
        .into_iter()
        .map(|a| a.ty().to_string())
        .collect();
    let outputs: Vec<String> = op
        .results()
        .into_iter()
        .map(|r| r.ty().to_string())
        .collect();
    let printed = op.print_verified(PrintOptions {
        generic: true,
        ..PrintOptions::default()
    });
    // The region is everything between the op's `({` and its last `})`; a value defined outside
    // the group would print as an unknown SSA value and is refused rather than guessed.
    let (start, end) = match (printed.find("({"), printed.rfind("})")) {
        (Some(s), Some(e)) if s < e => (s, e + 2),
        _ => {
            return Err(format!(
                "{name}: cannot find the group's region in its printed form"
            ))
        }
    };
    let region = &printed[start..end];
    if region.contains("<<UNKNOWN SSA VALUE>>") {
        return Err(format!(
            "{name}: the body uses a value defined outside the group"
        ));
    }
    // The generic form prints the terminator as `"dit.yield"(...)`.
    let terminator = format!("\"{}\"(", OpKind::Yield);
    let at = region
        .rfind(&terminator)
        .ok_or_else(|| format!("{name}: no dit.yield in the printed body"))?;
    let region = format!(
        "{}\"func.return\"({}",
        &region[..at],
        &region[at + terminator.len()..]
    );
    let mut func = String::new();
    let _ = writeln!(
        func,
        "\"func.func\"() <{{function_type = ({}) -> ({}), sym_name = \"{name}\"}}> {region} : () -> ()",
        inputs.join(", "),
        outputs.join(", ")
    );
    Ok((name, func))
}
