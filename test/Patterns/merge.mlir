// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=swiglu,gelu_mul | dit-opt --split-input-file | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns | dit-opt --split-input-file | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=swiglu,gelu_mul --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// Numerical check (issue 6): the unfused and transformed graphs on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused > /dev/null

// ----- two projections of one input: act(linear(x, Wg)) · linear(x, Wu) -----
// merged into linear(x, concat(Wg, Wu) {dim = 0}) (gate rows first) and dit.swiglu /
// dit.gelu_mul, which take the gate from the first half.

// CHECK-LABEL: func.func @swiglu_two_linears
// CHECK-NEXT: %[[W:.*]] = "dit.concat"(%arg1, %arg2) {dim = 0 : i64} : (tensor<128x64xbf16>, tensor<128x64xbf16>) -> tensor<256x64xbf16>
// CHECK-NEXT: %[[L:.*]] = "dit.linear"(%arg0, %[[W]]) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x16x64xbf16>, tensor<256x64xbf16>) -> tensor<2x16x256xbf16>
// CHECK-NEXT: %[[S:.*]] = "dit.swiglu"(%[[L]]) {dim = -1 : i64} : (tensor<2x16x256xbf16>) -> tensor<2x16x128xbf16>
// CHECK-NEXT: return %[[S]]
// REPORT-LABEL: enable_swiglu:
// REPORT: applied at {{.*}}merge.mlir:[[@LINE+5]]:8: silu(linear(x, Wg)) * linear(x, Wu) -> dit.swiglu(linear(x, concat(Wg, Wu))): projections merged, gate rows first; the weight concat (and bias concat) is one extra op, constant-foldable when the weights are constants
func.func @swiglu_two_linears(%x: tensor<2x16x64xbf16>, %wg: tensor<128x64xbf16>, %wu: tensor<128x64xbf16>) -> tensor<2x16x128xbf16> {
  %g = "dit.linear"(%x, %wg) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x16x64xbf16>, tensor<128x64xbf16>) -> tensor<2x16x128xbf16>
  %u = "dit.linear"(%x, %wu) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x16x64xbf16>, tensor<128x64xbf16>) -> tensor<2x16x128xbf16>
  %s = "dit.silu"(%g) : (tensor<2x16x128xbf16>) -> tensor<2x16x128xbf16>
  %m = "dit.mul"(%s, %u) : (tensor<2x16x128xbf16>, tensor<2x16x128xbf16>) -> tensor<2x16x128xbf16>
  return %m : tensor<2x16x128xbf16>
}

// -----

// Both with a bias, the up projection on the left of the product, the up linear first.
// CHECK-LABEL: func.func @swiglu_two_linears_bias_up_first
// CHECK-NEXT: %[[W:.*]] = "dit.concat"(%arg1, %arg3) {dim = 0 : i64} : (tensor<32x16xf16>, tensor<32x16xf16>) -> tensor<64x16xf16>
// CHECK-NEXT: %[[B:.*]] = "dit.concat"(%arg2, %arg4) {dim = 0 : i64} : (tensor<32xf16>, tensor<32xf16>) -> tensor<64xf16>
// CHECK-NEXT: %[[L:.*]] = "dit.linear"(%arg0, %[[W]], %[[B]]) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<8x16xf16>, tensor<64x16xf16>, tensor<64xf16>) -> tensor<8x64xf16>
// CHECK-NEXT: %[[S:.*]] = "dit.swiglu"(%[[L]]) {dim = -1 : i64} : (tensor<8x64xf16>) -> tensor<8x32xf16>
// CHECK-NEXT: return %[[S]]
func.func @swiglu_two_linears_bias_up_first(%x: tensor<8x16xf16>, %wg: tensor<32x16xf16>, %bg: tensor<32xf16>, %wu: tensor<32x16xf16>, %bu: tensor<32xf16>) -> tensor<8x32xf16> {
  %u = "dit.linear"(%x, %wu, %bu) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<8x16xf16>, tensor<32x16xf16>, tensor<32xf16>) -> tensor<8x32xf16>
  %g = "dit.linear"(%x, %wg, %bg) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<8x16xf16>, tensor<32x16xf16>, tensor<32xf16>) -> tensor<8x32xf16>
  %s = "dit.silu"(%g) : (tensor<8x32xf16>) -> tensor<8x32xf16>
  %m = "dit.mul"(%u, %s) : (tensor<8x32xf16>, tensor<8x32xf16>) -> tensor<8x32xf16>
  return %m : tensor<8x32xf16>
}

