// RUN: dit-opt %s --split-input-file --dit-canonicalize | FileCheck %s
// Numerical check: the graphs before and after on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused --pipeline='builtin.module(dit-canonicalize)' > /dev/null

// reshape∘reshape folds into one reshape of the original input.
// CHECK-LABEL: func.func @reshape_reshape
// CHECK-NEXT: %[[R:.*]] = "dit.reshape"(%arg0) : (tensor<2x3x4xf16>) -> tensor<24xf16>
// CHECK-NEXT: return %[[R]]
func.func @reshape_reshape(%x: tensor<2x3x4xf16>) -> tensor<24xf16> {
  %a = "dit.reshape"(%x) : (tensor<2x3x4xf16>) -> tensor<6x4xf16>
  %b = "dit.reshape"(%a) : (tensor<6x4xf16>) -> tensor<24xf16>
  return %b : tensor<24xf16>
}

// -----

// A reshape chain that comes back to the input type disappears.
// CHECK-LABEL: func.func @reshape_round_trip
// CHECK-NEXT: return %arg0
func.func @reshape_round_trip(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %a = "dit.reshape"(%x) : (tensor<2x3xf32>) -> tensor<6xf32>
  %b = "dit.reshape"(%a) : (tensor<6xf32>) -> tensor<2x3xf32>
  return %b : tensor<2x3xf32>
}

// -----

// The intermediate reshape stays while something else uses it.
// CHECK-LABEL: func.func @reshape_shared
// CHECK: %[[A:.*]] = "dit.reshape"(%arg0) : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK: %[[B:.*]] = "dit.reshape"(%arg0) : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK: return %[[A]], %[[B]]
func.func @reshape_shared(%x: tensor<2x3xf32>) -> (tensor<6xf32>, tensor<3x2xf32>) {
  %a = "dit.reshape"(%x) : (tensor<2x3xf32>) -> tensor<6xf32>
  %b = "dit.reshape"(%a) : (tensor<6xf32>) -> tensor<3x2xf32>
  return %a, %b : tensor<6xf32>, tensor<3x2xf32>
}

// -----

// An identity transpose is its input.
// CHECK-LABEL: func.func @identity_transpose
// CHECK-NEXT: return %arg0
func.func @identity_transpose(%x: tensor<2x3x4xbf16>) -> tensor<2x3x4xbf16> {
  %t = "dit.transpose"(%x) {perm = array<i64: 0, 1, 2>} : (tensor<2x3x4xbf16>) -> tensor<2x3x4xbf16>
  return %t : tensor<2x3x4xbf16>
}

// -----

// transpose∘transpose composes: y1[i] = x[p1[i]], y2[i] = y1[p2[i]] = x[p1[p2[i]]].
// p1 = [1, 2, 0], p2 = [1, 2, 0] → [2, 0, 1].
// CHECK-LABEL: func.func @transpose_transpose
// CHECK-NEXT: %[[T:.*]] = "dit.transpose"(%arg0) {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf16>) -> tensor<4x2x3xf16>
// CHECK-NEXT: return %[[T]]
func.func @transpose_transpose(%x: tensor<2x3x4xf16>) -> tensor<4x2x3xf16> {
  %a = "dit.transpose"(%x) {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf16>) -> tensor<3x4x2xf16>
  %b = "dit.transpose"(%a) {perm = array<i64: 1, 2, 0>} : (tensor<3x4x2xf16>) -> tensor<4x2x3xf16>
  return %b : tensor<4x2x3xf16>
}

// -----

// Two swaps of the last two dims cancel.
// CHECK-LABEL: func.func @transpose_cancels
// CHECK-NEXT: return %arg0
func.func @transpose_cancels(%x: tensor<8x16x32xi8>) -> tensor<8x16x32xi8> {
  %a = "dit.transpose"(%x) {perm = array<i64: 0, 2, 1>} : (tensor<8x16x32xi8>) -> tensor<8x32x16xi8>
  %b = "dit.transpose"(%a) {perm = array<i64: 0, 2, 1>} : (tensor<8x32x16xi8>) -> tensor<8x16x32xi8>
  return %b : tensor<8x16x32xi8>
}

// -----

// A cast to the same type is its input; a real cast stays.
// CHECK-LABEL: func.func @casts
// CHECK-NEXT: %[[C:.*]] = "dit.cast"(%arg0) : (tensor<8xbf16>) -> tensor<8xf32>
// CHECK-NEXT: return %arg0, %[[C]]
func.func @casts(%x: tensor<8xbf16>) -> (tensor<8xbf16>, tensor<8xf32>) {
  %same = "dit.cast"(%x) : (tensor<8xbf16>) -> tensor<8xbf16>
  %up = "dit.cast"(%x) : (tensor<8xbf16>) -> tensor<8xf32>
  return %same, %up : tensor<8xbf16>, tensor<8xf32>
}

// -----

