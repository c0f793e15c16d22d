//! Kernel contracts as data: the documented limits of each aclnn operator the kernel table
//! calls (dtypes, formats, ranks, dim limits, exclusive operands, supported products), attached
//! to the table entry as [`Rule`]s and read on both sides of the call.
//!
//! - The fusion natives check a would-be fused op with [`check`] before they build it, so that a
//!   fusion never produces a call the target's kernel refuses; a refusal names the rule id and
//!   its doc in the fusion report.
//! - The CANN stand-in (lowering/runtime/tests/standin) loads the same rules, rendered by
//!   [`render`] as a line-based file keyed by aclnn symbol and phase-one argument position, and
//!   rejects a violating call with the documented aclnn error code. It is C and never links
//!   this crate: the file is the only channel, so the rules are written once.
//!
//! Every rule carries a stable short id (`gelu_mul.rank`) used in messages and tests, the
//! documented error code of its violation (the "返回值" table of the operator's page) and the
//! doc it was read from.

use crate::attrs::{AttrValue, Attrs};
use crate::dtype::DType;
use crate::kernels::{self, Arg, Call, KernelSpec, List, Text};

/// `ACLNN_ERR_PARAM_NULLPTR`: a required pointer is null, or (aclnnFusedMatmul) a pointer that
/// must be null is not.
pub const ACLNN_ERR_PARAM_NULLPTR: i32 = 161_001;
/// `ACLNN_ERR_PARAM_INVALID`: a dtype, format, shape or attribute outside the documented range.
pub const ACLNN_ERR_PARAM_INVALID: i32 = 161_002;
/// `ACLNN_ERR_INNER_TILING_ERROR` (aclnn/opdev/op_errno.h): a shape or dtype combination the
/// operator's tiling refuses, as some pages document for checks done there.
pub const ACLNN_ERR_INNER_TILING_ERROR: i32 = 561_002;

/// The storage format an aclTensor is described with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Row-major (`ACL_FORMAT_ND`).
    Nd,
    /// Fractal NZ, the Cube unit's tiled layout (`ACL_FORMAT_FRACTAL_NZ`).
    Nz,
}

impl Format {
    /// The `aclFormat` code (acl_base.h).
    pub fn acl_code(self) -> i32 {
        match self {
            Format::Nd => 2,
            Format::Nz => 29,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Format::Nd => "ND",
            Format::Nz => "FRACTAL_NZ",
        }
    }
}

/// What a rule checks about one operand slot (dit's slot numbering, DIALECT.md order) or the
/// call as a whole. Checks of a slot hold trivially when the (optional) slot is empty.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Check {
    /// The slot's element type is one of these.
    DTypes {
        /// Operand slot.
        slot: usize,
        /// Allowed element types.
        allowed: &'static [DType],
    },
    /// The slot is described with this format.
    Format {
        /// Operand slot.
        slot: usize,
        /// Required format.
        format: Format,
    },
    /// The slot's rank is within `min..=max`.
    Rank {
        /// Operand slot.
        slot: usize,
        /// Smallest rank.
        min: usize,
        /// Largest rank.
        max: usize,
    },
    /// The slot's last dim is at most `max`.
    LastDimMax {
        /// Operand slot.
        slot: usize,
        /// Largest last dim.
        max: i64,
    },
    /// The slot's last dim is even.
    LastDimEven {
        /// Operand slot.
        slot: usize,
    },
    /// The product of all dims but the last is at most `max`.
    LeadingProductMax {
        /// Operand slot.
        slot: usize,
        /// Largest product.
        max: i64,
    },
    /// The slot has the element type of slot `like`.
    SameDType {
        /// Operand slot.
        slot: usize,
        /// The slot whose element type it must have.
        like: usize,
    },
    /// Result `result`'s element type is one of these (an output tensor the call is handed).
    /// [`check`] sees operands only and holds it trivially: the dit verifier and the op's
    /// builders fix result types; the stand-in checks the output tensor the lowering passes.
    ResultDTypes {
        /// Result index (dit's result numbering).
        result: usize,
        /// Allowed element types.
        allowed: &'static [DType],
    },
    /// The optional slot is empty when the string attribute `attr` is one of `values`.
    AbsentWhen {
        /// Optional operand slot.
        slot: usize,
        /// String attribute (passed to aclnn as a `char *` argument).
        attr: &'static str,
        /// The attribute values that exclude the slot.
        values: &'static [&'static str],
    },
    /// The operator exists only on these targets (DIALECT.md target names).
    Targets(&'static [&'static str]),
}

