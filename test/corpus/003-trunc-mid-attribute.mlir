func.func @f(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = "dit.reduce_sum"(%x) {keepdim = false, dims = array<i64: 1, 