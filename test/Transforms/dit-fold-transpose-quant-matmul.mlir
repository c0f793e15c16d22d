// Normal rule of CANN's QuantBatchMatmulV3TransposeFusionPass (seed 001):
// --dit-fold-transpose-quant-matmul bypasses a dit.transpose that swaps the last two dims of a
// dit.quant_matmul data input (x1 / x2) and flips transpose_x1 / transpose_x2; the matching scale
// (pertoken_scale for x1, scale for x2) transpose, or a reshape equivalent to it, goes with it.
//
// Prefixes: A2 = targets without the bf16 L1->BT move (ascend910b, ascend910_93: 65535 limits);
// A5 = ascend950 (no limit); NOS4 = targets whose Cube does not take mixed s8s4 input; S4 = the
// test-only target Inputs/ascend910b-s8s4.toml (an A2 with s8s4), where any transform->bitcast->quant_matmul
// connection keeps the whole node (seed 001 section 3.2).
//
// Every output is read back by a second dit-opt, which verifies it again.
//
// RUN: dit-opt %s --split-input-file --dit-fold-transpose-quant-matmul | dit-opt --split-input-file | FileCheck %s --check-prefixes=CHECK,A2,NOS4
// RUN: dit-opt %s --split-input-file --dit-fold-transpose-quant-matmul --target=ascend910b | dit-opt --split-input-file | FileCheck %s --check-prefixes=CHECK,A2,NOS4
// RUN: dit-opt %s --split-input-file --dit-fold-transpose-quant-matmul --target=ascend910_93 | dit-opt --split-input-file | FileCheck %s --check-prefixes=CHECK,A2,NOS4
// RUN: dit-opt %s --split-input-file --dit-fold-transpose-quant-matmul --target=ascend950 | dit-opt --split-input-file | FileCheck %s --check-prefixes=CHECK,A5,NOS4
// RUN: dit-opt %s --split-input-file --dit-fold-transpose-quant-matmul --target=%S/Inputs/ascend910b-s8s4.toml | dit-opt --split-input-file | FileCheck %s --check-prefixes=CHECK,A2,S4
//
// Illegal dtypes and rank-1 inputs: the verifier refuses the graph before the pass runs.
// RUN: dit-opt %S/Inputs/fold-transpose-quant-matmul-invalid.mlir --split-input-file --verify-diagnostics --dit-fold-transpose-quant-matmul
// RUN: dit-opt %S/Inputs/fold-transpose-quant-matmul-invalid.mlir --split-input-file --verify-diagnostics --dit-fold-transpose-quant-matmul --target=ascend950
// RUN: not dit-opt %S/Inputs/fold-transpose-quant-matmul-invalid.mlir --split-input-file --dit-fold-transpose-quant-matmul 2>&1 | FileCheck %s --check-prefix=INVALID
// Numerical check (issue 6): the unfused and transformed graphs on the CPU reference runtime.
// Not run: functions with a tensor over 200000 elements (the 65535 limit cases: the identity
// is the same as in the small cases); the FRACTAL_NZ case (the kernel table has no NZ entry, so
// it does not lower); the MX cases whose e8m0 scales come in CANN's 3-D [.., .., 2] layouts
// (the reference models per-group scales [N, G] / [G, N] only and refuses the rest).
// RUN: dit-run %s --split-input-file --compare-unfused --pipeline='builtin.module(dit-fold-transpose-quant-matmul,dit-fold-transpose-quant-matmul-limit)' --max-elements=200000 --exclude=cann_quant_bmm_v3_x2_nz_format,cann_quant_bmm_v3_mx_reshape_dim0_eq_1,cann_quant_bmm_v3_with_reshape_mx_scale_3d,cann_quant_bmm_v3_with_reshape_transpose_mx,mx_pertoken_reshape_x1,mx_reshape_no_unit_dim,mx_reshape_not_a_swap,mx_shape_reshape_not_e8m0 > /dev/null
// RUN: dit-run %s --split-input-file --compare-unfused --pipeline='builtin.module(dit-fold-transpose-quant-matmul,dit-fold-transpose-quant-matmul-limit)' --max-elements=200000 --target=ascend950 --exclude=cann_quant_bmm_v3_x2_nz_format,cann_quant_bmm_v3_mx_reshape_dim0_eq_1,cann_quant_bmm_v3_with_reshape_mx_scale_3d,cann_quant_bmm_v3_with_reshape_transpose_mx,mx_pertoken_reshape_x1,mx_reshape_no_unit_dim,mx_reshape_not_a_swap,mx_shape_reshape_not_e8m0 > /dev/null
// INVALID: error: {{.*}}x1 element type f32 is not one of
// INVALID-NOT: "dit.quant_matmul"{{.*}}transpose_x1 = true

// ===== basic folds =====

// x1 only: the x1 transpose goes, transpose_x1 flips; x2, scale, pertoken_scale untouched.
// CHECK-LABEL: func.func @x1_only
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2, %arg3) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK-SAME: : (tensor<64x4xi8>, tensor<128x64xi8>, tensor<128xf32>, tensor<4xf32>) -> tensor<4x128xf16>
// CHECK-NOT: "dit.transpose"
// CHECK: return
func.func @x1_only(%a: tensor<64x4xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>, %p: tensor<4xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  %r = "dit.quant_matmul"(%t, %w, %s, %p) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>, tensor<4xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// x2 only.
// CHECK-LABEL: func.func @x2_only
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK-SAME: : (tensor<4x64xi8>, tensor<64x128xi8>, tensor<128xf32>) -> tensor<4x128xf16>
// CHECK-NOT: "dit.transpose"
// CHECK: return
func.func @x2_only(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// Both data inputs.
// CHECK-LABEL: func.func @both
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2, %arg3) {{.*}}transpose_x1 = true, transpose_x2 = false
// CHECK-SAME: : (tensor<64x4xi8>, tensor<64x128xi8>, tensor<128xf32>, tensor<4xf32>) -> tensor<4x128xbf16>
// CHECK-NOT: "dit.transpose"
// CHECK: return
func.func @both(%a: tensor<64x4xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>, %p: tensor<4xf32>) -> tensor<4x128xbf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %r = "dit.quant_matmul"(%t1, %t2, %s, %p) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>, tensor<4xf32>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// The flags are negated, not set: true -> false on x1, false -> true on x2.
// CHECK-LABEL: func.func @flags_negated
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK-SAME: : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
// CHECK-NOT: "dit.transpose"
// CHECK: return
func.func @flags_negated(%a: tensor<4x64xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<4x64xi8>) -> tensor<64x4xi8>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xi8>) -> tensor<64x128xi8>
  %r = "dit.quant_matmul"(%t1, %t2, %s) {transpose_x1 = true, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<64x4xi8>, tensor<64x128xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// Optional operands (offset, bias) keep their slots.
// CHECK-LABEL: func.func @x2_with_offset_bias
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) {{.*}}operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>, transpose_x1 = false, transpose_x2 = false
// CHECK-SAME: : (tensor<4x64xi8>, tensor<64x128xi8>, tensor<128xf32>, tensor<128xf32>, tensor<128xi32>, tensor<4xf32>) -> tensor<4x128xi8>
// CHECK: return
func.func @x2_with_offset_bias(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>, %o: tensor<128xf32>, %b: tensor<128xi32>, %p: tensor<4xf32>) -> tensor<4x128xi8> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %r = "dit.quant_matmul"(%a, %t, %s, %o, %b, %p) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>, tensor<128xf32>, tensor<128xi32>, tensor<4xf32>) -> tensor<4x128xi8>
  return %r : tensor<4x128xi8>
}

// -----

// ===== scale transposes (seed 001 sections 2.2-2.4) =====

// x1 with its pertoken_scale transpose ([1, M] -> [M, 1]): both bypassed.
// CHECK-LABEL: func.func @x1_with_pertoken_transpose
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2, %arg3) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK-SAME: : (tensor<64x4xi8>, tensor<128x64xi8>, tensor<128xf32>, tensor<1x4xf32>) -> tensor<4x128xf16>
// CHECK-NOT: "dit.transpose"
// CHECK: return
func.func @x1_with_pertoken_transpose(%a: tensor<64x4xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>, %p: tensor<1x4xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  %tp = "dit.transpose"(%p) {perm = array<i64: 1, 0>} : (tensor<1x4xf32>) -> tensor<4x1xf32>
  %r = "dit.quant_matmul"(%t, %w, %s, %tp) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>, tensor<4x1xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// x2 with its scale transpose ([N, 1] -> [1, N]): both bypassed.
// CHECK-LABEL: func.func @x2_with_scale_transpose
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK-SAME: : (tensor<4x64xi8>, tensor<64x128xi8>, tensor<128x1xf32>) -> tensor<4x128xf16>
// CHECK-NOT: "dit.transpose"
// CHECK: return
func.func @x2_with_scale_transpose(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128x1xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %ts = "dit.transpose"(%s) {perm = array<i64: 1, 0>} : (tensor<128x1xf32>) -> tensor<1x128xf32>
  %r = "dit.quant_matmul"(%a, %t, %ts) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<1x128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// Four transposes (section 2.4): all bypassed, both flags flip.
// CHECK-LABEL: func.func @four_transposes
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2, %arg3) {{.*}}transpose_x1 = true, transpose_x2 = false
// CHECK-SAME: : (tensor<64x4xi8>, tensor<64x128xi8>, tensor<128x1xf32>, tensor<1x4xf32>) -> tensor<4x128xf16>
// CHECK-NOT: "dit.transpose"
// CHECK: return
func.func @four_transposes(%a: tensor<64x4xi8>, %w: tensor<64x128xi8>, %s: tensor<128x1xf32>, %p: tensor<1x4xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %ts = "dit.transpose"(%s) {perm = array<i64: 1, 0>} : (tensor<128x1xf32>) -> tensor<1x128xf32>
  %tp = "dit.transpose"(%p) {perm = array<i64: 1, 0>} : (tensor<1x4xf32>) -> tensor<4x1xf32>
  %r = "dit.quant_matmul"(%t1, %t2, %ts, %tp) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<1x128xf32>, tensor<4x1xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// A scale transform is handled only with its data side (section 2.9): x2 has no transpose, so
// the scale transpose stays; x1 still folds.
// CHECK-LABEL: func.func @scale_transpose_without_x2_transpose
// CHECK: %[[TS:.*]] = "dit.transpose"(%arg2) {perm = array<i64: 1, 0>}
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %[[TS]]) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK: return
func.func @scale_transpose_without_x2_transpose(%a: tensor<64x4xi8>, %w: tensor<128x64xi8>, %s: tensor<128x1xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  %ts = "dit.transpose"(%s) {perm = array<i64: 1, 0>} : (tensor<128x1xf32>) -> tensor<1x128xf32>
  %r = "dit.quant_matmul"(%t1, %w, %ts) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<1x128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// Same on the x1 side: pertoken_scale transpose stays when x1 has no transpose.
// CHECK-LABEL: func.func @pertoken_transpose_without_x1_transpose
// CHECK: %[[TP:.*]] = "dit.transpose"(%arg3) {perm = array<i64: 1, 0>}
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2, %[[TP]]) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK: return
func.func @pertoken_transpose_without_x1_transpose(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>, %p: tensor<1x4xf32>) -> tensor<4x128xf16> {
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %tp = "dit.transpose"(%p) {perm = array<i64: 1, 0>} : (tensor<1x4xf32>) -> tensor<4x1xf32>
  %r = "dit.quant_matmul"(%a, %t2, %s, %tp) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>, tensor<4x1xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// ===== batched =====

// 3-D x1, perm [0, 2, 1]: (B, K, M) -> (B, M, K) folds.
// CHECK-LABEL: func.func @batched_3d_x1
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK-SAME: : (tensor<2x64x4xi8>, tensor<2x128x64xi8>, tensor<128xf32>) -> tensor<2x4x128xf16>
// CHECK: return
func.func @batched_3d_x1(%a: tensor<2x64x4xi8>, %w: tensor<2x128x64xi8>, %s: tensor<128xf32>) -> tensor<2x4x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 0, 2, 1>} : (tensor<2x64x4xi8>) -> tensor<2x4x64xi8>
  %r = "dit.quant_matmul"(%t, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<2x4x64xi8>, tensor<2x128x64xi8>, tensor<128xf32>) -> tensor<2x4x128xf16>
  return %r : tensor<2x4x128xf16>
}

