// dit-auto-fuse opens a vector group with the dit.split of a horizontally merged projection
// (dit-merge-horizontal's linear + split along the last dim): the pieces the group consumes are
// read by the generated kernel as column windows of the projection's rows, a piece read only
// outside is yielded (copied out contiguous by the same kernel), and the split's own copy
// kernel is gone. Only when every window starts and ends on a 32-byte GM block and the
// generator plans the union. The fused module must compute what the unfused one does, and the
// report's kernel count is the lowered program's.
//
// RUN: dit-opt %s --split-input-file --dit-auto-fuse | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-auto-fuse | dit-opt --split-input-file > /dev/null
// RUN: dit-opt %s --split-input-file --dit-auto-fuse --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-run %s --split-input-file --compare-unfused --pipeline='builtin.module(dit-auto-fuse)' > /dev/null

// Wan2.1's self-attention: q and k normed in one kernel that reads them from the merged q/k/v
// projection in place, and copies v out for the attention.
// CHECK-LABEL: func.func @qkv_split_into_norms
// CHECK: %[[P:.*]] = "dit.linear"
// CHECK-NOT: "dit.split"
// CHECK: %[[F:.*]]:3 = "dit.fused"(%[[P]], %arg2, %arg3) ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<1x8x192xbf16>, %{{.*}}: tensor<64xbf16>, %{{.*}}: tensor<64xbf16>):
// CHECK-NEXT: %[[S:.*]]:3 = "dit.split"(%[[A]]) {dim = 2 : i64, sizes = array<i64: 64, 64, 64>}
// CHECK-NEXT: %[[Q:.*]] = "dit.rms_norm"(%[[S]]#0
// CHECK-NEXT: %[[K:.*]] = "dit.rms_norm"(%[[S]]#1
// CHECK-NEXT: "dit.yield"(%[[S]]#2, %[[Q]], %[[K]])
// CHECK-NOT: "dit.split"
// CHECK: "dit.reshape"(%[[F]]#0)
// CHECK: return
// REPORT: fused_qkv_split_into_norms_0: split -> rms_norm -> rms_norm (3 ops, 3 outputs
// REPORT: kernels: 4 before, 2 after
func.func @qkv_split_into_norms(%x: tensor<1x8x64xbf16>, %w: tensor<192x64xbf16>, %gq: tensor<64xbf16>, %gk: tensor<64xbf16>) -> (tensor<1x8x64xbf16>, tensor<1x8x64xbf16>, tensor<1x8x4x16xbf16>) {
  %p = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x8x64xbf16>, tensor<192x64xbf16>) -> tensor<1x8x192xbf16>
  %s:3 = "dit.split"(%p) {dim = 2 : i64, sizes = array<i64: 64, 64, 64>} : (tensor<1x8x192xbf16>) -> (tensor<1x8x64xbf16>, tensor<1x8x64xbf16>, tensor<1x8x64xbf16>)
  %q = "dit.rms_norm"(%s#0, %gq) {epsilon = 1.0e-06 : f32} : (tensor<1x8x64xbf16>, tensor<64xbf16>) -> tensor<1x8x64xbf16>
  %k = "dit.rms_norm"(%s#1, %gk) {epsilon = 1.0e-06 : f32} : (tensor<1x8x64xbf16>, tensor<64xbf16>) -> tensor<1x8x64xbf16>
  %v = "dit.reshape"(%s#2) : (tensor<1x8x64xbf16>) -> tensor<1x8x4x16xbf16>
  return %q, %k, %v : tensor<1x8x64xbf16>, tensor<1x8x64xbf16>, tensor<1x8x4x16xbf16>
}

// -----

// Wan2.1's cross-attention: the merged k/v projection's split and the k norm, alone a library
// kernel each, become one generated kernel yielding normed k and v.
// CHECK-LABEL: func.func @kv_split_into_norm
// CHECK-NOT: "dit.split"
// CHECK: %[[F:.*]]:2 = "dit.fused"
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<6x128xf32>, %{{.*}}: tensor<64xf32>):
// CHECK-NEXT: %[[S:.*]]:2 = "dit.split"(%[[A]])
// CHECK-NEXT: %[[K:.*]] = "dit.rms_norm"(%[[S]]#0
// CHECK-NEXT: "dit.yield"(%[[S]]#1, %[[K]])
// CHECK-NOT: "dit.split"
// CHECK: return %[[F]]#1, %[[F]]#0
// REPORT: fused_kv_split_into_norm_0: split -> rms_norm (2 ops, 2 outputs)
// REPORT: kernels: 3 before, 2 after
func.func @kv_split_into_norm(%x: tensor<6x64xf32>, %w: tensor<128x64xf32>, %g: tensor<64xf32>) -> (tensor<6x64xf32>, tensor<6x64xf32>) {
  %p = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<6x64xf32>, tensor<128x64xf32>) -> tensor<6x128xf32>
  %s:2 = "dit.split"(%p) {dim = 1 : i64, sizes = array<i64: 64, 64>} : (tensor<6x128xf32>) -> (tensor<6x64xf32>, tensor<6x64xf32>)
  %k = "dit.rms_norm"(%s#0, %g) {epsilon = 1.0e-06 : f32} : (tensor<6x64xf32>, tensor<64xf32>) -> tensor<6x64xf32>
  return %k, %s#1 : tensor<6x64xf32>, tensor<6x64xf32>
}

// -----

// A piece nothing reads is neither loaded nor yielded: the kernel reads two of the three
// windows (DDR counts the columns read, not the whole projection).
// CHECK-LABEL: func.func @unused_piece_is_not_read
// CHECK: %[[F:.*]] = "dit.fused"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[S:.*]]:3 = "dit.split"
// CHECK-NEXT: "dit.mul"(%[[S]]#0, %[[S]]#2)
// CHECK-NEXT: "dit.exp"
// CHECK-NEXT: "dit.yield"
// CHECK-NOT: "dit.split"
// REPORT: fused_unused_piece_is_not_read_0: split -> mul -> exp (3 ops, 1 output)
// REPORT: kernels: 4 before, 2 after
func.func @unused_piece_is_not_read(%x: tensor<4x32xbf16>, %w: tensor<96x32xbf16>) -> tensor<4x32xbf16> {
  %p = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x32xbf16>, tensor<96x32xbf16>) -> tensor<4x96xbf16>
  %s:3 = "dit.split"(%p) {dim = -1 : i64, sizes = array<i64: 32, 32, 32>} : (tensor<4x96xbf16>) -> (tensor<4x32xbf16>, tensor<4x32xbf16>, tensor<4x32xbf16>)
  %m = "dit.mul"(%s#0, %s#2) : (tensor<4x32xbf16>, tensor<4x32xbf16>) -> tensor<4x32xbf16>
  %e = "dit.exp"(%m) : (tensor<4x32xbf16>) -> tensor<4x32xbf16>
  return %e : tensor<4x32xbf16>
}

// -----

// Windows off the 32-byte GM blocks (bf16 columns 40.. start 80 bytes in) stay a split kernel
// of their own; the two norms still merge into one kernel reading its pieces.
// CHECK-LABEL: func.func @misaligned_split_stays
// CHECK: %[[S:.*]]:3 = "dit.split"
// CHECK: "dit.fused"(%[[S]]#0, %arg2, %[[S]]#1, %arg3)
// CHECK-NOT: "dit.split"
// CHECK: return
func.func @misaligned_split_stays(%x: tensor<4x8x64xbf16>, %w: tensor<128x64xbf16>, %gq: tensor<40xbf16>, %gk: tensor<40xbf16>) -> (tensor<4x8x40xbf16>, tensor<4x8x40xbf16>, tensor<4x8x48xbf16>) {
  %p = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x8x64xbf16>, tensor<128x64xbf16>) -> tensor<4x8x128xbf16>
  %s:3 = "dit.split"(%p) {dim = 2 : i64, sizes = array<i64: 40, 40, 48>} : (tensor<4x8x128xbf16>) -> (tensor<4x8x40xbf16>, tensor<4x8x40xbf16>, tensor<4x8x48xbf16>)
  %q = "dit.rms_norm"(%s#0, %gq) {epsilon = 1.0e-06 : f32} : (tensor<4x8x40xbf16>, tensor<40xbf16>) -> tensor<4x8x40xbf16>
  %k = "dit.rms_norm"(%s#1, %gk) {epsilon = 1.0e-06 : f32} : (tensor<4x8x40xbf16>, tensor<40xbf16>) -> tensor<4x8x40xbf16>
  return %q, %k, %s#2 : tensor<4x8x40xbf16>, tensor<4x8x40xbf16>, tensor<4x8x48xbf16>
}

// -----

// A split along an outer dim whose outer dims are all 1 is a view (no kernel): nothing to save,
// it stays outside.
// CHECK-LABEL: func.func @view_split_stays
// CHECK: %[[S:.*]]:2 = "dit.split"
// CHECK: "dit.fused"(%[[S]]#0, %[[S]]#1)
// CHECK-NOT: "dit.split"
func.func @view_split_stays(%x: tensor<1x2x64xf32>) -> tensor<1x1x64xf32> {
  %s:2 = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 1, 1>} : (tensor<1x2x64xf32>) -> (tensor<1x1x64xf32>, tensor<1x1x64xf32>)
  %a = "dit.mul"(%s#0, %s#1) : (tensor<1x1x64xf32>, tensor<1x1x64xf32>) -> tensor<1x1x64xf32>
  %e = "dit.exp"(%a) : (tensor<1x1x64xf32>) -> tensor<1x1x64xf32>
  return %e : tensor<1x1x64xf32>
}

// -----

// Qwen-Image's (and FLUX double's) joint attention: each stream's merged q/k/v projection is
// split and every piece reshaped to heads ([1, S, 128] -> [1, S, 2, 64]) for the per-head q/k
// norms, rope on the image stream, and the text-then-image concat of q, k and v. The splits
// and the six reshapes join the norm kernel: each head is a 64-wide row of the projection's
// rows seen as [1, S, 6, 64], so neither split is a copy kernel any more: two linears, the
// fused group and the attention are left.
// CHECK-LABEL: func.func @joint_qkv_heads
// CHECK: %[[PI:.*]] = "dit.linear"(%arg0
// CHECK-NEXT: %[[PT:.*]] = "dit.linear"(%arg1
// CHECK-NOT: "dit.split"
// CHECK: %[[F:.*]]:3 = "dit.fused"(%[[PI]], %[[PT]],
// CHECK-NEXT: ^bb0(%[[A:[^:]*]]: tensor<1x8x384xbf16>, %[[B:[^:]*]]: tensor<1x4x384xbf16>
// CHECK-NEXT: %[[SI:.*]]:3 = "dit.split"(%[[A]]) {dim = 2 : i64
// CHECK-NEXT: %[[ST:.*]]:3 = "dit.split"(%[[B]]) {dim = 2 : i64
// CHECK-COUNT-6: "dit.reshape"(%{{.*}}) : (tensor<1x{{[48]}}x128xbf16>) -> tensor<1x{{[48]}}x2x64xbf16>
// CHECK: "dit.yield"
// CHECK-NOT: "dit.split"
// CHECK: "dit.attention"(%[[F]]#0, %[[F]]#1, %[[F]]#2)
// REPORT: fused_joint_qkv_heads_0: split -> split -> reshape -> reshape -> reshape -> reshape -> reshape -> reshape -> rms_norm
// REPORT: kernels: 14 before, 4 after
func.func @joint_qkv_heads(%xi: tensor<1x8x128xbf16>, %xt: tensor<1x4x128xbf16>, %wi: tensor<384x128xbf16>, %wt: tensor<384x128xbf16>, %gq: tensor<64xbf16>, %gk: tensor<64xbf16>, %cos: tensor<8x1x64xbf16>, %sin: tensor<8x1x64xbf16>) -> tensor<1x12x2x64xbf16> {
  %pi = "dit.linear"(%xi, %wi) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x8x128xbf16>, tensor<384x128xbf16>) -> tensor<1x8x384xbf16>
  %pt = "dit.linear"(%xt, %wt) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x4x128xbf16>, tensor<384x128xbf16>) -> tensor<1x4x384xbf16>
  %si:3 = "dit.split"(%pi) {dim = 2 : i64, sizes = array<i64: 128, 128, 128>} : (tensor<1x8x384xbf16>) -> (tensor<1x8x128xbf16>, tensor<1x8x128xbf16>, tensor<1x8x128xbf16>)
  %st:3 = "dit.split"(%pt) {dim = 2 : i64, sizes = array<i64: 128, 128, 128>} : (tensor<1x4x384xbf16>) -> (tensor<1x4x128xbf16>, tensor<1x4x128xbf16>, tensor<1x4x128xbf16>)
  %qi = "dit.reshape"(%si#0) : (tensor<1x8x128xbf16>) -> tensor<1x8x2x64xbf16>
  %ki = "dit.reshape"(%si#1) : (tensor<1x8x128xbf16>) -> tensor<1x8x2x64xbf16>
  %vi = "dit.reshape"(%si#2) : (tensor<1x8x128xbf16>) -> tensor<1x8x2x64xbf16>
  %qt = "dit.reshape"(%st#0) : (tensor<1x4x128xbf16>) -> tensor<1x4x2x64xbf16>
  %kt = "dit.reshape"(%st#1) : (tensor<1x4x128xbf16>) -> tensor<1x4x2x64xbf16>
  %vt = "dit.reshape"(%st#2) : (tensor<1x4x128xbf16>) -> tensor<1x4x2x64xbf16>
  %qin = "dit.rms_norm"(%qi, %gq) {epsilon = 1.0e-06 : f32} : (tensor<1x8x2x64xbf16>, tensor<64xbf16>) -> tensor<1x8x2x64xbf16>
  %kin = "dit.rms_norm"(%ki, %gk) {epsilon = 1.0e-06 : f32} : (tensor<1x8x2x64xbf16>, tensor<64xbf16>) -> tensor<1x8x2x64xbf16>
  %qtn = "dit.rms_norm"(%qt, %gq) {epsilon = 1.0e-06 : f32} : (tensor<1x4x2x64xbf16>, tensor<64xbf16>) -> tensor<1x4x2x64xbf16>
  %ktn = "dit.rms_norm"(%kt, %gk) {epsilon = 1.0e-06 : f32} : (tensor<1x4x2x64xbf16>, tensor<64xbf16>) -> tensor<1x4x2x64xbf16>
  %qir = "dit.rope"(%qin, %cos, %sin) {mode = "interleave"} : (tensor<1x8x2x64xbf16>, tensor<8x1x64xbf16>, tensor<8x1x64xbf16>) -> tensor<1x8x2x64xbf16>
  %kir = "dit.rope"(%kin, %cos, %sin) {mode = "interleave"} : (tensor<1x8x2x64xbf16>, tensor<8x1x64xbf16>, tensor<8x1x64xbf16>) -> tensor<1x8x2x64xbf16>
  %q = "dit.concat"(%qtn, %qir) {dim = 1 : i64} : (tensor<1x4x2x64xbf16>, tensor<1x8x2x64xbf16>) -> tensor<1x12x2x64xbf16>
  %k = "dit.concat"(%ktn, %kir) {dim = 1 : i64} : (tensor<1x4x2x64xbf16>, tensor<1x8x2x64xbf16>) -> tensor<1x12x2x64xbf16>
  %v = "dit.concat"(%vt, %vi) {dim = 1 : i64} : (tensor<1x4x2x64xbf16>, tensor<1x8x2x64xbf16>) -> tensor<1x12x2x64xbf16>
  %o = "dit.attention"(%q, %k, %v) {scale = 0.125 : f32, layout = "BSND", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x12x2x64xbf16>, tensor<1x12x2x64xbf16>, tensor<1x12x2x64xbf16>) -> tensor<1x12x2x64xbf16>
  return %o : tensor<1x12x2x64xbf16>
}

// -----

// Heads of 8 bf16 are 16 bytes: not whole 32-byte GM blocks, so the generator does not read
// them as rows of the projection and the split stays a copy kernel before the norm's group.
// CHECK-LABEL: func.func @narrow_heads_stay
// CHECK: %[[S:.*]]:2 = "dit.split"
// CHECK: "dit.reshape"(%[[S]]#0)
// CHECK: "dit.fused"
// CHECK-NOT: "dit.split"
// CHECK: return
// REPORT: the split stays a copy kernel: the Ascend C generator does not take it: {{.*}}dit.reshape{{.*}}32-byte GM rows
func.func @narrow_heads_stay(%x: tensor<1x8x64xbf16>, %w: tensor<128x64xbf16>, %g: tensor<8xbf16>) -> (tensor<1x8x8x8xbf16>, tensor<1x8x64xbf16>) {
  %p = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x8x64xbf16>, tensor<128x64xbf16>) -> tensor<1x8x128xbf16>
  %s:2 = "dit.split"(%p) {dim = 2 : i64, sizes = array<i64: 64, 64>} : (tensor<1x8x128xbf16>) -> (tensor<1x8x64xbf16>, tensor<1x8x64xbf16>)
  %q = "dit.reshape"(%s#0) : (tensor<1x8x64xbf16>) -> tensor<1x8x8x8xbf16>
  %qn = "dit.rms_norm"(%q, %g) {epsilon = 1.0e-06 : f32} : (tensor<1x8x8x8xbf16>, tensor<8xbf16>) -> tensor<1x8x8x8xbf16>
  %e = "dit.exp"(%qn) : (tensor<1x8x8x8xbf16>) -> tensor<1x8x8x8xbf16>
  return %e, %s#1 : tensor<1x8x8x8xbf16>, tensor<1x8x64xbf16>
}
