// Limit rule of CANN's transpose fold (QuantBatchMatmulV3TransposeLimitFusionPass, seed 001
// section 3.4): on targets without the bf16 L1->BT move a side folds only if
// 0 < outer <= 65535 and inner > 65535 (outer = second-to-last, inner = last dim of the
// quant_matmul data input); dynamic dims never qualify; FRACTAL_NZ does not relax it. On
// ascend950 (which has the move) the rule does nothing.
//
// Prefixes: A2 = ascend910b / ascend910_93 / the s8s4 test target; A2NOS4 = A2 without s8s4;
// A5 = ascend950; S4 = the test-only target Inputs/ascend910b-s8s4.toml.
//
// RUN: dit-opt %s --split-input-file --dit-fold-transpose-quant-matmul-limit | dit-opt --split-input-file | FileCheck %s --check-prefixes=CHECK,A2,A2NOS4
// RUN: dit-opt %s --split-input-file --dit-fold-transpose-quant-matmul-limit --target=ascend910b | dit-opt --split-input-file | FileCheck %s --check-prefixes=CHECK,A2,A2NOS4
// RUN: dit-opt %s --split-input-file --dit-fold-transpose-quant-matmul-limit --target=ascend910_93 | dit-opt --split-input-file | FileCheck %s --check-prefixes=CHECK,A2,A2NOS4
// RUN: dit-opt %s --split-input-file --dit-fold-transpose-quant-matmul-limit --target=ascend950 | dit-opt --split-input-file | FileCheck %s --check-prefixes=CHECK,A5
// RUN: dit-opt %s --split-input-file --dit-fold-transpose-quant-matmul-limit --target=%S/Inputs/ascend910b-s8s4.toml | dit-opt --split-input-file | FileCheck %s --check-prefixes=CHECK,A2,S4
//
// Illegal dtypes / ranks are refused by the verifier before the limit pass too.
// RUN: dit-opt %S/Inputs/fold-transpose-quant-matmul-invalid.mlir --split-input-file --verify-diagnostics --dit-fold-transpose-quant-matmul-limit
// Numerical check (issue 6): the unfused and transformed graphs on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused --pipeline='builtin.module(dit-fold-transpose-quant-matmul,dit-fold-transpose-quant-matmul-limit)' --max-elements=200000 > /dev/null

// CSV quant_bmm_v3_limit_inner_gt65535 (x2 70000 x 128, read as the transpose's source): the
// quant_matmul's x2 is [K, N] = [128, 70000], outer 128, inner 70000 > 65535: folds on A2/A3.
// CHECK-LABEL: func.func @cann_quant_bmm_v3_limit_inner_gt65535
// A2-NOT: "dit.transpose"
// A2: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// A2-SAME: : (tensor<4x128xi8>, tensor<70000x128xi8>, tensor<70000xf32>) -> tensor<4x70000xf16>
// A5: %[[T:.*]] = "dit.transpose"(%arg1)
// A5: "dit.quant_matmul"(%arg0, %[[T]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK: return
func.func @cann_quant_bmm_v3_limit_inner_gt65535(%a: tensor<4x128xi8>, %w: tensor<70000x128xi8>, %s: tensor<70000xf32>) -> tensor<4x70000xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<70000x128xi8>) -> tensor<128x70000xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x128xi8>, tensor<128x70000xi8>, tensor<70000xf32>) -> tensor<4x70000xf16>
  return %r : tensor<4x70000xf16>
}

// -----

