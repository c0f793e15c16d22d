// Inputs of dit-fold-transpose-quant-matmul.mlir: graphs with a foldable-looking transpose in
// front of a dit.quant_matmul whose dtypes (or ranks) QuantBatchMatmulV3 does not take. The
// verifier refuses each graph when it is read, before any pass runs, so no fold can happen
// (CANN: CheckNodeDtype / CheckNodeShape -> GRAPH_NOT_CHANGED).

// x1 f32 is not a QuantBatchMatmulV3 input type.
func.func @x1_dtype_f32(%a: tensor<64x4xf32>, %w: tensor<128x64xf8E4M3FN>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xf32>) -> tensor<4x64xf32>
  // expected-error @+1 {{x1 element type f32 is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf32>, tensor<128x64xf8E4M3FN>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// x1 f16 is not a QuantBatchMatmulV3 input type.
func.func @x1_dtype_f16(%a: tensor<64x4xf16>, %w: tensor<128x64xf8E4M3FN>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xf16>) -> tensor<4x64xf16>
  // expected-error @+1 {{x1 element type f16 is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf16>, tensor<128x64xf8E4M3FN>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// x1 bf16 is not a QuantBatchMatmulV3 input type.
func.func @x1_dtype_bf16(%a: tensor<64x4xbf16>, %w: tensor<128x64xf8E4M3FN>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xbf16>) -> tensor<4x64xbf16>
  // expected-error @+1 {{x1 element type bf16 is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xbf16>, tensor<128x64xf8E4M3FN>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// x1 i32 is not a QuantBatchMatmulV3 input type.
func.func @x1_dtype_i32(%a: tensor<64x4xi32>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi32>) -> tensor<4x64xi32>
  // expected-error @+1 {{x1 element type i32 is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi32>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// x1 i64 is not a QuantBatchMatmulV3 input type.
func.func @x1_dtype_i64(%a: tensor<64x4xi64>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi64>) -> tensor<4x64xi64>
  // expected-error @+1 {{x1 element type i64 is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi64>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// x1 f8E8M0FNU is not a QuantBatchMatmulV3 input type.
func.func @x1_dtype_f8E8M0FNU(%a: tensor<64x4xf8E8M0FNU>, %w: tensor<128x64xf8E4M3FN>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xf8E8M0FNU>) -> tensor<4x64xf8E8M0FNU>
  // expected-error @+1 {{x1 element type f8E8M0FNU is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E8M0FNU>, tensor<128x64xf8E4M3FN>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// x2 f32 is not a QuantBatchMatmulV3 input type.
func.func @x2_dtype_f32(%a: tensor<64x4xf8E4M3FN>, %w: tensor<128x64xf32>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xf8E4M3FN>) -> tensor<4x64xf8E4M3FN>
  // expected-error @+1 {{x2 element type f32 is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E4M3FN>, tensor<128x64xf32>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// x2 f16 is not a QuantBatchMatmulV3 input type.
func.func @x2_dtype_f16(%a: tensor<64x4xf8E4M3FN>, %w: tensor<128x64xf16>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xf8E4M3FN>) -> tensor<4x64xf8E4M3FN>
  // expected-error @+1 {{x2 element type f16 is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E4M3FN>, tensor<128x64xf16>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// x2 bf16 is not a QuantBatchMatmulV3 input type.
func.func @x2_dtype_bf16(%a: tensor<64x4xf8E4M3FN>, %w: tensor<128x64xbf16>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xf8E4M3FN>) -> tensor<4x64xf8E4M3FN>
  // expected-error @+1 {{x2 element type bf16 is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E4M3FN>, tensor<128x64xbf16>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// x2 i32 is not a QuantBatchMatmulV3 input type.
