//! `dit-fold-transpose-quant-matmul`: CANN's QuantBatchMatmulV3TransposeFusionPass (the
//! normal rule), rule for rule as seed 001 describes it. A dit.transpose that swaps the last two
//! dims of x1 or x2 is bypassed and the quant_matmul's transpose_x1 / transpose_x2 is negated;
//! the matching transform on the scale side (pertoken_scale for x1, scale for x2) is bypassed
//! with it. The supplementary limit rule shares this code (dit_fold_transpose_quant_matmul_limit.rs).

use crate::registry::{DitPass, PassContext, PassFailed};
use dit_dialect::ops::OpKind;
use dit_dialect::{
    ir::{Attr, Op, Val},
    ops::{self, str_attr, Operands},
    target::GE_TRANSPOSE_FUSION_MIN_VERSION,
    tensor::{shape_string, Dim, Elem, TensorInfo},
    verifier::{QUANT_INPUT_TYPES, QUANT_OUTPUT_TYPES},
    Target,
};

/// The largest outer dim a transposed input may have without the bf16 L1→BT move (seed 001
/// §3.4: INNER_SHAPE_LIMIT).
pub const SHAPE_LIMIT: i64 = 65535;

/// Which of CANN's two registered rules runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// QuantBatchMatmulV3TransposeFusionPass.
    Normal,
    /// QuantBatchMatmulV3TransposeLimitFusionPass.
    Limit,
}

impl Rule {
    fn flag(self) -> &'static str {
        match self {
            Rule::Normal => "dit-fold-transpose-quant-matmul",
            Rule::Limit => "dit-fold-transpose-quant-matmul-limit",
        }
    }
}

/// The normal rule as a pass.
pub struct FoldTransposeQuantMatmul;

impl DitPass for FoldTransposeQuantMatmul {
    fn run(&mut self, module: Op, context: &PassContext) -> Result<(), PassFailed> {
        run_rule(module, context, Rule::Normal);
        Ok(())
    }
}

/// Applies `rule` to every dit.quant_matmul under `module`.
pub fn run_rule(module: Op, context: &PassContext, rule: Rule) {
    let mut matmuls = Vec::new();
    module.walk(&mut |op| {
        if op.is_kind(OpKind::QuantMatmul) {
            matmuls.push(op);
        }
    });
    for q in matmuls {
        fold(q, context, rule);
    }
}

/// x1 or x2, with the scale that belongs to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    X1,
    X2,
}

impl Side {
    fn data_slot(self) -> &'static str {
        match self {
            Side::X1 => "x1",
            Side::X2 => "x2",
        }
    }
    fn scale_slot(self) -> &'static str {
        match self {
            Side::X1 => "pertoken_scale",
            Side::X2 => "scale",
        }
    }
    fn flag_attr(self) -> &'static str {
        match self {
            Side::X1 => "transpose_x1",
            Side::X2 => "transpose_x2",
        }
    }
}

/// A transform on an input path: the op to bypass, and the bitcast (at most one) between it
/// and the quant_matmul.
#[derive(Clone, Copy, Debug)]
struct PathTransform<'a> {
    transform: Op<'a>,
    bitcast: Option<Op<'a>>,
}

/// Whether `op` is a dit.transpose that swaps only the last two dims.
fn swaps_last_two(op: Op) -> bool {
    let Some(perm) = ops::i64_array_attr(op, "perm") else {
        return false;
    };
    let r = perm.len();
    r >= 2
        && perm[..r - 2]
            .iter()
            .enumerate()
            .all(|(i, &p)| p == i as i64)
        && perm[r - 2] == r as i64 - 1
        && perm[r - 1] == r as i64 - 2
}

