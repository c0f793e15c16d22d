func.func @f(%x: tensor<2x4096xf16>) -> tensor<2x2048xf16> {
  %0 = "dit.gelu_mul"(%x) {approximate = "tanh"} : (tensor<2x4096xf16>) -> tensor<2x2048xf16>
  return %0 : tensor<2x2048xf16>
}