// -----

// GeGLU from two projections: gelu_mul over the merged width 512 (<= 1024).
// CHECK-LABEL: func.func @gelu_mul_two_linears
// CHECK-NEXT: %[[W:.*]] = "dit.concat"(%arg1, %arg2) {dim = 0 : i64} : (tensor<256x64xbf16>, tensor<256x64xbf16>) -> tensor<512x64xbf16>
// CHECK-NEXT: %[[L:.*]] = "dit.linear"(%arg0, %[[W]]) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xbf16>, tensor<512x64xbf16>) -> tensor<4x512xbf16>
// CHECK-NEXT: %[[G:.*]] = "dit.gelu_mul"(%[[L]]) {approximate = "none"} : (tensor<4x512xbf16>) -> tensor<4x256xbf16>
// CHECK-NEXT: return %[[G]]
// REPORT-LABEL: enable_gelu_mul:
// REPORT: applied at {{.*}}merge.mlir:[[@LINE+5]]:8: gelu(linear(x, Wg)) * linear(x, Wu) -> dit.gelu_mul(linear(x, concat(Wg, Wu))): projections merged, gate rows first
func.func @gelu_mul_two_linears(%x: tensor<4x64xbf16>, %wg: tensor<256x64xbf16>, %wu: tensor<256x64xbf16>) -> tensor<4x256xbf16> {
  %g = "dit.linear"(%x, %wg) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xbf16>, tensor<256x64xbf16>) -> tensor<4x256xbf16>
  %u = "dit.linear"(%x, %wu) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xbf16>, tensor<256x64xbf16>) -> tensor<4x256xbf16>
  %a = "dit.gelu"(%g) {approximate = "none"} : (tensor<4x256xbf16>) -> tensor<4x256xbf16>
  %m = "dit.mul"(%a, %u) : (tensor<4x256xbf16>, tensor<4x256xbf16>) -> tensor<4x256xbf16>
  return %m : tensor<4x256xbf16>
}

// -----

// tanh GELU, with biases, gelu on the right: gelu_mul keeps the approximation.
// CHECK-LABEL: func.func @gelu_mul_two_linears_tanh_bias
// CHECK-NEXT: %[[W:.*]] = "dit.concat"(%arg1, %arg3) {dim = 0 : i64}
// CHECK-NEXT: %[[B:.*]] = "dit.concat"(%arg2, %arg4) {dim = 0 : i64}
// CHECK-NEXT: %[[L:.*]] = "dit.linear"(%arg0, %[[W]], %[[B]]) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x3x32xf16>, tensor<128x32xf16>, tensor<128xf16>) -> tensor<2x3x128xf16>
// CHECK-NEXT: %[[G:.*]] = "dit.gelu_mul"(%[[L]]) {approximate = "tanh"} : (tensor<2x3x128xf16>) -> tensor<2x3x64xf16>
// CHECK-NEXT: return %[[G]]
func.func @gelu_mul_two_linears_tanh_bias(%x: tensor<2x3x32xf16>, %wg: tensor<64x32xf16>, %bg: tensor<64xf16>, %wu: tensor<64x32xf16>, %bu: tensor<64xf16>) -> tensor<2x3x64xf16> {
  %g = "dit.linear"(%x, %wg, %bg) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x3x32xf16>, tensor<64x32xf16>, tensor<64xf16>) -> tensor<2x3x64xf16>
  %u = "dit.linear"(%x, %wu, %bu) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x3x32xf16>, tensor<64x32xf16>, tensor<64xf16>) -> tensor<2x3x64xf16>
  %a = "dit.gelu"(%g) {approximate = "tanh"} : (tensor<2x3x64xf16>) -> tensor<2x3x64xf16>
  %m = "dit.mul"(%u, %a) : (tensor<2x3x64xf16>, tensor<2x3x64xf16>) -> tensor<2x3x64xf16>
  return %m : tensor<2x3x64xf16>
}

