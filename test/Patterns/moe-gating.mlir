// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=moe_gating | dit-opt --split-input-file | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=moe_gating --target=ascend950 | FileCheck %s --check-prefix=A5
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=moe_gating --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-opt %s --split-input-file --fuse-all --dit-lower-to-aclnn | FileCheck %s --check-prefix=ACLNN
// Numerical check: each function runs on the CPU reference as written and fused; the fused
// router's probabilities, experts and the routed output equal softmax -> topk's.
// RUN: dit-run %s --split-input-file --compare-unfused --fuse=moe_gating | FileCheck %s --check-prefix=EXEC
// EXEC: @router: reference 5 kernels, fuse-all 4 kernels
// EXEC: @router_bf16: reference 5 kernels, fuse-all 4 kernels
// EXEC: @router_narrowed: reference 6 kernels, fuse-all 4 kernels
// EXEC-NOT: FAIL

// ----- enable_moe_gating: softmax(x, -1) -> topk(largest) == moe_gating_topk_softmax(x) -----
// aclnnMoeGatingTopKSoftmax ([ops-transformer] moe/moe_gating_top_k_softmax/docs/
// aclnnMoeGatingTopKSoftmax.md): x 2-3-d FLOAT16/BFLOAT16/FLOAT32, softmax and top-k over the
// last dim, k <= 1024, expertIdxOut INT32, which dit.moe_init_routing reads as it is
// (aclnnMoeInitRoutingV2 takes INT32 expertIdx on Atlas A2/A3). An unsorted top-k (HiDream's)
// fuses too: best first is one order it may return. On Atlas A2/A3 the init kernel takes INT32
// ids only, so a graph that hands it topk's int64 ids as they are (@router) is valid on Ascend
// 950 alone; fused, it is valid everywhere.

