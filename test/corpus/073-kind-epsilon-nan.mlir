func.func @f(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %0 = "dit.layer_norm"(%x) {epsilon = 0x7FC00000 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2x8xf16>) -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}
