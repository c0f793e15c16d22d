// RUN: dit-opt %s --split-input-file --verify-diagnostics
//
// Negative cases: at least one per op of DIALECT.md, more for the important rules. Each chunk
// holds one invalid op. Messages come from the ODS definition (MLIR's verifier, run while
// parsing; the first error stops the chunk) or from the Rust verifier
// (`'dit.x' op ... [rule name]`).

// ===== elementwise binary =====

func.func @add_no_broadcast(%a: tensor<2x3xf16>, %b: tensor<4x3xf16>) -> tensor<4x3xf16> {
  // expected-error @+1 {{'dit.add' op shapes [2x3] and [4x3] do not broadcast [rule broadcast]}}
  %0 = "dit.add"(%a, %b) : (tensor<2x3xf16>, tensor<4x3xf16>) -> tensor<4x3xf16>
  return %0 : tensor<4x3xf16>
}

// -----

func.func @sub_mixed_types(%a: tensor<4xf16>, %b: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'dit.sub' op lhs and rhs: element types f16 and f32 differ [rule same-element-type]}}
  %0 = "dit.sub"(%a, %b) : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @mul_wrong_result_shape(%a: tensor<4x1xbf16>, %b: tensor<8xbf16>) -> tensor<4x1xbf16> {
  // expected-error @+1 {{'dit.mul' op result has shape [4x1], expected [4x8] [rule shape]}}
  %0 = "dit.mul"(%a, %b) : (tensor<4x1xbf16>, tensor<8xbf16>) -> tensor<4x1xbf16>
  return %0 : tensor<4x1xbf16>
}

// -----

