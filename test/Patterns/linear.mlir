// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --target=ascend950 | dit-opt --split-input-file | FileCheck %s --check-prefix=A5
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --target=ascend950 --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=A5REPORT
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns | dit-opt --split-input-file | FileCheck %s --check-prefix=A2
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-opt %s --split-input-file --fuse-all --target=ascend950 | dit-opt --split-input-file | FileCheck %s --check-prefix=ALL
// Numerical check (issue 6): the unfused and transformed graphs on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused > /dev/null
// RUN: dit-run %s --split-input-file --compare-unfused --target=ascend950 > /dev/null

// ----- enable_linear_activation (P1): dit.linear + activation == dit.fused_matmul (Ascend 950) -----
// FusedMatmul is 2-D with x2 as [K, N]: the weight [N, K] is transposed (a weight layout
// change), and x (x3) are reshaped to [M, K] ([M, N]) and the result back when x is not 2-D.

// gelu(tanh) with a bias: aclnnFusedMatmul's gelu_tanh computes gelu(x1·x2) and refuses a
// bias (161001, rule fused_matmul.gelu_bias; issue 12), so even on Ascend 950 the linear stays
// and the baseline raises the GELU to FastGelu; on other targets the kernel does not exist.
// A5-LABEL: func.func @gelu_tanh_bias
// A5: "dit.linear"
// A5-NOT: "dit.fused_matmul"
// A5: "dit.fast_gelu"
// A5REPORT: skipped at {{.*}}linear.mlir:[[@LINE+8]]:8: rule fused_matmul.gelu_bias: bias is given with fused_op_type = "gelu_tanh", which takes none (aclnn error 161001; [ops-nn] matmul/fused_mat_mul/docs/aclnnFusedMatmul.md
// A5REPORT: kernels: 2 before, 2 after
// A2-LABEL: func.func @gelu_tanh_bias
// A2: "dit.linear"
// A2: "dit.fast_gelu"
// REPORT: skipped at {{.*}}linear.mlir:[[@LINE+3]]:8: target ascend910b has no FusedMatmul (Ascend 950 only)
func.func @gelu_tanh_bias(%x: tensor<16x64xf16>, %w: tensor<128x64xf16>, %b: tensor<128xf16>) -> tensor<16x128xf16> {
  %l = "dit.linear"(%x, %w, %b) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<16x64xf16>, tensor<128x64xf16>, tensor<128xf16>) -> tensor<16x128xf16>
  %g = "dit.gelu"(%l) {approximate = "tanh"} : (tensor<16x128xf16>) -> tensor<16x128xf16>
  return %g : tensor<16x128xf16>
}

// -----

// erf GELU, no bias, bf16.
// A5-LABEL: func.func @gelu_erf
// A5-NEXT: %[[W:.*]] = "dit.transpose"(%arg1) {perm = array<i64: 1, 0>} : (tensor<128x64xbf16>) -> tensor<64x128xbf16>
// A5-NEXT: %[[F:.*]] = "dit.fused_matmul"(%arg0, %[[W]]) {fused_op_type = "gelu_erf", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<16x64xbf16>, tensor<64x128xbf16>) -> tensor<16x128xbf16>
// A5-NEXT: return %[[F]]
// A2-LABEL: func.func @gelu_erf
// A2: "dit.linear"
// A2: "dit.gelu"
// REPORT: skipped at {{.*}}linear.mlir:[[@LINE+3]]:8: target ascend910b has no FusedMatmul (Ascend 950 only)
func.func @gelu_erf(%x: tensor<16x64xbf16>, %w: tensor<128x64xbf16>) -> tensor<16x128xbf16> {
  %l = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x64xbf16>, tensor<128x64xbf16>) -> tensor<16x128xbf16>
  %g = "dit.gelu"(%l) {approximate = "none"} : (tensor<16x128xbf16>) -> tensor<16x128xbf16>
  return %g : tensor<16x128xbf16>
}

// -----

