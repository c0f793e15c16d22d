//! dit's passes (one per file, grouped by stage as test/ is), the registry that is the single
//! source of truth for their flags and documentation, and the driver that runs a pipeline on
//! MLIR's pass manager.

pub mod analysis;
pub mod conversion;
pub mod fusion;
pub mod mlir_registry;
pub mod patterns;
pub mod pipeline;
pub mod registry;
pub mod transforms;

pub use analysis::{
    cost,
    cost::{measure, GraphCost},
    report::{count_kernels, FusionReport, ReportSummary},
};
pub use pipeline::{
    run_pipeline, run_pipeline_with, Instrumentation, Pipeline, PipelineError, PipelineOptions,
    PipelineStep, StatisticsDisplay,
};
pub use registry::{
    lookup, passes_markdown, DitPass, NamedPipeline, PassContext, PassFailed, PassInfo, PASSES,
    PIPELINES,
};
