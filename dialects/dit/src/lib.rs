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

#[cfg(test)]
mod tests {
    /// docs/Dialect.md is `mlir-tblgen -gen-dialect-doc` of the ODS definition, as build.rs
    /// generates it: a change to the .td files must come with the regenerated page.
    #[test]
    fn dialect_doc_is_current() {
        let generated = include_str!(concat!(env!("OUT_DIR"), "/dit/Dialect.md"));
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/Dialect.md");
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == generated,
            "docs/Dialect.md is stale; regenerate it with\n  mlir-tblgen -gen-dialect-doc \
             -dialect=dit -I dialects/dit/include -I /usr/lib/llvm-22/include \
             dialects/dit/include/dit/DitOps.td -o docs/Dialect.md"
        );
    }
}
