// Zero-element tensors end to end: a slice with no element (x[..., 4:] of a 4-wide x, what a
// partial RoPE over the whole head leaves) is a kernel with nothing to write, and a concat
// takes it as a zero-width piece. The runtime accepts the empty output (no element is shared,
// whatever its strides) and the results equal the graph without the empty piece. The
// converter drops such pieces before they get here (test/Conversion/torch-pad-repeat-and.mlir);
// this is what is left when a graph spells them in dit.
//
// RUN: dit-run %s --print-outputs | FileCheck %s
// RUN: dit-run %s --compare-unfused > /dev/null
// RUN: dit-opt %s --fuse-all | dit-run - --print-outputs | FileCheck %s
// dit-canonicalize drops the empty pieces (and the one piece left replaces the concat); the
// empty slice stays only where it is a result itself. The kernel count says the same.
// RUN: dit-opt %s --dit-canonicalize | FileCheck %s --check-prefix=CANON
// RUN: dit-opt %s --dit-canonicalize | dit-run - | FileCheck %s --check-prefix=KERNELS

// CANON-LABEL: func.func @empty
// CANON-NEXT: %[[T:.*]] = "dit.slice"(%arg0)
// CANON-NEXT: %[[N:.*]] = "dit.neg"(%arg0)
// CANON-NEXT: return %[[N]], %[[T]]
// CANON-LABEL: func.func @empty_values
// CANON-NOT: dit.concat
// CANON: %[[N:.*]] = "dit.neg"
// CANON-NOT: dit.concat
// CANON: return %[[N]]
// CANON-LABEL: func.func @two_pieces
// CANON-NEXT: "dit.concat"(%arg0, %arg0) {dim = -1 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
// CANON-LABEL: func.func @all_empty
// CANON-NEXT: "dit.concat"(%arg0, %arg0) {dim = 1 : i64} : (tensor<2x0xf32>, tensor<2x0xf32>) -> tensor<2x0xf32>

// KERNELS: @empty: 2 kernels
// KERNELS: @empty_values: 2 kernels
// KERNELS: @two_pieces: 1 kernels

// CHECK-LABEL: @empty:
// CHECK: output 0 f32[2,4]
// CHECK: output 1 f32[2,0]
// CHECK-LABEL: @empty_values:
// CHECK: values f32[2,4]: [-1.000000, -2.000000, -3.000000, -4.000000, -5.000000, -6.000000, -7.000000, -8.000000]
// CHECK: values f32[2,0]: []

func.func @empty(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x0xf32>) {
  %tail = "dit.slice"(%x) {dim = 1 : i64, start = 4 : i64, end = 4 : i64, step = 1 : i64} : (tensor<2x4xf32>) -> tensor<2x0xf32>
  %n = "dit.neg"(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %y = "dit.concat"(%n, %tail) {dim = 1 : i64} : (tensor<2x4xf32>, tensor<2x0xf32>) -> tensor<2x4xf32>
  return %y, %tail : tensor<2x4xf32>, tensor<2x0xf32>
}

func.func @empty_values() -> (tensor<2x4xf32>, tensor<2x0xf32>) {
  %x = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %tail = "dit.slice"(%x) {dim = 1 : i64, start = 4 : i64, end = 4 : i64, step = 1 : i64} : (tensor<2x4xf32>) -> tensor<2x0xf32>
  %n = "dit.neg"(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %y = "dit.concat"(%tail, %n, %tail) {dim = 1 : i64} : (tensor<2x0xf32>, tensor<2x4xf32>, tensor<2x0xf32>) -> tensor<2x4xf32>
  return %y, %tail : tensor<2x4xf32>, tensor<2x0xf32>
}

func.func @two_pieces(%x: tensor<2x4xf32>, %e: tensor<2x0xf32>) -> tensor<2x8xf32> {
  %y = "dit.concat"(%x, %e, %x) {dim = -1 : i64} : (tensor<2x4xf32>, tensor<2x0xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

func.func @all_empty(%e: tensor<2x0xf32>) -> tensor<2x0xf32> {
  %y = "dit.concat"(%e, %e) {dim = 1 : i64} : (tensor<2x0xf32>, tensor<2x0xf32>) -> tensor<2x0xf32>
  return %y : tensor<2x0xf32>
}
