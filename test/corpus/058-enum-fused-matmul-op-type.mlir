func.func @f(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>) -> tensor<4x16xf16> {
  %0 = "dit.fused_matmul"(%a, %b) {fused_op_type = "gelu", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>
  return %0 : tensor<4x16xf16>
}
