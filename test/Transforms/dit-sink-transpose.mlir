// RUN: dit-opt %s --split-input-file --dit-sink-transpose | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-sink-transpose --dit-canonicalize | FileCheck %s --check-prefix=CANON
// RUN: dit-opt %s --split-input-file --dit-sink-transpose | dit-opt --split-input-file > /dev/null
// Numerical check (issue 6): the unfused and transformed graphs on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused --pipeline='builtin.module(dit-canonicalize,dit-sink-transpose)' > /dev/null

// A DiT attention: Q/K/V transposed to BNSD, q and k normalised, text and image joined, RoPE,
// attention, transposed back. Everything moves to BSND: no transpose is left.
// CHECK-LABEL: func.func @dit_attention
// CHECK: "dit.attention"{{.*}}layout = "BSND"
// CANON-LABEL: func.func @dit_attention
// CANON-NOT: "dit.transpose"
// CANON: "dit.concat"({{.*}}) {dim = 1 : i64} : (tensor<1x2x4x8xbf16>, tensor<1x6x4x8xbf16>) -> tensor<1x8x4x8xbf16>
// CANON: "dit.rope"({{.*}}) {mode = "interleave"} : (tensor<1x8x4x8xbf16>, tensor<1x8x1x8xf32>, tensor<1x8x1x8xf32>) -> tensor<1x8x4x8xbf16>
// CANON: "dit.attention"({{.*}}) {layout = "BSND", {{.*}}} : (tensor<1x8x4x8xbf16>, tensor<1x8x4x8xbf16>, tensor<1x8x4x8xbf16>) -> tensor<1x8x4x8xbf16>
// CANON-NEXT: return
func.func @dit_attention(%tq: tensor<1x2x4x8xbf16>, %iq: tensor<1x6x4x8xbf16>, %tk: tensor<1x2x4x8xbf16>, %ik: tensor<1x6x4x8xbf16>, %tv: tensor<1x2x4x8xbf16>, %iv: tensor<1x6x4x8xbf16>, %g: tensor<8xbf16>, %cos: tensor<1x1x8x8xf32>, %sin: tensor<1x1x8x8xf32>) -> tensor<1x8x4x8xbf16> {
  %a = "dit.transpose"(%tq) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x2x4x8xbf16>) -> tensor<1x4x2x8xbf16>
  %b = "dit.transpose"(%iq) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x6x4x8xbf16>) -> tensor<1x4x6x8xbf16>
  %c = "dit.transpose"(%tk) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x2x4x8xbf16>) -> tensor<1x4x2x8xbf16>
  %d = "dit.transpose"(%ik) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x6x4x8xbf16>) -> tensor<1x4x6x8xbf16>
  %e = "dit.transpose"(%tv) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x2x4x8xbf16>) -> tensor<1x4x2x8xbf16>
  %f = "dit.transpose"(%iv) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x6x4x8xbf16>) -> tensor<1x4x6x8xbf16>
  %an = "dit.rms_norm"(%a, %g) {epsilon = 1.0e-6 : f32} : (tensor<1x4x2x8xbf16>, tensor<8xbf16>) -> tensor<1x4x2x8xbf16>
  %bn = "dit.rms_norm"(%b, %g) {epsilon = 1.0e-6 : f32} : (tensor<1x4x6x8xbf16>, tensor<8xbf16>) -> tensor<1x4x6x8xbf16>
  %q = "dit.concat"(%an, %bn) {dim = 2 : i64} : (tensor<1x4x2x8xbf16>, tensor<1x4x6x8xbf16>) -> tensor<1x4x8x8xbf16>
  %k = "dit.concat"(%c, %d) {dim = 2 : i64} : (tensor<1x4x2x8xbf16>, tensor<1x4x6x8xbf16>) -> tensor<1x4x8x8xbf16>
  %v = "dit.concat"(%e, %f) {dim = -2 : i64} : (tensor<1x4x2x8xbf16>, tensor<1x4x6x8xbf16>) -> tensor<1x4x8x8xbf16>
  %qr = "dit.rope"(%q, %cos, %sin) {mode = "interleave"} : (tensor<1x4x8x8xbf16>, tensor<1x1x8x8xf32>, tensor<1x1x8x8xf32>) -> tensor<1x4x8x8xbf16>
  %kr = "dit.rope"(%k, %cos, %sin) {mode = "interleave"} : (tensor<1x4x8x8xbf16>, tensor<1x1x8x8xf32>, tensor<1x1x8x8xf32>) -> tensor<1x4x8x8xbf16>
  %o = "dit.attention"(%qr, %kr, %v) {scale = 0.35 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x4x8x8xbf16>, tensor<1x4x8x8xbf16>, tensor<1x4x8x8xbf16>) -> tensor<1x4x8x8xbf16>
  %ot = "dit.transpose"(%o) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4x8x8xbf16>) -> tensor<1x8x4x8xbf16>
  return %ot : tensor<1x8x4x8xbf16>
}

// -----

// A transpose with a second user stays where it is.
// CHECK-LABEL: func.func @shared_transpose
// CHECK: %[[T:.*]] = "dit.transpose"(%arg0)
// CHECK: "dit.exp"(%[[T]])
func.func @shared_transpose(%x: tensor<2x3x4xf32>) -> (tensor<3x2x4xf32>, tensor<3x2x4xf32>) {
  %t = "dit.transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %e = "dit.exp"(%t) : (tensor<3x2x4xf32>) -> tensor<3x2x4xf32>
  return %e, %t : tensor<3x2x4xf32>, tensor<3x2x4xf32>
}