// CSV quant_bmm_v3_limit_outer_gt_65535 (x2 128 x 70000: "outer 128 <= 65535, inner 70000 >
// 65535", SUCCESS): the quant_matmul's x2 is [N, K] = [128, 70000] with transpose_x2 = true
// (its source 70000 x 128 has the outer dim above 65535).
// CHECK-LABEL: func.func @cann_quant_bmm_v3_limit_outer_gt_65535
// A2-NOT: "dit.transpose"
// A2: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// A2-SAME: : (tensor<4x70000xi8>, tensor<70000x128xi8>, tensor<128xf32>) -> tensor<4x128xf16>
// A5: %[[T:.*]] = "dit.transpose"(%arg1)
// A5: "dit.quant_matmul"(%arg0, %[[T]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK: return
func.func @cann_quant_bmm_v3_limit_outer_gt_65535(%a: tensor<4x70000xi8>, %w: tensor<70000x128xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<70000x128xi8>) -> tensor<128x70000xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x70000xi8>, tensor<128x70000xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// CSV quant_bmm_v3_limit_no_transpose_no_change.
// CHECK-LABEL: func.func @cann_quant_bmm_v3_limit_no_transpose_no_change
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK-SAME: : (tensor<4x128xi8>, tensor<128x70000xi8>, tensor<70000xf32>) -> tensor<4x70000xf16>
func.func @cann_quant_bmm_v3_limit_no_transpose_no_change(%a: tensor<4x128xi8>, %w: tensor<128x70000xi8>, %s: tensor<70000xf32>) -> tensor<4x70000xf16> {
  %r = "dit.quant_matmul"(%a, %w, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x128xi8>, tensor<128x70000xi8>, tensor<70000xf32>) -> tensor<4x70000xf16>
  return %r : tensor<4x70000xf16>
}

// -----

// outer 70000, inner 128: neither outer <= 65535 nor inner > 65535. No fold anywhere.
// CHECK-LABEL: func.func @limit_outer_70000_inner_128
// CHECK: %[[T:.*]] = "dit.transpose"(%arg1)
// CHECK: "dit.quant_matmul"(%arg0, %[[T]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
func.func @limit_outer_70000_inner_128(%a: tensor<4x70000xi8>, %w: tensor<128x70000xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x70000xi8>) -> tensor<70000x128xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x70000xi8>, tensor<70000x128xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// Small dims (the normal rule's ground): inner 64 <= 65535, the limit rule leaves them.
// CHECK-LABEL: func.func @limit_small_dims
// CHECK-DAG: "dit.transpose"(%arg0)
// CHECK-DAG: "dit.transpose"(%arg1)
// CHECK: "dit.quant_matmul"({{.*}}) {{.*}}transpose_x1 = false, transpose_x2 = true
func.func @limit_small_dims(%a: tensor<64x4xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %r = "dit.quant_matmul"(%t1, %t2, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// ===== x2 boundaries (transpose_x2 = false: x2 = [K, N], outer K, inner N) =====

// outer 65535, inner 65536: folds on A2/A3.
// CHECK-LABEL: func.func @x2_outer_65535_inner_65536
// A2-NOT: "dit.transpose"
// A2: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// A2-SAME: : (tensor<4x65535xi8>, tensor<65536x65535xi8>, tensor<65536xf32>) -> tensor<4x65536xf16>
// A5: "dit.transpose"(%arg1)
// A5: "dit.quant_matmul"({{.*}}) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK: return
func.func @x2_outer_65535_inner_65536(%a: tensor<4x65535xi8>, %w: tensor<65536x65535xi8>, %s: tensor<65536xf32>) -> tensor<4x65536xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<65536x65535xi8>) -> tensor<65535x65536xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x65535xi8>, tensor<65535x65536xi8>, tensor<65536xf32>) -> tensor<4x65536xf16>
  return %r : tensor<4x65536xf16>
}

// -----

// outer 65536, inner 65536: outer too big. No fold.
// CHECK-LABEL: func.func @x2_outer_65536_inner_65536
// CHECK: %[[T:.*]] = "dit.transpose"(%arg1)
// CHECK: "dit.quant_matmul"(%arg0, %[[T]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
func.func @x2_outer_65536_inner_65536(%a: tensor<4x65536xi8>, %w: tensor<65536x65536xi8>, %s: tensor<65536xf32>) -> tensor<4x65536xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<65536x65536xi8>) -> tensor<65536x65536xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x65536xi8>, tensor<65536x65536xi8>, tensor<65536xf32>) -> tensor<4x65536xf16>
  return %r : tensor<4x65536xf16>
}

