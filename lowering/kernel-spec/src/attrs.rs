//! Op attributes as the runtime sees them: a name → value map that lowered code passes as a
//! JSON string, independent of MLIR.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One attribute value. Strings carry dit's enum-like attributes ("tanh", "cumsum", …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum AttrValue {
    /// `true`/`false`.
    Bool(bool),
    /// Any integer attribute (i64, and dense i64/i32 arrays as `Ints`).
    Int(i64),
    /// f32 attributes (epsilon, scale), widened.
    Float(f64),
    /// String attributes.
    Str(String),
    /// `array<i64>` attributes (dims, perm, sizes).
    Ints(Vec<i64>),
}

/// An op's attributes by name.
pub type Attrs = BTreeMap<String, AttrValue>;
