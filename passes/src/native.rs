//! The native constraints and rewrites the PDLL patterns call (declared in
//! patterns/natives.pdll). Each is an `extern "C"` callback of MLIR's PDL interpreter; the
//! interpreter's user data is the [`NativeState`] of the running pass.

use crate::report::FusionReport;
use dit_dialect::{
    ir::{Attr, Op, Val},
    ops::{bool_attr, i64_array_attr, i64_attr, str_attr},
    tensor::{broadcast_shapes, dims_compatible, shapes_compatible, Elem},
    Target,
};
use mlir_sys::*;
use std::ffi::c_void;

/// What the natives of one pattern application can see.
pub struct NativeState {
    pub report: FusionReport,
    pub target: &'static Target,
}

/// A PDL value handed to a native function.
#[derive(Clone, Copy)]
pub struct PdlArg(MlirPDLValue);

impl PdlArg {
    fn value(self) -> Option<Val> {
        // SAFETY: the interpreter passes live PDL values; the cast returns null on mismatch.
        let v = unsafe { mlirPDLValueAsValue(self.0) };
        (!v.ptr.is_null()).then_some(Val(v))
    }
    fn op(self) -> Option<Op> {
        // SAFETY: as above.
        let o = unsafe { mlirPDLValueAsOperation(self.0) };
        (!o.ptr.is_null()).then_some(Op(o))
    }
    fn attr(self) -> Option<Attr> {
        // SAFETY: as above.
        let a = unsafe { mlirPDLValueAsAttribute(self.0) };
        (!a.ptr.is_null()).then_some(Attr(a))
    }
}

/// The float value of a splat dense float constant.
pub fn splat_float(attr: Attr) -> Option<f64> {
    // SAFETY: predicates and getters on a live attribute.
    unsafe {
        if !mlirAttributeIsADenseFPElements(attr.0) {
            return None;
        }
        // A dense attribute with one element is always stored as a splat.
        if !mlirDenseElementsAttrIsSplat(attr.0) {
            return None;
        }
        let splat = mlirDenseElementsAttrGetSplatValue(attr.0);
        mlirAttributeIsAFloat(splat).then(|| mlirFloatAttrGetValueDouble(splat))
    }
}

fn num_elements(attr: Attr) -> i64 {
    // SAFETY: as above.
    unsafe { mlirElementsAttrGetNumElements(attr.0) }
}

fn string_of(attr: Option<Attr>) -> String {
    attr.and_then(|a| a.as_str()).unwrap_or_default()
}

pub type Args<'a> = &'a [PdlArg];

/// Constraint: `HasOneUse(value)`.
fn has_one_use(args: Args, _: &NativeState) -> bool {
    args.first()
        .and_then(|a| a.value())
        .is_some_and(|v| v.use_count() == 1)
}

/// Constraint: `IsScalarSplat(cst)`: a float constant with one element (0-d or all-1 shape).
fn is_scalar_splat(args: Args, _: &NativeState) -> bool {
    args.first()
        .and_then(|a| a.attr())
        .is_some_and(|a| splat_float(a).is_some() && num_elements(a) == 1)
}

/// Constraint: `SplatNear(cst, expected, tol)`: |c - e| <= tol * max(1, |e|).
fn splat_near(args: Args, _: &NativeState) -> bool {
    let get = |i: usize| args.get(i).and_then(|a| a.attr());
    let (Some(c), Some(e), Some(t)) = (
        get(0).and_then(splat_float),
        get(1).and_then(|a| a.as_f64()),
        get(2).and_then(|a| a.as_f64()),
    ) else {
        return false;
    };
    near(c, e, t)
}

/// Constraint: `ConstNear(value, expected, tol)`: `value` comes from an arith.constant splat
/// within `tol` (relative) of `expected`.
fn const_near(args: Args, _: &NativeState) -> bool {
    let Some(op) = args
        .first()
        .and_then(|a| a.value())
        .and_then(|v| v.defining_op())
    else {
        return false;
    };
    if !op.is("arith.constant") {
        return false;
    }
    let get = |i: usize| args.get(i).and_then(|a| a.attr()).and_then(|a| a.as_f64());
    let (Some(c), Some(e), Some(t)) = (op.attr("value").and_then(splat_float), get(1), get(2))
    else {
        return false;
    };
    near(c, e, t)
}