// -----

// outer 65535, inner 65535: inner not above 65535. No fold.
// CHECK-LABEL: func.func @x2_outer_65535_inner_65535
// CHECK: %[[T:.*]] = "dit.transpose"(%arg1)
// CHECK: "dit.quant_matmul"(%arg0, %[[T]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
func.func @x2_outer_65535_inner_65535(%a: tensor<4x65535xi8>, %w: tensor<65535x65535xi8>, %s: tensor<65535xf32>) -> tensor<4x65535xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<65535x65535xi8>) -> tensor<65535x65535xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x65535xi8>, tensor<65535x65535xi8>, tensor<65535xf32>) -> tensor<4x65535xf16>
  return %r : tensor<4x65535xf16>
}

// -----

// outer 1, inner 65536: folds on A2/A3.
// CHECK-LABEL: func.func @x2_outer_1_inner_65536
// A2-NOT: "dit.transpose"
// A2: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// A2-SAME: : (tensor<4x1xi8>, tensor<65536x1xi8>, tensor<65536xf32>) -> tensor<4x65536xf16>
// A5: "dit.transpose"(%arg1)
// CHECK: return
func.func @x2_outer_1_inner_65536(%a: tensor<4x1xi8>, %w: tensor<65536x1xi8>, %s: tensor<65536xf32>) -> tensor<4x65536xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<65536x1xi8>) -> tensor<1x65536xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x1xi8>, tensor<1x65536xi8>, tensor<65536xf32>) -> tensor<4x65536xf16>
  return %r : tensor<4x65536xf16>
}

// -----

// outer 0 (an empty K): 0 < outer fails. No fold.
// CHECK-LABEL: func.func @x2_outer_0_inner_70000
// CHECK: %[[T:.*]] = "dit.transpose"(%arg1)
// CHECK: "dit.quant_matmul"(%arg0, %[[T]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
func.func @x2_outer_0_inner_70000(%a: tensor<4x0xi8>, %w: tensor<70000x0xi8>, %s: tensor<70000xf32>) -> tensor<4x70000xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<70000x0xi8>) -> tensor<0x70000xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x0xi8>, tensor<0x70000xi8>, tensor<70000xf32>) -> tensor<4x70000xf16>
  return %r : tensor<4x70000xf16>
}

// -----

// ===== x1 boundaries (transpose_x1 = false: x1 = [M, K], outer M, inner K) =====

// outer 65535, inner 65536: folds on A2/A3.
// CHECK-LABEL: func.func @x1_outer_65535_inner_65536
// A2-NOT: "dit.transpose"
// A2: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = true
// A2-SAME: : (tensor<65536x65535xi8>, tensor<128x65536xi8>, tensor<128xf32>) -> tensor<65535x128xf16>
// A5: "dit.transpose"(%arg0)
// A5: "dit.quant_matmul"({{.*}}) {{.*}}transpose_x1 = false, transpose_x2 = true
// CHECK: return
func.func @x1_outer_65535_inner_65536(%a: tensor<65536x65535xi8>, %w: tensor<128x65536xi8>, %s: tensor<128xf32>) -> tensor<65535x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<65536x65535xi8>) -> tensor<65535x65536xi8>
  %r = "dit.quant_matmul"(%t, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<65535x65536xi8>, tensor<128x65536xi8>, tensor<128xf32>) -> tensor<65535x128xf16>
  return %r : tensor<65535x128xf16>
}

// -----

// outer 65536, inner 65536: no fold.
// CHECK-LABEL: func.func @x1_outer_65536_inner_65536
// CHECK: %[[T:.*]] = "dit.transpose"(%arg0)
// CHECK: "dit.quant_matmul"(%[[T]], %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
func.func @x1_outer_65536_inner_65536(%a: tensor<65536x65536xi8>, %w: tensor<128x65536xi8>, %s: tensor<128xf32>) -> tensor<65536x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<65536x65536xi8>) -> tensor<65536x65536xi8>
  %r = "dit.quant_matmul"(%t, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<65536x65536xi8>, tensor<128x65536xi8>, tensor<128xf32>) -> tensor<65536x128xf16>
  return %r : tensor<65536x128xf16>
}

