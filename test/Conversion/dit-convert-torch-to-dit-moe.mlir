// dit-convert-torch-to-dit, MoE routing and masked attention: topk, sort / argsort, cumsum,
// floor_divide, index_select, scatter_add and index_add become one dit op each (torch
// semantics, see DIALECT.md); the importer's whole top-k routing (HiDream's grouped-GEMM form)
// is raised onto dit.moe_init_routing + dit.moe_finalize_routing (aclnnMoeInitRoutingV2 /
// aclnnMoeFinalizeRoutingV2); a float attn_mask becomes dit.attention's additive mask, and a
// Python None argument of an op kept opaque is left out of its attributes (never a valueless
// attribute). Outputs are re-parsed without unregistered dialects and verified; the functions
// without out-of-range indices also run, as converted and fused.
//
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit | dit-opt --split-input-file | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit --fuse-all | dit-opt --split-input-file --dit-verify > /dev/null
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit | dit-run - --split-input-file --compare-unfused --exclude=opaque_none,index_add_alpha > /dev/null

// ----- routing steps one by one (no router weights: not the form the MoE kernels take) -----
// CHECK-LABEL: func.func @moe_routing
// CHECK: %[[TK:.*]]:2 = "dit.topk"(%arg0) {dim = 1 : i64, k = 2 : i64, largest = true, sorted = false} : (tensor<4x3xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>)
// CHECK: %[[F:.*]] = "dit.reshape"(%[[TK]]#1) : (tensor<4x2xi64>) -> tensor<8xi64>
// CHECK: %[[S:.*]]:2 = "dit.sort"(%[[F]]) {descending = false, dim = 0 : i64, stable = true} : (tensor<8xi64>) -> (tensor<8xi64>, tensor<8xi64>)
// CHECK: %[[N:.*]] = "dit.scatter_add"(%{{.*}}, %[[F]], %{{.*}}) {dim = 0 : i64} : (tensor<3xi64>, tensor<8xi64>, tensor<8xi64>) -> tensor<3xi64>
// CHECK: "dit.cumsum"(%[[N]]) {dim = 0 : i64} : (tensor<3xi64>) -> tensor<3xi64>
// CHECK: %[[T:.*]] = "dit.floor_div"(%[[S]]#1, %{{.*}}) : (tensor<8xi64>, tensor<i64>) -> tensor<8xi64>
// CHECK: %[[G:.*]] = "dit.index_select"(%arg1, %[[T]]) {dim = 0 : i64} : (tensor<4x6xf32>, tensor<8xi64>) -> tensor<8x6xf32>
// CHECK: "dit.index_add"(%{{.*}}, %[[T]], %{{.*}}) {dim = 0 : i64} : (tensor<4x6xf32>, tensor<8xi64>, tensor<8x6xf32>) -> tensor<4x6xf32>
// CHECK-NOT: dit.opaque
func.func @moe_routing(%probs: !torch.vtensor<[4,3],f32>, %x: !torch.vtensor<[4,6],f32>) -> (!torch.vtensor<[4,6],f32>, !torch.vtensor<[3],si64>) {
  %none = "torch.constant.none"() : () -> !torch.none
  %false = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %true = "torch.constant.bool"() <{value = true}> : () -> !torch.bool
  %c0 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %c1 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c2 = "torch.constant.int"() <{value = 2 : i64}> : () -> !torch.int
  %cm1 = "torch.constant.int"() <{value = -1 : i64}> : () -> !torch.int
  %c8 = "torch.constant.int"() <{value = 8 : i64}> : () -> !torch.int
  %v:2 = "torch.aten.topk"(%probs, %c2, %cm1, %true, %false) : (!torch.vtensor<[4,3],f32>, !torch.int, !torch.int, !torch.bool, !torch.bool) -> (!torch.vtensor<[4,2],f32>, !torch.vtensor<[4,2],si64>)
  %l8 = "torch.prim.ListConstruct"(%c8) : (!torch.int) -> !torch.list<int>
  %flat = "torch.aten.view"(%v#1, %l8) : (!torch.vtensor<[4,2],si64>, !torch.list<int>) -> !torch.vtensor<[8],si64>
  %order = "torch.operator"(%flat, %true, %cm1, %false) {name = "torch.aten.argsort.stable"} : (!torch.vtensor<[8],si64>, !torch.bool, !torch.int, !torch.bool) -> !torch.vtensor<[8],si64>
  %zeros = "torch.vtensor.literal"() <{value = dense<0> : tensor<3xsi64>}> : () -> !torch.vtensor<[3],si64>
  %ones = "torch.vtensor.literal"() <{value = dense<1> : tensor<8xsi64>}> : () -> !torch.vtensor<[8],si64>
  %counts = "torch.aten.scatter_add"(%zeros, %c0, %flat, %ones) : (!torch.vtensor<[3],si64>, !torch.int, !torch.vtensor<[8],si64>, !torch.vtensor<[8],si64>) -> !torch.vtensor<[3],si64>
  %ends = "torch.aten.cumsum"(%counts, %c0, %none) : (!torch.vtensor<[3],si64>, !torch.int, !torch.none) -> !torch.vtensor<[3],si64>
  %token = "torch.aten.floor_divide.Scalar"(%order, %c2) : (!torch.vtensor<[8],si64>, !torch.int) -> !torch.vtensor<[8],si64>
  %rows = "torch.aten.index_select"(%x, %c0, %token) : (!torch.vtensor<[4,6],f32>, !torch.int, !torch.vtensor<[8],si64>) -> !torch.vtensor<[8,6],f32>
  %acc = "torch.vtensor.literal"() <{value = dense<0.0> : tensor<4x6xf32>}> : () -> !torch.vtensor<[4,6],f32>
  %out = "torch.operator"(%acc, %c0, %token, %rows, %c1) {name = "torch.aten.index_add"} : (!torch.vtensor<[4,6],f32>, !torch.int, !torch.vtensor<[8],si64>, !torch.vtensor<[8,6],f32>, !torch.int) -> !torch.vtensor<[4,6],f32>
  return %out, %ends : !torch.vtensor<[4,6],f32>, !torch.vtensor<[3],si64>
}

// -----

// ----- the importer's grouped-GEMM MoE routing (HiDream), top-2 of 4 tokens over 3 experts, with
// an identity "expert": gather, weights in sorted order, combine -> the two MoE kernels -----
// CHECK-LABEL: func.func @moe_routing_raised
// CHECK: %[[TK:.*]]:2 = "dit.topk"(%arg0) {dim = 1 : i64, k = 2 : i64, largest = true, sorted = false}
// The init kernel takes int32 ids on Atlas A2/A3 (aclnnMoeInitRoutingV2.md): topk's int64 ids
// are narrowed (one kernel unless enable_moe_gating fuses the router, test/Patterns/moe-gating.mlir).
// CHECK-NEXT: %[[I:.*]] = "dit.cast"(%[[TK]]#1) : (tensor<4x2xi64>) -> tensor<4x2xi32>
// The tokens per expert come out INT32 (expertTokensCountOrCumsumOut, aclnnMoeInitRoutingV2.md);
// the graph's int64 cumsum is that, widened (one cast kernel).
// CHECK-NEXT: %[[R:.*]]:3 = "dit.moe_init_routing"(%arg1, %[[I]]) {expert_tokens = "cumsum", num_experts = 3 : i64} : (tensor<4x6xf32>, tensor<4x2xi32>) -> (tensor<8x6xf32>, tensor<8xi32>, tensor<3xi32>)
// CHECK-NEXT: %[[W:.*]] = "dit.cast"(%[[R]]#2) : (tensor<3xi32>) -> tensor<3xi64>
// CHECK-NEXT: %[[F:.*]] = "dit.moe_finalize_routing"(%[[R]]#0, %[[R]]#1, %[[TK]]#0) : (tensor<8x6xf32>, tensor<8xi32>, tensor<4x2xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: return %[[F]], %[[W]]
// REPORT: applied at {{.*}}: MoE routing (topk, sort, floor_div, index_select, scatter_add, cumsum, index_add) -> dit.moe_init_routing + dit.moe_finalize_routing
func.func @moe_routing_raised(%probs: !torch.vtensor<[4,3],f32>, %x: !torch.vtensor<[4,6],f32>) -> (!torch.vtensor<[4,6],f32>, !torch.vtensor<[3],si64>) {
  %none = "torch.constant.none"() : () -> !torch.none
  %false = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %true = "torch.constant.bool"() <{value = true}> : () -> !torch.bool
  %c0 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %c1 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c2 = "torch.constant.int"() <{value = 2 : i64}> : () -> !torch.int
  %cm1 = "torch.constant.int"() <{value = -1 : i64}> : () -> !torch.int
  %c8 = "torch.constant.int"() <{value = 8 : i64}> : () -> !torch.int
  %v:2 = "torch.aten.topk"(%probs, %c2, %cm1, %true, %false) : (!torch.vtensor<[4,3],f32>, !torch.int, !torch.int, !torch.bool, !torch.bool) -> (!torch.vtensor<[4,2],f32>, !torch.vtensor<[4,2],si64>)
  %l8 = "torch.prim.ListConstruct"(%c8) : (!torch.int) -> !torch.list<int>
  %flat = "torch.aten.view"(%v#1, %l8) : (!torch.vtensor<[4,2],si64>, !torch.list<int>) -> !torch.vtensor<[8],si64>
  %l81 = "torch.prim.ListConstruct"(%c8, %c1) : (!torch.int, !torch.int) -> !torch.list<int>
  %wflat = "torch.aten.view"(%v#0, %l81) : (!torch.vtensor<[4,2],f32>, !torch.list<int>) -> !torch.vtensor<[8,1],f32>
  %order = "torch.operator"(%flat, %true, %cm1, %false) {name = "torch.aten.argsort.stable"} : (!torch.vtensor<[8],si64>, !torch.bool, !torch.int, !torch.bool) -> !torch.vtensor<[8],si64>
  %zeros = "torch.vtensor.literal"() <{value = dense<0> : tensor<3xsi64>}> : () -> !torch.vtensor<[3],si64>
  %ones = "torch.vtensor.literal"() <{value = dense<1> : tensor<8xsi64>}> : () -> !torch.vtensor<[8],si64>
  %counts = "torch.aten.scatter_add"(%zeros, %c0, %flat, %ones) : (!torch.vtensor<[3],si64>, !torch.int, !torch.vtensor<[8],si64>, !torch.vtensor<[8],si64>) -> !torch.vtensor<[3],si64>
  %ends = "torch.aten.cumsum"(%counts, %c0, %none) : (!torch.vtensor<[3],si64>, !torch.int, !torch.none) -> !torch.vtensor<[3],si64>
  %token = "torch.aten.floor_divide.Scalar"(%order, %c2) : (!torch.vtensor<[8],si64>, !torch.int) -> !torch.vtensor<[8],si64>
  %rows = "torch.aten.index_select"(%x, %c0, %token) : (!torch.vtensor<[4,6],f32>, !torch.int, !torch.vtensor<[8],si64>) -> !torch.vtensor<[8,6],f32>
  %ws = "torch.aten.index_select"(%wflat, %c0, %order) : (!torch.vtensor<[8,1],f32>, !torch.int, !torch.vtensor<[8],si64>) -> !torch.vtensor<[8,1],f32>
  %y = "torch.aten.mul.Tensor"(%rows, %ws) : (!torch.vtensor<[8,6],f32>, !torch.vtensor<[8,1],f32>) -> !torch.vtensor<[8,6],f32>
  %acc = "torch.vtensor.literal"() <{value = dense<0.0> : tensor<4x6xf32>}> : () -> !torch.vtensor<[4,6],f32>
  %out = "torch.operator"(%acc, %c0, %token, %y, %c1) {name = "torch.aten.index_add"} : (!torch.vtensor<[4,6],f32>, !torch.int, !torch.vtensor<[8],si64>, !torch.vtensor<[8,6],f32>, !torch.int) -> !torch.vtensor<[4,6],f32>
  return %out, %ends : !torch.vtensor<[4,6],f32>, !torch.vtensor<[3],si64>
}

// -----

// The graph narrows the tokens per expert to int32 (torch._grouped_mm's offsets) and widens
// them back (dit.grouped_matmul's int64 group list): each is a count of the 8 routed pairs,
// so the narrowing is exact and is the init op's own INT32 result; the widening stays, a
// cast kernel (aclnnGroupedMatmulV4's groupListOptional is INT64). No other cast is left.
// CHECK-LABEL: func.func @moe_routing_int32_offsets
// CHECK: %[[R:.*]]:3 = "dit.moe_init_routing"{{.*}} -> (tensor<8x6xf32>, tensor<8xi32>, tensor<3xi32>)
// CHECK-NOT: "dit.cast"
// CHECK: %[[W:.*]] = "dit.cast"(%[[R]]#2) : (tensor<3xi32>) -> tensor<3xi64>
// CHECK-NOT: "dit.cast"
// CHECK: return %{{.*}}, %[[W]], %[[R]]#2
func.func @moe_routing_int32_offsets(%probs: !torch.vtensor<[4,3],f32>, %x: !torch.vtensor<[4,6],f32>) -> (!torch.vtensor<[4,6],f32>, !torch.vtensor<[3],si64>, !torch.vtensor<[3],si32>) {
  %none = "torch.constant.none"() : () -> !torch.none
  %false = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %true = "torch.constant.bool"() <{value = true}> : () -> !torch.bool
  %c0 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %c1 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c2 = "torch.constant.int"() <{value = 2 : i64}> : () -> !torch.int
  %cm1 = "torch.constant.int"() <{value = -1 : i64}> : () -> !torch.int
  %c8 = "torch.constant.int"() <{value = 8 : i64}> : () -> !torch.int
  %v:2 = "torch.aten.topk"(%probs, %c2, %cm1, %true, %false) : (!torch.vtensor<[4,3],f32>, !torch.int, !torch.int, !torch.bool, !torch.bool) -> (!torch.vtensor<[4,2],f32>, !torch.vtensor<[4,2],si64>)
  %l8 = "torch.prim.ListConstruct"(%c8) : (!torch.int) -> !torch.list<int>
  %flat = "torch.aten.view"(%v#1, %l8) : (!torch.vtensor<[4,2],si64>, !torch.list<int>) -> !torch.vtensor<[8],si64>
  %l81 = "torch.prim.ListConstruct"(%c8, %c1) : (!torch.int, !torch.int) -> !torch.list<int>
  %wflat = "torch.aten.view"(%v#0, %l81) : (!torch.vtensor<[4,2],f32>, !torch.list<int>) -> !torch.vtensor<[8,1],f32>
  %order = "torch.operator"(%flat, %true, %cm1, %false) {name = "torch.aten.argsort.stable"} : (!torch.vtensor<[8],si64>, !torch.bool, !torch.int, !torch.bool) -> !torch.vtensor<[8],si64>
  %zeros = "torch.vtensor.literal"() <{value = dense<0> : tensor<3xsi64>}> : () -> !torch.vtensor<[3],si64>
  %ones = "torch.vtensor.literal"() <{value = dense<1> : tensor<8xsi64>}> : () -> !torch.vtensor<[8],si64>
  %counts = "torch.aten.scatter_add"(%zeros, %c0, %flat, %ones) : (!torch.vtensor<[3],si64>, !torch.int, !torch.vtensor<[8],si64>, !torch.vtensor<[8],si64>) -> !torch.vtensor<[3],si64>
  %ends = "torch.aten.cumsum"(%counts, %c0, %none) : (!torch.vtensor<[3],si64>, !torch.int, !torch.none) -> !torch.vtensor<[3],si64>
  %token = "torch.aten.floor_divide.Scalar"(%order, %c2) : (!torch.vtensor<[8],si64>, !torch.int) -> !torch.vtensor<[8],si64>
  %rows = "torch.aten.index_select"(%x, %c0, %token) : (!torch.vtensor<[4,6],f32>, !torch.int, !torch.vtensor<[8],si64>) -> !torch.vtensor<[8,6],f32>
  %ws = "torch.aten.index_select"(%wflat, %c0, %order) : (!torch.vtensor<[8,1],f32>, !torch.int, !torch.vtensor<[8],si64>) -> !torch.vtensor<[8,1],f32>
  %y = "torch.aten.mul.Tensor"(%rows, %ws) : (!torch.vtensor<[8,6],f32>, !torch.vtensor<[8,1],f32>) -> !torch.vtensor<[8,6],f32>
  %acc = "torch.vtensor.literal"() <{value = dense<0.0> : tensor<4x6xf32>}> : () -> !torch.vtensor<[4,6],f32>
  %out = "torch.operator"(%acc, %c0, %token, %y, %c1) {name = "torch.aten.index_add"} : (!torch.vtensor<[4,6],f32>, !torch.int, !torch.vtensor<[8],si64>, !torch.vtensor<[8,6],f32>, !torch.int) -> !torch.vtensor<[4,6],f32>
  %c3 = "torch.constant.int"() <{value = 3 : i64}> : () -> !torch.int
  %c4 = "torch.constant.int"() <{value = 4 : i64}> : () -> !torch.int
  %ends32 = "torch.aten._to_copy"(%ends, %c3, %none, %none, %none, %false, %none) : (!torch.vtensor<[3],si64>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[3],si32>
  %ends64 = "torch.aten._to_copy"(%ends32, %c4, %none, %none, %none, %false, %none) : (!torch.vtensor<[3],si32>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[3],si64>
  return %out, %ends64, %ends32 : !torch.vtensor<[4,6],f32>, !torch.vtensor<[3],si64>, !torch.vtensor<[3],si32>
}

// -----

// ----- renormalised routing weights (w / Σw) are the finalize scales -----
// CHECK-LABEL: func.func @moe_routing_renormalised
// CHECK: %[[TK:.*]]:2 = "dit.topk"(%arg0)
// CHECK: %[[W:.*]] = "dit.div"
// CHECK: %[[I:.*]] = "dit.cast"(%[[TK]]#1)
// CHECK-NEXT: %[[R:.*]]:3 = "dit.moe_init_routing"(%arg1, %[[I]])
// CHECK-NEXT: "dit.cast"(%[[R]]#2) : (tensor<3xi32>) -> tensor<3xi64>
// CHECK-NEXT: "dit.moe_finalize_routing"(%[[R]]#0, %[[R]]#1, %[[W]])
// CHECK-NOT: dit.index_add
func.func @moe_routing_renormalised(%probs: !torch.vtensor<[4,3],f32>, %x: !torch.vtensor<[4,6],f32>) -> (!torch.vtensor<[4,6],f32>, !torch.vtensor<[3],si64>) {
  %none = "torch.constant.none"() : () -> !torch.none
  %false = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %true = "torch.constant.bool"() <{value = true}> : () -> !torch.bool
  %c0 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %c1 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c2 = "torch.constant.int"() <{value = 2 : i64}> : () -> !torch.int
  %cm1 = "torch.constant.int"() <{value = -1 : i64}> : () -> !torch.int
  %c8 = "torch.constant.int"() <{value = 8 : i64}> : () -> !torch.int
  %v:2 = "torch.aten.topk"(%probs, %c2, %cm1, %true, %false) : (!torch.vtensor<[4,3],f32>, !torch.int, !torch.int, !torch.bool, !torch.bool) -> (!torch.vtensor<[4,2],f32>, !torch.vtensor<[4,2],si64>)
  %l8 = "torch.prim.ListConstruct"(%c8) : (!torch.int) -> !torch.list<int>
  %flat = "torch.aten.view"(%v#1, %l8) : (!torch.vtensor<[4,2],si64>, !torch.list<int>) -> !torch.vtensor<[8],si64>
  %l81 = "torch.prim.ListConstruct"(%c8, %c1) : (!torch.int, !torch.int) -> !torch.list<int>
  %lm1 = "torch.prim.ListConstruct"(%cm1) : (!torch.int) -> !torch.list<int>
  %den = "torch.aten.sum.dim_IntList"(%v#0, %lm1, %true, %none) : (!torch.vtensor<[4,2],f32>, !torch.list<int>, !torch.bool, !torch.none) -> !torch.vtensor<[4,1],f32>
  %wn = "torch.aten.div.Tensor"(%v#0, %den) : (!torch.vtensor<[4,2],f32>, !torch.vtensor<[4,1],f32>) -> !torch.vtensor<[4,2],f32>
  %wflat = "torch.aten.view"(%wn, %l81) : (!torch.vtensor<[4,2],f32>, !torch.list<int>) -> !torch.vtensor<[8,1],f32>
  %order = "torch.operator"(%flat, %true, %cm1, %false) {name = "torch.aten.argsort.stable"} : (!torch.vtensor<[8],si64>, !torch.bool, !torch.int, !torch.bool) -> !torch.vtensor<[8],si64>
  %zeros = "torch.vtensor.literal"() <{value = dense<0> : tensor<3xsi64>}> : () -> !torch.vtensor<[3],si64>
  %ones = "torch.vtensor.literal"() <{value = dense<1> : tensor<8xsi64>}> : () -> !torch.vtensor<[8],si64>
  %counts = "torch.aten.scatter_add"(%zeros, %c0, %flat, %ones) : (!torch.vtensor<[3],si64>, !torch.int, !torch.vtensor<[8],si64>, !torch.vtensor<[8],si64>) -> !torch.vtensor<[3],si64>
  %ends = "torch.aten.cumsum"(%counts, %c0, %none) : (!torch.vtensor<[3],si64>, !torch.int, !torch.none) -> !torch.vtensor<[3],si64>
  %token = "torch.aten.floor_divide.Scalar"(%order, %c2) : (!torch.vtensor<[8],si64>, !torch.int) -> !torch.vtensor<[8],si64>
  %rows = "torch.aten.index_select"(%x, %c0, %token) : (!torch.vtensor<[4,6],f32>, !torch.int, !torch.vtensor<[8],si64>) -> !torch.vtensor<[8,6],f32>
  %ws = "torch.aten.index_select"(%wflat, %c0, %order) : (!torch.vtensor<[8,1],f32>, !torch.int, !torch.vtensor<[8],si64>) -> !torch.vtensor<[8,1],f32>
  %y = "torch.aten.mul.Tensor"(%rows, %ws) : (!torch.vtensor<[8,6],f32>, !torch.vtensor<[8,1],f32>) -> !torch.vtensor<[8,6],f32>
  %acc = "torch.vtensor.literal"() <{value = dense<0.0> : tensor<4x6xf32>}> : () -> !torch.vtensor<[4,6],f32>
  %out = "torch.operator"(%acc, %c0, %token, %y, %c1) {name = "torch.aten.index_add"} : (!torch.vtensor<[4,6],f32>, !torch.int, !torch.vtensor<[8],si64>, !torch.vtensor<[8,6],f32>, !torch.int) -> !torch.vtensor<[4,6],f32>
  return %out, %ends : !torch.vtensor<[4,6],f32>, !torch.vtensor<[3],si64>
}

// -----

// ----- sort (values and indices), argsort without a stable flag, floor_divide of two tensors -----
// CHECK-LABEL: func.func @sort_forms
// CHECK: "dit.sort"(%arg0) {descending = true, dim = 0 : i64, stable = false} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xi64>)
// CHECK: "dit.sort"(%arg0) {descending = false, dim = 1 : i64, stable = false} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xi64>)
// CHECK: "dit.topk"(%arg0) {dim = 0 : i64, k = 1 : i64, largest = false, sorted = true} : (tensor<4x3xf32>) -> (tensor<1x3xf32>, tensor<1x3xi64>)
// CHECK: "dit.floor_div"(%arg0, %arg1) : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NOT: dit.opaque
func.func @sort_forms(%x: !torch.vtensor<[4,3],f32>, %d: !torch.vtensor<[3],f32>) -> (!torch.vtensor<[4,3],f32>, !torch.vtensor<[4,3],si64>, !torch.vtensor<[4,3],si64>, !torch.vtensor<[1,3],f32>, !torch.vtensor<[4,3],f32>) {
  %false = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %true = "torch.constant.bool"() <{value = true}> : () -> !torch.bool
  %c0 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %c1 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %cm1 = "torch.constant.int"() <{value = -1 : i64}> : () -> !torch.int
  %s:2 = "torch.aten.sort"(%x, %c0, %true) : (!torch.vtensor<[4,3],f32>, !torch.int, !torch.bool) -> (!torch.vtensor<[4,3],f32>, !torch.vtensor<[4,3],si64>)
  %a = "torch.aten.argsort"(%x, %cm1, %false) : (!torch.vtensor<[4,3],f32>, !torch.int, !torch.bool) -> !torch.vtensor<[4,3],si64>
  %t:2 = "torch.aten.topk"(%x, %c1, %c0, %false, %true) : (!torch.vtensor<[4,3],f32>, !torch.int, !torch.int, !torch.bool, !torch.bool) -> (!torch.vtensor<[1,3],f32>, !torch.vtensor<[1,3],si64>)
  %q = "torch.aten.floor_divide"(%x, %d) : (!torch.vtensor<[4,3],f32>, !torch.vtensor<[3],f32>) -> !torch.vtensor<[4,3],f32>
  return %s#0, %s#1, %a, %t#0, %q : !torch.vtensor<[4,3],f32>, !torch.vtensor<[4,3],si64>, !torch.vtensor<[4,3],si64>, !torch.vtensor<[1,3],f32>, !torch.vtensor<[4,3],f32>
}

// -----

// ----- a float attn_mask is additive: cast to q's type, broadcast to [B|1, N, Sq, Skv] -----
// CHECK-LABEL: func.func @sdpa_additive_mask
// CHECK: %[[C:.*]] = "dit.cast"(%arg3) : (tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xbf16>
// CHECK: %[[B:.*]] = "dit.broadcast"(%[[C]]) : (tensor<1x1x1x8xbf16>) -> tensor<1x2x4x8xbf16>
// CHECK: %[[A:.*]] = "dit.attention"(%arg0, %arg1, %arg2, %[[B]]) {layout = "BNSD", mask_kind = "additive", operandSegmentSizes = array<i32: 1, 1, 1, 1>, scale = 1.250000e-01 : f32}
// CHECK: %[[B2:.*]] = "dit.broadcast"(%arg4) : (tensor<4x8xbf16>) -> tensor<1x2x4x8xbf16>
// CHECK: "dit.attention"(%[[A]], %arg1, %arg2, %[[B2]]) {layout = "BNSD", mask_kind = "additive", operandSegmentSizes = array<i32: 1, 1, 1, 1>, scale = 1.250000e-01 : f32}
// CHECK-NOT: dit.opaque
func.func @sdpa_additive_mask(%q: !torch.vtensor<[1,2,4,64],bf16>, %k: !torch.vtensor<[1,2,8,64],bf16>, %v: !torch.vtensor<[1,2,8,64],bf16>, %m: !torch.vtensor<[1,1,1,8],f32>, %m2: !torch.vtensor<[4,8],bf16>) -> !torch.vtensor<[1,2,4,64],bf16> {
  %none = "torch.constant.none"() : () -> !torch.none
  %p = "torch.constant.float"() <{value = 0.000000e+00 : f64}> : () -> !torch.float
  %false = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %0 = "torch.aten.scaled_dot_product_attention"(%q, %k, %v, %m, %p, %false, %none, %false) : (!torch.vtensor<[1,2,4,64],bf16>, !torch.vtensor<[1,2,8,64],bf16>, !torch.vtensor<[1,2,8,64],bf16>, !torch.vtensor<[1,1,1,8],f32>, !torch.float, !torch.bool, !torch.none, !torch.bool) -> !torch.vtensor<[1,2,4,64],bf16>
  %1 = "torch.aten.scaled_dot_product_attention"(%0, %k, %v, %m2, %p, %false, %none, %false) : (!torch.vtensor<[1,2,4,64],bf16>, !torch.vtensor<[1,2,8,64],bf16>, !torch.vtensor<[1,2,8,64],bf16>, !torch.vtensor<[4,8],bf16>, !torch.float, !torch.bool, !torch.none, !torch.bool) -> !torch.vtensor<[1,2,4,64],bf16>
  return %1 : !torch.vtensor<[1,2,4,64],bf16>
}

// -----

// ----- a None argument of an op kept opaque has no arg<i> (cumprod's dtype here) -----
// CHECK-LABEL: func.func @opaque_none
// CHECK: "dit.opaque"(%arg0) {arg1 = 0 : i64, name = "aten.cumprod"} : (tensor<4x3xf32>) -> tensor<4x3xf32>
func.func @opaque_none(%x: !torch.vtensor<[4,3],f32>) -> !torch.vtensor<[4,3],f32> {
  %none = "torch.constant.none"() : () -> !torch.none
  %c0 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %0 = "torch.aten.cumprod"(%x, %c0, %none) : (!torch.vtensor<[4,3],f32>, !torch.int, !torch.none) -> !torch.vtensor<[4,3],f32>
  return %0 : !torch.vtensor<[4,3],f32>
}

// -----

// ----- index_add with alpha != 1 has no dit form: kept opaque -----
// CHECK-LABEL: func.func @index_add_alpha
// CHECK: "dit.opaque"(%arg0, %arg1, %arg2) {arg1 = 0 : i64, arg4 = 2 : i64, name = "aten.index_add"}
func.func @index_add_alpha(%x: !torch.vtensor<[4,6],f32>, %i: !torch.vtensor<[2],si64>, %s: !torch.vtensor<[2,6],f32>) -> !torch.vtensor<[4,6],f32> {
  %c0 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %c2 = "torch.constant.int"() <{value = 2 : i64}> : () -> !torch.int
  %0 = "torch.operator"(%x, %c0, %i, %s, %c2) {name = "torch.aten.index_add"} : (!torch.vtensor<[4,6],f32>, !torch.int, !torch.vtensor<[2],si64>, !torch.vtensor<[2,6],f32>, !torch.int) -> !torch.vtensor<[4,6],f32>
  return %0 : !torch.vtensor<[4,6],f32>
}