func.func @div_integer(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'dit.div' op operand element type i32 is not one of {f32, f16, bf16} [rule float-type]}}
  %0 = "dit.div"(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @pow_one_operand(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dit.pow' op expected 2 operands, but found 1}}
  %0 = "dit.pow"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @add_result_elem(%a: tensor<4xf16>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'dit.add' op operands and result: element types f16 and f32 differ [rule same-element-type]}}
  %0 = "dit.add"(%a, %b) : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ===== elementwise unary =====

func.func @neg_scalar_not_tensor(%x: f16) -> tensor<f16> {
  // expected-error @+1 {{'dit.neg' op operand #0 must be ranked tensor of any type values, but got 'f16'}}
  %0 = "dit.neg"(%x) : (f16) -> tensor<f16>
  return %0 : tensor<f16>
}

// -----

func.func @exp_integer(%x: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'dit.exp' op operand element type i8 is not one of {f32, f16, bf16} [rule float-type]}}
  %0 = "dit.exp"(%x) : (tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @sqrt_result_type(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'dit.sqrt' op requires the same type for all operands and results}}
  %0 = "dit.sqrt"(%x) : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @rsqrt_unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'dit.rsqrt' op operand #0 must be ranked tensor of any type values, but got 'tensor<*xf32>'}}
  %0 = "dit.rsqrt"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @tanh_f64(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'dit.tanh' op operand #0 has element type f64, which the dialect does not model [rule element-type]}}
  %0 = "dit.tanh"(%x) : (tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @erf_two_results(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dit.erf' op requires one result}}
  %0:2 = "dit.erf"(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0 : tensor<4xf32>
}

// -----

func.func @sigmoid_integer(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'dit.sigmoid' op operand element type i32 is not one of {f32, f16, bf16} [rule float-type]}}
  %0 = "dit.sigmoid"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @silu_no_operand() -> tensor<4xf32> {
  // expected-error @+1 {{'dit.silu' op requires a single operand}}
  %0 = "dit.silu"() : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @relu_i16(%x: tensor<4xi16>) -> tensor<4xi16> {
  // expected-error @+1 {{'dit.relu' op operand #0 has element type i16, which the dialect does not model [rule element-type]}}
  %0 = "dit.relu"(%x) : (tensor<4xi16>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

func.func @gelu_missing_approximate(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'dit.gelu' op requires attribute 'approximate'}}
  %0 = "dit.gelu"(%x) : (tensor<2x8xf16>) -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @gelu_bad_enum(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'dit.gelu' op attribute 'approximate' failed to satisfy constraint: string attribute whose value is one of "none", "tanh"}}
  %0 = "dit.gelu"(%x) {approximate = "fast"} : (tensor<2x8xf16>) -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

// ===== conversion, reduction, layout =====

func.func @cast_changes_shape(%x: tensor<4x8xbf16>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'dit.cast' op result has shape [8x4], expected [4x8] [rule shape]}}
  %0 = "dit.cast"(%x) : (tensor<4x8xbf16>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @reduce_mean_missing_keepdim(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dit.reduce_mean' op requires attribute 'keepdim'}}
  %0 = "dit.reduce_mean"(%x) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_mean_dim_twice(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dit.reduce_mean' op dims lists dimension 1 twice [rule reduce.dims]}}
  %0 = "dit.reduce_mean"(%x) {dims = array<i64: 1, -1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_mean_dim_out_of_range(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dit.reduce_mean' op reduced dim 2 is out of range for rank 2 [rule dim-range]}}
  %0 = "dit.reduce_mean"(%x) {dims = array<i64: 2>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_mean_dims_i32(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dit.reduce_mean' op attribute 'dims' failed to satisfy constraint: i64 dense array attribute}}
  %0 = "dit.reduce_mean"(%x) {dims = array<i32: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_sum_keepdim_shape(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dit.reduce_sum' op result has shape [4], expected [4x1] [rule shape]}}
  %0 = "dit.reduce_sum"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_sum_no_dims(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'dit.reduce_sum' op dims must not be empty [rule reduce.dims]}}
  %0 = "dit.reduce_sum"(%x) {dims = array<i64>, keepdim = true} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @softmax_dim_out_of_range(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  // expected-error @+1 {{'dit.softmax' op dim -3 is out of range for rank 2 [rule dim-range]}}
  %0 = "dit.softmax"(%x) {dim = -3 : i64} : (tensor<2x16xf32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

// -----

func.func @softmax_missing_dim(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  // expected-error @+1 {{'dit.softmax' op requires attribute 'dim'}}
  %0 = "dit.softmax"(%x) : (tensor<2x16xf32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

// -----

func.func @softmax_dim_not_integer(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  // expected-error @+1 {{'dit.softmax' op attribute 'dim' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = "dit.softmax"(%x) {dim = "last"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

// -----

func.func @reshape_element_count(%x: tensor<1x16x256xbf16>) -> tensor<1x16x2x64xbf16> {
  // expected-error @+1 {{'dit.reshape' op reshape changes the element count from 4096 to 2048 [rule reshape.element-count]}}
  %0 = "dit.reshape"(%x) : (tensor<1x16x256xbf16>) -> tensor<1x16x2x64xbf16>
  return %0 : tensor<1x16x2x64xbf16>
}

// -----

// Element counts beyond i64 are compared exactly (no overflow, no silent pass).
func.func @reshape_huge(%x: tensor<9223372036854775807x4xi1>) -> tensor<9223372036854775807x2xi1> {
  // expected-error @+1 {{'dit.reshape' op reshape changes the element count from 36893488147419103228 to 18446744073709551614 [rule reshape.element-count]}}
  %0 = "dit.reshape"(%x) : (tensor<9223372036854775807x4xi1>) -> tensor<9223372036854775807x2xi1>
  return %0 : tensor<9223372036854775807x2xi1>
}

// -----

func.func @broadcast_incompatible(%x: tensor<3xf16>) -> tensor<4x2xf16> {
  // expected-error @+1 {{'dit.broadcast' op [3] does not broadcast to [4x2] [rule broadcast]}}
  %0 = "dit.broadcast"(%x) : (tensor<3xf16>) -> tensor<4x2xf16>
  return %0 : tensor<4x2xf16>
}

// -----

func.func @broadcast_shrinks(%x: tensor<4x8xf16>) -> tensor<8xf16> {
  // expected-error @+1 {{'dit.broadcast' op [4x8] does not broadcast to [8] [rule broadcast]}}
  %0 = "dit.broadcast"(%x) : (tensor<4x8xf16>) -> tensor<8xf16>
  return %0 : tensor<8xf16>
}

// -----

func.func @bitcast_size(%x: tensor<4x8xi8>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'dit.bitcast' op bitcast changes the size in bits from 256 to 512 [rule bitcast.size]}}
  %0 = "dit.bitcast"(%x) : (tensor<4x8xi8>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

func.func @bitcast_huge(%x: tensor<2305843009213693951xf32>) -> tensor<9223372036854775807xi8> {
  // expected-error @+1 {{'dit.bitcast' op bitcast changes the size in bits from 73786976294838206432 to 73786976294838206456 [rule bitcast.size]}}
  %0 = "dit.bitcast"(%x) : (tensor<2305843009213693951xf32>) -> tensor<9223372036854775807xi8>
  return %0 : tensor<9223372036854775807xi8>
}

// -----

func.func @transpose_not_permutation(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'dit.transpose' op perm [0, 0] is not a permutation of 0..2 [rule transpose.perm]}}
  %0 = "dit.transpose"(%x) {perm = array<i64: 0, 0>} : (tensor<2x8xf16>) -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @transpose_perm_length(%x: tensor<2x8xf16>) -> tensor<8x2xf16> {
  // expected-error @+1 {{'dit.transpose' op perm [1, 0, 2] is not a permutation of 0..2 [rule transpose.perm]}}
  %0 = "dit.transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<2x8xf16>) -> tensor<8x2xf16>
  return %0 : tensor<8x2xf16>
}

// -----

func.func @transpose_result_shape(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'dit.transpose' op result has shape [2x8], expected [8x2] [rule shape]}}
  %0 = "dit.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<2x8xf16>) -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @transpose_missing_perm(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'dit.transpose' op requires attribute 'perm'}}
  %0 = "dit.transpose"(%x) : (tensor<2x8xf16>) -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @slice_zero_step(%x: tensor<4x16xf16>) -> tensor<4x4xf16> {
  // expected-error @+1 {{'dit.slice' op step must be positive, got 0 [rule slice.step]}}
  %0 = "dit.slice"(%x) {dim = 1 : i64, start = 0 : i64, end = 8 : i64, step = 0 : i64} : (tensor<4x16xf16>) -> tensor<4x4xf16>
  return %0 : tensor<4x4xf16>
}

// -----

func.func @slice_result_shape(%x: tensor<4x16xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'dit.slice' op result has shape [4x8], expected [4x3] [rule shape]}}
  %0 = "dit.slice"(%x) {dim = 1 : i64, start = -6 : i64, end = 100 : i64, step = 2 : i64} : (tensor<4x16xf16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

func.func @slice_missing_step(%x: tensor<4x16xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'dit.slice' op requires attribute 'step'}}
  %0 = "dit.slice"(%x) {dim = 1 : i64, start = 0 : i64, end = 8 : i64} : (tensor<4x16xf16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// end - start + step - 1 is past i64 here: computed without overflow.
func.func @slice_huge(%x: tensor<9223372036854775807xi8>) -> tensor<2xi8> {
  // expected-error @+1 {{'dit.slice' op result has shape [2], expected [1] [rule shape]}}
  %0 = "dit.slice"(%x) {dim = 0 : i64, start = 0 : i64, end = 9223372036854775807 : i64, step = 9223372036854775807 : i64} : (tensor<9223372036854775807xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

func.func @split_sizes_sum(%x: tensor<1x18xbf16>) -> (tensor<1x6xbf16>, tensor<1x6xbf16>) {
  // expected-error @+1 {{'dit.split' op sizes [6, 6] sum to 12, but dimension 1 is 18 [rule split.sizes]}}
  %0:2 = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 6, 6>} : (tensor<1x18xbf16>) -> (tensor<1x6xbf16>, tensor<1x6xbf16>)
  return %0#0, %0#1 : tensor<1x6xbf16>, tensor<1x6xbf16>
}

// -----

func.func @split_result_count(%x: tensor<1x18xbf16>) -> (tensor<1x6xbf16>, tensor<1x12xbf16>) {
  // expected-error @+1 {{'dit.split' op has 2 results but sizes lists 3 parts [rule split.results]}}
  %0:2 = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 6, 6, 6>} : (tensor<1x18xbf16>) -> (tensor<1x6xbf16>, tensor<1x12xbf16>)
  return %0#0, %0#1 : tensor<1x6xbf16>, tensor<1x12xbf16>
}

// -----

func.func @split_result_shape(%x: tensor<2x48xbf16>) -> (tensor<2x32xbf16>, tensor<2x16xbf16>) {
  // expected-error @+1 {{'dit.split' op result #1 has shape [2x16], expected [2x8] [rule shape]}}
  %0:3 = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 32, 8, 8>} : (tensor<2x48xbf16>) -> (tensor<2x32xbf16>, tensor<2x16xbf16>, tensor<2x8xbf16>)
  return %0#0, %0#1 : tensor<2x32xbf16>, tensor<2x16xbf16>
}

// -----

func.func @split_missing_sizes(%x: tensor<1x18xbf16>) -> (tensor<1x9xbf16>, tensor<1x9xbf16>) {
  // expected-error @+1 {{'dit.split' op requires attribute 'sizes'}}
  %0:2 = "dit.split"(%x) {dim = 1 : i64} : (tensor<1x18xbf16>) -> (tensor<1x9xbf16>, tensor<1x9xbf16>)
  return %0#0, %0#1 : tensor<1x9xbf16>, tensor<1x9xbf16>
}

// -----

// The sum of the sizes is past i64: computed without overflow.
func.func @split_sizes_overflow(%x: tensor<4xi8>) -> (tensor<9223372036854775807xi8>, tensor<9223372036854775807xi8>) {
  // expected-error @+1 {{'dit.split' op sizes [9223372036854775807, 9223372036854775807] sum to 18446744073709551614, but dimension 0 is 4 [rule split.sizes]}}
  %0:2 = "dit.split"(%x) {dim = 0 : i64, sizes = array<i64: 9223372036854775807, 9223372036854775807>} : (tensor<4xi8>) -> (tensor<9223372036854775807xi8>, tensor<9223372036854775807xi8>)
  return %0#0, %0#1 : tensor<9223372036854775807xi8>, tensor<9223372036854775807xi8>
}

// -----

func.func @concat_other_dim(%a: tensor<1x2x3x8xbf16>, %b: tensor<1x2x5x4xbf16>) -> tensor<1x2x8x8xbf16> {
  // expected-error @+1 {{'dit.concat' op operand #1 differs in dimension 3, which is not the concatenated one [rule concat.shape]}}
  %0 = "dit.concat"(%a, %b) {dim = 2 : i64} : (tensor<1x2x3x8xbf16>, tensor<1x2x5x4xbf16>) -> tensor<1x2x8x8xbf16>
  return %0 : tensor<1x2x8x8xbf16>
}

// -----

func.func @concat_result_shape(%a: tensor<4x1xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'dit.concat' op result has shape [4x2], expected [4x3] [rule shape]}}
  %0 = "dit.concat"(%a, %a, %a) {dim = -1 : i64} : (tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @concat_rank(%a: tensor<4x1xf32>, %b: tensor<4xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'dit.concat' op operand #1 has rank 1, expected 2 [rule concat.rank]}}
  %0 = "dit.concat"(%a, %b) {dim = 1 : i64} : (tensor<4x1xf32>, tensor<4xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @concat_missing_dim(%a: tensor<4x1xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'dit.concat' op requires attribute 'dim'}}
  %0 = "dit.concat"(%a, %a) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @concat_no_operands() -> tensor<4xf32> {
  // expected-error @+1 {{'dit.concat' op needs at least one operand [rule concat.operands]}}
  %0 = "dit.concat"() {dim = 0 : i64} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @concat_not_tensor(%a: tensor<4xf32>, %s: f32) -> tensor<5xf32> {
  // expected-error @+1 {{'dit.concat' op operand #1 must be variadic of ranked tensor of any type values, but got 'f32'}}
  %0 = "dit.concat"(%a, %s) {dim = 0 : i64} : (tensor<4xf32>, f32) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @concat_unranked_result(%a: tensor<4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'dit.concat' op result #0 must be ranked tensor of any type values, but got 'tensor<*xf32>'}}
  %0 = "dit.concat"(%a, %a) {dim = 0 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// The concatenated size is past i64: reported, not overflowed.
func.func @concat_overflow(%a: tensor<9223372036854775807xi8>) -> tensor<?xi8> {
  // expected-error @+1 {{'dit.concat' op the concatenated dimension 0 would have size 18446744073709551614, more than a dimension can hold [rule concat.shape]}}
  %0 = "dit.concat"(%a, %a) {dim = 0 : i64} : (tensor<9223372036854775807xi8>, tensor<9223372036854775807xi8>) -> tensor<?xi8>
  return %0 : tensor<?xi8>
}

// -----

// ===== matmul family =====

func.func @matmul_contraction(%a: tensor<2x4x16xf16>, %b: tensor<2x8x8xf16>) -> tensor<2x4x8xf16> {
  // expected-error @+1 {{'dit.matmul' op contraction dimensions differ: 16 vs 8 [rule matmul.contraction]}}
  %0 = "dit.matmul"(%a, %b) {transpose_a = false, transpose_b = false} : (tensor<2x4x16xf16>, tensor<2x8x8xf16>) -> tensor<2x4x8xf16>
  return %0 : tensor<2x4x8xf16>
}

// -----

func.func @matmul_transposed_contraction(%a: tensor<4x16xf16>, %b: tensor<16x8xf16>) -> tensor<4x16xf16> {
  // expected-error @+1 {{'dit.matmul' op contraction dimensions differ: 16 vs 8 [rule matmul.contraction]}}
  %0 = "dit.matmul"(%a, %b) {transpose_a = false, transpose_b = true} : (tensor<4x16xf16>, tensor<16x8xf16>) -> tensor<4x16xf16>
  return %0 : tensor<4x16xf16>
}

// -----

func.func @matmul_batch(%a: tensor<2x4x16xf16>, %b: tensor<3x16x8xf16>) -> tensor<2x4x8xf16> {
  // expected-error @+1 {{'dit.matmul' op batch dimensions do not broadcast [rule matmul.batch]}}
  %0 = "dit.matmul"(%a, %b) {transpose_a = false, transpose_b = false} : (tensor<2x4x16xf16>, tensor<3x16x8xf16>) -> tensor<2x4x8xf16>
  return %0 : tensor<2x4x8xf16>
}

// -----

func.func @matmul_result_elem(%a: tensor<4x16xf16>, %b: tensor<16x8xf16>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'dit.matmul' op a and result: element types f16 and f32 differ [rule same-element-type]}}
  %0 = "dit.matmul"(%a, %b) {transpose_a = false, transpose_b = false} : (tensor<4x16xf16>, tensor<16x8xf16>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @matmul_missing_transpose_b(%a: tensor<4x16xf16>, %b: tensor<16x8xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'dit.matmul' op requires attribute 'transpose_b'}}
  %0 = "dit.matmul"(%a, %b) {transpose_a = false} : (tensor<4x16xf16>, tensor<16x8xf16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

func.func @matmul_transpose_not_bool(%a: tensor<4x16xf16>, %b: tensor<16x8xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'dit.matmul' op attribute 'transpose_a' failed to satisfy constraint: bool attribute}}
  %0 = "dit.matmul"(%a, %b) {transpose_a = 0 : i64, transpose_b = false} : (tensor<4x16xf16>, tensor<16x8xf16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

func.func @linear_contraction(%x: tensor<2x4x16xbf16>, %w: tensor<32x8xbf16>) -> tensor<2x4x32xbf16> {
  // expected-error @+1 {{'dit.linear' op x's last dimension 16 does not match weight's K 8 [rule linear.contraction]}}
  %0 = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x4x16xbf16>, tensor<32x8xbf16>) -> tensor<2x4x32xbf16>
  return %0 : tensor<2x4x32xbf16>
}

// -----

func.func @linear_missing_segments(%x: tensor<2x16xbf16>, %w: tensor<32x16xbf16>) -> tensor<2x32xbf16> {
  // expected-error @+1 {{'dit.linear' op missing operandSegmentSizes (required on ops with optional operands) [rule operand-segments]}}
  %0 = "dit.linear"(%x, %w) : (tensor<2x16xbf16>, tensor<32x16xbf16>) -> tensor<2x32xbf16>
  return %0 : tensor<2x32xbf16>
}

// -----

func.func @linear_segments_mismatch(%x: tensor<2x16xbf16>, %w: tensor<32x16xbf16>, %b: tensor<32xbf16>) -> tensor<2x32xbf16> {
  // expected-error @+1 {{'dit.linear' op operandSegmentSizes adds up to 2, but the op has 3 operands [rule operand-segments]}}
  %0 = "dit.linear"(%x, %w, %b) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x16xbf16>, tensor<32x16xbf16>, tensor<32xbf16>) -> tensor<2x32xbf16>
  return %0 : tensor<2x32xbf16>
}

// -----

func.func @linear_segments_i64(%x: tensor<2x16xbf16>, %w: tensor<32x16xbf16>) -> tensor<2x32xbf16> {
  // expected-error @+1 {{'dit.linear' op operandSegmentSizes must be an array<i32> [rule operand-segments]}}
  %0 = "dit.linear"(%x, %w) {operandSegmentSizes = array<i64: 1, 1, 0>} : (tensor<2x16xbf16>, tensor<32x16xbf16>) -> tensor<2x32xbf16>
  return %0 : tensor<2x32xbf16>
}

// -----

func.func @linear_segments_entries(%x: tensor<2x16xbf16>, %w: tensor<32x16xbf16>) -> tensor<2x32xbf16> {
  // expected-error @+1 {{'dit.linear' op operandSegmentSizes has 2 entries, but the op has 3 operand slots [rule operand-segments]}}
  %0 = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1>} : (tensor<2x16xbf16>, tensor<32x16xbf16>) -> tensor<2x32xbf16>
  return %0 : tensor<2x32xbf16>
}

// -----

// One optional operand: ODS splits by count and ignores operandSegmentSizes; the Rust verifier
// checks it.
func.func @dynamic_quant_segments_slot(%x: tensor<16x64xbf16>) -> (tensor<16x64xi8>, tensor<16xf32>) {
  // expected-error @+1 {{'dit.dynamic_quant' op operandSegmentSizes gives 0 values to slot 'x' [rule operand-segments]}}
  %0:2 = "dit.dynamic_quant"(%x) {operandSegmentSizes = array<i32: 0, 1>} : (tensor<16x64xbf16>) -> (tensor<16x64xi8>, tensor<16xf32>)
  return %0#0, %0#1 : tensor<16x64xi8>, tensor<16xf32>
}

// -----

func.func @concat_segments_sum(%a: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'dit.concat' op operandSegmentSizes adds up to 3, but the op has 2 operands [rule operand-segments]}}
  %0 = "dit.concat"(%a, %a) {dim = 0 : i64, operandSegmentSizes = array<i32: 3>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @linear_weight_rank(%x: tensor<2x16xbf16>, %w: tensor<1x32x16xbf16>) -> tensor<2x32xbf16> {
  // expected-error @+1 {{'dit.linear' op weight must be [N, K], got rank 3 [rule linear.weight]}}
  %0 = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x16xbf16>, tensor<1x32x16xbf16>) -> tensor<2x32xbf16>
  return %0 : tensor<2x32xbf16>
}

// -----

func.func @linear_bias_shape(%x: tensor<2x16xbf16>, %w: tensor<32x16xbf16>, %b: tensor<16xbf16>) -> tensor<2x32xbf16> {
  // expected-error @+1 {{'dit.linear' op bias has shape [16], expected [32] [rule shape]}}
  %0 = "dit.linear"(%x, %w, %b) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x16xbf16>, tensor<32x16xbf16>, tensor<16xbf16>) -> tensor<2x32xbf16>
  return %0 : tensor<2x32xbf16>
}

// -----

func.func @linear_bias_elem(%x: tensor<2x16xbf16>, %w: tensor<32x16xbf16>, %b: tensor<32xi8>) -> tensor<2x32xbf16> {
  // expected-error @+1 {{'dit.linear' op x and bias: element types bf16 and i8 differ [rule same-element-type]}}
  %0 = "dit.linear"(%x, %w, %b) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x16xbf16>, tensor<32x16xbf16>, tensor<32xi8>) -> tensor<2x32xbf16>
  return %0 : tensor<2x32xbf16>
}

// -----

// ===== norms, rope, attention =====

func.func @rms_norm_gamma_shape(%x: tensor<2x4x64xbf16>, %g: tensor<32xbf16>) -> tensor<2x4x64xbf16> {
  // expected-error @+1 {{'dit.rms_norm' op gamma has shape [32], expected [64] [rule shape]}}
  %0 = "dit.rms_norm"(%x, %g) {epsilon = 1.000000e-06 : f32} : (tensor<2x4x64xbf16>, tensor<32xbf16>) -> tensor<2x4x64xbf16>
  return %0 : tensor<2x4x64xbf16>
}

// -----

func.func @rms_norm_epsilon_f64(%x: tensor<2x64xbf16>, %g: tensor<64xbf16>) -> tensor<2x64xbf16> {
  // expected-error @+1 {{'dit.rms_norm' op attribute 'epsilon' failed to satisfy constraint: 32-bit float attribute}}
  %0 = "dit.rms_norm"(%x, %g) {epsilon = 1.000000e-06 : f64} : (tensor<2x64xbf16>, tensor<64xbf16>) -> tensor<2x64xbf16>
  return %0 : tensor<2x64xbf16>
}

// -----

func.func @rms_norm_negative_epsilon(%x: tensor<2x64xbf16>, %g: tensor<64xbf16>) -> tensor<2x64xbf16> {
  // expected-error @+1 {{'dit.rms_norm' op epsilon must be non-negative and finite, got -0.0010000000474974513 [rule epsilon]}}
  %0 = "dit.rms_norm"(%x, %g) {epsilon = -1.000000e-03 : f32} : (tensor<2x64xbf16>, tensor<64xbf16>) -> tensor<2x64xbf16>
  return %0 : tensor<2x64xbf16>
}

// -----

func.func @rms_norm_gamma_type(%x: tensor<2x64xbf16>, %g: tensor<64xf16>) -> tensor<2x64xbf16> {
  // expected-error @+1 {{'dit.rms_norm' op gamma must be bf16 or f32, got f16 [rule norm.weight-type]}}
  %0 = "dit.rms_norm"(%x, %g) {epsilon = 1.000000e-06 : f32} : (tensor<2x64xbf16>, tensor<64xf16>) -> tensor<2x64xbf16>
  return %0 : tensor<2x64xbf16>
}

// -----

// Two optional operands: ODS itself requires operandSegmentSizes (AttrSizedOperandSegments).
func.func @layer_norm_missing_segments(%x: tensor<2x64xbf16>, %g: tensor<64xbf16>) -> tensor<2x64xbf16> {
  // expected-error @+1 {{'dit.layer_norm' op requires dense i32 array attribute 'operandSegmentSizes'}}
  %0 = "dit.layer_norm"(%x, %g) {epsilon = 1.000000e-06 : f32} : (tensor<2x64xbf16>, tensor<64xbf16>) -> tensor<2x64xbf16>
  return %0 : tensor<2x64xbf16>
}

// -----

func.func @layer_norm_beta_shape(%x: tensor<2x64xbf16>, %b: tensor<2x64xbf16>) -> tensor<2x64xbf16> {
  // expected-error @+1 {{'dit.layer_norm' op beta has shape [2x64], expected [64] [rule shape]}}
  %0 = "dit.layer_norm"(%x, %b) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<2x64xbf16>, tensor<2x64xbf16>) -> tensor<2x64xbf16>
  return %0 : tensor<2x64xbf16>
}

// -----

func.func @layer_norm_missing_epsilon(%x: tensor<2x64xbf16>) -> tensor<2x64xbf16> {
  // expected-error @+1 {{'dit.layer_norm' op requires attribute 'epsilon'}}
  %0 = "dit.layer_norm"(%x) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2x64xbf16>) -> tensor<2x64xbf16>
  return %0 : tensor<2x64xbf16>
}

// -----

func.func @rope_bad_mode(%x: tensor<1x2x16x64xbf16>, %c: tensor<1x1x16x64xbf16>) -> tensor<1x2x16x64xbf16> {
  // expected-error @+1 {{'dit.rope' op attribute 'mode' failed to satisfy constraint: string attribute whose value is one of "half", "interleave"}}
  %0 = "dit.rope"(%x, %c, %c) {mode = "neox"} : (tensor<1x2x16x64xbf16>, tensor<1x1x16x64xbf16>, tensor<1x1x16x64xbf16>) -> tensor<1x2x16x64xbf16>
  return %0 : tensor<1x2x16x64xbf16>
}

// -----

func.func @rope_odd_head_dim(%x: tensor<1x2x16x63xbf16>, %c: tensor<1x1x16x63xbf16>) -> tensor<1x2x16x63xbf16> {
  // expected-error @+1 {{'dit.rope' op x's last dimension 63 must be even [rule rope.even]}}
  %0 = "dit.rope"(%x, %c, %c) {mode = "half"} : (tensor<1x2x16x63xbf16>, tensor<1x1x16x63xbf16>, tensor<1x1x16x63xbf16>) -> tensor<1x2x16x63xbf16>
  return %0 : tensor<1x2x16x63xbf16>
}

// -----

func.func @rope_table_broadcast(%x: tensor<1x2x16x64xbf16>, %c: tensor<1x1x8x64xbf16>) -> tensor<1x2x16x64xbf16> {
  // expected-error @+1 {{'dit.rope' op cos [1x1x8x64] does not broadcast to x [1x2x16x64] [rule rope.table]}}
  %0 = "dit.rope"(%x, %c, %c) {mode = "interleave"} : (tensor<1x2x16x64xbf16>, tensor<1x1x8x64xbf16>, tensor<1x1x8x64xbf16>) -> tensor<1x2x16x64xbf16>
  return %0 : tensor<1x2x16x64xbf16>
}

// -----

func.func @rope_table_head_dim(%x: tensor<1x2x16x64xbf16>, %c: tensor<1x1x16x1xbf16>) -> tensor<1x2x16x64xbf16> {
  // expected-error @+1 {{'dit.rope' op cos's last dimension 1 must equal x's last dimension 64 [rule rope.table]}}
  %0 = "dit.rope"(%x, %c, %c) {mode = "half"} : (tensor<1x2x16x64xbf16>, tensor<1x1x16x1xbf16>, tensor<1x1x16x1xbf16>) -> tensor<1x2x16x64xbf16>
  return %0 : tensor<1x2x16x64xbf16>
}

// -----

func.func @attention_missing_scale(%q: tensor<1x2x16x64xbf16>) -> tensor<1x2x16x64xbf16> {
  // expected-error @+1 {{'dit.attention' op requires attribute 'scale'}}
  %0 = "dit.attention"(%q, %q, %q) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x2x16x64xbf16>, tensor<1x2x16x64xbf16>, tensor<1x2x16x64xbf16>) -> tensor<1x2x16x64xbf16>
  return %0 : tensor<1x2x16x64xbf16>
}

// -----

func.func @attention_bad_layout(%q: tensor<1x2x16x64xbf16>) -> tensor<1x2x16x64xbf16> {
  // expected-error @+1 {{'dit.attention' op attribute 'layout' is "NSD", expected one of "BNSD", "BSND", "BSH" [rule enum-value]}}
  %0 = "dit.attention"(%q, %q, %q) {layout = "NSD", operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 1.250000e-01 : f32} : (tensor<1x2x16x64xbf16>, tensor<1x2x16x64xbf16>, tensor<1x2x16x64xbf16>) -> tensor<1x2x16x64xbf16>
  return %0 : tensor<1x2x16x64xbf16>
}

// -----

func.func @attention_head_dim(%q: tensor<1x2x16x64xbf16>, %k: tensor<1x2x32x128xbf16>) -> tensor<1x2x16x128xbf16> {
  // expected-error @+1 {{'dit.attention' op q and k head dimensions differ [rule attention.head-dim]}}
  %0 = "dit.attention"(%q, %k, %k) {operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 1.250000e-01 : f32} : (tensor<1x2x16x64xbf16>, tensor<1x2x32x128xbf16>, tensor<1x2x32x128xbf16>) -> tensor<1x2x16x128xbf16>
  return %0 : tensor<1x2x16x128xbf16>
}

// -----

func.func @attention_kv_length(%q: tensor<1x2x16x64xbf16>, %k: tensor<1x2x32x64xbf16>, %v: tensor<1x2x16x64xbf16>) -> tensor<1x2x16x64xbf16> {
  // expected-error @+1 {{'dit.attention' op k and v sequence lengths differ [rule attention.kv-length]}}
  %0 = "dit.attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 1.250000e-01 : f32} : (tensor<1x2x16x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x16x64xbf16>) -> tensor<1x2x16x64xbf16>
  return %0 : tensor<1x2x16x64xbf16>
}

// -----

func.func @attention_gqa_heads(%q: tensor<1x6x16x64xbf16>, %k: tensor<1x4x32x64xbf16>) -> tensor<1x6x16x64xbf16> {
  // expected-error @+1 {{'dit.attention' op k's head count 4 does not divide q's head count 6 [rule attention.heads]}}
  %0 = "dit.attention"(%q, %k, %k) {operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 1.250000e-01 : f32} : (tensor<1x6x16x64xbf16>, tensor<1x4x32x64xbf16>, tensor<1x4x32x64xbf16>) -> tensor<1x6x16x64xbf16>
  return %0 : tensor<1x6x16x64xbf16>
}

// -----

func.func @attention_mask_shape(%q: tensor<1x2x16x64xbf16>, %k: tensor<1x2x32x64xbf16>, %m: tensor<1x1x16x16xbf16>) -> tensor<1x2x16x64xbf16> {
  // expected-error @+1 {{'dit.attention' op mask [1x1x16x16] does not broadcast to [query length 16, key length 32] [rule attention.mask]}}
  %0 = "dit.attention"(%q, %k, %k, %m) {operandSegmentSizes = array<i32: 1, 1, 1, 1>, scale = 1.250000e-01 : f32} : (tensor<1x2x16x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x1x16x16xbf16>) -> tensor<1x2x16x64xbf16>
  return %0 : tensor<1x2x16x64xbf16>
}

// -----

func.func @attention_scale_f64(%q: tensor<1x2x16x64xbf16>) -> tensor<1x2x16x64xbf16> {
  // expected-error @+1 {{'dit.attention' op attribute 'scale' failed to satisfy constraint: 32-bit float attribute}}
  %0 = "dit.attention"(%q, %q, %q) {operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 1.250000e-01 : f64} : (tensor<1x2x16x64xbf16>, tensor<1x2x16x64xbf16>, tensor<1x2x16x64xbf16>) -> tensor<1x2x16x64xbf16>
  return %0 : tensor<1x2x16x64xbf16>
}

// -----

// ===== quantisation =====

func.func @dynamic_quant_output_type(%x: tensor<16x64xbf16>) -> (tensor<16x64xf16>, tensor<16xf32>) {
  // expected-error @+1 {{'dit.dynamic_quant' op y element type f16 is not one of {i8, i4} [rule dynamic_quant.output]}}
  %0:2 = "dit.dynamic_quant"(%x) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<16x64xbf16>) -> (tensor<16x64xf16>, tensor<16xf32>)
  return %0#0, %0#1 : tensor<16x64xf16>, tensor<16xf32>
}

// -----

func.func @dynamic_quant_scale_shape(%x: tensor<16x64xbf16>) -> (tensor<16x64xi8>, tensor<64xf32>) {
  // expected-error @+1 {{'dit.dynamic_quant' op scale (one per token) has shape [64], expected [16] [rule shape]}}
  %0:2 = "dit.dynamic_quant"(%x) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<16x64xbf16>) -> (tensor<16x64xi8>, tensor<64xf32>)
  return %0#0, %0#1 : tensor<16x64xi8>, tensor<64xf32>
}

// -----

func.func @dynamic_quant_one_result(%x: tensor<16x64xbf16>) -> tensor<16x64xi8> {
  // expected-error @+1 {{'dit.dynamic_quant' op expected 2 results}}
  %0 = "dit.dynamic_quant"(%x) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<16x64xbf16>) -> tensor<16x64xi8>
  return %0 : tensor<16x64xi8>
}

// -----

func.func @quant_matmul_x1_float(%a: tensor<4x64xf16>, %b: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  // expected-error @+1 {{'dit.quant_matmul' op x1 element type f16 is not one of {i8, i4, f8E4M3FN, f8E5M2, f4E2M1FN} [rule quant_matmul.input-type]}}
  %0 = "dit.quant_matmul"(%a, %b, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, transpose_x1 = false, transpose_x2 = true} : (tensor<4x64xf16>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %0 : tensor<4x128xf16>
}

// -----

func.func @quant_matmul_x2_i32(%a: tensor<4x64xi8>, %b: tensor<128x64xi32>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  // expected-error @+1 {{'dit.quant_matmul' op x2 element type i32 is not one of {i8, i4, f8E4M3FN, f8E5M2, f4E2M1FN} [rule quant_matmul.input-type]}}
  %0 = "dit.quant_matmul"(%a, %b, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, transpose_x1 = false, transpose_x2 = true} : (tensor<4x64xi8>, tensor<128x64xi32>, tensor<128xf32>) -> tensor<4x128xf16>
  return %0 : tensor<4x128xf16>
}

// -----

func.func @quant_matmul_x2_scale_type(%a: tensor<4x64xf8E4M3FN>, %b: tensor<128x64xf8E8M0FNU>, %s: tensor<128xf32>) -> tensor<4x128xbf16> {
  // expected-error @+1 {{'dit.quant_matmul' op x2 element type f8E8M0FNU is not one of {i8, i4, f8E4M3FN, f8E5M2, f4E2M1FN} [rule quant_matmul.input-type]}}
  %0 = "dit.quant_matmul"(%a, %b, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, transpose_x1 = false, transpose_x2 = true} : (tensor<4x64xf8E4M3FN>, tensor<128x64xf8E8M0FNU>, tensor<128xf32>) -> tensor<4x128xbf16>
  return %0 : tensor<4x128xbf16>
}

// -----

func.func @quant_matmul_int_times_float(%a: tensor<4x64xi8>, %b: tensor<128x64xf8E4M3FN>, %s: tensor<128xf32>) -> tensor<4x128xbf16> {
  // expected-error @+1 {{'dit.quant_matmul' op x1 (i8) and x2 (f8E4M3FN) mix integer and floating-point formats [rule quant_matmul.input-type]}}
  %0 = "dit.quant_matmul"(%a, %b, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, transpose_x1 = false, transpose_x2 = true} : (tensor<4x64xi8>, tensor<128x64xf8E4M3FN>, tensor<128xf32>) -> tensor<4x128xbf16>
  return %0 : tensor<4x128xbf16>
}

// -----

func.func @quant_matmul_output_i4(%a: tensor<4x64xi8>, %b: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xi4> {
  // expected-error @+1 {{'dit.quant_matmul' op result element type i4 is not one of {i8, f16, bf16, i32, f32} [rule quant_matmul.output-type]}}
  %0 = "dit.quant_matmul"(%a, %b, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, transpose_x1 = false, transpose_x2 = true} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xi4>
  return %0 : tensor<4x128xi4>
}

// -----

func.func @quant_matmul_output_f8(%a: tensor<4x64xf8E5M2>, %b: tensor<128x64xf8E5M2>, %s: tensor<128xf32>) -> tensor<4x128xf8E4M3FN> {
  // expected-error @+1 {{'dit.quant_matmul' op result element type f8E4M3FN is not one of {i8, f16, bf16, i32, f32} [rule quant_matmul.output-type]}}
  %0 = "dit.quant_matmul"(%a, %b, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, transpose_x1 = false, transpose_x2 = true} : (tensor<4x64xf8E5M2>, tensor<128x64xf8E5M2>, tensor<128xf32>) -> tensor<4x128xf8E4M3FN>
  return %0 : tensor<4x128xf8E4M3FN>
}

// -----

func.func @quant_matmul_bad_x2_format(%a: tensor<4x64xi8>, %b: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  // expected-error @+1 {{'dit.quant_matmul' op attribute 'x2_format' is "NZ", expected one of "ND", "FRACTAL_NZ" [rule enum-value]}}
  %0 = "dit.quant_matmul"(%a, %b, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, transpose_x1 = false, transpose_x2 = true, x2_format = "NZ"} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %0 : tensor<4x128xf16>
}

// -----

func.func @quant_matmul_x2_format_not_string(%a: tensor<4x64xi8>, %b: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  // expected-error @+1 {{'dit.quant_matmul' op attribute 'x2_format' failed to satisfy constraint: string attribute}}
  %0 = "dit.quant_matmul"(%a, %b, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, transpose_x1 = false, transpose_x2 = true, x2_format = 29 : i64} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %0 : tensor<4x128xf16>
}

// -----

func.func @quant_matmul_negative_group_size(%a: tensor<4x64xi8>, %b: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  // expected-error @+1 {{'dit.quant_matmul' op group_size must be >= 0, got -32 [rule quant_matmul.group-size]}}
  %0 = "dit.quant_matmul"(%a, %b, %s) {group_size = -32 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, transpose_x1 = false, transpose_x2 = true} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %0 : tensor<4x128xf16>
}

// -----

func.func @quant_matmul_contraction(%a: tensor<4x64xi8>, %b: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  // expected-error @+1 {{'dit.quant_matmul' op contraction dimensions differ: 64 vs 128 [rule quant_matmul.contraction]}}
  %0 = "dit.quant_matmul"(%a, %b, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, transpose_x1 = false, transpose_x2 = false} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %0 : tensor<4x128xf16>
}

// -----

func.func @quant_matmul_scale_shape(%a: tensor<4x64xi8>, %b: tensor<128x64xi8>, %s: tensor<64xf32>) -> tensor<4x128xf16> {
  // expected-error @+1 {{'dit.quant_matmul' op scale must be [128] or [1] (or that vector as [1, 128] / [128, 1]), got [64] [rule quant.scale-shape]}}
  %0 = "dit.quant_matmul"(%a, %b, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, transpose_x1 = false, transpose_x2 = true} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<64xf32>) -> tensor<4x128xf16>
  return %0 : tensor<4x128xf16>
}

// -----

func.func @quant_matmul_pertoken_shape(%a: tensor<4x64xi8>, %b: tensor<128x64xi8>, %s: tensor<128xf32>, %p: tensor<128xf32>) -> tensor<4x128xf16> {
  // expected-error @+1 {{'dit.quant_matmul' op pertoken_scale must be [4] (or [4, 1] / [1, 4]), got [128] [rule quant.scale-shape]}}
  %0 = "dit.quant_matmul"(%a, %b, %s, %p) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>, transpose_x1 = false, transpose_x2 = true} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>, tensor<128xf32>) -> tensor<4x128xf16>
  return %0 : tensor<4x128xf16>
}

// -----

func.func @quant_matmul_missing_transpose_x1(%a: tensor<4x64xi8>, %b: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  // expected-error @+1 {{'dit.quant_matmul' op requires attribute 'transpose_x1'}}
  %0 = "dit.quant_matmul"(%a, %b, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, transpose_x2 = true} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %0 : tensor<4x128xf16>
}

// -----

func.func @quant_matmul_missing_segments(%a: tensor<4x64xi8>, %b: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  // expected-error @+1 {{'dit.quant_matmul' op requires dense i32 array attribute 'operandSegmentSizes'}}
  %0 = "dit.quant_matmul"(%a, %b, %s) {transpose_x1 = false, transpose_x2 = true} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %0 : tensor<4x128xf16>
}

// -----

func.func @quant_matmul_segments_slot(%a: tensor<4x64xi8>, %b: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  // expected-error @+1 {{'dit.quant_matmul' op operandSegmentSizes gives 0 values to slot 'scale' [rule operand-segments]}}
  %0 = "dit.quant_matmul"(%a, %b, %s) {operandSegmentSizes = array<i32: 1, 1, 0, 1, 0, 0>, transpose_x1 = false, transpose_x2 = true} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %0 : tensor<4x128xf16>
}

// -----

func.func @grouped_matmul_bad_list_type(%x: tensor<64x128xbf16>, %w: tensor<8x128x256xbf16>, %gl: tensor<8xi64>) -> tensor<64x256xbf16> {
  // expected-error @+1 {{'dit.grouped_matmul' op attribute 'group_list_type' failed to satisfy constraint: string attribute whose value is one of "cumsum", "count"}}
  %0 = "dit.grouped_matmul"(%x, %w, %gl) {group_list_type = "offsets", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<64x128xbf16>, tensor<8x128x256xbf16>, tensor<8xi64>) -> tensor<64x256xbf16>
  return %0 : tensor<64x256xbf16>
}

// -----

func.func @grouped_matmul_group_list_i32(%x: tensor<64x128xbf16>, %w: tensor<8x128x256xbf16>, %gl: tensor<8xi32>) -> tensor<64x256xbf16> {
  // expected-error @+1 {{'dit.grouped_matmul' op group_list element type i32 is not one of {i64} [rule grouped_matmul.group-list]}}
  %0 = "dit.grouped_matmul"(%x, %w, %gl) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<64x128xbf16>, tensor<8x128x256xbf16>, tensor<8xi32>) -> tensor<64x256xbf16>
  return %0 : tensor<64x256xbf16>
}

// -----

func.func @grouped_matmul_contraction(%x: tensor<64x64xbf16>, %w: tensor<8x128x256xbf16>, %gl: tensor<8xi64>) -> tensor<64x256xbf16> {
  // expected-error @+1 {{'dit.grouped_matmul' op x's K and weight's K differ [rule grouped_matmul.contraction]}}
  %0 = "dit.grouped_matmul"(%x, %w, %gl) {group_list_type = "cumsum", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<64x64xbf16>, tensor<8x128x256xbf16>, tensor<8xi64>) -> tensor<64x256xbf16>
  return %0 : tensor<64x256xbf16>
}

// -----

func.func @opaque_missing_name(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'dit.opaque' op requires attribute 'name'}}
  %0 = "dit.opaque"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @opaque_empty_name(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'dit.opaque' op name must not be empty [rule opaque.name]}}
  %0 = "dit.opaque"(%x) {name = ""} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @opaque_name_not_string(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'dit.opaque' op attribute 'name' failed to satisfy constraint: string attribute}}
  %0 = "dit.opaque"(%x) {name = 7 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// ===== fused ops =====

func.func @fast_gelu_integer(%x: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'dit.fast_gelu' op operand element type i8 is not one of {f32, f16, bf16} [rule float-type]}}
  %0 = "dit.fast_gelu"(%x) : (tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @muls_add_missing_scale(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'dit.muls_add' op requires attribute 'scale'}}
  %0 = "dit.muls_add"(%x, %x) : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