// -----

// 4-D x2 (batch dims 2x3), perm [0, 1, 3, 2].
// CHECK-LABEL: func.func @batched_4d_x2
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK-SAME: : (tensor<2x3x4x64xi8>, tensor<2x3x64x128xi8>, tensor<128xf32>) -> tensor<2x3x4x128xf16>
// CHECK: return
func.func @batched_4d_x2(%a: tensor<2x3x4x64xi8>, %w: tensor<2x3x64x128xi8>, %s: tensor<128xf32>) -> tensor<2x3x4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x3x64x128xi8>) -> tensor<2x3x128x64xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<2x3x4x64xi8>, tensor<2x3x128x64xi8>, tensor<128xf32>) -> tensor<2x3x4x128xf16>
  return %r : tensor<2x3x4x128xf16>
}

// -----

// A transpose of batch dims (perm [1, 0, 2]) is outside the rule (section 3.1): no fold.
// CHECK-LABEL: func.func @batch_perm_no_fold
// CHECK: %[[T:.*]] = "dit.transpose"(%arg0) {perm = array<i64: 1, 0, 2>}
// CHECK: "dit.quant_matmul"(%[[T]], %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK: return
func.func @batch_perm_no_fold(%a: tensor<4x2x64xi8>, %w: tensor<2x128x64xi8>, %s: tensor<128xf32>) -> tensor<2x4x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0, 2>} : (tensor<4x2x64xi8>) -> tensor<2x4x64xi8>
  %r = "dit.quant_matmul"(%t, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<2x4x64xi8>, tensor<2x128x64xi8>, tensor<128xf32>) -> tensor<2x4x128xf16>
  return %r : tensor<2x4x128xf16>
}

// -----

// perm [2, 1, 0] swaps the last two dims' contents with the batch dim too: no fold.
// CHECK-LABEL: func.func @reverse_perm_no_fold
// CHECK: %[[T:.*]] = "dit.transpose"(%arg1) {perm = array<i64: 2, 1, 0>}
// CHECK: "dit.quant_matmul"(%arg0, %[[T]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK: return
func.func @reverse_perm_no_fold(%a: tensor<2x4x64xi8>, %w: tensor<64x128x2xi8>, %s: tensor<128xf32>) -> tensor<2x4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 2, 1, 0>} : (tensor<64x128x2xi8>) -> tensor<2x128x64xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<2x4x64xi8>, tensor<2x128x64xi8>, tensor<128xf32>) -> tensor<2x4x128xf16>
  return %r : tensor<2x4x128xf16>
}

// -----

// An identity perm swaps nothing: flipping the flag would change the result. No fold.
// CHECK-LABEL: func.func @identity_perm_no_fold
// CHECK: %[[T:.*]] = "dit.transpose"(%arg1) {perm = array<i64: 0, 1>}
// CHECK: "dit.quant_matmul"(%arg0, %[[T]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK: return
func.func @identity_perm_no_fold(%a: tensor<4x64xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 0, 1>} : (tensor<128x64xi8>) -> tensor<128x64xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// ===== no trigger =====

