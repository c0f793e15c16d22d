// HunyuanVideo-1.5's mask build (F.pad of the text mask with True, repeat, & with its
// transpose) and ERNIE-Image's full-width partial RoPE (cat of x[..., :d] rotated and the empty
// x[..., d:]) convert to dit ops with torch's semantics:
// - aten.pad / constant_pad_nd (constant mode): a dit.concat of constant blocks and x per
//   padded dim, (before, after) pairs from the last dim; other modes and crops stay opaque;
// - aten.repeat: reshape with a unit dim before each dim, dit.broadcast (a view), reshape;
// - bool and (__and__, bitwise_and, logical_and): dit.mul on i1; integer bitwise and stays opaque;
// - aten.cat drops zero-width pieces (one piece left: the result), so the empty slice dies.
// The last RUN runs the converted functions on the CPU reference runtime (@kept is opaque);
// the *_values ones on literals, against the values torch gives.
//
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit | dit-run - --split-input-file --print-outputs --exclude=kept | FileCheck %s --check-prefix=VALUES

// CHECK-LABEL: func.func @mask(%arg0: tensor<1x2xi1>) -> tensor<1x1x3x3xi1>
// CHECK-NEXT: %[[T:.*]] = arith.constant dense<true> : tensor<1x1xi1>
// CHECK-NEXT: %[[P:.*]] = "dit.concat"(%[[T]], %arg0) {dim = 1 : i64} : (tensor<1x1xi1>, tensor<1x2xi1>) -> tensor<1x3xi1>
// CHECK-NEXT: %[[V:.*]] = "dit.reshape"(%[[P]]) : (tensor<1x3xi1>) -> tensor<1x1x1x3xi1>
// CHECK-NEXT: %[[U:.*]] = "dit.reshape"(%[[V]]) : (tensor<1x1x1x3xi1>) -> tensor<1x1x1x1x1x1x1x3xi1>
// CHECK-NEXT: %[[B:.*]] = "dit.broadcast"(%[[U]]) : (tensor<1x1x1x1x1x1x1x3xi1>) -> tensor<1x1x1x1x3x1x1x3xi1>
// CHECK-NEXT: %[[R:.*]] = "dit.reshape"(%[[B]]) : (tensor<1x1x1x1x3x1x1x3xi1>) -> tensor<1x1x3x3xi1>
// CHECK-NEXT: %[[X:.*]] = "dit.transpose"(%[[R]]) {perm = array<i64: 0, 1, 3, 2>}
// CHECK-NEXT: %[[A:.*]] = "dit.mul"(%[[R]], %[[X]]) : (tensor<1x1x3x3xi1>, tensor<1x1x3x3xi1>) -> tensor<1x1x3x3xi1>
// CHECK-NEXT: return %[[A]]

// CHECK-LABEL: func.func @pad2d(%arg0: tensor<2x3xf32>) -> tensor<5x4xf32>
// CHECK-DAG: %[[L:.*]] = arith.constant dense<-2.500000e+00> : tensor<2x1xf32>
// CHECK: %[[C1:.*]] = "dit.concat"(%arg0, %[[L]]) {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
// CHECK: %[[B:.*]] = arith.constant dense<-2.500000e+00> : tensor<1x4xf32>
// CHECK: %[[A:.*]] = arith.constant dense<-2.500000e+00> : tensor<2x4xf32>
// CHECK: "dit.concat"(%[[B]], %[[C1]], %[[A]]) {dim = 0 : i64} : (tensor<1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<5x4xf32>

// CHECK-LABEL: func.func @logical(%arg0: tensor<4xf32>, %arg1: tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT: %[[C:.*]] = "dit.cast"(%arg0) : (tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT: "dit.mul"(%[[C]], %arg1)

// CHECK-LABEL: func.func @rope(%arg0: tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NOT: dit.slice
// CHECK-NOT: dit.concat
// CHECK: %[[N:.*]] = "dit.neg"(%arg0)
// CHECK-NEXT: return %[[N]]

// CHECK-LABEL: func.func @kept
// CHECK: "dit.opaque"(%arg0) {{.*}}name = "aten.pad"
// CHECK: "dit.opaque"(%arg1) {name = "aten.bitwise_and.Tensor"}

