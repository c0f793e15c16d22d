//! The CPU reference backend: every dit op of DIALECT.md as plain, obviously-correct loops.
//!
//! Values are computed in `f64` and rounded once to the result type, so the reference is at
//! least as accurate as any kernel; Ascend kernels compute vector ops in f32 (and cube ops
//! accumulate in f32 or i32), so comparisons against them need f32-level tolerances. Integer
//! matrix products accumulate exactly in `i64`.
//!
//! Every operand is checked before use: a tensor whose bytes do not fit its type, a shape the
//! op does not accept, or a missing attribute is a [`RuntimeError::Contract`], never a panic.

mod attention;
mod cache;
mod elementwise;
mod matmul;
mod moe;
mod moe_routing;
mod norm;
mod opaque;
mod quant;
mod reduce;
mod rope;
mod shape;

pub use opaque::NAMES as OPAQUE_NAMES;

use crate::{contract, AttrValue, Attrs, DType, RuntimeError, Tensor, TensorType};
use dit_ops::OpKind;

/// Runs `op` (a full name such as `dit.rms_norm`) on the CPU.
///
/// `inputs` has one entry per operand slot of the op in DIALECT.md order (`None` for an empty
/// optional slot); variadic ops (`dit.concat`) take one `Some` entry per value. `results` gives
/// the result types as the IR states them (cast target, reshape shape, quant output type…).
/// Returns one tensor per result type.
pub fn execute(
    op: &str,
    attrs: &Attrs,
    inputs: &[Option<&Tensor>],
    results: &[TensorType],
) -> Result<Vec<Tensor>, RuntimeError> {
    let kind = OpKind::from_name(op).ok_or_else(|| RuntimeError::UnknownOp(op.to_string()))?;
    let ctx = Ctx {
        op,
        kind,
        attrs,
        inputs,
        results,
    };
    ctx.validate()?;
    use OpKind as K;
    match kind {
        k if k.is_binary() => elementwise::binary(&ctx),
        k if k.is_unary() => elementwise::unary(&ctx),
        K::Cast => elementwise::cast(&ctx),
        K::MulsAdd => elementwise::muls_add(&ctx),
        K::SiluMul => elementwise::silu_mul(&ctx),
        K::Swiglu => elementwise::swiglu(&ctx),
        K::GeluMul => elementwise::gelu_mul(&ctx),
        K::ReduceMean | K::ReduceSum => reduce::reduce(&ctx),
        K::Softmax => reduce::softmax(&ctx),
        K::Reshape => shape::reshape(&ctx),
        K::Bitcast => shape::bitcast(&ctx),
        K::Broadcast => shape::broadcast(&ctx),
        K::Transpose => shape::transpose(&ctx),
        K::Slice => shape::slice(&ctx),
        K::Split => shape::split(&ctx),
        K::Concat => shape::concat(&ctx),
        K::Matmul => matmul::matmul(&ctx),
        K::Linear => matmul::linear(&ctx),
        K::FusedMatmul => matmul::fused_matmul(&ctx),
        K::RmsNorm => norm::rms_norm(&ctx),
        K::LayerNorm => norm::layer_norm(&ctx),
        K::AdaLayerNorm => norm::ada_layer_norm(&ctx),
        K::Rope => rope::rope(&ctx),
        K::Attention => attention::attention(&ctx),
        K::DynamicQuant => quant::dynamic_quant(&ctx),
        K::QuantMatmul => quant::quant_matmul(&ctx),
        K::QuantMatmulGelu => quant::quant_matmul_gelu(&ctx),
        K::GroupedMatmul => moe::grouped_matmul(&ctx),
        K::GroupedMatmulSwigluQuant => moe::grouped_matmul_swiglu_quant(&ctx),
        K::KvRmsNormRopeCache => cache::kv_rms_norm_rope_cache(&ctx),
        K::Topk => moe_routing::topk(&ctx),
        K::Sort => moe_routing::sort(&ctx),
        K::Cumsum => moe_routing::cumsum(&ctx),
        K::FloorDiv => moe_routing::floor_div(&ctx),
        K::IndexSelect => moe_routing::index_select(&ctx),
        K::ScatterAdd => moe_routing::scatter_add(&ctx),
        K::IndexAdd => moe_routing::index_add(&ctx),
        K::MoeInitRouting => moe_routing::moe_init_routing(&ctx),
        K::MoeFinalizeRouting => moe_routing::moe_finalize_routing(&ctx),
        K::MoeGatingTopkSoftmax => moe_routing::moe_gating_topk_softmax(&ctx),
        K::Opaque => opaque::opaque(&ctx),
        K::Fused | K::Yield => {
            Err(ctx
                .err("a region op has no kernel of its own: the caller runs the ops of its body"))
        }
        _ => Err(RuntimeError::UnknownOp(op.to_string())),
    }
}

