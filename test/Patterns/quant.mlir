// RUN: dit-opt %s --split-input-file --dit-fuse-patterns | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --target=ascend950 | FileCheck %s --check-prefix=A5
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// Numerical check (issue 6): the unfused and transformed graphs on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused > /dev/null
// RUN: dit-run %s --split-input-file --compare-unfused --target=ascend950 > /dev/null

// ----- enable_quant_mm_gelu (P0): quant_matmul (per-token scale) + GELU == quant_matmul_gelu -----

// Path B: dynamic_quant -> quant_matmul -> gelu(tanh). The fused op wins over the fast_gelu
// raising of the same GELU (priority quant_mm_gelu > fast_gelu).
// CHECK-LABEL: func.func @quant_mm_gelu_tanh
// CHECK: %[[Q:.*]]:2 = "dit.dynamic_quant"(%arg0)
// CHECK-NEXT: %[[F:.*]] = "dit.quant_matmul_gelu"(%[[Q]]#0, %arg1, %[[Q]]#1, %arg2) {approximate = "gelu_tanh", operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<16x64xi8>, tensor<64x128xi8>, tensor<16xf32>, tensor<128xf32>) -> tensor<16x128xf16>
// CHECK-NOT: "dit.fast_gelu"
// A5-LABEL: func.func @quant_mm_gelu_tanh
// A5: "dit.quant_matmul"
// A5: "dit.fast_gelu"
// REPORT: applied at {{.*}}quant.mlir:[[@LINE+4]]:8: quant_matmul + gelu(tanh) -> dit.quant_matmul_gelu(gelu_tanh)
func.func @quant_mm_gelu_tanh(%x: tensor<16x64xf16>, %w: tensor<64x128xi8>, %s: tensor<128xf32>) -> tensor<16x128xf16> {
  %xq, %xs = "dit.dynamic_quant"(%x) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<16x64xf16>) -> (tensor<16x64xi8>, tensor<16xf32>)
  %q = "dit.quant_matmul"(%xq, %w, %s, %xs) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<16x64xi8>, tensor<64x128xi8>, tensor<128xf32>, tensor<16xf32>) -> tensor<16x128xf16>
  %g = "dit.gelu"(%q) {approximate = "tanh"} : (tensor<16x128xf16>) -> tensor<16x128xf16>
  return %g : tensor<16x128xf16>
}

// -----

// erf GELU, a bf16 scale and bias: gelu_erf, bf16 output.
// CHECK-LABEL: func.func @quant_mm_gelu_erf_bias
// CHECK: "dit.quant_matmul_gelu"(%arg0, %arg1, %arg4, %arg2, %arg3) {approximate = "gelu_erf", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}
func.func @quant_mm_gelu_erf_bias(%x: tensor<16x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128xbf16>, %b: tensor<128xbf16>, %p: tensor<16xf32>) -> tensor<16x128xbf16> {
  %q = "dit.quant_matmul"(%x, %w, %s, %b, %p) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1>} : (tensor<16x64xi8>, tensor<64x128xi8>, tensor<128xbf16>, tensor<128xbf16>, tensor<16xf32>) -> tensor<16x128xbf16>
  %g = "dit.gelu"(%q) {approximate = "none"} : (tensor<16x128xbf16>) -> tensor<16x128xbf16>
  return %g : tensor<16x128xbf16>
}

// -----

// A bf16 scale with an f16 output breaks the kernel's output rule: left alone, with the reason.
// CHECK-LABEL: func.func @quant_mm_gelu_bf16_scale_f16_out
// CHECK-NOT: "dit.quant_matmul_gelu"
// REPORT: skipped at {{.*}}quant.mlir:[[@LINE+3]]:8: output f16 is not allowed (f16 or bf16; bf16 when scale or bias is bf16)
func.func @quant_mm_gelu_bf16_scale_f16_out(%x: tensor<16x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128xbf16>, %p: tensor<16xf32>) -> tensor<16x128xf16> {
  %q = "dit.quant_matmul"(%x, %w, %s, %p) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<16x64xi8>, tensor<64x128xi8>, tensor<128xbf16>, tensor<16xf32>) -> tensor<16x128xf16>
  %g = "dit.gelu"(%q) {approximate = "none"} : (tensor<16x128xf16>) -> tensor<16x128xf16>
  return %g : tensor<16x128xf16>
}