// -----

// ----- one projection chunked with the gate SECOND (diffusers' GEGLU / SwiGLU) -----
// `hidden, gate = proj(x).chunk(2, -1); hidden * act(gate)`: the weight's row halves (and the
// bias's) are swapped so the gate becomes the first half.

// CHECK-LABEL: func.func @swiglu_chunk_gate_second
// CHECK-NEXT: %[[W1:.*]] = "dit.slice"(%arg1) {dim = 0 : i64, end = 256 : i64, start = 128 : i64, step = 1 : i64} : (tensor<256x64xbf16>) -> tensor<128x64xbf16>
// CHECK-NEXT: %[[W0:.*]] = "dit.slice"(%arg1) {dim = 0 : i64, end = 128 : i64, start = 0 : i64, step = 1 : i64} : (tensor<256x64xbf16>) -> tensor<128x64xbf16>
// CHECK-NEXT: %[[W:.*]] = "dit.concat"(%[[W1]], %[[W0]]) {dim = 0 : i64} : (tensor<128x64xbf16>, tensor<128x64xbf16>) -> tensor<256x64xbf16>
// CHECK-NEXT: %[[B1:.*]] = "dit.slice"(%arg2) {dim = 0 : i64, end = 256 : i64, start = 128 : i64, step = 1 : i64} : (tensor<256xbf16>) -> tensor<128xbf16>
// CHECK-NEXT: %[[B0:.*]] = "dit.slice"(%arg2) {dim = 0 : i64, end = 128 : i64, start = 0 : i64, step = 1 : i64} : (tensor<256xbf16>) -> tensor<128xbf16>
// CHECK-NEXT: %[[B:.*]] = "dit.concat"(%[[B1]], %[[B0]]) {dim = 0 : i64} : (tensor<128xbf16>, tensor<128xbf16>) -> tensor<256xbf16>
// CHECK-NEXT: %[[L:.*]] = "dit.linear"(%arg0, %[[W]], %[[B]]) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x16x64xbf16>, tensor<256x64xbf16>, tensor<256xbf16>) -> tensor<2x16x256xbf16>
// CHECK-NEXT: %[[S:.*]] = "dit.swiglu"(%[[L]]) {dim = -1 : i64} : (tensor<2x16x256xbf16>) -> tensor<2x16x128xbf16>
// CHECK-NEXT: return %[[S]]
// REPORT-LABEL: enable_swiglu:
// REPORT: applied at {{.*}}merge.mlir:[[@LINE+5]]:8: first half * silu(second half) of linear(x, W) -> dit.swiglu(linear(x, W with row halves swapped)): gate moved to the first half
func.func @swiglu_chunk_gate_second(%x: tensor<2x16x64xbf16>, %w: tensor<256x64xbf16>, %b: tensor<256xbf16>) -> tensor<2x16x128xbf16> {
  %y = "dit.linear"(%x, %w, %b) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x16x64xbf16>, tensor<256x64xbf16>, tensor<256xbf16>) -> tensor<2x16x256xbf16>
  %h, %gate = "dit.split"(%y) {dim = -1 : i64, sizes = array<i64: 128, 128>} : (tensor<2x16x256xbf16>) -> (tensor<2x16x128xbf16>, tensor<2x16x128xbf16>)
  %s = "dit.silu"(%gate) : (tensor<2x16x128xbf16>) -> tensor<2x16x128xbf16>
  %m = "dit.mul"(%h, %s) : (tensor<2x16x128xbf16>, tensor<2x16x128xbf16>) -> tensor<2x16x128xbf16>
  return %m : tensor<2x16x128xbf16>
}

// -----