// No transpose at all: unchanged.
// CHECK-LABEL: func.func @no_transpose
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK-SAME: : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
func.func @no_transpose(%a: tensor<4x64xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %r = "dit.quant_matmul"(%a, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// A reshape alone on a data input never triggers (section 3.1), even when its shapes look like a
// transpose.
// CHECK-LABEL: func.func @reshape_on_data_no_trigger
// CHECK: %[[R:.*]] = "dit.reshape"(%arg1) : (tensor<64x128xi8>) -> tensor<128x64xi8>
// CHECK: "dit.quant_matmul"(%arg0, %[[R]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK: return
func.func @reshape_on_data_no_trigger(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %r0 = "dit.reshape"(%w) : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %r = "dit.quant_matmul"(%a, %r0, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// Data reshape + scale transpose: still no trigger, both stay.
// CHECK-LABEL: func.func @reshape_on_data_scale_transpose_no_trigger
// CHECK-DAG: %[[R:.*]] = "dit.reshape"(%arg1)
// CHECK-DAG: %[[TS:.*]] = "dit.transpose"(%arg2)
// CHECK: "dit.quant_matmul"(%arg0, %[[R]], %[[TS]]) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK: return
func.func @reshape_on_data_scale_transpose_no_trigger(%a: tensor<4x1xi8>, %w: tensor<1x128xi8>, %s: tensor<128x1xf32>) -> tensor<4x128xf16> {
  %r0 = "dit.reshape"(%w) : (tensor<1x128xi8>) -> tensor<128x1xi8>
  %ts = "dit.transpose"(%s) {perm = array<i64: 1, 0>} : (tensor<128x1xf32>) -> tensor<1x128xf32>
  %r = "dit.quant_matmul"(%a, %r0, %ts) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x1xi8>, tensor<128x1xi8>, tensor<1x128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// x1 transposed, x2 reshaped: x1 folds, the x2 reshape stays.
// CHECK-LABEL: func.func @x1_transpose_x2_reshape
// CHECK: %[[R:.*]] = "dit.reshape"(%arg1) : (tensor<64x128xi8>) -> tensor<128x64xi8>
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %[[R]], %arg2) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK: return
func.func @x1_transpose_x2_reshape(%a: tensor<64x4xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  %r0 = "dit.reshape"(%w) : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %r = "dit.quant_matmul"(%t, %r0, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// ===== other users (section 2.1: a bypassed node with other users stays) =====

// The transpose is also returned: the quant_matmul reads its input, the transpose stays.
// CHECK-LABEL: func.func @transpose_second_user
// CHECK: %[[T:.*]] = "dit.transpose"(%arg1) {perm = array<i64: 1, 0>}
// CHECK: %[[Q:.*]] = "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK: return %[[Q]], %[[T]]
func.func @transpose_second_user(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>) -> (tensor<4x128xf16>, tensor<128x64xi8>) {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r, %t : tensor<4x128xf16>, tensor<128x64xi8>
}

// -----

// The scale transpose has a second user: bypassed for the quant_matmul, kept for the return.
// CHECK-LABEL: func.func @scale_transpose_second_user
// CHECK: %[[TS:.*]] = "dit.transpose"(%arg2) {perm = array<i64: 1, 0>}
// CHECK-NOT: "dit.transpose"
// CHECK: %[[Q:.*]] = "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK: return %[[Q]], %[[TS]]
func.func @scale_transpose_second_user(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128x1xf32>) -> (tensor<4x128xf16>, tensor<1x128xf32>) {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %ts = "dit.transpose"(%s) {perm = array<i64: 1, 0>} : (tensor<128x1xf32>) -> tensor<1x128xf32>
  %r = "dit.quant_matmul"(%a, %t, %ts) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<1x128xf32>) -> tensor<4x128xf16>
  return %r, %ts : tensor<4x128xf16>, tensor<1x128xf32>
}

// -----

// One transpose feeds two quant_matmuls: both fold, and then nothing uses it.
// CHECK-LABEL: func.func @transpose_shared_by_two
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK: "dit.quant_matmul"(%arg3, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK-NOT: "dit.transpose"
// CHECK: return
func.func @transpose_shared_by_two(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>, %b: tensor<8x64xi8>) -> (tensor<4x128xf16>, tensor<8x128xf16>) {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  %q = "dit.quant_matmul"(%b, %t, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<8x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<8x128xf16>
  return %r, %q : tensor<4x128xf16>, tensor<8x128xf16>
}

// -----

// ===== dtypes (section 3.1): each legal input and output dtype folds =====

// CHECK-LABEL: func.func @dtype_i4_i4_to_i32
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK-SAME: : (tensor<4x64xi4>, tensor<64x128xi4>, tensor<128xf32>) -> tensor<4x128xi32>
func.func @dtype_i4_i4_to_i32(%a: tensor<4x64xi4>, %w: tensor<64x128xi4>, %s: tensor<128xf32>) -> tensor<4x128xi32> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi4>) -> tensor<128x64xi4>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi4>, tensor<128x64xi4>, tensor<128xf32>) -> tensor<4x128xi32>
  return %r : tensor<4x128xi32>
}

// -----

// i8 x i4 without any bitcast: no s8s4 restriction applies, even on an s8s4 target.
// CHECK-LABEL: func.func @dtype_i8_i4_to_bf16
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK-SAME: : (tensor<4x64xi8>, tensor<64x128xi4>, tensor<128xbf16>) -> tensor<4x128xbf16>
func.func @dtype_i8_i4_to_bf16(%a: tensor<4x64xi8>, %w: tensor<64x128xi4>, %s: tensor<128xbf16>) -> tensor<4x128xbf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi4>) -> tensor<128x64xi4>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi4>, tensor<128xbf16>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// CHECK-LABEL: func.func @dtype_f8e5m2_to_f32
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK-SAME: : (tensor<64x4xf8E5M2>, tensor<128x64xf8E5M2>, tensor<128xf32>) -> tensor<4x128xf32>
func.func @dtype_f8e5m2_to_f32(%a: tensor<64x4xf8E5M2>, %w: tensor<128x64xf8E5M2>, %s: tensor<128xf32>) -> tensor<4x128xf32> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xf8E5M2>) -> tensor<4x64xf8E5M2>
  %r = "dit.quant_matmul"(%t, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E5M2>, tensor<128x64xf8E5M2>, tensor<128xf32>) -> tensor<4x128xf32>
  return %r : tensor<4x128xf32>
}

// -----

// CHECK-LABEL: func.func @dtype_f8e4m3_both_to_bf16
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = false
// CHECK-SAME: : (tensor<64x4xf8E4M3FN>, tensor<64x128xf8E4M3FN>, tensor<128xf32>) -> tensor<4x128xbf16>
func.func @dtype_f8e4m3_both_to_bf16(%a: tensor<64x4xf8E4M3FN>, %w: tensor<64x128xf8E4M3FN>, %s: tensor<128xf32>) -> tensor<4x128xbf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xf8E4M3FN>) -> tensor<4x64xf8E4M3FN>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xf8E4M3FN>) -> tensor<128x64xf8E4M3FN>
  %r = "dit.quant_matmul"(%t1, %t2, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E4M3FN>, tensor<128x64xf8E4M3FN>, tensor<128xf32>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// CSV quant_bmm_v3_with_x2_transpose_fp4: FLOAT4_E2M1 data (MX, e8m0 per-group scale).
// CHECK-LABEL: func.func @cann_quant_bmm_v3_with_x2_transpose_fp4
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK-SAME: : (tensor<4x64xf4E2M1FN>, tensor<64x128xf4E2M1FN>, tensor<2x128xf8E8M0FNU>) -> tensor<4x128xbf16>
func.func @cann_quant_bmm_v3_with_x2_transpose_fp4(%a: tensor<4x64xf4E2M1FN>, %w: tensor<64x128xf4E2M1FN>, %s: tensor<2x128xf8E8M0FNU>) -> tensor<4x128xbf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xf4E2M1FN>) -> tensor<128x64xf4E2M1FN>
  %r = "dit.quant_matmul"(%a, %t, %s) {group_size = 32 : i64, transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf4E2M1FN>, tensor<128x64xf4E2M1FN>, tensor<2x128xf8E8M0FNU>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// ===== 65535 limits of the normal rule (section 3.4) =====

// x1 outer (= M here) 65535: folds everywhere.
// CHECK-LABEL: func.func @x1_outer_65535
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK-SAME: : (tensor<64x65535xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<65535x128xf16>
func.func @x1_outer_65535(%a: tensor<64x65535xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<65535x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x65535xi8>) -> tensor<65535x64xi8>
  %r = "dit.quant_matmul"(%t, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<65535x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<65535x128xf16>
  return %r : tensor<65535x128xf16>
}

// -----

// x1 outer 65536: no fold on A2/A3, folds on 950.
// CHECK-LABEL: func.func @x1_outer_65536
// A2: %[[T:.*]] = "dit.transpose"(%arg0)
// A2: "dit.quant_matmul"(%[[T]], %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// A5-NOT: "dit.transpose"
// A5: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK: return
func.func @x1_outer_65536(%a: tensor<64x65536xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<65536x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x65536xi8>) -> tensor<65536x64xi8>
  %r = "dit.quant_matmul"(%t, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<65536x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<65536x128xf16>
  return %r : tensor<65536x128xf16>
}

// -----

// outer is the quant_matmul input's second-to-last dim, whatever the flag: with
// transpose_x1 = true, x1 is [K, M] = [64, 65536] and outer is K = 64, so it folds everywhere.
// CHECK-LABEL: func.func @x1_transposed_outer_64_inner_65536
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK-SAME: : (tensor<65536x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<65536x128xf16>
func.func @x1_transposed_outer_64_inner_65536(%a: tensor<65536x64xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<65536x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<65536x64xi8>) -> tensor<64x65536xi8>
  %r = "dit.quant_matmul"(%t, %w, %s) {transpose_x1 = true, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<64x65536xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<65536x128xf16>
  return %r : tensor<65536x128xf16>
}

// -----

// ... and with transpose_x1 = true, x1 = [K, M] = [65536, 4]: outer 65536, no fold on A2.
// CHECK-LABEL: func.func @x1_transposed_outer_65536
// A2: %[[T:.*]] = "dit.transpose"(%arg0)
// A2: "dit.quant_matmul"(%[[T]], %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = true
// A5-NOT: "dit.transpose"
// A5: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK: return
func.func @x1_transposed_outer_65536(%a: tensor<4x65536xi8>, %w: tensor<128x65536xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<4x65536xi8>) -> tensor<65536x4xi8>
  %r = "dit.quant_matmul"(%t, %w, %s) {transpose_x1 = true, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<65536x4xi8>, tensor<128x65536xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// x2 outer (= K with transpose_x2 = false) 65535: folds everywhere.
// CHECK-LABEL: func.func @x2_outer_65535
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK-SAME: : (tensor<4x65535xi8>, tensor<128x65535xi8>, tensor<128xf32>) -> tensor<4x128xf16>
func.func @x2_outer_65535(%a: tensor<4x65535xi8>, %w: tensor<128x65535xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x65535xi8>) -> tensor<65535x128xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x65535xi8>, tensor<65535x128xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// x2 outer 65536 (ND): no fold on A2/A3, folds on 950.
// CHECK-LABEL: func.func @x2_outer_65536
// A2: %[[T:.*]] = "dit.transpose"(%arg1)
// A2: "dit.quant_matmul"(%arg0, %[[T]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// A5-NOT: "dit.transpose"
// A5: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK: return
func.func @x2_outer_65536(%a: tensor<4x65536xi8>, %w: tensor<128x65536xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x65536xi8>) -> tensor<65536x128xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x65536xi8>, tensor<65536x128xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// x2 with transpose_x2 = true: x2 = [N, K] = [65536, 64], outer N = 65536: no fold on A2/A3.
// CHECK-LABEL: func.func @x2_transposed_outer_65536
// A2: %[[T:.*]] = "dit.transpose"(%arg1)
// A2: "dit.quant_matmul"(%arg0, %[[T]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// A5-NOT: "dit.transpose"
// A5: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK: return
func.func @x2_transposed_outer_65536(%a: tensor<4x64xi8>, %w: tensor<64x65536xi8>, %s: tensor<65536xf32>) -> tensor<4x65536xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x65536xi8>) -> tensor<65536x64xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<65536x64xi8>, tensor<65536xf32>) -> tensor<4x65536xf16>
  return %r : tensor<4x65536xf16>
}

// -----

// A large inner dim does not matter to the normal rule: x2 = [128, 70000], outer 128.
// CHECK-LABEL: func.func @x2_inner_70000
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK-SAME: : (tensor<4x128xi8>, tensor<70000x128xi8>, tensor<70000xf32>) -> tensor<4x70000xf16>
func.func @x2_inner_70000(%a: tensor<4x128xi8>, %w: tensor<70000x128xi8>, %s: tensor<70000xf32>) -> tensor<4x70000xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<70000x128xi8>) -> tensor<128x70000xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x128xi8>, tensor<128x70000xi8>, tensor<70000xf32>) -> tensor<4x70000xf16>
  return %r : tensor<4x70000xf16>
}

// -----

// x2 outer 65536 in FRACTAL_NZ: the normal rule folds x2 on every target.
// CHECK-LABEL: func.func @x2_nz_outer_65536
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true, x2_format = "FRACTAL_NZ"
// CHECK-SAME: : (tensor<4x65536xi8>, tensor<128x65536xi8>, tensor<128xf32>) -> tensor<4x128xf16>
func.func @x2_nz_outer_65536(%a: tensor<4x65536xi8>, %w: tensor<128x65536xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x65536xi8>) -> tensor<65536x128xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, x2_format = "FRACTAL_NZ", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x65536xi8>, tensor<65536x128xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// FRACTAL_NZ relaxes x2 only: x1 outer 65536 stays on A2/A3 while x2 (outer 65536, NZ) folds.
// CHECK-LABEL: func.func @nz_does_not_relax_x1
// A2: %[[T1:.*]] = "dit.transpose"(%arg0)
// A2-NOT: "dit.transpose"
// A2: "dit.quant_matmul"(%[[T1]], %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true, x2_format = "FRACTAL_NZ"
// A5-NOT: "dit.transpose"
// A5: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = true, x2_format = "FRACTAL_NZ"
// CHECK: return
func.func @nz_does_not_relax_x1(%a: tensor<65536x65536xi8>, %w: tensor<128x65536xi8>, %s: tensor<128xf32>) -> tensor<65536x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<65536x65536xi8>) -> tensor<65536x65536xi8>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x65536xi8>) -> tensor<65536x128xi8>
  %r = "dit.quant_matmul"(%t1, %t2, %s) {transpose_x1 = false, transpose_x2 = false, x2_format = "FRACTAL_NZ", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<65536x65536xi8>, tensor<65536x128xi8>, tensor<128xf32>) -> tensor<65536x128xf16>
  return %r : tensor<65536x128xf16>
}

// -----

// Each side is decided on its own: x1 (outer 65536) and its pertoken_scale transpose stay on
// A2/A3; x2 and its scale transpose fold.
// CHECK-LABEL: func.func @sides_independent
// A2-DAG: %[[T1:.*]] = "dit.transpose"(%arg0)
// A2-DAG: %[[TP:.*]] = "dit.transpose"(%arg3)
// A2-NOT: "dit.transpose"
// A2: "dit.quant_matmul"(%[[T1]], %arg1, %arg2, %[[TP]]) {{.*}}transpose_x1 = false, transpose_x2 = false
// A5-NOT: "dit.transpose"
// A5: "dit.quant_matmul"(%arg0, %arg1, %arg2, %arg3) {{.*}}transpose_x1 = true, transpose_x2 = false
// CHECK: return
func.func @sides_independent(%a: tensor<64x65536xi8>, %w: tensor<64x128xi8>, %s: tensor<128x1xf32>, %p: tensor<1x65536xf32>) -> tensor<65536x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x65536xi8>) -> tensor<65536x64xi8>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %ts = "dit.transpose"(%s) {perm = array<i64: 1, 0>} : (tensor<128x1xf32>) -> tensor<1x128xf32>
  %tp = "dit.transpose"(%p) {perm = array<i64: 1, 0>} : (tensor<1x65536xf32>) -> tensor<65536x1xf32>
  %r = "dit.quant_matmul"(%t1, %t2, %ts, %tp) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<65536x64xi8>, tensor<128x64xi8>, tensor<1x128xf32>, tensor<65536x1xf32>) -> tensor<65536x128xf16>
  return %r : tensor<65536x128xf16>
}

// -----

// ===== FRACTAL_NZ =====