/// The transform `accept` recognises on the path into `value`, directly or through exactly one
/// dit.bitcast (a second bitcast hides it: seed 001 §2.7).
fn find_on_path<'a>(value: Val<'a>, accept: &dyn Fn(Op<'a>) -> bool) -> Option<PathTransform<'a>> {
    let producer = value.defining_op()?;
    if accept(producer) {
        return Some(PathTransform {
            transform: producer,
            bitcast: None,
        });
    }
    if producer.is_kind(OpKind::Bitcast) {
        let inner = producer.operand(0).defining_op()?;
        if accept(inner) {
            return Some(PathTransform {
                transform: inner,
                bitcast: Some(producer),
            });
        }
    }
    None
}

fn is_data_transpose(op: Op) -> bool {
    op.is_kind(OpKind::Transpose) && swaps_last_two(op)
}

/// Whether `v` is an MX scale: f8E8M0FNU of rank 3, laid out `(m, ceil(k/64), 2)` for x1 and
/// `(ceil(k/64), n, 2)` for x2 (seed 001 §2.6, from CANN's IsReshapeTrans comment).
fn is_mx_scale(v: Val) -> bool {
    tensor(v).is_some_and(|t| t.elem == Elem::F8E8M0FNU && t.rank() == 3)
}

/// Whether `op` is a dit.transpose that swaps the first two of three dims: what transposing
/// the matrix an MX scale belongs to does to the scale (its first two dims swap, seed 001 §2.6).
fn swaps_mx_scale_dims(op: Op) -> bool {
    op.is_kind(OpKind::Transpose)
        && ops::i64_array_attr(op, "perm").is_some_and(|p| p.as_slice() == [1, 0, 2])
}

/// The transforms the scale path may carry: a transpose (of the last two dims, or of an MX
/// scale's first two) or a reshape; which of them is equivalent to the data transpose is
/// decided by [`scale_transform_equivalent`].
fn is_scale_transform(op: Op) -> bool {
    is_data_transpose(op) || swaps_mx_scale_dims(op) || op.is_kind(OpKind::Reshape)
}

/// Whether the scale transform `op` is the scale side of a data transpose, and how.
fn scale_transform_equivalent(op: Op, dynamic: bool) -> Result<&'static str, String> {
    if !op.is_kind(OpKind::Transpose) {
        return reshape_equivalent(op, dynamic);
    }
    // An MX scale moves with its matrix by swapping its first two dims; any other scale by
    // swapping its last two.
    match (is_mx_scale(op.operand(0)), swaps_mx_scale_dims(op)) {
        (true, true) => Ok("MX scale transpose [1, 0, 2]"),
        (false, false) => Ok("transpose"),
        (true, false) => Err(
            "an MX (f8E8M0FNU, rank 3) scale follows its matrix by swapping its first two dims \
             ([1, 0, 2]), not its last two"
                .into(),
        ),
        (false, true) => Err("a [1, 0, 2] transpose is the scale side only of an MX scale".into()),
    }
}

fn tensor(v: Val) -> Option<TensorInfo> {
    v.tensor()
}

fn dim(d: Dim) -> String {
    d.map_or("?".to_string(), |v| v.to_string())
}

/// Whether a side may fold under `rule` on `target` (seed 001 §3.4), or why not.
fn shape_allows(
    rule: Rule,
    side: Side,
    input: &TensorInfo,
    target: &Target,
    nz: bool,
) -> Result<(), String> {
    let outer = input.dim_from_back(1);
    let inner = input.dim_from_back(0);
    match rule {
        Rule::Normal => {
            // CANN compares the stored dim, -1 when unknown, with the limit: dynamic passes.
            let small = outer.is_none_or(|o| o <= SHAPE_LIMIT);
            if small || target.bf16_l1_to_bt || (side == Side::X2 && nz) {
                Ok(())
            } else {
                Err(format!(
                    "{}: outer dim {} > {SHAPE_LIMIT}, target {} has no bf16 L1->BT move{}",
                    side.data_slot(),
                    dim(outer),
                    target.name,
                    if side == Side::X2 {
                        " and x2_format is not FRACTAL_NZ"
                    } else {
                        ""
                    }
                ))
            }
        }
        Rule::Limit => {
            let fits = matches!(outer, Some(o) if o > 0 && o <= SHAPE_LIMIT)
                && matches!(inner, Some(i) if i > SHAPE_LIMIT);
            if fits {
                Ok(())
            } else {
                Err(format!(
                    "{}: limit rule needs 0 < outer <= {SHAPE_LIMIT} and inner > {SHAPE_LIMIT} (static), got outer {} and inner {}",
                    side.data_slot(),
                    dim(outer),
                    dim(inner)
                ))
            }
        }
    }
}

