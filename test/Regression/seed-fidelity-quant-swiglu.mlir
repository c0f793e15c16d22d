// Seed 003 §2.7 lists SwiGLU fused behind the static-quant, int4, fp8 and mxfp4 linears. In
// dit each is a dit.quant_matmul (QuantBatchMatmulV3) whose result is already dequantized to
// f16/bf16. CANN's kernels around SwiGLU do not take that: aclnnDequantSwigluQuant ([ops-nn]
// quant/dequant_swiglu_quant/docs/aclnnDequantSwigluQuant.md) reads a matmul's raw int32 result
// and writes a quantized y, and aclnnSwigluGroupQuant ([ops-nn]
// activation/swiglu_group_quant/docs/aclnnSwigluGroupQuant.md, Ascend 950 only) writes an
// fp8/HiFloat8 y. The SwiGLU still becomes dit.swiglu, and the report now says, at the SwiGLU,
// why the quantized linear does not fuse into it, instead of staying silent.
//
// RUN: dit-opt %s --split-input-file --fuse-all | FileCheck %s
// RUN: dit-opt %s --split-input-file --fuse-all --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-run %s --split-input-file --compare-unfused > /dev/null

// int8 static-quant linear.
// CHECK-LABEL: func.func @int8_linear_swiglu
// CHECK: "dit.quant_matmul"
// CHECK-NEXT: "dit.swiglu"
// REPORT: skipped at {{.*}}seed-fidelity-quant-swiglu.mlir:[[@LINE+5]]:{{.*}}: the gate and up halves come from a dit.quant_matmul (I8 x I8 -> F16); no aclnn kernel takes a quantized linear's dequantized output into SwiGLU
func.func @int8_linear_swiglu(%x: tensor<4x64xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>, %pts: tensor<4xf32>) -> tensor<4x64xf16> {
  %y = "dit.quant_matmul"(%x, %w, %s, %pts) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>, tensor<4xf32>) -> tensor<4x128xf16>
  %h:2 = "dit.split"(%y) {dim = 1 : i64, sizes = array<i64: 64, 64>} : (tensor<4x128xf16>) -> (tensor<4x64xf16>, tensor<4x64xf16>)
  %g = "dit.silu"(%h#0) : (tensor<4x64xf16>) -> tensor<4x64xf16>
  %o = "dit.mul"(%g, %h#1) : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  return %o : tensor<4x64xf16>
}

// -----

// A float linear's SwiGLU gets no such note.
// CHECK-LABEL: func.func @float_linear_swiglu
// CHECK: "dit.swiglu"
// REPORT-NOT: quant_linear_swiglu
func.func @float_linear_swiglu(%x: tensor<4x64xf16>, %w: tensor<128x64xf16>) -> tensor<4x64xf16> {
  %y = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xf16>, tensor<128x64xf16>) -> tensor<4x128xf16>
  %h:2 = "dit.split"(%y) {dim = 1 : i64, sizes = array<i64: 64, 64>} : (tensor<4x128xf16>) -> (tensor<4x64xf16>, tensor<4x64xf16>)
  %g = "dit.silu"(%h#0) : (tensor<4x64xf16>) -> tensor<4x64xf16>
  %o = "dit.mul"(%g, %h#1) : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  return %o : tensor<4x64xf16>
}
