// Seed 000 P0 with an nn.Linear weight ([N, K]): under --fuse-all the transpose fold (seed 001)
// runs first and turns quant_matmul(x, transpose(w)) into quant_matmul(x, w) {transpose_x2 =
// true}. aclnnFusedQuantMatmul takes that x2 as it is: "ND格式下支持最后两根轴转置情况下的非连续
// tensor" ([ops-nn] matmul/fused_quant_mat_mul/docs/aclnnFusedQuantMatmul.md, x2), so P0 still
// fires, the fused op carries transpose_x2 = true and the kernel entry passes x2 through a
// transposed view. Before the fix P0 refused ("x1 or x2 is transposed") and the GELU became
// dit.fast_gelu.
//
// RUN: dit-opt %s --split-input-file --fuse-all | dit-opt --split-input-file | FileCheck %s
// RUN: dit-opt %s --split-input-file --fuse-all --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-run %s --split-input-file --compare-unfused --pipeline='builtin.module(dit-fold-transpose-quant-matmul,dit-fuse-patterns)' > /dev/null

// The three positive chunks fuse (one report per chunk), then the A4W4 one is skipped.
// REPORT-COUNT-3: applied at {{.*}} -> dit.quant_matmul_gelu(

// Explicit weight transpose (the common nn.Linear case): folded, then fused.
// CHECK-LABEL: func.func @explicit_weight_transpose
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul_gelu"(%[[X:.*]]#0, %arg1, %[[X]]#1, %arg2) {{{.*}}approximate = "gelu_tanh"{{.*}}transpose_x2 = true}
// CHECK-SAME: : (tensor<16x64xi8>, tensor<128x64xi8>, tensor<16xf32>, tensor<128xf32>) -> tensor<16x128xf16>
// CHECK-NOT: "dit.fast_gelu"
// CHECK: return
func.func @explicit_weight_transpose(%x: tensor<16x64xf16>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<16x128xf16> {
  %xq, %xs = "dit.dynamic_quant"(%x) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<16x64xf16>) -> (tensor<16x64xi8>, tensor<16xf32>)
  %wt = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xi8>) -> tensor<64x128xi8>
  %q = "dit.quant_matmul"(%xq, %wt, %s, %xs) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<16x64xi8>, tensor<64x128xi8>, tensor<128xf32>, tensor<16xf32>) -> tensor<16x128xf16>
  %g = "dit.gelu"(%q) {approximate = "tanh"} : (tensor<16x128xf16>) -> tensor<16x128xf16>
  return %g : tensor<16x128xf16>
}

// -----

// transpose_x2 already set (weight [N, K]), erf GELU with a bias.
// CHECK-LABEL: func.func @transposed_x2_erf_bias
// CHECK: "dit.quant_matmul_gelu"(%arg0, %arg1, %arg4, %arg2, %arg3) {{{.*}}approximate = "gelu_erf"{{.*}}transpose_x2 = true}
// CHECK-NOT: "dit.gelu"
func.func @transposed_x2_erf_bias(%x: tensor<16x64xi8>, %w: tensor<128x64xi8>, %s: tensor<128xbf16>, %b: tensor<128xbf16>, %p: tensor<16xf32>) -> tensor<16x128xbf16> {
  %q = "dit.quant_matmul"(%x, %w, %s, %b, %p) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1>} : (tensor<16x64xi8>, tensor<128x64xi8>, tensor<128xbf16>, tensor<128xbf16>, tensor<16xf32>) -> tensor<16x128xbf16>
  %g = "dit.gelu"(%q) {approximate = "none"} : (tensor<16x128xbf16>) -> tensor<16x128xbf16>
  return %g : tensor<16x128xbf16>
}

// -----

// x1 transposed (int8): x1 too may be a last-two-dims transposed view ("仅最后m和k轴转置情况下
// 支持非连续的Tensor", same page, x1).
// CHECK-LABEL: func.func @transposed_x1_int8
// CHECK: "dit.quant_matmul_gelu"(%arg0, %arg1, %arg3, %arg2) {{{.*}}transpose_x1 = true{{.*}}}
func.func @transposed_x1_int8(%x: tensor<64x16xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>, %p: tensor<16xf32>) -> tensor<16x128xf16> {
  %q = "dit.quant_matmul"(%x, %w, %s, %p) {transpose_x1 = true, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<64x16xi8>, tensor<64x128xi8>, tensor<128xf32>, tensor<16xf32>) -> tensor<16x128xf16>
  %g = "dit.gelu"(%q) {approximate = "tanh"} : (tensor<16x128xf16>) -> tensor<16x128xf16>
  return %g : tensor<16x128xf16>
}

// -----

// Negative: A4W4 with x1 transposed. The page's INT4 case "当前只支持不转置输入" (x1): left
// alone, with the reason.
// CHECK-LABEL: func.func @a4w4_transposed_x1
// CHECK-NOT: "dit.quant_matmul_gelu"
// REPORT: skipped at {{.*}}seed-fidelity-quant-gelu-transposed.mlir:[[@LINE+3]]:8: {{.*}}int4 x1 must not be transposed
func.func @a4w4_transposed_x1(%x: tensor<64x16xi4>, %w: tensor<64x128xi4>, %s: tensor<128xf32>, %p: tensor<16xf32>) -> tensor<16x128xf16> {
  %q = "dit.quant_matmul"(%x, %w, %s, %p) {transpose_x1 = true, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<64x16xi4>, tensor<64x128xi4>, tensor<128xf32>, tensor<16xf32>) -> tensor<16x128xf16>
  %g = "dit.gelu"(%q) {approximate = "tanh"} : (tensor<16x128xf16>) -> tensor<16x128xf16>
  return %g : tensor<16x128xf16>
}
