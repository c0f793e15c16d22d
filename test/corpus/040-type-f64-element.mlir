func.func @f(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = "dit.exp"(%x) : (tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}