/// `c` is within `tol` of `expected`, relative to |expected| (absolute below 1).
fn near(c: f64, expected: f64, tol: f64) -> bool {
    (c - expected).abs() <= tol * expected.abs().max(1.0)
}

/// Constraint: `IsLastDimMean(m)`: reduce_mean over the last dim only (`-1` or `rank-1`),
/// keepdim.
fn is_last_dim_mean(args: Args, _: &NativeState) -> bool {
    let Some(m) = args.first().and_then(|a| a.op()) else {
        return false;
    };
    let rank = m.operand(0).tensor().map_or(0, |t| t.rank()) as i64;
    let dims = i64_array_attr(m, "dims").unwrap_or_default();
    bool_attr(m, "keepdim") == Some(true)
        && dims.len() == 1
        && (dims[0] == -1 || dims[0] == rank - 1)
}

/// Constraint: `IsSquareOf(sq, x)`: `sq` is `pow(x, 2)` or `x·x`.
fn is_square_of(args: Args, _: &NativeState) -> bool {
    let (Some(sq), Some(x)) = (
        args.first().and_then(|a| a.value()),
        args.get(1).and_then(|a| a.value()),
    ) else {
        return false;
    };
    let Some(op) = sq.defining_op() else {
        return false;
    };
    if op.is("dit.mul") {
        return op.operand(0) == x && op.operand(1) == x;
    }
    if op.is("dit.pow") && op.operand(0) == x {
        let exponent = op
            .operand(1)
            .defining_op()
            .filter(|c| c.is("arith.constant"));
        return exponent.and_then(|c| c.attr("value")).and_then(splat_float) == Some(2.0);
    }
    false
}

/// Constraint: `IsValueOrCastOf(v, of)`.
fn is_value_or_cast_of(args: Args, _: &NativeState) -> bool {
    let (Some(v), Some(of)) = (
        args.first().and_then(|a| a.value()),
        args.get(1).and_then(|a| a.value()),
    ) else {
        return false;
    };
    v == of
        || v.defining_op()
            .is_some_and(|c| c.is("dit.cast") && c.operand(0) == of && of.has_uses())
}

/// Rewrite: `StripCast(v) -> Value`.
fn strip_cast(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    _: MlirPatternRewriter,
) -> bool {
    let Some(v) = args.first().and_then(|a| a.value()) else {
        return false;
    };
    // SAFETY: the result list is the interpreter's; the value is alive.
    unsafe { mlirPDLResultListPushBackValue(results, without_cast(v).0) };
    true
}

/// The value of a splat constant usable as an epsilon, as f32, with its defining op.
fn epsilon_constant(v: Option<Val>) -> Option<(Op, f32)> {
    let op = v?.defining_op()?;
    let value = op
        .is("arith.constant")
        .then(|| op.attr("value"))
        .flatten()
        .and_then(splat_float)? as f32;
    (value.is_finite() && value >= 0.0).then_some((op, value))
}

/// Constraint: `IsEpsilon(e)`.
fn is_epsilon(args: Args, _: &NativeState) -> bool {
    epsilon_constant(args.first().and_then(|a| a.value())).is_some()
}

/// Rewrite: `EpsilonOf(e) -> Attr`: the splat constant as an f32 attribute.
fn epsilon_of(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    _: MlirPatternRewriter,
) -> bool {
    let Some((op, eps)) = epsilon_constant(args.first().and_then(|a| a.value())) else {
        return false;
    };
    // SAFETY: as above.
    unsafe { mlirPDLResultListPushBackAttribute(results, Attr::f32(op.context_raw(), eps).0) };
    true
}

/// Records a skip for the report when `check` fails; returns whether it passed.
fn fits(
    state: &NativeState,
    pattern: Option<Attr>,
    at: Option<Val>,
    check: Result<(), String>,
) -> bool {
    match check {
        Ok(()) => true,
        Err(reason) => {
            if let Some(op) = at.and_then(|v| v.defining_op()) {
                state.report.skipped(intern(string_of(pattern)), op, reason);
            }
            false
        }
    }
}