/// One invocation: the op, its attributes, operands and result types, with checked accessors.
pub(crate) struct Ctx<'a> {
    /// The op's full name, for messages.
    pub op: &'a str,
    /// The op, for dispatch.
    pub kind: OpKind,
    pub attrs: &'a Attrs,
    pub inputs: &'a [Option<&'a Tensor>],
    pub results: &'a [TensorType],
}

/// Shorthand for results of this backend.
pub(crate) type Res<T> = Result<T, RuntimeError>;

impl<'a> Ctx<'a> {
    /// A contract violation of this op.
    pub fn err(&self, message: impl Into<String>) -> RuntimeError {
        contract(self.op, message)
    }

    /// Every operand's bytes fit its type and every result type has a representable size.
    fn validate(&self) -> Res<()> {
        for (i, t) in self.inputs.iter().enumerate() {
            if let Some(t) = t {
                t.validate()
                    .map_err(|e| self.err(format!("operand #{i}: {e}")))?;
            }
        }
        for (i, r) in self.results.iter().enumerate() {
            if r.checked_storage_bytes().is_none() {
                return Err(self.err(format!("result #{i} shape {:?} is too large", r.shape)));
            }
        }
        Ok(())
    }

    /// Checks that the op got exactly `n` operand slots.
    pub fn slots(&self, n: usize) -> Res<()> {
        if self.inputs.len() != n {
            return Err(self.err(format!(
                "expects {n} operand slot(s), got {}",
                self.inputs.len()
            )));
        }
        Ok(())
    }

