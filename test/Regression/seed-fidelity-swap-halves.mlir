// Seed 003 / DIALECT.md: a SwiGLU or GeGLU that gates with the SECOND half of a projection
// becomes dit.swiglu / dit.gelu_mul only by reordering the projection's weight rows. The reorder
// (slices and a concat of the weight) is free when the load-time pre-pack computes it, and a
// copy of the whole weight on every call when it cannot. The native checks the rewrite against
// the cost model (per-call kernels and DDR bytes, with and without it) and, when it does not
// pay, leaves the halves product to dit.silu_mul / dit-auto-fuse and names both costs.
//
// RUN: dit-opt %s --split-input-file --fuse-all | FileCheck %s
// RUN: dit-opt %s --split-input-file --fuse-all --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-run %s --split-input-file --compare-unfused > /dev/null

// The first row half of the weight is also a result of the function: the pre-pack cannot
// compute the reordered weight, so the reorder would cost a concat of the weight per call
// (140 KiB against 108 KiB: the weight is bigger than the projection's output here).
// CHECK-LABEL: func.func @swiglu_weight_rows_read_per_call
// CHECK-NOT: "dit.concat"
// CHECK-NOT: "dit.swiglu"
// CHECK: "dit.linear"(%arg0, %arg1)
// The halves are then read in place by the generated kernel (dit-auto-fuse opens it with the
// split): the projection and one kernel.
// CHECK: "dit.fused"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: "dit.split"
// CHECK-NEXT: "dit.silu_mul"
// REPORT-LABEL: enable_swiglu:
// REPORT: skipped at {{.*}}seed-fidelity-swap-halves.mlir:[[@LINE+7]]:8: the gate is the second half; reordering the weight rows does not pay: 3 kernels, 140.0 KiB per call against 3 kernels, 108.0 KiB without the rewrite
// REPORT: kernels: 4 before, 2 after
// REPORT: DDR bytes: 124.0 KiB before, 76.0 KiB after
func.func @swiglu_weight_rows_read_per_call(%x: tensor<2x16x64xbf16>, %w: tensor<256x64xbf16>) -> (tensor<2x16x128xbf16>, tensor<128x64xbf16>) {
  %y = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x16x64xbf16>, tensor<256x64xbf16>) -> tensor<2x16x256xbf16>
  %h, %gate = "dit.split"(%y) {dim = -1 : i64, sizes = array<i64: 128, 128>} : (tensor<2x16x256xbf16>) -> (tensor<2x16x128xbf16>, tensor<2x16x128xbf16>)
  %s = "dit.silu"(%gate) : (tensor<2x16x128xbf16>) -> tensor<2x16x128xbf16>
  %m = "dit.mul"(%h, %s) : (tensor<2x16x128xbf16>, tensor<2x16x128xbf16>) -> tensor<2x16x128xbf16>
  %w0 = "dit.slice"(%w) {dim = 0 : i64, start = 0 : i64, end = 128 : i64, step = 1 : i64} : (tensor<256x64xbf16>) -> tensor<128x64xbf16>
  return %m, %w0 : tensor<2x16x128xbf16>, tensor<128x64xbf16>
}

// -----

// GeGLU, the weight's second row half read per call too: the same refusal.
// CHECK-LABEL: func.func @gelu_mul_weight_rows_read_per_call
// CHECK-NOT: "dit.concat"
// CHECK-NOT: "dit.gelu_mul"
// CHECK: "dit.linear"(%arg0, %arg1)
// REPORT-LABEL: enable_gelu_mul:
// REPORT: skipped at {{.*}}seed-fidelity-swap-halves.mlir:[[@LINE+5]]:8: the gate is the second half; reordering the weight rows does not pay: 3 kernels, 29.5 KiB per call against 3 kernels, 17.5 KiB without the rewrite
func.func @gelu_mul_weight_rows_read_per_call(%x: tensor<8x32xf16>, %w: tensor<128x32xf16>) -> (tensor<8x64xf16>, tensor<64x32xf16>) {
  %y = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x32xf16>, tensor<128x32xf16>) -> tensor<8x128xf16>
  %h, %gate = "dit.split"(%y) {dim = -1 : i64, sizes = array<i64: 64, 64>} : (tensor<8x128xf16>) -> (tensor<8x64xf16>, tensor<8x64xf16>)
  %a = "dit.gelu"(%gate) {approximate = "none"} : (tensor<8x64xf16>) -> tensor<8x64xf16>
  %m = "dit.mul"(%a, %h) : (tensor<8x64xf16>, tensor<8x64xf16>) -> tensor<8x64xf16>
  %w1 = "dit.slice"(%w) {dim = 0 : i64, start = 64 : i64, end = 128 : i64, step = 1 : i64} : (tensor<128x32xf16>) -> tensor<64x32xf16>
  %n = "dit.neg"(%w1) : (tensor<64x32xf16>) -> tensor<64x32xf16>
  return %m, %n : tensor<8x64xf16>, tensor<64x32xf16>
}