func.func @muls_add_no_broadcast(%x: tensor<4x8xf16>, %y: tensor<4x4xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'dit.muls_add' op x and y do not broadcast [rule broadcast]}}
  %0 = "dit.muls_add"(%x, %y) {scale = 5.000000e-01 : f32} : (tensor<4x8xf16>, tensor<4x4xf16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

func.func @ada_layer_norm_shift(%x: tensor<1x16x64xbf16>, %s: tensor<1x1x64xbf16>, %t: tensor<1x1x32xbf16>) -> tensor<1x16x64xbf16> {
  // expected-error @+1 {{'dit.ada_layer_norm' op shift [1x1x32] does not broadcast to x [1x16x64] [rule broadcast]}}
  %0 = "dit.ada_layer_norm"(%x, %s, %t) {epsilon = 1.000000e-06 : f32} : (tensor<1x16x64xbf16>, tensor<1x1x64xbf16>, tensor<1x1x32xbf16>) -> tensor<1x16x64xbf16>
  return %0 : tensor<1x16x64xbf16>
}

// -----

func.func @quant_matmul_gelu_bad_approximate(%a: tensor<4x64xi8>, %b: tensor<64x128xi8>, %as: tensor<4xf32>, %bs: tensor<128xf32>) -> tensor<4x128xbf16> {
  // expected-error @+1 {{'dit.quant_matmul_gelu' op attribute 'approximate' failed to satisfy constraint: string attribute whose value is one of "gelu_tanh", "gelu_erf"}}
  %0 = "dit.quant_matmul_gelu"(%a, %b, %as, %bs) {approximate = "tanh", operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<4x64xi8>, tensor<64x128xi8>, tensor<4xf32>, tensor<128xf32>) -> tensor<4x128xbf16>
  return %0 : tensor<4x128xbf16>
}

// -----

func.func @quant_matmul_gelu_output_f32(%a: tensor<4x64xi8>, %b: tensor<64x128xi8>, %as: tensor<4xf32>, %bs: tensor<128xf32>) -> tensor<4x128xf32> {
  // expected-error @+1 {{'dit.quant_matmul_gelu' op result element type f32 is not allowed: f16 or bf16, and bf16 when x2_scale or bias is bf16 [rule quant_matmul_gelu.output-type]}}
  %0 = "dit.quant_matmul_gelu"(%a, %b, %as, %bs) {approximate = "gelu_erf", operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<4x64xi8>, tensor<64x128xi8>, tensor<4xf32>, tensor<128xf32>) -> tensor<4x128xf32>
  return %0 : tensor<4x128xf32>
}

// -----

func.func @fused_matmul_add_without_x3(%a: tensor<4x64xf16>, %b: tensor<64x128xf16>) -> tensor<4x128xf16> {
  // expected-error @+1 {{'dit.fused_matmul' op x3 is required exactly when fused_op_type is "add" or "mul" [rule fused_matmul.x3]}}
  %0 = "dit.fused_matmul"(%a, %b) {fused_op_type = "add", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<4x64xf16>, tensor<64x128xf16>) -> tensor<4x128xf16>
  return %0 : tensor<4x128xf16>
}

// -----

func.func @fused_matmul_bad_op_type(%a: tensor<4x64xf16>, %b: tensor<64x128xf16>) -> tensor<4x128xf16> {
  // expected-error @+1 {{'dit.fused_matmul' op attribute 'fused_op_type' failed to satisfy constraint: string attribute whose value is one of "", "add", "mul", "gelu_tanh", "gelu_erf", "relu"}}
  %0 = "dit.fused_matmul"(%a, %b) {fused_op_type = "sigmoid", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<4x64xf16>, tensor<64x128xf16>) -> tensor<4x128xf16>
  return %0 : tensor<4x128xf16>
}

// -----

func.func @gmm_swiglu_quant_odd_n(%x: tensor<64x128xi8>, %w: tensor<8x128x511xi8>, %gl: tensor<8xi64>, %ws: tensor<8x511xf32>, %xs: tensor<64xf32>) -> (tensor<64x255xi8>, tensor<64xf32>, tensor<64xf32>) {
  // expected-error @+1 {{'dit.grouped_matmul_swiglu_quant' op weight's N 511 must be even (SwiGLU halves it) [rule swiglu.even]}}
  %y, %ys, %yo = "dit.grouped_matmul_swiglu_quant"(%x, %w, %gl, %ws, %xs) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>, variant = "v1"} : (tensor<64x128xi8>, tensor<8x128x511xi8>, tensor<8xi64>, tensor<8x511xf32>, tensor<64xf32>) -> (tensor<64x255xi8>, tensor<64xf32>, tensor<64xf32>)
  return %y, %ys, %yo : tensor<64x255xi8>, tensor<64xf32>, tensor<64xf32>
}

