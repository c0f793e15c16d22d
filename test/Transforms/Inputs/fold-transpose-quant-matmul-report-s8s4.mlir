// Input of dit-fold-transpose-quant-matmul-report.mlir: x1 transposed directly, x2 through
// transpose -> bitcast. On a target with mixed s8s4 Cube input the whole node is kept.
func.func @s8s4(%a: tensor<64x4xf8E4M3FN>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xbf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xf8E4M3FN>) -> tensor<4x64xf8E4M3FN>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xi8>) -> tensor<64x128xi8>
  %b = "dit.bitcast"(%t2) : (tensor<64x128xi8>) -> tensor<64x128xf8E4M3FN>
  %r = "dit.quant_matmul"(%t1, %b, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E4M3FN>, tensor<64x128xf8E4M3FN>, tensor<128xf32>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}