    /// The tensor of required slot `i` (named `name` in messages).
    pub fn input(&self, i: usize, name: &str) -> Res<&'a Tensor> {
        match self.inputs.get(i) {
            Some(Some(t)) => Ok(t),
            _ => Err(self.err(format!("operand '{name}' is missing"))),
        }
    }

    /// The tensor of optional slot `i`, if present.
    pub fn optional(&self, i: usize) -> Option<&'a Tensor> {
        self.inputs.get(i).copied().flatten()
    }

    /// Checks that there are exactly `n` result types and returns them.
    pub fn results(&self, n: usize) -> Res<&'a [TensorType]> {
        if self.results.len() != n {
            return Err(self.err(format!(
                "expects {n} result type(s), got {}",
                self.results.len()
            )));
        }
        Ok(self.results)
    }

    /// The single result type.
    pub fn result(&self) -> Res<&'a TensorType> {
        Ok(&self.results(1)?[0])
    }

    fn attr(&self, name: &str) -> Option<&'a AttrValue> {
        self.attrs.get(name)
    }

    fn missing(&self, name: &str, kind: &str) -> RuntimeError {
        match self.attr(name) {
            None => self.err(format!("requires attribute '{name}'")),
            Some(v) => self.err(format!("attribute '{name}' must be {kind}, got {v:?}")),
        }
    }

    /// A required bool attribute.
    pub fn attr_bool(&self, name: &str) -> Res<bool> {
        match self.attr(name) {
            Some(AttrValue::Bool(b)) => Ok(*b),
            _ => Err(self.missing(name, "a bool")),
        }
    }

    /// An optional bool attribute with a default.
    pub fn attr_bool_or(&self, name: &str, default: bool) -> Res<bool> {
        match self.attr(name) {
            None => Ok(default),
            Some(_) => self.attr_bool(name),
        }
    }

    /// A required integer attribute.
    pub fn attr_i64(&self, name: &str) -> Res<i64> {
        match self.attr(name) {
            Some(AttrValue::Int(v)) => Ok(*v),
            _ => Err(self.missing(name, "an integer")),
        }
    }

    /// An optional integer attribute with a default.
    pub fn attr_i64_or(&self, name: &str, default: i64) -> Res<i64> {
        match self.attr(name) {
            None => Ok(default),
            Some(_) => self.attr_i64(name),
        }
    }

    /// A required float attribute (an integer literal is accepted: JSON writers may print
    /// `1.0` as `1`).
    pub fn attr_f64(&self, name: &str) -> Res<f64> {
        match self.attr(name) {
            Some(AttrValue::Float(v)) => Ok(*v),
            Some(AttrValue::Int(v)) => Ok(*v as f64),
            _ => Err(self.missing(name, "a float")),
        }
    }

    /// A required `array<i64>` attribute.
    pub fn attr_ints(&self, name: &str) -> Res<Vec<i64>> {
        match self.attr(name) {
            Some(AttrValue::Ints(v)) => Ok(v.clone()),
            _ => Err(self.missing(name, "an array of integers")),
        }
    }

    /// A string attribute that must be one of `allowed`; `default` when absent (`None`:
    /// required).
    pub fn attr_enum(&self, name: &str, allowed: &[&str], default: Option<&str>) -> Res<String> {
        let value = match (self.attr(name), default) {
            (None, Some(d)) => return Ok(d.to_string()),
            (Some(AttrValue::Str(s)), _) => s.clone(),
            _ => return Err(self.missing(name, "a string")),
        };
        if !allowed.contains(&value.as_str()) {
            return Err(self.err(format!(
                "attribute '{name}' is \"{value}\", expected one of {allowed:?}"
            )));
        }
        Ok(value)
    }

    /// The `epsilon` attribute of the norms: finite and non-negative.
    pub fn epsilon(&self) -> Res<f64> {
        let eps = self.attr_f64("epsilon")?;
        if !(eps.is_finite() && eps >= 0.0) {
            return Err(self.err(format!(
                "epsilon must be non-negative and finite, got {eps}"
            )));
        }
        Ok(eps)
    }

    /// Normalises a possibly negative dimension index for a tensor of rank `rank`.
    pub fn dim(&self, dim: i64, rank: usize, what: &str) -> Res<usize> {
        let r = rank as i64;
        if dim < -r || dim >= r {
            return Err(self.err(format!("{what} {dim} is out of range for rank {rank}")));
        }
        Ok(if dim < 0 {
            (dim + r) as usize
        } else {
            dim as usize
        })
    }

    /// Checks that `t` has one of the element types `allowed`.
    pub fn dtype_in(&self, t: &Tensor, allowed: &[DType], what: &str) -> Res<()> {
        if allowed.contains(&t.dtype) {
            return Ok(());
        }
        let names: Vec<&str> = allowed.iter().map(|d| d.mlir_name()).collect();
        Err(self.err(format!(
            "{what} element type {} is not one of {names:?}",
            t.dtype.mlir_name()
        )))
    }

    /// Checks that `t` is f32, f16 or bf16.
    pub fn float(&self, t: &Tensor, what: &str) -> Res<()> {
        self.dtype_in(t, &[DType::F32, DType::F16, DType::BF16], what)
    }

    /// Checks that a result type equals `expected` exactly.
    pub fn result_is(&self, result: &TensorType, expected: &TensorType, what: &str) -> Res<()> {
        if result != expected {
            return Err(self.err(format!(
                "{what} type must be {}, got {}",
                type_string(expected),
                type_string(result)
            )));
        }
        Ok(())
    }

    /// Checks that a tensor has exactly `shape`.
    pub fn shape_is(&self, t: &Tensor, shape: &[usize], what: &str) -> Res<()> {
        if t.shape != shape {
            return Err(self.err(format!(
                "{what} has shape {:?}, expected {shape:?}",
                t.shape
            )));
        }
        Ok(())
    }
}

/// `tensor<2x3xf16>`-style text for messages.
pub(crate) fn type_string(t: &TensorType) -> String {
    let mut s = String::from("tensor<");
    for d in &t.shape {
        s.push_str(&format!("{d}x"));
    }
    s.push_str(t.dtype.mlir_name());
    s.push('>');
    s
}

/// Row-major strides of `shape` (in elements).
pub(crate) fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1];
    }
    s
}

/// The numpy broadcast of two shapes, `None` if they do not broadcast.
pub(crate) fn broadcast_shapes(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let rank = a.len().max(b.len());
    let mut out = vec![0; rank];
    for (i, o) in out.iter_mut().enumerate() {
        // Dimension i of the result aligns with dimension i - (rank - len) of each operand.
        let da = (i + a.len()).checked_sub(rank).map_or(1, |j| a[j]);
        let db = (i + b.len()).checked_sub(rank).map_or(1, |j| b[j]);
        *o = match (da, db) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            _ => return None,
        };
    }
    Some(out)
}