// cast∘cast is NOT folded: bf16 → f32 → f16 rounds differently from bf16 → f16 only in
// general, so the pair stays.
// CHECK-LABEL: func.func @cast_chain_kept
// CHECK: "dit.cast"(%arg0) : (tensor<8xf32>) -> tensor<8xbf16>
// CHECK: "dit.cast"(%{{.*}}) : (tensor<8xbf16>) -> tensor<8xf32>
func.func @cast_chain_kept(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = "dit.cast"(%x) : (tensor<8xf32>) -> tensor<8xbf16>
  %b = "dit.cast"(%a) : (tensor<8xbf16>) -> tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// bitcast∘bitcast is one bitcast; back to the input type it is nothing.
// CHECK-LABEL: func.func @bitcasts
// CHECK-NEXT: %[[B:.*]] = "dit.bitcast"(%arg0) : (tensor<4xf32>) -> tensor<16xi8>
// CHECK-NEXT: return %[[B]], %arg0
func.func @bitcasts(%x: tensor<4xf32>) -> (tensor<16xi8>, tensor<4xf32>) {
  %a = "dit.bitcast"(%x) : (tensor<4xf32>) -> tensor<4xi32>
  %b = "dit.bitcast"(%a) : (tensor<4xi32>) -> tensor<16xi8>
  %c = "dit.bitcast"(%a) : (tensor<4xi32>) -> tensor<4xf32>
  return %b, %c : tensor<16xi8>, tensor<4xf32>
}

// -----

// Folds, CSE and DCE work together: after the transposes cancel, the two silu ops see the
// same operand and merge.
// CHECK-LABEL: func.func @together
// CHECK-NEXT: %[[S:.*]] = "dit.silu"(%arg0)
// CHECK-NEXT: %[[M:.*]] = "dit.mul"(%[[S]], %[[S]])
// CHECK-NEXT: return %[[M]]
func.func @together(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %t1 = "dit.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x8xf16>) -> tensor<8x4xf16>
  %t2 = "dit.transpose"(%t1) {perm = array<i64: 1, 0>} : (tensor<8x4xf16>) -> tensor<4x8xf16>
  %a = "dit.silu"(%t2) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %b = "dit.silu"(%x) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %m = "dit.mul"(%a, %b) : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return %m : tensor<4x8xf16>
}

// -----

// concat(split(x)) of every piece in order along the split's dim is x (HunyuanVideo's single
// block cuts the joint sequence into image and text and joins it again unchanged).
// CHECK-LABEL: func.func @concat_of_whole_split
// CHECK-NEXT: %[[S:.*]] = "dit.silu"(%arg0)
// CHECK-NEXT: return %[[S]]
func.func @concat_of_whole_split(%x: tensor<1x6x4xf16>) -> tensor<1x6x4xf16> {
  %a, %b = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 4, 2>} : (tensor<1x6x4xf16>) -> (tensor<1x4x4xf16>, tensor<1x2x4xf16>)
  %c = "dit.concat"(%a, %b) {dim = -2 : i64} : (tensor<1x4x4xf16>, tensor<1x2x4xf16>) -> tensor<1x6x4xf16>
  %s = "dit.silu"(%c) : (tensor<1x6x4xf16>) -> tensor<1x6x4xf16>
  return %s : tensor<1x6x4xf16>
}

// -----

// The pieces swapped: a different tensor, kept.
// CHECK-LABEL: func.func @concat_of_split_swapped
// CHECK: "dit.split"
// CHECK: "dit.concat"
func.func @concat_of_split_swapped(%x: tensor<1x6x4xf16>) -> tensor<1x6x4xf16> {
  %a, %b = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 3, 3>} : (tensor<1x6x4xf16>) -> (tensor<1x3x4xf16>, tensor<1x3x4xf16>)
  %c = "dit.concat"(%b, %a) {dim = 1 : i64} : (tensor<1x3x4xf16>, tensor<1x3x4xf16>) -> tensor<1x6x4xf16>
  return %c : tensor<1x6x4xf16>
}

// -----

// Joined along another dim than the split's: a different shape, kept.
// CHECK-LABEL: func.func @concat_of_split_other_dim
// CHECK: "dit.split"
// CHECK: "dit.concat"
func.func @concat_of_split_other_dim(%x: tensor<2x4xf16>) -> tensor<1x8xf16> {
  %a, %b = "dit.split"(%x) {dim = 0 : i64, sizes = array<i64: 1, 1>} : (tensor<2x4xf16>) -> (tensor<1x4xf16>, tensor<1x4xf16>)
  %c = "dit.concat"(%a, %b) {dim = 1 : i64} : (tensor<1x4xf16>, tensor<1x4xf16>) -> tensor<1x8xf16>
  return %c : tensor<1x8xf16>
}

// -----

// Only some of the pieces: kept.
// CHECK-LABEL: func.func @concat_of_part_of_split
// CHECK: "dit.split"
// CHECK: "dit.concat"
func.func @concat_of_part_of_split(%x: tensor<1x6x4xf16>) -> tensor<1x4x4xf16> {
  %a, %b, %d = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 2, 2, 2>} : (tensor<1x6x4xf16>) -> (tensor<1x2x4xf16>, tensor<1x2x4xf16>, tensor<1x2x4xf16>)
  %c = "dit.concat"(%a, %b) {dim = 1 : i64} : (tensor<1x2x4xf16>, tensor<1x2x4xf16>) -> tensor<1x4x4xf16>
  return %c : tensor<1x4x4xf16>
}
