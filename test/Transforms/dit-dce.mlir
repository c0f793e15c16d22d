// RUN: dit-opt %s --split-input-file --dit-dce | FileCheck %s

// A dead chain goes in one run: the unused mul, then the add only it used, then the constant.
// CHECK-LABEL: func.func @dead_chain
// CHECK-NEXT: %[[G:.*]] = "dit.gelu"(%arg0)
// CHECK-NEXT: return %[[G]]
func.func @dead_chain(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %c = arith.constant dense<2.0> : tensor<f16>
  %a = "dit.add"(%x, %c) : (tensor<4x8xf16>, tensor<f16>) -> tensor<4x8xf16>
  %m = "dit.mul"(%a, %a) : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  %g = "dit.gelu"(%x) {approximate = "tanh"} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  return %g : tensor<4x8xf16>
}

// -----

// A value still used is never erased, even when one of its users is dead.
// CHECK-LABEL: func.func @shared_value_kept
// CHECK-NEXT: %[[E:.*]] = "dit.exp"(%arg0)
// CHECK-NEXT: return %[[E]]
func.func @shared_value_kept(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = "dit.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %dead = "dit.neg"(%e) : (tensor<8xf32>) -> tensor<8xf32>
  return %e : tensor<8xf32>
}

// -----

// dit.opaque may have effects the dialect does not model: it stays, and so do its operands.
// CHECK-LABEL: func.func @opaque_kept
// CHECK: "dit.sigmoid"
// CHECK: "dit.opaque"
func.func @opaque_kept(%x: tensor<8xf32>) {
  %s = "dit.sigmoid"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %o = "dit.opaque"(%s) {name = "torch.ops.aten.print"} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// Dead ops inside a dit.fused body go; an unused dit.fused goes as a whole.
// CHECK-LABEL: func.func @fused_body
// CHECK: "dit.fused"
// CHECK-NOT: "dit.tanh"
// CHECK: "dit.yield"
// CHECK-NOT: "dit.fused"
// CHECK: return
func.func @fused_body(%x: tensor<8xf32>) -> tensor<8xf32> {
  %f = "dit.fused"(%x) ({
  ^bb0(%a: tensor<8xf32>):
    %t = "dit.tanh"(%a) : (tensor<8xf32>) -> tensor<8xf32>
    %s = "dit.silu"(%a) : (tensor<8xf32>) -> tensor<8xf32>
    "dit.yield"(%s) : (tensor<8xf32>) -> ()
  }) {kernel = "k0"} : (tensor<8xf32>) -> tensor<8xf32>
  %g = "dit.fused"(%x) ({
  ^bb0(%a: tensor<8xf32>):
    %s = "dit.exp"(%a) : (tensor<8xf32>) -> tensor<8xf32>
    "dit.yield"(%s) : (tensor<8xf32>) -> ()
  }) {kernel = "k1"} : (tensor<8xf32>) -> tensor<8xf32>
  return %f : tensor<8xf32>
}

// -----

// Ops of other dialects are left alone (func.call may have effects).
// CHECK-LABEL: func.func @other_dialects
// CHECK: call @ext
func.func private @ext(tensor<8xf32>) -> tensor<8xf32>
func.func @other_dialects(%x: tensor<8xf32>) {
  %r = func.call @ext(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return
}
