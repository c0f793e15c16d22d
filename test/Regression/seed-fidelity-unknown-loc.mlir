// Issue 13 item 8: an error at an op whose location names no file:line:col (loc("name"),
// loc(unknown), a call site of unknowns) still says where: at the `loc("name")` in the text,
// else (dit verifier) at the enclosing function, else at the chunk's start.
// RUN: not dit-opt %s --split-input-file 2>&1 | FileCheck %s
// RUN: not dit-opt %s --split-input-file --fuse-all 2>&1 | FileCheck %s

// CHECK-NOT: seed-fidelity-unknown-loc.mlir: error:
// CHECK: seed-fidelity-unknown-loc.mlir:[[@LINE+2]]:93: error: 'dit.transpose' op result has shape [2x8], expected [8x2] [rule shape]
func.func @named(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %0 = "dit.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<2x8xf16>) -> tensor<2x8xf16> loc("ff.net.0.proj")
  return %0 : tensor<2x8xf16>
}

// -----

// CHECK: seed-fidelity-unknown-loc.mlir:[[@LINE+1]]:1: error: 'dit.transpose' op result has shape [2x8], expected [8x2] [rule shape]
func.func @unknown(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %0 = "dit.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<2x8xf16>) -> tensor<2x8xf16> loc(unknown)
  return %0 : tensor<2x8xf16>
}

// -----

// MLIR's own verifier reports an op with a call site of unknowns: the chunk's start.
// CHECK: seed-fidelity-unknown-loc.mlir:[[@LINE-2]]:1: error: {{.*}}requires a single operand
func.func @callsite(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "dit.relu"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc(callsite(unknown at unknown))
  return %0 : tensor<4xf32>
}

// -----

// CHECK: seed-fidelity-unknown-loc.mlir:[[@LINE+2]]:57: error: 'dit.neg' op requires the same type for all operands and results
func.func @ods(%x: tensor<4xf32>) -> tensor<8xf32> {
  %0 = "dit.neg"(%x) : (tensor<4xf32>) -> tensor<8xf32> loc("block.3")
  return %0 : tensor<8xf32>
}
