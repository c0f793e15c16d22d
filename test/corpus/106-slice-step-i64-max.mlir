func.func @f(%x: tensor<8xf32>) -> tensor<2xf32> {
  %0 = "dit.slice"(%x) {dim = 0 : i64, start = 0 : i64, end = 8 : i64, step = 9223372036854775807 : i64} : (tensor<8xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
