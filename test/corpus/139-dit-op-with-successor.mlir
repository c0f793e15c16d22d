func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "dit.relu"(%x)[^bb1] : (tensor<4xf32>) -> tensor<4xf32>
^bb1:
  return %0 : tensor<4xf32>
}
