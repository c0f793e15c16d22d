//! torch-mlir types, as dit-opt parses them (the torch dialect is not registered: every
//! `!torch.*` type is an opaque type of the `torch` namespace), and their builtin equivalents.
//!
//! `!torch.vtensor<[d0,d1,...],dtype>` becomes `tensor<d0xd1x...xdtype>`: a `?` or `-1` dim is
//! dynamic; torch's signed integers (`si64`, `si32`, ...) become MLIR's signless ones (the
//! dialect's integers), `ui8` stays unsigned (no dit op takes it, so ops on it stay opaque), and
//! `!torch.qint8` / `!torch.quint8` keep their storage type. Everything else that is a torch type
//! (scalars, lists, unranked or non-value tensors) has no tensor equivalent.

use super::mlir;
use mlir_sys::MlirType;
use std::{cell::RefCell, collections::HashMap};

/// What a type is, as far as the conversion cares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TorchType {
    /// `!torch.vtensor<[...],dtype>` with a known rank: the builtin tensor it becomes.
    Tensor(MlirTypeKey),
    /// A torch value tensor without a rank or dtype, a non-value `!torch.tensor`, or a dtype
    /// that has no builtin equivalent: why it cannot become a tensor.
    BadTensor(String),
    /// `!torch.list<vtensor...>` (a list of tensors, e.g. the result of aten.split).
    TensorList,
    /// Any other torch type (`!torch.int`, `!torch.none`, `!torch.list<int>`, ...).
    Scalar,
    /// Not a torch type.
    NotTorch,
}

/// An `MlirType` that can be compared (types are uniqued, so pointer equality is equality).
#[derive(Clone, Copy, Debug)]
pub struct MlirTypeKey(pub MlirType);

impl PartialEq for MlirTypeKey {
    fn eq(&self, other: &Self) -> bool {
        self.0.ptr == other.0.ptr
    }
}
impl Eq for MlirTypeKey {}

thread_local! {
    /// [`classify`]'s answers while a [`CacheScope`] is alive on this thread, by type pointer.
    static CACHE: RefCell<Option<HashMap<usize, TorchType>>> = const { RefCell::new(None) };
}

/// While alive, [`classify`] answers each type once: a conversion run classifies every value
/// of the graph, and reading a torch type's text and building its builtin type cost more than
/// the rest of the run's work on it. Types are uniqued and live as long as their context, which
/// outlives the run, so within the run a type's pointer names it; the answers are dropped with
/// the scope (a later context may reuse the addresses).
pub struct CacheScope {
    /// Whether this scope started the cache (a nested one leaves it to the outer).
    owner: bool,
}

impl CacheScope {
    /// Starts remembering answers on this thread (or joins the scope already open).
    pub fn new() -> Self {
        let owner = CACHE.with(|c| {
            let mut c = c.borrow_mut();
            let start = c.is_none();
            if start {
                *c = Some(HashMap::new());
            }
            start
        });
        Self { owner }
    }
}

