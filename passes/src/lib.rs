//! dit's passes (one per file), the registry that is the single source of truth for their
//! flags and documentation, and the driver that runs a pipeline on MLIR's pass manager.

pub mod dit_canonicalize;
pub mod dit_cse;
pub mod dit_dce;
pub mod dit_verify;
pub mod pipeline;
pub mod registry;

pub use pipeline::{parse_pipeline, run_pipeline, PipelineError, PipelineOptions, PipelineStep};
pub use registry::{lookup, passes_markdown, DitPass, PassContext, PassFailed, PassInfo, PASSES};
