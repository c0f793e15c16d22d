// Inputs of dit-verify.mlir: every violation of a chunk is reported, each at its op.

func.func @two_violations(%x: tensor<4x8xf16>, %w: tensor<16x9xf16>) -> (tensor<8x4xf16>, tensor<4x16xf16>) {
  // expected-error @+1 {{is not a permutation of 0..2 [rule transpose.perm]}}
  %t = "dit.transpose"(%x) {perm = array<i64: 1, 1>} : (tensor<4x8xf16>) -> tensor<8x4xf16>
  // expected-error @+1 {{[rule linear.contraction]}}
  %l = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x8xf16>, tensor<16x9xf16>) -> tensor<4x16xf16>
  return %t, %l : tensor<8x4xf16>, tensor<4x16xf16>
}
