// Not a test: read by errors.mlir.
func.func @f(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e = "dit.exp"(%x) : (tensor<2x4xf32>) -> tensor<2x5xf32>
  return %e : tensor<2x4xf32>
}
