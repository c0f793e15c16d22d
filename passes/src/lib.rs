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

// The API the tools use. dit-opt, dit-run and the plugin reach only for these, never into a
// stage's modules, so a pass's internals can change without touching the CLI.
pub use analysis::cost::{human_bytes, is_view, measure_functions, measure_with, ShapeHints};
pub use analysis::report::RawPoint;
pub use conversion::dit_lower_fused_to_linalg::kernel_files as linalg_kernel_files;
pub use conversion::dit_lower_to_aclnn::{fused_body, INIT_SUFFIX};
pub use fusion::FusionSwitches;
pub use mlir_registry::register_passes;
pub use pipeline::panic_text;
pub use registry::IMPORT_PASSES;