// CSV quant_bmm_v3_x2_nz_format: x2 in FRACTAL_NZ folds under the normal rule; the format stays.
// CHECK-LABEL: func.func @cann_quant_bmm_v3_x2_nz_format
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false, x2_format = "FRACTAL_NZ"
// CHECK-SAME: : (tensor<4x64xi8>, tensor<64x128xi8>, tensor<128xf32>) -> tensor<4x128xf16>
func.func @cann_quant_bmm_v3_x2_nz_format(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = true, x2_format = "FRACTAL_NZ", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// ===== dynamic shapes =====

// CSV quant_bmm_v3_with_x1_transpose (shapes -1 -1): SUCCESS, no transpose left, transpose_x1 = 1.
// CHECK-LABEL: func.func @cann_quant_bmm_v3_with_x1_transpose
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = false
// CHECK-SAME: : (tensor<?x?xi8>, tensor<?x?xi8>, tensor<?xf32>) -> tensor<?x?xf16>
func.func @cann_quant_bmm_v3_with_x1_transpose(%a: tensor<?x?xi8>, %w: tensor<?x?xi8>, %s: tensor<?xf32>) -> tensor<?x?xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<?x?xi8>) -> tensor<?x?xi8>
  %r = "dit.quant_matmul"(%t, %w, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<?x?xi8>, tensor<?x?xi8>, tensor<?xf32>) -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}

// -----

// CSV quant_bmm_v3_with_x2_transpose (shapes -1 -1): transpose_x2 = 1.
// CHECK-LABEL: func.func @cann_quant_bmm_v3_with_x2_transpose
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK-SAME: : (tensor<?x?xi8>, tensor<?x?xi8>, tensor<?xf32>) -> tensor<?x?xf16>
func.func @cann_quant_bmm_v3_with_x2_transpose(%a: tensor<?x?xi8>, %w: tensor<?x?xi8>, %s: tensor<?xf32>) -> tensor<?x?xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<?x?xi8>) -> tensor<?x?xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<?x?xi8>, tensor<?x?xi8>, tensor<?xf32>) -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}

// -----

// CSV quant_bmm_v3_with_both_transpose (shapes -1 -1): both flags 1.
// CHECK-LABEL: func.func @cann_quant_bmm_v3_with_both_transpose
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK-SAME: : (tensor<?x?xi8>, tensor<?x?xi8>, tensor<?xf32>) -> tensor<?x?xf16>
func.func @cann_quant_bmm_v3_with_both_transpose(%a: tensor<?x?xi8>, %w: tensor<?x?xi8>, %s: tensor<?xf32>) -> tensor<?x?xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<?x?xi8>) -> tensor<?x?xi8>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<?x?xi8>) -> tensor<?x?xi8>
  %r = "dit.quant_matmul"(%t1, %t2, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<?x?xi8>, tensor<?x?xi8>, tensor<?xf32>) -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}

// -----

// CSV quant_bmm_v3_with_x1_transpose_3d: (B, M, K) from (B, K, M), batch dynamic.
// CHECK-LABEL: func.func @cann_quant_bmm_v3_with_x1_transpose_3d
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = false
// CHECK-SAME: : (tensor<?x64x16xi8>, tensor<?x64x32xi8>, tensor<32xf32>) -> tensor<?x16x32xbf16>
func.func @cann_quant_bmm_v3_with_x1_transpose_3d(%a: tensor<?x64x16xi8>, %w: tensor<?x64x32xi8>, %s: tensor<32xf32>) -> tensor<?x16x32xbf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 0, 2, 1>} : (tensor<?x64x16xi8>) -> tensor<?x16x64xi8>
  %r = "dit.quant_matmul"(%t, %w, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<?x16x64xi8>, tensor<?x64x32xi8>, tensor<32xf32>) -> tensor<?x16x32xbf16>
  return %r : tensor<?x16x32xbf16>
}

// -----

// CSV quant_bmm_v3_with_both_transpose_3d.
// CHECK-LABEL: func.func @cann_quant_bmm_v3_with_both_transpose_3d
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK-SAME: : (tensor<2x64x16xi8>, tensor<2x32x64xi8>, tensor<32xf32>) -> tensor<2x16x32xbf16>
func.func @cann_quant_bmm_v3_with_both_transpose_3d(%a: tensor<2x64x16xi8>, %w: tensor<2x32x64xi8>, %s: tensor<32xf32>) -> tensor<2x16x32xbf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 0, 2, 1>} : (tensor<2x64x16xi8>) -> tensor<2x16x64xi8>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 0, 2, 1>} : (tensor<2x32x64xi8>) -> tensor<2x64x32xi8>
  %r = "dit.quant_matmul"(%t1, %t2, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<2x16x64xi8>, tensor<2x64x32xi8>, tensor<32xf32>) -> tensor<2x16x32xbf16>
  return %r : tensor<2x16x32xbf16>
}

// -----

// A dynamic outer dim counts as allowed by the normal rule (CANN compares -1 <= 65535), also on
// A2/A3; the large static inner dim is irrelevant.
// CHECK-LABEL: func.func @x1_dynamic_outer
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK-SAME: : (tensor<70000x?xi8>, tensor<128x70000xi8>, tensor<128xf32>) -> tensor<?x128xf16>
func.func @x1_dynamic_outer(%a: tensor<70000x?xi8>, %w: tensor<128x70000xi8>, %s: tensor<128xf32>) -> tensor<?x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<70000x?xi8>) -> tensor<?x70000xi8>
  %r = "dit.quant_matmul"(%t, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<?x70000xi8>, tensor<128x70000xi8>, tensor<128xf32>) -> tensor<?x128xf16>
  return %r : tensor<?x128xf16>
}

// -----

// Same for x2 (ND): x2 = [N, K] = [?, 128], outer N dynamic.
// CHECK-LABEL: func.func @x2_dynamic_outer
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK-SAME: : (tensor<4x128xi8>, tensor<128x?xi8>, tensor<?xf32>) -> tensor<4x?xf16>
func.func @x2_dynamic_outer(%a: tensor<4x128xi8>, %w: tensor<128x?xi8>, %s: tensor<?xf32>) -> tensor<4x?xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x?xi8>) -> tensor<?x128xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x128xi8>, tensor<?x128xi8>, tensor<?xf32>) -> tensor<4x?xf16>
  return %r : tensor<4x?xf16>
}

// -----

// ===== scale reshapes: condition A (section 3.3) =====

// CSV quant_bmm_v3_with_reshape_transpose (Reshape (1,128)): x1 and x2 transposed, both scales
// reshaped. K = 1, so the last two dims of x1 [4, 1] and x2 [1, 128] have a 1: all four go.
// CHECK-LABEL: func.func @cann_quant_bmm_v3_with_reshape_transpose
// CHECK-NOT: "dit.transpose"
// CHECK-NOT: "dit.reshape"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2, %arg3) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK-SAME: : (tensor<1x4xi8>, tensor<128x1xi8>, tensor<128x1xf32>, tensor<1x4xf32>) -> tensor<4x128xf16>
// CHECK-NOT: "dit.transpose"
// CHECK-NOT: "dit.reshape"
// CHECK: return
func.func @cann_quant_bmm_v3_with_reshape_transpose(%a: tensor<1x4xi8>, %w: tensor<128x1xi8>, %s: tensor<128x1xf32>, %p: tensor<1x4xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<1x4xi8>) -> tensor<4x1xi8>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x1xi8>) -> tensor<1x128xi8>
  %rs = "dit.reshape"(%s) : (tensor<128x1xf32>) -> tensor<1x128xf32>
  %rp = "dit.reshape"(%p) : (tensor<1x4xf32>) -> tensor<4x1xf32>
  %r = "dit.quant_matmul"(%t1, %t2, %rs, %rp) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<4x1xi8>, tensor<1x128xi8>, tensor<1x128xf32>, tensor<4x1xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// CSV quant_bmm_v3_with_reshape_known_shape (Reshape (1,16), scale from reshape_scale_from =
// scale): x2 = [N, K] = [16, 1] has a 1; the static scale reshape [16, 1] -> [1, 16] goes.
// CHECK-LABEL: func.func @cann_quant_bmm_v3_with_reshape_known_shape
// CHECK-NOT: "dit.transpose"
// CHECK-NOT: "dit.reshape"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK-SAME: : (tensor<4x1xi8>, tensor<1x16xi8>, tensor<16x1xf32>) -> tensor<4x16xf16>
// CHECK: return
func.func @cann_quant_bmm_v3_with_reshape_known_shape(%a: tensor<4x1xi8>, %w: tensor<1x16xi8>, %s: tensor<16x1xf32>) -> tensor<4x16xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<1x16xi8>) -> tensor<16x1xi8>
  %rs = "dit.reshape"(%s) : (tensor<16x1xf32>) -> tensor<1x16xf32>
  %r = "dit.quant_matmul"(%a, %t, %rs) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x1xi8>, tensor<16x1xi8>, tensor<1x16xf32>) -> tensor<4x16xf16>
  return %r : tensor<4x16xf16>
}

// -----

// CSV quant_bmm_v3_reshape_last_dim_1x2 (shape 1 16): x1 side. x1 = [16, 1] (K = 1) comes from
// a 1x16 transpose; the pertoken_scale reshape 1x16 -> 16x1 meets condition A and goes.
// CHECK-LABEL: func.func @cann_quant_bmm_v3_reshape_last_dim_1x2
// CHECK-NOT: "dit.transpose"
// CHECK-NOT: "dit.reshape"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2, %arg3) {{.*}}transpose_x1 = true, transpose_x2 = false
// CHECK-SAME: : (tensor<1x16xi8>, tensor<1x128xi8>, tensor<128xf32>, tensor<1x16xf32>) -> tensor<16x128xf16>
// CHECK: return
func.func @cann_quant_bmm_v3_reshape_last_dim_1x2(%a: tensor<1x16xi8>, %w: tensor<1x128xi8>, %s: tensor<128xf32>, %p: tensor<1x16xf32>) -> tensor<16x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<1x16xi8>) -> tensor<16x1xi8>
  %rp = "dit.reshape"(%p) : (tensor<1x16xf32>) -> tensor<16x1xf32>
  %r = "dit.quant_matmul"(%t, %w, %s, %rp) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<16x1xi8>, tensor<1x128xi8>, tensor<128xf32>, tensor<16x1xf32>) -> tensor<16x128xf16>
  return %r : tensor<16x128xf16>
}

// -----

// Condition A is about the scale input the reshape feeds (CANN's IsReshapeTrans), not x2: x2 =
// [64, 128] has no 1, but the scale input [1, 128] does, so the reshape goes with x2.
// CHECK-LABEL: func.func @scale_reshape_condition_a_on_scale
// CHECK-NOT: "dit.transpose"
// CHECK-NOT: "dit.reshape"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK-SAME: : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128x1xf32>) -> tensor<4x128xf16>
// CHECK: return
func.func @scale_reshape_condition_a_on_scale(%a: tensor<4x64xi8>, %w: tensor<128x64xi8>, %s: tensor<128x1xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xi8>) -> tensor<64x128xi8>
  %rs = "dit.reshape"(%s) : (tensor<128x1xf32>) -> tensor<1x128xf32>
  %r = "dit.quant_matmul"(%a, %t, %rs) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<64x128xi8>, tensor<1x128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// Same on the x1 side: x1 = [4, 64] has no 1, the pertoken_scale input [4, 1] does: the
