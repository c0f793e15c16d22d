func.func @f(%x: tensor<2x8xf16>) -> tensor<8x2xf16> {
  %0 = "dit.transpose"(%x) {perm = array<i32: 1, 0>} : (tensor<2x8xf16>) -> tensor<8x2xf16>
  return %0 : tensor<8x2xf16>
}
