//! Natives of the rotary-embedding patterns (patterns/rope.pdll): recognising rotate(x)
//! through the reshapes, splits, slices, negations and concatenations the model code uses.

use super::*;
use crate::analysis::cost;
use dit_dialect::ops::OpKind;

mod scatter;

/// The two rotations dit.rope implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Pairs (x[2i], x[2i+1]) -> (-x[2i+1], x[2i]).
    Interleave,
    /// Halves (x1, x2) -> (-x2, x1).
    Half,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Interleave => "interleave",
            Mode::Half => "half",
        }
    }
}

/// The value under any chain of dit.reshape ops.
fn through_reshapes(mut v: Val) -> Val {
    while let Some(op) = v.defining_op().filter(|o| o.is_kind(OpKind::Reshape)) {
        v = op.operand(0);
    }
    v
}

/// Whether `op` is a dit.slice over the last dim with the given start and step that runs to
/// the end.
fn is_slice_of_last(op: Op, start: i64, step: i64, end_at: i64) -> bool {
    let rank = op.operand(0).tensor().map_or(0, |t| t.rank() as i64);
    let dim = i64_attr(op, "dim");
    let size = op.operand(0).tensor().and_then(|t| t.dim_from_back(0));
    let end = i64_attr(op, "end");
    op.is_kind(OpKind::Slice)
        && matches!(dim, Some(d) if d == -1 || d == rank - 1)
        && i64_attr(op, "start") == Some(start)
        && i64_attr(op, "step") == Some(step)
        && matches!((end, size), (Some(e), Some(s)) if e >= s.min(end_at) && end_at <= s)
}

/// The (first, second) element streams of `x` along its last dim, as `real`/`imag` (stride 2)
/// or halves: the value each part comes from, for the interleaved form: the split of
/// reshape(x, [.., D/2, 2]) along the last dim (results 0 and 1), or slices x[..., 0::2] and
/// x[..., 1::2].
fn interleaved_parts<'a>(real: Val<'a>, imag: Val<'a>) -> Option<Val<'a>> {
    let (r, i) = (through_reshapes(real), through_reshapes(imag));
    let (ro, io) = (r.defining_op()?, i.defining_op()?);
    if ro.is_kind(OpKind::Split) && ro == io {
        let pairs = ro.operand(0).tensor()?;
        let last = pairs.rank() as i64 - 1;
        let dim = i64_attr(ro, "dim")?;
        let sizes = i64_array_attr(ro, "sizes")?;
        let ok = (dim == -1 || dim == last) && sizes == [1, 1] && pairs.dim_from_back(0) == Some(2);
        return (ok && ro.result(0) == r && ro.result(1) == i)
            .then(|| through_reshapes(ro.operand(0)));
    }
    if ro.is_kind(OpKind::Slice) && io.is_kind(OpKind::Slice) && ro.operand(0) == io.operand(0) {
        let d = ro.operand(0).tensor()?.dim_from_back(0)?;
        return (is_slice_of_last(ro, 0, 2, d) && is_slice_of_last(io, 1, 2, d))
            .then(|| ro.operand(0));
    }
    None
}

/// The halves (first, second) of `x` along the last dim, if `a` and `b` are them.
fn half_parts<'a>(first: Val<'a>, second: Val<'a>) -> Option<Val<'a>> {
    let (f, s) = (first.defining_op()?, second.defining_op()?);
    if f.is_kind(OpKind::Split) && f == s {
        let x = f.operand(0).tensor()?;
        let last = x.rank() as i64 - 1;
        let sizes = i64_array_attr(f, "sizes")?;
        let dim = i64_attr(f, "dim")?;
        let ok = (dim == -1 || dim == last) && sizes.len() == 2 && sizes[0] == sizes[1];
        return (ok && f.result(0) == first && f.result(1) == second).then(|| f.operand(0));
    }
    if f.is_kind(OpKind::Slice) && s.is_kind(OpKind::Slice) && f.operand(0) == s.operand(0) {
        let d = f.operand(0).tensor()?.dim_from_back(0)?;
        let h = d / 2;
        let ok = d % 2 == 0
            && is_slice_of_last(f, 0, 1, h)
            && i64_attr(f, "end") == Some(h)
            && is_slice_of_last(s, h, 1, d);
        return ok.then(|| f.operand(0));
    }
    None
}

