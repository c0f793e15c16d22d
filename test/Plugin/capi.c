// A C program that uses dit through the C API only, as MLIR's standalone example does
// (examples/standalone/test/CAPI/standalone-capi-test.c): it registers the dialect in a fresh
// context, parses a file, runs a dit pass parsed by mlirParsePassPipeline after
// ditRegisterPasses(), and prints the result.
// RUN: %cc %s %dit_capi_flags -o %t
// RUN: %t %S/Inputs/capi-input.mlir | FileCheck %s

#include "dit-c/Dialects.h"
#include "dit-c/Passes.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

/// Parses `pipeline` into a fresh pass manager and runs it on `module`; prints the parser's
/// error, if any, and whether the run succeeded.
static void runPipeline(MlirContext ctx, MlirModule module, const char *pipeline) {
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult parsed =
      mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                            mlirStringRefCreateFromCString(pipeline),
                            printToStdout, NULL);
  if (mlirLogicalResultIsFailure(parsed)) {
    printf("\nparse failed: %s\n", pipeline);
  } else {
    MlirLogicalResult ran =
        mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
    printf("run %s: %s\n", pipeline,
           mlirLogicalResultIsSuccess(ran) ? "ok" : "failed");
  }
  mlirPassManagerDestroy(pm);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s input.mlir\n", argv[0]);
    return 2;
  }
  MlirContext ctx = mlirContextCreate();
  mlirDialectHandleRegisterDialect(mlirGetDialectHandle__func__(), ctx);
  mlirDialectHandleRegisterDialect(mlirGetDialectHandle__dit__(), ctx);
  MlirDialect dit = mlirContextGetOrLoadDialect(
      ctx, mlirStringRefCreateFromCString("dit"));
  // CHECK: dit dialect loaded: 1
  printf("dit dialect loaded: %d\n", !mlirDialectIsNull(dit));
  // CHECK: dit.fused registered: 1
  printf("dit.fused registered: %d\n",
         mlirContextIsRegisteredOperation(
             ctx, mlirStringRefCreateFromCString("dit.fused")));

  MlirModule module = mlirModuleCreateParseFromFile(
      ctx, mlirStringRefCreateFromCString(argv[1]));
  if (mlirModuleIsNull(module)) {
    printf("cannot parse %s\n", argv[1]);
    return 1;
  }

  // Before registration MLIR's parser does not know the dit passes.
  // CHECK: 'dit-fuse-patterns' does not refer to a registered pass or pass pipeline
  // CHECK: parse failed: builtin.module(func.func(dit-fuse-patterns))
  runPipeline(ctx, module, "builtin.module(func.func(dit-fuse-patterns))");

  // Registering twice is harmless.
  ditRegisterPasses();
  ditRegisterPasses();
  // CHECK: run builtin.module(func.func(dit-fuse-patterns)): ok
  runPipeline(ctx, module, "builtin.module(func.func(dit-fuse-patterns))");
  // CHECK-LABEL: func.func @fast_gelu_tanh
  // CHECK-NEXT: %[[F:.*]] = "dit.fast_gelu"(%arg0)
  // CHECK-NEXT: return %[[F]]
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");

  // A bad option value is the pass's own message, through MLIR's pipeline parser.
  // CHECK: pass 'dit-fuse-patterns': option 'enable_rope' must be true or false, got 'maybe'
  // CHECK: parse failed: builtin.module(dit-fuse-patterns{enable_rope=maybe})
  runPipeline(ctx, module, "builtin.module(dit-fuse-patterns{enable_rope=maybe})");
  // The named pipeline is registered too.
  // CHECK: run builtin.module(dit-fuse-all): ok
  runPipeline(ctx, module, "builtin.module(dit-fuse-all)");

  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