// relu after a 3-D x with a bias: x is flattened to [M, K] and the result reshaped back.
// A5-LABEL: func.func @relu_3d_bias
// A5-NEXT: %[[X:.*]] = "dit.reshape"(%arg0) : (tensor<2x8x64xf16>) -> tensor<16x64xf16>
// A5-NEXT: %[[W:.*]] = "dit.transpose"(%arg1) {perm = array<i64: 1, 0>} : (tensor<128x64xf16>) -> tensor<64x128xf16>
// A5-NEXT: %[[F:.*]] = "dit.fused_matmul"(%[[X]], %[[W]], %arg2) {fused_op_type = "relu", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<16x64xf16>, tensor<64x128xf16>, tensor<128xf16>) -> tensor<16x128xf16>
// A5-NEXT: %[[Y:.*]] = "dit.reshape"(%[[F]]) : (tensor<16x128xf16>) -> tensor<2x8x128xf16>
// A5-NEXT: return %[[Y]]
// A5REPORT: applied at {{.*}}linear.mlir:[[@LINE+5]]:8: linear + relu -> dit.fused_matmul(relu); weight [N, K] -> dit.transpose {perm = [1, 0]} to [K, N] (weight layout change, free for a constant weight); x reshaped to [M, K] and back when not 2-D
// A2-LABEL: func.func @relu_3d_bias
// A2: "dit.relu"
func.func @relu_3d_bias(%x: tensor<2x8x64xf16>, %w: tensor<128x64xf16>, %b: tensor<128xf16>) -> tensor<2x8x128xf16> {
  %l = "dit.linear"(%x, %w, %b) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x8x64xf16>, tensor<128x64xf16>, tensor<128xf16>) -> tensor<2x8x128xf16>
  %r = "dit.relu"(%l) : (tensor<2x8x128xf16>) -> tensor<2x8x128xf16>
  return %r : tensor<2x8x128xf16>
}

// -----

// Residual add, 3-D, x3 on the left, no bias: x3 is reshaped to [M, N] too.
// A5-LABEL: func.func @add_3d_residual
// A5-NEXT: %[[X:.*]] = "dit.reshape"(%arg0) : (tensor<2x8x64xbf16>) -> tensor<16x64xbf16>
// A5-NEXT: %[[R:.*]] = "dit.reshape"(%arg2) : (tensor<2x8x128xbf16>) -> tensor<16x128xbf16>
// A5-NEXT: %[[W:.*]] = "dit.transpose"(%arg1) {perm = array<i64: 1, 0>} : (tensor<128x64xbf16>) -> tensor<64x128xbf16>
// A5-NEXT: %[[F:.*]] = "dit.fused_matmul"(%[[X]], %[[W]], %[[R]]) {fused_op_type = "add", operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<16x64xbf16>, tensor<64x128xbf16>, tensor<16x128xbf16>) -> tensor<16x128xbf16>
// A5-NEXT: %[[Y:.*]] = "dit.reshape"(%[[F]]) : (tensor<16x128xbf16>) -> tensor<2x8x128xbf16>
// A5-NEXT: return %[[Y]]
// A5REPORT: applied at {{.*}}linear.mlir:[[@LINE+3]]:8: x3 + linear -> dit.fused_matmul(add)
func.func @add_3d_residual(%x: tensor<2x8x64xbf16>, %w: tensor<128x64xbf16>, %res: tensor<2x8x128xbf16>) -> tensor<2x8x128xbf16> {
  %l = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x8x64xbf16>, tensor<128x64xbf16>) -> tensor<2x8x128xbf16>
  %a = "dit.add"(%res, %l) : (tensor<2x8x128xbf16>, tensor<2x8x128xbf16>) -> tensor<2x8x128xbf16>
  return %a : tensor<2x8x128xbf16>
}

// -----

// add with the linear on the left and a bias, 2-D.
// A5-LABEL: func.func @add_bias
// A5-NEXT: %[[W:.*]] = "dit.transpose"(%arg1)
// A5-NEXT: %[[F:.*]] = "dit.fused_matmul"(%arg0, %[[W]], %arg2, %arg3) {fused_op_type = "add", operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<16x64xf16>, tensor<64x128xf16>, tensor<128xf16>, tensor<16x128xf16>) -> tensor<16x128xf16>
// A5-NEXT: return %[[F]]
func.func @add_bias(%x: tensor<16x64xf16>, %w: tensor<128x64xf16>, %b: tensor<128xf16>, %y: tensor<16x128xf16>) -> tensor<16x128xf16> {
  %l = "dit.linear"(%x, %w, %b) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<16x64xf16>, tensor<128x64xf16>, tensor<128xf16>) -> tensor<16x128xf16>
  %a = "dit.add"(%l, %y) : (tensor<16x128xf16>, tensor<16x128xf16>) -> tensor<16x128xf16>
  return %a : tensor<16x128xf16>
}

