// Seed 000 path A (§3.4 P0, "路径 A（未量化模型图）：matmul + add(bias) + gelu"): a frontend that
// spells nn.Linear as dit.matmul + dit.add(bias) gets it raised to dit.linear (switch
// enable_linear_bias), so that every Linear fusion (dit-quantize's W8A8 linears and P0 after
// them, FusedMatmul's Linear + activation) sees it. The bias must broadcast over the rows only
// (shape [N], or [1, .., 1, N]); the weight is [N, K] as the matmul reads it (transpose_b), or
// a [K, N] function argument that the load-time pre-pack transposes once.
//
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns | dit-opt --split-input-file | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --target=ascend950 | FileCheck %s --check-prefix=A5
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-fuse-patterns{enable_fast_gelu=false},dit-quantize,dit-fuse-patterns)' | FileCheck %s --check-prefix=QUANT
// Numerical check: the unfused and raised graphs on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused --pipeline='builtin.module(dit-fuse-patterns)' > /dev/null
// RUN: dit-run %s --split-input-file --compare-unfused --pipeline='builtin.module(dit-fuse-patterns)' --target=ascend950 > /dev/null


// matmul(x, w^T) + bias + gelu: the matmul and add become one dit.linear; on 950 the ReLU
// variant below fuses on into FusedMatmul; with dit-quantize, P0 fires (path A).
// CHECK-LABEL: func.func @linear_bias_gelu
// CHECK: %[[L:.*]] = "dit.linear"(%arg0, %arg1, %arg2) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<16x64xf16>, tensor<128x64xf16>, tensor<128xf16>) -> tensor<16x128xf16>
// CHECK-NOT: "dit.matmul"
// CHECK-NOT: "dit.add"
// QUANT-LABEL: func.func @linear_bias_gelu
// QUANT: "dit.quant_matmul_gelu"
// REPORT: applied at {{.*}}seed-fidelity-matmul-bias-linear.mlir:[[@LINE+3]]:8: matmul + add(bias) -> dit.linear (seed 000 path A)
func.func @linear_bias_gelu(%x: tensor<16x64xf16>, %w: tensor<128x64xf16>, %b: tensor<128xf16>) -> tensor<16x128xf16> {
  %m = "dit.matmul"(%x, %w) {transpose_a = false, transpose_b = true} : (tensor<16x64xf16>, tensor<128x64xf16>) -> tensor<16x128xf16>
  %y = "dit.add"(%m, %b) : (tensor<16x128xf16>, tensor<128xf16>) -> tensor<16x128xf16>
  %g = "dit.gelu"(%y) {approximate = "tanh"} : (tensor<16x128xf16>) -> tensor<16x128xf16>
  return %g : tensor<16x128xf16>
}

// -----

// Bias first, [1, N] bias, batched x, [K, N] weight argument (pre-packed to [N, K] at load),
// ReLU after: on 950 the raised linear fuses into dit.fused_matmul(relu).
// CHECK-LABEL: func.func @bias_lhs_row_bias_kn_weight
// CHECK-DAG: %[[WT:.*]] = "dit.transpose"(%arg1) {perm = array<i64: 1, 0>} : (tensor<64x128xf16>) -> tensor<128x64xf16>
// CHECK-DAG: %[[B:.*]] = "dit.reshape"(%arg2) : (tensor<1x128xf16>) -> tensor<128xf16>
// CHECK: "dit.linear"(%arg0, %[[WT]], %[[B]])
// CHECK-SAME: -> tensor<2x8x128xf16>
// CHECK-NOT: "dit.matmul"
// A5-LABEL: func.func @bias_lhs_row_bias_kn_weight
// A5: "dit.fused_matmul"({{.*}}) {fused_op_type = "relu"
func.func @bias_lhs_row_bias_kn_weight(%x: tensor<2x8x64xf16>, %w: tensor<64x128xf16>, %b: tensor<1x128xf16>) -> tensor<2x8x128xf16> {
  %m = "dit.matmul"(%x, %w) {transpose_a = false, transpose_b = false} : (tensor<2x8x64xf16>, tensor<64x128xf16>) -> tensor<2x8x128xf16>
  %y = "dit.add"(%b, %m) : (tensor<1x128xf16>, tensor<2x8x128xf16>) -> tensor<2x8x128xf16>
  %r = "dit.relu"(%y) : (tensor<2x8x128xf16>) -> tensor<2x8x128xf16>
  return %r : tensor<2x8x128xf16>
}

// -----

