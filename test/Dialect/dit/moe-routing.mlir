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

// expert_tokens is i32, as aclnnMoeInitRoutingV2 writes expertTokensCountOrCumsumOut; i64
// (IR written before that rule) still verifies, and the kernel contract refuses it at the call.
// CHECK-LABEL: func.func @moe_kernels
// CHECK: "dit.moe_init_routing"(%arg0, %arg1) {expert_tokens = "count", num_experts = 4 : i64} : (tensor<16x32xbf16>, tensor<16x2xi32>) -> (tensor<32x32xbf16>, tensor<32xi32>, tensor<4xi32>)
// CHECK: "dit.moe_finalize_routing"
// CHECK: "dit.moe_init_routing"(%arg0, %arg1) {expert_tokens = "cumsum", num_experts = 4 : i64} : (tensor<16x32xbf16>, tensor<16x2xi32>) -> (tensor<32x32xbf16>, tensor<32xi32>, tensor<4xi64>)
func.func @moe_kernels(%x: tensor<16x32xbf16>, %e: tensor<16x2xi32>, %w: tensor<16x2xbf16>) -> (tensor<16x32xbf16>, tensor<4xi32>, tensor<4xi64>) {
  %xs, %rows, %n = "dit.moe_init_routing"(%x, %e) {expert_tokens = "count", num_experts = 4 : i64} : (tensor<16x32xbf16>, tensor<16x2xi32>) -> (tensor<32x32xbf16>, tensor<32xi32>, tensor<4xi32>)
  %out = "dit.moe_finalize_routing"(%xs, %rows, %w) : (tensor<32x32xbf16>, tensor<32xi32>, tensor<16x2xbf16>) -> tensor<16x32xbf16>
  %xs2, %rows2, %n64 = "dit.moe_init_routing"(%x, %e) {expert_tokens = "cumsum", num_experts = 4 : i64} : (tensor<16x32xbf16>, tensor<16x2xi32>) -> (tensor<32x32xbf16>, tensor<32xi32>, tensor<4xi64>)
  return %out, %n, %n64 : tensor<16x32xbf16>, tensor<4xi32>, tensor<4xi64>
}

// -----

// The router kernel (aclnnMoeGatingTopKSoftmax), without and with finished, rank 2 and 3.
// CHECK-LABEL: func.func @moe_gating
// CHECK: "dit.moe_gating_topk_softmax"(%arg0) {k = 2 : i64, operandSegmentSizes = array<i32: 1, 0>} : (tensor<16x4xbf16>) -> (tensor<16x2xbf16>, tensor<16x2xi32>, tensor<16x2xi32>)
// CHECK: "dit.moe_gating_topk_softmax"(%arg1, %arg2) {k = 8 : i64, operandSegmentSizes = array<i32: 1, 1>} : (tensor<2x16x64xf32>, tensor<2x16xi1>) -> (tensor<2x16x8xf32>, tensor<2x16x8xi32>, tensor<2x16x8xi32>)
func.func @moe_gating(%x: tensor<16x4xbf16>, %x3: tensor<2x16x64xf32>, %done: tensor<2x16xi1>) -> (tensor<16x2xi32>, tensor<2x16x8xf32>) {
  %y, %e, %r = "dit.moe_gating_topk_softmax"(%x) {k = 2 : i64, operandSegmentSizes = array<i32: 1, 0>} : (tensor<16x4xbf16>) -> (tensor<16x2xbf16>, tensor<16x2xi32>, tensor<16x2xi32>)
  %y3, %e3, %r3 = "dit.moe_gating_topk_softmax"(%x3, %done) {k = 8 : i64, operandSegmentSizes = array<i32: 1, 1>} : (tensor<2x16x64xf32>, tensor<2x16xi1>) -> (tensor<2x16x8xf32>, tensor<2x16x8xi32>, tensor<2x16x8xi32>)
  return %e, %y3 : tensor<16x2xi32>, tensor<2x16x8xf32>
}