// -----

// mul, both operand orders, with and without a bias.
// A5-LABEL: func.func @mul_lhs
// A5-NEXT: %[[W:.*]] = "dit.transpose"(%arg1)
// A5-NEXT: %[[F:.*]] = "dit.fused_matmul"(%arg0, %[[W]], %arg2) {fused_op_type = "mul", operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<16x64xf16>, tensor<64x128xf16>, tensor<16x128xf16>) -> tensor<16x128xf16>
// A5-NEXT: return %[[F]]
// A5REPORT: applied at {{.*}}linear.mlir:[[@LINE+3]]:8: linear * x3 -> dit.fused_matmul(mul)
func.func @mul_lhs(%x: tensor<16x64xf16>, %w: tensor<128x64xf16>, %y: tensor<16x128xf16>) -> tensor<16x128xf16> {
  %l = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x64xf16>, tensor<128x64xf16>) -> tensor<16x128xf16>
  %m = "dit.mul"(%l, %y) : (tensor<16x128xf16>, tensor<16x128xf16>) -> tensor<16x128xf16>
  return %m : tensor<16x128xf16>
}

// -----

// A5-LABEL: func.func @mul_rhs_bias
// A5-NEXT: %[[W:.*]] = "dit.transpose"(%arg1)
// A5-NEXT: %[[F:.*]] = "dit.fused_matmul"(%arg0, %[[W]], %arg2, %arg3) {fused_op_type = "mul", operandSegmentSizes = array<i32: 1, 1, 1, 1>}
// A5-NEXT: return %[[F]]
func.func @mul_rhs_bias(%x: tensor<16x64xf16>, %w: tensor<128x64xf16>, %b: tensor<128xf16>, %y: tensor<16x128xf16>) -> tensor<16x128xf16> {
  %l = "dit.linear"(%x, %w, %b) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<16x64xf16>, tensor<128x64xf16>, tensor<128xf16>) -> tensor<16x128xf16>
  %m = "dit.mul"(%y, %l) : (tensor<16x128xf16>, tensor<16x128xf16>) -> tensor<16x128xf16>
  return %m : tensor<16x128xf16>
}

// -----

// One dynamic leading dim: the reshapes still infer ([?, K] and back).
// A5-LABEL: func.func @gelu_dynamic_batch
// A5-NEXT: %[[X:.*]] = "dit.reshape"(%arg0) : (tensor<?x8x64xf16>) -> tensor<?x64xf16>
// A5-NEXT: %[[W:.*]] = "dit.transpose"(%arg1)
// A5-NEXT: %[[F:.*]] = "dit.fused_matmul"(%[[X]], %[[W]]) {fused_op_type = "gelu_erf", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<?x64xf16>, tensor<64x128xf16>) -> tensor<?x128xf16>
// A5-NEXT: %[[Y:.*]] = "dit.reshape"(%[[F]]) : (tensor<?x128xf16>) -> tensor<?x8x128xf16>
func.func @gelu_dynamic_batch(%x: tensor<?x8x64xf16>, %w: tensor<128x64xf16>) -> tensor<?x8x128xf16> {
  %l = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<?x8x64xf16>, tensor<128x64xf16>) -> tensor<?x8x128xf16>
  %g = "dit.gelu"(%l) {approximate = "none"} : (tensor<?x8x128xf16>) -> tensor<?x8x128xf16>
  return %g : tensor<?x8x128xf16>
}

// -----

// Two dynamic dims: the reshape back from [M, N] could not be inferred; left alone.
// A5-LABEL: func.func @gelu_two_dynamic_dims
// A5-NOT: "dit.fused_matmul"
// A5REPORT: skipped at {{.*}}linear.mlir:[[@LINE+3]]:8: the result [?x?x128] has more than one dynamic dim
func.func @gelu_two_dynamic_dims(%x: tensor<?x?x64xf16>, %w: tensor<128x64xf16>) -> tensor<?x?x128xf16> {
  %l = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<?x?x64xf16>, tensor<128x64xf16>) -> tensor<?x?x128xf16>
  %g = "dit.gelu"(%l) {approximate = "none"} : (tensor<?x?x128xf16>) -> tensor<?x?x128xf16>
  return %g : tensor<?x?x128xf16>
}

// -----

