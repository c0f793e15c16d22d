func.func @f(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %0 = "dit.reduce_mean"(%x) {dims = array<i64: -9223372036854775808>, keepdim = true} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}