// -----

// outer 65535, inner 65535: no fold.
// CHECK-LABEL: func.func @x1_outer_65535_inner_65535
// CHECK: %[[T:.*]] = "dit.transpose"(%arg0)
// CHECK: "dit.quant_matmul"(%[[T]], %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
func.func @x1_outer_65535_inner_65535(%a: tensor<65535x65535xi8>, %w: tensor<128x65535xi8>, %s: tensor<128xf32>) -> tensor<65535x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<65535x65535xi8>) -> tensor<65535x65535xi8>
  %r = "dit.quant_matmul"(%t, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<65535x65535xi8>, tensor<128x65535xi8>, tensor<128xf32>) -> tensor<65535x128xf16>
  return %r : tensor<65535x128xf16>
}

// -----

// Each side on its own: x1 = [4, 70000] folds, x2 = [70000, 128] (outer 70000) stays.
// CHECK-LABEL: func.func @limit_sides_independent
// A2: %[[T2:.*]] = "dit.transpose"(%arg1)
// A2-NOT: "dit.transpose"
// A2: "dit.quant_matmul"(%arg0, %[[T2]], %arg2) {{.*}}transpose_x1 = true, transpose_x2 = false
// A5-COUNT-2: "dit.transpose"
// A5: "dit.quant_matmul"({{.*}}) {{.*}}transpose_x1 = false, transpose_x2 = false
// CHECK: return
func.func @limit_sides_independent(%a: tensor<70000x4xi8>, %w: tensor<128x70000xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<70000x4xi8>) -> tensor<4x70000xi8>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x70000xi8>) -> tensor<70000x128xi8>
  %r = "dit.quant_matmul"(%t1, %t2, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x70000xi8>, tensor<70000x128xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// ===== dynamic dims never satisfy the limit rule =====

// x2 = [?, 70000]: outer dynamic.
// CHECK-LABEL: func.func @limit_x2_dynamic_outer
// CHECK: %[[T:.*]] = "dit.transpose"(%arg1)
// CHECK: "dit.quant_matmul"(%arg0, %[[T]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
func.func @limit_x2_dynamic_outer(%a: tensor<4x?xi8>, %w: tensor<70000x?xi8>, %s: tensor<70000xf32>) -> tensor<4x70000xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<70000x?xi8>) -> tensor<?x70000xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x?xi8>, tensor<?x70000xi8>, tensor<70000xf32>) -> tensor<4x70000xf16>
  return %r : tensor<4x70000xf16>
}

// -----

// x2 = [128, ?]: inner dynamic.
// CHECK-LABEL: func.func @limit_x2_dynamic_inner
// CHECK: %[[T:.*]] = "dit.transpose"(%arg1)
// CHECK: "dit.quant_matmul"(%arg0, %[[T]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
func.func @limit_x2_dynamic_inner(%a: tensor<4x128xi8>, %w: tensor<?x128xi8>, %s: tensor<?xf32>) -> tensor<4x?xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<?x128xi8>) -> tensor<128x?xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x128xi8>, tensor<128x?xi8>, tensor<?xf32>) -> tensor<4x?xf16>
  return %r : tensor<4x?xf16>
}

// -----

// x1 = [?, 70000]: outer dynamic.
// CHECK-LABEL: func.func @limit_x1_dynamic_outer
// CHECK: %[[T:.*]] = "dit.transpose"(%arg0)
// CHECK: "dit.quant_matmul"(%[[T]], %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
func.func @limit_x1_dynamic_outer(%a: tensor<70000x?xi8>, %w: tensor<128x70000xi8>, %s: tensor<128xf32>) -> tensor<?x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<70000x?xi8>) -> tensor<?x70000xi8>
  %r = "dit.quant_matmul"(%t, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<?x70000xi8>, tensor<128x70000xi8>, tensor<128xf32>) -> tensor<?x128xf16>
  return %r : tensor<?x128xf16>
}

