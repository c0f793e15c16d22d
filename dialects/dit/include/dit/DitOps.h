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

/// The marker traits of DitDialect.td (`Dit_OpTrait`): no verifier, no methods; they name the
/// op classes dit's passes dispatch on, so C++ can ask `op->hasTrait<dit::OpTrait::Cube>()`.
namespace mlir::dit::OpTrait {
#define DIT_MARKER_TRAIT(Name)                                                   \
  template <typename ConcreteType>                                               \
  class Name : public ::mlir::OpTrait::TraitBase<ConcreteType, Name> {};
DIT_MARKER_TRAIT(Elementwise)
DIT_MARKER_TRAIT(ViewLike)
DIT_MARKER_TRAIT(RowWise)
DIT_MARKER_TRAIT(RowWiseOnLastDim)
DIT_MARKER_TRAIT(Cube)
DIT_MARKER_TRAIT(Library)
#undef DIT_MARKER_TRAIT
} // namespace mlir::dit::OpTrait

namespace mlir::dit {
/// Checks the rules of dit's Rust verifier on `op` (one op, not its body), reporting a
/// broken rule at the op's location: the `verify()` of every dit op.
::llvm::LogicalResult verifyRustRules(::mlir::Operation *op);
} // namespace mlir::dit

#define GET_OP_CLASSES
#include "dit/DitOps.h.inc"

#endif // DIT_DITOPS_H
