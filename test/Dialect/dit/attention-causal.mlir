// RUN: dit-opt %s --split-input-file | dit-opt --split-input-file --dit-verify | FileCheck %s
//
// dit.attention's causal attribute (default false): key j is masked out of query i when j > i,
// aligned at the top left (torch's is_causal), also when Sq != Skv. Valid forms round-trip and
// verify; the negative cases are attention-causal-invalid.mlir.

// CHECK-LABEL: func.func @causal_cross
// CHECK: "dit.attention"(%arg0, %arg1, %arg1) {causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 1.250000e-01 : f32}
func.func @causal_cross(%q: tensor<1x2x8x64xbf16>, %k: tensor<1x2x24x64xbf16>) -> tensor<1x2x8x64xbf16> {
  %0 = "dit.attention"(%q, %k, %k) {causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 1.250000e-01 : f32} : (tensor<1x2x8x64xbf16>, tensor<1x2x24x64xbf16>, tensor<1x2x24x64xbf16>) -> tensor<1x2x8x64xbf16>
  return %0 : tensor<1x2x8x64xbf16>
}

// -----

// CHECK-LABEL: func.func @not_causal
// CHECK: "dit.attention"(%arg0, %arg1, %arg1, %arg2) {causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 1>, scale = 1.250000e-01 : f32}
func.func @not_causal(%q: tensor<1x2x8x64xbf16>, %k: tensor<1x2x24x64xbf16>, %m: tensor<8x24xi1>) -> tensor<1x2x8x64xbf16> {
  %0 = "dit.attention"(%q, %k, %k, %m) {causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 1>, scale = 1.250000e-01 : f32} : (tensor<1x2x8x64xbf16>, tensor<1x2x24x64xbf16>, tensor<1x2x24x64xbf16>, tensor<8x24xi1>) -> tensor<1x2x8x64xbf16>
  return %0 : tensor<1x2x8x64xbf16>
}
