//! `dit.fused`: a region of dit ops that a pass grouped into one generated kernel. The lowering
//! passes the region as JSON in the launch's attributes, so the CPU backend can run it op by op
//! with the reference (the CANN backend needs the generated Ascend C kernel instead):
//!
//! ```json
//! {"kernel": "fused_f_0",
//!  "body": {"args": [{"dtype": "bf16", "shape": [1, 4, 8]}, ...],
//!           "ops": [{"name": "dit.mul", "operands": [0, 1], "attrs": {},
//!                    "results": [{"dtype": "bf16", "shape": [1, 4, 8]}]}, ...],
//!           "yield": [5, 7]}}
//! ```
//!
//! Value ids: the body arguments are `0..args.len()` (the launch inputs, in order), then each
//! op's results take the next ids in op order. An operand may be `null` (an empty optional
//! slot). Keys other than these are ignored, so the lowering may add attributes of its own.

use dit_ops::OpKind;
use std::borrow::Cow;

use serde::Deserialize;

use crate::{context::type_string, cpu, Attrs, DType, RuntimeError, Tensor, TensorType};

/// A tensor type as the JSON spells it.
#[derive(Debug, Deserialize)]
struct TypeJson {
    dtype: String,
    shape: Vec<usize>,
}

#[derive(Debug, Deserialize)]
struct OpJson {
    name: String,
    operands: Vec<Option<usize>>,
    #[serde(default)]
    attrs: Attrs,
    results: Vec<TypeJson>,
}

#[derive(Debug, Deserialize)]
struct BodyJson {
    args: Vec<TypeJson>,
    ops: Vec<OpJson>,
    #[serde(rename = "yield")]
    yields: Vec<usize>,
}

#[derive(Debug, Deserialize)]
struct FusedJson {
    kernel: String,
    body: BodyJson,
}

/// One op of the body, with its value ids resolved and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyOp {
    /// The dit op, `dit.<name>`.
    pub name: String,
    /// Value ids of the operand slots (`None`: empty optional slot); each is defined earlier.
    pub operands: Vec<Option<usize>>,
    /// The op's attributes.
    pub attrs: Attrs,
    /// Result types; the results get consecutive value ids.
    pub results: Vec<TensorType>,
}

/// A validated `dit.fused` launch: every id is in range and defined before use.
#[derive(Debug, Clone, PartialEq)]
pub struct FusedOp {
    /// The generated kernel's name.
    pub kernel: String,
    /// Types of the body arguments (value ids `0..args.len()`).
    pub args: Vec<TensorType>,
    /// The body, in order.
    pub ops: Vec<BodyOp>,
    /// Value ids the body yields, one per launch output.
    pub yields: Vec<usize>,
}

/// A contract violation of `dit.fused`.
fn err(message: impl Into<String>) -> RuntimeError {
    crate::contract(OpKind::Fused.name(), message)
}

fn parse_type(t: &TypeJson, what: &str) -> Result<TensorType, RuntimeError> {
    let dtype = DType::from_mlir_name(&t.dtype)
        .ok_or_else(|| err(format!("{what}: unknown element type '{}'", t.dtype)))?;
    let ty = TensorType::new(dtype, t.shape.clone());
    if ty.checked_storage_bytes().is_none() {
        return Err(err(format!("{what}: shape {:?} is too large", t.shape)));
    }
    Ok(ty)
}

impl FusedOp {
    /// Parses and validates the launch attributes of a `dit.fused`.
    pub fn parse(attrs_json: &str) -> Result<FusedOp, RuntimeError> {
        let json: FusedJson = serde_json::from_str(attrs_json)
            .map_err(|e| err(format!("attrs_json is not a fused body: {e}")))?;
        let args = json
            .body
            .args
            .iter()
            .enumerate()
            .map(|(i, t)| parse_type(t, &format!("body argument #{i}")))
            .collect::<Result<Vec<_>, _>>()?;
        let mut defined = args.len();
        let mut ops = Vec::with_capacity(json.body.ops.len());
        for (k, op) in json.body.ops.into_iter().enumerate() {
            let what = format!("body op #{k} ({})", op.name);
            let region_op = matches!(
                OpKind::from_name(&op.name),
                Some(OpKind::Fused | OpKind::Yield)
            );
            if !op.name.starts_with(dit_ops::DIALECT_PREFIX) || region_op {
                return Err(err(format!(
                    "{what}: a body holds dit ops other than dit.fused and dit.yield"
                )));
            }
            for (slot, id) in op.operands.iter().enumerate() {
                if let Some(id) = id {
                    if *id >= defined {
                        return Err(err(format!(
                            "{what}: operand #{slot} uses value {id}, which is not defined \
                             before it ({defined} values so far)"
                        )));
                    }
                }
            }
            let results = op
                .results
                .iter()
                .enumerate()
                .map(|(i, t)| parse_type(t, &format!("{what} result #{i}")))
                .collect::<Result<Vec<_>, _>>()?;
            defined += results.len();
            ops.push(BodyOp {
                name: op.name,
                operands: op.operands,
                attrs: op.attrs,
                results,
            });
        }
        if let Some(id) = json.body.yields.iter().find(|id| **id >= defined) {
            return Err(err(format!(
                "the body yields value {id}, which is not defined ({defined} values)"
            )));
        }
        Ok(FusedOp {
            kernel: json.kernel,
            args,
            ops,
            yields: json.body.yields,
        })
    }

