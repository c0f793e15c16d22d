// RUN: dit-opt %s --split-input-file | dit-opt --split-input-file --dit-verify | FileCheck %s
//
// The MoE routing and indexing ops (dit.topk, dit.sort, dit.cumsum, dit.floor_div,
// dit.index_select, dit.scatter_add, dit.index_add) and dit.attention's mask_kind = "additive":
// valid forms round-trip and verify. Negative cases: moe-routing-invalid.mlir.

// CHECK-LABEL: func.func @routing
// CHECK: "dit.topk"(%arg0) {dim = 1 : i64, k = 2 : i64, largest = true, sorted = true}
// CHECK: "dit.sort"(%{{.*}}) {descending = false, dim = 0 : i64, stable = true}
// CHECK: "dit.scatter_add"
// CHECK: "dit.cumsum"
// CHECK: "dit.floor_div"
// CHECK: "dit.index_select"
// CHECK: "dit.index_add"
func.func @routing(%probs: tensor<4x3xbf16>, %x: tensor<4x8xbf16>, %zeros: tensor<3xi64>, %ones: tensor<8xi64>, %two: tensor<i64>, %acc: tensor<4x8xbf16>) -> (tensor<3xi64>, tensor<4x8xbf16>) {
  %v, %i = "dit.topk"(%probs) {k = 2 : i64, dim = 1 : i64, largest = true, sorted = true} : (tensor<4x3xbf16>) -> (tensor<4x2xbf16>, tensor<4x2xi64>)
  %flat = "dit.reshape"(%i) : (tensor<4x2xi64>) -> tensor<8xi64>
  %sv, %order = "dit.sort"(%flat) {dim = 0 : i64, descending = false, stable = true} : (tensor<8xi64>) -> (tensor<8xi64>, tensor<8xi64>)
  %counts = "dit.scatter_add"(%zeros, %flat, %ones) {dim = 0 : i64} : (tensor<3xi64>, tensor<8xi64>, tensor<8xi64>) -> tensor<3xi64>
  %ends = "dit.cumsum"(%counts) {dim = 0 : i64} : (tensor<3xi64>) -> tensor<3xi64>
  %token = "dit.floor_div"(%order, %two) : (tensor<8xi64>, tensor<i64>) -> tensor<8xi64>
  %rows = "dit.index_select"(%x, %token) {dim = 0 : i64} : (tensor<4x8xbf16>, tensor<8xi64>) -> tensor<8x8xbf16>
  %back = "dit.index_add"(%acc, %token, %rows) {dim = 0 : i64} : (tensor<4x8xbf16>, tensor<8xi64>, tensor<8x8xbf16>) -> tensor<4x8xbf16>
  return %ends, %back : tensor<3xi64>, tensor<4x8xbf16>
}

// -----

// CHECK-LABEL: func.func @additive_attention
// CHECK: mask_kind = "additive"
func.func @additive_attention(%q: tensor<1x2x16x64xbf16>, %k: tensor<1x2x32x64xbf16>, %m: tensor<1x2x16x32xbf16>) -> tensor<1x2x16x64xbf16> {
  %0 = "dit.attention"(%q, %k, %k, %m) {mask_kind = "additive", operandSegmentSizes = array<i32: 1, 1, 1, 1>, scale = 1.250000e-01 : f32} : (tensor<1x2x16x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x16x32xbf16>) -> tensor<1x2x16x64xbf16>
  return %0 : tensor<1x2x16x64xbf16>
}

// -----

// CHECK-LABEL: func.func @moe_kernels
// CHECK: "dit.moe_init_routing"(%arg0, %arg1) {expert_tokens = "count", num_experts = 4 : i64}
// CHECK: "dit.moe_finalize_routing"
func.func @moe_kernels(%x: tensor<16x32xbf16>, %e: tensor<16x2xi32>, %w: tensor<16x2xbf16>) -> (tensor<16x32xbf16>, tensor<4xi64>) {
  %xs, %rows, %n = "dit.moe_init_routing"(%x, %e) {expert_tokens = "count", num_experts = 4 : i64} : (tensor<16x32xbf16>, tensor<16x2xi32>) -> (tensor<32x32xbf16>, tensor<32xi32>, tensor<4xi64>)
  %out = "dit.moe_finalize_routing"(%xs, %rows, %w) : (tensor<32x32xbf16>, tensor<32xi32>, tensor<16x2xbf16>) -> tensor<16x32xbf16>
  return %out, %n : tensor<16x32xbf16>, tensor<4xi64>
}
