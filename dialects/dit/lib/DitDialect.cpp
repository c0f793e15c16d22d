//===- DitDialect.cpp - the dit dialect and its ops ------------------------===//
//
// Registers the ops generated from DitOps.td with the dialect; the op definitions
// themselves are generated.
//
//===----------------------------------------------------------------------===//

#include "dit/DitDialect.h"
#include "dit/DitOps.h"

using namespace mlir;
using namespace mlir::dit;

#include "dit/DitOpsDialect.cpp.inc"

void DitDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dit/DitOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "dit/DitOps.cpp.inc"