// reshape goes with x1.
// CHECK-LABEL: func.func @pertoken_reshape_condition_a_on_scale
// CHECK-NOT: "dit.transpose"
// CHECK-NOT: "dit.reshape"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2, %arg3) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK: return
func.func @pertoken_reshape_condition_a_on_scale(%a: tensor<64x4xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>, %p: tensor<1x4xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  %rp = "dit.reshape"(%p) : (tensor<1x4xf32>) -> tensor<4x1xf32>
  %r = "dit.quant_matmul"(%t, %w, %s, %rp) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>, tensor<4x1xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// Condition A holds, but the data side does not fold on A2/A3 (x1 outer 65536): the pertoken
// reshape stays with it. On 950 both go.
// CHECK-LABEL: func.func @condition_a_data_side_blocked
// A2-DAG: %[[T:.*]] = "dit.transpose"(%arg0)
// A2-DAG: %[[RP:.*]] = "dit.reshape"(%arg3)
// A2: "dit.quant_matmul"(%[[T]], %arg1, %arg2, %[[RP]]) {{.*}}transpose_x1 = false, transpose_x2 = false
// A5-NOT: "dit.transpose"
// A5-NOT: "dit.reshape"
// A5: "dit.quant_matmul"(%arg0, %arg1, %arg2, %arg3) {{.*}}transpose_x1 = true, transpose_x2 = false
// CHECK: return
func.func @condition_a_data_side_blocked(%a: tensor<1x65536xi8>, %w: tensor<1x128xi8>, %s: tensor<128xf32>, %p: tensor<1x65536xf32>) -> tensor<65536x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<1x65536xi8>) -> tensor<65536x1xi8>
  %rp = "dit.reshape"(%p) : (tensor<1x65536xf32>) -> tensor<65536x1xf32>
  %r = "dit.quant_matmul"(%t, %w, %s, %rp) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<65536x1xi8>, tensor<1x128xi8>, tensor<128xf32>, tensor<65536x1xf32>) -> tensor<65536x128xf16>
  return %r : tensor<65536x128xf16>
}

// -----

// ===== scale reshapes: condition B, MX f8E8M0FNU (section 2.6) =====

// CSV quant_bmm_v3_with_reshape_transpose_mx: x2 transposed, e8m0 scale reshape (1, N, 2) ->
// (N, 1, 2). x2 = [64, 128] has no 1, so only condition B lets the reshape go.
// CHECK-LABEL: func.func @cann_quant_bmm_v3_with_reshape_transpose_mx
// CHECK-NOT: "dit.transpose"
// CHECK-NOT: "dit.reshape"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK-SAME: : (tensor<64x4xf8E4M3FN>, tensor<128x64xf8E4M3FN>, tensor<1x128x2xf8E8M0FNU>) -> tensor<4x128xbf16>
// CHECK: return
func.func @cann_quant_bmm_v3_with_reshape_transpose_mx(%a: tensor<64x4xf8E4M3FN>, %w: tensor<128x64xf8E4M3FN>, %s: tensor<1x128x2xf8E8M0FNU>) -> tensor<4x128xbf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xf8E4M3FN>) -> tensor<4x64xf8E4M3FN>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xf8E4M3FN>) -> tensor<64x128xf8E4M3FN>
  %rs = "dit.reshape"(%s) : (tensor<1x128x2xf8E8M0FNU>) -> tensor<128x1x2xf8E8M0FNU>
  %r = "dit.quant_matmul"(%t1, %t2, %rs) {group_size = 32 : i64, transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E4M3FN>, tensor<64x128xf8E4M3FN>, tensor<128x1x2xf8E8M0FNU>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// CSV quant_bmm_v3_with_reshape_mx_scale_3d (scale 1 120 2, f8E8M0): here the reshape goes
// (120, 1, 2) -> (1, 120, 2), the unit dim being the input's dim 1.
// CHECK-LABEL: func.func @cann_quant_bmm_v3_with_reshape_mx_scale_3d
// CHECK-NOT: "dit.transpose"
// CHECK-NOT: "dit.reshape"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK-SAME: : (tensor<4x64xf8E4M3FN>, tensor<120x64xf8E4M3FN>, tensor<120x1x2xf8E8M0FNU>) -> tensor<4x120xbf16>
// CHECK: return
func.func @cann_quant_bmm_v3_with_reshape_mx_scale_3d(%a: tensor<4x64xf8E4M3FN>, %w: tensor<120x64xf8E4M3FN>, %s: tensor<120x1x2xf8E8M0FNU>) -> tensor<4x120xbf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<120x64xf8E4M3FN>) -> tensor<64x120xf8E4M3FN>
  %rs = "dit.reshape"(%s) : (tensor<120x1x2xf8E8M0FNU>) -> tensor<1x120x2xf8E8M0FNU>
  %r = "dit.quant_matmul"(%a, %t, %rs) {group_size = 32 : i64, transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E4M3FN>, tensor<64x120xf8E4M3FN>, tensor<1x120x2xf8E8M0FNU>) -> tensor<4x120xbf16>
  return %r : tensor<4x120xbf16>
}

// -----

// CSV quant_bmm_v3_mx_reshape_dim0_eq_1: (1, N, 2) -> (N, 1, 2), x2 only, f4E2M1FN data.
// CHECK-LABEL: func.func @cann_quant_bmm_v3_mx_reshape_dim0_eq_1
// CHECK-NOT: "dit.transpose"
// CHECK-NOT: "dit.reshape"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK-SAME: : (tensor<4x64xf4E2M1FN>, tensor<128x64xf4E2M1FN>, tensor<1x128x2xf8E8M0FNU>) -> tensor<4x128xbf16>
// CHECK: return
func.func @cann_quant_bmm_v3_mx_reshape_dim0_eq_1(%a: tensor<4x64xf4E2M1FN>, %w: tensor<128x64xf4E2M1FN>, %s: tensor<1x128x2xf8E8M0FNU>) -> tensor<4x128xbf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xf4E2M1FN>) -> tensor<64x128xf4E2M1FN>
  %rs = "dit.reshape"(%s) : (tensor<1x128x2xf8E8M0FNU>) -> tensor<128x1x2xf8E8M0FNU>
  %r = "dit.quant_matmul"(%a, %t, %rs) {group_size = 32 : i64, transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf4E2M1FN>, tensor<64x128xf4E2M1FN>, tensor<128x1x2xf8E8M0FNU>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// Condition B on the x1 side: MX pertoken_scale (1, M, 2) -> (M, 1, 2), x1 = [4, 64].
// CHECK-LABEL: func.func @mx_pertoken_reshape_x1
// CHECK-NOT: "dit.transpose"
// CHECK-NOT: "dit.reshape"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2, %arg3) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK-SAME: : (tensor<64x4xf8E4M3FN>, tensor<128x64xf8E4M3FN>, tensor<128x1x2xf8E8M0FNU>, tensor<1x4x2xf8E8M0FNU>) -> tensor<4x128xbf16>
// CHECK: return
func.func @mx_pertoken_reshape_x1(%a: tensor<64x4xf8E4M3FN>, %w: tensor<128x64xf8E4M3FN>, %s: tensor<128x1x2xf8E8M0FNU>, %p: tensor<1x4x2xf8E8M0FNU>) -> tensor<4x128xbf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xf8E4M3FN>) -> tensor<4x64xf8E4M3FN>
  %rp = "dit.reshape"(%p) : (tensor<1x4x2xf8E8M0FNU>) -> tensor<4x1x2xf8E8M0FNU>
  %r = "dit.quant_matmul"(%t, %w, %s, %rp) {group_size = 32 : i64, transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<4x64xf8E4M3FN>, tensor<128x64xf8E4M3FN>, tensor<128x1x2xf8E8M0FNU>, tensor<4x1x2xf8E8M0FNU>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// e8m0 (2, N, 2) -> (N, 2, 2): first two dims swapped but neither is 1 -> B fails, A fails
// (x2 [64, 128]): reshape stays, x2 folds.
// CHECK-LABEL: func.func @mx_reshape_no_unit_dim
// CHECK: %[[RS:.*]] = "dit.reshape"(%arg2)
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %[[RS]]) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK: return
func.func @mx_reshape_no_unit_dim(%a: tensor<4x64xf8E4M3FN>, %w: tensor<128x64xf8E4M3FN>, %s: tensor<2x128x2xf8E8M0FNU>) -> tensor<4x128xbf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xf8E4M3FN>) -> tensor<64x128xf8E4M3FN>
  %rs = "dit.reshape"(%s) : (tensor<2x128x2xf8E8M0FNU>) -> tensor<128x2x2xf8E8M0FNU>
  %r = "dit.quant_matmul"(%a, %t, %rs) {group_size = 32 : i64, transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E4M3FN>, tensor<64x128xf8E4M3FN>, tensor<128x2x2xf8E8M0FNU>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// Condition B needs f8E8M0FNU, but condition A does not look at the dtype: the same
// (1, N, 2) -> (N, 1, 2) reshape of an f32 scale feeds a scale input whose last two dims
// (1, 2) have a 1, and only moves a size-1 dim: it goes by condition A.
// CHECK-LABEL: func.func @mx_shape_reshape_not_e8m0
// CHECK-NOT: "dit.transpose"
// CHECK-NOT: "dit.reshape"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK: return
func.func @mx_shape_reshape_not_e8m0(%a: tensor<4x64xf8E4M3FN>, %w: tensor<128x64xf8E4M3FN>, %s: tensor<1x128x2xf32>) -> tensor<4x128xbf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xf8E4M3FN>) -> tensor<64x128xf8E4M3FN>
  %rs = "dit.reshape"(%s) : (tensor<1x128x2xf32>) -> tensor<128x1x2xf32>
  %r = "dit.quant_matmul"(%a, %t, %rs) {group_size = 32 : i64, transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E4M3FN>, tensor<64x128xf8E4M3FN>, tensor<128x1x2xf32>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// Condition B needs the first two dims swapped: (1, N, 2) -> (2, N, 1) is not that: stays.
// CHECK-LABEL: func.func @mx_reshape_not_a_swap
// CHECK: %[[RS:.*]] = "dit.reshape"(%arg2)
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %[[RS]]) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK: return
func.func @mx_reshape_not_a_swap(%a: tensor<4x64xf8E4M3FN>, %w: tensor<128x64xf8E4M3FN>, %s: tensor<1x128x2xf8E8M0FNU>) -> tensor<4x128xbf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xf8E4M3FN>) -> tensor<64x128xf8E4M3FN>
  %rs = "dit.reshape"(%s) : (tensor<1x128x2xf8E8M0FNU>) -> tensor<2x128x1xf8E8M0FNU>
  %r = "dit.quant_matmul"(%a, %t, %rs) {group_size = 32 : i64, transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E4M3FN>, tensor<64x128xf8E4M3FN>, tensor<2x128x1xf8E8M0FNU>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// Condition B needs rank 3 on both sides, so a 2-D e8m0 reshape (1, N) -> (N, 1) is no B; its
// scale input (N, 1) meets condition A, which takes any dtype: it goes.
// CHECK-LABEL: func.func @mx_reshape_rank2
// CHECK-NOT: "dit.transpose"
// CHECK-NOT: "dit.reshape"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK: return
func.func @mx_reshape_rank2(%a: tensor<4x64xf8E4M3FN>, %w: tensor<128x64xf8E4M3FN>, %s: tensor<1x128xf8E8M0FNU>) -> tensor<4x128xbf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xf8E4M3FN>) -> tensor<64x128xf8E4M3FN>
  %rs = "dit.reshape"(%s) : (tensor<1x128xf8E8M0FNU>) -> tensor<128x1xf8E8M0FNU>
  %r = "dit.quant_matmul"(%a, %t, %rs) {group_size = 32 : i64, transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E4M3FN>, tensor<64x128xf8E4M3FN>, tensor<128x1xf8E8M0FNU>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// ===== scale reshapes: dynamic (section 2.8) =====

// x1 has a dynamic dim: the static checks are skipped, so the scale reshape (which fails
// condition A statically: its scale input [128] is 1-D) goes with x2.
// CHECK-LABEL: func.func @dynamic_scale_reshape
// CHECK-NOT: "dit.transpose"
// CHECK-NOT: "dit.reshape"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK-SAME: : (tensor<?x64xi8>, tensor<128x64xi8>, tensor<1x128xf32>) -> tensor<?x128xf16>
// CHECK: return
func.func @dynamic_scale_reshape(%a: tensor<?x64xi8>, %w: tensor<128x64xi8>, %s: tensor<1x128xf32>) -> tensor<?x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xi8>) -> tensor<64x128xi8>
  %rs = "dit.reshape"(%s) : (tensor<1x128xf32>) -> tensor<128xf32>
  %r = "dit.quant_matmul"(%a, %t, %rs) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<?x64xi8>, tensor<64x128xi8>, tensor<128xf32>) -> tensor<?x128xf16>
  return %r : tensor<?x128xf16>
}

