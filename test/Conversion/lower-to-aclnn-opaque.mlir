// A dit.opaque the runtime has no semantics for (no kernel runs it, the CPU reference does not
// know its name) fails at lowering with its location, not at run time.
// RUN: not dit-opt %s --dit-lower-to-aclnn -o /dev/null 2>&1 | FileCheck %s

// CHECK: lower-to-aclnn-opaque.mlir:[[# @LINE + 2]]:8: error: dit-lower-to-aclnn: dit.opaque 'aten.cumprod' has no runtime semantics: no kernel runs it and the CPU reference knows only topk, moe_token_permute, moe_token_unpermute, scatter_update
func.func @unknown_opaque(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "dit.opaque"(%x) {arg1 = 0 : i64, name = "aten.cumprod"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