/// Whether `rotated` is rotate(x) and in which form.
fn rotation_of(rotated: Val, x: Val) -> Option<Mode> {
    // Both forms end in a concat along the last dim (the interleaved one under a reshape).
    let concat = through_reshapes(rotated)
        .defining_op()
        .filter(|c| c.is_kind(OpKind::Concat))?;
    if concat.num_operands() != 2 {
        return None;
    }
    let rank = concat.result(0).tensor()?.rank() as i64;
    if !matches!(i64_attr(concat, "dim"), Some(d) if d == -1 || d == rank - 1) {
        return None;
    }
    let negated = through_reshapes(concat.operand(0))
        .defining_op()
        .filter(|n| n.is_kind(OpKind::Neg))?;
    let (minus, plus) = (negated.operand(0), concat.operand(1));
    // Interleaved: stack(-imag, real) flattened back to x's shape.
    if rotated.same_type(x) && rotated != through_reshapes(rotated) {
        if let Some(source) = interleaved_parts(plus, minus) {
            if through_reshapes(source) == x || source == x {
                return Some(Mode::Interleave);
            }
        }
    }
    // Half: cat(-x2, x1).
    if rotated.same_type(x) {
        if let Some(source) = half_parts(plus, minus) {
            if source == x {
                return Some(Mode::Half);
            }
        }
    }
    None
}

/// x and rotate(x) under their casts, if `rf` is a rotation of `xf`'s source.
fn rope_parts<'a>(xf: Val<'a>, rf: Val<'a>) -> Option<(Val<'a>, Mode)> {
    let x = without_cast(xf);
    let rotated = without_cast(rf);
    // Either both products are taken in the source type, or both on casts of it.
    if (xf == x) != (rf == rotated) {
        return None;
    }
    rotation_of(rotated, x).map(|m| (x, m))
}

/// What dit.rope's tables need before aclnnRotaryPositionEmbedding takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tables {
    /// The kernel takes cos and sin as they are.
    AsIs,
    /// cos and sin are load-time values in another dtype than x's: the kernel takes them once
    /// cast to x's dtype, a cast the pre-pack does at load. `rule` is the one the uncast tables
    /// break.
    CastAtLoad { rule: &'static str },
}

/// The kernel rules a table dtype cast repairs.
const TABLE_DTYPE_RULES: &[&str] = &["rope.cos_dtype", "rope.sin_dtype"];

/// Whether the kernel takes `x`, `cos`, `sin` for `mode`, and how: as they are, or with the
/// tables cast to x's dtype at load time. The refusal names the broken rule.
fn tables_plan(
    state: &NativeState,
    x: Val,
    cos: Val,
    sin: Val,
    mode: Mode,
) -> Result<Tables, String> {
    let attrs = contract::str_attrs(&[("mode", mode.name())]);
    let operands = [x, cos, sin].map(contract::desc);
    let refusal = match contract::kernel_accepts(state, OpKind::Rope, &attrs, &operands) {
        Ok(()) => return Ok(Tables::AsIs),
        Err(reason) => reason,
    };
    let broken = contract::broken_rule(state, OpKind::Rope, &attrs, &operands);
    let Some(rule) = broken.filter(|r| TABLE_DTYPE_RULES.contains(r)) else {
        return Err(refusal);
    };
    let x_dtype = operands[0].as_ref().map(|d| d.dtype);
    let cast = operands.clone().map(|d| {
        d.map(|mut d| {
            d.dtype = x_dtype.unwrap_or(d.dtype);
            d
        })
    });
    // Only the dtype agreement may be what a cast repairs: the cast tables must pass every rule.
    if contract::kernel_accepts(state, OpKind::Rope, &attrs, &cast).is_err() {
        return Err(refusal);
    }
    if !(cost::is_load_time_value(cos) && cost::is_load_time_value(sin)) {
        return Err(format!(
            "{refusal}; cos and sin are computed per call (not function arguments or views of \
             them), so no load-time cast can give them x's dtype"
        ));
    }
    Ok(Tables::CastAtLoad { rule })
}

/// Constraint: `RopeFits(xf, rf, cos, sin, xc, rs, sum, out, pattern)`.
fn rope_fits(args: Args, state: &NativeState) -> bool {
    let v = |i: usize| args.value_at(i);
    let o = |i: usize| args.op_at(i);
    let (Some(xf), Some(rf), Some(cos), Some(sin), Some(out)) = (v(0), v(1), v(2), v(3), v(7))
    else {
        return false;
    };
    if !ops_are(&[
        (o(4), OpKind::Mul),
        (o(5), OpKind::Mul),
        (o(6), OpKind::Add),
    ]) {
        return false;
    }
    let Some((x, mode)) = rope_parts(xf, rf) else {
        return false;
    };
    let check = (|| {
        let xt = x.tensor().ok_or("x untyped")?;
        if !xt.elem.is_float() || xt.rank() < 2 {
            return Err("x must be a float tensor of rank >= 2".to_string());
        }
        if !x.same_type(out) {
            return Err("the result type differs from x's".to_string());
        }
        for (name, t) in [("cos", cos), ("sin", sin)] {
            let tt = t.tensor().ok_or("untyped table")?;
            let fitsx = broadcast_shapes(&tt.shape, &xt.shape)
                .is_some_and(|b| shapes_compatible(&b, &xt.shape));
            if !fitsx
                || !tt.elem.is_float()
                || !dims_compatible(tt.dim_from_back(0), xt.dim_from_back(0))
            {
                return Err(format!(
                    "{name} does not broadcast to x over its full last dim"
                ));
            }
        }
        if !cos.same_type(sin) {
            return Err("cos and sin have different types".to_string());
        }
        // aclnnRotaryPositionEmbedding takes cos and sin in x's dtype (rope.cos_dtype). The
        // models build f32 tables for bf16 x (products in f32): when the tables are load-time
        // values the rewrite casts them (RopeTable), once in the pre-pack; computed per call,
        // a cast would be a kernel per call, and the pattern is left alone.
        tables_plan(state, x, cos, sin, mode).map(|_| ())
    })();
    fits(state, args.attr_at(8), Some(out), check)
}

