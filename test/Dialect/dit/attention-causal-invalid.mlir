// RUN: dit-opt %s --split-input-file --verify-diagnostics
//
// Negative cases of dit.attention's causal attribute: one per verifier rule.

func.func @causal_with_mask(%q: tensor<1x2x8x64xbf16>, %k: tensor<1x2x24x64xbf16>, %m: tensor<8x24xi1>) -> tensor<1x2x8x64xbf16> {
  // expected-error @+1 {{'dit.attention' op a causal attention takes no mask operand (causal = true is its mask) [rule attention.causal-mask]}}
  %0 = "dit.attention"(%q, %k, %k, %m) {causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 1>, scale = 1.250000e-01 : f32} : (tensor<1x2x8x64xbf16>, tensor<1x2x24x64xbf16>, tensor<1x2x24x64xbf16>, tensor<8x24xi1>) -> tensor<1x2x8x64xbf16>
  return %0 : tensor<1x2x8x64xbf16>
}

// -----

func.func @causal_not_bool(%q: tensor<1x2x8x64xbf16>, %k: tensor<1x2x24x64xbf16>) -> tensor<1x2x8x64xbf16> {
  // expected-error @+1 {{'dit.attention' op attribute 'causal' failed to satisfy constraint: bool attribute}}
  %0 = "dit.attention"(%q, %k, %k) {causal = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 1.250000e-01 : f32} : (tensor<1x2x8x64xbf16>, tensor<1x2x24x64xbf16>, tensor<1x2x24x64xbf16>) -> tensor<1x2x8x64xbf16>
  return %0 : tensor<1x2x8x64xbf16>
}
