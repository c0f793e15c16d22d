// dit-cse is upstream cse: ODS declares dit ops Pure, so MLIR merges them itself.
// RUN: dit-opt %s --split-input-file --dit-cse | FileCheck %s

// Identical ops on identical operands merge; the later uses move to the first.
// CHECK-LABEL: func.func @same_op_twice
// CHECK: %[[A:.*]] = "dit.silu"(%arg0)
// CHECK-NOT: "dit.silu"
// CHECK: "dit.mul"(%[[A]], %[[A]])
func.func @same_op_twice(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %a = "dit.silu"(%x) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %b = "dit.silu"(%x) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %m = "dit.mul"(%a, %b) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %m : tensor<4x8xbf16>
}

// -----

// Different attributes are different computations.
// CHECK-LABEL: func.func @attributes_differ
// CHECK: "dit.gelu"(%arg0) {approximate = "none"}
// CHECK: "dit.gelu"(%arg0) {approximate = "tanh"}
func.func @attributes_differ(%x: tensor<8xf16>) -> (tensor<8xf16>, tensor<8xf16>) {
  %a = "dit.gelu"(%x) {approximate = "none"} : (tensor<8xf16>) -> tensor<8xf16>
  %b = "dit.gelu"(%x) {approximate = "tanh"} : (tensor<8xf16>) -> tensor<8xf16>
  return %a, %b : tensor<8xf16>, tensor<8xf16>
}

// -----

// Different result types are different computations.
// CHECK-LABEL: func.func @result_types_differ
// CHECK: "dit.cast"(%arg0) : (tensor<8xbf16>) -> tensor<8xf32>
// CHECK: "dit.cast"(%arg0) : (tensor<8xbf16>) -> tensor<8xf16>
func.func @result_types_differ(%x: tensor<8xbf16>) -> (tensor<8xf32>, tensor<8xf16>) {
  %a = "dit.cast"(%x) : (tensor<8xbf16>) -> tensor<8xf32>
  %b = "dit.cast"(%x) : (tensor<8xbf16>) -> tensor<8xf16>
  return %a, %b : tensor<8xf32>, tensor<8xf16>
}

// -----

// Equal constants merge, and then the ops that use them.
// CHECK-LABEL: func.func @constants_then_users
// CHECK-COUNT-1: arith.constant
// CHECK-COUNT-1: "dit.add"
// CHECK: return
func.func @constants_then_users(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant dense<1.0> : tensor<f32>
  %c1 = arith.constant dense<1.0> : tensor<f32>
  %a = "dit.add"(%x, %c0) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %b = "dit.add"(%x, %c1) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}

// -----

// dit.opaque is never merged: two calls of an unknown op may differ.
// CHECK-LABEL: func.func @opaque_not_merged
// CHECK-COUNT-2: "dit.opaque"
func.func @opaque_not_merged(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %a = "dit.opaque"(%x) {name = "rand_like"} : (tensor<8xf32>) -> tensor<8xf32>
  %b = "dit.opaque"(%x) {name = "rand_like"} : (tensor<8xf32>) -> tensor<8xf32>
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}

// -----

// A dit.fused body is its own scope: an equal op outside is not reused inside.
// CHECK-LABEL: func.func @fused_scope
// CHECK: "dit.exp"(%arg0)
// CHECK: "dit.fused"
// CHECK: "dit.exp"
// CHECK-NOT: "dit.exp"
// CHECK: "dit.yield"
func.func @fused_scope(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = "dit.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %f = "dit.fused"(%x) ({
  ^bb0(%a: tensor<8xf32>):
    %e1 = "dit.exp"(%a) : (tensor<8xf32>) -> tensor<8xf32>
    %e2 = "dit.exp"(%a) : (tensor<8xf32>) -> tensor<8xf32>
    %s = "dit.add"(%e1, %e2) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    "dit.yield"(%s) : (tensor<8xf32>) -> ()
  }) {kernel = "k0"} : (tensor<8xf32>) -> tensor<8xf32>
  return %e, %f : tensor<8xf32>, tensor<8xf32>
}
