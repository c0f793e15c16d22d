func.func @f(%x: tensor<*xf32>) -> tensor<*xf32> {
  %0 = "dit.relu"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