// The linear's result is used twice: it must stay, nothing fuses (and nothing is reported).
// A5-LABEL: func.func @multi_use_linear
// A5-NOT: "dit.fused_matmul"
// A5: "dit.linear"
// A5-NOT: "dit.fused_matmul"
// A5REPORT-NOT: linear.mlir:[[@LINE+4]]:8:
// REPORT-NOT: linear.mlir:[[@LINE+3]]:8:
func.func @multi_use_linear(%x: tensor<16x64xf16>, %w: tensor<128x64xf16>) -> (tensor<16x128xf16>, tensor<16x128xf16>) {
  %l = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x64xf16>, tensor<128x64xf16>) -> tensor<16x128xf16>
  %r = "dit.relu"(%l) : (tensor<16x128xf16>) -> tensor<16x128xf16>
  return %r, %l : tensor<16x128xf16>, tensor<16x128xf16>
}

// -----

// An f32 linear: FusedMatmul takes f16 / bf16 only.
// A5-LABEL: func.func @relu_f32
// A5-NOT: "dit.fused_matmul"
// A5REPORT: skipped at {{.*}}linear.mlir:[[@LINE+3]]:8: x is f32; FusedMatmul takes f16 or bf16
func.func @relu_f32(%x: tensor<16x64xf32>, %w: tensor<128x64xf32>) -> tensor<16x128xf32> {
  %l = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x64xf32>, tensor<128x64xf32>) -> tensor<16x128xf32>
  %r = "dit.relu"(%l) : (tensor<16x128xf32>) -> tensor<16x128xf32>
  return %r : tensor<16x128xf32>
}

// -----

// A broadcast x3 (a [N] vector): FusedMatmul's x3 is [M, N]; left alone.
// A5-LABEL: func.func @add_broadcast_x3
// A5-NOT: "dit.fused_matmul"
// A5REPORT: skipped at {{.*}}linear.mlir:[[@LINE+3]]:8: x3 [128] is not of the linear's result shape [16x128]
func.func @add_broadcast_x3(%x: tensor<16x64xf16>, %w: tensor<128x64xf16>, %v: tensor<128xf16>) -> tensor<16x128xf16> {
  %l = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x64xf16>, tensor<128x64xf16>) -> tensor<16x128xf16>
  %a = "dit.add"(%l, %v) : (tensor<16x128xf16>, tensor<128xf16>) -> tensor<16x128xf16>
  return %a : tensor<16x128xf16>
}

// -----

// silu(gate) * linear: enable_swiglu's silu_mul takes it (as many kernels, no transpose).
// A5-LABEL: func.func @silu_gate_mul
// A5-NOT: "dit.fused_matmul"
// A5: "dit.silu_mul"
// A5REPORT: skipped at {{.*}}linear.mlir:[[@LINE+4]]:8: x3 is a SiLU gate: left to enable_swiglu
func.func @silu_gate_mul(%x: tensor<16x64xf16>, %w: tensor<128x64xf16>, %g: tensor<16x128xf16>) -> tensor<16x128xf16> {
  %l = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x64xf16>, tensor<128x64xf16>) -> tensor<16x128xf16>
  %s = "dit.silu"(%g) : (tensor<16x128xf16>) -> tensor<16x128xf16>
  %m = "dit.mul"(%s, %l) : (tensor<16x128xf16>, tensor<16x128xf16>) -> tensor<16x128xf16>
  return %m : tensor<16x128xf16>
}

// -----

// Priority in the whole pipeline on Ascend 950: a tanh GELU after a float linear without a
// bias becomes fused_matmul(gelu_tanh), not dit.fast_gelu.
// ALL-LABEL: func.func @priority_over_fast_gelu
// ALL-NOT: "dit.fast_gelu"
// ALL: "dit.fused_matmul"({{.*}}) {fused_op_type = "gelu_tanh"
// ALL-NOT: "dit.fast_gelu"
// ALL: return
func.func @priority_over_fast_gelu(%x: tensor<2x8x64xbf16>, %w: tensor<128x64xbf16>) -> tensor<2x8x128xbf16> {
  %l = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x8x64xbf16>, tensor<128x64xbf16>) -> tensor<2x8x128xbf16>
  %g = "dit.gelu"(%l) {approximate = "tanh"} : (tensor<2x8x128xbf16>) -> tensor<2x8x128xbf16>
  return %g : tensor<2x8x128xbf16>
}
