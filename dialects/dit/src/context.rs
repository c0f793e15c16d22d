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
    /// Defined by MLIR_DEFINE_CAPI_DIALECT_REGISTRATION in lib/CAPI/Dialects.cpp.
    fn mlirGetDialectHandle__dit_hooks__() -> MlirDialectHandle;
    /// lib/CAPI/Dialects.cpp: loads the stand-in `torch` dialect (see [`parse_module`]).
    fn ditLoadTorchPlaceholder(context: mlir_sys::MlirContext);
}

/// The C API handle of the dit dialect (declared for C in include/dit-c/Dialects.h), for
/// `mlirDialectHandleInsertDialect` / `mlirDialectHandleRegisterDialect`.
///
/// Defined here rather than in C++ so that every Rust cdylib linking this crate (the
/// mlir-opt plugin, tools/dit-plugin) exports it: rustc exports only Rust-defined symbols.
#[no_mangle]
pub extern "C" fn mlirGetDialectHandle__dit__() -> MlirDialectHandle {
    // SAFETY: returns a pointer to static hooks owned by lib/CAPI/Dialects.cpp.
    unsafe { mlirGetDialectHandle__dit_hooks__() }
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
    if context.is_registered_operation(crate::ops::OpKind::Fused.name()) {
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
///
/// Where unregistered dialects are allowed (an import pass reads torch-mlir output), a
/// stand-in `torch` dialect is loaded first (lib/CAPI/Dialects.cpp): it parses torch ops,
/// types and attributes into the same unregistered ops, OpaqueTypes and OpaqueAttrs, without
/// the regex MLIR compiles for every opaque type of an unregistered dialect.
pub fn parse_module<'c>(context: &'c Context, source: &str) -> Option<Module<'c>> {
    if context.allow_unregistered_dialects() {
        // SAFETY: the context is alive; loading a dialect only extends it.
        unsafe { ditLoadTorchPlaceholder(context.to_raw()) };
    }
    crate::verifier::with_hook_deferred(|| Module::parse(context, source))
}

/// The first bytes of every MLIR bytecode file (`MLïR`, mlir/Bytecode/Encoding.h).
pub const BYTECODE_MAGIC: &[u8] = b"ML\xefR";

/// Reads MLIR bytecode (what `--emit-bytecode` writes) and prints it back as text with its
/// locations, so that bytecode input goes through the same checks, pipeline and diagnostics
/// as text. `None`: it did not parse (the errors went to the context's handler).
pub fn bytecode_to_text(context: &Context, bytes: &[u8]) -> Option<String> {
    // SAFETY: the string ref points into `bytes`, alive for the call; the module is owned by
    // the `Module` made from it, which destroys it when dropped.
    let module = unsafe {
        let raw = mlir_sys::mlirModuleCreateParse(
            context.to_raw(),
            mlir_sys::MlirStringRef {
                data: bytes.as_ptr() as *const std::ffi::c_char,
                length: bytes.len(),
            },
        );
        Module::from_option_raw(raw)?
    };
    let root = crate::ir::Op::of_module(&module);
    Some(root.print_verified(crate::ir::PrintOptions {
        debug_info: true,
        ..Default::default()
    }))
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

    #[test]
    fn torch_input_parses_into_unregistered_ops_and_opaque_types_and_attrs() {
        use melior::ir::operation::OperationLike;
        let text = r#"func.func @f(%x: !torch.vtensor<[2,?],f32>) -> !torch.vtensor<[2,?],f32> {
  %0 = "torch.aten.relu"(%x) {k = #torch.thing<"a b">, n = #torch<"raw">} : (!torch.vtensor<[2,?],f32>) -> !torch.vtensor<[2,?],f32>
  return %0 : !torch.vtensor<[2,?],f32>
}"#;
        let context = new_context().expect("dialect loads");
        // Without unregistered dialects, torch input is refused as before.
        assert!(parse_module(&context, text).is_none());
        context.set_allow_unregistered_dialects(true);
        let module = parse_module(&context, text).expect("parses");
        let printed = module.as_operation().to_string();
        assert!(
            printed.contains(r#""torch.aten.relu"(%arg0) {k = #torch.thing<"a b">, n = #torch<"raw">} : (!torch.vtensor<[2,?],f32>) -> !torch.vtensor<[2,?],f32>"#),
            "{printed}"
        );
        let mut op = None;
        crate::ir::Op::of_module(&module).walk(&mut |o| {
            if o.is("torch.aten.relu") {
                op = Some(o);
            }
        });
        let op = op.expect("the torch op");
        // SAFETY: the op and its types are alive; these only read them.
        unsafe {
            let ty = mlir_sys::mlirValueGetType(mlir_sys::mlirOperationGetResult(op.raw(), 0));
            assert!(mlir_sys::mlirTypeIsAOpaque(ty));
            let data = mlir_sys::mlirOpaqueTypeGetData(ty);
            let data = std::slice::from_raw_parts(data.data as *const u8, data.length);
            assert_eq!(data, b"vtensor<[2,?],f32>");
        }
        assert!(module.as_operation().verify());
    }

    #[test]
    fn bytecode_reads_back_as_the_same_text() {
        let context = new_context().expect("dialect loads");
        let text = r#"func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "dit.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}"#;
        let module = parse_module(&context, text).expect("parses");
        let bytes = crate::ir::Op::of_module(&module).write_bytecode();
        assert!(bytes.starts_with(BYTECODE_MAGIC));
        let back = bytecode_to_text(&context, &bytes).expect("bytecode parses");
        assert!(
            back.contains("\"dit.relu\"") || back.contains("dit.relu"),
            "{back}"
        );
        assert!(back.contains("loc("), "locations are kept: {back}");
        assert!(bytecode_to_text(&context, b"ML\xefR garbage").is_none());
    }
}
