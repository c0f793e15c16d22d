func.func @f(%x: tensor<2x8xf16>) -> tensor<2xf16> {
  %0 = "dit.reduce_sum"(%x) {dims = dense<[1]> : tensor<1xi64>, keepdim = false} : (tensor<2x8xf16>) -> tensor<2xf16>
  return %0 : tensor<2xf16>
}