    /// The type of every value id, in id order.
    fn value_types(&self) -> Vec<&TensorType> {
        self.args
            .iter()
            .chain(self.ops.iter().flat_map(|op| &op.results))
            .collect()
    }

    /// Checks the launch against the body: the kernel name (when given), one present input of
    /// the argument's type per argument, one output of the yielded value's type per yield.
    pub fn check_signature(
        &self,
        kernel: &str,
        inputs: &[Option<&Tensor>],
        outputs: &[TensorType],
    ) -> Result<(), RuntimeError> {
        let types: Vec<Option<TensorType>> = inputs.iter().map(|t| t.map(Tensor::ty)).collect();
        self.check_types(kernel, &types, outputs)
    }

    /// [`FusedOp::check_signature`] on the types of the inputs (tensors on a device).
    pub fn check_types(
        &self,
        kernel: &str,
        inputs: &[Option<TensorType>],
        outputs: &[TensorType],
    ) -> Result<(), RuntimeError> {
        if !kernel.is_empty() && kernel != self.kernel {
            return Err(err(format!(
                "the launch names kernel {kernel}, its attributes {}",
                self.kernel
            )));
        }
        if inputs.len() != self.args.len() {
            return Err(err(format!(
                "{} inputs for {} body arguments",
                inputs.len(),
                self.args.len()
            )));
        }
        for (i, (input, ty)) in inputs.iter().zip(&self.args).enumerate() {
            let Some(input) = input else {
                return Err(err(format!(
                    "input #{i} is absent; body arguments are required"
                )));
            };
            if input != ty {
                return Err(err(format!(
                    "input #{i} is {}, body argument #{i} is {}",
                    type_string(input),
                    type_string(ty)
                )));
            }
        }
        if outputs.len() != self.yields.len() {
            return Err(err(format!(
                "{} outputs for {} yielded values",
                outputs.len(),
                self.yields.len()
            )));
        }
        let types = self.value_types();
        for (i, (out, id)) in outputs.iter().zip(&self.yields).enumerate() {
            if types[*id] != out {
                return Err(err(format!(
                    "output #{i} is {}, the yielded value {id} is {}",
                    type_string(out),
                    type_string(types[*id])
                )));
            }
        }
        Ok(())
    }

