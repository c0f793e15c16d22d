func.func @f(%x: tensor<4x8xf16>) -> tensor<4x8xi8> {
  %0 = "dit.dynamic_quant"(%x) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<4x8xf16>) -> tensor<4x8xi8>
  return %0 : tensor<4x8xi8>
}