// -----

func.func @gmm_swiglu_quant_bad_variant(%x: tensor<64x128xi8>, %w: tensor<8x128x512xi8>, %gl: tensor<8xi64>, %ws: tensor<8x512xf32>, %xs: tensor<64xf32>) -> (tensor<64x256xi8>, tensor<64xf32>, tensor<64xf32>) {
  // expected-error @+1 {{'dit.grouped_matmul_swiglu_quant' op attribute 'variant' failed to satisfy constraint: string attribute whose value is one of "v1", "v2"}}
  %y, %ys, %yo = "dit.grouped_matmul_swiglu_quant"(%x, %w, %gl, %ws, %xs) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>, variant = "v3"} : (tensor<64x128xi8>, tensor<8x128x512xi8>, tensor<8xi64>, tensor<8x512xf32>, tensor<64xf32>) -> (tensor<64x256xi8>, tensor<64xf32>, tensor<64xf32>)
  return %y, %ys, %yo : tensor<64x256xi8>, tensor<64xf32>, tensor<64xf32>
}

// -----

func.func @swiglu_odd_dim(%x: tensor<2x4x255xbf16>) -> tensor<2x4x127xbf16> {
  // expected-error @+1 {{'dit.swiglu' op dimension 2 has size 255, which is not even [rule split-dim-even]}}
  %0 = "dit.swiglu"(%x) {dim = -1 : i64} : (tensor<2x4x255xbf16>) -> tensor<2x4x127xbf16>
  return %0 : tensor<2x4x127xbf16>
}

