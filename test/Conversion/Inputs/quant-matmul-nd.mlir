// The row-major twin of ../lower-to-aclnn-nz.mlir: x2_format ND, same signature.
func.func @quant_matmul_nz(%a: tensor<4x64xi8>, %b: tensor<128x64xi8>, %s: tensor<128xf32>, %p: tensor<4xf32>) -> tensor<4x128xf16> {
  %r = "dit.quant_matmul"(%a, %b, %s, %p) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>, tensor<4xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}