/// For every element of `out_shape` (row-major), the flat index of the element of a tensor of
/// `in_shape` that broadcasts onto it; `None` unless `in_shape` broadcasts to `out_shape`
/// (right-aligned, each dimension equal or 1, rank not larger).
pub(crate) fn broadcast_offsets(in_shape: &[usize], out_shape: &[usize]) -> Option<Vec<usize>> {
    if in_shape.len() > out_shape.len() {
        return None;
    }
    let lead = out_shape.len() - in_shape.len();
    let in_strides = strides(in_shape);
    // Stride 0 for a broadcast (size-1) dimension and for the missing leading dimensions.
    let mut eff = vec![0; out_shape.len()];
    for (j, (&d, &s)) in in_shape.iter().zip(&in_strides).enumerate() {
        let o = out_shape[lead + j];
        if d == o {
            eff[lead + j] = s;
        } else if d != 1 {
            return None;
        }
    }
    let total: usize = out_shape.iter().product();
    let mut offsets = Vec::with_capacity(total);
    let mut index = vec![0usize; out_shape.len()];
    let mut offset = 0usize;
    for _ in 0..total {
        offsets.push(offset);
        // Odometer increment, keeping the input offset in step.
        for k in (0..out_shape.len()).rev() {
            index[k] += 1;
            offset += eff[k];
            if index[k] < out_shape[k] {
                break;
            }
            offset -= eff[k] * index[k];
            index[k] = 0;
        }
    }
    Some(offsets)
}

/// The values of `t` broadcast to `out_shape`, or a contract error naming `what`.
pub(crate) fn broadcast_values(
    ctx: &Ctx<'_>,
    t: &Tensor,
    out_shape: &[usize],
    what: &str,
) -> Res<Vec<f64>> {
    let offsets = broadcast_offsets(&t.shape, out_shape).ok_or_else(|| {
        ctx.err(format!(
            "{what} of shape {:?} does not broadcast to {out_shape:?}",
            t.shape
        ))
    })?;
    let values = t.to_f64();
    Ok(offsets.into_iter().map(|o| values[o]).collect())
}

/// A tensor of type `ty` holding `values` rounded to its element type.
pub(crate) fn tensor_from(ctx: &Ctx<'_>, ty: &TensorType, values: &[f64]) -> Res<Tensor> {
    Tensor::from_f64(ty.dtype, &ty.shape, values).map_err(|e| ctx.err(e.to_string()))
}

/// A tensor of type `ty` holding integer `values` (saturating to its element type).
pub(crate) fn tensor_from_i64(ctx: &Ctx<'_>, ty: &TensorType, values: &[i64]) -> Res<Tensor> {
    Tensor::from_i64(ty.dtype, &ty.shape, values).map_err(|e| ctx.err(e.to_string()))
}

/// The error function, from `libm` (a port of FreeBSD's msun, accurate to about 1 ulp).
pub(crate) fn erf(x: f64) -> f64 {
    libm::erf(x)
}