// -----

// x1 = [4, ?]: inner dynamic.
// CHECK-LABEL: func.func @limit_x1_dynamic_inner
// CHECK: %[[T:.*]] = "dit.transpose"(%arg0)
// CHECK: "dit.quant_matmul"(%[[T]], %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
func.func @limit_x1_dynamic_inner(%a: tensor<?x4xi8>, %w: tensor<128x?xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<?x4xi8>) -> tensor<4x?xi8>
  %r = "dit.quant_matmul"(%t, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x?xi8>, tensor<128x?xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// ===== FRACTAL_NZ does not relax the limit rule =====

// NZ x2 with outer 70000, inner 128: no fold (the normal rule would fold it).
// CHECK-LABEL: func.func @limit_nz_outer_70000
// CHECK: %[[T:.*]] = "dit.transpose"(%arg1)
// CHECK: "dit.quant_matmul"(%arg0, %[[T]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false, x2_format = "FRACTAL_NZ"
func.func @limit_nz_outer_70000(%a: tensor<4x70000xi8>, %w: tensor<128x70000xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x70000xi8>) -> tensor<70000x128xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, x2_format = "FRACTAL_NZ", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x70000xi8>, tensor<70000x128xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// NZ x2 with outer 128, inner 70000: the limit condition holds, folds on A2/A3.
// CHECK-LABEL: func.func @limit_nz_inner_70000
// A2-NOT: "dit.transpose"
// A2: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true, x2_format = "FRACTAL_NZ"
// A5: "dit.transpose"(%arg1)
// CHECK: return
func.func @limit_nz_inner_70000(%a: tensor<4x128xi8>, %w: tensor<70000x128xi8>, %s: tensor<70000xf32>) -> tensor<4x70000xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<70000x128xi8>) -> tensor<128x70000xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, x2_format = "FRACTAL_NZ", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x128xi8>, tensor<128x70000xi8>, tensor<70000xf32>) -> tensor<4x70000xf16>
  return %r : tensor<4x70000xf16>
}

// -----

// ===== scales, batching, other users, bitcast under the limit rule =====

// x2 (outer 128, inner 70000) with its scale transpose: both go on A2/A3.
// CHECK-LABEL: func.func @limit_with_scale_transpose
// A2-NOT: "dit.transpose"
// A2: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// A2-SAME: : (tensor<4x128xi8>, tensor<70000x128xi8>, tensor<70000x1xf32>) -> tensor<4x70000xf16>
// A5-COUNT-2: "dit.transpose"
// CHECK: return
func.func @limit_with_scale_transpose(%a: tensor<4x128xi8>, %w: tensor<70000x128xi8>, %s: tensor<70000x1xf32>) -> tensor<4x70000xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<70000x128xi8>) -> tensor<128x70000xi8>
  %ts = "dit.transpose"(%s) {perm = array<i64: 1, 0>} : (tensor<70000x1xf32>) -> tensor<1x70000xf32>
  %r = "dit.quant_matmul"(%a, %t, %ts) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x128xi8>, tensor<128x70000xi8>, tensor<1x70000xf32>) -> tensor<4x70000xf16>
  return %r : tensor<4x70000xf16>
}

// -----

// Condition A scale reshape under the limit rule: x2 = [1, 70000] (K = 1).
// CHECK-LABEL: func.func @limit_with_scale_reshape
// A2-NOT: "dit.transpose"
// A2-NOT: "dit.reshape"
// A2: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// A2-SAME: : (tensor<4x1xi8>, tensor<70000x1xi8>, tensor<70000x1xf32>) -> tensor<4x70000xf16>
// A5: "dit.transpose"(%arg1)
// A5: "dit.reshape"(%arg2)
// CHECK: return
func.func @limit_with_scale_reshape(%a: tensor<4x1xi8>, %w: tensor<70000x1xi8>, %s: tensor<70000x1xf32>) -> tensor<4x70000xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<70000x1xi8>) -> tensor<1x70000xi8>
  %rs = "dit.reshape"(%s) : (tensor<70000x1xf32>) -> tensor<1x70000xf32>
  %r = "dit.quant_matmul"(%a, %t, %rs) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x1xi8>, tensor<1x70000xi8>, tensor<1x70000xf32>) -> tensor<4x70000xf16>
  return %r : tensor<4x70000xf16>
}

