func.func @f(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = "dit.transpose"(%x) {perm = array<i64: 9223372036854775807, -9223372036854775808>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
