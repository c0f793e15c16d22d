func.func @f(%x: tensor<9223372036854775807xf32>) -> tensor<?xf32> {
  %0 = "dit.concat"(%x, %x) {dim = 0 : i64} : (tensor<9223372036854775807xf32>, tensor<9223372036854775807xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