/// One documented limit of a kernel-table entry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rule {
    /// Stable short id, `<kernel>.<what>`, used in messages.
    pub id: &'static str,
    /// What is checked.
    pub check: Check,
    /// Targets the rule applies on; empty: every target.
    pub on: &'static [&'static str],
    /// The documented aclnn error code of a violation.
    pub code: i32,
    /// Where the limit is documented (same shorthand as `KernelSpec::source`).
    pub source: &'static str,
}

/// One operand as a kernel would be handed it: element type, dims (negative: dynamic) and
/// format.
#[derive(Debug, Clone, PartialEq)]
pub struct OperandDesc {
    /// Element type.
    pub dtype: DType,
    /// Dims, outermost first; a negative dim is unknown (dynamic).
    pub dims: Vec<i64>,
    /// Storage format.
    pub format: Format,
}

impl OperandDesc {
    /// A row-major operand.
    pub fn nd(dtype: DType, dims: &[i64]) -> OperandDesc {
        OperandDesc {
            dtype,
            dims: dims.to_vec(),
            format: Format::Nd,
        }
    }
}

/// A broken rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The rule's id.
    pub rule: &'static str,
    /// What was wrong.
    pub message: String,
    /// Where the rule is documented.
    pub source: &'static str,
    /// The documented aclnn error code.
    pub code: i32,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "rule {}: {} (aclnn error {}; {})",
            self.rule, self.message, self.code, self.source
        )
    }
}

/// The DIALECT.md target names and the SoC name prefixes (`aclrtGetSocName`) they stand for.
pub const SOCS: &[(&str, &str)] = &[
    ("ascend910b", "Ascend910B"),
    ("ascend910_93", "Ascend910_93"),
    ("ascend950", "Ascend950"),
];

/// The target a SoC name (`Ascend910B1`, `Ascend950PR_9599`) belongs to.
pub fn target_for_soc(soc: &str) -> Option<&'static str> {
    SOCS.iter()
        .find(|(_, prefix)| soc.starts_with(prefix))
        .map(|(t, _)| *t)
}

/// Whether `spec` exists on `target` (its `Targets` rules, if any, name it).
pub fn available_on(spec: &KernelSpec, target: &str) -> bool {
    spec.rules.iter().all(|r| match r.check {
        Check::Targets(targets) => targets.contains(&target),
        _ => true,
    })
}

fn applies(rule: &Rule, target: &str) -> bool {
    rule.on.is_empty() || rule.on.contains(&target)
}

fn dims_text(dims: &[i64]) -> String {
    let d: Vec<String> = dims
        .iter()
        .map(|d| if *d < 0 { "?".into() } else { d.to_string() })
        .collect();
    format!("[{}]", d.join(", "))
}

