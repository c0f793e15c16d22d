func.func @f(%x: tensor<4xi16>) -> tensor<4xi16> {
  %0 = "dit.neg"(%x) : (tensor<4xi16>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}
