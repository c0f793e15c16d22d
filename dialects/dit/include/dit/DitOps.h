//===- DitOps.h - the dit ops -----------------------------------*- C++ -*-===//
//
// Declares the dit ops, generated from DitOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef DIT_DITOPS_H
#define DIT_DITOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dit/DitDialect.h"

namespace mlir::dit {
/// Checks the rules of dit's Rust verifier on `op` (one op, not its body), reporting a
/// broken rule at the op's location: the `verify()` of every dit op.
::llvm::LogicalResult verifyRustRules(::mlir::Operation *op);
} // namespace mlir::dit

#define GET_OP_CLASSES
#include "dit/DitOps.h.inc"

#endif // DIT_DITOPS_H
