//! Creating an MLIR context with the dit dialect, registered through its C API handle
//! (`mlirGetDialectHandle__dit__`, generated from the ODS definition in include/dit/).

use melior::{dialect::DialectRegistry, ir::Module, Context};
use mlir_sys::{
    mlirDialectHandleInsertDialect, mlirGetDialectHandle__arith__, mlirGetDialectHandle__func__,
    mlirGetDialectHandle__llvm__, mlirGetDialectHandle__pdl__, mlirGetDialectHandle__pdl_interp__,
    MlirDialectHandle,
};

/// Failures while setting up the dialect itself (not user input errors).
#[derive(Debug, thiserror::Error)]
pub enum DialectError {
    /// The context came up without the dit dialect: a build of dit whose C++ dialect
    /// registration is broken.
    #[error("the dit dialect did not load into the MLIR context")]
    NotLoaded,
}

extern "C" {
    /// Defined by MLIR_DEFINE_CAPI_DIALECT_REGISTRATION in lib/CAPI/Dialects.cpp (declared
    /// for C in include/dit-c/Dialects.h).
    fn mlirGetDialectHandle__dit__() -> MlirDialectHandle;
}

/// Creates a context that knows `builtin`, `func`, `arith`, `llvm`, `pdl`, `pdl_interp` and `dit`.
///
/// Threading is off: every pass runs on the whole module, and a thread pool only costs
/// start-up time for the graph sizes dit handles.
pub fn new_context() -> Result<Context, DialectError> {
    let registry = DialectRegistry::new();
    // SAFETY: the handles are static descriptors owned by MLIR (dit's by this crate's C++);
    // the registry outlives the calls.
    unsafe {
        for handle in [
            mlirGetDialectHandle__dit__(),
            mlirGetDialectHandle__func__(),
            mlirGetDialectHandle__arith__(),
            // The lowering (dit-lower-to-aclnn) emits llvm dialect globals and pointers.
            mlirGetDialectHandle__llvm__(),
            // PDL patterns are parsed into the same context and run by its interpreter.
            mlirGetDialectHandle__pdl__(),
            mlirGetDialectHandle__pdl_interp__(),
        ] {
            mlirDialectHandleInsertDialect(handle, registry.to_raw());
        }
    }
    let context = Context::new_with_registry(&registry, false);
    context.load_all_available_dialects();
    if context.is_registered_operation("dit.fused") {
        Ok(context)
    } else {
        Err(DialectError::NotLoaded)
    }
}

/// Parses `source` into a module with the Rust rules left to the caller, who runs
/// [`verifier::verify`](crate::verifier::verify) or
/// [`verify_and_report`](crate::verifier::verify_and_report) next to get every broken rule
/// (MLIR's verifier, which runs them through the ODS hook, stops at the first). Parse errors
/// and the ODS constraints go to the context's diagnostic handler; `None` means at least one
/// error was reported.
pub fn parse_module<'c>(context: &'c Context, source: &str) -> Option<Module<'c>> {
    crate::verifier::with_hook_deferred(|| Module::parse(context, source))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialect_loads_and_registers_ops() {
        let context = new_context().expect("dialect loads");
        assert!(context.is_registered_operation("dit.gelu"));
        assert!(context.is_registered_operation("dit.quant_matmul"));
        assert!(context.is_registered_operation("dit.fused"));
        assert!(!context.is_registered_operation("dit.nosuch"));
    }
}
