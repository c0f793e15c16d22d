//! libdit_plugin.so: the dit dialect and passes for MLIR tools built on the shared
//! libMLIR.so (Debian's mlir-opt) and for C programs (docs/Plugin.md).
//!
//! Exports:
//! - `mlirGetDialectPluginInfo` (`mlir-opt --load-dialect-plugin=`): inserts the dit dialect
//!   into the tool's registry;
//! - `mlirGetPassPluginInfo` (`mlir-opt --load-pass-plugin=`): registers every dit pass and
//!   the `dit-fuse-all` pipeline with MLIR's pass registry (dit-passes' mlir_registry);
//! - `mlirGetDialectHandle__dit__` (include/dit-c/Dialects.h) and `ditRegisterPasses`
//!   (include/dit-c/Passes.h), the C API, defined in dit-dialect and dit-passes and exported
//!   here because rustc exports every `#[no_mangle]` function of a cdylib's crates.
//!
//! build.rs explains how the library is linked against libMLIR.so without a second MLIR.

use dit_dialect::context::mlirGetDialectHandle__dit__;
use mlir_sys::{mlirDialectHandleInsertDialect, MlirDialectRegistry};
use std::ffi::{c_char, c_void};

/// `MLIR_PLUGIN_API_VERSION` of mlir/Tools/Plugins/PassPlugin.h (MLIR 22); mlir-opt refuses
/// a plugin with another version.
const MLIR_PLUGIN_API_VERSION: u32 = 1;

/// The plugin's name as mlir-opt reports it.
const PLUGIN_NAME: &[u8] = b"dit\0";

/// The LLVM version the plugin was built against (`llvm-config --version`), as
/// LLVM_VERSION_STRING in MLIR's examples.
const PLUGIN_VERSION: &str = concat!(env!("DIT_PLUGIN_LLVM_VERSION"), "\0");

/// `mlir::DialectPluginLibraryInfo` (mlir/Tools/Plugins/DialectPlugin.h), field for field.
#[repr(C)]
pub struct DialectPluginLibraryInfo {
    /// `MLIR_PLUGIN_API_VERSION`.
    pub api_version: u32,
    pub plugin_name: *const c_char,
    pub plugin_version: *const c_char,
    /// Called with the tool's `mlir::DialectRegistry *`.
    pub register_dialect_registry_callbacks: extern "C" fn(*mut c_void),
}

/// `mlir::PassPluginLibraryInfo` (mlir/Tools/Plugins/PassPlugin.h), field for field.
#[repr(C)]
pub struct PassPluginLibraryInfo {
    /// `MLIR_PLUGIN_API_VERSION`.
    pub api_version: u32,
    pub plugin_name: *const c_char,
    pub plugin_version: *const c_char,
    pub register_pass_registry_callbacks: extern "C" fn(),
}

/// Inserts the dit dialect into the registry of the loading tool.
extern "C" fn register_dialect(registry: *mut c_void) {
    // An `MlirDialectRegistry` wraps the `mlir::DialectRegistry *` itself (mlir/CAPI/IR.h).
    // SAFETY: mlir-opt passes its live registry; the handle is a static descriptor.
    unsafe {
        mlirDialectHandleInsertDialect(
            mlirGetDialectHandle__dit__(),
            MlirDialectRegistry { ptr: registry },
        )
    }
}

/// Registers the dit passes and pipelines with the loading tool's pass registry.
extern "C" fn register_passes() {
    // Nothing on the Rust side of the registration panics, but it must not unwind into
    // mlir-opt's frames if it ever did.
    if std::panic::catch_unwind(dit_passes::register_passes).is_err() {
        eprintln!("dit plugin: internal error while registering the dit passes");
    }
}

/// The dialect plugin entry point that `mlir-opt --load-dialect-plugin=` looks up.
#[no_mangle]
pub extern "C" fn mlirGetDialectPluginInfo() -> DialectPluginLibraryInfo {
    DialectPluginLibraryInfo {
        api_version: MLIR_PLUGIN_API_VERSION,
        plugin_name: PLUGIN_NAME.as_ptr().cast(),
        plugin_version: PLUGIN_VERSION.as_ptr().cast(),
        register_dialect_registry_callbacks: register_dialect,
    }
}

/// The pass plugin entry point that `mlir-opt --load-pass-plugin=` looks up.
#[no_mangle]
pub extern "C" fn mlirGetPassPluginInfo() -> PassPluginLibraryInfo {
    PassPluginLibraryInfo {
        api_version: MLIR_PLUGIN_API_VERSION,
        plugin_name: PLUGIN_NAME.as_ptr().cast(),
        plugin_version: PLUGIN_VERSION.as_ptr().cast(),
        register_pass_registry_callbacks: register_passes,
    }
}