// -----

func.func @swiglu_result_shape(%x: tensor<2x4x256xbf16>) -> tensor<2x4x256xbf16> {
  // expected-error @+1 {{'dit.swiglu' op result has shape [2x4x256], expected [2x2x256] [rule shape]}}
  %0 = "dit.swiglu"(%x) {dim = 1 : i64} : (tensor<2x4x256xbf16>) -> tensor<2x4x256xbf16>
  return %0 : tensor<2x4x256xbf16>
}

// -----

func.func @swiglu_missing_dim(%x: tensor<2x4x256xbf16>) -> tensor<2x4x128xbf16> {
  // expected-error @+1 {{'dit.swiglu' op requires attribute 'dim'}}
  %0 = "dit.swiglu"(%x) : (tensor<2x4x256xbf16>) -> tensor<2x4x128xbf16>
  return %0 : tensor<2x4x128xbf16>
}

// -----

func.func @silu_mul_mismatch(%g: tensor<2x4x128xbf16>, %u: tensor<2x4x64xbf16>) -> tensor<2x4x128xbf16> {
  // expected-error @+1 {{'dit.silu_mul' op gate and up must have the same type [rule same-type]}}
  %0 = "dit.silu_mul"(%g, %u) : (tensor<2x4x128xbf16>, tensor<2x4x64xbf16>) -> tensor<2x4x128xbf16>
  return %0 : tensor<2x4x128xbf16>
}