/// Checks `operands` (one entry per dit operand slot, `None` = empty) and `attrs` of a call of
/// `spec` on `target` against every rule of `spec`; the first broken rule is the answer.
pub fn check(
    spec: &KernelSpec,
    target: &str,
    operands: &[Option<OperandDesc>],
    attrs: &Attrs,
) -> Result<(), Violation> {
    let slot_name = |slot: usize| spec.slots.get(slot).copied().unwrap_or("?");
    for rule in spec.rules.iter().filter(|r| applies(r, target)) {
        let get = |slot: usize| operands.get(slot).and_then(Option::as_ref);
        let fail = |message: String| Violation {
            rule: rule.id,
            message,
            source: rule.source,
            code: rule.code,
        };
        let broken = match rule.check {
            Check::DTypes { slot, allowed } => {
                get(slot).filter(|d| !allowed.contains(&d.dtype)).map(|d| {
                    let names: Vec<&str> = allowed.iter().map(|t| t.mlir_name()).collect();
                    format!(
                        "{} is {}, the kernel takes {}",
                        slot_name(slot),
                        d.dtype.mlir_name(),
                        names.join("/")
                    )
                })
            }
            Check::Format { slot, format } => get(slot).filter(|d| d.format != format).map(|d| {
                format!(
                    "{} is {}, the kernel takes {}",
                    slot_name(slot),
                    d.format.name(),
                    format.name()
                )
            }),
            Check::Rank { slot, min, max } => get(slot)
                .filter(|d| !(min..=max).contains(&d.dims.len()))
                .map(|d| {
                    format!(
                        "{} has rank {}, the kernel takes rank {min}-{max}",
                        slot_name(slot),
                        d.dims.len()
                    )
                }),
            Check::LastDimMax { slot, max } => get(slot).and_then(|d| match d.dims.last() {
                Some(l) if (0..=max).contains(l) => None,
                _ => Some(format!(
                    "{} {}: the last dim must be known and <= {max}",
                    slot_name(slot),
                    dims_text(&d.dims)
                )),
            }),
            Check::LastDimEven { slot } => get(slot).and_then(|d| match d.dims.last() {
                Some(l) if *l >= 0 && l % 2 == 0 => None,
                _ => Some(format!(
                    "{} {}: the last dim must be known and even",
                    slot_name(slot),
                    dims_text(&d.dims)
                )),
            }),
            Check::LeadingProductMax { slot, max } => get(slot).and_then(|d| {
                let lead = &d.dims[..d.dims.len().saturating_sub(1)];
                let product = lead
                    .iter()
                    .try_fold(1i64, |acc, x| (*x >= 0).then(|| acc.saturating_mul(*x)));
                match product {
                    Some(p) if p <= max => None,
                    Some(p) => Some(format!(
                        "{} {}: the product of all dims but the last is {p} > {max}",
                        slot_name(slot),
                        dims_text(&d.dims)
                    )),
                    None => Some(format!(
                        "{} {}: a leading dim is dynamic; their product must be <= {max}",
                        slot_name(slot),
                        dims_text(&d.dims)
                    )),
                }
            }),
            Check::SameDType { slot, like } => match (get(slot), get(like)) {
                (Some(a), Some(b)) if a.dtype != b.dtype => Some(format!(
                    "{} is {}, {} is {}: the kernel takes them alike",
                    slot_name(slot),
                    a.dtype.mlir_name(),
                    slot_name(like),
                    b.dtype.mlir_name()
                )),
                _ => None,
            },
            Check::AbsentWhen { slot, attr, values } => {
                let value = match attrs.get(attr) {
                    Some(AttrValue::Str(s)) => Some(s.as_str()),
                    _ => None,
                };
                match value {
                    Some(v) if values.contains(&v) && get(slot).is_some() => Some(format!(
                        "{} is given with {attr} = \"{v}\", which takes none",
                        slot_name(slot)
                    )),
                    _ => None,
                }
            }
            // Results are not among `operands` (see the variant).
            Check::ResultDTypes { .. } => None,
            Check::Targets(targets) => (!targets.contains(&target)).then(|| {
                format!(
                    "{} exists on {} only, not on {target}",
                    spec.calls().first().map_or(spec.op.name(), |c| c.symbol),
                    targets.join(", ")
                )
            }),
        };
        if let Some(message) = broken {
            return Err(fail(message));
        }
    }
    Ok(())
}

