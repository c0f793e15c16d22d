func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "dit.transpose"(%x) {perm = array<index: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
