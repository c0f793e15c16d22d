func.func @f(%x: tensor<4xtensor<2xf32>>) -> tensor<4xtensor<2xf32>> {
  %0 = "dit.relu"(%x) : (tensor<4xtensor<2xf32>>) -> tensor<4xtensor<2xf32>>
  return %0 : tensor<4xtensor<2xf32>>
}