// -----

// Dynamic x1 side: x1 [?, 64] transposed, pertoken_scale reshape [1, ?] -> [?, 1] goes too.
// CHECK-LABEL: func.func @dynamic_pertoken_reshape
// CHECK-NOT: "dit.transpose"
// CHECK-NOT: "dit.reshape"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2, %arg3) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK-SAME: : (tensor<64x?xi8>, tensor<128x64xi8>, tensor<128xf32>, tensor<1x?xf32>) -> tensor<?x128xf16>
// CHECK: return
func.func @dynamic_pertoken_reshape(%a: tensor<64x?xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>, %p: tensor<1x?xf32>) -> tensor<?x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x?xi8>) -> tensor<?x64xi8>
  %rp = "dit.reshape"(%p) : (tensor<1x?xf32>) -> tensor<?x1xf32>
  %r = "dit.quant_matmul"(%t, %w, %s, %rp) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<?x64xi8>, tensor<128x64xi8>, tensor<128xf32>, tensor<?x1xf32>) -> tensor<?x128xf16>
  return %r : tensor<?x128xf16>
}

// -----

// Section 2.8 example: dynamic x2 side, x2 transpose and scale reshape both go, x1 untouched.
// CHECK-LABEL: func.func @dynamic_x2_scale_reshape
// CHECK-NOT: "dit.transpose"
// CHECK-NOT: "dit.reshape"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK-SAME: : (tensor<?x64xi8>, tensor<64x?xi8>, tensor<?x1xf32>) -> tensor<?x?xf16>
// CHECK: return
func.func @dynamic_x2_scale_reshape(%a: tensor<?x64xi8>, %w: tensor<64x?xi8>, %s: tensor<?x1xf32>) -> tensor<?x?xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x?xi8>) -> tensor<?x64xi8>
  %rs = "dit.reshape"(%s) : (tensor<?x1xf32>) -> tensor<1x?xf32>
  %r = "dit.quant_matmul"(%a, %t, %rs) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<?x64xi8>, tensor<?x64xi8>, tensor<1x?xf32>) -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}

// -----

// ===== bitcast (sections 2.7, 3.2) =====

// transpose -> bitcast -> x2: the bitcast stays and now reads the transpose's input, with the
// untransposed shape. On the s8s4 target the whole node is kept.
// CHECK-LABEL: func.func @bitcast_x2
// NOS4-NOT: "dit.transpose"
// NOS4: %[[B:.*]] = "dit.bitcast"(%arg1) : (tensor<128x64xi8>) -> tensor<128x64xf8E4M3FN>
// NOS4-NOT: "dit.transpose"
// NOS4: "dit.quant_matmul"(%arg0, %[[B]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// NOS4-SAME: : (tensor<4x64xf8E4M3FN>, tensor<128x64xf8E4M3FN>, tensor<128xf32>) -> tensor<4x128xbf16>
// S4: %[[T:.*]] = "dit.transpose"(%arg1)
// S4: %[[B:.*]] = "dit.bitcast"(%[[T]]) : (tensor<64x128xi8>) -> tensor<64x128xf8E4M3FN>
// S4: "dit.quant_matmul"(%arg0, %[[B]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK: return
func.func @bitcast_x2(%a: tensor<4x64xf8E4M3FN>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xbf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xi8>) -> tensor<64x128xi8>
  %b = "dit.bitcast"(%t) : (tensor<64x128xi8>) -> tensor<64x128xf8E4M3FN>
  %r = "dit.quant_matmul"(%a, %b, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E4M3FN>, tensor<64x128xf8E4M3FN>, tensor<128xf32>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// x1 side, i4 <-> f4E2M1FN.
// CHECK-LABEL: func.func @bitcast_x1_i4_f4
// NOS4-NOT: "dit.transpose"
// NOS4: %[[B:.*]] = "dit.bitcast"(%arg0) : (tensor<64x4xi4>) -> tensor<64x4xf4E2M1FN>
// NOS4: "dit.quant_matmul"(%[[B]], %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = true
// NOS4-SAME: : (tensor<64x4xf4E2M1FN>, tensor<128x64xf4E2M1FN>, tensor<128xf32>) -> tensor<4x128xbf16>
// S4: %[[T:.*]] = "dit.transpose"(%arg0)
// S4: %[[B:.*]] = "dit.bitcast"(%[[T]])
// S4: "dit.quant_matmul"(%[[B]], %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK: return
func.func @bitcast_x1_i4_f4(%a: tensor<64x4xi4>, %w: tensor<128x64xf4E2M1FN>, %s: tensor<128xf32>) -> tensor<4x128xbf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi4>) -> tensor<4x64xi4>
  %b = "dit.bitcast"(%t) : (tensor<4x64xi4>) -> tensor<4x64xf4E2M1FN>
  %r = "dit.quant_matmul"(%b, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf4E2M1FN>, tensor<128x64xf4E2M1FN>, tensor<128xf32>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// Scale transpose -> bitcast (i32 -> f32), x2 transposed directly.
// CHECK-LABEL: func.func @bitcast_scale
// NOS4-NOT: "dit.transpose"
// NOS4: %[[B:.*]] = "dit.bitcast"(%arg2) : (tensor<128x1xi32>) -> tensor<128x1xf32>
// NOS4-NOT: "dit.transpose"
// NOS4: "dit.quant_matmul"(%arg0, %arg1, %[[B]]) {{.*}}transpose_x1 = false, transpose_x2 = false
// NOS4-SAME: : (tensor<4x64xi8>, tensor<64x128xi8>, tensor<128x1xf32>) -> tensor<4x128xf16>
// S4-DAG: %[[T:.*]] = "dit.transpose"(%arg1)
// S4-DAG: %[[TS:.*]] = "dit.transpose"(%arg2)
// S4: %[[B:.*]] = "dit.bitcast"(%[[TS]])
// S4: "dit.quant_matmul"(%arg0, %[[T]], %[[B]]) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK: return
func.func @bitcast_scale(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128x1xi32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %ts = "dit.transpose"(%s) {perm = array<i64: 1, 0>} : (tensor<128x1xi32>) -> tensor<1x128xi32>
  %b = "dit.bitcast"(%ts) : (tensor<1x128xi32>) -> tensor<1x128xf32>
  %r = "dit.quant_matmul"(%a, %t, %b) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<1x128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// CSV quant_bmm_v3_with_both_transpose_bitcast: all four inputs transpose -> bitcast -> matmul.
// CHECK-LABEL: func.func @cann_quant_bmm_v3_with_both_transpose_bitcast
// NOS4-NOT: "dit.transpose"
// NOS4-DAG: %[[B1:.*]] = "dit.bitcast"(%arg0) : (tensor<64x4xi8>) -> tensor<64x4xf8E4M3FN>
// NOS4-DAG: %[[B2:.*]] = "dit.bitcast"(%arg1) : (tensor<64x128xi8>) -> tensor<64x128xf8E4M3FN>
// NOS4-DAG: %[[BS:.*]] = "dit.bitcast"(%arg2) : (tensor<128x1xi32>) -> tensor<128x1xf32>
// NOS4-DAG: %[[BP:.*]] = "dit.bitcast"(%arg3) : (tensor<1x4xi32>) -> tensor<1x4xf32>
// NOS4-NOT: "dit.transpose"
// NOS4: "dit.quant_matmul"(%[[B1]], %[[B2]], %[[BS]], %[[BP]]) {{.*}}transpose_x1 = true, transpose_x2 = false
// NOS4-SAME: : (tensor<64x4xf8E4M3FN>, tensor<64x128xf8E4M3FN>, tensor<128x1xf32>, tensor<1x4xf32>) -> tensor<4x128xbf16>
// S4-COUNT-4: "dit.transpose"
// S4: "dit.quant_matmul"({{.*}}) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK: return
func.func @cann_quant_bmm_v3_with_both_transpose_bitcast(%a: tensor<64x4xi8>, %w: tensor<64x128xi8>, %s: tensor<128x1xi32>, %p: tensor<1x4xi32>) -> tensor<4x128xbf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  %b1 = "dit.bitcast"(%t1) : (tensor<4x64xi8>) -> tensor<4x64xf8E4M3FN>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %b2 = "dit.bitcast"(%t2) : (tensor<128x64xi8>) -> tensor<128x64xf8E4M3FN>
  %ts = "dit.transpose"(%s) {perm = array<i64: 1, 0>} : (tensor<128x1xi32>) -> tensor<1x128xi32>
  %bs = "dit.bitcast"(%ts) : (tensor<1x128xi32>) -> tensor<1x128xf32>
  %tp = "dit.transpose"(%p) {perm = array<i64: 1, 0>} : (tensor<1x4xi32>) -> tensor<4x1xi32>
  %bp = "dit.bitcast"(%tp) : (tensor<4x1xi32>) -> tensor<4x1xf32>
  %r = "dit.quant_matmul"(%b1, %b2, %bs, %bp) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<4x64xf8E4M3FN>, tensor<128x64xf8E4M3FN>, tensor<1x128xf32>, tensor<4x1xf32>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// CSV quant_bmm_v3_bitcast_scale_reshape: x1 transpose -> bitcast, x2 transpose, scale reshape
// (condition A: K = 1). Everything folds; the bitcast stays on the untransposed x1.
// CHECK-LABEL: func.func @cann_quant_bmm_v3_bitcast_scale_reshape
// NOS4-NOT: "dit.transpose"
// NOS4-NOT: "dit.reshape"
// NOS4: %[[B:.*]] = "dit.bitcast"(%arg0) : (tensor<1x4xi8>) -> tensor<1x4xf8E4M3FN>
// NOS4-NOT: "dit.transpose"
// NOS4-NOT: "dit.reshape"
// NOS4: "dit.quant_matmul"(%[[B]], %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = true
// NOS4-SAME: : (tensor<1x4xf8E4M3FN>, tensor<128x1xf8E4M3FN>, tensor<128x1xf32>) -> tensor<4x128xbf16>
// S4-COUNT-2: "dit.transpose"
// S4: "dit.reshape"
// S4: "dit.quant_matmul"({{.*}}) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK: return
func.func @cann_quant_bmm_v3_bitcast_scale_reshape(%a: tensor<1x4xi8>, %w: tensor<128x1xf8E4M3FN>, %s: tensor<128x1xf32>) -> tensor<4x128xbf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<1x4xi8>) -> tensor<4x1xi8>
  %b1 = "dit.bitcast"(%t1) : (tensor<4x1xi8>) -> tensor<4x1xf8E4M3FN>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x1xf8E4M3FN>) -> tensor<1x128xf8E4M3FN>
  %rs = "dit.reshape"(%s) : (tensor<128x1xf32>) -> tensor<1x128xf32>
  %r = "dit.quant_matmul"(%b1, %t2, %rs) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x1xf8E4M3FN>, tensor<1x128xf8E4M3FN>, tensor<1x128xf32>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// CSV quant_bmm_v3_with_bitcast_reshape_scale: scale reshape -> bitcast -> matmul (condition A,
