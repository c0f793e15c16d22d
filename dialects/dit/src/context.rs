//! Creating an MLIR context with the dit dialect loaded from its IRDL definition.

use crate::{ir::Op, IRDL_SOURCE};
use melior::{dialect::DialectRegistry, ir::Module, Context};
use mlir_sys::{
    mlirDialectHandleInsertDialect, mlirGetDialectHandle__arith__, mlirGetDialectHandle__func__,
    mlirGetDialectHandle__irdl__, mlirGetDialectHandle__llvm__, mlirGetDialectHandle__pdl__,
    mlirGetDialectHandle__pdl_interp__, mlirLoadIRDLDialects,
};

/// Failures while setting up the dialect itself (not user input errors).
#[derive(Debug, thiserror::Error)]
pub enum DialectError {
    /// The embedded IRDL file did not parse: a build of dit with a broken definition.
    #[error("the embedded dit IRDL definition does not parse")]
    IrdlParse,
    /// MLIR rejected the IRDL definition when turning it into a dialect.
    #[error("MLIR could not load the dit IRDL definition")]
    IrdlLoad,
}

/// Creates a context that knows `builtin`, `func`, `arith`, `llvm`, `pdl`, `pdl_interp` and `dit`.
///
/// Threading is off: every pass runs on the whole module, and a thread pool only costs
/// start-up time for the graph sizes dit handles.
pub fn new_context() -> Result<Context, DialectError> {
    let registry = DialectRegistry::new();
    // SAFETY: the handles are static descriptors owned by MLIR; the registry outlives the calls.
    unsafe {
        for handle in [
            mlirGetDialectHandle__func__(),
            mlirGetDialectHandle__arith__(),
            mlirGetDialectHandle__irdl__(),
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
    load_irdl(&context, IRDL_SOURCE)?;
    Ok(context)
}

/// The ops defined in C++ (cpp/region_ops.cpp) instead of from their IRDL definitions:
/// IRDL cannot give dit.yield the terminator trait, nor let a variadic segment hold values of
/// different types.
pub const CPP_DEFINED_OPS: &[&str] = &["fused", "yield", "concat", "split", "opaque"];

extern "C" {
    fn ditRegisterCppOps(context: mlir_sys::MlirContext) -> bool;
}

/// Loads the dit dialect from `source` (an IRDL module) into `context`: every op from IRDL
/// except [`CPP_DEFINED_OPS`], which come from C++.
pub fn load_irdl(context: &Context, source: &str) -> Result<(), DialectError> {
    let module = Module::parse(context, source).ok_or(DialectError::IrdlParse)?;
    let mut replaced = Vec::new();
    Op(module.as_operation().to_raw()).walk(&mut |op| {
        let name = op.attr("sym_name").and_then(|a| a.as_str());
        if op.is("irdl.operation") && name.is_some_and(|n| CPP_DEFINED_OPS.contains(&n.as_str())) {
            replaced.push(op);
        }
    });
    for op in replaced {
        op.erase();
    }
    // SAFETY: the module is alive for the call; MLIR copies what it needs into the context.
    let loaded = unsafe { mlirLoadIRDLDialects(module.to_raw()) };
    // SAFETY: the context is alive and has just loaded the dit dialect.
    if loaded.value != 0 && unsafe { ditRegisterCppOps(context.to_raw()) } {
        Ok(())
    } else {
        Err(DialectError::IrdlLoad)
    }
}

/// Parses `source` into a module. Parse errors and MLIR's own (IRDL) verification errors go
/// to the context's diagnostic handler; `None` means at least one error was reported.
pub fn parse_module<'c>(context: &'c Context, source: &str) -> Option<Module<'c>> {
    Module::parse(context, source)
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
