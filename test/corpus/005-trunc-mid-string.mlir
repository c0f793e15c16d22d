func.func @f(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %0 = "dit.gelu"(%x) {approximate = "ta