// K = 1), x2 transposed. The scale bitcast stays on the un-reshaped scale. On the s8s4 target
// the reshape -> bitcast connection keeps the whole node (section 3.2).
// CHECK-LABEL: func.func @cann_quant_bmm_v3_with_bitcast_reshape_scale
// NOS4-NOT: "dit.transpose"
// NOS4-NOT: "dit.reshape"
// NOS4: %[[B:.*]] = "dit.bitcast"(%arg2) : (tensor<128x1xi32>) -> tensor<128x1xf32>
// NOS4: "dit.quant_matmul"(%arg0, %arg1, %[[B]]) {{.*}}transpose_x1 = false, transpose_x2 = true
// NOS4-SAME: : (tensor<4x1xi8>, tensor<128x1xi8>, tensor<128x1xf32>) -> tensor<4x128xf16>
// S4-DAG: %[[T:.*]] = "dit.transpose"(%arg1)
// S4-DAG: %[[RS:.*]] = "dit.reshape"(%arg2)
// S4: "dit.quant_matmul"(%arg0, %[[T]], {{.*}}) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK: return
func.func @cann_quant_bmm_v3_with_bitcast_reshape_scale(%a: tensor<4x1xi8>, %w: tensor<128x1xi8>, %s: tensor<128x1xi32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x1xi8>) -> tensor<1x128xi8>
  %rs = "dit.reshape"(%s) : (tensor<128x1xi32>) -> tensor<1x128xi32>
  %b = "dit.bitcast"(%rs) : (tensor<1x128xi32>) -> tensor<1x128xf32>
  %r = "dit.quant_matmul"(%a, %t, %b) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x1xi8>, tensor<1x128xi8>, tensor<1x128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// Two bitcasts between the transpose and the matmul: not recognised, nothing folds.
// CHECK-LABEL: func.func @two_bitcasts_no_fold
// CHECK: %[[T:.*]] = "dit.transpose"(%arg1)
// CHECK: %[[B1:.*]] = "dit.bitcast"(%[[T]])
// CHECK: %[[B2:.*]] = "dit.bitcast"(%[[B1]])
// CHECK: "dit.quant_matmul"(%arg0, %[[B2]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK: return
func.func @two_bitcasts_no_fold(%a: tensor<4x64xf8E5M2>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xbf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xi8>) -> tensor<64x128xi8>
  %b1 = "dit.bitcast"(%t) : (tensor<64x128xi8>) -> tensor<64x128xf8E4M3FN>
  %b2 = "dit.bitcast"(%b1) : (tensor<64x128xf8E4M3FN>) -> tensor<64x128xf8E5M2>
  %r = "dit.quant_matmul"(%a, %b2, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E5M2>, tensor<64x128xf8E5M2>, tensor<128xf32>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// Two bitcasts on the scale: the scale chain is not recognised and stays; x2 still folds
// (also on the s8s4 target: bitcast -> bitcast has no transform right before the last bitcast).
// CHECK-LABEL: func.func @two_bitcasts_on_scale
// CHECK: %[[TS:.*]] = "dit.transpose"(%arg2)
// CHECK: %[[B1:.*]] = "dit.bitcast"(%[[TS]])
// CHECK: %[[B2:.*]] = "dit.bitcast"(%[[B1]])
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %[[B2]]) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK: return
func.func @two_bitcasts_on_scale(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128x1xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %ts = "dit.transpose"(%s) {perm = array<i64: 1, 0>} : (tensor<128x1xf32>) -> tensor<1x128xf32>
  %b1 = "dit.bitcast"(%ts) : (tensor<1x128xf32>) -> tensor<1x128xi32>
  %b2 = "dit.bitcast"(%b1) : (tensor<1x128xi32>) -> tensor<1x128xf32>
  %r = "dit.quant_matmul"(%a, %t, %b2) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<1x128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// The bitcast has another user: rewriting it would change that user's value. No fold.
// CHECK-LABEL: func.func @bitcast_other_user_no_fold
// CHECK: %[[T:.*]] = "dit.transpose"(%arg1)
// CHECK: %[[B:.*]] = "dit.bitcast"(%[[T]]) : (tensor<64x128xi8>) -> tensor<64x128xf8E4M3FN>
// CHECK: %[[Q:.*]] = "dit.quant_matmul"(%arg0, %[[B]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK: return %[[Q]], %[[B]]
func.func @bitcast_other_user_no_fold(%a: tensor<4x64xf8E4M3FN>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> (tensor<4x128xbf16>, tensor<64x128xf8E4M3FN>) {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xi8>) -> tensor<64x128xi8>
  %b = "dit.bitcast"(%t) : (tensor<64x128xi8>) -> tensor<64x128xf8E4M3FN>
  %r = "dit.quant_matmul"(%a, %b, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E4M3FN>, tensor<64x128xf8E4M3FN>, tensor<128xf32>) -> tensor<4x128xbf16>
  return %r, %b : tensor<4x128xbf16>, tensor<64x128xf8E4M3FN>
}

// -----

// transpose -> bitcast where the transpose has another user: the bitcast is rewired, the
// transpose stays for the return.
// CHECK-LABEL: func.func @bitcast_transpose_other_user
// NOS4: %[[T:.*]] = "dit.transpose"(%arg1)
// NOS4: %[[B:.*]] = "dit.bitcast"(%arg1) : (tensor<128x64xi8>) -> tensor<128x64xf8E4M3FN>
// NOS4: %[[Q:.*]] = "dit.quant_matmul"(%arg0, %[[B]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// NOS4: return %[[Q]], %[[T]]
// S4: %[[T:.*]] = "dit.transpose"(%arg1)
// S4: %[[B:.*]] = "dit.bitcast"(%[[T]])
// S4: "dit.quant_matmul"(%arg0, %[[B]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// S4: return
func.func @bitcast_transpose_other_user(%a: tensor<4x64xf8E4M3FN>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> (tensor<4x128xbf16>, tensor<64x128xi8>) {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xi8>) -> tensor<64x128xi8>
  %b = "dit.bitcast"(%t) : (tensor<64x128xi8>) -> tensor<64x128xf8E4M3FN>
  %r = "dit.quant_matmul"(%a, %b, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E4M3FN>, tensor<64x128xf8E4M3FN>, tensor<128xf32>) -> tensor<4x128xbf16>
  return %r, %t : tensor<4x128xbf16>, tensor<64x128xi8>
}

// -----

// s8s4 restriction: one transpose -> bitcast input keeps the whole node on the s8s4 target, the
// plain x1 transpose included (section 3.2). Elsewhere both fold.
// CHECK-LABEL: func.func @s8s4_keeps_whole_node
// NOS4-NOT: "dit.transpose"
// NOS4: %[[B:.*]] = "dit.bitcast"(%arg1) : (tensor<128x64xi8>) -> tensor<128x64xf8E4M3FN>
// NOS4: "dit.quant_matmul"(%arg0, %[[B]], %arg2) {{.*}}transpose_x1 = true, transpose_x2 = true
// S4-DAG: %[[T1:.*]] = "dit.transpose"(%arg0)
// S4-DAG: %[[T2:.*]] = "dit.transpose"(%arg1)
// S4: %[[B:.*]] = "dit.bitcast"(%[[T2]])
// S4: "dit.quant_matmul"(%[[T1]], %[[B]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK: return
func.func @s8s4_keeps_whole_node(%a: tensor<64x4xf8E4M3FN>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xbf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xf8E4M3FN>) -> tensor<4x64xf8E4M3FN>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xi8>) -> tensor<64x128xi8>
  %b = "dit.bitcast"(%t2) : (tensor<64x128xi8>) -> tensor<64x128xf8E4M3FN>
  %r = "dit.quant_matmul"(%t1, %b, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E4M3FN>, tensor<64x128xf8E4M3FN>, tensor<128xf32>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// A bitcast with no transform before it does not trigger the s8s4 restriction: the x1
// transpose folds on every target, the x2 bitcast is untouched.
// CHECK-LABEL: func.func @plain_bitcast_no_s8s4_skip
// CHECK-NOT: "dit.transpose"
// CHECK: %[[B:.*]] = "dit.bitcast"(%arg1) : (tensor<128x64xi8>) -> tensor<128x64xf8E4M3FN>
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %[[B]], %arg2) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK: return
func.func @plain_bitcast_no_s8s4_skip(%a: tensor<64x4xf8E4M3FN>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xbf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xf8E4M3FN>) -> tensor<4x64xf8E4M3FN>
  %b = "dit.bitcast"(%w) : (tensor<128x64xi8>) -> tensor<128x64xf8E4M3FN>
  %r = "dit.quant_matmul"(%t1, %b, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xf8E4M3FN>, tensor<128x64xf8E4M3FN>, tensor<128xf32>) -> tensor<4x128xbf16>
  return %r : tensor<4x128xbf16>
}

