//! The dit verifier: the rules of DIALECT.md that ODS cannot state (element types per op,
//! enum values of optional attributes, shape rules). MLIR's verifier runs them through the
//! ODS verifier hook of every dit op ([`ditVerifyRustRules`]); dit's tools also run them after
//! parsing (reporting every broken rule, not only the first) and after every pass. Each failure is reported at the op's location, naming the op and the rule.

use std::cell::Cell;

use crate::{
    diagnostics::{emit_error, nearest_location},
    ir::{Attr, Op, Val},
    ops::{OpKind, OpSpec, Operands},
    tensor::{
        broadcast_shapes, dims_compatible, shape_string, shapes_compatible, Dim, Elem, TensorInfo,
    },
};

/// A broken rule: which op, which rule, and what is wrong.
#[derive(Clone, Debug)]
pub struct Violation<'a> {
    pub op: Op<'a>,
    /// A short stable name of the rule, e.g. `transpose.perm`.
    pub rule: &'static str,
    pub message: String,
}

impl Violation<'_> {
    /// The message as printed: `'dit.x' op <message> [rule <rule>]`.
    pub fn text(&self) -> String {
        format!(
            "'{}' op {} [rule {}]",
            self.op.name(),
            self.message,
            self.rule
        )
    }
}

type Check = Result<(), (&'static str, String)>;

macro_rules! ensure {
    ($cond:expr, $rule:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(($rule, format!($($fmt)+)));
        }
    };
}