// -----

func.func @gelu_mul_odd(%x: tensor<2x4x255xf16>) -> tensor<2x4x127xf16> {
  // expected-error @+1 {{'dit.gelu_mul' op dimension 2 has size 255, which is not even [rule split-dim-even]}}
  %0 = "dit.gelu_mul"(%x) {approximate = "tanh"} : (tensor<2x4x255xf16>) -> tensor<2x4x127xf16>
  return %0 : tensor<2x4x127xf16>
}

// -----

func.func @gelu_mul_too_wide(%x: tensor<2x2048xf16>) -> tensor<2x1024xf16> {
  // expected-error @+1 {{'dit.gelu_mul' op x's last dimension 2048 exceeds GeluMul's limit of 1024 [rule gelu_mul.last-dim]}}
  %0 = "dit.gelu_mul"(%x) {approximate = "none"} : (tensor<2x2048xf16>) -> tensor<2x1024xf16>
  return %0 : tensor<2x1024xf16>
}

// -----

func.func @kv_rms_norm_rope_cache_kv_dim(%kv: tensor<4x1x1x512xbf16>, %g: tensor<512xbf16>, %cos: tensor<4x1x1x64xbf16>, %idx: tensor<4x1xi64>, %kc: tensor<4x1x16x64xbf16>, %ckvc: tensor<4x1x16x512xbf16>) -> (tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>) {
  // expected-error @+1 {{'dit.kv_rms_norm_rope_cache' op kv's last dimension must be 576 (512 normalised + 64 rotary) [rule kv_rms_norm_rope_cache.kv]}}
  %0:2 = "dit.kv_rms_norm_rope_cache"(%kv, %g, %cos, %cos, %idx, %kc, %ckvc) {cache_mode = "Norm", epsilon = 9.99999974E-6 : f32} : (tensor<4x1x1x512xbf16>, tensor<512xbf16>, tensor<4x1x1x64xbf16>, tensor<4x1x1x64xbf16>, tensor<4x1xi64>, tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>) -> (tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>)
  return %0#0, %0#1 : tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>
}

