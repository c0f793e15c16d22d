//===- Dialects.cpp - C API of the dit dialect -----------------------------===//
//
// Defines mlirGetDialectHandle__dit__() (declared in dit-c/Dialects.h).
//
//===----------------------------------------------------------------------===//

#include "dit-c/Dialects.h"

#include "dit/DitDialect.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Dit, dit, mlir::dit::DitDialect)
