//! The `dit` dialect: its IRDL definition, a context that loads it, typed accessors for the
//! ops the passes use, the target table, diagnostics with source locations, and the Rust
//! verifier for the rules IRDL cannot express.

pub mod context;
pub mod diagnostics;
pub mod input;
pub mod ir;
pub mod ops;
pub mod target;
pub mod tensor;
pub mod verifier;

pub use context::{new_context, parse_module, DialectError};
pub use diagnostics::{Diagnostic, DiagnosticSink, Severity, SourceBuffer};
pub use target::{Target, TARGETS};

/// The one definition of the dialect, in MLIR's IRDL. Any MLIR 22 tool can load it with
/// `mlir-opt --irdl-file=dialects/dit/dit.irdl.mlir`.
pub const IRDL_SOURCE: &str = include_str!("../dit.irdl.mlir");
