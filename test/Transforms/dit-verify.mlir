// RUN: dit-opt %s --split-input-file --dit-verify | FileCheck %s
// RUN: dit-opt %S/Inputs/verify-errors.mlir --split-input-file --verify-diagnostics --dit-verify

// A valid graph passes unchanged.
// CHECK-LABEL: func.func @valid
// CHECK: "dit.linear"
// CHECK: "dit.swiglu"
func.func @valid(%x: tensor<2x16x64xbf16>, %w: tensor<256x64xbf16>) -> tensor<2x16x128xbf16> {
  %h = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x16x64xbf16>, tensor<256x64xbf16>) -> tensor<2x16x256xbf16>
  %s = "dit.swiglu"(%h) {dim = -1 : i64} : (tensor<2x16x256xbf16>) -> tensor<2x16x128xbf16>
  return %s : tensor<2x16x128xbf16>
}
