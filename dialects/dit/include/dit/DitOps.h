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

#define GET_OP_CLASSES
#include "dit/DitOps.h.inc"

#endif // DIT_DITOPS_H
