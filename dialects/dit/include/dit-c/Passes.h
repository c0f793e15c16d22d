/*===- dit-c/Passes.h - C API of the dit passes -----------------*- C -*-===*\
|*                                                                            *|
|* Registers every dit pass (dit-fuse-patterns, dit-auto-fuse, ...) and the    *|
|* dit-fuse-all pipeline with MLIR's pass registry, so that                    *|
|* mlirParsePassPipeline() accepts them:                                       *|
|*   ditRegisterPasses();                                                      *|
|*   mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),              *|
|*       mlirStringRefCreateFromCString("builtin.module(dit-fuse-all)"), ...); *|
|* Defined in passes/src/mlir_registry.rs; exported by libdit_plugin.so.       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef DIT_C_PASSES_H
#define DIT_C_PASSES_H

#ifdef __cplusplus
extern "C" {
#endif

/// Registers the dit passes and pipelines; later calls do nothing.
void ditRegisterPasses(void);

#ifdef __cplusplus
}
#endif

#endif /* DIT_C_PASSES_H */
