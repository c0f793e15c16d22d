//===- DitDialect.h - the dit dialect ---------------------------*- C++ -*-===//
//
// Declares mlir::dit::DitDialect, generated from DitDialect.td.
//
//===----------------------------------------------------------------------===//

#ifndef DIT_DITDIALECT_H
#define DIT_DITDIALECT_H

#include "mlir/IR/Dialect.h"

#include "dit/DitOpsDialect.h.inc"

#endif // DIT_DITDIALECT_H
