/*===- dit-c/Dialects.h - C API of the dit dialect ---------------*- C -*-===*\
|*                                                                            *|
|* Registers the dit dialect with an MLIR context through MLIR's C API:        *|
|*   mlirDialectHandleInsertDialect(mlirGetDialectHandle__dit__(), registry);  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef DIT_C_DIALECTS_H
#define DIT_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Dit, dit);

#ifdef __cplusplus
}
#endif

#endif /* DIT_C_DIALECTS_H */