/// The input of a dit.cast, or the value itself.
fn without_cast(v: Val) -> Val {
    v.defining_op()
        .filter(|c| c.is("dit.cast"))
        .map_or(v, |c| c.operand(0))
}

/// Whether each op is present and has the expected name: a reporting constraint checks its
/// pattern's ops itself before it records anything (see natives.pdll).
fn ops_are(ops: &[(Option<Op>, &str)]) -> bool {
    ops.iter().all(|(op, name)| op.is_some_and(|o| o.is(name)))
}

/// Constraint: `RmsNormFits(xf, gamma, out, mean, rsqrt, pattern)`.
fn rms_norm_fits(args: Args, state: &NativeState) -> bool {
    let v = |i: usize| args.get(i).and_then(|a| a.value());
    let (Some(xf), Some(gamma), Some(out)) = (v(0), v(1), v(2)) else {
        return false;
    };
    let (mean, rsqrt) = (
        args.get(3).and_then(|a| a.op()),
        args.get(4).and_then(|a| a.op()),
    );
    let add = rsqrt.and_then(|r| r.operand(0).defining_op());
    if !ops_are(&[
        (mean, "dit.reduce_mean"),
        (rsqrt, "dit.rsqrt"),
        (add, "dit.add"),
        (out.defining_op(), "dit.mul"),
    ]) {
        return false;
    }
    let x = without_cast(xf);
    let check = (|| {
        let (xt, gt) = (
            x.tensor().ok_or("x is not a ranked tensor")?,
            gamma.tensor().ok_or("gamma is not a ranked tensor")?,
        );
        if !xt.elem.is_float() {
            return Err(format!("x element type {} is not f32/f16/bf16", xt.elem));
        }
        if !x.same_type(out) {
            return Err(
                "the normalised result's type differs from x's (a cast the kernel would not do)"
                    .to_string(),
            );
        }
        let d = xt.dim_from_back(0);
        if gt.rank() != 1 || !dims_compatible(gt.shape[0], d) {
            return Err(format!(
                "gamma must be a vector over the last dim, got rank {}",
                gt.rank()
            ));
        }
        if gt.elem != xt.elem && gt.elem != Elem::F32 {
            return Err(format!(
                "gamma element type {} is neither x's ({}) nor f32",
                gt.elem, xt.elem
            ));
        }
        Ok(())
    })();
    fits(state, args.get(5).and_then(|a| a.attr()), Some(out), check)
}

/// Constraint: `AdaLayerNormFits(x, scale, shift, out, ln, pattern)`.
fn ada_layer_norm_fits(args: Args, state: &NativeState) -> bool {
    let v = |i: usize| args.get(i).and_then(|a| a.value());
    let (Some(x), Some(scale), Some(shift), Some(out)) = (v(0), v(1), v(2), v(3)) else {
        return false;
    };
    if !ops_are(&[
        (args.get(4).and_then(|a| a.op()), "dit.layer_norm"),
        (out.defining_op(), "dit.add"),
    ]) {
        return false;
    }
    let check = (|| {
        let xt = x.tensor().ok_or("x is not a ranked tensor")?;
        if !x.same_type(out) {
            return Err("the result type differs from x's".to_string());
        }
        for (name, t) in [("scale", scale), ("shift", shift)] {
            let tt = t.tensor().ok_or("not a ranked tensor")?;
            let fitsx = broadcast_shapes(&tt.shape, &xt.shape)
                .is_some_and(|b| shapes_compatible(&b, &xt.shape));
            if !fitsx || tt.elem != xt.elem {
                return Err(format!(
                    "{name} does not broadcast to x with x's element type"
                ));
            }
        }
        Ok(())
    })();
    fits(state, args.get(5).and_then(|a| a.attr()), Some(out), check)
}

/// Which half of a tensor the gate is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GateHalf {
    First,
    Second,
}

