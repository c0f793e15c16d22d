//! The op table of DIALECT.md in Rust: every dit op with its operand slots, and typed access
//! to operands by slot name (resolving `operandSegmentSizes`) and to attributes.

use crate::ir::{Op, Val};

/// How many values an operand slot takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    /// Exactly one value.
    One,
    /// Zero or one value (`bias?`).
    Optional,
    /// Any number of values (`xs…`).
    Variadic,
}

/// Whether a frontend produces the op or a fusion pass does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpClass {
    Primitive,
    Fused,
}

/// One op of the contract.
#[derive(Clone, Copy, Debug)]
pub struct OpSpec {
    /// Full name, `dit.<op>`.
    pub name: &'static str,
    /// Operand slots in contract order.
    pub operands: &'static [(&'static str, Arity)],
    pub class: OpClass,
    /// For a fused op that computes a different formula from the pattern it replaces: what it
    /// computes instead, named for the numerical verdicts of a fused graph (dit-run
    /// `--reference-npy` names each one present after fusion but not before).
    pub substitution: Option<&'static str>,
}

impl OpSpec {
    /// Whether the op has more than one slot that is not `One`: then MLIR needs
    /// `operandSegmentSizes` to know which value fills which slot. DIALECT.md asks for it on
    /// every op with an optional operand, so that it is always explicit which slot is empty.
    pub fn needs_segments(&self) -> bool {
        self.operands.iter().any(|(_, a)| *a == Arity::Optional)
    }
}

use Arity::{One, Optional, Variadic};
use OpClass::{Fused, Primitive};

macro_rules! spec {
    ($name:literal, $class:ident, [$(($slot:literal, $arity:ident)),* $(,)?]) => {
        OpSpec { name: $name, class: $class, operands: &[$(($slot, $arity)),*], substitution: None }
    };
    ($name:literal, $class:ident, [$(($slot:literal, $arity:ident)),* $(,)?], substitutes: $what:literal) => {
        OpSpec { name: $name, class: $class, operands: &[$(($slot, $arity)),*], substitution: Some($what) }
    };
}

