//===- Dialects.cpp - C API of the dit dialect -----------------------------===//
//
// Defines the registration hooks behind mlirGetDialectHandle__dit__() (declared in
// dit-c/Dialects.h). The handle function itself is defined in Rust (src/context.rs) and
// returns these hooks: a Rust cdylib (tools/dit-plugin) exports only functions defined in
// Rust, so a C++ definition of the C API entry point would stay hidden in the plugin.
//
//===----------------------------------------------------------------------===//

#include "dit-c/Dialects.h"

#include "dit/DitDialect.h"
#include "mlir/CAPI/Registration.h"

// The macro names the function after its second argument: this defines
// mlirGetDialectHandle__dit_hooks__(), whose hooks register and load the `dit` dialect, with
// C linkage for Rust.
extern "C" {
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Dit, dit_hooks);
}

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Dit, dit_hooks, mlir::dit::DitDialect)