/// If `gate` and `up` are the two halves of one tensor along its last dim, that tensor and
/// which half the gate is.
fn halves(gate: Val, up: Val) -> Option<(Val, GateHalf)> {
    let (g, u) = (gate.defining_op()?, up.defining_op()?);
    if g.is("dit.split") && g == u {
        let x = g.operand(0);
        let rank = x.tensor()?.rank() as i64;
        let dim = i64_attr(g, "dim")?;
        let sizes = i64_array_attr(g, "sizes")?;
        if (dim == -1 || dim == rank - 1) && sizes.len() == 2 && sizes[0] == sizes[1] {
            let gate_index = (0..2).find(|i| g.result(*i) == gate)?;
            let up_index = (0..2).find(|i| g.result(*i) == up)?;
            return match (gate_index, up_index) {
                (0, 1) => Some((x, GateHalf::First)),
                (1, 0) => Some((x, GateHalf::Second)),
                _ => None,
            };
        }
        return None;
    }
    if g.is("dit.slice") && u.is("dit.slice") && g.operand(0) == u.operand(0) {
        let x = g.operand(0);
        let t = x.tensor()?;
        let d = t.dim_from_back(0)?;
        let bounds = |s: Op| -> Option<(i64, i64)> {
            let dim = i64_attr(s, "dim")?;
            if !(dim == -1 || dim == t.rank() as i64 - 1) || i64_attr(s, "step")? != 1 {
                return None;
            }
            let clamp = |v: i64| if v < 0 { (v + d).max(0) } else { v.min(d) };
            Some((clamp(i64_attr(s, "start")?), clamp(i64_attr(s, "end")?)))
        };
        let (gb, ub) = (bounds(g)?, bounds(u)?);
        let h = d / 2;
        if d % 2 != 0 {
            return None;
        }
        return match (gb, ub) {
            (a, b) if a == (0, h) && b == (h, d) => Some((x, GateHalf::First)),
            (a, b) if a == (h, d) && b == (0, h) => Some((x, GateHalf::Second)),
            _ => None,
        };
    }
    None
}

/// The activation a gated-activation switch puts on the gate.
fn activation_of(pattern: &str) -> &'static str {
    match pattern {
        "enable_gelu_mul" => "dit.gelu",
        _ => "dit.silu",
    }
}

/// Constraint: `GateIsFirstHalf(gate, up, act, root, pattern)`.
fn gate_is_first_half(args: Args, state: &NativeState) -> bool {
    let (Some(gate), Some(up)) = (
        args.first().and_then(|a| a.value()),
        args.get(1).and_then(|a| a.value()),
    ) else {
        return false;
    };
    let (act, root) = (
        args.get(2).and_then(|a| a.op()),
        args.get(3).and_then(|a| a.op()),
    );
    let pattern = string_of(args.get(4).and_then(|a| a.attr()));
    if !ops_are(&[(act, activation_of(&pattern)), (root, "dit.mul")]) {
        return false;
    }
    let Some((whole, half)) = halves(gate, up) else {
        return false;
    };
    let Some(root) = root else {
        return false;
    };
    let check = (|| {
        if half == GateHalf::Second {
            return Err(format!(
                "the gate is the second half of the tensor; {} takes it from the first half (swap the producer's weight rows to use it)",
                if pattern == "enable_gelu_mul" { "dit.gelu_mul" } else { "dit.swiglu" }
            ));
        }
        let (w, r) = (
            whole.tensor().ok_or("no ranked type")?,
            root.result(0).tensor().ok_or("no ranked type")?,
        );
        let mut expected = w.shape.clone();
        if let Some(last) = expected.last_mut() {
            *last = last.map(|d| d / 2);
        }
        if !w.elem.is_float() || w.elem != r.elem || !shapes_compatible(&expected, &r.shape) {
            return Err("the product's type is not the halved input's type".to_string());
        }
        Ok(())
    })();
    fits(
        state,
        args.get(4).and_then(|a| a.attr()),
        Some(root.result(0)),
        check,
    )
}

/// Rewrite: `EraseDeadProducers(v)`: erases the op that produced `v` if nothing uses its
/// results any more, then its operands' producers the same way, through the pattern rewriter
/// (so the greedy driver knows). A pattern calls it after `replace` on the values its rewrite
/// bypassed: dead intermediates would otherwise keep `HasOneUse` from holding for the next
/// pattern until the pass's final DCE.
fn erase_dead_producers(
    args: Args,
    _: &NativeState,
    _: MlirPDLResultList,
    rewriter: MlirPatternRewriter,
) -> bool {
    let mut pending: Vec<Op> = args
        .iter()
        .filter_map(|a| a.value())
        .filter_map(|v| v.defining_op())
        .collect();
    while let Some(op) = pending.pop() {
        if op.has_uses() || !crate::dit_dce::is_side_effect_free(op) {
            continue;
        }
        let producers: Vec<Op> = op
            .operands()
            .into_iter()
            .filter_map(|v| v.defining_op())
            .collect();
        // SAFETY: the op is alive, unused, and erased through the driver's own rewriter.
        unsafe { mlirRewriterBaseEraseOp(mlirPatternRewriterAsBase(rewriter), op.0) };
        for p in producers {
            if !pending.contains(&p) {
                pending.push(p);
            }
        }
    }
    true
}

