// RUN: dit-opt %s --split-input-file --dit-sink-split | dit-opt --split-input-file | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-sink-split --dit-fuse-patterns | dit-opt --split-input-file | FileCheck %s --check-prefix=FUSE
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns | FileCheck %s --check-prefix=NOSINK
// RUN: dit-opt %s --split-input-file --dit-sink-split --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// Numerical check (issue 6): the unfused and transformed graphs on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused --pipeline='builtin.module(dit-sink-split)' --skip-dynamic > /dev/null
// RUN: dit-run %s --split-input-file --compare-unfused --skip-dynamic > /dev/null

// Two slices covering the halves of the last dim (negative dim, negative start, end past the
// size) become one split [8, 8].
// CHECK-LABEL: func.func @two_half_slices
// CHECK-NEXT: %[[S:.*]]:2 = "dit.split"(%arg0) {dim = 1 : i64, sizes = array<i64: 8, 8>}
// CHECK-NEXT: "dit.exp"(%[[S]]#0)
// CHECK-NEXT: "dit.neg"(%[[S]]#1)
// CHECK-NOT: dit.slice
// REPORT: applied at {{.*}}dit-sink-split.mlir:[[@LINE+2]]:{{.*}}: 2 split/slice ops along dim 1 -> one dit.split with sizes [8, 8]
func.func @two_half_slices(%x: tensor<4x16xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>) {
  %a = "dit.slice"(%x) {dim = -1 : i64, start = 0 : i64, end = 8 : i64, step = 1 : i64} : (tensor<4x16xf16>) -> tensor<4x8xf16>
  %b = "dit.slice"(%x) {dim = 1 : i64, start = -8 : i64, end = 9223372036854775807 : i64, step = 1 : i64} : (tensor<4x16xf16>) -> tensor<4x8xf16>
  %ea = "dit.exp"(%a) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %nb = "dit.neg"(%b) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  return %ea, %nb : tensor<4x8xf16>, tensor<4x8xf16>
}

// -----

