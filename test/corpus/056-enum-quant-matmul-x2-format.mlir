func.func @f(%a: tensor<4x64xi8>, %b: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %0 = "dit.quant_matmul"(%a, %b, %s) {transpose_x1 = false, transpose_x2 = true, x2_format = "NZ", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %0 : tensor<4x128xf16>
}