/// Rewrite: `WholeOfHalves(gate) -> Value`: the tensor the gate's split or slice reads.
fn whole_of_halves(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    _: MlirPatternRewriter,
) -> bool {
    let Some(op) = args
        .first()
        .and_then(|a| a.value())
        .and_then(|v| v.defining_op())
    else {
        return false;
    };
    // SAFETY: the result list is the interpreter's; the value is alive.
    unsafe { mlirPDLResultListPushBackValue(results, op.operand(0).0) };
    true
}

/// aclnnGeluMul's limit on the last dim of its input.
const GELU_MUL_MAX_WIDTH: i64 = 1024;

/// Constraint: `GeluMulWidthFits(gate, up, act, root, pattern)`.
fn gelu_mul_width_fits(args: Args, state: &NativeState) -> bool {
    let (Some(gate), Some(up)) = (
        args.first().and_then(|a| a.value()),
        args.get(1).and_then(|a| a.value()),
    ) else {
        return false;
    };
    let (act, root) = (
        args.get(2).and_then(|a| a.op()),
        args.get(3).and_then(|a| a.op()),
    );
    if !ops_are(&[(act, "dit.gelu"), (root, "dit.mul")]) {
        return false;
    }
    let (Some((whole, GateHalf::First)), Some(root)) = (halves(gate, up), root) else {
        return false;
    };
    let check = match whole.tensor().and_then(|t| t.dim_from_back(0)) {
        Some(d) if d <= GELU_MUL_MAX_WIDTH => Ok(()),
        Some(d) => Err(format!(
            "last dim {d} > {GELU_MUL_MAX_WIDTH} (aclnnGeluMul's limit)"
        )),
        None => Err(format!(
            "last dim is dynamic; aclnnGeluMul needs it <= {GELU_MUL_MAX_WIDTH}"
        )),
    };
    fits(
        state,
        args.get(4).and_then(|a| a.attr()),
        Some(root.result(0)),
        check,
    )
}

