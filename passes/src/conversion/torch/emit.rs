//! Emitting the dit ops (and `arith.constant`s) that replace one torch op, tentatively: every
//! op created is remembered, checked with the dit verifier and MLIR's own verifier, and erased
//! again when the group does not verify, so that the caller can fall back to `dit.opaque`
//! instead of leaving IR that breaks the contract.

use super::mlir;
use dit_dialect::ops::OpKind;
use dit_dialect::{
    ir::{self, Attr, Op, Val},
    ops::OpBuilder,
    tensor::Dim,
    verifier,
};
use mlir_sys::{MlirContext, MlirType};

/// A number to materialize as a constant tensor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl Num {
    /// The number as an f64.
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
            Num::Bool(b) => f64::from(u8::from(b)),
        }
    }
}

/// Creates ops right before one anchor op and remembers them.
pub struct Emitter<'a> {
    anchor: Op<'a>,
    context: MlirContext,
    created: Vec<Op<'a>>,
}

impl<'a> Emitter<'a> {
    /// New ops go right before `anchor` (the torch op being replaced) and take its location.
    pub fn new(anchor: Op<'a>) -> Self {
        Self {
            anchor,
            context: anchor.context_raw(),
            created: Vec::new(),
        }
    }

    /// The context the ops live in.
    pub fn context(&self) -> MlirContext {
        self.context
    }

    /// How many ops have been created so far (a point to roll back to).
    pub fn mark(&self) -> usize {
        self.created.len()
    }