/// Rewrite: `ReportRope(root, xf, rf, cos, sin, pattern, detail)`: `ReportApplied` with the
/// table cast, if the rewrite makes one, said in the detail (the tables lose precision).
fn report_rope(
    args: Args,
    state: &NativeState,
    _: MlirPDLResultList,
    _: MlirPatternRewriter,
) -> bool {
    let Some(root) = args.op_at(0) else {
        return false;
    };
    let mut detail = string_of(args.attr_at(6));
    let v = |i: usize| args.value_at(i);
    if let (Some(xf), Some(rf), Some(cos), Some(sin)) = (v(1), v(2), v(3), v(4)) {
        if let Some((x, mode)) = rope_parts(xf, rf) {
            if let Ok(Tables::CastAtLoad { rule }) = tables_plan(state, x, cos, sin, mode) {
                let elem = x.tensor().map(|t| t.elem.to_string()).unwrap_or_default();
                detail.push_str(&format!(
                    " (cos/sin cast to {elem} once at load: rule {rule})"
                ));
            }
        }
    }
    state
        .report
        .applied(intern(string_of(args.attr_at(5))), root, detail);
    true
}

/// Rewrite: `RopeTable(t, x, root) -> Value`: the table `t` in x's element type: `t` itself,
/// or a dit.cast of it (one per table value: a cast an earlier rope made is reused) before
/// `root`. RopeFits vouched that `t` is a load-time value, so the pre-pack can make the cast
/// (cost::placement puts it there unless a per-call op also reads the view it casts).
fn rope_table(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    rewriter: MlirPatternRewriter,
) -> bool {
    let (Some(t), Some(x), Some(root)) = (args.value_at(0), args.value_at(1), args.op_at(2)) else {
        return false;
    };
    let (Some(tt), Some(xt)) = (t.tensor(), x.tensor()) else {
        return false;
    };
    let table = if tt.elem == xt.elem {
        t
    } else {
        let Some(ty) = dit_dialect::ir::tensor_type(root.context_raw(), &tt.shape, &xt.elem) else {
            return false;
        };
        let earlier = t.users().into_iter().find(|u| {
            u.is_kind(OpKind::Cast)
                && u.block().map(|b| b.raw().ptr) == root.block().map(|b| b.raw().ptr)
                && u.is_before_in_block(root)
                && u.result(0).tensor().is_some_and(|c| c.elem == xt.elem)
        });
        match earlier {
            Some(cast) => cast.result(0),
            None => {
                // SAFETY: the root is alive; the cast goes right before it.
                unsafe {
                    mlirRewriterBaseSetInsertionPointBefore(
                        mlirPatternRewriterAsBase(rewriter),
                        root.raw(),
                    )
                };
                create_via_rewriter(rewriter, root, OpKind::Cast, &[t], ty, &[])
            }
        }
    };
    // SAFETY: the result list is the interpreter's; the value is alive.
    unsafe { mlirPDLResultListPushBackValue(results, table.raw()) };
    true
}

/// Rewrite: `RopeMode(xf, rf) -> Attr`.
fn rope_mode(
    args: Args,
    _: &NativeState,
    results: MlirPDLResultList,
    _: MlirPatternRewriter,
) -> bool {
    let (Some(xf), Some(rf)) = (args.value_at(0), args.value_at(1)) else {
        return false;
    };
    let mode = rope_parts(xf, rf).map_or(Mode::Interleave, |(_, m)| m);
    // SAFETY: the result list is the interpreter's.
    unsafe {
        mlirPDLResultListPushBackAttribute(
            results,
            Attr::string(xf.context_raw(), mode.name()).raw(),
        )
    };
    true
}

/// The constraints of this topic, by the names PDLL declares.
pub const CONSTRAINTS: &[(&str, ConstraintFn)] = &[
    ("RopeFits", rope_fits),
    ("RopeScatterFits", scatter::rope_scatter_fits),
];

/// The rewrites of this topic, by the names PDLL declares.
pub const REWRITES: &[(&str, RewriteFn)] = &[
    ("RopeMode", rope_mode),
    ("ReportRope", report_rope),
    ("RopeTable", rope_table),
    ("RopeScatter", scatter::rope_scatter),
];