/// Constraint: `QuantMatmulGeluFits(q, root, pattern)`.
fn quant_matmul_gelu_fits(args: Args, state: &NativeState) -> bool {
    let (q, root) = (
        args.first().and_then(|a| a.op()),
        args.get(1).and_then(|a| a.op()),
    );
    if !ops_are(&[(q, "dit.quant_matmul"), (root, "dit.gelu")]) {
        return false;
    }
    let (Some(q), Some(root)) = (q, root) else {
        return false;
    };
    let Some(spec) = dit_dialect::ops::spec("dit.quant_matmul") else {
        return false;
    };
    let Ok(ins) = dit_dialect::ops::Operands::resolve(q, spec) else {
        return false;
    };
    // The operand count matched the pattern; the segments decide which slots those are.
    let Some(pertoken) = ins.get("pertoken_scale") else {
        return false;
    };
    let check = (|| {
        if !state.target.fused_quant_matmul {
            return Err(format!(
                "target {} has no FusedQuantMatmul (Atlas A2/A3 only)",
                state.target.name
            ));
        }
        if ins.get("offset").is_some() {
            return Err(
                "quant_matmul has an offset, which FusedQuantMatmul does not take".to_string(),
            );
        }
        let t = |v: Option<Val>| v.and_then(|v| v.tensor());
        let (x1, x2) = (
            t(ins.get("x1")).ok_or("x1 untyped")?,
            t(ins.get("x2")).ok_or("x2 untyped")?,
        );
        let a8w8 = x1.elem == Elem::I8 && x2.elem == Elem::I8;
        let a4w4 = x1.elem == Elem::I4 && x2.elem == Elem::I4;
        if !(a8w8 || a4w4) {
            return Err(format!(
                "x1 {} x x2 {} is neither A8W8 nor A4W4",
                x1.elem, x2.elem
            ));
        }
        if bool_attr(q, "transpose_x1") != Some(false)
            || bool_attr(q, "transpose_x2") != Some(false)
        {
            return Err(
                "x1 or x2 is transposed; FusedQuantMatmul takes x1 as [M, K] and x2 as [K, N]"
                    .to_string(),
            );
        }
        if i64_attr(q, "group_size").unwrap_or(0) != 0
            || str_attr(q, "x2_format").is_some_and(|f| f != "ND")
        {
            return Err(
                "per-group or FRACTAL_NZ quant_matmul has no fused GELU kernel".to_string(),
            );
        }
        let p = t(Some(pertoken)).ok_or("pertoken untyped")?;
        if p.elem != Elem::F32 || p.rank() != 1 {
            return Err(format!(
                "pertoken_scale must be f32 [M], got {} rank {}",
                p.elem,
                p.rank()
            ));
        }
        let scale = t(ins.get("scale")).ok_or("scale untyped")?;
        if !matches!(scale.elem, Elem::F32 | Elem::BF16) || scale.rank() != 1 {
            return Err(format!(
                "scale must be f32 or bf16 [N] or [1], got {} rank {}",
                scale.elem,
                scale.rank()
            ));
        }
        let bias = t(ins.get("bias"));
        let out = t(Some(root.result(0))).ok_or("result untyped")?;
        let wants_bf16 =
            scale.elem == Elem::BF16 || bias.as_ref().is_some_and(|b| b.elem == Elem::BF16);
        let out_ok = if wants_bf16 {
            out.elem == Elem::BF16
        } else {
            matches!(out.elem, Elem::F16 | Elem::BF16)
        };
        if !out_ok {
            return Err(format!(
                "output {} is not allowed (f16 or bf16; bf16 when scale or bias is bf16)",
                out.elem
            ));
        }
        Ok(())
    })();
    fits(
        state,
        args.get(2).and_then(|a| a.attr()),
        Some(root.result(0)),
        check,
    )
}

/// Constraint: `GmmSwigluQuantFits(g, s, root, pattern)`.
fn gmm_swiglu_quant_fits(args: Args, state: &NativeState) -> bool {
    let op = |i: usize| args.get(i).and_then(|a| a.op());
    let (g, s, root) = (op(0), op(1), op(2));
    if !ops_are(&[
        (g, "dit.grouped_matmul"),
        (s, "dit.swiglu"),
        (root, "dit.dynamic_quant"),
    ]) {
        return false;
    }
    let (Some(g), Some(s), Some(root)) = (g, s, root) else {
        return false;
    };
    let Some(spec) = dit_dialect::ops::spec("dit.grouped_matmul") else {
        return false;
    };
    let Ok(ins) = dit_dialect::ops::Operands::resolve(g, spec) else {
        return false;
    };
    // The five operands must be x, weight, group_list, scale, per_token_scale (no bias).
    if ins.get("bias").is_some()
        || ins.get("scale").is_none()
        || ins.get("per_token_scale").is_none()
    {
        return false;
    }
    let check = (|| {
        let t = |v: Option<Val>| v.and_then(|v| v.tensor());
        let (x, w) = (
            t(ins.get("x")).ok_or("x untyped")?,
            t(ins.get("weight")).ok_or("weight untyped")?,
        );
        if x.elem != Elem::I8 || w.elem != Elem::I8 {
            return Err(format!(
                "x {} x weight {} is not int8 x int8",
                x.elem, w.elem
            ));
        }
        let (ws, xs) = (
            t(ins.get("scale")).ok_or("scale untyped")?,
            t(ins.get("per_token_scale")).ok_or("scale untyped")?,
        );
        if ws.elem != Elem::F32 || xs.elem != Elem::F32 {
            return Err("weight and per-token scales must be f32".to_string());
        }
        let rank = g.result(0).tensor().map_or(0, |t| t.rank()) as i64;
        if !matches!(i64_attr(s, "dim"), Some(d) if d == -1 || d == rank - 1) {
            return Err("the swiglu is not over the last dim".to_string());
        }
        if root.num_operands() != 1 {
            return Err(
                "dynamic_quant has a smooth scale, which the fused kernel does not take"
                    .to_string(),
            );
        }
        let y = t(Some(root.result(0))).ok_or("y untyped")?;
        if y.elem != Elem::I8 {
            return Err(format!(
                "dynamic_quant gives {}, the fused kernel int8",
                y.elem
            ));
        }
        Ok(())
    })();
    fits(
        state,
        args.get(3).and_then(|a| a.attr()),
        Some(root.result(0)),
        check,
    )
}