impl Default for CacheScope {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for CacheScope {
    fn drop(&mut self) {
        if self.owner {
            CACHE.with(|c| *c.borrow_mut() = None);
        }
    }
}

/// Classifies `ty`, converting a value tensor type to its builtin tensor type.
pub fn classify(ty: MlirType) -> TorchType {
    let key = ty.ptr as usize;
    if let Some(hit) = CACHE.with(|c| c.borrow().as_ref().and_then(|m| m.get(&key).cloned())) {
        return hit;
    }
    let answer = classify_uncached(ty);
    CACHE.with(|c| {
        if let Some(m) = c.borrow_mut().as_mut() {
            m.insert(key, answer.clone());
        }
    });
    answer
}

fn classify_uncached(ty: MlirType) -> TorchType {
    let Some(body) = mlir::opaque_type_body(ty, "torch") else {
        return TorchType::NotTorch;
    };
    if let Some(rest) = body.strip_prefix("vtensor") {
        return match parse_vtensor(rest) {
            Ok((dims, dtype)) => match mlir::ranked_tensor(ty, &dims, &dtype) {
                Some(t) => TorchType::Tensor(MlirTypeKey(t)),
                None => TorchType::BadTensor(format!("element type '{dtype}' did not parse")),
            },
            Err(why) => TorchType::BadTensor(why),
        };
    }
    if body.starts_with("tensor") {
        return TorchType::BadTensor(
            "a non-value tensor (!torch.tensor): lower the module to value semantics first \
             (torch-mlir's backend contract uses !torch.vtensor)"
                .into(),
        );
    }
    if body.starts_with("list<") && body.contains("vtensor") {
        return TorchType::TensorList;
    }
    TorchType::Scalar
}

/// Parses the part after `vtensor`: `<[1,?,8],bf16>` into dims (`None` = dynamic) and the
/// builtin element type's text.
pub fn parse_vtensor(rest: &str) -> Result<(Vec<Option<i64>>, String), String> {
    let inner = rest
        .strip_prefix('<')
        .and_then(|r| r.strip_suffix('>'))
        .ok_or("the value tensor has no sizes and dtype (!torch.vtensor without <[...],dtype>)")?;
    let (sizes, dtype) = if let Some(after) = inner.strip_prefix('[') {
        let close = after.find(']').ok_or("unterminated size list")?;
        let dtype = after[close + 1..]
            .strip_prefix(',')
            .ok_or("missing dtype after the sizes")?;
        (&after[..close], dtype.trim())
    } else if inner.starts_with('*') {
        return Err(
            "the value tensor has unknown rank (sizes '*'): dit needs ranked tensors; \
                    refine the shapes in torch-mlir first"
                .into(),
        );
    } else {
        return Err(format!("unrecognised value tensor type 'vtensor{rest}'"));
    };
    let mut dims = Vec::new();
    let pieces = sizes.split(',').map(str::trim);
    for s in pieces.filter(|_| !sizes.trim().is_empty()) {
        dims.push(match s {
            "?" | "-1" => None,
            _ => match s.parse::<i64>() {
                Ok(d) if d >= 0 => Some(d),
                _ => return Err(format!("size '{s}' is not a dimension")),
            },
        });
    }
    let builtin = builtin_dtype(dtype).ok_or_else(|| {
        if dtype == "unk" || dtype.is_empty() {
            "the value tensor has an unknown dtype: refine the dtypes in torch-mlir first"
                .to_string()
        } else {
            format!("dtype '{dtype}' has no builtin MLIR equivalent")
        }
    })?;
    Ok((dims, builtin.to_string()))
}

/// The builtin element type for a torch dtype (torch-mlir's spelling, as the fx importer
/// writes it in `!torch.vtensor<[...],dtype>`). Only these exact spellings reach MLIR's type
/// parser, so a bad dtype is reported here instead of as a parser diagnostic.
pub fn builtin_dtype(dtype: &str) -> Option<&'static str> {
    Some(match dtype {
        "f32" => "f32",
        "f16" => "f16",
        "bf16" => "bf16",
        "f64" => "f64",
        // dit's integers are signless: a signed torch integer keeps its bits.
        "si64" | "i64" => "i64",
        "si32" | "i32" => "i32",
        "si16" | "i16" => "i16",
        "si8" | "i8" | "!torch.qint8" => "i8",
        // Unsigned stays unsigned: reading it as a signed i8 would change its values.
        "ui8" | "!torch.quint8" => "ui8",
        "i1" => "i1",
        "f8E4M3FN" => "f8E4M3FN",
        "f8E5M2" => "f8E5M2",
        "f8E5M2FNUZ" => "f8E5M2FNUZ",
        "f8E4M3FNUZ" => "f8E4M3FNUZ",
        "f8E8M0FNU" => "f8E8M0FNU",
        "f4E2M1FN" => "f4E2M1FN",
        "complex<f16>" => "complex<f16>",
        "complex<f32>" => "complex<f32>",
        "complex<f64>" => "complex<f64>",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vtensor_bodies_parse() {
        assert_eq!(
            parse_vtensor("<[1,4096,3072],bf16>").unwrap(),
            (vec![Some(1), Some(4096), Some(3072)], "bf16".to_string())
        );
        assert_eq!(
            parse_vtensor("<[?,-1, 8],si64>").unwrap(),
            (vec![None, None, Some(8)], "i64".to_string())
        );
        assert_eq!(
            parse_vtensor("<[],f32>").unwrap(),
            (vec![], "f32".to_string())
        );
        assert!(parse_vtensor("<*,f32>")
            .unwrap_err()
            .contains("unknown rank"));
        assert!(parse_vtensor("").unwrap_err().contains("no sizes"));
        assert!(parse_vtensor("<[2],unk>")
            .unwrap_err()
            .contains("unknown dtype"));
        assert!(parse_vtensor("<[2],f128>")
            .unwrap_err()
            .contains("no builtin"));
        assert!(parse_vtensor("<[a],f32>")
            .unwrap_err()
            .contains("not a dimension"));
        assert!(parse_vtensor("<[-3],f32>").is_err());
        assert!(parse_vtensor("<[2,f32>").is_err());
        assert!(parse_vtensor("<[1,,2],f32>").is_err());
    }
}