// REPORT: skipped at {{.*}}torch-pad-repeat-and.mlir:{{[0-9]+}}:{{[0-9]+}}: aten.pad: pad mode "reflect" (only constant is converted); kept as dit.opaque
// REPORT: skipped at {{.*}}torch-pad-repeat-and.mlir:{{[0-9]+}}:{{[0-9]+}}: aten.bitwise_and.Tensor: bitwise and of integers (only bool and is converted); kept as dit.opaque

// The padded mask [True, m0, m1], repeated over 3 rows, & its transpose: row i, column j is
// p[i] & p[j]; with m = [1, 0]: p = [1, 1, 0] (torch: F.pad(m, (1, 0), value=True) ...).
// VALUES-LABEL: @mask_values:
// VALUES: values i1[1,1,3,3]: [1.000000, 1.000000, 0.000000, 1.000000, 1.000000, 0.000000, 0.000000, 0.000000
// torch.nn.functional.pad(arange(6).view(2, 3) + 1, (0, 1, 1, 2), value=-2.5), row-major.
// VALUES-LABEL: @pad2d_values:
// VALUES: values f32[5,4]: [-2.500000, -2.500000, -2.500000, -2.500000, 1.000000, 2.000000, 3.000000, -2.500000
// tile: torch.tensor([[1, 2]]).repeat(2, 1, 2) = [[[1, 2, 1, 2]], [[1, 2, 1, 2]]].
// VALUES-LABEL: @repeat_values:
// VALUES: values f32[2,1,4]: [1.000000, 2.000000, 1.000000, 2.000000, 1.000000, 2.000000, 1.000000, 2.000000]
// VALUES-LABEL: @rope_values:
// VALUES: values f32[1,4]: [-1.000000, -2.000000, -3.000000, -4.000000]

