func.func @f(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %0:2 = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 2, 6>} : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>)
  %1 = "dit.relu"(%0#0) : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %2 = "dit.add"(%1, %0#1) : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return %2 : tensor<4x2xf32>
}
// -----
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "dit.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