// -----

// x2 stored as [N, K] (transpose_x2, an nn.Linear weight): FusedQuantMatmul takes x2 as a
// last-two-dims transposed view ("ND格式下支持最后两根轴转置情况下的非连续tensor", [ops-nn]
// matmul/fused_quant_mat_mul/docs/aclnnFusedQuantMatmul.md): fused, the flag carried over.
// CHECK-LABEL: func.func @quant_mm_gelu_transposed_x2
// CHECK: "dit.quant_matmul_gelu"(%arg0, %arg1, %arg3, %arg2) {approximate = "gelu_erf", operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>, transpose_x2 = true}
// REPORT: applied at {{.*}}quant.mlir:[[@LINE+3]]:8: quant_matmul + gelu(none) -> dit.quant_matmul_gelu(gelu_erf)
func.func @quant_mm_gelu_transposed_x2(%x: tensor<16x64xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>, %p: tensor<16xf32>) -> tensor<16x128xf16> {
  %q = "dit.quant_matmul"(%x, %w, %s, %p) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<16x64xi8>, tensor<128x64xi8>, tensor<128xf32>, tensor<16xf32>) -> tensor<16x128xf16>
  %g = "dit.gelu"(%q) {approximate = "none"} : (tensor<16x128xf16>) -> tensor<16x128xf16>
  return %g : tensor<16x128xf16>
}

// -----

// fp8 inputs are neither A8W8 nor A4W4.
// CHECK-LABEL: func.func @quant_mm_gelu_fp8
// CHECK-NOT: "dit.quant_matmul_gelu"
func.func @quant_mm_gelu_fp8(%x: tensor<16x64xf8E4M3FN>, %w: tensor<64x128xf8E4M3FN>, %s: tensor<128xf32>, %p: tensor<16xf32>) -> tensor<16x128xbf16> {
  %q = "dit.quant_matmul"(%x, %w, %s, %p) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<16x64xf8E4M3FN>, tensor<64x128xf8E4M3FN>, tensor<128xf32>, tensor<16xf32>) -> tensor<16x128xbf16>
  %g = "dit.gelu"(%q) {approximate = "none"} : (tensor<16x128xbf16>) -> tensor<16x128xbf16>
  return %g : tensor<16x128xbf16>
}

// -----

// The matmul result is used elsewhere too: it must stay, nothing fuses.
// CHECK-LABEL: func.func @quant_mm_gelu_shared_matmul
// CHECK-NOT: "dit.quant_matmul_gelu"
func.func @quant_mm_gelu_shared_matmul(%x: tensor<16x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>, %p: tensor<16xf32>) -> (tensor<16x128xf16>, tensor<16x128xf16>) {
  %q = "dit.quant_matmul"(%x, %w, %s, %p) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<16x64xi8>, tensor<64x128xi8>, tensor<128xf32>, tensor<16xf32>) -> tensor<16x128xf16>
  %g = "dit.gelu"(%q) {approximate = "none"} : (tensor<16x128xf16>) -> tensor<16x128xf16>
  return %g, %q : tensor<16x128xf16>, tensor<16x128xf16>
}

// -----

// An offset instead of the per-token scale in the fourth slot: the segments say so.
// CHECK-LABEL: func.func @quant_mm_gelu_offset_not_pertoken
// CHECK-NOT: "dit.quant_matmul_gelu"
func.func @quant_mm_gelu_offset_not_pertoken(%x: tensor<16x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>, %o: tensor<128xf32>) -> tensor<16x128xf16> {
  %q = "dit.quant_matmul"(%x, %w, %s, %o) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<16x64xi8>, tensor<64x128xi8>, tensor<128xf32>, tensor<128xf32>) -> tensor<16x128xf16>
  %g = "dit.gelu"(%q) {approximate = "none"} : (tensor<16x128xf16>) -> tensor<16x128xf16>
  return %g : tensor<16x128xf16>
}
