// MoE routing and indexing ops, CANN's MoE routing kernels and additive-mask attention: each
// lowers to its aclnn kernel
// through the kernel table, and runs (lowered, JIT-compiled, on the CPU reference) to the
// values worked out by hand below.
// RUN: dit-opt %s --split-input-file --dit-lower-to-aclnn | FileCheck %s
// RUN: dit-run %s --split-input-file --print-outputs | FileCheck %s --check-prefix=EXEC

// Top-2 routing of 3 tokens over 3 experts in the importer's grouped-GEMM form:
// probs rows [.1 .6 .3], [.5 .2 .3], [.2 .2 .6] -> top-2 experts [1 2], [0 2], [2 0] (the tie
// .2/.2 keeps the lower index); flattened [1 2 0 2 2 0]; stable argsort [2 5 0 1 3 4]; tokens
// per expert [2 1 3], their ends [2 3 6]; token of each sorted slot = slot / 2 = [1 2 0 0 1 2];
// gathered rows x[1] x[2] x[0] x[0] x[1] x[2]; added back: every token twice, 2·x.
// CHECK-DAG: ("aclnnTopk\00")
// CHECK-DAG: ("aclnnSort\00")
// CHECK-DAG: ("aclnnScatterAdd\00")
// CHECK-DAG: ("aclnnCumsum\00")
// CHECK-DAG: ("aclnnFloorDivide\00")
// CHECK-DAG: ("aclnnIndexSelect\00")
// CHECK-DAG: ("aclnnIndexAdd\00")
// CHECK-LABEL: func.func @routing(
// CHECK-SAME: dit.launches = 7 : i64
// EXEC-LABEL: @routing: 7 kernels
// EXEC: values f32[3,2]: [0.600000, 0.300000, 0.500000, 0.300000, 0.600000, 0.200000]
// EXEC: values i64[3,2]: [1.000000, 2.000000, 0.000000, 2.000000, 2.000000, 0.000000]
// EXEC: values i64[6]: [2.000000, 5.000000, 0.000000, 1.000000, 3.000000, 4.000000]
// EXEC: values i64[3]: [2.000000, 1.000000, 3.000000]
// EXEC: values i64[3]: [2.000000, 3.000000, 6.000000]
// EXEC: values i64[6]: [1.000000, 2.000000, 0.000000, 0.000000, 1.000000, 2.000000]
// EXEC: values f32[6,2]: [3.000000, 4.000000, 5.000000, 6.000000, 1.000000, 2.000000, 1.000000, 2.000000, ...]
// EXEC: values f32[3,2]: [2.000000, 4.000000, 6.000000, 8.000000, 10.000000, 12.000000]
func.func @routing() -> (tensor<3x2xf32>, tensor<3x2xi64>, tensor<6xi64>, tensor<3xi64>, tensor<3xi64>, tensor<6xi64>, tensor<6x2xf32>, tensor<3x2xf32>) {
  %probs = arith.constant dense<[[0.1, 0.6, 0.3], [0.5, 0.2, 0.3], [0.2, 0.2, 0.6]]> : tensor<3x3xf32>
  %v, %i = "dit.topk"(%probs) {k = 2 : i64, dim = 1 : i64, largest = true, sorted = true} : (tensor<3x3xf32>) -> (tensor<3x2xf32>, tensor<3x2xi64>)
  %flat = "dit.reshape"(%i) : (tensor<3x2xi64>) -> tensor<6xi64>
  %sv, %order = "dit.sort"(%flat) {dim = 0 : i64, descending = false, stable = true} : (tensor<6xi64>) -> (tensor<6xi64>, tensor<6xi64>)
  %zeros = arith.constant dense<0> : tensor<3xi64>
  %ones = arith.constant dense<1> : tensor<6xi64>
  %counts = "dit.scatter_add"(%zeros, %flat, %ones) {dim = 0 : i64} : (tensor<3xi64>, tensor<6xi64>, tensor<6xi64>) -> tensor<3xi64>
  %ends = "dit.cumsum"(%counts) {dim = 0 : i64} : (tensor<3xi64>) -> tensor<3xi64>
  %two = arith.constant dense<2> : tensor<i64>
  %token = "dit.floor_div"(%order, %two) : (tensor<6xi64>, tensor<i64>) -> tensor<6xi64>
  %x = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %rows = "dit.index_select"(%x, %token) {dim = 0 : i64} : (tensor<3x2xf32>, tensor<6xi64>) -> tensor<6x2xf32>
  %acc = arith.constant dense<0.0> : tensor<3x2xf32>
  %back = "dit.index_add"(%acc, %token, %rows) {dim = 0 : i64} : (tensor<3x2xf32>, tensor<6xi64>, tensor<6x2xf32>) -> tensor<3x2xf32>
  return %v, %i, %order, %counts, %ends, %token, %rows, %back : tensor<3x2xf32>, tensor<3x2xi64>, tensor<6xi64>, tensor<3xi64>, tensor<3xi64>, tensor<6xi64>, tensor<6x2xf32>, tensor<3x2xf32>
}

// -----