// The router of a top-2 MoE over 3 experts, routed and combined (an identity "expert").
// CHECK-LABEL: func.func @router
// CHECK-NOT: "dit.softmax"
// CHECK-NOT: "dit.topk"
// CHECK: %[[G:.*]]:3 = "dit.moe_gating_topk_softmax"(%arg0) {k = 2 : i64, operandSegmentSizes = array<i32: 1, 0>} : (tensor<4x3xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>, tensor<4x2xi32>)
// CHECK-NEXT: %[[R:.*]]:3 = "dit.moe_init_routing"(%arg1, %[[G]]#1) {expert_tokens = "cumsum", num_experts = 3 : i64} : (tensor<4x6xf32>, tensor<4x2xi32>) -> (tensor<8x6xf32>, tensor<8xi32>, tensor<3xi64>)
// CHECK: "dit.moe_finalize_routing"(%{{.*}}, %[[R]]#1, %[[G]]#0)
// REPORT-LABEL: enable_moe_gating:
// REPORT: applied at {{.*}}moe-gating.mlir:[[@LINE+6]]:12: softmax(x, -1) -> topk(largest) -> dit.moe_gating_topk_softmax (aclnnMoeGatingTopKSoftmax); its int32 expert ids go to dit.moe_init_routing as they are
// ACLNN: ("aclnnMoeGatingTopKSoftmax\00")
// ACLNN-LABEL: func.func @router(
// ACLNN-SAME: dit.launches = 4 : i64
func.func @router(%logits: tensor<4x3xf32>, %x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<3xi64>) {
  %p = "dit.softmax"(%logits) {dim = -1 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %w, %e = "dit.topk"(%p) {k = 2 : i64, dim = 1 : i64, largest = true, sorted = false} : (tensor<4x3xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>)
  %r:3 = "dit.moe_init_routing"(%x, %e) {num_experts = 3 : i64, expert_tokens = "cumsum"} : (tensor<4x6xf32>, tensor<4x2xi64>) -> (tensor<8x6xf32>, tensor<8xi32>, tensor<3xi64>)
  %y = "dit.neg"(%r#0) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %out = "dit.moe_finalize_routing"(%y, %r#1, %w) : (tensor<8x6xf32>, tensor<8xi32>, tensor<4x2xf32>) -> tensor<4x6xf32>
  return %out, %r#2 : tensor<4x6xf32>, tensor<3xi64>
}

// -----

// HiDream's dtype and a sorted top-k; the probabilities are returned too.
// CHECK-LABEL: func.func @router_bf16
// CHECK: %[[G:.*]]:3 = "dit.moe_gating_topk_softmax"(%arg0) {k = 2 : i64, operandSegmentSizes = array<i32: 1, 0>} : (tensor<6x4xbf16>) -> (tensor<6x2xbf16>, tensor<6x2xi32>, tensor<6x2xi32>)
// CHECK: "dit.moe_init_routing"(%arg1, %[[G]]#1)
// CHECK: return %{{.*}}, %[[G]]#0
func.func @router_bf16(%logits: tensor<6x4xbf16>, %x: tensor<6x8xbf16>) -> (tensor<6x8xbf16>, tensor<6x2xbf16>) {
  %p = "dit.softmax"(%logits) {dim = 1 : i64} : (tensor<6x4xbf16>) -> tensor<6x4xbf16>
  %w, %e = "dit.topk"(%p) {k = 2 : i64, dim = -1 : i64, largest = true, sorted = true} : (tensor<6x4xbf16>) -> (tensor<6x2xbf16>, tensor<6x2xi64>)
  %r:3 = "dit.moe_init_routing"(%x, %e) {num_experts = 4 : i64, expert_tokens = "count"} : (tensor<6x8xbf16>, tensor<6x2xi64>) -> (tensor<12x8xbf16>, tensor<12xi32>, tensor<4xi64>)
  %y = "dit.silu"(%r#0) : (tensor<12x8xbf16>) -> tensor<12x8xbf16>
  %out = "dit.moe_finalize_routing"(%y, %r#1, %w) : (tensor<12x8xbf16>, tensor<12xi32>, tensor<6x2xbf16>) -> tensor<6x8xbf16>
  return %out, %w : tensor<6x8xbf16>, tensor<6x2xbf16>
}

// -----

// The MoE raising's form (torch/moe.rs): the int64 ids narrowed to int32 for
// dit.moe_init_routing. The cast goes with the pair: three kernels become one.
// CHECK-LABEL: func.func @router_narrowed
// CHECK-NOT: "dit.cast"
// CHECK: %[[G:.*]]:3 = "dit.moe_gating_topk_softmax"(%arg0) {k = 2 : i64, operandSegmentSizes = array<i32: 1, 0>} : (tensor<4x3xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>, tensor<4x2xi32>)
// CHECK-NEXT: "dit.moe_init_routing"(%arg1, %[[G]]#1)
// REPORT: applied at {{.*}}moe-gating.mlir:[[@LINE+3]]:12: softmax(x, -1) -> topk(largest) -> cast(ids, i32) -> dit.moe_gating_topk_softmax (aclnnMoeGatingTopKSoftmax); its int32 expert ids replace the cast
func.func @router_narrowed(%logits: tensor<4x3xf32>, %x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<3xi64>) {
  %p = "dit.softmax"(%logits) {dim = -1 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %w, %e = "dit.topk"(%p) {k = 2 : i64, dim = 1 : i64, largest = true, sorted = false} : (tensor<4x3xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>)
  %e32 = "dit.cast"(%e) : (tensor<4x2xi64>) -> tensor<4x2xi32>
  %r:3 = "dit.moe_init_routing"(%x, %e32) {num_experts = 3 : i64, expert_tokens = "cumsum"} : (tensor<4x6xf32>, tensor<4x2xi32>) -> (tensor<8x6xf32>, tensor<8xi32>, tensor<3xi64>)
  %y = "dit.neg"(%r#0) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %out = "dit.moe_finalize_routing"(%y, %r#1, %w) : (tensor<8x6xf32>, tensor<8xi32>, tensor<4x2xf32>) -> tensor<4x6xf32>
  return %out, %r#2 : tensor<4x6xf32>, tensor<3xi64>
}

// -----

// The int64 ids are also returned besides their int32 cast: not fused (the topk stays for them).
// CHECK-LABEL: func.func @narrowed_and_returned
// CHECK-NOT: "dit.moe_gating_topk_softmax"
// REPORT: skipped at {{.*}}moe-gating.mlir:[[@LINE+3]]:12: the int64 expert ids have readers besides their int32 cast
func.func @narrowed_and_returned(%logits: tensor<4x3xf32>, %x: tensor<4x6xf32>) -> (tensor<8x6xf32>, tensor<4x2xi64>) {
  %p = "dit.softmax"(%logits) {dim = -1 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %w, %e = "dit.topk"(%p) {k = 2 : i64, dim = 1 : i64, largest = true, sorted = false} : (tensor<4x3xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>)
  %e32 = "dit.cast"(%e) : (tensor<4x2xi64>) -> tensor<4x2xi32>
  %r:3 = "dit.moe_init_routing"(%x, %e32) {num_experts = 3 : i64, expert_tokens = "cumsum"} : (tensor<4x6xf32>, tensor<4x2xi32>) -> (tensor<8x6xf32>, tensor<8xi32>, tensor<3xi64>)
  return %r#0, %e : tensor<8x6xf32>, tensor<4x2xi64>
}

// -----

// The probabilities have a second reader: the fused kernel does not return them, so the
// softmax stays (never erase a live value) and nothing fuses.
// CHECK-LABEL: func.func @softmax_read_twice
// CHECK: "dit.softmax"
// CHECK: "dit.topk"
// CHECK-NOT: "dit.moe_gating_topk_softmax"
// REPORT: skipped at {{.*}}moe-gating.mlir:[[@LINE+3]]:12: the softmax has 2 readers; the fused kernel does not return it
func.func @softmax_read_twice(%logits: tensor<4x3xf32>) -> (tensor<4x2xf32>, tensor<4x3xf32>) {
  %p = "dit.softmax"(%logits) {dim = -1 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %w, %e = "dit.topk"(%p) {k = 2 : i64, dim = 1 : i64, largest = true, sorted = true} : (tensor<4x3xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>)
  return %w, %p : tensor<4x2xf32>, tensor<4x3xf32>
}

// -----

// The int64 ids are returned: the kernel's are int32, and a cast kernel would cost the launch
// the fusion saves.
// CHECK-LABEL: func.func @ids_read_as_int64
// CHECK-NOT: "dit.moe_gating_topk_softmax"
// REPORT: skipped at {{.*}}moe-gating.mlir:[[@LINE+3]]:12: the expert ids are read by func.return: the kernel's expertIdx is int32
func.func @ids_read_as_int64(%logits: tensor<4x3xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>) {
  %p = "dit.softmax"(%logits) {dim = -1 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %w, %e = "dit.topk"(%p) {k = 2 : i64, dim = 1 : i64, largest = true, sorted = true} : (tensor<4x3xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>)
  return %w, %e : tensor<4x2xf32>, tensor<4x2xi64>
}

// -----

// The k smallest, and a softmax over the first dim: not what the kernel computes.
// CHECK-LABEL: func.func @smallest_and_first_dim
// CHECK-NOT: "dit.moe_gating_topk_softmax"
// REPORT-DAG: skipped at {{.*}}moe-gating.mlir:[[@LINE+4]]:12: the topk takes the smallest values; the kernel takes the largest
// REPORT-DAG: skipped at {{.*}}moe-gating.mlir:[[@LINE+5]]:12: the softmax or the topk is not over the last dim; aclnnMoeGatingTopKSoftmax works on axis -1
func.func @smallest_and_first_dim(%logits: tensor<4x3xf32>) -> (tensor<4x2xf32>, tensor<2x3xf32>) {
  %p = "dit.softmax"(%logits) {dim = -1 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %w, %e = "dit.topk"(%p) {k = 2 : i64, dim = 1 : i64, largest = false, sorted = true} : (tensor<4x3xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>)
  %q = "dit.softmax"(%logits) {dim = 0 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %v, %f = "dit.topk"(%q) {k = 2 : i64, dim = 0 : i64, largest = true, sorted = true} : (tensor<4x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi64>)
  return %w, %v : tensor<4x2xf32>, tensor<2x3xf32>
}

// -----

// Rank 4 is outside the kernel's 2-3 dims (a documented rule of the kernel table).
// CHECK-LABEL: func.func @rank4
// CHECK-NOT: "dit.moe_gating_topk_softmax"
// REPORT: skipped at {{.*}}moe-gating.mlir:[[@LINE+3]]:12: rule moe_gating_topk_softmax.rank: x has rank 4, the kernel takes rank 2-3 (aclnn error 561002; [ops-transformer] moe/moe_gating_top_k_softmax/docs/aclnnMoeGatingTopKSoftmax.md
func.func @rank4(%logits: tensor<2x2x4x3xf32>) -> tensor<2x2x4x2xf32> {
  %p = "dit.softmax"(%logits) {dim = 3 : i64} : (tensor<2x2x4x3xf32>) -> tensor<2x2x4x3xf32>
  %w, %e = "dit.topk"(%p) {k = 2 : i64, dim = 3 : i64, largest = true, sorted = true} : (tensor<2x2x4x3xf32>) -> (tensor<2x2x4x2xf32>, tensor<2x2x4x2xi64>)
  return %w : tensor<2x2x4x2xf32>
}

// -----

// 2048 experts: over the 1024 that CANN 7.0 documents for Atlas A2, within Ascend 950's 2048.
// CHECK-LABEL: func.func @experts_2048
// CHECK-NOT: "dit.moe_gating_topk_softmax"
// A5-LABEL: func.func @experts_2048
// A5: "dit.moe_gating_topk_softmax"(%arg0) {k = 8 : i64, operandSegmentSizes = array<i32: 1, 0>} : (tensor<16x2048xf16>) -> (tensor<16x8xf16>, tensor<16x8xi32>, tensor<16x8xi32>)
// REPORT: skipped at {{.*}}moe-gating.mlir:[[@LINE+3]]:12: rule moe_gating_topk_softmax.experts: x [16, 2048]: the last dim must be known and <= 1024
func.func @experts_2048(%logits: tensor<16x2048xf16>) -> tensor<16x8xf16> {
  %p = "dit.softmax"(%logits) {dim = 1 : i64} : (tensor<16x2048xf16>) -> tensor<16x2048xf16>
  %w, %e = "dit.topk"(%p) {k = 8 : i64, dim = 1 : i64, largest = true, sorted = true} : (tensor<16x2048xf16>) -> (tensor<16x8xf16>, tensor<16x8xi64>)
  return %w : tensor<16x8xf16>
}