/// Verifies every dit op nested in `root`; returns every violation (empty when valid).
pub fn verify(root: Op<'_>) -> Vec<Violation<'_>> {
    let mut violations = Vec::new();
    root.walk(&mut |op| {
        if let Err((rule, message)) = verify_op(op) {
            violations.push(Violation { op, rule, message });
        }
    });
    violations
}

/// Verifies `root` and reports each violation through the context's diagnostics.
/// Returns whether the IR is valid.
pub fn verify_and_report(root: Op) -> bool {
    let violations = verify(root);
    for v in &violations {
        emit_error(nearest_location(v.op), &v.text());
    }
    violations.is_empty()
}

thread_local! {
    /// Whether [`ditVerifyRustRules`] leaves the Rust rules to its caller on this thread
    /// (see [`with_hook_deferred`]).
    static HOOK_DEFERRED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` (a parse) with the verifier hook off on this thread, for a caller that runs
/// [`verify`] or [`verify_and_report`] right after: those report every broken rule of the
/// module, where MLIR's verifier stops at the first op that fails. The ODS constraints are
/// still checked.
pub fn with_hook_deferred<T>(f: impl FnOnce() -> T) -> T {
    /// Restores the previous state, also when `f` unwinds.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            HOOK_DEFERRED.with(|d| d.set(self.0));
        }
    }
    let _restore = Restore(HOOK_DEFERRED.with(|d| d.replace(true)));
    f()
}

/// The verifier hook of every dit op: the ODS `verify()` (lib/DitDialect.cpp) calls it, so
/// MLIR's own verifier, in any tool that loads the dialect, checks these rules after the ODS
/// constraints. Reports the broken rule at the op's location and returns false.
///
/// A panic must not unwind into MLIR's C++ frames: it is caught here and reported as an
/// error at the op instead.
#[no_mangle]
pub extern "C" fn ditVerifyRustRules(op: mlir_sys::MlirOperation) -> bool {
    if HOOK_DEFERRED.with(Cell::get) {
        return true;
    }
    // SAFETY: MLIR calls the hook with the live op it verifies; the handle does not outlive
    // the call.
    let op = unsafe { Op::from_raw(op) };
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| verify_op(op)));
    let text = match outcome {
        Ok(Ok(())) => return true,
        Ok(Err((rule, message))) => Violation { op, rule, message }.text(),
        Err(_) => format!("'{}' op: internal error in the dit verifier", op.name()),
    };
    emit_error(nearest_location(op), &text);
    false
}

extern "C" {
    /// lib/DitDialect.cpp: whether `op` is a dit op whose signature (name, attributes,
    /// operand and result types) already kept these rules in its context. Ops with regions
    /// and dit.yield, whose rules read more than their signature, are never recorded.
    fn ditRulesHeldBefore(op: mlir_sys::MlirOperation) -> bool;
    /// lib/DitDialect.cpp: records that the rules held for `op`'s signature.
    fn ditRulesHeld(op: mlir_sys::MlirOperation);
}

/// Verifies one op (non-dit ops pass). The rules of an op without regions are a function of
/// its signature, and the result for each signature that held is kept by the dialect: MLIR
/// verifies the module after every pass, and a DiT graph repeats a few hundred signatures
/// thousands of times.
pub fn verify_op(op: Op) -> Check {
    // SAFETY: the op is alive (module invariant of `Op`); the cache belongs to its context.
    if unsafe { ditRulesHeldBefore(op.raw()) } {
        return Ok(());
    }
    let checked = check_rules(op);
    if checked.is_ok() {
        // SAFETY: as above.
        unsafe { ditRulesHeld(op.raw()) };
    }
    checked
}

/// The rules of one op, checked (non-dit ops pass).
fn check_rules(op: Op) -> Check {
    let Some(kind) = op.kind() else {
        return Ok(());
    };
    let spec = kind.spec();
    let ins = Operands::resolve(op, spec).map_err(|m| ("operand-segments", m))?;
    let outs = check_types(op, spec)?;
    if kind.is_binary() {
        return binary(op, &ins, &outs);
    }
    if kind.is_unary() {
        return unary(op, &ins, &outs);
    }
    match kind {
        OpKind::Cast => cast(&ins, &outs),
        OpKind::ReduceMean | OpKind::ReduceSum => reduce(op, &ins, &outs),
        OpKind::Softmax => softmax(op, &ins, &outs),
        OpKind::Reshape => reshape(&ins, &outs),
        OpKind::Broadcast => broadcast(&ins, &outs),
        OpKind::Bitcast => bitcast(&ins, &outs),
        OpKind::Transpose => transpose(op, &ins, &outs),
        OpKind::Slice => slice(op, &ins, &outs),
        OpKind::Split => split(op, &ins, &outs),
        OpKind::Concat => concat(op, &ins, &outs),
        OpKind::Matmul => matmul(op, &ins, &outs),
        OpKind::Linear => linear(&ins, &outs),
        OpKind::RmsNorm => rms_norm(op, &ins, &outs),
        OpKind::LayerNorm => layer_norm(op, &ins, &outs),
        OpKind::Rope => rope(op, &ins, &outs),
        OpKind::Attention => attention(op, &ins, &outs),
        OpKind::DynamicQuant => dynamic_quant(&ins, &outs),
        OpKind::QuantMatmul => quant_matmul(op, &ins, &outs),
        OpKind::GroupedMatmul => grouped_matmul(op, &ins, &outs),
        OpKind::Topk => topk(op, &ins, &outs),
        OpKind::Sort => sort(op, &ins, &outs),
        OpKind::Cumsum => cumsum(op, &ins, &outs),
        OpKind::FloorDiv => floor_div(&ins, &outs),
        OpKind::IndexSelect => index_select(op, &ins, &outs),
        OpKind::ScatterAdd => scatter_add(op, &ins, &outs),
        OpKind::IndexAdd => index_add(op, &ins, &outs),
        OpKind::MoeInitRouting => moe_init_routing(op, &ins, &outs),
        OpKind::MoeFinalizeRouting => moe_finalize_routing(&ins, &outs),
        OpKind::Opaque => opaque(op),
        OpKind::MulsAdd => muls_add(op, &ins, &outs),
        OpKind::AdaLayerNorm => ada_layer_norm(op, &ins, &outs),
        OpKind::QuantMatmulGelu => quant_matmul_gelu(op, &ins, &outs),
        OpKind::FusedMatmul => fused_matmul(op, &ins, &outs),
        OpKind::GroupedMatmulSwigluQuant => grouped_matmul_swiglu_quant(op, &ins, &outs),
        OpKind::Swiglu => swiglu(op, &ins, &outs),
        OpKind::SiluMul => silu_mul(&ins, &outs),
        OpKind::GeluMul => gelu_mul(op, &ins, &outs),
        OpKind::KvRmsNormRopeCache => kv_rms_norm_rope_cache(op, &ins, &outs),
        OpKind::MoeGatingTopkSoftmax => moe_gating_topk_softmax(op, &ins, &outs),
        OpKind::Fused => fused(op, &outs),
        OpKind::Yield => yield_(op),
        _ => Ok(()),
    }
}

// ----- shared checks -----

/// Every operand and result is a ranked tensor of a DIALECT.md element type (dit.opaque and
/// the region ops carry whatever they capture, but still only tensors). Returns the results'
/// tensors, read once here for the op's own rules.
fn check_types(op: Op, spec: &OpSpec) -> Result<Vec<TensorInfo>, (&'static str, String)> {
    let lenient = matches!(spec.kind, OpKind::Opaque | OpKind::Fused | OpKind::Yield);
    let mut outs = Vec::with_capacity(op.num_results());
    for (what, values) in [("operand", op.operands()), ("result", op.results())] {
        let is_result = what == "result";
        for (i, v) in values.iter().enumerate() {
            let Some(t) = v.tensor() else {
                return Err((
                    "ranked-tensor",
                    format!("{what} #{i} must be a ranked tensor, got {}", v.ty()),
                ));
            };
            ensure!(
                lenient || t.elem.is_dialect_type(),
                "element-type",
                "{what} #{i} has element type {}, which the dialect does not model",
                t.elem
            );
            ensure!(
                t.checked_bytes().is_some(),
                "size",
                "{what} #{i} ({}) needs more than 2^63-1 bytes",
                v.ty()
            );
            if is_result {
                outs.push(t);
            }
        }
    }
    Ok(outs)
}

fn tensor(v: Val) -> TensorInfo {
    // check_types ran first: every value is a ranked tensor.
    v.tensor().unwrap_or_else(|| TensorInfo {
        elem: Elem::Other("?".into()),
        shape: vec![],
    })
}

fn one(ins: &Operands, slot: &str) -> TensorInfo {
    ins.get(slot).map(tensor).unwrap_or_else(|| TensorInfo {
        elem: Elem::Other("?".into()),
        shape: vec![],
    })
}

fn opt(ins: &Operands, slot: &str) -> Option<TensorInfo> {
    ins.get(slot).map(tensor)
}

fn result_count(outs: &[TensorInfo], n: usize) -> Check {
    ensure!(
        outs.len() == n,
        "result-count",
        "expects {n} result(s), got {}",
        outs.len()
    );
    Ok(())
}

fn elem_in(t: &TensorInfo, allowed: &[Elem], what: &str, rule: &'static str) -> Check {
    if allowed.contains(&t.elem) {
        return Ok(());
    }
    let list: Vec<String> = allowed.iter().map(|e| e.to_string()).collect();
    Err((
        rule,
        format!(
            "{what} element type {} is not one of {{{}}}",
            t.elem,
            list.join(", ")
        ),
    ))
}

const FLOATS: &[Elem] = &[Elem::F32, Elem::F16, Elem::BF16];

fn float(t: &TensorInfo, what: &str) -> Check {
    elem_in(t, FLOATS, what, "float-type")
}

fn same_elem(a: &TensorInfo, b: &TensorInfo, what: &str) -> Check {
    ensure!(
        a.elem == b.elem,
        "same-element-type",
        "{what}: element types {} and {} differ",
        a.elem,
        b.elem
    );
    Ok(())
}

fn shape_is(t: &TensorInfo, expected: &[Dim], what: &str) -> Check {
    ensure!(
        shapes_compatible(&t.shape, expected),
        "shape",
        "{what} has shape [{}], expected [{}]",
        shape_string(&t.shape),
        shape_string(expected)
    );
    Ok(())
}

fn rank_at_least(t: &TensorInfo, n: usize, what: &str) -> Check {
    ensure!(
        t.rank() >= n,
        "rank",
        "{what} must have rank >= {n}, got rank {}",
        t.rank()
    );
    Ok(())
}

/// Normalises a possibly negative dimension index.
fn norm_dim(dim: i64, rank: usize, what: &str) -> Result<usize, (&'static str, String)> {
    let r = rank as i64;
    ensure!(
        dim >= -r && dim < r,
        "dim-range",
        "{what} {dim} is out of range for rank {rank}"
    );
    Ok(if dim < 0 {
        (dim + r) as usize
    } else {
        dim as usize
    })
}

fn req_attr<'a>(op: Op<'a>, name: &str) -> Result<Attr<'a>, (&'static str, String)> {
    op.attr(name)
        .ok_or_else(|| ("required-attribute", format!("requires attribute '{name}'")))
}

fn req_bool(op: Op, name: &str) -> Result<bool, (&'static str, String)> {
    req_attr(op, name)?.as_bool().ok_or_else(|| {
        (
            "attribute-kind",
            format!("attribute '{name}' must be a bool"),
        )
    })
}

/// An optional bool attribute, `default` when absent.
fn opt_bool(op: Op, name: &str, default: bool) -> Result<bool, (&'static str, String)> {
    match op.attr(name) {
        None => Ok(default),
        Some(a) => a.as_bool().ok_or_else(|| {
            (
                "attribute-kind",
                format!("attribute '{name}' must be a bool"),
            )
        }),
    }
}

fn req_i64(op: Op, name: &str) -> Result<i64, (&'static str, String)> {
    req_attr(op, name)?.as_i64().ok_or_else(|| {
        (
            "attribute-kind",
            format!("attribute '{name}' must be an i64 integer"),
        )
    })
}

fn req_i64_array(op: Op, name: &str) -> Result<Vec<i64>, (&'static str, String)> {
    req_attr(op, name)?.as_i64_array().ok_or_else(|| {
        (
            "attribute-kind",
            format!("attribute '{name}' must be an array<i64>"),
        )
    })
}

fn req_f32(op: Op, name: &str) -> Result<f64, (&'static str, String)> {
    let a = req_attr(op, name)?;
    ensure!(
        a.is_f32_float(),
        "attribute-kind",
        "attribute '{name}' must be an f32 float"
    );
    Ok(a.as_f64().unwrap_or(0.0))
}

/// A string attribute that must be one of `allowed`; `default` when absent (None: required).
fn enum_attr(
    op: Op,
    name: &str,
    allowed: &[&str],
    default: Option<&str>,
) -> Result<String, (&'static str, String)> {
    let value = match op.attr(name) {
        None => match default {
            Some(d) => return Ok(d.to_string()),
            None => return Err(("required-attribute", format!("requires attribute '{name}'"))),
        },
        Some(a) => a.as_str().ok_or_else(|| {
            (
                "attribute-kind",
                format!("attribute '{name}' must be a string"),
            )
        })?,
    };
    ensure!(
        allowed.contains(&value.as_str()),
        "enum-value",
        "attribute '{name}' is \"{value}\", expected one of {}",
        allowed
            .iter()
            .map(|s| format!("\"{s}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(value)
}

/// An exact non-negative integer of any size (little-endian 64-bit limbs, no high zero limb
/// except for zero itself): element and bit counts of huge static shapes (a dimension may be
/// up to i64::MAX) overflow every machine integer, and a wrong answer there is a wrong verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Size(Vec<u64>);

impl Size {
    /// The product of `factors`.
    fn product(factors: impl IntoIterator<Item = u64>) -> Size {
        let mut limbs = vec![1u64];
        for f in factors {
            let mut carry = 0u128;
            for l in limbs.iter_mut() {
                // (2^64-1)^2 + (2^64-1) < 2^128: no overflow.
                let v = u128::from(*l) * u128::from(f) + carry;
                *l = v as u64;
                carry = v >> 64;
            }
            if carry > 0 {
                limbs.push(carry as u64);
            }
            while limbs.len() > 1 && limbs.last() == Some(&0) {
                limbs.pop();
            }
        }
        Size(limbs)
    }

    /// The number of elements of a static shape, times `bits` per element; `None` when a
    /// dimension is dynamic.
    fn of_shape(shape: &[Dim], bits: u64) -> Option<Size> {
        let dims: Option<Vec<u64>> = shape
            .iter()
            .map(|d| d.and_then(|v| u64::try_from(v).ok()))
            .collect();
        Some(Size::product(dims?.into_iter().chain([bits])))
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const BASE: u128 = 10_000_000_000_000_000_000; // 10^19 < 2^64
        let mut limbs = self.0.clone();
        let mut parts = Vec::new();
        loop {
            let mut rem = 0u128;
            for l in limbs.iter_mut().rev() {
                let cur = (rem << 64) | u128::from(*l);
                *l = (cur / BASE) as u64;
                rem = cur % BASE;
            }
            parts.push(rem as u64);
            while limbs.len() > 1 && limbs.last() == Some(&0) {
                limbs.pop();
            }
            if limbs == [0] {
                break;
            }
        }
        let mut text = parts.pop().unwrap_or(0).to_string();
        for p in parts.iter().rev() {
            text.push_str(&format!("{p:019}"));
        }
        f.write_str(&text)
    }
}

fn epsilon(op: Op) -> Check {
    let eps = req_f32(op, "epsilon")?;
    // 0 is a valid epsilon (PyTorch accepts it); negative or non-finite ones are not.
    ensure!(
        eps >= 0.0 && eps.is_finite(),
        "epsilon",
        "epsilon must be non-negative and finite, got {eps}"
    );
    Ok(())
}

// ----- per-op rules -----

fn binary(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let (l, r) = (one(ins, "lhs"), one(ins, "rhs"));
    same_elem(&l, &r, "lhs and rhs")?;
    same_elem(&l, &outs[0], "operands and result")?;
    if op.is_kind(OpKind::Pow) || op.is_kind(OpKind::Div) {
        float(&l, "operand")?;
    }
    let b = broadcast_shapes(&l.shape, &r.shape).ok_or_else(|| {
        (
            "broadcast",
            format!(
                "shapes [{}] and [{}] do not broadcast",
                shape_string(&l.shape),
                shape_string(&r.shape)
            ),
        )
    })?;
    shape_is(&outs[0], &b, "result")
}

fn unary(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let x = one(ins, "x");
    ensure!(
        x == outs[0],
        "same-type",
        "result type must equal the operand type"
    );
    if !(op.is_kind(OpKind::Neg) || op.is_kind(OpKind::Relu)) {
        float(&x, "operand")?;
    }
    if op.is_kind(OpKind::Gelu) {
        enum_attr(op, "approximate", &["none", "tanh"], None)?;
    }
    Ok(())
}

fn cast(ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    shape_is(&outs[0], &one(ins, "x").shape, "result")
}

fn reduce(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let x = one(ins, "x");
    let keepdim = req_bool(op, "keepdim")?;
    let mut dims = Vec::new();
    for d in req_i64_array(op, "dims")? {
        let d = norm_dim(d, x.rank(), "reduced dim")?;
        ensure!(
            !dims.contains(&d),
            "reduce.dims",
            "dims lists dimension {d} twice"
        );
        dims.push(d);
    }
    ensure!(!dims.is_empty(), "reduce.dims", "dims must not be empty");
    let expected: Vec<Dim> = (0..x.rank())
        .filter_map(|i| match (dims.contains(&i), keepdim) {
            (true, true) => Some(Some(1)),
            (true, false) => None,
            (false, _) => Some(x.shape[i]),
        })
        .collect();
    same_elem(&x, &outs[0], "operand and result")?;
    shape_is(&outs[0], &expected, "result")
}

fn softmax(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let x = one(ins, "x");
    norm_dim(req_i64(op, "dim")?, x.rank(), "dim")?;
    float(&x, "operand")?;
    ensure!(
        x == outs[0],
        "same-type",
        "result type must equal the operand type"
    );
    Ok(())
}

fn reshape(ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let x = one(ins, "x");
    same_elem(&x, &outs[0], "operand and result")?;
    if let (Some(a), Some(b)) = (
        Size::of_shape(&x.shape, 1),
        Size::of_shape(&outs[0].shape, 1),
    ) {
        ensure!(
            a == b,
            "reshape.element-count",
            "reshape changes the element count from {a} to {b}"
        );
    }
    Ok(())
}

fn broadcast(ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let x = one(ins, "x");
    same_elem(&x, &outs[0], "operand and result")?;
    let ok = x.rank() <= outs[0].rank()
        && broadcast_shapes(&x.shape, &outs[0].shape)
            .is_some_and(|b| shapes_compatible(&b, &outs[0].shape));
    ensure!(
        ok,
        "broadcast",
        "[{}] does not broadcast to [{}]",
        shape_string(&x.shape),
        shape_string(&outs[0].shape)
    );
    Ok(())
}

fn bitcast(ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let x = one(ins, "x");
    let bits = |t: &TensorInfo| Size::of_shape(&t.shape, t.elem.bits()?);
    if let (Some(a), Some(b)) = (bits(&x), bits(&outs[0])) {
        ensure!(
            a == b,
            "bitcast.size",
            "bitcast changes the size in bits from {a} to {b}"
        );
    }
    Ok(())
}

fn transpose(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let x = one(ins, "x");
    let perm = req_i64_array(op, "perm")?;
    let mut seen = vec![false; x.rank()];
    let is_perm = perm.len() == x.rank()
        && perm.iter().all(|&p| {
            let fresh = p >= 0 && (p as usize) < seen.len() && !seen[p as usize];
            if fresh {
                seen[p as usize] = true;
            }
            fresh
        });
    ensure!(
        is_perm,
        "transpose.perm",
        "perm {perm:?} is not a permutation of 0..{}",
        x.rank()
    );
    same_elem(&x, &outs[0], "operand and result")?;
    let expected: Vec<Dim> = perm.iter().map(|&p| x.shape[p as usize]).collect();
    shape_is(&outs[0], &expected, "result")
}

fn slice(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let x = one(ins, "x");
    let dim = norm_dim(req_i64(op, "dim")?, x.rank(), "dim")?;
    let (start, end, step) = (
        req_i64(op, "start")?,
        req_i64(op, "end")?,
        req_i64(op, "step")?,
    );
    ensure!(step > 0, "slice.step", "step must be positive, got {step}");
    same_elem(&x, &outs[0], "operand and result")?;
    let mut expected = x.shape.clone();
    // Python slicing: negative bounds count from the end, bounds clamp to the size.
    expected[dim] = x.shape[dim].map(|size| {
        // In i128: `end - start + step - 1` overflows i64 for huge sizes and steps.
        let size = i128::from(size);
        let clamp = |v: i64| {
            let v = i128::from(v);
            if v < 0 {
                (v + size).max(0)
            } else {
                v.min(size)
            }
        };
        let (s, e) = (clamp(start), clamp(end));
        let len = if e > s {
            (e - s + i128::from(step) - 1) / i128::from(step)
        } else {
            0
        };
        // 0 <= len <= size <= i64::MAX.
        i64::try_from(len).unwrap_or(i64::MAX)
    });
    shape_is(&outs[0], &expected, "result")
}

fn split(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    let x = one(ins, "x");
    let dim = norm_dim(req_i64(op, "dim")?, x.rank(), "dim")?;
    let sizes = req_i64_array(op, "sizes")?;
    ensure!(
        sizes.iter().all(|s| *s >= 0),
        "split.sizes",
        "sizes must be non-negative, got {sizes:?}"
    );
    ensure!(
        outs.len() == sizes.len(),
        "split.results",
        "has {} results but sizes lists {} parts",
        outs.len(),
        sizes.len()
    );
    if let Some(d) = x.shape[dim] {
        let sum: i128 = sizes.iter().map(|s| i128::from(*s)).sum();
        ensure!(
            sum == i128::from(d),
            "split.sizes",
            "sizes {sizes:?} sum to {sum}, but dimension {dim} is {d}"
        );
    }
    for (i, (out, size)) in outs.iter().zip(&sizes).enumerate() {
        same_elem(&x, out, "operand and results")?;
        let mut expected = x.shape.clone();
        expected[dim] = Some(*size);
        // The name is only formatted for a failure.
        if !shapes_compatible(&out.shape, &expected) {
            shape_is(out, &expected, &format!("result #{i}"))?;
        }
    }
    Ok(())
}

fn concat(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let xs: Vec<TensorInfo> = ins.group("xs").iter().map(|v| tensor(*v)).collect();
    ensure!(
        !xs.is_empty(),
        "concat.operands",
        "needs at least one operand"
    );
    let dim = norm_dim(req_i64(op, "dim")?, xs[0].rank(), "dim")?;
    let mut expected = xs[0].shape.clone();
    let mut total = Some(0i128);
    for (i, x) in xs.iter().enumerate() {
        same_elem(&xs[0], x, "operands")?;
        ensure!(
            x.rank() == xs[0].rank(),
            "concat.rank",
            "operand #{i} has rank {}, expected {}",
            x.rank(),
            xs[0].rank()
        );
        for d in 0..x.rank() {
            if d != dim {
                ensure!(
                    dims_compatible(x.shape[d], xs[0].shape[d]),
                    "concat.shape",
                    "operand #{i} differs in dimension {d}, which is not the concatenated one"
                );
            }
        }
        total = total.zip(x.shape[dim]).map(|(a, b)| a + i128::from(b));
    }
    if let Some(t) = total {
        ensure!(
            i64::try_from(t).is_ok(),
            "concat.shape",
            "the concatenated dimension {dim} would have size {t}, more than a dimension can hold"
        );
    }
    expected[dim] = total.and_then(|t| i64::try_from(t).ok());
    same_elem(&xs[0], &outs[0], "operands and result")?;
    shape_is(&outs[0], &expected, "result")
}

/// Batched matrix product shape: `[batch…, M, K] · [batch…, K, N]` with batch broadcasting.
fn matmul_shape(
    a: &TensorInfo,
    b: &TensorInfo,
    ta: bool,
    tb: bool,
    rule: &'static str,
) -> Result<Vec<Dim>, (&'static str, String)> {
    rank_at_least(a, 2, "first operand")?;
    rank_at_least(b, 2, "second operand")?;
    let (ra, rb) = (a.rank(), b.rank());
    let (m, ka) = if ta {
        (a.shape[ra - 1], a.shape[ra - 2])
    } else {
        (a.shape[ra - 2], a.shape[ra - 1])
    };
    let (kb, n) = if tb {
        (b.shape[rb - 1], b.shape[rb - 2])
    } else {
        (b.shape[rb - 2], b.shape[rb - 1])
    };
    ensure!(
        dims_compatible(ka, kb),
        rule,
        "contraction dimensions differ: {} vs {}",
        shape_string(&[ka]),
        shape_string(&[kb])
    );
    let batch = broadcast_shapes(&a.shape[..ra - 2], &b.shape[..rb - 2]).ok_or_else(|| {
        (
            "matmul.batch",
            "batch dimensions do not broadcast".to_string(),
        )
    })?;
    let mut out = batch;
    out.extend([m, n]);
    Ok(out)
}

fn matmul(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let (a, b) = (one(ins, "a"), one(ins, "b"));
    let expected = matmul_shape(
        &a,
        &b,
        req_bool(op, "transpose_a")?,
        req_bool(op, "transpose_b")?,
        "matmul.contraction",
    )?;
    same_elem(&a, &b, "a and b")?;
    same_elem(&a, &outs[0], "a and result")?;
    shape_is(&outs[0], &expected, "result")
}

fn linear(ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let (x, w) = (one(ins, "x"), one(ins, "weight"));
    rank_at_least(&x, 1, "x")?;
    ensure!(
        w.rank() == 2,
        "linear.weight",
        "weight must be [N, K], got rank {}",
        w.rank()
    );
    ensure!(
        dims_compatible(x.dim_from_back(0), w.shape[1]),
        "linear.contraction",
        "x's last dimension {} does not match weight's K {}",
        shape_string(&[x.dim_from_back(0)]),
        shape_string(&[w.shape[1]])
    );
    if let Some(bias) = opt(ins, "bias") {
        shape_is(&bias, &[w.shape[0]], "bias")?;
        same_elem(&x, &bias, "x and bias")?;
    }
    let mut expected = x.shape.clone();
    *expected.last_mut().unwrap_or(&mut None) = w.shape[0];
    same_elem(&x, &w, "x and weight")?;
    same_elem(&x, &outs[0], "x and result")?;
    shape_is(&outs[0], &expected, "result")
}

/// A per-feature vector of a norm: 1-d, as long as the normalised (last) dimension.
fn feature_vector(t: &TensorInfo, x: &TensorInfo, what: &str) -> Check {
    shape_is(t, &[x.dim_from_back(0)], what)?;
    ensure!(
        t.elem == x.elem || t.elem == Elem::F32,
        "norm.weight-type",
        "{what} must be {} or f32, got {}",
        x.elem,
        t.elem
    );
    Ok(())
}

fn rms_norm(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    epsilon(op)?;
    let x = one(ins, "x");
    float(&x, "x")?;
    rank_at_least(&x, 1, "x")?;
    feature_vector(&one(ins, "gamma"), &x, "gamma")?;
    ensure!(x == outs[0], "same-type", "result type must equal x's type");
    Ok(())
}

fn layer_norm(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    epsilon(op)?;
    let x = one(ins, "x");
    float(&x, "x")?;
    rank_at_least(&x, 1, "x")?;
    for slot in ["gamma", "beta"] {
        if let Some(t) = opt(ins, slot) {
            feature_vector(&t, &x, slot)?;
        }
    }
    ensure!(x == outs[0], "same-type", "result type must equal x's type");
    Ok(())
}

fn rope(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    enum_attr(op, "mode", &["half", "interleave"], None)?;
    let x = one(ins, "x");
    float(&x, "x")?;
    rank_at_least(&x, 2, "x")?;
    if let Some(d) = x.dim_from_back(0) {
        ensure!(
            d % 2 == 0,
            "rope.even",
            "x's last dimension {d} must be even"
        );
    }
    for slot in ["cos", "sin"] {
        let t = one(ins, slot);
        float(&t, slot)?;
        let fits =
            broadcast_shapes(&t.shape, &x.shape).is_some_and(|b| shapes_compatible(&b, &x.shape));
        ensure!(
            fits,
            "rope.table",
            "{slot} [{}] does not broadcast to x [{}]",
            shape_string(&t.shape),
            shape_string(&x.shape)
        );
        // One angle per rotated element: the table is not broadcast along the head dimension.
        ensure!(
            t.rank() >= 1 && dims_compatible(t.dim_from_back(0), x.dim_from_back(0)),
            "rope.table",
            "{slot}'s last dimension {} must equal x's last dimension {}",
            shape_string(&[t.dim_from_back(0)]),
            shape_string(&[x.dim_from_back(0)])
        );
    }
    ensure!(
        one(ins, "cos") == one(ins, "sin"),
        "rope.table",
        "cos and sin must have the same type"
    );
    ensure!(x == outs[0], "same-type", "result type must equal x's type");
    Ok(())
}

fn attention(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let scale = req_f32(op, "scale")?;
    ensure!(
        scale.is_finite() && scale > 0.0,
        "attention.scale",
        "scale must be positive, got {scale}"
    );
    let layout = enum_attr(op, "layout", &["BNSD", "BSND", "BSH"], Some("BNSD"))?;
    let (q, k, v) = (one(ins, "q"), one(ins, "k"), one(ins, "v"));
    for (t, what) in [(&q, "q"), (&k, "k"), (&v, "v")] {
        float(t, what)?;
        same_elem(&q, t, "q, k and v")?;
    }
    let rank = if layout == "BSH" { 3 } else { 4 };
    for (t, what) in [(&q, "q"), (&k, "k"), (&v, "v")] {
        ensure!(
            t.rank() == rank,
            "attention.rank",
            "{what} must have rank {rank} in layout {layout}, got {}",
            t.rank()
        );
    }
    // Batch is dimension 0 in every layout; sequence and head-count dimensions depend on it.
    ensure!(
        dims_compatible(q.shape[0], k.shape[0]) && dims_compatible(k.shape[0], v.shape[0]),
        "attention.batch",
        "q, k and v batch sizes differ"
    );
    let seq = if layout == "BNSD" { 2 } else { 1 };
    ensure!(
        dims_compatible(k.shape[seq], v.shape[seq]),
        "attention.kv-length",
        "k and v sequence lengths differ"
    );
    let divides = |kv: i64, q: i64| if kv > 0 { q % kv == 0 } else { q == 0 };
    let result_last = if layout == "BSH" {
        // The last dimension is heads × head dim with the head count unknown: grouped-query
        // attention gives k fewer heads than q, so only "k's hidden size divides q's" holds,
        // and the result has q's heads with v's head dim, i.e. q_H / k_H × v_H.
        match (q.dim_from_back(0), k.dim_from_back(0)) {
            (Some(qh), Some(kh)) => {
                ensure!(
                    divides(kh, qh),
                    "attention.heads",
                    "k's hidden size {kh} does not divide q's {qh} (layout BSH)"
                );
                if kh > 0 {
                    v.dim_from_back(0).and_then(|vh| (qh / kh).checked_mul(vh))
                } else {
                    None
                }
            }
            _ => None,
        }
    } else {
        let heads = if layout == "BNSD" { 1 } else { 2 };
        ensure!(
            dims_compatible(k.shape[heads], v.shape[heads]),
            "attention.heads",
            "k and v head counts differ"
        );
        if let (Some(qn), Some(kn)) = (q.shape[heads], k.shape[heads]) {
            ensure!(
                divides(kn, qn),
                "attention.heads",
                "k's head count {kn} does not divide q's head count {qn}"
            );
        }
        ensure!(
            dims_compatible(q.dim_from_back(0), k.dim_from_back(0)),
            "attention.head-dim",
            "q and k head dimensions differ"
        );
        v.dim_from_back(0)
    };
    let mut expected = q.shape.clone();
    if let Some(last) = expected.last_mut() {
        *last = result_last;
    }
    // "masked_out" (default): non-zero = do not attend, whatever the element type (aclnn's
    // attenMask takes bool/int8/uint8); "additive": a float mask of q's element type added to
    // the scaled scores (aclnn's pseShift).
    let mask_kind = enum_attr(
        op,
        "mask_kind",
        &["masked_out", "additive"],
        Some("masked_out"),
    )?;
    // causal (default false): query i attends keys j <= i, aligned at the top left (torch's
    // is_causal). It replaces the mask: torch refuses an explicit attn_mask with is_causal.
    let causal = opt_bool(op, "causal", false)?;
    ensure!(
        !(causal && opt(ins, "mask").is_some()),
        "attention.causal-mask",
        "a causal attention takes no mask operand (causal = true is its mask)"
    );
    if let Some(mask) = opt(ins, "mask") {
        ensure!(
            mask.rank() >= 2,
            "attention.mask",
            "mask must have rank >= 2"
        );
        if mask_kind == "additive" {
            ensure!(
                mask.elem == q.elem,
                "attention.mask-type",
                "an additive mask must have q's element type {}, got {}",
                q.elem,
                mask.elem
            );
        }
        // The mask's last two dimensions index [query, key] and broadcast.
        let fits = |m: Dim, s: Dim| m == Some(1) || dims_compatible(m, s);
        ensure!(
            fits(mask.dim_from_back(1), q.shape[seq]) && fits(mask.dim_from_back(0), k.shape[seq]),
            "attention.mask",
            "mask [{}] does not broadcast to [query length {}, key length {}]",
            shape_string(&mask.shape),
            shape_string(&[q.shape[seq]]),
            shape_string(&[k.shape[seq]])
        );
    }
    same_elem(&q, &outs[0], "q and result")?;
    shape_is(&outs[0], &expected, "result")
}

fn dynamic_quant(ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 2)?;
    let x = one(ins, "x");
    float(&x, "x")?;
    rank_at_least(&x, 1, "x")?;
    if let Some(s) = opt(ins, "smooth_scale") {
        shape_is(&s, &[x.dim_from_back(0)], "smooth_scale")?;
    }
    elem_in(&outs[0], &[Elem::I8, Elem::I4], "y", "dynamic_quant.output")?;
    shape_is(&outs[0], &x.shape, "y")?;
    elem_in(&outs[1], &[Elem::F32], "scale", "dynamic_quant.output")?;
    shape_is(&outs[1], &x.shape[..x.rank() - 1], "scale (one per token)")
}

/// x1/x2 dtypes of QuantBatchMatmulV3 (HiFloat8 has no MLIR type).
pub const QUANT_INPUT_TYPES: &[Elem] = &[
    Elem::I8,
    Elem::I4,
    Elem::F8E4M3FN,
    Elem::F8E5M2,
    Elem::F4E2M1FN,
];
/// Output dtypes of QuantBatchMatmulV3.
pub const QUANT_OUTPUT_TYPES: &[Elem] = &[Elem::I8, Elem::F16, Elem::BF16, Elem::I32, Elem::F32];

/// A per-channel vector: `[n]` or `[1]`.
fn per_channel(t: &TensorInfo, n: Dim, what: &str) -> Check {
    ensure!(
        is_vector_of(t, n),
        "quant.scale-shape",
        "{what} must be [{n}] or [1] (or that vector as [1, {n}] / [{n}, 1]), got [{}]",
        shape_string(&t.shape),
        n = shape_string(&[n]),
    );
    Ok(())
}

/// `[len]` or `[1]`, or that vector written 2-D (`[1, len]`, `[len, 1]`): graphs carry scales
/// as rows or columns, and a transpose or reshape between the two forms is what the transpose
/// fold removes.
fn is_vector_of(t: &TensorInfo, len: Dim) -> bool {
    let fits = |d: Dim| d == Some(1) || dims_compatible(d, len);
    match t.rank() {
        1 => fits(t.shape[0]),
        2 => {
            (t.shape[0] == Some(1) && fits(t.shape[1]))
                || (t.shape[1] == Some(1) && fits(t.shape[0]))
        }
        _ => false,
    }
}

fn quant_matmul(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let (x1, x2) = (one(ins, "x1"), one(ins, "x2"));
    elem_in(&x1, QUANT_INPUT_TYPES, "x1", "quant_matmul.input-type")?;
    elem_in(&x2, QUANT_INPUT_TYPES, "x2", "quant_matmul.input-type")?;
    // i8 x i4 (s8s4) is a target question; integer x floating-point is no kernel at all.
    let is_int = |t: &TensorInfo| matches!(t.elem, Elem::I8 | Elem::I4);
    ensure!(
        is_int(&x1) == is_int(&x2),
        "quant_matmul.input-type",
        "x1 ({}) and x2 ({}) mix integer and floating-point formats",
        x1.elem,
        x2.elem
    );
    elem_in(
        &outs[0],
        QUANT_OUTPUT_TYPES,
        "result",
        "quant_matmul.output-type",
    )?;
    enum_attr(op, "x2_format", &["ND", "FRACTAL_NZ"], Some("ND"))?;
    let mut group_size = 0;
    if let Some(a) = op.attr("group_size") {
        let g = a.as_i64().ok_or_else(|| {
            (
                "attribute-kind",
                "attribute 'group_size' must be an i64 integer".to_string(),
            )
        })?;
        ensure!(
            g >= 0,
            "quant_matmul.group-size",
            "group_size must be >= 0, got {g}"
        );
        group_size = g;
    }
    ensure!(
        x1.rank() <= 6 && x2.rank() <= 6,
        "rank",
        "x1 and x2 must have rank 2..6"
    );
    let expected = matmul_shape(
        &x1,
        &x2,
        req_bool(op, "transpose_x1")?,
        req_bool(op, "transpose_x2")?,
        "quant_matmul.contraction",
    )?;
    let (m, n) = (expected[expected.len() - 2], expected[expected.len() - 1]);
    let scale = one(ins, "scale");
    // Per-group quantisation (group_size > 0) has one scale per group of K, in a layout that
    // depends on the format: only per-tensor/per-channel scales have a shape to check.
    if group_size == 0 {
        per_channel(&scale, n, "scale")?;
    }
    elem_in(
        &scale,
        &[Elem::F32, Elem::BF16, Elem::I64, Elem::F8E8M0FNU],
        "scale",
        "quant.scale-type",
    )?;
    if let Some(offset) = opt(ins, "offset") {
        per_channel(&offset, n, "offset")?;
        elem_in(&offset, &[Elem::F32], "offset", "quant.scale-type")?;
    }
    if let Some(bias) = opt(ins, "bias") {
        shape_is(&bias, &[n], "bias")?;
        elem_in(
            &bias,
            &[Elem::I32, Elem::F32, Elem::BF16, Elem::F16],
            "bias",
            "quant.bias-type",
        )?;
    }
    if let Some(p) = opt(ins, "pertoken_scale") {
        // Per token: one scale per row of op(x1), as [M] (or [M, 1] / [1, M]); per-group
        // (MX) scales have their own layout.
        if group_size == 0 {
            ensure!(
                is_vector_of(&p, m) && p.shape.iter().any(|d| dims_compatible(*d, m)),
                "quant.scale-shape",
                "pertoken_scale must be [{m}] (or [{m}, 1] / [1, {m}]), got [{}]",
                shape_string(&p.shape),
                m = shape_string(&[m]),
            );
        }
        elem_in(
            &p,
            &[Elem::F32, Elem::F8E8M0FNU],
            "pertoken_scale",
            "quant.scale-type",
        )?;
    }
    shape_is(&outs[0], &expected, "result")
}

fn grouped_matmul(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    enum_attr(op, "group_list_type", &["cumsum", "count"], None)?;
    let (x, w, g) = (one(ins, "x"), one(ins, "weight"), one(ins, "group_list"));
    ensure!(
        x.rank() == 2,
        "grouped_matmul.shape",
        "x must be [M, K], got rank {}",
        x.rank()
    );
    ensure!(
        w.rank() == 3,
        "grouped_matmul.shape",
        "weight must be [E, K, N], got rank {}",
        w.rank()
    );
    ensure!(
        dims_compatible(x.shape[1], w.shape[1]),
        "grouped_matmul.contraction",
        "x's K and weight's K differ"
    );
    elem_in(&g, &[Elem::I64], "group_list", "grouped_matmul.group-list")?;
    shape_is(&g, &[w.shape[0]], "group_list")?;
    if let Some(b) = opt(ins, "bias") {
        shape_is(&b, &[w.shape[0], w.shape[2]], "bias")?;
    }
    if let Some(s) = opt(ins, "scale") {
        shape_is(&s, &[w.shape[0], w.shape[2]], "scale")?;
    }
    if let Some(p) = opt(ins, "per_token_scale") {
        shape_is(&p, &[x.shape[0]], "per_token_scale")?;
    }
    shape_is(&outs[0], &[x.shape[0], w.shape[2]], "result")
}

// ----- MoE routing and indexing (torch semantics) -----

/// Element types the routing and indexing ops take: every dialect type with an exact
/// integer or float reading (not the sub-byte and fp8 formats, which no kernel indexes).
const ROUTING_ELEMS: &[Elem] = &[
    Elem::F32,
    Elem::F16,
    Elem::BF16,
    Elem::I8,
    Elem::I32,
    Elem::I64,
];

/// Index operands are i64 or i32 (aclnnIndexSelect / aclnnScatterAdd / aclnnIndexAdd).
const INDEX_ELEMS: &[Elem] = &[Elem::I64, Elem::I32];

/// dit.topk / dit.sort: `dim` in range, results (values like x, indices i64), k within the
/// dim for topk.
fn topk(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 2)?;
    let x = one(ins, "x");
    elem_in(&x, ROUTING_ELEMS, "x", "topk.type")?;
    rank_at_least(&x, 1, "x")?;
    let dim = norm_dim(req_i64(op, "dim")?, x.rank(), "dim")?;
    let k = req_i64(op, "k")?;
    req_bool(op, "largest")?;
    req_bool(op, "sorted")?;
    if let Some(n) = x.shape[dim] {
        ensure!(
            (0..=n).contains(&k),
            "topk.k",
            "k = {k} is outside 0..={n} (the size of dim {dim})"
        );
    }
    let mut shape = x.shape.clone();
    shape[dim] = Some(k);
    same_elem(&x, &outs[0], "x and values")?;
    shape_is(&outs[0], &shape, "values")?;
    elem_in(&outs[1], &[Elem::I64], "indices", "topk.indices")?;
    shape_is(&outs[1], &shape, "indices")
}

fn sort(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 2)?;
    let x = one(ins, "x");
    elem_in(&x, ROUTING_ELEMS, "x", "sort.type")?;
    rank_at_least(&x, 1, "x")?;
    norm_dim(req_i64(op, "dim")?, x.rank(), "dim")?;
    req_bool(op, "descending")?;
    req_bool(op, "stable")?;
    same_elem(&x, &outs[0], "x and values")?;
    shape_is(&outs[0], &x.shape, "values")?;
    elem_in(&outs[1], &[Elem::I64], "indices", "sort.indices")?;
    shape_is(&outs[1], &x.shape, "indices")
}

/// dit.cumsum: the result has x's shape; its element type is the accumulation type.
fn cumsum(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let x = one(ins, "x");
    elem_in(&x, ROUTING_ELEMS, "x", "cumsum.type")?;
    elem_in(&outs[0], ROUTING_ELEMS, "result", "cumsum.type")?;
    rank_at_least(&x, 1, "x")?;
    norm_dim(req_i64(op, "dim")?, x.rank(), "dim")?;
    shape_is(&outs[0], &x.shape, "result")
}

fn floor_div(ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let (l, r) = (one(ins, "lhs"), one(ins, "rhs"));
    elem_in(&l, ROUTING_ELEMS, "lhs", "floor_div.type")?;
    same_elem(&l, &r, "lhs and rhs")?;
    same_elem(&l, &outs[0], "operands and result")?;
    let b = broadcast_shapes(&l.shape, &r.shape).ok_or_else(|| {
        (
            "broadcast",
            format!(
                "shapes [{}] and [{}] do not broadcast",
                shape_string(&l.shape),
                shape_string(&r.shape)
            ),
        )
    })?;
    shape_is(&outs[0], &b, "result")
}

/// A 1-d (or 0-d) index of an integer type.
fn index_vector(index: &TensorInfo) -> Check {
    elem_in(index, INDEX_ELEMS, "index", "index.type")?;
    ensure!(
        index.rank() <= 1,
        "index.rank",
        "index must be 0-d or 1-d, got rank {}",
        index.rank()
    );
    Ok(())
}

fn index_select(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let (x, index) = (one(ins, "x"), one(ins, "index"));
    elem_in(&x, ROUTING_ELEMS, "x", "index_select.type")?;
    rank_at_least(&x, 1, "x")?;
    let dim = norm_dim(req_i64(op, "dim")?, x.rank(), "dim")?;
    index_vector(&index)?;
    let mut shape = x.shape.clone();
    shape[dim] = if index.rank() == 0 {
        Some(1)
    } else {
        index.shape[0]
    };
    same_elem(&x, &outs[0], "x and result")?;
    shape_is(&outs[0], &shape, "result")
}

/// torch.scatter_add: index and src have x's rank, index is no larger than src in any dim and
/// no larger than x outside `dim`; the result is x's type.
fn scatter_add(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let (x, index, src) = (one(ins, "x"), one(ins, "index"), one(ins, "src"));
    elem_in(&x, ROUTING_ELEMS, "x", "scatter_add.type")?;
    elem_in(&index, INDEX_ELEMS, "index", "index.type")?;
    same_elem(&x, &src, "x and src")?;
    rank_at_least(&x, 1, "x")?;
    let dim = norm_dim(req_i64(op, "dim")?, x.rank(), "dim")?;
    ensure!(
        index.rank() == x.rank() && src.rank() == x.rank(),
        "scatter_add.rank",
        "x, index and src must have one rank, got {}, {} and {}",
        x.rank(),
        index.rank(),
        src.rank()
    );
    for d in 0..x.rank() {
        let fits = |a: Dim, b: Dim| match (a, b) {
            (Some(a), Some(b)) => a <= b,
            _ => true,
        };
        ensure!(
            fits(index.shape[d], src.shape[d]) && (d == dim || fits(index.shape[d], x.shape[d])),
            "scatter_add.shape",
            "index [{}] must be no larger than src [{}] in every dim and than x [{}] outside \
             dim {dim}",
            shape_string(&index.shape),
            shape_string(&src.shape),
            shape_string(&x.shape)
        );
    }
    ensure!(outs[0] == x, "same-type", "result type must equal x's type");
    Ok(())
}

/// torch.index_add (alpha 1): source is x with `dim` resized to the index length.
fn index_add(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let (x, index, source) = (one(ins, "x"), one(ins, "index"), one(ins, "source"));
    elem_in(&x, ROUTING_ELEMS, "x", "index_add.type")?;
    same_elem(&x, &source, "x and source")?;
    rank_at_least(&x, 1, "x")?;
    let dim = norm_dim(req_i64(op, "dim")?, x.rank(), "dim")?;
    index_vector(&index)?;
    let mut shape = x.shape.clone();
    shape[dim] = if index.rank() == 0 {
        Some(1)
    } else {
        index.shape[0]
    };
    shape_is(&source, &shape, "source")?;
    ensure!(outs[0] == x, "same-type", "result type must equal x's type");
    Ok(())
}

/// x [T, H] float, expert_idx [T, K] i32/i64 -> (expanded_x [T·K, H] like x, expanded_row_idx
/// i32 [T·K], expert_tokens i32/i64 [E]) (aclnnMoeInitRoutingV2's drop-less outputs). The
/// kernel writes expertTokensCountOrCumsumOut as INT32 ([ops-transformer]
/// moe/moe_init_routing_v2/docs/aclnnMoeInitRoutingV2.md; contract rule
/// moe_init_routing_v2.tokens_dtype refuses i64 at the call); i64 still verifies so that IR
/// written before that rule parses (and runs on the CPU reference).
fn moe_init_routing(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 3)?;
    let (x, e) = (one(ins, "x"), one(ins, "expert_idx"));
    float(&x, "x")?;
    elem_in(&e, INDEX_ELEMS, "expert_idx", "moe_init_routing.expert-idx")?;
    enum_attr(op, "expert_tokens", &["cumsum", "count"], None)?;
    let experts = req_i64(op, "num_experts")?;
    ensure!(
        experts > 0,
        "moe_init_routing.num-experts",
        "num_experts must be positive, got {experts}"
    );
    ensure!(
        x.rank() == 2 && e.rank() == 2,
        "moe_init_routing.shape",
        "x must be [T, H] and expert_idx [T, K], got ranks {} and {}",
        x.rank(),
        e.rank()
    );
    ensure!(
        dims_compatible(x.shape[0], e.shape[0]),
        "moe_init_routing.shape",
        "x and expert_idx have different token counts"
    );
    let rows = match (e.shape[0], e.shape[1]) {
        (Some(t), Some(k)) => t.checked_mul(k),
        _ => None,
    };
    same_elem(&x, &outs[0], "x and expanded_x")?;
    shape_is(&outs[0], &[rows, x.shape[1]], "expanded_x")?;
    elem_in(
        &outs[1],
        &[Elem::I32],
        "expanded_row_idx",
        "moe_init_routing.row-idx",
    )?;
    shape_is(&outs[1], &[rows], "expanded_row_idx")?;
    elem_in(
        &outs[2],
        &[Elem::I32, Elem::I64],
        "expert_tokens",
        "moe_init_routing.tokens",
    )?;
    shape_is(&outs[2], &[Some(experts)], "expert_tokens")
}

/// expanded_x [T·K, H] float, expanded_row_idx i32 [T·K], scales [T, K] float -> [T, H] like
/// expanded_x (aclnnMoeFinalizeRoutingV2).
fn moe_finalize_routing(ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let (x, r, s) = (
        one(ins, "expanded_x"),
        one(ins, "expanded_row_idx"),
        one(ins, "scales"),
    );
    float(&x, "expanded_x")?;
    float(&s, "scales")?;
    elem_in(
        &r,
        &[Elem::I32],
        "expanded_row_idx",
        "moe_finalize_routing.row-idx",
    )?;
    ensure!(
        x.rank() == 2 && r.rank() == 1 && s.rank() == 2,
        "moe_finalize_routing.shape",
        "expects expanded_x [T*K, H], expanded_row_idx [T*K] and scales [T, K]"
    );
    let rows = match (s.shape[0], s.shape[1]) {
        (Some(t), Some(k)) => t.checked_mul(k),
        _ => None,
    };
    shape_is(&x, &[rows, x.shape[1]], "expanded_x")?;
    shape_is(&r, &[rows], "expanded_row_idx")?;
    same_elem(&x, &outs[0], "expanded_x and result")?;
    shape_is(&outs[0], &[s.shape[0], x.shape[1]], "result")
}

fn opaque(op: Op) -> Check {
    let name = req_attr(op, "name")?.as_str().ok_or_else(|| {
        (
            "attribute-kind",
            "attribute 'name' must be a string".to_string(),
        )
    })?;
    ensure!(!name.is_empty(), "opaque.name", "name must not be empty");
    Ok(())
}

fn muls_add(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    req_f32(op, "scale")?;
    let (x, y) = (one(ins, "x"), one(ins, "y"));
    float(&x, "x")?;
    same_elem(&x, &y, "x and y")?;
    let b = broadcast_shapes(&x.shape, &y.shape)
        .ok_or_else(|| ("broadcast", "x and y do not broadcast".to_string()))?;
    same_elem(&x, &outs[0], "x and result")?;
    shape_is(&outs[0], &b, "result")
}

fn ada_layer_norm(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    epsilon(op)?;
    let x = one(ins, "x");
    float(&x, "x")?;
    for slot in ["scale", "shift"] {
        let t = one(ins, slot);
        let fits =
            broadcast_shapes(&t.shape, &x.shape).is_some_and(|b| shapes_compatible(&b, &x.shape));
        ensure!(
            fits,
            "broadcast",
            "{slot} [{}] does not broadcast to x [{}]",
            shape_string(&t.shape),
            shape_string(&x.shape)
        );
    }
    ensure!(x == outs[0], "same-type", "result type must equal x's type");
    Ok(())
}

fn quant_matmul_gelu(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    enum_attr(op, "approximate", &["gelu_tanh", "gelu_erf"], None)?;
    let (x1, x2) = (one(ins, "x1"), one(ins, "x2"));
    elem_in(
        &x1,
        &[Elem::I8, Elem::I4],
        "x1",
        "quant_matmul_gelu.input-type",
    )?;
    same_elem(&x1, &x2, "x1 and x2")?;
    // FusedQuantMatmul: x1 [.., M, K], x2 [.., K, N]; stored transposed ([.., K, M] /
    // [.., N, K]) when transpose_x1 / transpose_x2 (optional, default false) is set.
    let expected = matmul_shape(
        &x1,
        &x2,
        opt_bool(op, "transpose_x1", false)?,
        opt_bool(op, "transpose_x2", false)?,
        "quant_matmul_gelu.contraction",
    )?;
    let (m, n) = (expected[expected.len() - 2], expected[expected.len() - 1]);
    let s1 = one(ins, "x1_scale");
    elem_in(&s1, &[Elem::F32], "x1_scale", "quant.scale-type")?;
    shape_is(&s1, &[m], "x1_scale (per token)")?;
    let s2 = one(ins, "x2_scale");
    elem_in(
        &s2,
        &[Elem::F32, Elem::BF16],
        "x2_scale",
        "quant.scale-type",
    )?;
    per_channel(&s2, n, "x2_scale")?;
    let bias = opt(ins, "bias");
    if let Some(b) = &bias {
        shape_is(b, &[n], "bias")?;
        elem_in(
            b,
            &[Elem::I32, Elem::F32, Elem::BF16, Elem::F16],
            "bias",
            "quant.bias-type",
        )?;
    }
    let wants_bf16 = s2.elem == Elem::BF16 || bias.as_ref().is_some_and(|b| b.elem == Elem::BF16);
    let out_ok = if wants_bf16 {
        outs[0].elem == Elem::BF16
    } else {
        outs[0].elem == Elem::F16 || outs[0].elem == Elem::BF16
    };
    ensure!(
        out_ok,
        "quant_matmul_gelu.output-type",
        "result element type {} is not allowed: f16 or bf16, and bf16 when x2_scale or bias is bf16",
        outs[0].elem
    );
    shape_is(&outs[0], &expected, "result")
}

fn fused_matmul(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let kind = enum_attr(
        op,
        "fused_op_type",
        &["", "add", "mul", "gelu_tanh", "gelu_erf", "relu"],
        None,
    )?;
    let (x1, x2) = (one(ins, "x1"), one(ins, "x2"));
    float(&x1, "x1")?;
    same_elem(&x1, &x2, "x1 and x2")?;
    ensure!(
        x1.rank() == 2 && x2.rank() == 2,
        "fused_matmul.rank",
        "x1 and x2 must be 2-d"
    );
    let expected = matmul_shape(&x1, &x2, false, false, "fused_matmul.contraction")?;
    if let Some(b) = opt(ins, "bias") {
        shape_is(&b, &[expected[1]], "bias")?;
    }
    let x3 = opt(ins, "x3");
    let needs_x3 = kind == "add" || kind == "mul";
    ensure!(
        needs_x3 == x3.is_some(),
        "fused_matmul.x3",
        "x3 is required exactly when fused_op_type is \"add\" or \"mul\""
    );
    if let Some(x3) = x3 {
        shape_is(&x3, &expected, "x3")?;
    }
    same_elem(&x1, &outs[0], "x1 and result")?;
    shape_is(&outs[0], &expected, "result")
}

fn grouped_matmul_swiglu_quant(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 3)?;
    enum_attr(op, "variant", &["v1", "v2"], None)?;
    let (x, w, g) = (one(ins, "x"), one(ins, "weight"), one(ins, "group_list"));
    elem_in(&x, &[Elem::I8], "x", "gmm_swiglu_quant.input-type")?;
    elem_in(
        &w,
        &[Elem::I8, Elem::I4],
        "weight",
        "gmm_swiglu_quant.input-type",
    )?;
    ensure!(
        x.rank() == 2 && w.rank() == 3,
        "grouped_matmul.shape",
        "x must be [M, K] and weight [E, K, N]"
    );
    ensure!(
        dims_compatible(x.shape[1], w.shape[1]),
        "grouped_matmul.contraction",
        "x's K and weight's K differ"
    );
    elem_in(&g, &[Elem::I64], "group_list", "grouped_matmul.group-list")?;
    shape_is(&g, &[w.shape[0]], "group_list")?;
    shape_is(
        &one(ins, "weight_scale"),
        &[w.shape[0], w.shape[2]],
        "weight_scale",
    )?;
    shape_is(&one(ins, "x_scale"), &[x.shape[0]], "x_scale")?;
    if let Some(n) = w.shape[2] {
        ensure!(
            n % 2 == 0,
            "swiglu.even",
            "weight's N {n} must be even (SwiGLU halves it)"
        );
    }
    let half = w.shape[2].map(|n| n / 2);
    elem_in(&outs[0], &[Elem::I8], "y", "gmm_swiglu_quant.output-type")?;
    shape_is(&outs[0], &[x.shape[0], half], "y")?;
    elem_in(
        &outs[1],
        &[Elem::F32],
        "y_scale",
        "gmm_swiglu_quant.output-type",
    )?;
    shape_is(&outs[1], &[x.shape[0]], "y_scale")
}

/// The shape of an op that halves `x` along `dim`, checking the dim is even.
fn halved(x: &TensorInfo, dim: usize) -> Result<Vec<Dim>, (&'static str, String)> {
    let mut shape = x.shape.clone();
    if let Some(d) = x.shape[dim] {
        ensure!(
            d % 2 == 0,
            "split-dim-even",
            "dimension {dim} has size {d}, which is not even"
        );
    }
    shape[dim] = x.shape[dim].map(|d| d / 2);
    Ok(shape)
}

fn swiglu(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let x = one(ins, "x");
    float(&x, "x")?;
    let dim = norm_dim(req_i64(op, "dim")?, x.rank(), "dim")?;
    let expected = halved(&x, dim)?;
    same_elem(&x, &outs[0], "x and result")?;
    shape_is(&outs[0], &expected, "result")
}

fn silu_mul(ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    let (g, u) = (one(ins, "gate"), one(ins, "up"));
    float(&g, "gate")?;
    ensure!(g == u, "same-type", "gate and up must have the same type");
    ensure!(
        g == outs[0],
        "same-type",
        "result type must equal gate's type"
    );
    Ok(())
}

fn gelu_mul(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 1)?;
    enum_attr(op, "approximate", &["none", "tanh"], None)?;
    let x = one(ins, "x");
    float(&x, "x")?;
    rank_at_least(&x, 1, "x")?;
    if let Some(d) = x.dim_from_back(0) {
        ensure!(
            d <= 1024,
            "gelu_mul.last-dim",
            "x's last dimension {d} exceeds GeluMul's limit of 1024"
        );
    }
    let expected = halved(&x, x.rank() - 1)?;
    same_elem(&x, &outs[0], "x and result")?;
    shape_is(&outs[0], &expected, "result")
}

/// The most experts one row may choose (aclnnMoeGatingTopKSoftmax: "0 <= k <= x的-1轴大小，且k不
/// 大于1024", [ops-transformer] moe/moe_gating_top_k_softmax/docs/aclnnMoeGatingTopKSoftmax.md).
pub const MOE_GATING_MAX_K: i64 = 1024;

/// x [.., E] float of rank 2 or 3, finished [..] i1 (optional) -> (y [.., k] like x,
/// expert_idx i32 [.., k], row_idx i32 [.., k]), 0 <= k <= min(E, 1024): the shapes, dtypes
/// and k range of [ops-transformer] moe/moe_gating_top_k_softmax/docs/aclnnMoeGatingTopKSoftmax.md
/// (x FLOAT16/BFLOAT16/FLOAT32, 2-3 dims; finishedOptional BOOL, shape x_shape[:-1]; yOut like
/// x; expertIdxOut and rowIdxOut INT32).
fn moe_gating_topk_softmax(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    result_count(outs, 3)?;
    let x = one(ins, "x");
    float(&x, "x")?;
    ensure!(
        (2..=3).contains(&x.rank()),
        "moe_gating_topk_softmax.rank",
        "x must have rank 2 or 3, got rank {}",
        x.rank()
    );
    let lead = &x.shape[..x.rank() - 1];
    if let Some(f) = opt(ins, "finished") {
        elem_in(
            &f,
            &[Elem::I1],
            "finished",
            "moe_gating_topk_softmax.finished",
        )?;
        shape_is(&f, lead, "finished")?;
    }
    let k = req_i64(op, "k")?;
    let upper = x
        .dim_from_back(0)
        .map_or(MOE_GATING_MAX_K, |e| e.min(MOE_GATING_MAX_K));
    ensure!(
        (0..=upper).contains(&k),
        "moe_gating_topk_softmax.k",
        "k = {k} is outside 0..={upper} (at most the experts of a row and {MOE_GATING_MAX_K})"
    );
    let mut shape = lead.to_vec();
    shape.push(Some(k));
    same_elem(&x, &outs[0], "x and y")?;
    shape_is(&outs[0], &shape, "y")?;
    for (out, what) in [(&outs[1], "expert_idx"), (&outs[2], "row_idx")] {
        elem_in(out, &[Elem::I32], what, "moe_gating_topk_softmax.index")?;
        shape_is(out, &shape, what)?;
    }
    Ok(())
}

fn kv_rms_norm_rope_cache(op: Op, ins: &Operands, outs: &[TensorInfo]) -> Check {
    epsilon(op)?;
    let mode = req_attr(op, "cache_mode")?.as_str().ok_or_else(|| {
        (
            "attribute-kind",
            "attribute 'cache_mode' must be a string".to_string(),
        )
    })?;
    let modes = ["Norm", "PA", "PA_BNSD", "PA_NZ", "PA_BLK_BNSD", "PA_BLK_NZ"];
    ensure!(
        modes.contains(&mode.as_str()),
        "enum-value",
        "attribute 'cache_mode' is \"{mode}\", expected one of {modes:?}"
    );
    let kv = one(ins, "kv");
    float(&kv, "kv")?;
    ensure!(
        kv.dim_from_back(0).is_none_or(|d| d == 576),
        "kv_rms_norm_rope_cache.kv",
        "kv's last dimension must be 576 (512 normalised + 64 rotary)"
    );
    shape_is(&one(ins, "gamma"), &[Some(512)], "gamma")?;
    for slot in ["cos", "sin"] {
        let t = one(ins, slot);
        ensure!(
            t.dim_from_back(0).is_none_or(|d| d == 64),
            "kv_rms_norm_rope_cache.rope",
            "{slot}'s last dimension must be 64"
        );
    }
    let index = one(ins, "index");
    elem_in(
        &index,
        &[Elem::I64, Elem::I32],
        "index",
        "kv_rms_norm_rope_cache.index",
    )?;
    // The results are the updated caches (IRDL fixes two results).
    result_count(outs, 2)?;
    ensure!(
        one(ins, "k_cache") == outs[0],
        "kv_rms_norm_rope_cache.results",
        "result #0 must have k_cache's type"
    );
    ensure!(
        one(ins, "ckv_cache") == outs[1],
        "kv_rms_norm_rope_cache.results",
        "result #1 must have ckv_cache's type"
    );
    Ok(())
}

fn fused(op: Op, outs: &[TensorInfo]) -> Check {
    let kernel = req_attr(op, "kernel")?.as_str().ok_or_else(|| {
        (
            "attribute-kind",
            "attribute 'kernel' must be a string".to_string(),
        )
    })?;
    ensure!(
        !kernel.is_empty(),
        "fused.kernel",
        "kernel must not be empty"
    );
    let blocks = op.region_blocks(0);
    ensure!(
        blocks.len() == 1,
        "fused.region",
        "body must have exactly one block, has {}",
        blocks.len()
    );
    let args = blocks[0].arguments();
    let captured = op.operands();
    ensure!(
        args.len() == captured.len(),
        "fused.captures",
        "body has {} arguments but the op captures {} values",
        args.len(),
        captured.len()
    );
    for (i, (a, c)) in args.iter().zip(&captured).enumerate() {
        ensure!(
            a.tensor() == c.tensor(),
            "fused.captures",
            "body argument #{i} type differs from captured value #{i}"
        );
    }
    let Some(last) = blocks[0].ops().last().copied() else {
        return Err(("fused.terminator", "body must end in dit.yield".to_string()));
    };
    ensure!(
        last.is_kind(OpKind::Yield),
        "fused.terminator",
        "body must end in dit.yield, ends in {}",
        last.name()
    );
    let yielded: Vec<Option<TensorInfo>> = last.operands().iter().map(|v| v.tensor()).collect();
    let results: Vec<Option<TensorInfo>> = outs.iter().cloned().map(Some).collect();
    ensure!(
        yielded == results,
        "fused.results",
        "{} operand types must equal the op's result types",
        OpKind::Yield
    );
    Ok(())
}

fn yield_(op: Op) -> Check {
    let parent_ok = op.parent().is_some_and(|p| p.is_kind(OpKind::Fused));
    ensure!(
        parent_ok,
        "yield.parent",
        "must be the terminator of a dit.fused body"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{new_context, parse_module};

    /// Parses `body` as the body of a func taking `args` and returns the Rust verifier's
    /// violations as printed.
    fn violations(src: &str) -> Vec<String> {
        let context = new_context().expect("dialect loads");
        let module = parse_module(&context, src).expect("parses and passes ODS");
        verify(Op::of_module(&module))
            .iter()
            .map(Violation::text)
            .collect()
    }

    #[test]
    fn mlir_verifier_runs_the_rules_through_the_ods_hook() {
        use melior::ir::operation::OperationLike;
        let context = new_context().expect("dialect loads");
        let src = r#"func.func @f(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
            %0 = "dit.transpose"(%x) {perm = array<i64: 1, 1>} : (tensor<2x8xf16>) -> tensor<2x8xf16>
            return %0 : tensor<2x8xf16>
          }"#;
        // A plain parse verifies: the ODS constraints hold, the Rust rule does not.
        assert!(melior::ir::Module::parse(&context, src).is_none());
        // Deferred, the parse passes and the rule is left to `verify`...
        let module = parse_module(&context, src).expect("the ODS constraints hold");
        let found: Vec<&str> = verify(Op::of_module(&module))
            .iter()
            .map(|v| v.rule)
            .collect();
        assert_eq!(found, ["transpose.perm"]);
        // ...and the deferral ends with the parse: MLIR's verifier runs the rule again.
        assert!(!module.as_operation().verify());
    }

    fn assert_valid(src: &str) {
        let v = violations(src);
        assert!(v.is_empty(), "unexpected violations: {v:?}\n{src}");
    }

    #[test]
    fn sizes_are_exact_past_u128() {
        assert_eq!(Size::product([]).to_string(), "1");
        assert_eq!(Size::product([0, u64::MAX, u64::MAX]).to_string(), "0");
        assert_eq!(
            Size::product([u64::MAX; 3]).to_string(),
            "6277101735386680762814942322444851025767571854389858533375"
        );
        let max = i64::MAX as u64;
        assert_eq!(
            Size::product([max, max, max, 32]).to_string(),
            "25108406941546723047176380886728142542173874915031759454176"
        );
        assert_eq!(
            Size::product([10_000_000_000_000_000_000, 10]).to_string(),
            "100000000000000000000"
        );
        assert_eq!(Size::product([max, 2]), Size::product([2, max]));
        assert_ne!(Size::product([max, 4]), Size::product([max, 2]));
    }

    #[test]
    fn huge_static_shapes_verify_without_overflow() {
        // Byte sizes up to i64::MAX are valid; the shape rules compute with them unwrapped.
        assert_valid(
            r#"
func.func @f(%x: tensor<4611686018427387903x2xi8>, %y: tensor<9223372036854775807xi8>,
             %a: tensor<9223372036854775806xi8>, %b: tensor<1xi8>, %z: tensor<2305843009213693951xf32>) {
  %0 = "dit.reshape"(%x) : (tensor<4611686018427387903x2xi8>) -> tensor<2x4611686018427387903xi8>
  %1 = "dit.bitcast"(%z) : (tensor<2305843009213693951xf32>) -> tensor<2305843009213693951x4xi8>
  %2 = "dit.slice"(%y) {dim = 0 : i64, start = 0 : i64, end = 9223372036854775807 : i64, step = 2 : i64} : (tensor<9223372036854775807xi8>) -> tensor<4611686018427387904xi8>
  %3 = "dit.slice"(%y) {dim = 0 : i64, start = -9223372036854775807 : i64, end = 9223372036854775807 : i64, step = 9223372036854775807 : i64} : (tensor<9223372036854775807xi8>) -> tensor<1xi8>
  %4 = "dit.concat"(%a, %b) {dim = 0 : i64} : (tensor<9223372036854775806xi8>, tensor<1xi8>) -> tensor<9223372036854775807xi8>
  %5:2 = "dit.split"(%y) {dim = 0 : i64, sizes = array<i64: 9223372036854775806, 1>} : (tensor<9223372036854775807xi8>) -> (tensor<9223372036854775806xi8>, tensor<1xi8>)
  return
}"#,
        );
    }

    #[test]
    fn overflowing_sizes_are_reported() {
        let v = violations(
            r#"
func.func @f(%a: tensor<9223372036854775807xi8>, %x: tensor<4xi8>, %y: tensor<9223372036854775807x4xf32>, %z: tensor<4611686018427387904x4611686018427387904x2xi4>) {
  %0 = "dit.concat"(%a, %a) {dim = 0 : i64} : (tensor<9223372036854775807xi8>, tensor<9223372036854775807xi8>) -> tensor<?xi8>
  %1:2 = "dit.split"(%x) {dim = 0 : i64, sizes = array<i64: 9223372036854775807, 9223372036854775807>} : (tensor<4xi8>) -> (tensor<9223372036854775807xi8>, tensor<9223372036854775807xi8>)
  %2 = "dit.relu"(%y) : (tensor<9223372036854775807x4xf32>) -> tensor<9223372036854775807x4xf32>
  %3 = "dit.neg"(%z) : (tensor<4611686018427387904x4611686018427387904x2xi4>) -> tensor<4611686018427387904x4611686018427387904x2xi4>
  return
}"#,
        );
        assert_eq!(v.len(), 4, "{v:?}");
        assert!(
            v[0].contains("[rule concat.shape]") && v[1].contains("[rule split.sizes]"),
            "{v:?}"
        );
        assert!(
            v[2..]
                .iter()
                .all(|m| m.contains("needs more than 2^63-1 bytes [rule size]")),
            "{v:?}"
        );
    }

    #[test]
    fn attention_layouts_and_grouped_query_heads() {
        assert_valid(
            r#"
func.func @f(%q: tensor<1x16x2048xbf16>, %k: tensor<1x32x512xbf16>,
             %q4: tensor<1x16x8x64xbf16>, %k4: tensor<1x32x2x64xbf16>,
             %qn: tensor<1x8x16x64xbf16>, %kn: tensor<1x2x32x64xbf16>, %m: tensor<16x32xi1>) {
  %0 = "dit.attention"(%q, %k, %k) {layout = "BSH", operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 1.250000e-01 : f32} : (tensor<1x16x2048xbf16>, tensor<1x32x512xbf16>, tensor<1x32x512xbf16>) -> tensor<1x16x2048xbf16>
  %1 = "dit.attention"(%q4, %k4, %k4) {layout = "BSND", operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 1.250000e-01 : f32} : (tensor<1x16x8x64xbf16>, tensor<1x32x2x64xbf16>, tensor<1x32x2x64xbf16>) -> tensor<1x16x8x64xbf16>
  %2 = "dit.attention"(%qn, %kn, %kn, %m) {operandSegmentSizes = array<i32: 1, 1, 1, 1>, scale = 1.250000e-01 : f32} : (tensor<1x8x16x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<16x32xi1>) -> tensor<1x8x16x64xbf16>
  return
}"#,
        );
    }

    #[test]
    fn other_accepted_forms() {
        assert_valid(
            r#"
func.func @f(%x: tensor<2x64xbf16>, %g: tensor<64xbf16>, %r: tensor<1x2x16x64xbf16>, %c: tensor<16x64xbf16>,
             %a: tensor<4x64xf8E4M3FN>, %b: tensor<128x64xf8E4M3FN>, %s: tensor<2x128xf8E8M0FNU>,
             %i8: tensor<4x64xi8>, %i4: tensor<128x64xi4>, %s1: tensor<1xf32>) {
  %0 = "dit.rms_norm"(%x, %g) {epsilon = 0.000000e+00 : f32} : (tensor<2x64xbf16>, tensor<64xbf16>) -> tensor<2x64xbf16>
  %1 = "dit.rope"(%r, %c, %c) {mode = "half"} : (tensor<1x2x16x64xbf16>, tensor<16x64xbf16>, tensor<16x64xbf16>) -> tensor<1x2x16x64xbf16>
  %2 = "dit.quant_matmul"(%a, %b, %s) {group_size = 32 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, transpose_x1 = false, transpose_x2 = true} : (tensor<4x64xf8E4M3FN>, tensor<128x64xf8E4M3FN>, tensor<2x128xf8E8M0FNU>) -> tensor<4x128xbf16>
  %3 = "dit.quant_matmul"(%i8, %i4, %s1) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, transpose_x1 = false, transpose_x2 = true} : (tensor<4x64xi8>, tensor<128x64xi4>, tensor<1xf32>) -> tensor<4x128xf16>
  return
}"#,
        );
    }
}