func.func @x2_dtype_i32(%a: tensor<64x4xi8>, %w: tensor<128x64xi32>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  // expected-error @+1 {{x2 element type i32 is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi32>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// x2 i64 is not a QuantBatchMatmulV3 input type.
func.func @x2_dtype_i64(%a: tensor<64x4xi8>, %w: tensor<128x64xi64>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  // expected-error @+1 {{x2 element type i64 is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi64>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// x2 f8E8M0FNU is not a QuantBatchMatmulV3 input type.
func.func @x2_dtype_f8E8M0FNU(%a: tensor<64x4xf8E4M3FN>, %w: tensor<128x64xf8E8M0FNU>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xf8E4M3FN>) -> tensor<4x64xf8E4M3FN>
  // expected-error @+1 {{x2 element type f8E8M0FNU is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E4M3FN>, tensor<128x64xf8E8M0FNU>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// Output i4 is not a QuantBatchMatmulV3 output type.
func.func @out_dtype_i4(%a: tensor<64x4xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xi4> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  // expected-error @+1 {{result element type i4 is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xi4>
  return %r : tensor<4x128xi4>
}

// -----

// Output i64 is not a QuantBatchMatmulV3 output type.
func.func @out_dtype_i64(%a: tensor<64x4xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xi64> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  // expected-error @+1 {{result element type i64 is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xi64>
  return %r : tensor<4x128xi64>
}

// -----

// Output f8E4M3FN is not a QuantBatchMatmulV3 output type.
func.func @out_dtype_f8E4M3FN(%a: tensor<64x4xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf8E4M3FN> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  // expected-error @+1 {{result element type f8E4M3FN is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf8E4M3FN>
  return %r : tensor<4x128xf8E4M3FN>
}

// -----

// Output f8E5M2 is not a QuantBatchMatmulV3 output type.
func.func @out_dtype_f8E5M2(%a: tensor<64x4xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf8E5M2> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  // expected-error @+1 {{result element type f8E5M2 is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf8E5M2>
  return %r : tensor<4x128xf8E5M2>
}

// -----

// Output f8E8M0FNU is not a QuantBatchMatmulV3 output type.
func.func @out_dtype_f8E8M0FNU(%a: tensor<64x4xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf8E8M0FNU> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  // expected-error @+1 {{result element type f8E8M0FNU is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf8E8M0FNU>
  return %r : tensor<4x128xf8E8M0FNU>
}

// -----

// Output f4E2M1FN is not a QuantBatchMatmulV3 output type.
func.func @out_dtype_f4E2M1FN(%a: tensor<64x4xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf4E2M1FN> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  // expected-error @+1 {{result element type f4E2M1FN is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf4E2M1FN>
  return %r : tensor<4x128xf4E2M1FN>
}

// -----

// CSV quant_bmm_v3_with_x1_dtype_invalid: x1 in a dtype outside the list (here f16), x1 transposed.
func.func @cann_quant_bmm_v3_with_x1_dtype_invalid(%a: tensor<64x4xf16>, %w: tensor<64x128xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xf16>) -> tensor<4x64xf16>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  // expected-error @+1 {{x1 element type f16 is not one of}}
  %r = "dit.quant_matmul"(%t1, %t2, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf16>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// CSV quant_bmm_v3_with_x2_dtype_invalid: x2 in a dtype outside the list (here f32), x2 transposed.
func.func @cann_quant_bmm_v3_with_x2_dtype_invalid(%a: tensor<4x64xi8>, %w: tensor<64x128xf32>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xf32>) -> tensor<128x64xf32>
  // expected-error @+1 {{x2 element type f32 is not one of}}
  %r = "dit.quant_matmul"(%a, %t2, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xf32>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// CSV quant_bmm_v3_with_out_dtype_invalid: output dtype outside the list (here i64).
func.func @cann_quant_bmm_v3_with_out_dtype_invalid(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>) -> tensor<4x128xi64> {
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  // expected-error @+1 {{result element type i64 is not one of}}
  %r = "dit.quant_matmul"(%a, %t2, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xi64>
  return %r : tensor<4x128xi64>
}

// -----

// CSV quant_bmm_v3_x1_dtype_bf16: bf16 is not an input dtype.
func.func @cann_quant_bmm_v3_x1_dtype_bf16(%a: tensor<64x4xbf16>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xbf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xbf16>) -> tensor<4x64xbf16>
  // expected-error @+1 {{x1 element type bf16 is not one of}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xbf16>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// CSV quant_bmm_v3_out_dtype_hifloat8 has no counterpart: HiFloat8 has no MLIR type. The nearest
// is an 8-bit float output, which QuantBatchMatmulV3 does not produce either.
func.func @cann_quant_bmm_v3_out_dtype_hifloat8(%a: tensor<4x64xf8E4M3FN>, %w: tensor<64x128xf8E4M3FN>, %s: tensor<128xf32>) -> tensor<4x128xf8E4M3FN> {
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xf8E4M3FN>) -> tensor<128x64xf8E4M3FN>
  // expected-error @+1 {{result element type f8E4M3FN is not one of}}
  %r = "dit.quant_matmul"(%a, %t2, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E4M3FN>, tensor<128x64xf8E4M3FN>, tensor<128xf32>) -> tensor<4x128xf8E4M3FN>
  return %r : tensor<4x128xf8E4M3FN>
}

// -----

// Integer x1 with floating-point x2 is no kernel at all, whatever the transposes.
func.func @mixed_int_float(%a: tensor<64x4xi8>, %w: tensor<64x128xf8E4M3FN>, %s: tensor<128xf32>) -> tensor<4x128xbf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xf8E4M3FN>) -> tensor<128x64xf8E4M3FN>
  // expected-error @+1 {{mix integer and floating-point formats}}
  %r = "dit.quant_matmul"(%t1, %t2, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xf8E4M3FN>, tensor<128xf32>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// CSV quant_bmm_v3_x1_1d_shape: x1 is 1-D (x2 transposed). Rank < 2 is refused by the verifier.
func.func @cann_quant_bmm_v3_x1_1d_shape(%a: tensor<64xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>) -> tensor<128xf16> {
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  // expected-error @+1 {{rank >= 2}}
  %r = "dit.quant_matmul"(%a, %t2, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<128xf16>
  return %r : tensor<128xf16>
}

// -----

// x2 1-D, x1 transposed.
func.func @x2_1d_shape(%a: tensor<64x4xi8>, %w: tensor<64xi8>, %s: tensor<1xf32>) -> tensor<4xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  // expected-error @+1 {{rank >= 2}}
  %r = "dit.quant_matmul"(%t1, %w, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<64xi8>, tensor<1xf32>) -> tensor<4xf16>
  return %r : tensor<4xf16>
}
