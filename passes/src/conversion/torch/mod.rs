//! The pieces of `dit-convert-torch-to-dit` (the pass itself is in
//! `dit_convert_torch_to_dit.rs`): torch types and their builtin equivalents, compile-time
//! values of torch scalars and lists, tentative emission of dit ops with rollback, the aten op
//! table, the compile-time folding of constant tables, and the raising of the importer's MoE
//! routing onto CANN's MoE kernels.

pub mod convert;
pub mod emit;
pub mod fold;
pub mod mlir;
pub mod moe;
pub mod scalars;
pub mod types;