/// Where a dit operand slot lands in `call`'s phase-one arguments: the argument position, and
/// whether it is an `aclTensorList` (whose every item the rule then covers).
fn position(call: &Call, slot: usize) -> Option<(usize, bool)> {
    call.args
        .iter()
        .position(|a| match *a {
            Arg::Input(s, _) | Arg::OptionalInput(s, _) | Arg::InOut { slot: s, .. } => s == slot,
            Arg::TensorList(List::Input(s) | List::OptionalInput(s)) => s == slot,
            _ => false,
        })
        .map(|p| (p, matches!(call.args[p], Arg::TensorList(_))))
}

/// Where dit result `result` lands in `call`'s phase-one arguments (a plain output tensor).
fn result_position(call: &Call, result: usize) -> Option<usize> {
    call.args
        .iter()
        .position(|a| matches!(*a, Arg::Output(r, _) if r == result))
}

/// Where the string attribute `attr` is passed in `call`.
fn attr_position(call: &Call, attr: &str) -> Option<usize> {
    call.args
        .iter()
        .position(|a| matches!(*a, Arg::Str(Text::Attr(n) | Text::AttrOr(n, _)) if n == attr))
}

fn codes(types: &[DType]) -> String {
    let c: Vec<String> = types.iter().map(|t| t.acl_code().to_string()).collect();
    c.join(",")
}

