func.func @f(%x: tensor<4xindex>) -> tensor<4xindex> {
  %0 = "dit.neg"(%x) : (tensor<4xindex>) -> tensor<4xindex>
  return %0 : tensor<4xindex>
}