    /// Creates a dit op with one entry per operand slot (see [`OpBuilder::create`]).
    pub fn dit(
        &mut self,
        kind: OpKind,
        slots: &[&[Val<'a>]],
        results: &[MlirType],
        attributes: &[(&str, Attr<'a>)],
    ) -> Result<Op<'a>, String> {
        let op = OpBuilder::before(self.anchor).create(kind, slots, results, attributes)?;
        self.created.push(op);
        Ok(op)
    }

    /// Creates a single-result dit op and returns its result.
    pub fn dit1(
        &mut self,
        kind: OpKind,
        slots: &[&[Val<'a>]],
        result: MlirType,
        attributes: &[(&str, Attr<'a>)],
    ) -> Result<Val<'a>, String> {
        Ok(self.dit(kind, slots, &[result], attributes)?.result(0))
    }

    /// `arith.constant` of a typed (elements) attribute.
    pub fn constant(&mut self, value: Attr<'a>) -> Val<'a> {
        let ty = mlir::attr_type(value);
        let op = ir::create_op_before(
            self.anchor,
            "arith.constant",
            &[],
            &[ty],
            &[("value", value)],
        );
        self.created.push(op);
        op.result(0)
    }

    /// A constant tensor of `shape` (static) and `element` type with every element `value`.
    pub fn splat(
        &mut self,
        shape: &[Dim],
        element: MlirType,
        value: Num,
    ) -> Result<Val<'a>, String> {
        if shape.iter().any(Option::is_none) {
            return Err("a constant needs a static shape".into());
        }
        let ty = mlir::tensor_of(shape, element);
        let literal = element_literal(element, value)?;
        let text = format!("dense<{literal}> : {}", mlir::type_text(ty));
        let attr = mlir::parse_attr(self.context, &text)
            .ok_or_else(|| format!("cannot build the constant {text}"))?;
        Ok(self.constant(attr))
    }

    /// A constant tensor of `shape` (static) and `element` type holding `values` in row-major
    /// order (an aten.arange with constant bounds).
    pub fn dense(
        &mut self,
        shape: &[Dim],
        element: MlirType,
        values: &[Num],
    ) -> Result<Val<'a>, String> {
        let count = shape
            .iter()
            .try_fold(1i64, |n, d| d.and_then(|d| n.checked_mul(d)))
            .ok_or("a constant needs a static shape")?;
        if count != values.len() as i64 {
            return Err(format!(
                "{} values for a constant of {count} elements",
                values.len()
            ));
        }
        let ty = mlir::tensor_of(shape, element);
        let literals = values
            .iter()
            .map(|v| element_literal(element, *v))
            .collect::<Result<Vec<_>, _>>()?;
        let text = format!("dense<[{}]> : {}", literals.join(", "), mlir::type_text(ty));
        let attr = mlir::parse_attr(self.context, &text)
            .ok_or_else(|| format!("cannot build the constant of {}", mlir::type_text(ty)))?;
        Ok(self.constant(attr))
    }

    /// A 0-d constant (a scalar operand, as DIALECT.md spells scalars).
    pub fn scalar(&mut self, element: MlirType, value: Num) -> Result<Val<'a>, String> {
        self.splat(&[], element, value)
    }

    /// `v` converted to element type `element` (no op when it already has it).
    pub fn cast(&mut self, v: Val<'a>, element: MlirType) -> Result<Val<'a>, String> {
        let ty = mlir::type_of(v);
        let from = mlir::element_type(ty).ok_or("a cast operand is not a tensor")?;
        if mlir::same_type(from, element) {
            return Ok(v);
        }
        let shape = v
            .tensor()
            .ok_or("a cast operand is not a ranked tensor")?
            .shape;
        self.dit1(OpKind::Cast, &[&[v]], mlir::tensor_of(&shape, element), &[])
    }

    /// `v` as a value of type `ty`: cast to its element type, then reshaped to its shape
    /// (no op for what already matches).
    pub fn to_type(&mut self, v: Val<'a>, ty: MlirType) -> Result<Val<'a>, String> {
        if mlir::same_type(mlir::type_of(v), ty) {
            return Ok(v);
        }
        let element = mlir::element_type(ty).ok_or("the target type is not a tensor")?;
        let cast = self.cast(v, element)?;
        self.reshape(cast, ty)
    }

    /// `dit.reshape` of `v` to `ty` (no op when the types are equal).
    pub fn reshape(&mut self, v: Val<'a>, ty: MlirType) -> Result<Val<'a>, String> {
        if mlir::same_type(mlir::type_of(v), ty) {
            return Ok(v);
        }
        self.dit1(OpKind::Reshape, &[&[v]], ty, &[])
    }

    /// Checks every op created since `mark` with the dit verifier and MLIR's verifier; the
    /// first violation is the error.
    pub fn check_from(&self, mark: usize) -> Result<(), String> {
        for op in &self.created[mark.min(self.created.len())..] {
            if let Err((rule, message)) = verifier::verify_op(*op) {
                return Err(format!("{} would break rule {rule}: {message}", op.name()));
            }
            // The Rust rules just passed: MLIR's verifier need not run them again through
            // the dialect's hook (it checks the ODS constraints).
            if !verifier::with_hook_deferred(|| mlir::verifies_quietly(*op)) {
                return Err(format!("{} would not verify", op.name()));
            }
        }
        Ok(())
    }

    /// Checks every op created (see [`Emitter::check_from`]).
    pub fn check(&self) -> Result<(), String> {
        self.check_from(0)
    }

    /// Erases the ops created since `mark`, newest first (they are only used by each other).
    pub fn rollback_to(&mut self, mark: usize) {
        while self.created.len() > mark {
            if let Some(op) = self.created.pop() {
                for r in op.results() {
                    // Nothing outside the group uses them yet; a use inside it was erased
                    // first (newest first), so this only guards against a caller's mistake.
                    if r.has_uses() {
                        return;
                    }
                }
                // SAFETY: the op was created by this emitter and is unused (checked just above;
                // newer ops, its only possible users, were erased first); it has just been popped
                // from `created`, and callers do not use the handles of ops they roll back.
                unsafe { op.erase() };
            }
        }
    }

    /// Erases every op created.
    pub fn rollback(&mut self) {
        self.rollback_to(0);
    }
}

/// The text of one element of a dense attribute of `element` type.
pub(crate) fn element_literal(element: MlirType, value: Num) -> Result<String, String> {
    let name = mlir::type_text(element);
    let f = value.as_f64();
    match name.as_str() {
        "f32" | "f16" | "bf16" | "f64" => {
            if f.is_finite() {
                Ok(float_literal(f))
            } else {
                // MLIR's float literals cannot spell inf or NaN: write their bits.
                let bits: u64 = match (name.as_str(), f.is_nan(), f > 0.0) {
                    ("f32", false, _) => u64::from((f as f32).to_bits()),
                    ("f32", true, _) => 0x7FC0_0000,
                    ("f64", _, _) => f.to_bits(),
                    ("f16", true, _) => 0x7E00,
                    ("f16", false, true) => 0x7C00,
                    ("f16", false, false) => 0xFC00,
                    ("bf16", true, _) => 0x7FC0,
                    ("bf16", false, true) => 0x7F80,
                    _ => 0xFF80,
                };
                Ok(format!("0x{bits:X}"))
            }
        }
        "i1" => match value {
            Num::Bool(b) => Ok(b.to_string()),
            _ if f == 0.0 => Ok("false".into()),
            _ if f == 1.0 => Ok("true".into()),
            _ => Err(format!("{f} is not a bool")),
        },
        _ if mlir::integer_width(element).is_some() => match value {
            Num::Int(i) => Ok(i.to_string()),
            Num::Bool(b) => Ok(u8::from(b).to_string()),
            // A float that is a whole number fits an integer tensor (`x * 2.0` on ints).
            Num::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Ok(format!("{}", f as i64)),
            Num::Float(f) => Err(format!("{f} is not an integer ({name} tensor)")),
        },
        _ => Err(format!("no constants of element type {name}")),
    }
}

/// A float in MLIR's literal syntax: a digit, a point and an exponent (`1.0e-06`), exact for
/// an f64 (Rust prints the shortest text that reads back as the same value).
pub fn float_literal(f: f64) -> String {
    let text = format!("{f:e}");
    match text.split_once('e') {
        Some((mantissa, exponent)) if !mantissa.contains('.') => {
            format!("{mantissa}.0e{exponent}")
        }
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_constants_are_written_as_bits() {
        let context = dit_dialect::new_context().expect("dialect loads");
        let raw = context.to_raw();
        let ty = |t: &str| mlir::parse_type(raw, t).expect("a builtin type");
        assert_eq!(
            element_literal(ty("bf16"), Num::Float(f64::NEG_INFINITY)).unwrap(),
            "0xFF80"
        );
        assert_eq!(
            element_literal(ty("f16"), Num::Float(f64::INFINITY)).unwrap(),
            "0x7C00"
        );
        assert_eq!(
            element_literal(ty("f32"), Num::Float(f64::NAN)).unwrap(),
            "0x7FC00000"
        );
        assert_eq!(element_literal(ty("i64"), Num::Float(2.0)).unwrap(), "2");
        assert!(element_literal(ty("i64"), Num::Float(0.5)).is_err());
        assert_eq!(element_literal(ty("i1"), Num::Int(1)).unwrap(), "true");
        assert!(element_literal(ty("complex<f32>"), Num::Int(1)).is_err());
    }

    #[test]
    fn float_literals_have_a_point() {
        assert_eq!(float_literal(1e-6), "1.0e-6");
        assert_eq!(float_literal(0.5), "5.0e-1");
        assert_eq!(float_literal(2.0), "2.0e0");
        assert_eq!(float_literal(-0.0883883476), "-8.83883476e-2");
        assert_eq!(float_literal(0.0), "0.0e0");
    }
}
