func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %ä = "dit.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %ä : tensor<4xf32>
}