// -----

// Only the bias's rows are read per call: its per-call copy (512 B) is smaller than the copy of
// the projection's halves the fused op saves, so the reorder pays and applies.
// CHECK-LABEL: func.func @gelu_mul_bias_rows_read_per_call
// CHECK: "dit.concat"
// CHECK: "dit.gelu_mul"
// REPORT-LABEL: enable_gelu_mul:
// REPORT: applied at {{.*}}seed-fidelity-swap-halves.mlir:[[@LINE+5]]:8: gelu(second half) * first half of linear(x, W) -> dit.gelu_mul(linear(x, W with row halves swapped))
func.func @gelu_mul_bias_rows_read_per_call(%x: tensor<8x32xf16>, %w: tensor<128x32xf16>, %b: tensor<128xf16>, %z: tensor<64xf16>) -> (tensor<8x64xf16>, tensor<64xf16>) {
  %y = "dit.linear"(%x, %w, %b) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<8x32xf16>, tensor<128x32xf16>, tensor<128xf16>) -> tensor<8x128xf16>
  %h, %gate = "dit.split"(%y) {dim = -1 : i64, sizes = array<i64: 64, 64>} : (tensor<8x128xf16>) -> (tensor<8x64xf16>, tensor<8x64xf16>)
  %a = "dit.gelu"(%gate) {approximate = "none"} : (tensor<8x64xf16>) -> tensor<8x64xf16>
  %m = "dit.mul"(%a, %h) : (tensor<8x64xf16>, tensor<8x64xf16>) -> tensor<8x64xf16>
  %b1 = "dit.slice"(%b) {dim = 0 : i64, start = 64 : i64, end = 128 : i64, step = 1 : i64} : (tensor<128xf16>) -> tensor<64xf16>
  %s = "dit.add"(%b1, %z) : (tensor<64xf16>, tensor<64xf16>) -> tensor<64xf16>
  return %m, %s : tensor<8x64xf16>, tensor<64xf16>
}

// -----

// The weight is read only by the projection: the pre-pack reorders its rows once at load, and
// dit.swiglu takes the gate from the first half.
// CHECK-LABEL: func.func @swiglu_weight_prepacked
// CHECK: "dit.concat"
// CHECK: "dit.swiglu"
// REPORT-LABEL: enable_swiglu:
// REPORT: applied at {{.*}}seed-fidelity-swap-halves.mlir:[[@LINE+6]]:8: first half * silu(second half) of linear(x, W) -> dit.swiglu(linear(x, W with row halves swapped))
// REPORT: pre-pack (init entry, once at load): 1 kernel
func.func @swiglu_weight_prepacked(%x: tensor<2x16x64xbf16>, %w: tensor<256x64xbf16>) -> tensor<2x16x128xbf16> {
  %y = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x16x64xbf16>, tensor<256x64xbf16>) -> tensor<2x16x256xbf16>
  %h, %gate = "dit.split"(%y) {dim = -1 : i64, sizes = array<i64: 128, 128>} : (tensor<2x16x256xbf16>) -> (tensor<2x16x128xbf16>, tensor<2x16x128xbf16>)
  %s = "dit.silu"(%gate) : (tensor<2x16x128xbf16>) -> tensor<2x16x128xbf16>
  %m = "dit.mul"(%h, %s) : (tensor<2x16x128xbf16>, tensor<2x16x128xbf16>) -> tensor<2x16x128xbf16>
  return %m : tensor<2x16x128xbf16>
}