// -----

// A norm over the last dim cannot move past a transpose that moves the last dim.
// CHECK-LABEL: func.func @last_dim_moves
// CHECK: "dit.transpose"(%arg0)
// CHECK-NEXT: "dit.rms_norm"
func.func @last_dim_moves(%x: tensor<4x8xf32>, %g: tensor<4xf32>) -> tensor<8x4xf32> {
  %t = "dit.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %n = "dit.rms_norm"(%t, %g) {epsilon = 1.0e-6 : f32} : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
  return %n : tensor<8x4xf32>
}

// -----

// Attention with a mask: q, k and v fold into layout BSND and the mask stays as it is, since
// its dims are [B|1, N|1, Q_S, KV_S] in every layout (aclnnFusedInferAttentionScoreV2.md:
// attenMaskOptional by Q_S and KV_S; pseShiftOptional (B,N,Q_S,KV_S) or (1,N,Q_S,KV_S)). A
// boolean mask (masked out = true), and an additive per-head mask over a shorter key sequence.
// CHECK-LABEL: func.func @masked_attention
// CHECK-NEXT: %[[O:.*]] = "dit.attention"(%arg0, %arg1, %arg2, %arg3) {layout = "BSND", operandSegmentSizes = array<i32: 1, 1, 1, 1>, scale = 3.500000e-01 : f32} : (tensor<1x8x4x8xbf16>, tensor<1x8x4x8xbf16>, tensor<1x8x4x8xbf16>, tensor<1x1x8x8xi1>) -> tensor<1x8x4x8xbf16>
// CHECK-NEXT: %[[T:.*]] = "dit.transpose"(%[[O]]) {perm = array<i64: 0, 2, 1, 3>}
// CHECK-NEXT: return %[[T]]
func.func @masked_attention(%q: tensor<1x8x4x8xbf16>, %k: tensor<1x8x4x8xbf16>, %v: tensor<1x8x4x8xbf16>, %m: tensor<1x1x8x8xi1>) -> tensor<1x4x8x8xbf16> {
  %a = "dit.transpose"(%q) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x8x4x8xbf16>) -> tensor<1x4x8x8xbf16>
  %b = "dit.transpose"(%k) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x8x4x8xbf16>) -> tensor<1x4x8x8xbf16>
  %c = "dit.transpose"(%v) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x8x4x8xbf16>) -> tensor<1x4x8x8xbf16>
  %o = "dit.attention"(%a, %b, %c, %m) {scale = 0.35 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x4x8x8xbf16>, tensor<1x4x8x8xbf16>, tensor<1x4x8x8xbf16>, tensor<1x1x8x8xi1>) -> tensor<1x4x8x8xbf16>
  return %o : tensor<1x4x8x8xbf16>
}

// -----

// CHECK-LABEL: func.func @additive_masked_attention
// CHECK-NEXT: "dit.attention"(%arg0, %arg1, %arg2, %arg3) {layout = "BSND", mask_kind = "additive", {{.*}} : (tensor<1x8x4x8xbf16>, tensor<1x6x4x8xbf16>, tensor<1x6x4x8xbf16>, tensor<1x4x8x6xbf16>) -> tensor<1x8x4x8xbf16>
// CANON-LABEL: func.func @additive_masked_attention
// CANON-NEXT: %[[O:.*]] = "dit.attention"
// CANON-NEXT: return %[[O]]
func.func @additive_masked_attention(%q: tensor<1x8x4x8xbf16>, %k: tensor<1x6x4x8xbf16>, %v: tensor<1x6x4x8xbf16>, %m: tensor<1x4x8x6xbf16>) -> tensor<1x8x4x8xbf16> {
  %a = "dit.transpose"(%q) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x8x4x8xbf16>) -> tensor<1x4x8x8xbf16>
  %b = "dit.transpose"(%k) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x6x4x8xbf16>) -> tensor<1x4x6x8xbf16>
  %c = "dit.transpose"(%v) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x6x4x8xbf16>) -> tensor<1x4x6x8xbf16>
  %o = "dit.attention"(%a, %b, %c, %m) {scale = 0.35 : f32, mask_kind = "additive", operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x4x8x8xbf16>, tensor<1x4x6x8xbf16>, tensor<1x4x6x8xbf16>, tensor<1x4x8x6xbf16>) -> tensor<1x4x8x8xbf16>
  %t = "dit.transpose"(%o) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4x8x8xbf16>) -> tensor<1x8x4x8xbf16>
  return %t : tensor<1x8x4x8xbf16>
}

// -----

// Concat inputs transposed differently: nothing moves.
// CHECK-LABEL: func.func @mixed_perms
// CHECK-COUNT-2: "dit.transpose"
// CHECK: "dit.concat"
func.func @mixed_perms(%x: tensor<2x3x4xf32>, %y: tensor<3x2x4xf32>) -> tensor<3x4x4xf32> {
  %a = "dit.transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %b = "dit.transpose"(%y) {perm = array<i64: 0, 1, 2>} : (tensor<3x2x4xf32>) -> tensor<3x2x4xf32>
  %c = "dit.concat"(%a, %b) {dim = 1 : i64} : (tensor<3x2x4xf32>, tensor<3x2x4xf32>) -> tensor<3x4x4xf32>
  return %c : tensor<3x4x4xf32>
}
