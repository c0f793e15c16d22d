//! The `dit` dialect: its ODS definition (include/dit/DitOps.td, compiled by build.rs), a
//! context that loads it, typed accessors for the ops the passes use, the target table,
//! diagnostics with source locations, and the Rust verifier for the rules ODS cannot state.

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

/// The ODS definition of every op (what build.rs compiles), for tests that compare it with
/// the Rust op table.
pub const ODS_SOURCE: &str = include_str!("../include/dit/DitOps.td");