/// Whether a reshape on a scale path is equivalent to the scale's transpose (seed 001 §3.3),
/// and under which condition. Condition A looks at the scale input of the quant_matmul that
/// the reshape feeds, i.e. the reshape's result (CANN's IsReshapeTrans: "对于普通 tensor，只有
/// 当其最后两维存在一维为 1 时，最后两维的转置才可以等价为 Reshape"; its unit-test case
/// quant_bmm_v3_with_reshape_transpose reshapes a scale [128] -> [1, 128] next to an x2
/// [64, 128]), and needs that input to be at least 2-D. Conditions A and B (or a dynamic data
/// shape) are necessary, not sufficient: "the reshape must still be equivalent to the required
/// scale transpose", so a static reshape must also only move size-1 dims (the scale's values
/// keep their order and meaning, as a transpose of a vector would).
fn reshape_equivalent(reshape: Op, dynamic: bool) -> Result<&'static str, String> {
    let (Some(i), Some(o)) = (tensor(reshape.operand(0)), tensor(reshape.result(0))) else {
        return Err("scale reshape has no ranked tensor types".into());
    };
    let condition = if dynamic {
        "dynamic shape"
    } else if o.rank() >= 2 && (o.dim_from_back(0) == Some(1) || o.dim_from_back(1) == Some(1)) {
        "condition A"
    } else if i.elem == Elem::F8E8M0FNU
        && i.rank() == 3
        && o.rank() == 3
        && i.shape[0] == o.shape[1]
        && i.shape[1] == o.shape[0]
        && i.shape[2] == o.shape[2]
        && (i.shape[0] == Some(1) || i.shape[1] == Some(1))
    {
        "condition B"
    } else {
        return Err(
            "the scale reshape is not equivalent to the transpose (neither condition A nor B)"
                .into(),
        );
    };
    let squeezed = |t: &TensorInfo| -> Option<Vec<i64>> {
        t.shape.iter().filter(|d| **d != Some(1)).copied().collect()
    };
    match (squeezed(&i), squeezed(&o)) {
        (Some(a), Some(b)) if a != b => Err(format!(
            "the scale reshape [{}] -> [{}] regroups elements, it is no transpose",
            shape_string(&i.shape),
            shape_string(&o.shape)
        )),
        // Static and only size-1 dims moved, or dynamic: the graph vouches for it (§2.8).
        _ => Ok(condition),
    }
}

/// A bitcast may stay on a folded path only if it reinterprets elements one for one (same bit
/// width, so the untransposed shape is its new shape) and nothing else reads it.
fn bitcast_usable(bitcast: Op) -> Result<(), String> {
    let (Some(i), Some(o)) = (tensor(bitcast.operand(0)), tensor(bitcast.result(0))) else {
        return Err("bitcast has no ranked tensor types".into());
    };
    if i.elem.bits() != o.elem.bits() {
        return Err(format!(
            "bitcast {} -> {} changes the element width",
            i.elem, o.elem
        ));
    }
    if bitcast.result(0).use_count() != 1 {
        return Err("bitcast has other users".into());
    }
    Ok(())
}

/// Bypasses `path` for operand `index` of `consumer`: the bitcast (if any) now reads the
/// transform's input and takes its shape; otherwise the consumer reads it directly.
fn bypass(consumer: Op, index: usize, path: PathTransform) {
    let source = path.transform.operand(0);
    match path.bitcast {
        Some(bitcast) => {
            bitcast.set_operand(0, source);
            let shape = tensor(source).map(|t| t.shape).unwrap_or_default();
            let result = bitcast.result(0);
            result.set_tensor_type(&shape, result);
        }
        None => consumer.set_operand(index, source),
    }
    if !path.transform.has_uses() {
        // SAFETY: the transform has no uses (checked); it is no quant_matmul, so the pass's list of
        // those does not hold it.
        unsafe { path.transform.erase() };
    }
}

/// Whether any input of `q` reaches it as transform → bitcast (seed 001 §3.2). On a scale path
/// only a transform that qualifies counts ("两路 scale 中的任一路满足融合要求的 Reshape →
/// Bitcast"): a reshape that is no transpose is a plain reshape, and CANN's IsBitcastPattern
/// does not look past it.
fn has_bitcast_pattern(ins: &Operands, dynamic: bool) -> Option<&'static str> {
    for side in [Side::X1, Side::X2] {
        if let Some(v) = ins.get(side.data_slot()) {
            if find_on_path(v, &is_data_transpose).is_some_and(|p| p.bitcast.is_some()) {
                return Some(side.data_slot());
            }
        }
        if let Some(v) = ins.get(side.scale_slot()) {
            if find_on_path(v, &is_scale_transform).is_some_and(|p| {
                p.bitcast.is_some() && scale_transform_equivalent(p.transform, dynamic).is_ok()
            }) {
                return Some(side.scale_slot());
            }
        }
    }
    None
}