// -----

func.func @kv_rms_norm_rope_cache_mode(%kv: tensor<4x1x1x576xbf16>, %g: tensor<512xbf16>, %cos: tensor<4x1x1x64xbf16>, %idx: tensor<4x1xi64>, %kc: tensor<4x1x16x64xbf16>, %ckvc: tensor<4x1x16x512xbf16>) -> (tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>) {
  // expected-error @+1 {{'dit.kv_rms_norm_rope_cache' op attribute 'cache_mode' is "paged", expected one of}}
  %0:2 = "dit.kv_rms_norm_rope_cache"(%kv, %g, %cos, %cos, %idx, %kc, %ckvc) {cache_mode = "paged", epsilon = 9.99999974E-6 : f32} : (tensor<4x1x1x576xbf16>, tensor<512xbf16>, tensor<4x1x1x64xbf16>, tensor<4x1x1x64xbf16>, tensor<4x1xi64>, tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>) -> (tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>)
  return %0#0, %0#1 : tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>
}

// -----

func.func @kv_rms_norm_rope_cache_result(%kv: tensor<4x1x1x576xbf16>, %g: tensor<512xbf16>, %cos: tensor<4x1x1x64xbf16>, %idx: tensor<4x1xi64>, %kc: tensor<4x1x16x64xbf16>, %ckvc: tensor<4x1x16x512xbf16>) -> (tensor<4x1x16x64xbf16>, tensor<4x1x16x64xbf16>) {
  // expected-error @+1 {{'dit.kv_rms_norm_rope_cache' op result #1 must have ckv_cache's type [rule kv_rms_norm_rope_cache.results]}}
  %0:2 = "dit.kv_rms_norm_rope_cache"(%kv, %g, %cos, %cos, %idx, %kc, %ckvc) {cache_mode = "PA", epsilon = 9.99999974E-6 : f32} : (tensor<4x1x1x576xbf16>, tensor<512xbf16>, tensor<4x1x1x64xbf16>, tensor<4x1x1x64xbf16>, tensor<4x1xi64>, tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>) -> (tensor<4x1x16x64xbf16>, tensor<4x1x16x64xbf16>)
  return %0#0, %0#1 : tensor<4x1x16x64xbf16>, tensor<4x1x16x64xbf16>
}

