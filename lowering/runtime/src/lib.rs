//! The runtime that lowered dit code calls: tensors, op attributes, the kernel table (shared
//! with the passes through dit-kernel-spec), and two
//! backends (a CPU reference that runs every dit op, and CANN's aclnn loaded at run time).

pub mod abi;
/// Op attributes as data (from dit-kernel-spec).
pub use dit_kernel_spec::attrs;
pub mod cann;
pub mod context;
/// The CANN operator contracts as data (from dit-kernel-spec).
pub use dit_kernel_spec::contracts;
pub mod cpu;
/// The element types (one enum for the dialect and the runtime, in dit-ops).
pub use dit_ops::dtype;
pub mod fused;
pub mod generated;
/// The kernel table (from dit-kernel-spec).
pub use dit_kernel_spec::kernels;
pub mod nz;
pub mod tensor;

pub use attrs::{AttrValue, Attrs};
pub use dtype::DType;
pub use tensor::{Tensor, TensorType};

/// Why a kernel could not run.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum RuntimeError {
    /// The op is not one the backend knows.
    #[error("unknown op '{0}'")]
    UnknownOp(String),
    /// Operands, attributes or result types break the op's contract.
    #[error("{op}: {message}")]
    Contract {
        /// The op name, e.g. `dit.rms_norm`.
        op: String,
        /// What was wrong.
        message: String,
    },
    /// A backend could not be loaded or failed.
    #[error("{0}")]
    Backend(String),
}

/// Shorthand for a contract violation of `op`.
pub fn contract(op: &str, message: impl Into<String>) -> RuntimeError {
    RuntimeError::Contract {
        op: op.to_string(),
        message: message.into(),
    }
}