fn fold(q: Op, context: &PassContext, rule: Rule) {
    let report = &context.report;
    let pattern = rule.flag();
    let spec = OpKind::QuantMatmul.spec();
    let Ok(ins) = Operands::resolve(q, spec) else {
        return;
    };
    let (Some(x1v), Some(x2v)) = (ins.get("x1"), ins.get("x2")) else {
        return;
    };
    let (Some(x1), Some(x2), Some(out)) = (tensor(x1v), tensor(x2v), tensor(q.result(0))) else {
        return;
    };
    let candidates: Vec<(Side, PathTransform)> = [(Side::X1, x1v), (Side::X2, x2v)]
        .into_iter()
        .filter_map(|(side, v)| find_on_path(v, &is_data_transpose).map(|p| (side, p)))
        .collect();
    if candidates.is_empty() {
        return; // Seed 001 §3.1: without a real transpose on a data input nothing triggers.
    }
    // Seed 001 §3.5: below this ge-compiler version CANN registers neither rule (and a run
    // leaves the graph unchanged), so nothing here may fold either.
    let version = context.target.ge_compiler_version;
    if version < GE_TRANSPOSE_FUSION_MIN_VERSION {
        report.skipped(
            pattern,
            q,
            format!(
                "ge-compiler version {version} of target {} is below \
                 {GE_TRANSPOSE_FUSION_MIN_VERSION}: the transpose rules are not enabled (seed \
                 001 section 3.5)",
                context.target.name
            ),
        );
        return;
    }
    if x1.rank() < 2 || x2.rank() < 2 {
        report.skipped(pattern, q, "x1 and x2 must both have rank >= 2");
        return;
    }
    for (what, t, allowed) in [
        ("x1", &x1, QUANT_INPUT_TYPES),
        ("x2", &x2, QUANT_INPUT_TYPES),
        ("output", &out, QUANT_OUTPUT_TYPES),
    ] {
        if !allowed.contains(&t.elem) {
            report.skipped(
                pattern,
                q,
                format!(
                    "{what} element type {} is not supported by the rule",
                    t.elem
                ),
            );
            return;
        }
    }
    if rule == Rule::Limit && context.target.bf16_l1_to_bt {
        report.skipped(
            pattern,
            q,
            format!(
                "limit rule does nothing on {} (bf16 L1->BT move: the normal rule folds)",
                context.target.name
            ),
        );
        return;
    }
    let dynamic = x1.shape.iter().chain(&x2.shape).any(|d| d.is_none());
    if context.target.mmad_s8s4 {
        if let Some(input) = has_bitcast_pattern(&ins, dynamic) {
            report.skipped(
                pattern,
                q,
                format!(
                    "target {} takes mixed s8s4 input and {input} comes through a bitcast: the quant_matmul is left as it is",
                    context.target.name
                ),
            );
            return;
        }
    }
    let nz = str_attr(q, "x2_format").as_deref() == Some("FRACTAL_NZ");
    for (side, path) in candidates {
        let input = if side == Side::X1 { &x1 } else { &x2 };
        if let Err(why) = shape_allows(rule, side, input, context.target, nz) {
            report.skipped(pattern, q, why);
            continue;
        }
        if let Some(bitcast) = path.bitcast {
            if let Err(why) = bitcast_usable(bitcast) {
                report.skipped(pattern, q, format!("{}: {why}", side.data_slot()));
                continue;
            }
        }
        // The scale side folds only with its data side.
        let mut scale_note = String::from("no scale transform");
        let scale_path = ins
            .get(side.scale_slot())
            .and_then(|v| find_on_path(v, &is_scale_transform));
        let mut scale_fold = None;
        if let Some(sp) = scale_path {
            let equivalent = scale_transform_equivalent(sp.transform, dynamic);
            let usable = sp.bitcast.map_or(Ok(()), bitcast_usable);
            match (equivalent, usable) {
                (Ok(how), Ok(())) => {
                    scale_note = format!(
                        "{} {} bypassed ({how})",
                        side.scale_slot(),
                        sp.transform.name()
                    );
                    scale_fold = Some(sp);
                }
                (Err(why), _) | (_, Err(why)) => {
                    scale_note = format!("{} kept: {why}", side.scale_slot())
                }
            }
        }
        let (Some(data_index), flag) = (ins.index_of(side.data_slot()), side.flag_attr()) else {
            continue;
        };
        let was = ops::bool_attr(q, flag).unwrap_or(false);
        bypass(q, data_index, path);
        q.set_attr(flag, Attr::bool(q.context_raw(), !was));
        if let (Some(sp), Some(scale_index)) = (scale_fold, ins.index_of(side.scale_slot())) {
            bypass(q, scale_index, sp);
        }
        report.applied(
            pattern,
            q,
            format!(
                "{}: transpose{} bypassed, {flag} {was} -> {}; {scale_note}",
                side.data_slot(),
                if path.bitcast.is_some() {
                    " (through a bitcast)"
                } else {
                    ""
                },
                !was
            ),
        );
    }
}
