// Input of dit-quantize.mlir: two unnamed linears, selected by their line (5 and 6).
func.func @by_line(%x: tensor<4x64xf16>, %w1: tensor<32x64xf16>, %w2: tensor<16x64xf16>)
    -> (tensor<4x32xf16>, tensor<4x16xf16>) {
  // Line 5 is the first linear, line 6 the second.
  %a = "dit.linear"(%x, %w1) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xf16>, tensor<32x64xf16>) -> tensor<4x32xf16>
  %b = "dit.linear"(%x, %w2) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xf16>, tensor<16x64xf16>) -> tensor<4x16xf16>
  return %a, %b : tensor<4x32xf16>, tensor<4x16xf16>
}
