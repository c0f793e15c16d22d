// Not a test: read by errors.mlir. sqrt of negative inputs is NaN.
func.func @nan(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %n = "dit.neg"(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %a = "dit.mul"(%n, %x) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %e = "dit.sqrt"(%a) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %e : tensor<2x4xf32>
}