/// Every op of DIALECT.md.
pub const OPS: &[OpSpec] = &[
    spec!("dit.add", Primitive, [("lhs", One), ("rhs", One)]),
    spec!("dit.sub", Primitive, [("lhs", One), ("rhs", One)]),
    spec!("dit.mul", Primitive, [("lhs", One), ("rhs", One)]),
    spec!("dit.div", Primitive, [("lhs", One), ("rhs", One)]),
    spec!("dit.pow", Primitive, [("lhs", One), ("rhs", One)]),
    spec!("dit.neg", Primitive, [("x", One)]),
    spec!("dit.exp", Primitive, [("x", One)]),
    spec!("dit.sqrt", Primitive, [("x", One)]),
    spec!("dit.rsqrt", Primitive, [("x", One)]),
    spec!("dit.tanh", Primitive, [("x", One)]),
    spec!("dit.sin", Primitive, [("x", One)]),
    spec!("dit.cos", Primitive, [("x", One)]),
    spec!("dit.erf", Primitive, [("x", One)]),
    spec!("dit.sigmoid", Primitive, [("x", One)]),
    spec!("dit.silu", Primitive, [("x", One)]),
    spec!("dit.relu", Primitive, [("x", One)]),
    spec!("dit.gelu", Primitive, [("x", One)]),
    spec!("dit.cast", Primitive, [("x", One)]),
    spec!("dit.reduce_mean", Primitive, [("x", One)]),
    spec!("dit.reduce_sum", Primitive, [("x", One)]),
    spec!("dit.softmax", Primitive, [("x", One)]),
    spec!("dit.reshape", Primitive, [("x", One)]),
    spec!("dit.broadcast", Primitive, [("x", One)]),
    spec!("dit.bitcast", Primitive, [("x", One)]),
    spec!("dit.transpose", Primitive, [("x", One)]),
    spec!("dit.slice", Primitive, [("x", One)]),
    spec!("dit.split", Primitive, [("x", One)]),
    spec!("dit.concat", Primitive, [("xs", Variadic)]),
    spec!("dit.matmul", Primitive, [("a", One), ("b", One)]),
    spec!(
        "dit.linear",
        Primitive,
        [("x", One), ("weight", One), ("bias", Optional)]
    ),
    spec!("dit.rms_norm", Primitive, [("x", One), ("gamma", One)]),
    spec!(
        "dit.layer_norm",
        Primitive,
        [("x", One), ("gamma", Optional), ("beta", Optional)]
    ),
    spec!(
        "dit.rope",
        Primitive,
        [("x", One), ("cos", One), ("sin", One)]
    ),
    spec!(
        "dit.attention",
        Primitive,
        [("q", One), ("k", One), ("v", One), ("mask", Optional)]
    ),
    spec!(
        "dit.dynamic_quant",
        Primitive,
        [("x", One), ("smooth_scale", Optional)]
    ),
    spec!(
        "dit.quant_matmul",
        Primitive,
        [
            ("x1", One),
            ("x2", One),
            ("scale", One),
            ("offset", Optional),
            ("bias", Optional),
            ("pertoken_scale", Optional),
        ]
    ),
    spec!(
        "dit.grouped_matmul",
        Primitive,
        [
            ("x", One),
            ("weight", One),
            ("group_list", One),
            ("bias", Optional),
            ("scale", Optional),
            ("per_token_scale", Optional),
        ]
    ),
    spec!("dit.topk", Primitive, [("x", One)]),
    spec!("dit.sort", Primitive, [("x", One)]),
    spec!("dit.cumsum", Primitive, [("x", One)]),
    spec!("dit.floor_div", Primitive, [("lhs", One), ("rhs", One)]),
    spec!("dit.index_select", Primitive, [("x", One), ("index", One)]),
    spec!(
        "dit.scatter_add",
        Primitive,
        [("x", One), ("index", One), ("src", One)]
    ),
    spec!(
        "dit.index_add",
        Primitive,
        [("x", One), ("index", One), ("source", One)]
    ),
    spec!(
        "dit.moe_init_routing",
        Fused,
        [("x", One), ("expert_idx", One)]
    ),
    spec!(
        "dit.moe_finalize_routing",
        Fused,
        [
            ("expanded_x", One),
            ("expanded_row_idx", One),
            ("scales", One)
        ]
    ),
    spec!("dit.opaque", Primitive, [("args", Variadic)]),
    // aclnnFastGelu ([ops-nn] activation/fast_gelu/docs/aclnnFastGelu.md) computes
    // x / (1 + exp(-1.702|x|)) * exp(0.851(x - |x|)) = x * sigmoid(1.702x), not tanh-GELU.
    spec!("dit.fast_gelu", Fused, [("x", One)], substitutes: "FastGelu x*sigmoid(1.702x) replacing tanh-GELU"),
    spec!("dit.muls_add", Fused, [("x", One), ("y", One)]),
    spec!(
        "dit.ada_layer_norm",
        Fused,
        [("x", One), ("scale", One), ("shift", One)]
    ),
    spec!(
        "dit.quant_matmul_gelu",
        Fused,
        [
            ("x1", One),
            ("x2", One),
            ("x1_scale", One),
            ("x2_scale", One),
            ("bias", Optional)
        ]
    ),
    spec!(
        "dit.fused_matmul",
        Fused,
        [
            ("x1", One),
            ("x2", One),
            ("bias", Optional),
            ("x3", Optional)
        ]
    ),
    spec!(
        "dit.grouped_matmul_swiglu_quant",
        Fused,
        [
            ("x", One),
            ("weight", One),
            ("group_list", One),
            ("weight_scale", One),
            ("x_scale", One),
            ("bias", Optional),
            ("offset", Optional),
        ]
    ),
    spec!("dit.swiglu", Fused, [("x", One)]),
    spec!("dit.silu_mul", Fused, [("gate", One), ("up", One)]),
    spec!("dit.gelu_mul", Fused, [("x", One)]),
    spec!(
        "dit.kv_rms_norm_rope_cache",
        Fused,
        [
            ("kv", One),
            ("gamma", One),
            ("cos", One),
            ("sin", One),
            ("index", One),
            ("k_cache", One),
            ("ckv_cache", One),
        ]
    ),
    spec!("dit.fused", Fused, [("captured", Variadic)]),
    spec!("dit.yield", Fused, [("values", Variadic)]),
];

