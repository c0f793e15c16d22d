// RUN: dit-opt %s --dit-outline-fused | FileCheck %s
// The outlined functions are plain dit functions: dit-run runs one group alone.
// RUN: dit-opt %s --dit-outline-fused | dit-run --entry k_two - | FileCheck %s --check-prefix=EXEC
// Two groups named alike cannot both become functions.
// RUN: not dit-opt %S/Inputs/outline-fused-duplicate.mlir --dit-outline-fused 2>&1 | FileCheck %s --check-prefix=ERR

// Everything outside the groups goes (the linear, the outer function).
// CHECK-NOT: dit.linear
// CHECK-NOT: func.func @forward

// Captures become the arguments in operand order, the body is kept as it is and the yield
// becomes the return.
// CHECK-LABEL: func.func @k_norm(%arg0: tensor<4x16xf32>, %arg1: tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[N:.*]] = "dit.rms_norm"(%arg0, %arg1) {epsilon = 9.99999997E-7 : f32}
// CHECK-NEXT: return %[[N]] : tensor<4x16xf32>

// Several results; a group seen later in the walk comes later.
// CHECK-LABEL: func.func @k_two(%arg0: tensor<4x16xf32>, %arg1: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xbf16>)
// CHECK-NEXT: %[[S:.*]] = "dit.silu"(%arg0)
// CHECK-NEXT: %[[M:.*]] = "dit.mul"(%[[S]], %arg1)
// CHECK-NEXT: %[[C:.*]] = "dit.cast"(%[[M]])
// CHECK-NEXT: return %[[M]], %[[C]] : tensor<4x16xf32>, tensor<4x16xbf16>
// CHECK-NOT: dit.fused

// EXEC: @k_two
// EXEC-NEXT: output 0 f32[4,16]
// EXEC-NEXT: output 1 bf16[4,16]

// ERR: error: dit-outline-fused: a second group is named k_same: kernel names must be unique

func.func @forward(%x: tensor<4x16xf32>, %w: tensor<16xf32>, %lw: tensor<16x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xbf16>) {
  %n = "dit.fused"(%x, %w) ({
  ^bb0(%a0: tensor<4x16xf32>, %a1: tensor<16xf32>):
    %0 = "dit.rms_norm"(%a0, %a1) {epsilon = 9.99999997E-7 : f32} : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
    "dit.yield"(%0) : (tensor<4x16xf32>) -> ()
  }) {kernel = "k_norm"} : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %l = "dit.linear"(%n, %lw) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  %r:2 = "dit.fused"(%l, %n) ({
  ^bb0(%a0: tensor<4x16xf32>, %a1: tensor<4x16xf32>):
    %0 = "dit.silu"(%a0) : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %1 = "dit.mul"(%0, %a1) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %2 = "dit.cast"(%1) : (tensor<4x16xf32>) -> tensor<4x16xbf16>
    "dit.yield"(%1, %2) : (tensor<4x16xf32>, tensor<4x16xbf16>) -> ()
  }) {kernel = "k_two"} : (tensor<4x16xf32>, tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xbf16>)
  return %r#0, %r#1 : tensor<4x16xf32>, tensor<4x16xbf16>
}
