func.func @f(%x: tensor<8x16xf16>, %w: tensor<4x16x32xf16>, %g: tensor<4xi64>) -> tensor<8x32xf16> {
  %0 = "dit.grouped_matmul"(%x, %w, %g) {group_list_type = "prefix", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<8x16xf16>, tensor<4x16x32xf16>, tensor<4xi64>) -> tensor<8x32xf16>
  return %0 : tensor<8x32xf16>
}