/// The spec of a dit op by full name.
pub fn spec(name: &str) -> Option<&'static OpSpec> {
    OPS.iter().find(|s| s.name == name)
}

/// Elementwise binary ops (numpy broadcasting).
pub const BINARY: &[&str] = &["dit.add", "dit.sub", "dit.mul", "dit.div", "dit.pow"];

/// Elementwise unary ops whose result type equals the operand type.
pub const UNARY: &[&str] = &[
    "dit.neg",
    "dit.exp",
    "dit.sqrt",
    "dit.rsqrt",
    "dit.tanh",
    "dit.sin",
    "dit.cos",
    "dit.erf",
    "dit.sigmoid",
    "dit.silu",
    "dit.relu",
    "dit.gelu",
    "dit.fast_gelu",
];

/// Operand values grouped by slot, resolved through `operandSegmentSizes` when present.
#[derive(Clone, Debug)]
pub struct Operands {
    /// Slot name, index of its first value among the op's operands, its values.
    slots: Vec<(&'static str, usize, Vec<Val>)>,
}

impl Operands {
    /// Splits `op`'s operands into the slots of `spec`. Errors say what does not fit.
    pub fn resolve(op: Op, spec: &OpSpec) -> Result<Operands, String> {
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
    pub fn get(&self, name: &str) -> Option<Val> {
        self.group(name).first().copied()
    }

    /// All values of slot `name`.
    pub fn group(&self, name: &str) -> &[Val] {
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
    fn every_ods_op_is_in_the_table_and_back() {
        let ods = ods_ops();
        assert_eq!(ods.len(), OPS.len(), "ODS ops: {ods:?}");
        let context = crate::new_context().expect("dialect loads");
        for spec in OPS {
            assert!(
                ods.contains(&spec.name.to_string()),
                "{} missing from ODS",
                spec.name
            );
        }
        for name in &ods {
            assert!(spec(name).is_some(), "{name} missing from the op table");
            assert!(
                context.is_registered_operation(name),
                "{name} not registered"
            );
        }
    }
}

/// Builds dit ops with operands given by slot, filling `operandSegmentSizes` from the op
/// table, so passes never count segments by hand.
pub struct OpBuilder {
    anchor: Op,
}

impl OpBuilder {
    /// New ops go right before `anchor`.
    pub fn before(anchor: Op) -> Self {
        Self { anchor }
    }

    /// Creates `name` with one entry per operand slot of its spec (`None` leaves an optional
    /// slot empty; a variadic slot takes every value of its entry).
    pub fn create(
        &self,
        name: &str,
        slots: &[&[Val]],
        result_types: &[mlir_sys::MlirType],
        attributes: &[(&str, crate::ir::Attr)],
    ) -> Result<Op, String> {
        let spec = spec(name).ok_or_else(|| format!("'{name}' is not a dit op"))?;
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
        let mut attrs: Vec<(&str, crate::ir::Attr)> = attributes.to_vec();
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
        Op(module.as_operation().to_raw()).walk(&mut |op| {
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
            .create("dit.linear", &[&[x], &[w], &[]], &[out_ty], &[])
            .expect("builds");
        assert_eq!(
            linear
                .attr("operandSegmentSizes")
                .and_then(|a| a.as_i32_array()),
            Some(vec![1, 1, 0])
        );
        assert!(verifier::verify(Op(module.as_operation().to_raw())).is_empty());
        assert!(OpBuilder::before(ret)
            .create("dit.linear", &[&[x], &[w]], &[out_ty], &[])
            .is_err());
        assert!(module.as_operation().verify());
    }
}
