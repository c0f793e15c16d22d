func.func @f(%x: tensor<2x8xf16>, %c: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %0 = "dit.rope"(%x, %c, %c) {mode = "full"} : (tensor<2x8xf16>, tensor<2x8xf16>, tensor<2x8xf16>) -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}
