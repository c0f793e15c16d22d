func.func @f(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %0 = "dit.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<2x8xf16>) -> tensor<2x8xf16> loc(unknown)
  return %0 : tensor<2x8xf16>
}