// GEGLU chunked with slices, no bias, gelu on the left of the product.
// CHECK-LABEL: func.func @gelu_mul_chunk_gate_second_slices
// CHECK-NEXT: %[[W1:.*]] = "dit.slice"(%arg1) {dim = 0 : i64, end = 128 : i64, start = 64 : i64, step = 1 : i64}
// CHECK-NEXT: %[[W0:.*]] = "dit.slice"(%arg1) {dim = 0 : i64, end = 64 : i64, start = 0 : i64, step = 1 : i64}
// CHECK-NEXT: %[[W:.*]] = "dit.concat"(%[[W1]], %[[W0]]) {dim = 0 : i64}
// CHECK-NEXT: %[[L:.*]] = "dit.linear"(%arg0, %[[W]]) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x32xf16>, tensor<128x32xf16>) -> tensor<8x128xf16>
// CHECK-NEXT: %[[G:.*]] = "dit.gelu_mul"(%[[L]]) {approximate = "none"} : (tensor<8x128xf16>) -> tensor<8x64xf16>
// CHECK-NEXT: return %[[G]]
func.func @gelu_mul_chunk_gate_second_slices(%x: tensor<8x32xf16>, %w: tensor<128x32xf16>) -> tensor<8x64xf16> {
  %y = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x32xf16>, tensor<128x32xf16>) -> tensor<8x128xf16>
  %h = "dit.slice"(%y) {dim = 1 : i64, start = 0 : i64, end = 64 : i64, step = 1 : i64} : (tensor<8x128xf16>) -> tensor<8x64xf16>
  %gate = "dit.slice"(%y) {dim = -1 : i64, start = 64 : i64, end = 128 : i64, step = 1 : i64} : (tensor<8x128xf16>) -> tensor<8x64xf16>
  %a = "dit.gelu"(%gate) {approximate = "none"} : (tensor<8x64xf16>) -> tensor<8x64xf16>
  %m = "dit.mul"(%a, %h) : (tensor<8x64xf16>, tensor<8x64xf16>) -> tensor<8x64xf16>
  return %m : tensor<8x64xf16>
}

// -----

// ----- negative cases -----

// Projections of different inputs: no merge; the two-input silu_mul takes the product.
// CHECK-LABEL: func.func @swiglu_different_inputs
// CHECK-NOT: "dit.concat"
// CHECK-NOT: "dit.swiglu"
// CHECK: %[[G:.*]] = "dit.linear"(%arg0, %arg2)
// CHECK: %[[U:.*]] = "dit.linear"(%arg1, %arg3)
// CHECK: "dit.silu_mul"(%[[G]], %[[U]])
func.func @swiglu_different_inputs(%x: tensor<8x16xbf16>, %x2: tensor<8x16xbf16>, %wg: tensor<32x16xbf16>, %wu: tensor<32x16xbf16>) -> tensor<8x32xbf16> {
  %g = "dit.linear"(%x, %wg) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x16xbf16>, tensor<32x16xbf16>) -> tensor<8x32xbf16>
  %u = "dit.linear"(%x2, %wu) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x16xbf16>, tensor<32x16xbf16>) -> tensor<8x32xbf16>
  %s = "dit.silu"(%g) : (tensor<8x32xbf16>) -> tensor<8x32xbf16>
  %m = "dit.mul"(%s, %u) : (tensor<8x32xbf16>, tensor<8x32xbf16>) -> tensor<8x32xbf16>
  return %m : tensor<8x32xbf16>
}

// -----

// GeGLU of different inputs: nothing fuses.
// CHECK-LABEL: func.func @gelu_mul_different_inputs
// CHECK-NOT: "dit.concat"
// CHECK-NOT: "dit.gelu_mul"
// CHECK: "dit.gelu"
func.func @gelu_mul_different_inputs(%x: tensor<8x16xbf16>, %x2: tensor<8x16xbf16>, %wg: tensor<32x16xbf16>, %wu: tensor<32x16xbf16>) -> tensor<8x32xbf16> {
  %g = "dit.linear"(%x, %wg) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x16xbf16>, tensor<32x16xbf16>) -> tensor<8x32xbf16>
  %u = "dit.linear"(%x2, %wu) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x16xbf16>, tensor<32x16xbf16>) -> tensor<8x32xbf16>
  %a = "dit.gelu"(%g) {approximate = "none"} : (tensor<8x32xbf16>) -> tensor<8x32xbf16>
  %m = "dit.mul"(%a, %u) : (tensor<8x32xbf16>, tensor<8x32xbf16>) -> tensor<8x32xbf16>
  return %m : tensor<8x32xbf16>
}

