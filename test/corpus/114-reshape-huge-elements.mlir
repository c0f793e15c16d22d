func.func @f(%x: tensor<9223372036854775807x9223372036854775807xf32>) -> tensor<4xf32> {
  %0 = "dit.reshape"(%x) : (tensor<9223372036854775807x9223372036854775807xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
