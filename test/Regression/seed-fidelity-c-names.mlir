// Issue 13 item 8: a function becomes a C entry point of the lowered module and its header
// (--emit=header): a symbol name that is no C identifier could inject code there and into the
// lowered MLIR text, so the lowering refuses it, located.
// RUN: not dit-opt %s --emit=header 2>&1 | FileCheck %s
// RUN: not dit-opt %s --dit-lower-to-aclnn 2>&1 | FileCheck %s

// CHECK: seed-fidelity-c-names.mlir:[[@LINE+1]]:1: error: dit-lower-to-aclnn: function @"f(void); int evil" becomes a C entry point: its name must be a C identifier
func.func @"f(void); int evil"(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "dit.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