    /// Runs the body with the CPU reference, op by op, and returns the yielded values. Each
    /// intermediate is dropped after its last use, so a long body holds only live values.
    /// `inputs` passed [`FusedOp::check_signature`].
    pub fn run_cpu(&self, inputs: &[Option<&Tensor>]) -> Result<Vec<Tensor>, RuntimeError> {
        let n_values = self.value_types().len();
        // The op index after which a value is dead; yielded values live to the end.
        let mut last_use = vec![None; n_values];
        for (k, op) in self.ops.iter().enumerate() {
            for id in op.operands.iter().flatten() {
                last_use[*id] = Some(k);
            }
        }
        for id in &self.yields {
            last_use[*id] = Some(self.ops.len());
        }
        let mut values: Vec<Option<Cow<'_, Tensor>>> = Vec::with_capacity(n_values);
        for (i, input) in inputs.iter().enumerate() {
            let t = input.ok_or_else(|| err(format!("input #{i} is absent")))?;
            values.push(Some(Cow::Borrowed(t)));
        }
        for (k, op) in self.ops.iter().enumerate() {
            let what = || format!("kernel {}: body op #{k} ({})", self.kernel, op.name);
            let operands: Vec<Option<&Tensor>> =
                op.operands
                    .iter()
                    .map(|id| match id {
                        Some(id) => values[*id].as_deref().map(Some).ok_or_else(|| {
                            err(format!("{}: value {id} was already freed", what()))
                        }),
                        None => Ok(None),
                    })
                    .collect::<Result<_, _>>()?;
            let results = cpu::execute(&op.name, &op.attrs, &operands, &op.results)
                .map_err(|e| err(format!("{}: {e}", what())))?;
            if results.len() != op.results.len() {
                return Err(err(format!(
                    "{}: {} results, the body declares {}",
                    what(),
                    results.len(),
                    op.results.len()
                )));
            }
            for (i, (r, ty)) in results.iter().zip(&op.results).enumerate() {
                if r.ty() != *ty {
                    return Err(err(format!(
                        "{}: result #{i} is {}, the body declares {}",
                        what(),
                        type_string(&r.ty()),
                        type_string(ty)
                    )));
                }
            }
            values.extend(results.into_iter().map(|r| Some(Cow::Owned(r))));
            for id in op.operands.iter().flatten() {
                if last_use[*id] == Some(k) {
                    values[*id] = None;
                }
            }
            // A result nobody uses is dead at once.
            let first = values.len() - op.results.len();
            for id in first..values.len() {
                if last_use[id].is_none() {
                    values[id] = None;
                }
            }
        }
        self.yields
            .iter()
            .map(|id| {
                values[*id]
                    .as_deref()
                    .cloned()
                    .ok_or_else(|| err(format!("yielded value {id} was freed")))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = r#"{"kernel": "fused_f_0", "extra": 1, "body": {
        "args": [{"dtype": "f32", "shape": [2]}, {"dtype": "f32", "shape": [2]}],
        "ops": [
          {"name": "dit.mul", "operands": [0, 1], "results": [{"dtype": "f32", "shape": [2]}]},
          {"name": "dit.add", "operands": [2, 0], "attrs": {},
           "results": [{"dtype": "f32", "shape": [2]}]}],
        "yield": [3, 2]}}"#;

    #[test]
    fn parses_checks_and_runs() {
        let f = FusedOp::parse(BODY).unwrap();
        assert_eq!(f.kernel, "fused_f_0");
        assert_eq!(f.ops.len(), 2);
        let a = Tensor::from_f64(DType::F32, &[2], &[1.0, 2.0]).unwrap();
        let b = Tensor::from_f64(DType::F32, &[2], &[3.0, 4.0]).unwrap();
        let ty = TensorType::new(DType::F32, vec![2]);
        let inputs = [Some(&a), Some(&b)];
        f.check_signature("fused_f_0", &inputs, &[ty.clone(), ty.clone()])
            .unwrap();
        assert!(f
            .check_signature("other", &inputs, &[ty.clone(), ty.clone()])
            .is_err());
        assert!(f
            .check_signature("", &inputs, std::slice::from_ref(&ty))
            .is_err());
        assert!(f
            .check_signature("", &[Some(&a), None], &[ty.clone(), ty])
            .is_err());
        let out = f.run_cpu(&inputs).unwrap();
        assert_eq!(out[0].to_f64(), vec![4.0, 10.0]);
        assert_eq!(out[1].to_f64(), vec![3.0, 8.0]);
    }

    #[test]
    fn rejects_bad_bodies() {
        let bad = |s: &str| FusedOp::parse(s).unwrap_err().to_string();
        let arg = r#"{"dtype": "f32", "shape": [2]}"#;
        let body = |ops: &str, yields: &str| {
            format!(
                r#"{{"kernel": "k", "body": {{"args": [{arg}], "ops": [{ops}], "yield": {yields}}}}}"#
            )
        };
        let op = |name: &str, operands: &str| {
            format!(r#"{{"name": "{name}", "operands": {operands}, "results": [{arg}]}}"#)
        };
        assert!(bad(&body(&op("dit.neg", "[1]"), "[1]")).contains("not defined before"));
        assert!(bad(&body(&op("dit.neg", "[0]"), "[2]")).contains("yields value 2"));
        assert!(bad(&body(&op("dit.yield", "[0]"), "[1]")).contains("other than"));
        assert!(bad(&body("", "[0]").replace("f32", "f33")).contains("unknown element type"));
        assert!(bad(r#"{"kernel": "k"}"#).contains("not a fused body"));
        // A null operand is an empty optional slot, not an error of the parser.
        assert!(FusedOp::parse(&body(&op("dit.neg", "[null]"), "[1]")).is_ok());
    }
}
