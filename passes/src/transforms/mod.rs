//! Graph-to-graph rewrites within the dit dialect: folds, sinks, merges, quantization and the automatic fusion pass (test/Transforms).

pub mod dit_auto_fuse;
pub mod dit_canonicalize;
pub mod dit_cse;
pub mod dit_dce;
pub mod dit_fold_transpose_quant_matmul;
pub mod dit_fold_transpose_quant_matmul_limit;
pub mod dit_merge_horizontal;
pub mod dit_outline_fused;
pub mod dit_quantize;
pub mod dit_sink_split;
pub mod dit_sink_transpose;
pub mod dit_verify;
pub mod greedy;