// Additive mask: softmax(q·kᵀ·scale + mask)·v. q = [1 1], keys [1 1] and [0 0], scale 0.5:
// scores 1 and 0. Mask [ln 3, 0]: weights 3e/(3e+1) and 1/(3e+1), so (30e + 20)/(3e + 1) =
// 11.0923 (f32). Mask [0, -inf]: only the first key, 10. The same mask as "masked_out" (the
// default): non-zero masks the first key out, 20.
// CHECK-DAG: ("aclnnFusedInferAttentionScoreV2\00")
// CHECK-LABEL: func.func @additive_attention
// EXEC-LABEL: @additive_attention: 3 kernels
// EXEC: values f32[1,1,1,1]: [11.092{{[0-9]*}}]
// EXEC: values f32[1,1,1,1]: [10.000000]
// EXEC: values f32[1,1,1,1]: [20.000000]
func.func @additive_attention() -> (tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) {
  %q = arith.constant dense<1.0> : tensor<1x1x1x2xf32>
  %k = arith.constant dense<[[[[1.0, 1.0], [0.0, 0.0]]]]> : tensor<1x1x2x2xf32>
  %v = arith.constant dense<[[[[10.0], [20.0]]]]> : tensor<1x1x2x1xf32>
  %m = arith.constant dense<[[[[1.0986123, 0.0]]]]> : tensor<1x1x1x2xf32>
  %minf = arith.constant dense<[[[[0.0, 0xFF800000]]]]> : tensor<1x1x1x2xf32>
  %a = "dit.attention"(%q, %k, %v, %m) {mask_kind = "additive", operandSegmentSizes = array<i32: 1, 1, 1, 1>, scale = 5.000000e-01 : f32} : (tensor<1x1x1x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x1x1xf32>
  %b = "dit.attention"(%q, %k, %v, %minf) {mask_kind = "additive", operandSegmentSizes = array<i32: 1, 1, 1, 1>, scale = 5.000000e-01 : f32} : (tensor<1x1x1x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x1x1xf32>
  %c = "dit.attention"(%q, %k, %v, %m) {operandSegmentSizes = array<i32: 1, 1, 1, 1>, scale = 5.000000e-01 : f32} : (tensor<1x1x1x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x1x1xf32>
  return %a, %b, %c : tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>
}

// -----

// The same routing as CANN's two MoE kernels. Init: the pairs sorted by expert (stable) are
// 2, 5 | 0 | 1, 3, 4, i.e. tokens 1 2 0 0 1 2; expandedRowIdx[sortedRowIdx[i]] = i gives
// [2 3 0 4 5 1]; cumsum of the histogram [2 1 3] is [2 3 6]. Finalize with expert outputs =
// expanded rows · (row + 1) and scales [[.5 .25] [1 2] [.125 4]]: token 0 gets
// x0·(.5·3 + .25·4) = 2.5·x0, token 1 x1·(1·1 + 2·5) = 11·x1, token 2 x2·(.125·6 + 4·2) = 8.75·x2.
// CHECK-DAG: ("aclnnMoeInitRoutingV2\00")
// CHECK-DAG: ("aclnnMoeFinalizeRoutingV2\00")
// CHECK-LABEL: func.func @moe_kernels(
// EXEC-LABEL: @moe_kernels: 3 kernels
// EXEC: values f32[6,2]: [3.000000, 4.000000, 5.000000, 6.000000, 1.000000, 2.000000, 1.000000, 2.000000, ...]
// EXEC: values i32[6]: [2.000000, 3.000000, 0.000000, 4.000000, 5.000000, 1.000000]
// EXEC: values i32[3]: [2.000000, 3.000000, 6.000000]
// EXEC: values f32[3,2]: [2.500000, 5.000000, 33.000000, 44.000000, 43.750000, 52.500000]
func.func @moe_kernels() -> (tensor<6x2xf32>, tensor<6xi32>, tensor<3xi32>, tensor<3x2xf32>) {
  %x = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %e = arith.constant dense<[[1, 2], [0, 2], [2, 0]]> : tensor<3x2xi64>
  %xs, %rows, %ends = "dit.moe_init_routing"(%x, %e) {expert_tokens = "cumsum", num_experts = 3 : i64} : (tensor<3x2xf32>, tensor<3x2xi64>) -> (tensor<6x2xf32>, tensor<6xi32>, tensor<3xi32>)
  %factor = arith.constant dense<[[1.0], [2.0], [3.0], [4.0], [5.0], [6.0]]> : tensor<6x1xf32>
  %y = "dit.mul"(%xs, %factor) : (tensor<6x2xf32>, tensor<6x1xf32>) -> tensor<6x2xf32>
  %scales = arith.constant dense<[[0.5, 0.25], [1.0, 2.0], [0.125, 4.0]]> : tensor<3x2xf32>
  %out = "dit.moe_finalize_routing"(%y, %rows, %scales) : (tensor<6x2xf32>, tensor<6xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %xs, %rows, %ends, %out : tensor<6x2xf32>, tensor<6xi32>, tensor<3xi32>, tensor<3x2xf32>
}
