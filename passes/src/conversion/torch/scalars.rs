//! Reading the non-tensor operands of aten ops: `torch.constant.*` values, lists built by
//! `torch.prim.ListConstruct`, through `torch.derefine` (a cast to an optional or a supertype)
//! and the little integer arithmetic torch.export leaves in shape computations
//! (`aten.size.int` of a static dim, `aten.mul.int`, ...). A value that is not a compile-time
//! constant evaluates to `None`; converters then fall back to `dit.opaque`.

use super::mlir;
use dit_dialect::ir::{Attr, Op, Val};
use mlir_sys::MlirContext;

/// A torch scalar or list value known at compile time.
#[derive(Clone, Debug, PartialEq)]
pub enum Scalar {
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(String),
    /// `torch.constant.none`.
    None,
    /// A `torch.constant.device` (kept only for the record of an opaque op).
    Device(String),
    List(Vec<Scalar>),
}

impl Scalar {
    /// The value as an integer (a bool is 0 or 1, as in Python).
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Scalar::Int(i) => Some(*i),
            Scalar::Bool(b) => Some(i64::from(*b)),
            _ => None,
        }
    }

    /// The value as a float (an int or bool converts, as in Python arithmetic).
    pub fn as_float(&self) -> Option<f64> {
        match self {
            Scalar::Float(f) => Some(*f),
            Scalar::Int(i) => Some(*i as f64),
            Scalar::Bool(b) => Some(f64::from(u8::from(*b))),
            _ => None,
        }
    }

    /// The elements of a list of integers.
    pub fn as_int_list(&self) -> Option<Vec<i64>> {
        match self {
            Scalar::List(items) => items.iter().map(Scalar::as_int).collect(),
            _ => None,
        }
    }

    /// The value as an attribute, for the record an opaque op keeps of its arguments.
    pub fn to_attr<'a>(&self, context: MlirContext) -> Attr<'a> {
        match self {
            Scalar::Int(i) => Attr::i64(context, *i),
            Scalar::Float(f) => mlir::f64_attr(context, *f),
            Scalar::Bool(b) => Attr::bool(context, *b),
            Scalar::Str(s) | Scalar::Device(s) => Attr::string(context, s),
            Scalar::None => mlir::unit_attr(context),
            Scalar::List(items) => {
                let items: Vec<Attr> = items.iter().map(|s| s.to_attr(context)).collect();
                mlir::array_attr(context, &items)
            }
        }
    }
}

/// How deep [`eval`] follows producers: shape arithmetic is shallow, and a bound keeps a
/// hostile input from recursing without end.
const MAX_DEPTH: usize = 32;

/// The compile-time value of `v`, if it has one.
pub fn eval(v: Val) -> Option<Scalar> {
    eval_at(v, 0)
}

/// The integer value of `v`.
pub fn int(v: Val) -> Option<i64> {
    eval(v)?.as_int()
}

/// The float value of `v` (ints convert).
pub fn float(v: Val) -> Option<f64> {
    eval(v)?.as_float()
}

/// The bool value of `v`.
pub fn bool(v: Val) -> Option<bool> {
    match eval(v)? {
        Scalar::Bool(b) => Some(b),
        Scalar::Int(i) => Some(i != 0),
        _ => None,
    }
}

/// The string value of `v`.
pub fn str(v: Val) -> Option<String> {
    match eval(v)? {
        Scalar::Str(s) => Some(s),
        _ => None,
    }
}

/// Whether `v` is `torch.constant.none` (an absent optional argument).
pub fn is_none(v: Val) -> bool {
    matches!(eval(v), Some(Scalar::None))
}

/// The integer list value of `v`.
pub fn int_list(v: Val) -> Option<Vec<i64>> {
    eval(v)?.as_int_list()
}

/// The values a `torch.prim.ListConstruct` collects (tensors or scalars), through
/// `torch.derefine`.
pub fn list_elements(v: Val) -> Option<Vec<Val>> {
    let mut def = v.defining_op()?;
    for _ in 0..MAX_DEPTH {
        if def.is("torch.derefine") && def.num_operands() == 1 {
            def = def.operand(0).defining_op()?;
            continue;
        }
        return def.is("torch.prim.ListConstruct").then(|| def.operands());
    }
    None
}