module {
  func.func @mask(%m: !torch.vtensor<[1,2],i1>) -> !torch.vtensor<[1,1,3,3],i1> {
    %c0 = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
    %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
    %c2 = "torch.constant.int"() {value = 2 : i64} : () -> !torch.int
    %c3 = "torch.constant.int"() {value = 3 : i64} : () -> !torch.int
    %pad = "torch.prim.ListConstruct"(%c1, %c0) : (!torch.int, !torch.int) -> !torch.list<int>
    %mode = "torch.constant.str"() {value = "constant"} : () -> !torch.str
    %one = "torch.constant.float"() {value = 1.000000e+00 : f64} : () -> !torch.float
    %p = "torch.aten.pad"(%m, %pad, %mode, %one) : (!torch.vtensor<[1,2],i1>, !torch.list<int>, !torch.str, !torch.float) -> !torch.vtensor<[1,3],i1>
    %shape = "torch.prim.ListConstruct"(%c1, %c1, %c1, %c3) : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %v = "torch.aten.view"(%p, %shape) : (!torch.vtensor<[1,3],i1>, !torch.list<int>) -> !torch.vtensor<[1,1,1,3],i1>
    %reps = "torch.prim.ListConstruct"(%c1, %c1, %c3, %c1) : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %r = "torch.aten.repeat"(%v, %reps) : (!torch.vtensor<[1,1,1,3],i1>, !torch.list<int>) -> !torch.vtensor<[1,1,3,3],i1>
    %t = "torch.aten.transpose.int"(%r, %c2, %c3) : (!torch.vtensor<[1,1,3,3],i1>, !torch.int, !torch.int) -> !torch.vtensor<[1,1,3,3],i1>
    %a = "torch.aten.__and__.Tensor"(%r, %t) : (!torch.vtensor<[1,1,3,3],i1>, !torch.vtensor<[1,1,3,3],i1>) -> !torch.vtensor<[1,1,3,3],i1>
    return %a : !torch.vtensor<[1,1,3,3],i1>
  }

  func.func @pad2d(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[5,4],f32> {
    %c0 = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
    %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
    %c2 = "torch.constant.int"() {value = 2 : i64} : () -> !torch.int
    %pad = "torch.prim.ListConstruct"(%c0, %c1, %c1, %c2) : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %v = "torch.constant.float"() {value = -2.500000e+00 : f64} : () -> !torch.float
    %y = "torch.aten.constant_pad_nd"(%x, %pad, %v) : (!torch.vtensor<[2,3],f32>, !torch.list<int>, !torch.float) -> !torch.vtensor<[5,4],f32>
    return %y : !torch.vtensor<[5,4],f32>
  }

  func.func @logical(%x: !torch.vtensor<[4],f32>, %m: !torch.vtensor<[4],i1>) -> !torch.vtensor<[4],i1> {
    %a = "torch.aten.logical_and"(%x, %m) : (!torch.vtensor<[4],f32>, !torch.vtensor<[4],i1>) -> !torch.vtensor<[4],i1>
    return %a : !torch.vtensor<[4],i1>
  }

  func.func @mask_values() -> !torch.vtensor<[1,1,3,3],i1> {
    %m = "torch.vtensor.literal"() {value = dense<[[true, false]]> : tensor<1x2xi1>} : () -> !torch.vtensor<[1,2],i1>
    %c0 = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
    %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
    %c2 = "torch.constant.int"() {value = 2 : i64} : () -> !torch.int
    %c3 = "torch.constant.int"() {value = 3 : i64} : () -> !torch.int
    %pad = "torch.prim.ListConstruct"(%c1, %c0) : (!torch.int, !torch.int) -> !torch.list<int>
    %mode = "torch.constant.str"() {value = "constant"} : () -> !torch.str
    %one = "torch.constant.float"() {value = 1.000000e+00 : f64} : () -> !torch.float
    %p = "torch.aten.pad"(%m, %pad, %mode, %one) : (!torch.vtensor<[1,2],i1>, !torch.list<int>, !torch.str, !torch.float) -> !torch.vtensor<[1,3],i1>
    %shape = "torch.prim.ListConstruct"(%c1, %c1, %c1, %c3) : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %v = "torch.aten.view"(%p, %shape) : (!torch.vtensor<[1,3],i1>, !torch.list<int>) -> !torch.vtensor<[1,1,1,3],i1>
    %reps = "torch.prim.ListConstruct"(%c1, %c1, %c3, %c1) : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %r = "torch.aten.repeat"(%v, %reps) : (!torch.vtensor<[1,1,1,3],i1>, !torch.list<int>) -> !torch.vtensor<[1,1,3,3],i1>
    %t = "torch.aten.transpose.int"(%r, %c2, %c3) : (!torch.vtensor<[1,1,3,3],i1>, !torch.int, !torch.int) -> !torch.vtensor<[1,1,3,3],i1>
    %a = "torch.aten.__and__.Tensor"(%r, %t) : (!torch.vtensor<[1,1,3,3],i1>, !torch.vtensor<[1,1,3,3],i1>) -> !torch.vtensor<[1,1,3,3],i1>
    return %a : !torch.vtensor<[1,1,3,3],i1>
  }

  func.func @pad2d_values() -> !torch.vtensor<[5,4],f32> {
    %x = "torch.vtensor.literal"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> !torch.vtensor<[2,3],f32>
    %c0 = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
    %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
    %c2 = "torch.constant.int"() {value = 2 : i64} : () -> !torch.int
    %pad = "torch.prim.ListConstruct"(%c0, %c1, %c1, %c2) : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %mode = "torch.constant.str"() {value = "constant"} : () -> !torch.str
    %v = "torch.constant.float"() {value = -2.500000e+00 : f64} : () -> !torch.float
    %y = "torch.aten.pad"(%x, %pad, %mode, %v) : (!torch.vtensor<[2,3],f32>, !torch.list<int>, !torch.str, !torch.float) -> !torch.vtensor<[5,4],f32>
    return %y : !torch.vtensor<[5,4],f32>
  }

  func.func @repeat_values() -> !torch.vtensor<[2,1,4],f32> {
    %x = "torch.vtensor.literal"() {value = dense<[[1.0, 2.0]]> : tensor<1x2xf32>} : () -> !torch.vtensor<[1,2],f32>
    %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
    %c2 = "torch.constant.int"() {value = 2 : i64} : () -> !torch.int
    %reps = "torch.prim.ListConstruct"(%c2, %c1, %c2) : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %r = "torch.aten.repeat"(%x, %reps) : (!torch.vtensor<[1,2],f32>, !torch.list<int>) -> !torch.vtensor<[2,1,4],f32>
    return %r : !torch.vtensor<[2,1,4],f32>
  }

  func.func @rope_values() -> !torch.vtensor<[1,4],f32> {
    %x = "torch.vtensor.literal"() {value = dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>} : () -> !torch.vtensor<[1,4],f32>
    %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
    %c0 = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
    %c4 = "torch.constant.int"() {value = 4 : i64} : () -> !torch.int
    %end = "torch.constant.int"() {value = 9223372036854775807 : i64} : () -> !torch.int
    %head = "torch.aten.slice.Tensor"(%x, %c1, %c0, %c4, %c1) : (!torch.vtensor<[1,4],f32>, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[1,4],f32>
    %tail = "torch.aten.slice.Tensor"(%x, %c1, %c4, %end, %c1) : (!torch.vtensor<[1,4],f32>, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[1,0],f32>
    %n = "torch.aten.neg"(%head) : (!torch.vtensor<[1,4],f32>) -> !torch.vtensor<[1,4],f32>
    %l = "torch.prim.ListConstruct"(%n, %tail) : (!torch.vtensor<[1,4],f32>, !torch.vtensor<[1,0],f32>) -> !torch.list<vtensor>
    %y = "torch.aten.cat"(%l, %c1) : (!torch.list<vtensor>, !torch.int) -> !torch.vtensor<[1,4],f32>
    return %y : !torch.vtensor<[1,4],f32>
  }

  // x[..., 4:] of a 4-wide x is empty: cat(neg(x[..., :4]), x[..., 4:]) is neg(x).
  func.func @rope(%x: !torch.vtensor<[1,4],f32>) -> !torch.vtensor<[1,4],f32> {
    %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
    %c0 = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
    %c4 = "torch.constant.int"() {value = 4 : i64} : () -> !torch.int
    %end = "torch.constant.int"() {value = 9223372036854775807 : i64} : () -> !torch.int
    %head = "torch.aten.slice.Tensor"(%x, %c1, %c0, %c4, %c1) : (!torch.vtensor<[1,4],f32>, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[1,4],f32>
    %tail = "torch.aten.slice.Tensor"(%x, %c1, %c4, %end, %c1) : (!torch.vtensor<[1,4],f32>, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[1,0],f32>
    %n = "torch.aten.neg"(%head) : (!torch.vtensor<[1,4],f32>) -> !torch.vtensor<[1,4],f32>
    %l = "torch.prim.ListConstruct"(%n, %tail) : (!torch.vtensor<[1,4],f32>, !torch.vtensor<[1,0],f32>) -> !torch.list<vtensor>
    %y = "torch.aten.cat"(%l, %c1) : (!torch.list<vtensor>, !torch.int) -> !torch.vtensor<[1,4],f32>
    return %y : !torch.vtensor<[1,4],f32>
  }
}

// -----

// Kept opaque (its own chunk: the lowering cannot take an aten.pad's list attribute).
module {
  func.func @kept(%x: !torch.vtensor<[1,2,3],f32>, %i: !torch.vtensor<[4],si64>) -> (!torch.vtensor<[1,2,5],f32>, !torch.vtensor<[4],si64>) {
    %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
    %pad = "torch.prim.ListConstruct"(%c1, %c1) : (!torch.int, !torch.int) -> !torch.list<int>
    %mode = "torch.constant.str"() {value = "reflect"} : () -> !torch.str
    %none = "torch.constant.none"() : () -> !torch.none
    %y = "torch.aten.pad"(%x, %pad, %mode, %none) : (!torch.vtensor<[1,2,3],f32>, !torch.list<int>, !torch.str, !torch.none) -> !torch.vtensor<[1,2,5],f32>
    %b = "torch.aten.bitwise_and.Tensor"(%i, %i) : (!torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si64>
    return %y, %b : !torch.vtensor<[1,2,5],f32>, !torch.vtensor<[4],si64>
  }
}
