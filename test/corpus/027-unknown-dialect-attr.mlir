func.func @f(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %0 = "dit.gelu"(%x) {approximate = #foo.tanh} : (tensor<2x8xf16>) -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}
