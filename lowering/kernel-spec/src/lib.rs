//! The kernel table and the CANN contracts, without MLIR and without a backend: the passes read
//! them to decide and count what a lowered op launches, the runtime reads them to launch it, so
//! both see one table.

pub mod attrs;
pub mod contracts;
/// The element types (one enum for the dialect, the passes and the runtime, in dit-ops).
pub use dit_ops::dtype;
pub mod kernels;

pub use attrs::{AttrValue, Attrs};
pub use dtype::DType;
