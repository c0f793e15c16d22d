//! dit's passes (one per file), the registry that is the single source of truth for their
//! flags and documentation, and the driver that runs a pipeline on MLIR's pass manager.

pub mod cost;
pub mod dit_auto_fuse;
pub mod dit_canonicalize;
pub mod dit_convert_torch_to_dit;
pub mod dit_cse;
pub mod dit_dce;
pub mod dit_fold_transpose_quant_matmul;
pub mod dit_fold_transpose_quant_matmul_limit;
pub mod dit_fuse_patterns;
pub mod dit_lower_fused_to_linalg;
pub mod dit_lower_to_aclnn;
pub mod dit_merge_horizontal;
pub mod dit_outline_fused;
pub mod dit_quantize;
pub mod dit_sink_split;
pub mod dit_sink_transpose;
pub mod dit_verify;
pub mod fusion;
pub mod mlir_registry;
pub mod native;
pub mod pdl;
pub mod pdl_commute;
pub mod perf_model;
pub mod pipeline;
pub mod registry;
pub mod report;
pub mod torch;

pub use cost::{measure, GraphCost};
pub use pipeline::{
    run_pipeline, run_pipeline_with, Instrumentation, Pipeline, PipelineError, PipelineOptions,
    PipelineStep, StatisticsDisplay,
};
pub use registry::{
    lookup, passes_markdown, DitPass, NamedPipeline, PassContext, PassFailed, PassInfo, PASSES,
    PIPELINES,
};
pub use report::{count_kernels, FusionReport, ReportSummary};