// f32 is a linear too (no activation after it).
// CHECK-LABEL: func.func @linear_bias_f32
// CHECK: "dit.linear"(%arg0, %arg1, %arg2)
func.func @linear_bias_f32(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %m = "dit.matmul"(%x, %w) {transpose_a = false, transpose_b = true} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  %y = "dit.add"(%m, %b) : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// Negative: the "bias" varies over rows ([16, 1]): no linear bias.
// CHECK-LABEL: func.func @not_a_row_bias
// CHECK: "dit.matmul"
// CHECK: "dit.add"
// CHECK-NOT: "dit.linear"
// REPORT: skipped at {{.*}}seed-fidelity-matmul-bias-linear.mlir:[[@LINE+3]]:8: the addend [16x1] is not a bias over rows ([N] or [1, .., 1, N] with N = 128)
func.func @not_a_row_bias(%x: tensor<16x64xf16>, %w: tensor<128x64xf16>, %b: tensor<16x1xf16>) -> tensor<16x128xf16> {
  %m = "dit.matmul"(%x, %w) {transpose_a = false, transpose_b = true} : (tensor<16x64xf16>, tensor<128x64xf16>) -> tensor<16x128xf16>
  %y = "dit.add"(%m, %b) : (tensor<16x128xf16>, tensor<16x1xf16>) -> tensor<16x128xf16>
  return %y : tensor<16x128xf16>
}

// -----

// Negative: x transposed (transpose_a): dit.linear reads x as [.., K].
// CHECK-LABEL: func.func @transposed_x
// CHECK: "dit.matmul"
// CHECK-NOT: "dit.linear"
// REPORT: skipped at {{.*}}seed-fidelity-matmul-bias-linear.mlir:[[@LINE+3]]:8: the matmul transposes x (transpose_a): dit.linear reads x as [.., K]
func.func @transposed_x(%x: tensor<64x16xf16>, %w: tensor<128x64xf16>, %b: tensor<128xf16>) -> tensor<16x128xf16> {
  %m = "dit.matmul"(%x, %w) {transpose_a = true, transpose_b = true} : (tensor<64x16xf16>, tensor<128x64xf16>) -> tensor<16x128xf16>
  %y = "dit.add"(%m, %b) : (tensor<16x128xf16>, tensor<128xf16>) -> tensor<16x128xf16>
  return %y : tensor<16x128xf16>
}

// -----

// Negative: a [K, N] weight computed per call (here by an add): its transpose would be a
// kernel on every call, so the matmul stays.
// CHECK-LABEL: func.func @computed_kn_weight
// CHECK: "dit.matmul"
// CHECK-NOT: "dit.linear"
// REPORT: skipped at {{.*}}seed-fidelity-matmul-bias-linear.mlir:[[@LINE+4]]:8: the weight is [K, N] and not known at load time: its transpose to [N, K] would be a kernel on every call
func.func @computed_kn_weight(%x: tensor<16x64xf16>, %w: tensor<64x128xf16>, %d: tensor<64x128xf16>, %b: tensor<128xf16>) -> tensor<16x128xf16> {
  %wd = "dit.add"(%w, %d) : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xf16>
  %m = "dit.matmul"(%x, %wd) {transpose_a = false, transpose_b = false} : (tensor<16x64xf16>, tensor<64x128xf16>) -> tensor<16x128xf16>
  %y = "dit.add"(%m, %b) : (tensor<16x128xf16>, tensor<128xf16>) -> tensor<16x128xf16>
  return %y : tensor<16x128xf16>
}

// -----

// Negative: a batched weight ([2, 128, 64]) is no Linear weight.
// CHECK-LABEL: func.func @batched_weight
// CHECK-NOT: "dit.linear"
// REPORT: skipped at {{.*}}seed-fidelity-matmul-bias-linear.mlir:[[@LINE+3]]:8: the weight is batched ([2x128x64]): dit.linear's weight is [N, K]
func.func @batched_weight(%x: tensor<2x16x64xf16>, %w: tensor<2x128x64xf16>, %b: tensor<128xf16>) -> tensor<2x16x128xf16> {
  %m = "dit.matmul"(%x, %w) {transpose_a = false, transpose_b = true} : (tensor<2x16x64xf16>, tensor<2x128x64xf16>) -> tensor<2x16x128xf16>
  %y = "dit.add"(%m, %b) : (tensor<2x16x128xf16>, tensor<128xf16>) -> tensor<2x16x128xf16>
  return %y : tensor<2x16x128xf16>
}