// A split tree: split x into [a, b], then a into [a1, a2] == one 3-way split of x.
// CHECK-LABEL: func.func @split_tree
// CHECK-NEXT: %[[S:.*]]:3 = "dit.split"(%arg0) {dim = 0 : i64, sizes = array<i64: 2, 4, 6>}
// CHECK-NEXT: return %[[S]]#0, %[[S]]#1, %[[S]]#2
func.func @split_tree(%x: tensor<12x3xf32>) -> (tensor<2x3xf32>, tensor<4x3xf32>, tensor<6x3xf32>) {
  %s:2 = "dit.split"(%x) {dim = 0 : i64, sizes = array<i64: 6, 6>} : (tensor<12x3xf32>) -> (tensor<6x3xf32>, tensor<6x3xf32>)
  %t:2 = "dit.split"(%s#0) {dim = -2 : i64, sizes = array<i64: 2, 4>} : (tensor<6x3xf32>) -> (tensor<2x3xf32>, tensor<4x3xf32>)
  return %t#0, %t#1, %s#1 : tensor<2x3xf32>, tensor<4x3xf32>, tensor<6x3xf32>
}

// -----

// Mixed: a split of x and a slice of one of its results, and a slice of x that matches an
// existing cut; the unused third piece of the inner split still counts as a boundary.
// CHECK-LABEL: func.func @mixed_slice_split
// CHECK-NEXT: %[[S:.*]]:4 = "dit.split"(%arg0) {dim = 1 : i64, sizes = array<i64: 4, 4, 4, 4>}
// CHECK-NEXT: "dit.mul"(%[[S]]#1, %[[S]]#3)
// CHECK-NEXT: "dit.add"(%[[S]]#0, %[[S]]#2)
// CHECK-NOT: dit.slice
func.func @mixed_slice_split(%x: tensor<2x16xbf16>) -> (tensor<2x4xbf16>, tensor<2x4xbf16>) {
  %s:2 = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 8, 8>} : (tensor<2x16xbf16>) -> (tensor<2x8xbf16>, tensor<2x8xbf16>)
  %hi = "dit.slice"(%s#1) {dim = 1 : i64, start = 4 : i64, end = 8 : i64, step = 1 : i64} : (tensor<2x8xbf16>) -> tensor<2x4xbf16>
  %lo = "dit.slice"(%x) {dim = 1 : i64, start = 4 : i64, end = 8 : i64, step = 1 : i64} : (tensor<2x16xbf16>) -> tensor<2x4xbf16>
  %m = "dit.mul"(%lo, %hi) : (tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<2x4xbf16>
  %q:2 = "dit.split"(%s#0) {dim = 1 : i64, sizes = array<i64: 4, 4>} : (tensor<2x8xbf16>) -> (tensor<2x4xbf16>, tensor<2x4xbf16>)
  %u = "dit.slice"(%s#1) {dim = 1 : i64, start = 0 : i64, end = 4 : i64, step = 1 : i64} : (tensor<2x8xbf16>) -> tensor<2x4xbf16>
  %a = "dit.add"(%q#0, %u) : (tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<2x4xbf16>
  return %m, %a : tensor<2x4xbf16>, tensor<2x4xbf16>
}

// -----

// Overlapping slices would each need a concat: left alone.
// CHECK-LABEL: func.func @overlapping_slices
// CHECK-NEXT: "dit.slice"(%arg0) {dim = 1 : i64, end = 6 : i64, start = 0 : i64, step = 1 : i64}
// CHECK-NEXT: "dit.slice"(%arg0) {dim = 1 : i64, end = 10 : i64, start = 4 : i64, step = 1 : i64}
// CHECK-NOT: dit.split
func.func @overlapping_slices(%x: tensor<2x10xf32>) -> (tensor<2x6xf32>, tensor<2x6xf32>) {
  %a = "dit.slice"(%x) {dim = 1 : i64, start = 0 : i64, end = 6 : i64, step = 1 : i64} : (tensor<2x10xf32>) -> tensor<2x6xf32>
  %b = "dit.slice"(%x) {dim = 1 : i64, start = 4 : i64, end = 10 : i64, step = 1 : i64} : (tensor<2x10xf32>) -> tensor<2x6xf32>
  return %a, %b : tensor<2x6xf32>, tensor<2x6xf32>
}

// -----

// Slices along different dims do not merge.
// CHECK-LABEL: func.func @different_dims
// CHECK-NEXT: "dit.slice"(%arg0) {dim = 0 : i64
// CHECK-NEXT: "dit.slice"(%arg0) {dim = 1 : i64
// CHECK-NOT: dit.split
func.func @different_dims(%x: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  %a = "dit.slice"(%x) {dim = 0 : i64, start = 0 : i64, end = 4 : i64, step = 1 : i64} : (tensor<8x8xf32>) -> tensor<4x8xf32>
  %b = "dit.slice"(%x) {dim = 1 : i64, start = 4 : i64, end = 8 : i64, step = 1 : i64} : (tensor<8x8xf32>) -> tensor<8x4xf32>
  return %a, %b : tensor<4x8xf32>, tensor<8x4xf32>
}

// -----

// A slice with step 2 is no cut: it stays, and the other slice alone has nothing to merge with.
// CHECK-LABEL: func.func @step_two
// CHECK-NEXT: "dit.slice"(%arg0) {dim = 0 : i64, end = 8 : i64, start = 0 : i64, step = 2 : i64}
// CHECK-NEXT: "dit.slice"(%arg0) {dim = 0 : i64, end = 8 : i64, start = 4 : i64, step = 1 : i64}
// CHECK-NOT: dit.split
func.func @step_two(%x: tensor<8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = "dit.slice"(%x) {dim = 0 : i64, start = 0 : i64, end = 8 : i64, step = 2 : i64} : (tensor<8xf32>) -> tensor<4xf32>
  %b = "dit.slice"(%x) {dim = 0 : i64, start = 4 : i64, end = 8 : i64, step = 1 : i64} : (tensor<8xf32>) -> tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// -----

// A dynamic dim along d: left alone (other dims may be dynamic).
// CHECK-LABEL: func.func @dynamic_dim
// CHECK-NEXT: "dit.slice"
// CHECK-NEXT: "dit.slice"
// CHECK-NOT: dit.split
func.func @dynamic_dim(%x: tensor<2x?xf32>) -> (tensor<2x?xf32>, tensor<2x?xf32>) {
  %a = "dit.slice"(%x) {dim = 1 : i64, start = 0 : i64, end = 4 : i64, step = 1 : i64} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %b = "dit.slice"(%x) {dim = 1 : i64, start = 4 : i64, end = 8 : i64, step = 1 : i64} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  return %a, %b : tensor<2x?xf32>, tensor<2x?xf32>
}

// -----

// A split result used elsewhere (returned) and also sliced again: still correct. The second
// half's slice matches the split's cut and merges; the first half, which is returned whole,
// keeps the split of it below (cutting it would need a concat), so that inner split stays.
// CHECK-LABEL: func.func @split_result_used_elsewhere
// CHECK-NEXT: %[[S:.*]]:2 = "dit.split"(%arg0) {dim = 0 : i64, sizes = array<i64: 4, 4>}
// CHECK-NEXT: %[[T:.*]]:2 = "dit.split"(%[[S]]#0) {dim = 0 : i64, sizes = array<i64: 2, 2>}
// CHECK-NEXT: "dit.exp"(%[[T]]#1)
// CHECK-NEXT: "dit.neg"(%[[S]]#1)
// CHECK-NEXT: "dit.sigmoid"(%[[S]]#1)
// CHECK-NEXT: return %[[S]]#0,
func.func @split_result_used_elsewhere(%x: tensor<8x2xf32>) -> (tensor<4x2xf32>, tensor<2x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>) {
  %s:2 = "dit.split"(%x) {dim = 0 : i64, sizes = array<i64: 4, 4>} : (tensor<8x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>)
  %t:2 = "dit.split"(%s#0) {dim = 0 : i64, sizes = array<i64: 2, 2>} : (tensor<4x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
  %e = "dit.exp"(%t#1) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %b = "dit.slice"(%x) {dim = 0 : i64, start = 4 : i64, end = 8 : i64, step = 1 : i64} : (tensor<8x2xf32>) -> tensor<4x2xf32>
  %n = "dit.neg"(%b) : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %g = "dit.sigmoid"(%s#1) : (tensor<4x2xf32>) -> tensor<4x2xf32>
  return %s#0, %e, %n, %g : tensor<4x2xf32>, tensor<2x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>
}

// -----

// A slice that would span two results of the merged split is left alone; the split stays too
// when nothing else merges with it.
// CHECK-LABEL: func.func @slice_across_split
// CHECK-NEXT: "dit.split"(%arg0) {dim = 0 : i64, sizes = array<i64: 4, 4>}
// CHECK-NEXT: "dit.slice"(%arg0) {dim = 0 : i64, end = 6 : i64, start = 2 : i64, step = 1 : i64}
func.func @slice_across_split(%x: tensor<8xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %s:2 = "dit.split"(%x) {dim = 0 : i64, sizes = array<i64: 4, 4>} : (tensor<8xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %m = "dit.slice"(%x) {dim = 0 : i64, start = 2 : i64, end = 6 : i64, step = 1 : i64} : (tensor<8xf32>) -> tensor<4xf32>
  return %s#0, %s#1, %m : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// The SwiGLU case of seed 003: the gate is a slice of x, the up half a result of a split of
// x. Neither form alone is "the halves of one tensor"; after the merge they are the two results
// of one [N, N] split, and dit-fuse-patterns turns silu(first) * second into dit.swiglu.
// CHECK-LABEL: func.func @swiglu_after_merge
// CHECK-NEXT: %[[S:.*]]:2 = "dit.split"(%arg0) {dim = 1 : i64, sizes = array<i64: 8, 8>}
// CHECK-NEXT: %[[A:.*]] = "dit.silu"(%[[S]]#0)
// CHECK-NEXT: "dit.mul"(%[[A]], %[[S]]#1)
// FUSE-LABEL: func.func @swiglu_after_merge
// FUSE-NEXT: %[[W:.*]] = "dit.swiglu"(%arg0) {dim = -1 : i64} : (tensor<4x16xbf16>) -> tensor<4x8xbf16>
// FUSE-NEXT: return %[[W]]
// Without the merge only the two-input form applies.
// NOSINK-LABEL: func.func @swiglu_after_merge
// NOSINK: "dit.silu_mul"
// NOSINK-NOT: dit.swiglu
// NOSINK-LABEL: func.func @any_consumer
func.func @swiglu_after_merge(%x: tensor<4x16xbf16>) -> tensor<4x8xbf16> {
  %gate = "dit.slice"(%x) {dim = 1 : i64, start = 0 : i64, end = 8 : i64, step = 1 : i64} : (tensor<4x16xbf16>) -> tensor<4x8xbf16>
  %s:2 = "dit.split"(%x) {dim = -1 : i64, sizes = array<i64: 8, 8>} : (tensor<4x16xbf16>) -> (tensor<4x8xbf16>, tensor<4x8xbf16>)
  %act = "dit.silu"(%gate) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %y = "dit.mul"(%act, %s#1) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %y : tensor<4x8xbf16>
}

// -----

// Any consumer reads the merged results: grouped matmul operands (expert halves of one weight
// tensor, cut by a split tree and a slice) and a dit.swiglu.
// CHECK-LABEL: func.func @any_consumer
// CHECK-NEXT: %[[S:.*]]:3 = "dit.split"(%arg1) {dim = 0 : i64, sizes = array<i64: 1, 1, 2>}
// CHECK-NEXT: "dit.grouped_matmul"(%arg0, %[[S]]#2, %arg2)
// CHECK-NEXT: "dit.swiglu"(%[[S]]#0)
// CHECK-NEXT: "dit.grouped_matmul"(%arg0, %[[S]]#1, %arg3)
func.func @any_consumer(%x: tensor<8x16xbf16>, %w: tensor<4x16x32xbf16>, %g2: tensor<2xi64>, %g1: tensor<1xi64>) -> (tensor<8x32xbf16>, tensor<1x16x16xbf16>, tensor<8x32xbf16>) {
  %s:2 = "dit.split"(%w) {dim = 0 : i64, sizes = array<i64: 2, 2>} : (tensor<4x16x32xbf16>) -> (tensor<2x16x32xbf16>, tensor<2x16x32xbf16>)
  %y = "dit.grouped_matmul"(%x, %s#1, %g2) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<8x16xbf16>, tensor<2x16x32xbf16>, tensor<2xi64>) -> tensor<8x32xbf16>
  %e0 = "dit.slice"(%s#0) {dim = 0 : i64, start = 0 : i64, end = 1 : i64, step = 1 : i64} : (tensor<2x16x32xbf16>) -> tensor<1x16x32xbf16>
  %sw = "dit.swiglu"(%e0) {dim = -1 : i64} : (tensor<1x16x32xbf16>) -> tensor<1x16x16xbf16>
  %e1 = "dit.slice"(%w) {dim = 0 : i64, start = 1 : i64, end = 2 : i64, step = 1 : i64} : (tensor<4x16x32xbf16>) -> tensor<1x16x32xbf16>
  %z = "dit.grouped_matmul"(%x, %e1, %g1) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<8x16xbf16>, tensor<1x16x32xbf16>, tensor<1xi64>) -> tensor<8x32xbf16>
  return %y, %sw, %z : tensor<8x32xbf16>, tensor<1x16x16xbf16>, tensor<8x32xbf16>
}

// -----

// Seed 003 §2.6 (add_config(mul, {0, 1}, {0})): both operands split the same way, every piece
// meets its twin in a mul, and the result feeds swiglu per piece (add_config(swiglu, {0},
// {0})). The split sinks below the mul, then below the swiglu: one mul, one swiglu, one split.
// CHECK-LABEL: func.func @sink_mul_then_swiglu
// CHECK-NEXT: %[[M:.*]] = "dit.mul"(%arg0, %arg1) : (tensor<4x32xf16>, tensor<4x32xf16>) -> tensor<4x32xf16>
// CHECK-NEXT: %[[G:.*]] = "dit.swiglu"(%[[M]]) {dim = -1 : i64} : (tensor<4x32xf16>) -> tensor<4x16xf16>
// CHECK-NEXT: %[[S:.*]]:2 = "dit.split"(%[[G]]) {dim = 0 : i64, sizes = array<i64: 1, 3>}
// CHECK-NEXT: return %[[S]]#0, %[[S]]#1
// REPORT: applied at {{.*}}dit-sink-split.mlir:[[@LINE+5]]:{{.*}}: split along dim 0 sunk below 2 dit.mul ops
// REPORT: applied at {{.*}}dit-sink-split.mlir:[[@LINE+6]]:{{.*}}: split along dim 0 sunk below 2 dit.swiglu ops
func.func @sink_mul_then_swiglu(%x: tensor<4x32xf16>, %y: tensor<4x32xf16>) -> (tensor<1x16xf16>, tensor<3x16xf16>) {
  %a:2 = "dit.split"(%x) {dim = 0 : i64, sizes = array<i64: 1, 3>} : (tensor<4x32xf16>) -> (tensor<1x32xf16>, tensor<3x32xf16>)
  %b:2 = "dit.split"(%y) {dim = 0 : i64, sizes = array<i64: 1, 3>} : (tensor<4x32xf16>) -> (tensor<1x32xf16>, tensor<3x32xf16>)
  %m0 = "dit.mul"(%a#0, %b#0) : (tensor<1x32xf16>, tensor<1x32xf16>) -> tensor<1x32xf16>
  %m1 = "dit.mul"(%a#1, %b#1) : (tensor<3x32xf16>, tensor<3x32xf16>) -> tensor<3x32xf16>
  %g0 = "dit.swiglu"(%m0) {dim = -1 : i64} : (tensor<1x32xf16>) -> tensor<1x16xf16>
  %g1 = "dit.swiglu"(%m1) {dim = -1 : i64} : (tensor<3x32xf16>) -> tensor<3x16xf16>
  return %g0, %g1 : tensor<1x16xf16>, tensor<3x16xf16>
}

// -----

// One operand broadcast along the split dim (size 1 there, or absent) meets every piece the
// same way: sub(x, q) runs once. The pieces are sub's lhs; sub does not commute, so x stays
// the lhs. The split is a copy either way (dim 1 has an outer dim of 2), of equal size.
// CHECK-LABEL: func.func @sink_sub_broadcast
// CHECK-NEXT: %[[B:.*]] = "dit.sub"(%arg0, %arg1) : (tensor<2x6x8xf32>, tensor<8xf32>) -> tensor<2x6x8xf32>
// CHECK-NEXT: %[[S:.*]]:2 = "dit.split"(%[[B]]) {dim = 1 : i64, sizes = array<i64: 2, 4>}
// CHECK-NEXT: return %[[S]]#1, %[[S]]#0
func.func @sink_sub_broadcast(%x: tensor<2x6x8xf32>, %q: tensor<8xf32>) -> (tensor<2x4x8xf32>, tensor<2x2x8xf32>) {
  %a:2 = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 2, 4>} : (tensor<2x6x8xf32>) -> (tensor<2x2x8xf32>, tensor<2x4x8xf32>)
  %s1 = "dit.sub"(%a#1, %q) : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  %s0 = "dit.sub"(%a#0, %q) : (tensor<2x2x8xf32>, tensor<8xf32>) -> tensor<2x2x8xf32>
  return %s1, %s0 : tensor<2x4x8xf32>, tensor<2x2x8xf32>
}

// -----

// Negative, cost: the broadcast operand blows each piece up 64x. The split of x is a copy of
// 16 elements; the split of the whole product would copy 512, so the rewrite moves more bytes
// than it saves and the cost model refuses it.
// CHECK-LABEL: func.func @no_sink_broadcast_blowup
// CHECK-NEXT: "dit.split"(%arg0)
// CHECK-NEXT: "dit.mul"
// CHECK-NEXT: "dit.mul"
// REPORT: skipped at {{.*}}dit-sink-split.mlir:[[@LINE+2]]:{{.*}}: sinking the split below its 2 dit.mul ops does not pay: 2 kernels, {{.*}} per call against 3 kernels, {{.*}} without the rewrite
func.func @no_sink_broadcast_blowup(%x: tensor<2x4x1xf16>, %q: tensor<1x1x64xf16>) -> (tensor<2x2x64xf16>, tensor<2x2x64xf16>) {
  %a:2 = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 2, 2>} : (tensor<2x4x1xf16>) -> (tensor<2x2x1xf16>, tensor<2x2x1xf16>)
  %m0 = "dit.mul"(%a#0, %q) : (tensor<2x2x1xf16>, tensor<1x1x64xf16>) -> tensor<2x2x64xf16>
  %m1 = "dit.mul"(%a#1, %q) : (tensor<2x2x1xf16>, tensor<1x1x64xf16>) -> tensor<2x2x64xf16>
  return %m0, %m1 : tensor<2x2x64xf16>, tensor<2x2x64xf16>
}

// -----

// Negative: a different operand per piece that is not the twin piece of one split (here the
// gate of each piece is its own argument) has no whole-input counterpart.
// CHECK-LABEL: func.func @no_sink_unrelated_operands
// CHECK-NEXT: "dit.split"(%arg0)
// CHECK-NEXT: "dit.add"
// CHECK-NEXT: "dit.add"
func.func @no_sink_unrelated_operands(%x: tensor<4x8xf32>, %p: tensor<2x8xf32>, %q: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %a:2 = "dit.split"(%x) {dim = 0 : i64, sizes = array<i64: 2, 2>} : (tensor<4x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>)
  %s0 = "dit.add"(%a#0, %p) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %s1 = "dit.add"(%a#1, %q) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %s0, %s1 : tensor<2x8xf32>, tensor<2x8xf32>
}

// -----

// Negative: swiglu halves the split dim itself; the halves of x are not the pieces' halves.
// CHECK-LABEL: func.func @no_sink_swiglu_on_split_dim
// CHECK-NEXT: "dit.split"(%arg0)
// CHECK-NEXT: "dit.swiglu"
// CHECK-NEXT: "dit.swiglu"
// REPORT: skipped at {{.*}}dit-sink-split.mlir:[[@LINE+2]]:{{.*}}: every piece of the split feeds a dit.swiglu that halves the split dim 1
func.func @no_sink_swiglu_on_split_dim(%x: tensor<1x32xbf16>) -> (tensor<1x8xbf16>, tensor<1x8xbf16>) {
  %a:2 = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 16, 16>} : (tensor<1x32xbf16>) -> (tensor<1x16xbf16>, tensor<1x16xbf16>)
  %g0 = "dit.swiglu"(%a#0) {dim = 1 : i64} : (tensor<1x16xbf16>) -> tensor<1x8xbf16>
  %g1 = "dit.swiglu"(%a#1) {dim = 1 : i64} : (tensor<1x16xbf16>) -> tensor<1x8xbf16>
  return %g0, %g1 : tensor<1x8xbf16>, tensor<1x8xbf16>
}

// -----

// Negative, seed 003 §2.7 (add_config(grouped_matmul, {0}, {0})): every piece feeds a
// grouped_matmul's x, but each group_list routes rows from its own piece's first row, which
// one grouped_matmul of the whole x cannot express; the report says so.
// CHECK-LABEL: func.func @no_sink_grouped_matmul
// CHECK-NEXT: "dit.split"(%arg0)
// CHECK-NEXT: "dit.grouped_matmul"
// CHECK-NEXT: "dit.grouped_matmul"
// REPORT: skipped at {{.*}}dit-sink-split.mlir:[[@LINE+2]]:{{.*}}: every piece of the split along dim 0 feeds a dit.grouped_matmul's x, but one grouped_matmul of the whole x reads one group_list
func.func @no_sink_grouped_matmul(%x: tensor<8x16xf16>, %w: tensor<2x16x4xf16>, %g0: tensor<2xi64>, %g1: tensor<2xi64>) -> (tensor<4x4xf16>, tensor<4x4xf16>) {
  %a:2 = "dit.split"(%x) {dim = 0 : i64, sizes = array<i64: 4, 4>} : (tensor<8x16xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>)
  %y0 = "dit.grouped_matmul"(%a#0, %w, %g0) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x16xf16>, tensor<2x16x4xf16>, tensor<2xi64>) -> tensor<4x4xf16>
  %y1 = "dit.grouped_matmul"(%a#1, %w, %g1) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x16xf16>, tensor<2x16x4xf16>, tensor<2xi64>) -> tensor<4x4xf16>
  return %y0, %y1 : tensor<4x4xf16>, tensor<4x4xf16>
}