/// Every rule of the table as the CANN stand-in reads it: one line per rule and call,
///
/// ```text
/// soc <target> <SoC-name-prefix>
/// rule <symbol> <id> <code> <targets|*> <kind> <arguments…>
/// ```
///
/// where positions are indices into the phase-one arguments (before `workspaceSize`), a list
/// position is written `L<index>` (the rule covers every tensor of the list), dtypes are
/// `aclDataType` codes and formats `aclFormat` codes. Kinds: `dtype P C,C…`, `format P F`,
/// `rank P MIN MAX`, `last_max P N`, `last_even P`, `lead_product_max P N`, `same_dtype P Q`,
/// `null_when_str P S V,V…` (tensor P must be null when string argument S is one of the
/// values), `targets T,T…`. A rule whose slot a call does not read is not written for it.
pub fn render() -> String {
    let mut out = String::from(
        "# dit kernel contracts (lowering/kernel-spec/src/contracts.rs); generated, do not edit\n",
    );
    for (target, prefix) in SOCS {
        out.push_str(&format!("soc {target} {prefix}\n"));
    }
    for spec in kernels::KERNELS {
        for rule in spec.rules {
            let on = if rule.on.is_empty() {
                "*".to_string()
            } else {
                rule.on.join(",")
            };
            for call in spec.calls() {
                let pos = |slot: usize| {
                    position(call, slot).map(
                        |(p, list)| {
                            if list {
                                format!("L{p}")
                            } else {
                                p.to_string()
                            }
                        },
                    )
                };
                let body = match rule.check {
                    Check::DTypes { slot, allowed } => {
                        pos(slot).map(|p| format!("dtype {p} {}", codes(allowed)))
                    }
                    Check::Format { slot, format } => {
                        pos(slot).map(|p| format!("format {p} {}", format.acl_code()))
                    }
                    Check::Rank { slot, min, max } => {
                        pos(slot).map(|p| format!("rank {p} {min} {max}"))
                    }
                    Check::LastDimMax { slot, max } => {
                        pos(slot).map(|p| format!("last_max {p} {max}"))
                    }
                    Check::LastDimEven { slot } => pos(slot).map(|p| format!("last_even {p}")),
                    Check::LeadingProductMax { slot, max } => {
                        pos(slot).map(|p| format!("lead_product_max {p} {max}"))
                    }
                    Check::SameDType { slot, like } => match (pos(slot), pos(like)) {
                        (Some(p), Some(q)) => Some(format!("same_dtype {p} {q}")),
                        _ => None,
                    },
                    Check::AbsentWhen { slot, attr, values } => {
                        match (pos(slot), attr_position(call, attr)) {
                            (Some(p), Some(s)) => {
                                Some(format!("null_when_str {p} {s} {}", values.join(",")))
                            }
                            _ => None,
                        }
                    }
                    // The stand-in's dtype check reads any tensor argument, outputs included.
                    Check::ResultDTypes { result, allowed } => result_position(call, result)
                        .map(|p| format!("dtype {p} {}", codes(allowed))),
                    Check::Targets(targets) => Some(format!("targets {}", targets.join(","))),
                };
                if let Some(body) = body {
                    out.push_str(&format!(
                        "rule {} {} {} {on} {body}\n",
                        call.symbol, rule.id, rule.code
                    ));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::{select_for_target, KERNELS};
    use dit_ops::OpKind;

    fn spec(symbol: &str) -> &'static KernelSpec {
        KERNELS
            .iter()
            .find(|k| k.calls().iter().any(|c| c.symbol == symbol))
            .unwrap_or_else(|| panic!("no entry calls {symbol}"))
    }

    fn attrs(pairs: &[(&str, &str)]) -> Attrs {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), AttrValue::Str(v.to_string())))
            .collect()
    }

    #[test]
    fn every_rule_is_well_formed_and_ids_are_unique() {
        let mut ids = std::collections::BTreeSet::new();
        for k in KERNELS {
            for r in k.rules {
                assert!(ids.insert(r.id), "duplicate rule id {}", r.id);
                assert!(!r.source.is_empty(), "{} names no doc", r.id);
                assert!(
                    [
                        ACLNN_ERR_PARAM_NULLPTR,
                        ACLNN_ERR_PARAM_INVALID,
                        ACLNN_ERR_INNER_TILING_ERROR
                    ]
                    .contains(&r.code),
                    "{}: code {}",
                    r.id,
                    r.code
                );
                for t in r.on {
                    assert!(SOCS.iter().any(|(n, _)| n == t), "{}: target {t}", r.id);
                }
                let slot = match r.check {
                    Check::DTypes { slot, .. }
                    | Check::Format { slot, .. }
                    | Check::Rank { slot, .. }
                    | Check::LastDimMax { slot, .. }
                    | Check::LastDimEven { slot }
                    | Check::LeadingProductMax { slot, .. }
                    | Check::SameDType { slot, .. }
                    | Check::AbsentWhen { slot, .. } => Some(slot),
                    Check::Targets(_) => None,
                    Check::ResultDTypes { result, .. } => {
                        assert!(
                            k.calls()
                                .iter()
                                .any(|c| result_position(c, result).is_some()),
                            "{}: no call writes result {result}",
                            r.id
                        );
                        None
                    }
                };
                if let Some(s) = slot {
                    assert!(k.reads_slot(s), "{}: the kernel reads no slot {s}", r.id);
                }
            }
        }
    }

    #[test]
    fn gelu_mul_rank_and_leading_product() {
        let k = spec("aclnnGeluMul");
        let ok = [Some(OperandDesc::nd(DType::F16, &[2, 150, 64]))];
        assert_eq!(check(k, "ascend910b", &ok, &Attrs::new()), Ok(()));
        let rank1 = [Some(OperandDesc::nd(DType::F16, &[64]))];
        assert_eq!(
            check(k, "ascend910b", &rank1, &Attrs::new())
                .unwrap_err()
                .rule,
            "gelu_mul.rank"
        );
        let big = [Some(OperandDesc::nd(DType::F16, &[2, 150_000, 64]))];
        let v = check(k, "ascend910b", &big, &Attrs::new()).unwrap_err();
        assert_eq!((v.rule, v.code), ("gelu_mul.lead_product", 161_002));
        let wide = [Some(OperandDesc::nd(DType::F16, &[2, 2048]))];
        assert_eq!(
            check(k, "ascend910b", &wide, &Attrs::new())
                .unwrap_err()
                .rule,
            "gelu_mul.last_dim"
        );
    }

    #[test]
    fn fused_matmul_refuses_a_bias_with_gelu_and_other_chips() {
        let k = spec("aclnnFusedMatmul");
        let x = Some(OperandDesc::nd(DType::BF16, &[4, 8]));
        let w = Some(OperandDesc::nd(DType::BF16, &[8, 16]));
        let b = Some(OperandDesc::nd(DType::BF16, &[16]));
        let gelu = attrs(&[("fused_op_type", "gelu_tanh")]);
        let v = check(
            k,
            "ascend950",
            &[x.clone(), w.clone(), b.clone(), None],
            &gelu,
        );
        let v = v.unwrap_err();
        assert_eq!((v.rule, v.code), ("fused_matmul.gelu_bias", 161_001));
        assert!(v.to_string().contains("aclnnFusedMatmul.md"), "{v}");
        let ok = check(k, "ascend950", &[x.clone(), w.clone(), None, None], &gelu);
        assert_eq!(ok, Ok(()));
        let relu = attrs(&[("fused_op_type", "relu")]);
        assert_eq!(
            check(k, "ascend950", &[x.clone(), w.clone(), b, None], &relu),
            Ok(())
        );
        let a2 = check(k, "ascend910b", &[x, w, None, None], &relu).unwrap_err();
        assert_eq!(a2.rule, "fused_matmul.targets");
    }

    #[test]
    fn rope_tables_take_x_dtype() {
        let k = spec("aclnnRotaryPositionEmbedding");
        let x = Some(OperandDesc::nd(DType::BF16, &[1, 2, 4, 8]));
        let f32 = Some(OperandDesc::nd(DType::F32, &[1, 1, 4, 8]));
        let bf = Some(OperandDesc::nd(DType::BF16, &[1, 1, 4, 8]));
        let v = check(
            k,
            "ascend910b",
            &[x.clone(), f32, bf.clone()],
            &Attrs::new(),
        );
        assert_eq!(v.unwrap_err().rule, "rope.cos_dtype");
        assert_eq!(
            check(k, "ascend910b", &[x, bf.clone(), bf], &Attrs::new()),
            Ok(())
        );
    }

    #[test]
    fn targets_pick_the_attention_entry() {
        let present = [true, true, true, false];
        let a2 = select_for_target(OpKind::Attention, &Attrs::new(), &present, "ascend910b");
        let a5 = select_for_target(OpKind::Attention, &Attrs::new(), &present, "ascend950");
        assert_eq!(
            a2.unwrap().calls()[0].symbol,
            "aclnnFusedInferAttentionScoreV2"
        );
        assert_eq!(
            a5.unwrap().calls()[0].symbol,
            "aclnnFusedInferAttentionScoreV5"
        );
        assert_eq!(target_for_soc("Ascend950PR_9599"), Some("ascend950"));
        assert_eq!(target_for_soc("Ascend910B1"), Some("ascend910b"));
        assert_eq!(target_for_soc("Ascend910_9391"), Some("ascend910_93"));
        assert_eq!(target_for_soc("Ascend310P3"), None);
    }

    #[test]
    fn the_rendered_file_maps_slots_to_argument_positions() {
        let text = render();
        assert!(
            text.contains("rule aclnnGeluMul gelu_mul.rank 161002 * rank 0 2 8\n"),
            "{text}"
        );
        // bias is slot 2, argument 2; fusedOpType is argument 4.
        assert!(
            text.contains(
                "rule aclnnFusedMatmul fused_matmul.gelu_bias 161001 * null_when_str 2 4 \
                 gelu_tanh,gelu_erf\n"
            ),
            "{text}"
        );
        // cos (slot 1) against x (slot 0).
        assert!(text.contains("same_dtype 1 0\n"), "{text}");
        assert!(text.contains("soc ascend950 Ascend950\n"), "{text}");
    }
}
