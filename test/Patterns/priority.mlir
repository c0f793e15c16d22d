// Priorities between fusions that compete for the same ops (issue: quant_mm_gelu >
// fused_matmul > fast_gelu). Each op is rewritten by one fusion only.
// RUN: dit-opt %s --split-input-file --fuse-all | FileCheck %s --check-prefix=A2
// RUN: dit-opt %s --split-input-file --fuse-all --target=ascend950 | FileCheck %s --check-prefix=A5
// RUN: dit-opt %s --split-input-file --fuse-all --no-fuse=quant_mm_gelu | FileCheck %s --check-prefix=NOQ
// Numerical check (issue 6): the unfused and transformed graphs on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused --target=ascend950 > /dev/null
// RUN: dit-run %s --split-input-file --compare-unfused --target=ascend950 --no-fuse=quant_mm_gelu > /dev/null

// A GELU(tanh) after a quantized matmul: FusedQuantMatmul on A2; on 950, which lacks it, the
// GELU is only raised to FastGelu (FusedMatmul takes float linears, not quant_matmul).
// A2-LABEL: func.func @quant_then_gelu
// A2: "dit.quant_matmul_gelu"{{.*}}approximate = "gelu_tanh"
// A2-NOT: "dit.fast_gelu"
// A5-LABEL: func.func @quant_then_gelu
// A5: "dit.quant_matmul"
// A5-NEXT: "dit.fast_gelu"
// NOQ-LABEL: func.func @quant_then_gelu
// NOQ: "dit.quant_matmul"
// NOQ-NEXT: "dit.fast_gelu"
func.func @quant_then_gelu(%x: tensor<16x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>, %p: tensor<16xf32>) -> tensor<16x128xbf16> {
  %q = "dit.quant_matmul"(%x, %w, %s, %p) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<16x64xi8>, tensor<64x128xi8>, tensor<128xf32>, tensor<16xf32>) -> tensor<16x128xbf16>
  %g = "dit.gelu"(%q) {approximate = "tanh"} : (tensor<16x128xbf16>) -> tensor<16x128xbf16>
  return %g : tensor<16x128xbf16>
}

// -----

// A GELU(tanh) after a float linear without a bias: FusedMatmul on 950; FastGelu on A2.
// A2-LABEL: func.func @linear_then_gelu
// A2: "dit.linear"
// A2-NEXT: "dit.fast_gelu"
// A5-LABEL: func.func @linear_then_gelu
// A5: "dit.fused_matmul"{{.*}}fused_op_type = "gelu_tanh"
// A5-NOT: "dit.fast_gelu"
func.func @linear_then_gelu(%x: tensor<16x64xbf16>, %w: tensor<128x64xbf16>) -> tensor<16x128xbf16> {
  %l = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x64xbf16>, tensor<128x64xbf16>) -> tensor<16x128xbf16>
  %g = "dit.gelu"(%l) {approximate = "tanh"} : (tensor<16x128xbf16>) -> tensor<16x128xbf16>
  return %g : tensor<16x128xbf16>
}

// -----

// SwiGLU and GeluMul never compete: the activation on the gate decides.
// A2-LABEL: func.func @swiglu_and_gelu_mul
// A2: "dit.swiglu"
// A2: "dit.gelu_mul"
func.func @swiglu_and_gelu_mul(%x: tensor<4x64xbf16>) -> (tensor<4x32xbf16>, tensor<4x32xbf16>) {
  %a, %b = "dit.split"(%x) {dim = -1 : i64, sizes = array<i64: 32, 32>} : (tensor<4x64xbf16>) -> (tensor<4x32xbf16>, tensor<4x32xbf16>)
  %s = "dit.silu"(%a) : (tensor<4x32xbf16>) -> tensor<4x32xbf16>
  %m = "dit.mul"(%s, %b) : (tensor<4x32xbf16>, tensor<4x32xbf16>) -> tensor<4x32xbf16>
  %c, %d = "dit.split"(%x) {dim = -1 : i64, sizes = array<i64: 32, 32>} : (tensor<4x64xbf16>) -> (tensor<4x32xbf16>, tensor<4x32xbf16>)
  %g = "dit.gelu"(%c) {approximate = "none"} : (tensor<4x32xbf16>) -> tensor<4x32xbf16>
  %n = "dit.mul"(%g, %d) : (tensor<4x32xbf16>, tensor<4x32xbf16>) -> tensor<4x32xbf16>
  return %m, %n : tensor<4x32xbf16>, tensor<4x32xbf16>
}
