// Seed 000 §2.3 lists Linear -> SiLU among the Linear + activation forms. No aclnn kernel fuses
// it: aclnnFusedMatmul's fusedOpType is "" / add / mul / gelu_erf / gelu_tanh / relu ([ops-nn]
// matmul/fused_mat_mul/docs/aclnnFusedMatmul.md) and aclnnFusedQuantMatmul's gelu_erf /
// gelu_tanh ([ops-nn] matmul/fused_quant_mat_mul/docs/aclnnFusedQuantMatmul.md). The fusion
// report says so at the SiLU instead of staying silent; the graph is unchanged.
//
// RUN: dit-opt %s --split-input-file --fuse-all | FileCheck %s
// RUN: dit-opt %s --split-input-file --fuse-all --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-opt %s --split-input-file --fuse-all --target=ascend950 --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @linear_silu
// CHECK: "dit.linear"
// CHECK: "dit.silu"
// REPORT: enable_linear_activation: matched 1, applied 0, skipped 1
// REPORT: skipped at {{.*}}seed-fidelity-linear-silu.mlir:[[@LINE+3]]:8: linear + silu: no aclnn kernel fuses a SiLU into a matmul (FusedMatmul: add, mul, gelu_erf, gelu_tanh, relu; FusedQuantMatmul: gelu only)
func.func @linear_silu(%x: tensor<16x64xf16>, %w: tensor<128x64xf16>, %b: tensor<128xf16>) -> tensor<16x128xf16> {
  %l = "dit.linear"(%x, %w, %b) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<16x64xf16>, tensor<128x64xf16>, tensor<128xf16>) -> tensor<16x128xf16>
  %s = "dit.silu"(%l) : (tensor<16x128xf16>) -> tensor<16x128xf16>
  return %s : tensor<16x128xf16>
}

// -----

// Negative: a SiLU before the linear (adaLN's silu(temb) -> linear) is no Linear + SiLU: nothing
// is reported for it.
// CHECK-LABEL: func.func @silu_then_linear
// REPORT-NOT: silu_then_linear
func.func @silu_then_linear(%t: tensor<1x64xf16>, %w: tensor<128x64xf16>) -> tensor<1x128xf16> {
  %s = "dit.silu"(%t) : (tensor<1x64xf16>) -> tensor<1x64xf16>
  %l = "dit.linear"(%s, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x64xf16>, tensor<128x64xf16>) -> tensor<1x128xf16>
  return %l : tensor<1x128xf16>
}