/// The `value` attribute of a torch constant op. torch-mlir prints inherent attributes as
/// properties (`<{value = 2 : i64}>`), older printers as attributes (`{value = 2 : i64}`);
/// both read back through [`Op::attr`].
fn value_attr(op: Op) -> Option<Attr> {
    op.attr("value")
}

fn eval_at(v: Val, depth: usize) -> Option<Scalar> {
    if depth > MAX_DEPTH {
        return None;
    }
    let op = v.defining_op()?;
    let name = op.name();
    let operand = |i: usize| (i < op.num_operands()).then(|| op.operand(i));
    let int_at = |i: usize| eval_at(operand(i)?, depth + 1)?.as_int();
    match name.as_str() {
        "torch.constant.int" => value_attr(op)?.as_i64().map(Scalar::Int),
        "torch.constant.float" => value_attr(op)?.as_f64().map(Scalar::Float),
        "torch.constant.bool" => {
            let a = value_attr(op)?;
            a.as_bool()
                .or_else(|| a.as_i64().map(|i| i != 0))
                .map(Scalar::Bool)
        }
        "torch.constant.number" => {
            let a = value_attr(op)?;
            a.as_i64()
                .map(Scalar::Int)
                .or_else(|| a.as_f64().map(Scalar::Float))
        }
        "torch.constant.str" => value_attr(op)?.as_str().map(Scalar::Str),
        "torch.constant.device" => value_attr(op)?.as_str().map(Scalar::Device),
        "torch.constant.none" => Some(Scalar::None),
        "torch.derefine" => eval_at(operand(0)?, depth + 1),
        "torch.prim.ListConstruct" => op
            .operands()
            .into_iter()
            .map(|e| eval_at(e, depth + 1))
            .collect::<Option<Vec<_>>>()
            .map(Scalar::List),
        // A static dim of a tensor (the operand is already a builtin tensor, or still a
        // value tensor whose type converts).
        "torch.aten.size.int" => {
            let t = operand(0)?;
            let dims = match t.tensor() {
                Some(info) => info.shape,
                None => match super::types::classify(mlir::type_of(t)) {
                    super::types::TorchType::Tensor(ty) => mlir::tensor_info(ty.0)?.shape,
                    _ => return None,
                },
            };
            let d = int_at(1)?;
            let rank = i64::try_from(dims.len()).ok()?;
            let d = if d < 0 { d + rank } else { d };
            dims.get(usize::try_from(d).ok()?)
                .copied()
                .flatten()
                .map(Scalar::Int)
        }
        "torch.aten.mul.int" => int_at(0)?.checked_mul(int_at(1)?).map(Scalar::Int),
        "torch.aten.add.int" => int_at(0)?.checked_add(int_at(1)?).map(Scalar::Int),
        "torch.aten.sub.int" => int_at(0)?.checked_sub(int_at(1)?).map(Scalar::Int),
        "torch.aten.neg.int" => int_at(0)?.checked_neg().map(Scalar::Int),
        "torch.aten.floordiv.int" => floor_div(int_at(0)?, int_at(1)?).map(Scalar::Int),
        _ => None,
    }
}

/// Python's `a // b`: floors toward negative infinity (Rust's `/` truncates toward zero);
/// `None` for b == 0 and for i64::MIN // -1.
pub fn floor_div(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    Some(if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_division_follows_python() {
        assert_eq!(floor_div(7, 2), Some(3));
        assert_eq!(floor_div(-7, 2), Some(-4));
        assert_eq!(floor_div(7, -2), Some(-4));
        assert_eq!(floor_div(-8, 2), Some(-4));
        assert_eq!(floor_div(1, 0), None);
        assert_eq!(floor_div(i64::MIN, -1), None);
    }

    #[test]
    fn scalars_convert_like_python() {
        assert_eq!(Scalar::Bool(true).as_int(), Some(1));
        assert_eq!(Scalar::Int(3).as_float(), Some(3.0));
        assert_eq!(Scalar::Str("x".into()).as_float(), None);
        assert_eq!(
            Scalar::List(vec![Scalar::Int(1), Scalar::Int(-1)]).as_int_list(),
            Some(vec![1, -1])
        );
        assert_eq!(
            Scalar::List(vec![Scalar::Int(1), Scalar::None]).as_int_list(),
            None
        );
    }
}
