func.func @f(%x: tensor<4xf32>) -> tensor<2xf32> {
  %0:3 = "dit.split"(%x) {dim = 0 : i64, sizes = array<i64: 2, 2>} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  return %0#0 : tensor<2xf32>
}
