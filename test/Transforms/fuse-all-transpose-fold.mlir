// --fuse-all runs the transpose fold's normal rule, then its limit rule (seed 001 section 3.4).
//
// RUN: dit-opt %s --split-input-file --fuse-all | dit-opt --split-input-file | FileCheck %s --check-prefixes=CHECK,A2
// RUN: dit-opt %s --split-input-file --fuse-all --target=ascend910_93 | dit-opt --split-input-file | FileCheck %s --check-prefixes=CHECK,A2
// RUN: dit-opt %s --split-input-file --fuse-all --target=ascend950 | dit-opt --split-input-file | FileCheck %s --check-prefixes=CHECK,A5
// Numerical check (issue 6): the unfused and transformed graphs on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused --max-elements=200000 > /dev/null
// RUN: dit-run %s --split-input-file --compare-unfused --max-elements=200000 --target=ascend950 > /dev/null

// Small dims: the normal rule folds both sides.
// CHECK-LABEL: func.func @fuse_all_small
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = false
func.func @fuse_all_small(%a: tensor<64x4xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x4xi8>) -> tensor<4x64xi8>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %r = "dit.quant_matmul"(%t1, %t2, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// x1 outer 65536 / inner 64 (neither rule on A2/A3) with x2 outer 128 / inner 70000 (both
// rules): x2 folds, x1 stays on A2/A3; on 950 both fold.
// CHECK-LABEL: func.func @fuse_all_mixed
// A2: %[[T1:.*]] = "dit.transpose"(%arg0)
// A2-NOT: "dit.transpose"
// A2: "dit.quant_matmul"(%[[T1]], %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true
// A2-SAME: : (tensor<65536x128xi8>, tensor<70000x128xi8>, tensor<70000xf32>) -> tensor<65536x70000xf16>
// A5-NOT: "dit.transpose"
// A5: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK: return
func.func @fuse_all_mixed(%a: tensor<128x65536xi8>, %w: tensor<70000x128xi8>, %s: tensor<70000xf32>) -> tensor<65536x70000xf16> {
  %t1 = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<128x65536xi8>) -> tensor<65536x128xi8>
  %t2 = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<70000x128xi8>) -> tensor<128x70000xi8>
  %r = "dit.quant_matmul"(%t1, %t2, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<65536x128xi8>, tensor<128x70000xi8>, tensor<70000xf32>) -> tensor<65536x70000xf16>
  return %r : tensor<65536x70000xf16>
}

// -----

// x1 outer 65535 / inner 70000: both rules allow it; it folds once (the flag flips once).
// CHECK-LABEL: func.func @fuse_all_folds_once
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = true, transpose_x2 = true
// CHECK-SAME: : (tensor<70000x65535xi8>, tensor<128x70000xi8>, tensor<128xf32>) -> tensor<65535x128xf16>
func.func @fuse_all_folds_once(%a: tensor<70000x65535xi8>, %w: tensor<128x70000xi8>, %s: tensor<128xf32>) -> tensor<65535x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<70000x65535xi8>) -> tensor<65535x70000xi8>
  %r = "dit.quant_matmul"(%t, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<65535x70000xi8>, tensor<128x70000xi8>, tensor<128xf32>) -> tensor<65535x128xf16>
  return %r : tensor<65535x128xf16>
}

// -----

// x2 FRACTAL_NZ outer 70000 / inner 128: the normal rule folds it (NZ); the limit rule would not.
// CHECK-LABEL: func.func @fuse_all_nz
// CHECK-NOT: "dit.transpose"
// CHECK: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x1 = false, transpose_x2 = true, x2_format = "FRACTAL_NZ"
func.func @fuse_all_nz(%a: tensor<4x70000xi8>, %w: tensor<128x70000xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<128x70000xi8>) -> tensor<70000x128xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, x2_format = "FRACTAL_NZ", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x70000xi8>, tensor<70000x128xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}