/// GELU with the exact error function: x·Φ(x).
pub(crate) fn gelu_erf(x: f64) -> f64 {
    0.5 * x * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// GELU with the tanh approximation: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
pub(crate) fn gelu_tanh(x: f64) -> f64 {
    let c = (2.0 / std::f64::consts::PI).sqrt();
    0.5 * x * (1.0 + (c * (x + 0.044715 * x * x * x)).tanh())
}

/// The logistic function 1 / (1 + e^-x), without overflow for large |x|.
pub(crate) fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// SiLU (swish): x·σ(x).
pub(crate) fn silu(x: f64) -> f64 {
    x * sigmoid(x)
}

#[cfg(test)]
pub(crate) mod test_util {
    //! Helpers shared by the backend's unit tests.

    use super::*;

    /// Builds attributes from `(name, value)` pairs.
    pub fn attrs(pairs: &[(&str, AttrValue)]) -> Attrs {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    /// A string attribute value.
    pub fn s(v: &str) -> AttrValue {
        AttrValue::Str(v.to_string())
    }

    /// A tensor of values (rounded to `dtype`).
    pub fn t(dtype: DType, shape: &[usize], values: &[f64]) -> Tensor {
        Tensor::from_f64(dtype, shape, values).expect("values fill the shape")
    }

    /// A tensor of integers.
    pub fn ti(dtype: DType, shape: &[usize], values: &[i64]) -> Tensor {
        Tensor::from_i64(dtype, shape, values).expect("values fill the shape")
    }

    /// A result type.
    pub fn ty(dtype: DType, shape: &[usize]) -> TensorType {
        TensorType::new(dtype, shape.to_vec())
    }

    /// Runs `op` with every operand present.
    pub fn run(op: &str, a: &Attrs, inputs: &[&Tensor], results: &[TensorType]) -> Vec<Tensor> {
        let inputs: Vec<Option<&Tensor>> = inputs.iter().map(|t| Some(*t)).collect();
        execute(op, a, &inputs, results).unwrap_or_else(|e| panic!("{op} failed: {e}"))
    }

    /// Runs `op` and returns the contract error's message (panics on success).
    pub fn run_err(
        op: &str,
        a: &Attrs,
        inputs: &[Option<&Tensor>],
        results: &[TensorType],
    ) -> String {
        match execute(op, a, inputs, results) {
            Ok(_) => panic!("{op} unexpectedly succeeded"),
            Err(e) => e.to_string(),
        }
    }

    /// Asserts element-wise closeness.
    pub fn close(actual: &[f64], expected: &[f64], tol: f64) {
        assert_eq!(actual.len(), expected.len(), "{actual:?} vs {expected:?}");
        for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
            assert!(
                (a - e).abs() <= tol * (1.0 + e.abs()),
                "element {i}: {a} vs {e}\n{actual:?}\n{expected:?}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_util::*;
    use super::*;

    #[test]
    fn broadcast_helpers() {
        assert_eq!(broadcast_shapes(&[2, 1, 3], &[4, 1]), Some(vec![2, 4, 3]));
        assert_eq!(broadcast_shapes(&[2, 3], &[4, 3]), None);
        assert_eq!(broadcast_shapes(&[], &[5]), Some(vec![5]));
        assert_eq!(
            broadcast_offsets(&[3, 1], &[2, 3, 2]),
            Some(vec![0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2])
        );
        assert_eq!(broadcast_offsets(&[], &[2]), Some(vec![0, 0]));
        assert_eq!(broadcast_offsets(&[2], &[3]), None);
        assert_eq!(strides(&[2, 3, 4]), vec![12, 4, 1]);
    }

    #[test]
    fn unknown_opaque_and_bad_inputs() {
        let x = t(DType::F32, &[2], &[1.0, 2.0]);
        let none = Attrs::new();
        assert!(matches!(
            execute("dit.nope", &none, &[Some(&x)], &[x.ty()]),
            Err(RuntimeError::UnknownOp(_))
        ));
        let msg = run_err(
            "dit.opaque",
            &attrs(&[("name", s("foo"))]),
            &[Some(&x)],
            &[x.ty()],
        );
        assert!(msg.contains("no reference semantics"), "{msg}");
        let msg = run_err(
            "dit.fused",
            &attrs(&[("kernel", s("k0"))]),
            &[Some(&x)],
            &[x.ty()],
        );
        assert!(msg.contains("region op"), "{msg}");
        // A tensor whose bytes do not fit its type is rejected, not indexed.
        let broken = Tensor {
            dtype: DType::F32,
            shape: vec![4],
            data: vec![0; 3],
        };
        let msg = run_err("dit.exp", &none, &[Some(&broken)], &[broken.ty()]);
        assert!(msg.contains("needs 16 bytes"), "{msg}");
        // Missing operand and wrong slot count.
        let msg = run_err("dit.add", &none, &[Some(&x), None], &[x.ty()]);
        assert!(msg.contains("missing"), "{msg}");
        let msg = run_err("dit.add", &none, &[Some(&x)], &[x.ty()]);
        assert!(msg.contains("operand slot"), "{msg}");
        // A result type too large to allocate.
        let huge = ty(DType::F32, &[usize::MAX, 2]);
        let msg = run_err("dit.exp", &none, &[Some(&x)], &[huge]);
        assert!(msg.contains("too large"), "{msg}");
    }

    #[test]
    fn activation_helpers() {
        close(
            &[erf(0.5), erf(-2.0)],
            &[0.520_499_877_813_046_5, -0.995_322_265_018_952_7],
            1e-15,
        );
        close(&[gelu_erf(1.0)], &[0.841_344_746_068_542_9], 1e-15);
        close(&[gelu_tanh(1.0)], &[0.841_191_990_608_276_5], 1e-15);
        close(
            &[sigmoid(-800.0), sigmoid(800.0), silu(2.0)],
            &[0.0, 1.0, 1.761_594_155_955_764_9],
            1e-15,
        );
    }
}
