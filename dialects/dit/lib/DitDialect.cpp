//===- DitDialect.cpp - the dit dialect and its ops ------------------------===//
//
// Registers the ops generated from DitOps.td with the dialect, and connects their verifier
// hook to the Rust rules; the op definitions themselves are generated.
//
//===----------------------------------------------------------------------===//

#include "dit/DitDialect.h"
#include "dit/DitOps.h"

#include "mlir/CAPI/IR.h"

using namespace mlir;
using namespace mlir::dit;

/// Defined in Rust (dialects/dit/src/verifier.rs): checks the Rust rules on one dit op and
/// reports the broken one; never unwinds (the Rust side catches panics).
extern "C" bool ditVerifyRustRules(MlirOperation op);

LogicalResult mlir::dit::verifyRustRules(Operation *op) {
  return success(ditVerifyRustRules(wrap(op)));
}

#include "dit/DitOpsDialect.cpp.inc"

void DitDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dit/DitOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "dit/DitOps.cpp.inc"
