//! The pieces of `dit-convert-torch-to-dit` (the pass itself is in
//! `dit_convert_torch_to_dit.rs`): torch types and their builtin equivalents, compile-time
//! values of torch scalars and lists, tentative emission of dit ops with rollback, and the aten
//! op table.

pub mod convert;
pub mod emit;
pub mod mlir;
pub mod scalars;
pub mod types;
