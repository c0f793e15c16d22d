//! The PDLL fusion patterns of the seeds, their Rust natives, and the pass that applies them (test/Patterns).

pub mod dit_fuse_patterns;
pub mod native;
pub mod pdl;
pub mod pdl_commute;