// -----

// The weights are constants, not function arguments: no merge (reported); silu_mul instead.
// CHECK-LABEL: func.func @swiglu_weights_not_arguments
// CHECK-NOT: "dit.concat"
// CHECK-NOT: "dit.swiglu"
// CHECK: "dit.silu_mul"
// REPORT: skipped at {{.*}}merge.mlir:[[@LINE+7]]:8: the weights (or biases) are not arguments of the function
func.func @swiglu_weights_not_arguments(%x: tensor<8x16xbf16>) -> tensor<8x32xbf16> {
  %wg = arith.constant dense<0.5> : tensor<32x16xbf16>
  %wu = arith.constant dense<0.25> : tensor<32x16xbf16>
  %g = "dit.linear"(%x, %wg) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x16xbf16>, tensor<32x16xbf16>) -> tensor<8x32xbf16>
  %u = "dit.linear"(%x, %wu) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x16xbf16>, tensor<32x16xbf16>) -> tensor<8x32xbf16>
  %s = "dit.silu"(%g) : (tensor<8x32xbf16>) -> tensor<8x32xbf16>
  %m = "dit.mul"(%s, %u) : (tensor<8x32xbf16>, tensor<8x32xbf16>) -> tensor<8x32xbf16>
  return %m : tensor<8x32xbf16>
}

// -----

// The up projection has a second user: merging would compute it twice (reported).
// CHECK-LABEL: func.func @swiglu_linear_second_user
// CHECK-NOT: "dit.concat"
// CHECK-NOT: "dit.swiglu"
// CHECK: %[[U:.*]] = "dit.linear"(%arg0, %arg2)
// CHECK: "dit.silu_mul"
// CHECK: return {{.*}}, %[[U]]
// REPORT: skipped at {{.*}}merge.mlir:[[@LINE+5]]:8: the gate or up projection (or the activation) has another user
func.func @swiglu_linear_second_user(%x: tensor<8x16xbf16>, %wg: tensor<32x16xbf16>, %wu: tensor<32x16xbf16>) -> (tensor<8x32xbf16>, tensor<8x32xbf16>) {
  %g = "dit.linear"(%x, %wg) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x16xbf16>, tensor<32x16xbf16>) -> tensor<8x32xbf16>
  %u = "dit.linear"(%x, %wu) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x16xbf16>, tensor<32x16xbf16>) -> tensor<8x32xbf16>
  %s = "dit.silu"(%g) : (tensor<8x32xbf16>) -> tensor<8x32xbf16>
  %m = "dit.mul"(%s, %u) : (tensor<8x32xbf16>, tensor<8x32xbf16>) -> tensor<8x32xbf16>
  return %m, %u : tensor<8x32xbf16>, tensor<8x32xbf16>
}

// -----

// Only the gate projection has a bias (reported); nothing merges, gelu stays.
// CHECK-LABEL: func.func @gelu_mul_bias_mismatch
// CHECK-NOT: "dit.concat"
// CHECK-NOT: "dit.gelu_mul"
// CHECK: "dit.gelu"
// REPORT: skipped at {{.*}}merge.mlir:[[@LINE+5]]:8: one projection has a bias and the other none
func.func @gelu_mul_bias_mismatch(%x: tensor<8x16xbf16>, %wg: tensor<32x16xbf16>, %bg: tensor<32xbf16>, %wu: tensor<32x16xbf16>) -> tensor<8x32xbf16> {
  %g = "dit.linear"(%x, %wg, %bg) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<8x16xbf16>, tensor<32x16xbf16>, tensor<32xbf16>) -> tensor<8x32xbf16>
  %u = "dit.linear"(%x, %wu) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x16xbf16>, tensor<32x16xbf16>) -> tensor<8x32xbf16>
  %a = "dit.gelu"(%g) {approximate = "none"} : (tensor<8x32xbf16>) -> tensor<8x32xbf16>
  %m = "dit.mul"(%a, %u) : (tensor<8x32xbf16>, tensor<8x32xbf16>) -> tensor<8x32xbf16>
  return %m : tensor<8x32xbf16>
}

// -----