// -----

// ===== more edges =====

// A bitcast that changes the element width (i8 -> i4) is no plain reinterpretation of the same
// elements: no fold.
// CHECK-LABEL: func.func @bitcast_width_change_no_fold
// CHECK: %[[T:.*]] = "dit.transpose"(%arg1)
// CHECK: %[[B:.*]] = "dit.bitcast"(%[[T]]) : (tensor<64x128xi8>) -> tensor<64x256xi4>
// CHECK: "dit.quant_matmul"(%arg0, %[[B]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
func.func @bitcast_width_change_no_fold(%a: tensor<4x64xi4>, %w: tensor<128x64xi8>, %s: tensor<256xf32>) -> tensor<4x256xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xi8>) -> tensor<64x128xi8>
  %b = "dit.bitcast"(%t) : (tensor<64x128xi8>) -> tensor<64x256xi4>
  %r = "dit.quant_matmul"(%a, %b, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi4>, tensor<64x256xi4>, tensor<256xf32>) -> tensor<4x256xf16>
  return %r : tensor<4x256xf16>
}

// -----

// The scale bitcast has another user: the scale chain stays as it is; x2 still folds. On the
// s8s4 target the scale's transpose -> bitcast connection keeps the whole node (section 3.2).
// CHECK-LABEL: func.func @scale_bitcast_other_user
// NOS4: %[[TS:.*]] = "dit.transpose"(%arg2)
// NOS4: %[[B:.*]] = "dit.bitcast"(%[[TS]])
// NOS4-NOT: "dit.transpose"
// NOS4: %[[Q:.*]] = "dit.quant_matmul"(%arg0, %arg1, %[[B]]) {{.*}}transpose_x1 = false, transpose_x2 = false
// NOS4: return %[[Q]], %[[B]]
// S4-COUNT-2: "dit.transpose"
// S4: "dit.quant_matmul"({{.*}}) {{.*}}transpose_x1 = false, transpose_x2 = true
func.func @scale_bitcast_other_user(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128x1xi32>) -> (tensor<4x128xf16>, tensor<1x128xf32>) {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %ts = "dit.transpose"(%s) {perm = array<i64: 1, 0>} : (tensor<128x1xi32>) -> tensor<1x128xi32>
  %b = "dit.bitcast"(%ts) : (tensor<1x128xi32>) -> tensor<1x128xf32>
  %r = "dit.quant_matmul"(%a, %t, %b) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<1x128xf32>) -> tensor<4x128xf16>
  return %r, %b : tensor<4x128xf16>, tensor<1x128xf32>
}

// -----

// One transpose feeds both x1 and x2: both flags flip, the transpose goes.
// CHECK-LABEL: func.func @same_transpose_both_sides
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg0, %arg1) {{.*}}transpose_x1 = true, transpose_x2 = true
func.func @same_transpose_both_sides(%a: tensor<64x64xi8>, %s: tensor<64xf32>) -> tensor<64x64xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x64xi8>) -> tensor<64x64xi8>
  %r = "dit.quant_matmul"(%t, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<64x64xi8>, tensor<64x64xi8>, tensor<64xf32>) -> tensor<64x64xf16>
  return %r : tensor<64x64xf16>
}

// -----

// transpose -> reshape -> x2: the data input is a reshape; nothing folds.
// CHECK-LABEL: func.func @transpose_then_reshape_no_trigger
// CHECK: %[[T:.*]] = "dit.transpose"(%arg1)
// CHECK: %[[R:.*]] = "dit.reshape"(%[[T]])
// CHECK: "dit.quant_matmul"(%arg0, %[[R]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
func.func @transpose_then_reshape_no_trigger(%a: tensor<4x64xi8>, %w: tensor<64x2x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0, 2>} : (tensor<64x2x64xi8>) -> tensor<2x64x64xi8>
  %rs = "dit.reshape"(%t) : (tensor<2x64x64xi8>) -> tensor<128x64xi8>
  %r = "dit.quant_matmul"(%a, %rs, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// A dynamic batch dim does not make a static outer dim dynamic: x2 outer 65536 stays on A2/A3.
// CHECK-LABEL: func.func @dynamic_batch_outer_65536
// A2: %[[T:.*]] = "dit.transpose"(%arg1)
// A2: "dit.quant_matmul"(%arg0, %[[T]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// A5-NOT: "dit.transpose"
// A5: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK: return
func.func @dynamic_batch_outer_65536(%a: tensor<?x4x65536xi8>, %w: tensor<?x128x65536xi8>, %s: tensor<128xf32>) -> tensor<?x4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 0, 2, 1>} : (tensor<?x128x65536xi8>) -> tensor<?x65536x128xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<?x4x65536xi8>, tensor<?x65536x128xi8>, tensor<128xf32>) -> tensor<?x4x128xf16>
  return %r : tensor<?x4x128xf16>
}

// -----

// A dynamic batch dim of x1 makes the scale-reshape check dynamic (section 2.8): accepted.
// CHECK-LABEL: func.func @dynamic_batch_scale_reshape
// CHECK-NOT: "dit.transpose"
// CHECK-NOT: "dit.reshape"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK-SAME: : (tensor<?x4x64xi8>, tensor<128x64xi8>, tensor<128x1xf32>) -> tensor<?x4x128xf16>
func.func @dynamic_batch_scale_reshape(%a: tensor<?x4x64xi8>, %w: tensor<128x64xi8>, %s: tensor<128x1xf32>) -> tensor<?x4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xi8>) -> tensor<64x128xi8>
  %rs = "dit.reshape"(%s) : (tensor<128x1xf32>) -> tensor<1x128xf32>
  %r = "dit.quant_matmul"(%a, %t, %rs) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<?x4x64xi8>, tensor<64x128xi8>, tensor<1x128xf32>) -> tensor<?x4x128xf16>
  return %r : tensor<?x4x128xf16>
}

// -----

// Condition A on a 3-D x1 [2, 4, 1]: the pertoken_scale reshape goes with the x1 transpose.
// CHECK-LABEL: func.func @condition_a_batched
// CHECK-NOT: "dit.transpose"
// CHECK-NOT: "dit.reshape"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2, %arg3) {{.*}}transpose_x1 = true, transpose_x2 = false
func.func @condition_a_batched(%a: tensor<2x1x4xi8>, %w: tensor<2x1x128xi8>, %s: tensor<128xf32>, %p: tensor<1x4xf32>) -> tensor<2x4x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 0, 2, 1>} : (tensor<2x1x4xi8>) -> tensor<2x4x1xi8>
  %rp = "dit.reshape"(%p) : (tensor<1x4xf32>) -> tensor<4x1xf32>
  %r = "dit.quant_matmul"(%t, %w, %s, %rp) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<2x4x1xi8>, tensor<2x1x128xi8>, tensor<128xf32>, tensor<4x1xf32>) -> tensor<2x4x128xf16>
  return %r : tensor<2x4x128xf16>
}

// -----

// ===== scale reshapes that are no transpose: must not be bypassed =====
// Section 3.3: "满足表中的形状条件后仍须保证Reshape与所需的scale转置等价" -- the shape
// conditions are necessary, not sufficient. Bypassing a reshape from [2, 64] would hand the
// quant_matmul a [2, 64] scale, which the verifier rejects (dit-opt then fails on a valid
// input). The reshape must stay; the data side still folds.

// Static, condition A holds (x2 = [1, 128]), reshape [2, 64] -> [1, 128].
// CHECK-LABEL: func.func @scale_reshape_not_a_transpose
// CHECK: %[[RS:.*]] = "dit.reshape"(%arg2) : (tensor<2x64xf32>) -> tensor<1x128xf32>
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %[[RS]]) {{.*}}transpose_x1 = false, transpose_x2 = true
func.func @scale_reshape_not_a_transpose(%a: tensor<4x1xi8>, %w: tensor<128x1xi8>, %s: tensor<2x64xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x1xi8>) -> tensor<1x128xi8>
  %rs = "dit.reshape"(%s) : (tensor<2x64xf32>) -> tensor<1x128xf32>
  %r = "dit.quant_matmul"(%a, %t, %rs) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x1xi8>, tensor<1x128xi8>, tensor<1x128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// Same for pertoken_scale: [2, 2] -> [4, 1] with x1 = [4, 1].
// CHECK-LABEL: func.func @pertoken_reshape_not_a_transpose
// CHECK: %[[RP:.*]] = "dit.reshape"(%arg3) : (tensor<2x2xf32>) -> tensor<4x1xf32>
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2, %[[RP]]) {{.*}}transpose_x1 = true, transpose_x2 = false
func.func @pertoken_reshape_not_a_transpose(%a: tensor<1x4xi8>, %w: tensor<1x128xi8>, %s: tensor<128xf32>, %p: tensor<2x2xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<1x4xi8>) -> tensor<4x1xi8>
  %rp = "dit.reshape"(%p) : (tensor<2x2xf32>) -> tensor<4x1xf32>
  %r = "dit.quant_matmul"(%t, %w, %s, %rp) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<4x1xi8>, tensor<1x128xi8>, tensor<128xf32>, tensor<4x1xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// Dynamic x1 (static checks skipped), reshape [2, 64] -> [1, 128]: still no transpose.
// CHECK-LABEL: func.func @dynamic_scale_reshape_not_a_transpose
// CHECK: %[[RS:.*]] = "dit.reshape"(%arg2) : (tensor<2x64xf32>) -> tensor<1x128xf32>
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %[[RS]]) {{.*}}transpose_x1 = false, transpose_x2 = true
func.func @dynamic_scale_reshape_not_a_transpose(%a: tensor<?x64xi8>, %w: tensor<128x64xi8>, %s: tensor<2x64xf32>) -> tensor<?x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x64xi8>) -> tensor<64x128xi8>
  %rs = "dit.reshape"(%s) : (tensor<2x64xf32>) -> tensor<1x128xf32>
  %r = "dit.quant_matmul"(%a, %t, %rs) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<?x64xi8>, tensor<64x128xi8>, tensor<1x128xf32>) -> tensor<?x128xf16>
  return %r : tensor<?x128xf16>
}
