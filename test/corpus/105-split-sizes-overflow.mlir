func.func @f(%x: tensor<8xf32>) -> tensor<4xf32> {
  %0:2 = "dit.split"(%x) {dim = 0 : i64, sizes = array<i64: 9223372036854775807, 9223372036854775807>} : (tensor<8xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0 : tensor<4xf32>
}
