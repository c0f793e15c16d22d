// Seed 001 §3.3 / §2.6 / §3.2, as CANN's QuantBatchMatmulV3TransposeFusionPass does them:
// - condition A tests the scale input the reshape feeds (IsReshapeTrans: "对于普通 tensor，只有
//   当其最后两维存在一维为 1 时，最后两维的转置才可以等价为 Reshape"), not the data input;
// - an MX (f8E8M0FNU) scale (n, ceil(k/64), 2) transposed with perm [1, 0, 2] is the scale side
//   of a data transpose and folds with it (§2.6: the MX scale's first two dims swap);
// - the s8s4 bitcast guard (§3.2) counts only "满足融合要求的 Reshape → Bitcast", not any reshape.
//
// RUN: dit-opt %s --split-input-file --dit-fold-transpose-quant-matmul | dit-opt --split-input-file | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-fold-transpose-quant-matmul --target=%S/../Transforms/Inputs/ascend910b-s8s4.toml | dit-opt --split-input-file | FileCheck %s --check-prefix=S4
// RUN: dit-opt %s --split-input-file --dit-fold-transpose-quant-matmul --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-run %s --split-input-file --compare-unfused --pipeline='builtin.module(dit-fold-transpose-quant-matmul)' --exclude=mx_scale_transpose_102 > /dev/null

// CANN's unit-test case (test_quant_batch_matmul_v3_transpose_fusion_pass.csv,
// quant_bmm_v3_with_reshape_transpose: Reshape (1,128)): scale [128] -> [1, 128], x2 [64, 128].
// The scale input [1, 128] has a 1 in its last two dims: condition A holds, the reshape goes.
// CHECK-LABEL: func.func @cann_scale_reshape_1x128
// CHECK-NOT: "dit.transpose"
// CHECK-NOT: "dit.reshape"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK-SAME: : (tensor<4x64xi8>, tensor<64x128xi8>, tensor<128xf32>) -> tensor<4x128xf16>
// REPORT: applied at {{.*}}seed-fidelity-transpose-scale.mlir:[[@LINE+4]]:8: x2: transpose bypassed, transpose_x2 true -> false; scale dit.reshape bypassed (condition A)
func.func @cann_scale_reshape_1x128(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %rs = "dit.reshape"(%s) : (tensor<128xf32>) -> tensor<1x128xf32>
  %r = "dit.quant_matmul"(%a, %t, %rs) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<1x128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// Negative: a rank-1 scale input ([128], from [2, 64]) has no last two dims: A fails (static
// A needs the quant_matmul input to be at least 2-D, §3.3), B too (not f8E8M0): the reshape
// stays, x2 still folds.
// CHECK-LABEL: func.func @scale_reshape_no_unit_dim
// CHECK: %[[RS:.*]] = "dit.reshape"(%arg2)
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %[[RS]]) {{.*}}transpose_x2 = false
// REPORT: applied at {{.*}}seed-fidelity-transpose-scale.mlir:[[@LINE+4]]:8: {{.*}}scale kept: the scale reshape is not equivalent to the transpose (neither condition A nor B)
func.func @scale_reshape_no_unit_dim(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<2x64xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %rs = "dit.reshape"(%s) : (tensor<2x64xf32>) -> tensor<128xf32>
  %r = "dit.quant_matmul"(%a, %t, %rs) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// MX: x2 [K, N] = [128, 64] from a transpose of the [N, K] weight; its e8m0 scale
// (ceil(k/64), n, 2) = (2, 64, 2) from a [1, 0, 2] transpose of (n, ceil(k/64), 2): both fold
// together, so the scale keeps matching the (now transposed) x2.
// CHECK-LABEL: func.func @mx_scale_transpose_102
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK-SAME: : (tensor<4x128xf8E4M3FN>, tensor<64x128xf8E4M3FN>, tensor<64x2x2xf8E8M0FNU>) -> tensor<4x64xbf16>
// REPORT: applied at {{.*}}seed-fidelity-transpose-scale.mlir:[[@LINE+4]]:8: x2: transpose bypassed, transpose_x2 false -> true; scale dit.transpose bypassed (MX scale transpose [1, 0, 2])
func.func @mx_scale_transpose_102(%a: tensor<4x128xf8E4M3FN>, %w: tensor<64x128xf8E4M3FN>, %s: tensor<64x2x2xf8E8M0FNU>) -> tensor<4x64xbf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xf8E4M3FN>) -> tensor<128x64xf8E4M3FN>
  %ts = "dit.transpose"(%s) {perm = array<i64: 1, 0, 2>} : (tensor<64x2x2xf8E8M0FNU>) -> tensor<2x64x2xf8E8M0FNU>
  %r = "dit.quant_matmul"(%a, %t, %ts) {group_size = 32 : i64, transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x128xf8E4M3FN>, tensor<128x64xf8E4M3FN>, tensor<2x64x2xf8E8M0FNU>) -> tensor<4x64xbf16>
  return %r : tensor<4x64xbf16>
}

// -----

// s8s4 guard: the scale path is reshape -> bitcast, but the reshape ([2, 64] -> [128]) is no
// transpose-equivalent one, so it does not count (CANN's IsBitcastPattern looks for a transpose
// or an equivalent reshape before the bitcast). On the s8s4 target the x2 transpose still folds.
// CHECK-LABEL: func.func @s8s4_guard_ignores_plain_reshape
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %{{.*}}) {{.*}}transpose_x2 = false
// S4-LABEL: func.func @s8s4_guard_ignores_plain_reshape
// S4-NOT: "dit.transpose"
// S4: "dit.quant_matmul"(%arg0, %arg1, %{{.*}}) {{.*}}transpose_x2 = false
func.func @s8s4_guard_ignores_plain_reshape(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<2x64xi32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %rs = "dit.reshape"(%s) : (tensor<2x64xi32>) -> tensor<128xi32>
  %bs = "dit.bitcast"(%rs) : (tensor<128xi32>) -> tensor<128xf32>
  %r = "dit.quant_matmul"(%a, %t, %bs) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// Positive control of the guard: an equivalent reshape ([128] -> [1, 128]) before the bitcast is
// the pattern: on the s8s4 target the whole node stays.
// S4-LABEL: func.func @s8s4_guard_equivalent_reshape
// S4: "dit.transpose"
// S4: "dit.quant_matmul"({{.*}}) {{.*}}transpose_x2 = true
// CHECK-LABEL: func.func @s8s4_guard_equivalent_reshape
// CHECK-NOT: "dit.transpose"
func.func @s8s4_guard_equivalent_reshape(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128xi32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %rs = "dit.reshape"(%s) : (tensor<128xi32>) -> tensor<1x128xi32>
  %bs = "dit.bitcast"(%rs) : (tensor<1x128xi32>) -> tensor<1x128xf32>
  %r = "dit.quant_matmul"(%a, %t, %bs) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<1x128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}
