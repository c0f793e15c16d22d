func.func @f(%q: tensor<1x2x4x8xf16>) -> tensor<1x2x4x8xf16> {
  %0 = "dit.attention"(%q, %q, %q) {scale = "0.125", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x2x4x8xf16>, tensor<1x2x4x8xf16>, tensor<1x2x4x8xf16>) -> tensor<1x2x4x8xf16>
  return %0 : tensor<1x2x4x8xf16>
}
