//! What the passes measure rather than change: the cost model, the per-target performance model and the fusion report.

pub mod cost;
pub mod perf_model;
pub mod report;