/// Rewrite: `GmmSwigluVariant(g) -> Attr`.
fn gmm_swiglu_variant(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    _: MlirPatternRewriter,
) -> bool {
    let Some(g) = args.first().and_then(|a| a.op()) else {
        return false;
    };
    let variant = if str_attr(g, "group_list_type").as_deref() == Some("count") {
        "v2"
    } else {
        "v1"
    };
    // SAFETY: the result list is the interpreter's.
    unsafe {
        mlirPDLResultListPushBackAttribute(results, Attr::string(g.context_raw(), variant).0)
    };
    true
}

/// Constraint: `ReportUnquantizedGmm(g, s, pattern)`: records and never holds.
fn report_unquantized_gmm(args: Args, state: &NativeState) -> bool {
    let (g, s) = (
        args.first().and_then(|a| a.op()),
        args.get(1).and_then(|a| a.op()),
    );
    if !ops_are(&[(g, "dit.grouped_matmul"), (s, "dit.swiglu")]) {
        return false;
    }
    let quantized = g
        .and_then(|g| g.operand(0).tensor())
        .is_some_and(|t| t.elem == Elem::I8);
    if !quantized {
        let reason = "unquantized grouped_matmul: GroupedMatmulSwigluQuant is an int8 kernel; only the SwiGLU fused (dit.swiglu)";
        fits(
            state,
            args.get(2).and_then(|a| a.attr()),
            s.map(|s| s.result(0)),
            Err(reason.to_string()),
        );
    }
    false
}

/// Constraint: `SameTypes(a, b, c)`: one float tensor type.
fn same_types(args: Args, _: &NativeState) -> bool {
    let v: Vec<Val> = args.iter().filter_map(|a| a.value()).collect();
    v.len() == 3
        && v[0].same_type(v[1])
        && v[0].same_type(v[2])
        && v[0].tensor().is_some_and(|t| t.elem.is_float())
}

/// Constraint: `IsF32(v)`.
fn is_f32(args: Args, _: &NativeState) -> bool {
    args.first()
        .and_then(|a| a.value())
        .and_then(|v| v.tensor())
        .is_some_and(|t| t.elem == Elem::F32)
}

/// Rewrite: `SplatAsF32(cst) -> Attr`.
fn splat_as_f32(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    _: MlirPatternRewriter,
) -> bool {
    let Some(cst) = args.first().and_then(|a| a.attr()) else {
        return false;
    };
    let Some(value) = splat_float(cst) else {
        return false;
    };
    // SAFETY: the attribute's context is the IR's; the result list is the interpreter's.
    unsafe {
        let context = mlirAttributeGetContext(cst.0);
        mlirPDLResultListPushBackAttribute(results, Attr::f32(context, value as f32).0);
    }
    true
}

/// Rewrite: `ReportApplied(op, pattern, detail)`.
fn report_applied(
    args: Args,
    state: &NativeState,
    _: MlirPDLResultList,
    _: MlirPatternRewriter,
) -> bool {
    let Some(op) = args.first().and_then(|a| a.op()) else {
        return false;
    };
    let pattern = string_of(args.get(1).and_then(|a| a.attr()));
    let detail = string_of(args.get(2).and_then(|a| a.attr()));
    state.report.applied(intern(pattern), op, detail);
    true
}

/// Switch names live as long as the program (the report keys them by `&'static str`).
fn intern(name: String) -> &'static str {
    crate::fusion::SWITCHES
        .iter()
        .find(|s| s.name == name)
        .map(|s| s.name)
        .unwrap_or("unknown-pattern")
}

pub type ConstraintFn = fn(Args, &NativeState) -> bool;
pub type RewriteFn = fn(Args, &NativeState, MlirPDLResultList, MlirPatternRewriter) -> bool;

