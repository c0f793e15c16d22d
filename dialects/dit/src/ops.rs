//! The op table of DIALECT.md in Rust (generated from the ODS records into dit-ops and
//! re-exported here): every dit op with its operand slots, and typed access to operands by
//! slot name (resolving `operandSegmentSizes`) and to attributes.

use crate::ir::{Op, Val};

pub use dit_ops::{Arity, AttrSpec, OpKind, OpSpec, Traits, DIALECT_PREFIX};

use Arity::{One, Optional, Variadic};

/// The spec of a dit op by full name (for names read from input; code names ops by
/// [`OpKind`]).
pub fn spec(name: &str) -> Option<&'static OpSpec> {
    OpKind::from_name(name).map(OpKind::spec)
}

/// Operand values grouped by slot, resolved through `operandSegmentSizes` when present.
#[derive(Clone, Debug)]
pub struct Operands<'a> {
    /// Slot name, index of its first value among the op's operands, its values.
    slots: Vec<(&'static str, usize, Vec<Val<'a>>)>,
}

impl<'a> Operands<'a> {
    /// Splits `op`'s operands into the slots of `spec`. Errors say what does not fit.
    pub fn resolve(op: Op<'a>, spec: &OpSpec) -> Result<Operands<'a>, String> {
        let values = op.operands();
        let sizes: Vec<usize> = match op.attr("operandSegmentSizes") {
            Some(attr) => {
                let sizes = attr
                    .as_i32_array()
                    .ok_or("operandSegmentSizes must be an array<i32>")?;
                if sizes.len() != spec.operands.len() {
                    return Err(format!(
                        "operandSegmentSizes has {} entries, but the op has {} operand slots",
                        sizes.len(),
                        spec.operands.len()
                    ));
                }
                for ((slot, arity), size) in spec.operands.iter().zip(&sizes) {
                    let ok = match arity {
                        One => *size == 1,
                        Optional => *size == 0 || *size == 1,
                        Variadic => *size >= 0,
                    };
                    if !ok {
                        return Err(format!(
                            "operandSegmentSizes gives {size} values to slot '{slot}'"
                        ));
                    }
                }
                sizes.iter().map(|s| *s as usize).collect()
            }
            None => {
                if spec.needs_segments() {
                    return Err(
                        "missing operandSegmentSizes (required on ops with optional operands)"
                            .into(),
                    );
                }
                // Without optional slots, at most one variadic slot takes whatever remains.
                let fixed = spec.operands.iter().filter(|(_, a)| *a == One).count();
                let rest = values.len().checked_sub(fixed).ok_or_else(|| {
                    format!("expected at least {fixed} operands, got {}", values.len())
                })?;
                spec.operands
                    .iter()
                    .map(|(_, a)| if *a == Variadic { rest } else { 1 })
                    .collect()
            }
        };
        let total: usize = sizes.iter().sum();
        if total != values.len() {
            return Err(format!(
                "operandSegmentSizes adds up to {total}, but the op has {} operands",
                values.len()
            ));
        }
        let mut at = 0;
        let slots = spec
            .operands
            .iter()
            .zip(sizes)
            .map(|((name, _), n)| {
                let group = values[at..at + n].to_vec();
                at += n;
                (*name, at - n, group)
            })
            .collect();
        Ok(Operands { slots })
    }

    /// The single value of slot `name` (`None` if the optional slot is empty).
    pub fn get(&self, name: &str) -> Option<Val<'a>> {
        self.group(name).first().copied()
    }

    /// All values of slot `name`.
    pub fn group(&self, name: &str) -> &[Val<'a>] {
        self.slots
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|(_, _, v)| v.as_slice())
            .unwrap_or(&[])
    }

    /// The operand index of the (first) value of slot `name`, if the slot is filled.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.slots
            .iter()
            .find(|(n, _, v)| *n == name && !v.is_empty())
            .map(|(_, at, _)| *at)
    }
}

/// Reads a bool attribute.
pub fn bool_attr(op: Op, name: &str) -> Option<bool> {
    op.attr(name)?.as_bool()
}

/// Reads a string attribute.
pub fn str_attr(op: Op, name: &str) -> Option<String> {
    op.attr(name)?.as_str()
}

/// Reads an integer attribute.
pub fn i64_attr(op: Op, name: &str) -> Option<i64> {
    op.attr(name)?.as_i64()
}

/// Reads a float attribute.
pub fn f64_attr(op: Op, name: &str) -> Option<f64> {
    op.attr(name)?.as_f64()
}