// -----

func.func @kv_rms_norm_rope_cache_missing_epsilon(%kv: tensor<4x1x1x576xbf16>, %g: tensor<512xbf16>, %cos: tensor<4x1x1x64xbf16>, %idx: tensor<4x1xi64>, %kc: tensor<4x1x16x64xbf16>, %ckvc: tensor<4x1x16x512xbf16>) -> (tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>) {
  // expected-error @+1 {{'dit.kv_rms_norm_rope_cache' op requires attribute 'epsilon'}}
  %0:2 = "dit.kv_rms_norm_rope_cache"(%kv, %g, %cos, %cos, %idx, %kc, %ckvc) {cache_mode = "Norm"} : (tensor<4x1x1x576xbf16>, tensor<512xbf16>, tensor<4x1x1x64xbf16>, tensor<4x1x1x64xbf16>, tensor<4x1xi64>, tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>) -> (tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>)
  return %0#0, %0#1 : tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>
}

// -----

// ===== region op =====

// MLIR's core verifier rejects it (dit.yield is the only terminator a body can have).
func.func @fused_no_yield(%g: tensor<2x64xbf16>) -> tensor<2x64xbf16> {
  %0 = "dit.fused"(%g) ({
  ^bb0(%a: tensor<2x64xbf16>):
    // expected-error @+1 {{block with no terminator}}
    %1 = "dit.silu"(%a) : (tensor<2x64xbf16>) -> tensor<2x64xbf16>
  }) {kernel = "fused_silu_0"} : (tensor<2x64xbf16>) -> tensor<2x64xbf16>
  return %0 : tensor<2x64xbf16>
}

// -----

func.func @fused_capture_type(%g: tensor<2x64xbf16>) -> tensor<2x64xf16> {
  // expected-error @+1 {{'dit.fused' op body argument #0 type differs from captured value #0 [rule fused.captures]}}
  %0 = "dit.fused"(%g) ({
  ^bb0(%a: tensor<2x64xf16>):
    %1 = "dit.silu"(%a) : (tensor<2x64xf16>) -> tensor<2x64xf16>
    "dit.yield"(%1) : (tensor<2x64xf16>) -> ()
  }) {kernel = "fused_silu_0"} : (tensor<2x64xbf16>) -> tensor<2x64xf16>
  return %0 : tensor<2x64xf16>
}

// -----

func.func @fused_capture_count(%g: tensor<2x64xbf16>) -> tensor<2x64xbf16> {
  // expected-error @+1 {{'dit.fused' op body has 2 arguments but the op captures 1 values [rule fused.captures]}}
  %0 = "dit.fused"(%g) ({
  ^bb0(%a: tensor<2x64xbf16>, %b: tensor<2x64xbf16>):
    %1 = "dit.mul"(%a, %b) : (tensor<2x64xbf16>, tensor<2x64xbf16>) -> tensor<2x64xbf16>
    "dit.yield"(%1) : (tensor<2x64xbf16>) -> ()
  }) {kernel = "fused_mul_0"} : (tensor<2x64xbf16>) -> tensor<2x64xbf16>
  return %0 : tensor<2x64xbf16>
}

// -----

func.func @fused_yield_types(%g: tensor<2x64xbf16>) -> tensor<2x32xbf16> {
  // expected-error @+1 {{'dit.fused' op dit.yield operand types must equal the op's result types [rule fused.results]}}
  %0 = "dit.fused"(%g) ({
  ^bb0(%a: tensor<2x64xbf16>):
    %1 = "dit.silu"(%a) : (tensor<2x64xbf16>) -> tensor<2x64xbf16>
    "dit.yield"(%1) : (tensor<2x64xbf16>) -> ()
  }) {kernel = "fused_silu_0"} : (tensor<2x64xbf16>) -> tensor<2x32xbf16>
  return %0 : tensor<2x32xbf16>
}

// -----

func.func @fused_missing_kernel(%g: tensor<2x64xbf16>) -> tensor<2x64xbf16> {
  // expected-error @+1 {{'dit.fused' op requires attribute 'kernel'}}
  %0 = "dit.fused"(%g) ({
  ^bb0(%a: tensor<2x64xbf16>):
    %1 = "dit.silu"(%a) : (tensor<2x64xbf16>) -> tensor<2x64xbf16>
    "dit.yield"(%1) : (tensor<2x64xbf16>) -> ()
  }) : (tensor<2x64xbf16>) -> tensor<2x64xbf16>
  return %0 : tensor<2x64xbf16>
}

// -----

// An invalid op inside the body is reported like any other.
func.func @fused_invalid_body_op(%g: tensor<2x64xbf16>) -> tensor<2x64xbf16> {
  %0 = "dit.fused"(%g) ({
  ^bb0(%a: tensor<2x64xbf16>):
    // expected-error @+1 {{'dit.swiglu' op result has shape [2x64], expected [2x32] [rule shape]}}
    %1 = "dit.swiglu"(%a) {dim = 1 : i64} : (tensor<2x64xbf16>) -> tensor<2x64xbf16>
    "dit.yield"(%1) : (tensor<2x64xbf16>) -> ()
  }) {kernel = "fused_swiglu_0"} : (tensor<2x64xbf16>) -> tensor<2x64xbf16>
  return %0 : tensor<2x64xbf16>
}

// -----

func.func @yield_outside_fused(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'dit.yield' op expects parent op 'dit.fused'}}
  "dit.yield"(%x) : (tensor<2x8xf16>) -> ()
  return %x : tensor<2x8xf16>
}

// -----

// ===== not in the dialect =====

func.func @unknown_op(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{unregistered operation 'dit.nosuch' found in dialect ('dit') that does not allow unknown operations}}
  %0 = "dit.nosuch"(%x) : (tensor<2x8xf16>) -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

// The Rust verifier reports every violation in a chunk, not only the first.
func.func @two_violations(%x: tensor<2x8xf16>) -> (tensor<2x8xf16>, tensor<4x8xf16>) {
  // expected-error @+1 {{'dit.transpose' op perm [1, 1] is not a permutation of 0..2 [rule transpose.perm]}}
  %0 = "dit.transpose"(%x) {perm = array<i64: 1, 1>} : (tensor<2x8xf16>) -> tensor<2x8xf16>
  // expected-error @+1 {{'dit.reshape' op reshape changes the element count from 16 to 32 [rule reshape.element-count]}}
  %1 = "dit.reshape"(%x) : (tensor<2x8xf16>) -> tensor<4x8xf16>
  return %0, %1 : tensor<2x8xf16>, tensor<4x8xf16>
}

// -----

// A tensor whose bytes do not fit in i64 (sizes travel as i64 through the runtime's ABI).
func.func @bytes_over_i64(%x: tensor<9223372036854775807x2xf16>) -> tensor<9223372036854775807x2xf16> {
  // expected-error @+1 {{'dit.relu' op operand #0 (tensor<9223372036854775807x2xf16>) needs more than 2^63-1 bytes [rule size]}}
  %0 = "dit.relu"(%x) : (tensor<9223372036854775807x2xf16>) -> tensor<9223372036854775807x2xf16>
  return %0 : tensor<9223372036854775807x2xf16>
}
