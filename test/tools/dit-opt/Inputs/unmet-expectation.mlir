// Input of verify-diagnostics.mlir: one expectation that is not met, and one error that no
// comment expects.
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
// expected-error @+2 {{this message is never produced}}
  %0 = "dit.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "dit.softmax"(%0) {dim = 5 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