/// Every native constraint, by the name PDLL declares.
pub const CONSTRAINTS: &[(&str, ConstraintFn)] = &[
    ("HasOneUse", has_one_use),
    ("IsScalarSplat", is_scalar_splat),
    ("SplatNear", splat_near),
    ("ConstNear", const_near),
    ("IsLastDimMean", is_last_dim_mean),
    ("IsSquareOf", is_square_of),
    ("IsValueOrCastOf", is_value_or_cast_of),
    ("RmsNormFits", rms_norm_fits),
    ("AdaLayerNormFits", ada_layer_norm_fits),
    ("IsEpsilon", is_epsilon),
    ("GateIsFirstHalf", gate_is_first_half),
    ("GeluMulWidthFits", gelu_mul_width_fits),
    ("SameTypes", same_types),
    ("IsF32", is_f32),
    ("QuantMatmulGeluFits", quant_matmul_gelu_fits),
    ("GmmSwigluQuantFits", gmm_swiglu_quant_fits),
    ("ReportUnquantizedGmm", report_unquantized_gmm),
];

/// Every native rewrite, by the name PDLL declares.
///
/// A rewrite must not fail: MLIR's greedy driver aborts the process when a native rewrite
/// reports failure. Every check belongs in a constraint of the same pattern; rewrites only
/// compute what those constraints already vouched for.
pub const REWRITES: &[(&str, RewriteFn)] = &[
    ("SplatAsF32", splat_as_f32),
    ("ReportApplied", report_applied),
    ("StripCast", strip_cast),
    ("EpsilonOf", epsilon_of),
    ("WholeOfHalves", whole_of_halves),
    ("GmmSwigluVariant", gmm_swiglu_variant),
    ("EraseDeadProducers", erase_dead_producers),
];

/// What the interpreter's user data points to for one registered function.
pub struct Registered {
    pub state: *const NativeState,
    pub constraint: Option<ConstraintFn>,
    /// A rewrite, or a constraint that returns values (same signature).
    pub rewrite: Option<RewriteFn>,
}

fn args(n: usize, values: *mut MlirPDLValue) -> Vec<PdlArg> {
    if values.is_null() {
        return Vec::new();
    }
    // SAFETY: the interpreter passes `n` values.
    unsafe { std::slice::from_raw_parts(values, n) }
        .iter()
        .map(|v| PdlArg(*v))
        .collect()
}

/// The C callback for every native constraint. A panic is caught: it counts as "no match".
///
/// # Safety
///
/// Called by MLIR's PDL interpreter only: `values` holds `n` live PDL values and `data` is the
/// `Registered` entry the pattern engine registered and keeps alive while patterns run.
pub unsafe extern "C" fn constraint_trampoline(
    rewriter: MlirPatternRewriter,
    results: MlirPDLResultList,
    n: usize,
    values: *mut MlirPDLValue,
    data: *mut c_void,
) -> MlirLogicalResult {
    // SAFETY: `data` is a `Registered` kept alive by the pattern engine while patterns run.
    let registered = unsafe { &*(data as *const Registered) };
    let state = unsafe { &*registered.state };
    let args = args(n, values);
    let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        match (registered.constraint, registered.rewrite) {
            (Some(f), _) => f(&args, state),
            (None, Some(f)) => f(&args, state, results, rewriter),
            (None, None) => false,
        }
    }))
    .unwrap_or(false);
    MlirLogicalResult {
        value: i8::from(ok),
    }
}

/// The C callback for every native rewrite.
///
/// # Safety
///
/// As for [`constraint_trampoline`].
pub unsafe extern "C" fn rewrite_trampoline(
    rewriter: MlirPatternRewriter,
    results: MlirPDLResultList,
    n: usize,
    values: *mut MlirPDLValue,
    data: *mut c_void,
) -> MlirLogicalResult {
    // SAFETY: as in constraint_trampoline.
    let registered = unsafe { &*(data as *const Registered) };
    let state = unsafe { &*registered.state };
    let args = args(n, values);
    let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        registered
            .rewrite
            .is_some_and(|f| f(&args, state, results, rewriter))
    }))
    .unwrap_or(false);
    MlirLogicalResult {
        value: i8::from(ok),
    }
}