// -----

// 3-D batched x2 [2, 128, 70000] from perm [0, 2, 1].
// CHECK-LABEL: func.func @limit_batched_3d
// A2-NOT: "dit.transpose"
// A2: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// A2-SAME: : (tensor<2x4x128xi8>, tensor<2x70000x128xi8>, tensor<70000xf32>) -> tensor<2x4x70000xf16>
// A5: "dit.transpose"(%arg1)
// CHECK: return
func.func @limit_batched_3d(%a: tensor<2x4x128xi8>, %w: tensor<2x70000x128xi8>, %s: tensor<70000xf32>) -> tensor<2x4x70000xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 0, 2, 1>} : (tensor<2x70000x128xi8>) -> tensor<2x128x70000xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<2x4x128xi8>, tensor<2x128x70000xi8>, tensor<70000xf32>) -> tensor<2x4x70000xf16>
  return %r : tensor<2x4x70000xf16>
}

// -----

// A batch-dim transpose never folds, whatever the dims.
// CHECK-LABEL: func.func @limit_batch_perm_no_fold
// CHECK: %[[T:.*]] = "dit.transpose"(%arg1) {perm = array<i64: 1, 0, 2>}
// CHECK: "dit.quant_matmul"(%arg0, %[[T]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
func.func @limit_batch_perm_no_fold(%a: tensor<2x4x128xi8>, %w: tensor<128x2x70000xi8>, %s: tensor<70000xf32>) -> tensor<2x4x70000xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0, 2>} : (tensor<128x2x70000xi8>) -> tensor<2x128x70000xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<2x4x128xi8>, tensor<2x128x70000xi8>, tensor<70000xf32>) -> tensor<2x4x70000xf16>
  return %r : tensor<2x4x70000xf16>
}

// -----

// The transpose has a second user: fold, transpose stays for the return.
// CHECK-LABEL: func.func @limit_transpose_second_user
// A2: %[[T:.*]] = "dit.transpose"(%arg1)
// A2: %[[Q:.*]] = "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// A2: return %[[Q]], %[[T]]
// A5: %[[T:.*]] = "dit.transpose"(%arg1)
// A5: "dit.quant_matmul"(%arg0, %[[T]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = false
// A5: return
func.func @limit_transpose_second_user(%a: tensor<4x128xi8>, %w: tensor<70000x128xi8>, %s: tensor<70000xf32>) -> (tensor<4x70000xf16>, tensor<128x70000xi8>) {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<70000x128xi8>) -> tensor<128x70000xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x128xi8>, tensor<128x70000xi8>, tensor<70000xf32>) -> tensor<4x70000xf16>
  return %r, %t : tensor<4x70000xf16>, tensor<128x70000xi8>
}

// -----

// transpose -> bitcast -> x2 with limit dims: folds on A2/A3 (bitcast kept on the source), not
// on the s8s4 target, not on 950.
// CHECK-LABEL: func.func @limit_bitcast
// A2NOS4-NOT: "dit.transpose"
// A2NOS4: %[[B:.*]] = "dit.bitcast"(%arg1) : (tensor<70000x128xi8>) -> tensor<70000x128xf8E4M3FN>
// A2NOS4: "dit.quant_matmul"(%arg0, %[[B]], %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// S4: %[[T:.*]] = "dit.transpose"(%arg1)
// S4: "dit.bitcast"(%[[T]])
// S4: "dit.quant_matmul"({{.*}}) {{.*}}transpose_x1 = false, transpose_x2 = false
// A5: %[[T:.*]] = "dit.transpose"(%arg1)
// A5: "dit.bitcast"(%[[T]])
// CHECK: return
func.func @limit_bitcast(%a: tensor<4x128xf8E4M3FN>, %w: tensor<70000x128xi8>, %s: tensor<70000xf32>) -> tensor<4x70000xbf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<70000x128xi8>) -> tensor<128x70000xi8>
  %b = "dit.bitcast"(%t) : (tensor<128x70000xi8>) -> tensor<128x70000xf8E4M3FN>
  %r = "dit.quant_matmul"(%a, %b, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x128xf8E4M3FN>, tensor<128x70000xf8E4M3FN>, tensor<70000xf32>) -> tensor<4x70000xbf16>
  return %r : tensor<4x70000xbf16>
}