/// Reads an `array<i64>` attribute.
pub fn i64_array_attr(op: Op, name: &str) -> Option<Vec<i64>> {
    op.attr(name)?.as_i64_array()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The op mnemonics of the ODS file: `def Dit_XOp : Dit_<Class><"x", ...`.
    fn ods_ops() -> Vec<String> {
        crate::ODS_SOURCE
            .lines()
            .filter(|l| l.starts_with("def Dit_"))
            .filter_map(|l| l.split_once(" : Dit_"))
            .filter_map(|(_, rest)| rest.split('"').nth(1))
            .map(|m| format!("dit.{m}"))
            .collect()
    }

    #[test]
    fn every_ods_op_is_in_the_table_and_registered() {
        let ods = ods_ops();
        let table: Vec<&str> = OpKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(ods, table, "the table follows DitOps.td, in its order");
        let context = crate::new_context().expect("dialect loads");
        for kind in OpKind::ALL {
            assert!(
                context.is_registered_operation(kind.name()),
                "{kind} not registered"
            );
            assert_eq!(spec(kind.name()).map(|s| s.kind), Some(kind));
        }
        assert!(spec("dit.nope").is_none());
    }

    /// dialects/dit-ops/src/op_table.rs is what build.rs generates from the ODS records; with
    /// `DIT_REGENERATE=1` the test writes the generated table there instead of failing.
    #[test]
    fn op_table_is_current() {
        let generated = include_str!(concat!(env!("OUT_DIR"), "/dit/op_table.rs"));
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../dit-ops/src/op_table.rs");
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        if committed != generated && std::env::var_os("DIT_REGENERATE").is_some() {
            std::fs::write(path, generated).expect("write the op table");
            return;
        }
        assert!(
            committed == generated,
            "dialects/dit-ops/src/op_table.rs is stale; regenerate it with\n  \
             DIT_REGENERATE=1 cargo test -p dit-dialect op_table_is_current"
        );
    }
}

/// Builds dit ops with operands given by slot, filling `operandSegmentSizes` from the op
/// table, so passes never count segments by hand.
pub struct OpBuilder<'a> {
    anchor: Op<'a>,
}

impl<'a> OpBuilder<'a> {
    /// New ops go right before `anchor`.
    pub fn before(anchor: Op<'a>) -> Self {
        Self { anchor }
    }

    /// Creates `kind` with one entry per operand slot of its spec (an empty entry leaves an
    /// optional slot empty; a variadic slot takes every value of its entry).
    pub fn create(
        &self,
        kind: OpKind,
        slots: &[&[Val<'a>]],
        result_types: &[mlir_sys::MlirType],
        attributes: &[(&str, crate::ir::Attr<'a>)],
    ) -> Result<Op<'a>, String> {
        let spec = kind.spec();
        let name = spec.name;
        if slots.len() != spec.operands.len() {
            return Err(format!(
                "{name} has {} operand slots, got {}",
                spec.operands.len(),
                slots.len()
            ));
        }
        let mut operands = Vec::new();
        let mut sizes = Vec::new();
        for ((slot, arity), values) in spec.operands.iter().zip(slots) {
            let fits = match arity {
                Arity::One => values.len() == 1,
                Arity::Optional => values.len() <= 1,
                Arity::Variadic => true,
            };
            if !fits {
                return Err(format!(
                    "{name}: slot '{slot}' cannot take {} values",
                    values.len()
                ));
            }
            sizes.push(values.len() as i32);
            operands.extend_from_slice(values);
        }
        let mut attrs: Vec<(&str, crate::ir::Attr<'a>)> = attributes.to_vec();
        if spec.needs_segments() {
            attrs.push((
                "operandSegmentSizes",
                crate::ir::Attr::i32_array(self.anchor.context_raw(), &sizes),
            ));
        }
        Ok(crate::ir::create_op_before(
            self.anchor,
            name,
            &operands,
            result_types,
            &attrs,
        ))
    }
}

#[cfg(test)]
mod builder_tests {
    use super::*;
    use crate::{ir::Op, verifier};
    use melior::ir::{operation::OperationLike, TypeLike};

    #[test]
    fn builder_fills_segments_and_builds_valid_ops() {
        let context = crate::new_context().expect("dialect loads");
        let module = melior::ir::Module::parse(
            &context,
            r#"func.func @f(%x: tensor<4x64xbf16>, %w: tensor<32x64xbf16>) -> tensor<4x64xbf16> {
                 return %x : tensor<4x64xbf16>
               }"#,
        )
        .expect("parses");
        let mut ret = None;
        Op::of_module(&module).walk(&mut |op| {
            if op.is("func.return") {
                ret = Some(op);
            }
        });
        let ret = ret.expect("return op");
        let x = ret.operand(0);
        let func_block_args = ret.parent().expect("func").region_blocks(0)[0].arguments();
        let w = func_block_args[1];
        let out_ty = melior::ir::Type::parse(&context, "tensor<4x32xbf16>")
            .expect("type")
            .to_raw();
        let linear = OpBuilder::before(ret)
            .create(OpKind::Linear, &[&[x], &[w], &[]], &[out_ty], &[])
            .expect("builds");
        assert_eq!(
            linear
                .attr("operandSegmentSizes")
                .and_then(|a| a.as_i32_array()),
            Some(vec![1, 1, 0])
        );
        assert!(verifier::verify(Op::of_module(&module)).is_empty());
        assert!(OpBuilder::before(ret)
            .create(OpKind::Linear, &[&[x], &[w]], &[out_ty], &[])
            .is_err());
        assert!(module.as_operation().verify());
    }
}