// The merged width 1536 exceeds GeluMul's 1024 (rule gelu_mul.last_dim, reported); the
// projections stay separate.
// CHECK-LABEL: func.func @gelu_mul_merged_too_wide
// CHECK-NOT: "dit.concat"
// CHECK-NOT: "dit.gelu_mul"
// CHECK: "dit.gelu"
// REPORT: skipped at {{.*}}merge.mlir:[[@LINE+5]]:8: the merged projection breaks rule gelu_mul.last_dim: x [4, 1536]: the last dim must be known and <= 1024 (aclnn error 161002; [ops-nn] activation/gelu_mul/docs/aclnnGeluMul.md
func.func @gelu_mul_merged_too_wide(%x: tensor<4x64xbf16>, %wg: tensor<768x64xbf16>, %wu: tensor<768x64xbf16>) -> tensor<4x768xbf16> {
  %g = "dit.linear"(%x, %wg) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xbf16>, tensor<768x64xbf16>) -> tensor<4x768xbf16>
  %u = "dit.linear"(%x, %wu) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xbf16>, tensor<768x64xbf16>) -> tensor<4x768xbf16>
  %a = "dit.gelu"(%g) {approximate = "none"} : (tensor<4x768xbf16>) -> tensor<4x768xbf16>
  %m = "dit.mul"(%a, %u) : (tensor<4x768xbf16>, tensor<4x768xbf16>) -> tensor<4x768xbf16>
  return %m : tensor<4x768xbf16>
}

// -----

// Gate second, but the weight is computed in the graph (not a function argument): its rows
// are not reordered and no fused op takes the gate from the wrong half.
// CHECK-LABEL: func.func @gelu_mul_chunk_weight_not_argument
// CHECK-NOT: "dit.concat"
// CHECK-NOT: "dit.gelu_mul"
// CHECK: "dit.gelu"
// REPORT: skipped at {{.*}}merge.mlir:[[@LINE+6]]:8: the gate is the second half and the projection's weight (or bias) is not an argument of the function
func.func @gelu_mul_chunk_weight_not_argument(%x: tensor<8x32xf16>, %wt: tensor<32x128xf16>) -> tensor<8x64xf16> {
  %w = "dit.transpose"(%wt) {perm = array<i64: 1, 0>} : (tensor<32x128xf16>) -> tensor<128x32xf16>
  %y = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x32xf16>, tensor<128x32xf16>) -> tensor<8x128xf16>
  %h, %gate = "dit.split"(%y) {dim = -1 : i64, sizes = array<i64: 64, 64>} : (tensor<8x128xf16>) -> (tensor<8x64xf16>, tensor<8x64xf16>)
  %a = "dit.gelu"(%gate) {approximate = "none"} : (tensor<8x64xf16>) -> tensor<8x64xf16>
  %m = "dit.mul"(%h, %a) : (tensor<8x64xf16>, tensor<8x64xf16>) -> tensor<8x64xf16>
  return %m : tensor<8x64xf16>
}

// -----

// Gate second, but the first half is used elsewhere too: reordering would compute the
// projection twice (reported).
// CHECK-LABEL: func.func @swiglu_chunk_half_second_user
// CHECK-NOT: "dit.concat"
// CHECK-NOT: "dit.swiglu"
// REPORT: skipped at {{.*}}merge.mlir:[[@LINE+5]]:8: the projection, its halves or the activation have other users
func.func @swiglu_chunk_half_second_user(%x: tensor<8x32xf16>, %w: tensor<128x32xf16>) -> (tensor<8x64xf16>, tensor<8x64xf16>) {
  %y = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x32xf16>, tensor<128x32xf16>) -> tensor<8x128xf16>
  %h, %gate = "dit.split"(%y) {dim = -1 : i64, sizes = array<i64: 64, 64>} : (tensor<8x128xf16>) -> (tensor<8x64xf16>, tensor<8x64xf16>)
  %s = "dit.silu"(%gate) : (tensor<8x64xf16>) -> tensor<8x64xf16>
  %m = "dit.mul"(%s, %h) : (tensor<8x64xf16>, tensor<8x64xf16>) -> tensor<8x64xf16>
  return %m, %h : tensor<8x64xf16>, tensor<8x64xf16>
}