// -----

// Two bitcasts: no fold under the limit rule either.
// CHECK-LABEL: func.func @limit_two_bitcasts
// CHECK: %[[T:.*]] = "dit.transpose"(%arg1)
// CHECK: "dit.quant_matmul"({{.*}}) {{.*}}transpose_x1 = false, transpose_x2 = false
func.func @limit_two_bitcasts(%a: tensor<4x128xf8E5M2>, %w: tensor<70000x128xi8>, %s: tensor<70000xf32>) -> tensor<4x70000xbf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<70000x128xi8>) -> tensor<128x70000xi8>
  %b1 = "dit.bitcast"(%t) : (tensor<128x70000xi8>) -> tensor<128x70000xf8E4M3FN>
  %b2 = "dit.bitcast"(%b1) : (tensor<128x70000xf8E4M3FN>) -> tensor<128x70000xf8E5M2>
  %r = "dit.quant_matmul"(%a, %b2, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x128xf8E5M2>, tensor<128x70000xf8E5M2>, tensor<70000xf32>) -> tensor<4x70000xbf16>
  return %r : tensor<4x70000xbf16>
}

// -----

// A dynamic batch dim is neither outer nor inner: x2 [?, 128, 70000] still qualifies.
// CHECK-LABEL: func.func @limit_dynamic_batch
// A2-NOT: "dit.transpose"
// A2: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// A2-SAME: : (tensor<?x4x128xi8>, tensor<?x70000x128xi8>, tensor<70000xf32>) -> tensor<?x4x70000xf16>
// A5: "dit.transpose"(%arg1)
// CHECK: return
func.func @limit_dynamic_batch(%a: tensor<?x4x128xi8>, %w: tensor<?x70000x128xi8>, %s: tensor<70000xf32>) -> tensor<?x4x70000xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 0, 2, 1>} : (tensor<?x70000x128xi8>) -> tensor<?x128x70000xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<?x4x128xi8>, tensor<?x128x70000xi8>, tensor<70000xf32>) -> tensor<?x4x70000xf16>
  return %r : tensor<?x4x70000xf16>
}

// -----

// A scale reshape that is no transpose ([2, 35000] -> [1, 70000], condition A holds) must not
// be bypassed (the quant_matmul would get a [2, 35000] scale); x2 still folds on A2/A3.
// CHECK-LABEL: func.func @limit_scale_reshape_not_a_transpose
// A2: %[[RS:.*]] = "dit.reshape"(%arg2) : (tensor<2x35000xf32>) -> tensor<1x70000xf32>
// A2-NOT: "dit.transpose"
// A2: "dit.quant_matmul"(%arg0, %arg1, %[[RS]]) {{.*}}transpose_x1 = false, transpose_x2 = true
// A5: "dit.transpose"(%arg1)
// CHECK: return
func.func @limit_scale_reshape_not_a_transpose(%a: tensor<4x1xi8>, %w: tensor<70000x1xi8>, %s: tensor<2x35000xf32>) -> tensor<4x70000xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<70000x1xi8>) -> tensor<1x70000xi8>
  %rs = "dit.reshape"(%s) : (tensor<2x35000xf32>) -> tensor<1x70000xf32>
  %r = "dit.quant_matmul"(%a, %t, %rs) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x1xi8>, tensor<1x70000xi8>, tensor<1x70000xf32>) -> tensor<4x70000xf16>
  return %r : tensor<4x70000xf16>
}
