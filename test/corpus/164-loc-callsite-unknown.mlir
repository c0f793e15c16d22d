func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "dit.relu"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc(callsite(unknown at unknown))
  return %0 : tensor<4xf32>
}
