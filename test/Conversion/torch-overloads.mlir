// dit-convert-torch-to-dit on the overloads and aliases of the converter tables that the other
// lit tests and the imported graphs do not use (the unit test
// `every_table_entry_is_exercised_by_a_lit_test` in passes/src/conversion/torch/convert.rs
// requires every table entry in some lit test). Each function converts without a dit.opaque;
// the last RUN runs them on the CPU reference runtime against the unfused graph.
//
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit | dit-opt --split-input-file --dit-verify > /dev/null
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit | dit-run - --split-input-file --compare-unfused --input-range=0.5,1 --exclude=unsupported_overload > /dev/null

// The report: every function converts whole, nothing is skipped.
// REPORT-NOT: skipped at
// REPORT: @matmul_overloads: 2 torch ops -> 8 dit ops; 0 kept as dit.opaque
// REPORT-NOT: skipped at
// REPORT: @arith_overloads: 2 torch ops -> 2 dit ops; 0 kept as dit.opaque
// REPORT-NOT: skipped at
// REPORT: @sort_stable: 1 torch ops -> 1 dit ops; 0 kept as dit.opaque
// REPORT-NOT: skipped at
// REPORT: @split_overloads: 2 torch ops -> 2 dit ops; 0 kept as dit.opaque
// REPORT-NOT: skipped at
// REPORT: @view_overloads: 5 torch ops -> 5 dit ops; 0 kept as dit.opaque
// REPORT-NOT: skipped at
// REPORT: @layout_overloads: 3 torch ops -> 3 dit ops; 0 kept as dit.opaque
// REPORT-NOT: skipped at
// REPORT: @cast_overloads: 5 torch ops -> 4 dit ops; 0 kept as dit.opaque
// REPORT-NOT: skipped at
// REPORT: @fill_overloads: 7 torch ops -> 0 dit ops; 0 kept as dit.opaque
// REPORT-NOT: skipped at
// An op outside the tables: the skip says how many ops convert, where they are listed, and
// which overloads of it convert.
// REPORT: @unsupported_overload: 1 torch ops -> 1 dit ops; 1 kept as dit.opaque
// REPORT-NEXT: skipped at {{.*}}: aten.sum.dim_DimnameList: no dit op models it; kept as dit.opaque (dit-convert-torch-to-dit converts {{[0-9]+}} torch ops, listed in docs/torch-ops.md; overloads of torch.aten.sum it converts: torch.aten.sum, torch.aten.sum.dim_IntList)

// ----- baddbmm(b, x, y) -> dit.matmul + dit.add; conv1d with stride = kernel -> a linear -----
// CHECK-LABEL: func.func @matmul_overloads
// CHECK: "dit.matmul"(%arg1, %arg2) {transpose_a = false, transpose_b = false} : (tensor<2x4x16xf32>, tensor<2x16x8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT: "dit.add"
// CHECK: "dit.linear"
// CHECK-NOT: dit.opaque

func.func @matmul_overloads(%b: !torch.vtensor<[2,4,8],f32>, %x: !torch.vtensor<[2,4,16],f32>, %y: !torch.vtensor<[2,16,8],f32>, %s: !torch.vtensor<[1,4,16],f32>, %w: !torch.vtensor<[8,4,4],f32>) -> (!torch.vtensor<[2,4,8],f32>, !torch.vtensor<[1,8,4],f32>) {
  %one = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %0 = "torch.aten.baddbmm"(%b, %x, %y, %one, %one) : (!torch.vtensor<[2,4,8],f32>, !torch.vtensor<[2,4,16],f32>, !torch.vtensor<[2,16,8],f32>, !torch.int, !torch.int) -> !torch.vtensor<[2,4,8],f32>
  %none = "torch.constant.none"() : () -> !torch.none
  %c4 = "torch.constant.int"() <{value = 4 : i64}> : () -> !torch.int
  %c0 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %stride = "torch.prim.ListConstruct"(%c4) : (!torch.int) -> !torch.list<!torch.int>
  %padding = "torch.prim.ListConstruct"(%c0) : (!torch.int) -> !torch.list<!torch.int>
  %dilation = "torch.prim.ListConstruct"(%one) : (!torch.int) -> !torch.list<!torch.int>
  %1 = "torch.aten.conv1d"(%s, %w, %none, %stride, %padding, %dilation, %one) : (!torch.vtensor<[1,4,16],f32>, !torch.vtensor<[8,4,4],f32>, !torch.none, !torch.list<!torch.int>, !torch.list<!torch.int>, !torch.list<!torch.int>, !torch.int) -> !torch.vtensor<[1,8,4],f32>
  return %0, %1 : !torch.vtensor<[2,4,8],f32>, !torch.vtensor<[1,8,4],f32>
}

// -----

// ----- div.Scalar_mode without rounding mode -> dit.div; sum over every dim -> dit.reduce_sum -----
// CHECK-LABEL: func.func @arith_overloads
// CHECK: "dit.div"(%arg0, %{{.*}}) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
// CHECK: "dit.reduce_sum"(%arg0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<f32>

func.func @arith_overloads(%x: !torch.vtensor<[4,8],f32>) -> (!torch.vtensor<[4,8],f32>, !torch.vtensor<[],f32>) {
  %none = "torch.constant.none"() : () -> !torch.none
  %two = "torch.constant.float"() <{value = 2.000000e+00 : f64}> : () -> !torch.float
  %0 = "torch.aten.div.Scalar_mode"(%x, %two, %none) : (!torch.vtensor<[4,8],f32>, !torch.float, !torch.none) -> !torch.vtensor<[4,8],f32>
  %1 = "torch.aten.sum"(%x, %none) : (!torch.vtensor<[4,8],f32>, !torch.none) -> !torch.vtensor<[],f32>
  return %0, %1 : !torch.vtensor<[4,8],f32>, !torch.vtensor<[],f32>
}

// -----

// ----- sort.stable(x, stable=True, dim=-1, descending=True) -> dit.sort -----
// CHECK-LABEL: func.func @sort_stable
// CHECK-NEXT: %[[S:.*]]:2 = "dit.sort"(%arg0) {descending = true, dim = 1 : i64, stable = true} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi64>)
// CHECK-NEXT: return %[[S]]#0, %[[S]]#1

func.func @sort_stable(%x: !torch.vtensor<[4,8],f32>) -> (!torch.vtensor<[4,8],f32>, !torch.vtensor<[4,8],si64>) {
  %true = "torch.constant.bool"() <{value = true}> : () -> !torch.bool
  %dim = "torch.constant.int"() <{value = -1 : i64}> : () -> !torch.int
  %0:2 = "torch.aten.sort.stable"(%x, %true, %dim, %true) : (!torch.vtensor<[4,8],f32>, !torch.bool, !torch.int, !torch.bool) -> (!torch.vtensor<[4,8],f32>, !torch.vtensor<[4,8],si64>)
  return %0#0, %0#1 : !torch.vtensor<[4,8],f32>, !torch.vtensor<[4,8],si64>
}

// -----

// ----- split.sizes and tensor_split.sections + ListUnpack -> dit.split -----
// CHECK-LABEL: func.func @split_overloads
// CHECK-NEXT: %[[A:.*]]:2 = "dit.split"(%arg0) {dim = 1 : i64, sizes = array<i64: 4, 8>} : (tensor<2x12xf32>) -> (tensor<2x4xf32>, tensor<2x8xf32>)
// CHECK-NEXT: %[[B:.*]]:3 = "dit.split"(%arg0) {dim = 1 : i64, sizes = array<i64: 4, 4, 4>} : (tensor<2x12xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK-NEXT: return %[[A]]#1, %[[B]]#2

func.func @split_overloads(%x: !torch.vtensor<[2,12],f32>) -> (!torch.vtensor<[2,8],f32>, !torch.vtensor<[2,4],f32>) {
  %c1 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c3 = "torch.constant.int"() <{value = 3 : i64}> : () -> !torch.int
  %c4 = "torch.constant.int"() <{value = 4 : i64}> : () -> !torch.int
  %c8 = "torch.constant.int"() <{value = 8 : i64}> : () -> !torch.int
  %sizes = "torch.prim.ListConstruct"(%c4, %c8) : (!torch.int, !torch.int) -> !torch.list<!torch.int>
  %0 = "torch.aten.split.sizes"(%x, %sizes, %c1) : (!torch.vtensor<[2,12],f32>, !torch.list<!torch.int>, !torch.int) -> !torch.list<vtensor>
  %1:2 = "torch.prim.ListUnpack"(%0) : (!torch.list<vtensor>) -> (!torch.vtensor<[2,4],f32>, !torch.vtensor<[2,8],f32>)
  %2 = "torch.aten.tensor_split.sections"(%x, %c3, %c1) : (!torch.vtensor<[2,12],f32>, !torch.int, !torch.int) -> !torch.list<vtensor>
  %3:3 = "torch.prim.ListUnpack"(%2) : (!torch.list<vtensor>) -> (!torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>)
  return %1#1, %3#2 : !torch.vtensor<[2,8],f32>, !torch.vtensor<[2,4],f32>
}

// -----

// ----- reshape, view_as, reshape_as, squeeze, squeeze.dims -> dit.reshape -----
// CHECK-LABEL: func.func @view_overloads
// CHECK-NEXT: %[[R:.*]] = "dit.reshape"(%arg0) : (tensor<1x4x1x8xf32>) -> tensor<32xf32>
// CHECK-NEXT: %[[V:.*]] = "dit.reshape"(%[[R]]) : (tensor<32xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[A:.*]] = "dit.reshape"(%[[V]]) : (tensor<4x8xf32>) -> tensor<1x4x1x8xf32>
// CHECK-NEXT: %[[Q:.*]] = "dit.reshape"(%[[A]]) : (tensor<1x4x1x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[D:.*]] = "dit.reshape"(%arg0) : (tensor<1x4x1x8xf32>) -> tensor<4x1x8xf32>
// CHECK-NEXT: return %[[Q]], %[[D]]

func.func @view_overloads(%x: !torch.vtensor<[1,4,1,8],f32>, %like: !torch.vtensor<[4,8],f32>) -> (!torch.vtensor<[4,8],f32>, !torch.vtensor<[4,1,8],f32>) {
  %c32 = "torch.constant.int"() <{value = 32 : i64}> : () -> !torch.int
  %c0 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %flat = "torch.prim.ListConstruct"(%c32) : (!torch.int) -> !torch.list<!torch.int>
  %0 = "torch.aten.reshape"(%x, %flat) : (!torch.vtensor<[1,4,1,8],f32>, !torch.list<!torch.int>) -> !torch.vtensor<[32],f32>
  %1 = "torch.aten.view_as"(%0, %like) : (!torch.vtensor<[32],f32>, !torch.vtensor<[4,8],f32>) -> !torch.vtensor<[4,8],f32>
  %2 = "torch.aten.reshape_as"(%1, %x) : (!torch.vtensor<[4,8],f32>, !torch.vtensor<[1,4,1,8],f32>) -> !torch.vtensor<[1,4,1,8],f32>
  %3 = "torch.aten.squeeze"(%2) : (!torch.vtensor<[1,4,1,8],f32>) -> !torch.vtensor<[4,8],f32>
  %dims = "torch.prim.ListConstruct"(%c0) : (!torch.int) -> !torch.list<!torch.int>
  %4 = "torch.aten.squeeze.dims"(%x, %dims) : (!torch.vtensor<[1,4,1,8],f32>, !torch.list<!torch.int>) -> !torch.vtensor<[4,1,8],f32>
  return %3, %4 : !torch.vtensor<[4,8],f32>, !torch.vtensor<[4,1,8],f32>
}

// -----

// ----- swapaxes -> dit.transpose; expand_as and broadcast_to -> dit.broadcast -----
// CHECK-LABEL: func.func @layout_overloads
// CHECK-NEXT: %[[T:.*]] = "dit.transpose"(%arg0) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %[[E:.*]] = "dit.broadcast"(%arg1) : (tensor<1x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[B:.*]] = "dit.broadcast"(%arg1) : (tensor<1x8xf32>) -> tensor<3x8xf32>
// CHECK-NEXT: return %[[T]], %[[E]], %[[B]]

func.func @layout_overloads(%x: !torch.vtensor<[4,8],f32>, %row: !torch.vtensor<[1,8],f32>) -> (!torch.vtensor<[8,4],f32>, !torch.vtensor<[4,8],f32>, !torch.vtensor<[3,8],f32>) {
  %c0 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %c1 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c3 = "torch.constant.int"() <{value = 3 : i64}> : () -> !torch.int
  %c8 = "torch.constant.int"() <{value = 8 : i64}> : () -> !torch.int
  %0 = "torch.aten.swapaxes"(%x, %c0, %c1) : (!torch.vtensor<[4,8],f32>, !torch.int, !torch.int) -> !torch.vtensor<[8,4],f32>
  %1 = "torch.aten.expand_as"(%row, %x) : (!torch.vtensor<[1,8],f32>, !torch.vtensor<[4,8],f32>) -> !torch.vtensor<[4,8],f32>
  %size = "torch.prim.ListConstruct"(%c3, %c8) : (!torch.int, !torch.int) -> !torch.list<!torch.int>
  %2 = "torch.aten.broadcast_to"(%row, %size) : (!torch.vtensor<[1,8],f32>, !torch.list<!torch.int>) -> !torch.vtensor<[3,8],f32>
  return %0, %1, %2 : !torch.vtensor<[8,4],f32>, !torch.vtensor<[4,8],f32>, !torch.vtensor<[3,8],f32>
}

// -----

// ----- to.dtype_layout, to.device, to.other, prims.convert_element_type, lift_fresh_copy -> dit.cast or nothing -----
// CHECK-LABEL: func.func @cast_overloads
// CHECK-NEXT: %[[H:.*]] = "dit.cast"(%arg0) : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK-NEXT: %[[F:.*]] = "dit.cast"(%[[H]]) : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK-NEXT: %[[G:.*]] = "dit.cast"(%[[F]]) : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK-NEXT: %[[P:.*]] = "dit.cast"(%[[G]]) : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK-NEXT: return %[[P]]

func.func @cast_overloads(%x: !torch.vtensor<[4],f32>, %other: !torch.vtensor<[4],bf16>) -> !torch.vtensor<[4],f32> {
  %none = "torch.constant.none"() : () -> !torch.none
  %false = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %bf16 = "torch.constant.int"() <{value = 15 : i64}> : () -> !torch.int
  %f32 = "torch.constant.int"() <{value = 6 : i64}> : () -> !torch.int
  %cpu = "torch.constant.device"() {value = "cpu"} : () -> !torch.Device
  %0 = "torch.aten.to.dtype_layout"(%x, %bf16, %none, %none, %none, %false, %false, %none) : (!torch.vtensor<[4],f32>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.bool, !torch.none) -> !torch.vtensor<[4],bf16>
  %1 = "torch.aten.to.device"(%0, %cpu, %f32, %false, %false, %none) : (!torch.vtensor<[4],bf16>, !torch.Device, !torch.int, !torch.bool, !torch.bool, !torch.none) -> !torch.vtensor<[4],f32>
  %2 = "torch.aten.to.other"(%1, %other, %false, %false, %none) : (!torch.vtensor<[4],f32>, !torch.vtensor<[4],bf16>, !torch.bool, !torch.bool, !torch.none) -> !torch.vtensor<[4],bf16>
  %3 = "torch.prims.convert_element_type"(%2, %f32) : (!torch.vtensor<[4],bf16>, !torch.int) -> !torch.vtensor<[4],f32>
  %4 = "torch.aten.lift_fresh_copy"(%3) : (!torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32>
  return %4 : !torch.vtensor<[4],f32>
}

// -----

// ----- full_like, new_full, ones, new_ones, new_zeros, empty.memory_format, NumToTensor -> splat constants -----
// CHECK-LABEL: func.func @fill_overloads
// CHECK-DAG: arith.constant dense<2.500000e+00> : tensor<2x3xf32>
// CHECK-DAG: arith.constant dense<-1.000000e+00> : tensor<4xf32>
// CHECK-DAG: arith.constant dense<1.000000e+00> : tensor<2x3xf32>
// CHECK-DAG: arith.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-DAG: arith.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-DAG: arith.constant dense<0.000000e+00> : tensor<2x3xf32>
// CHECK-DAG: arith.constant dense<3> : tensor<i64>
// CHECK-NOT: torch.
// CHECK: return

func.func @fill_overloads(%x: !torch.vtensor<[2,3],f32>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[],si64>) {
  %none = "torch.constant.none"() : () -> !torch.none
  %c2 = "torch.constant.int"() <{value = 2 : i64}> : () -> !torch.int
  %c3 = "torch.constant.int"() <{value = 3 : i64}> : () -> !torch.int
  %c4 = "torch.constant.int"() <{value = 4 : i64}> : () -> !torch.int
  %half = "torch.constant.float"() <{value = 2.500000e+00 : f64}> : () -> !torch.float
  %minus = "torch.constant.float"() <{value = -1.000000e+00 : f64}> : () -> !torch.float
  %s23 = "torch.prim.ListConstruct"(%c2, %c3) : (!torch.int, !torch.int) -> !torch.list<!torch.int>
  %s4 = "torch.prim.ListConstruct"(%c4) : (!torch.int) -> !torch.list<!torch.int>
  %0 = "torch.aten.full_like"(%x, %half, %none, %none, %none, %none, %none) : (!torch.vtensor<[2,3],f32>, !torch.float, !torch.none, !torch.none, !torch.none, !torch.none, !torch.none) -> !torch.vtensor<[2,3],f32>
  %1 = "torch.aten.new_full"(%x, %s4, %minus, %none, %none, %none, %none) : (!torch.vtensor<[2,3],f32>, !torch.list<!torch.int>, !torch.float, !torch.none, !torch.none, !torch.none, !torch.none) -> !torch.vtensor<[4],f32>
  %2 = "torch.aten.ones"(%s23, %none, %none, %none, %none) : (!torch.list<!torch.int>, !torch.none, !torch.none, !torch.none, !torch.none) -> !torch.vtensor<[2,3],f32>
  %3 = "torch.aten.new_ones"(%x, %s4, %none, %none, %none, %none) : (!torch.vtensor<[2,3],f32>, !torch.list<!torch.int>, !torch.none, !torch.none, !torch.none, !torch.none) -> !torch.vtensor<[4],f32>
  %4 = "torch.aten.new_zeros"(%x, %s4, %none, %none, %none, %none) : (!torch.vtensor<[2,3],f32>, !torch.list<!torch.int>, !torch.none, !torch.none, !torch.none, !torch.none) -> !torch.vtensor<[4],f32>
  %5 = "torch.aten.empty.memory_format"(%s23, %none, %none, %none, %none, %none) : (!torch.list<!torch.int>, !torch.none, !torch.none, !torch.none, !torch.none, !torch.none) -> !torch.vtensor<[2,3],f32>
  %6 = "torch.prim.NumToTensor.Scalar"(%c3) : (!torch.int) -> !torch.vtensor<[],si64>
  return %0, %1, %2, %3, %4, %5, %6 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[],si64>
}

// -----

// ----- an overload outside the tables stays dit.opaque -----
// CHECK-LABEL: func.func @unsupported_overload
// CHECK-NEXT: "dit.opaque"(%arg0) {{.*}}name = "aten.sum.dim_DimnameList"

func.func @unsupported_overload(%x: !torch.vtensor<[4,8],f32>) -> !torch.vtensor<[4],f32> {
  %none = "torch.constant.none"() : () -> !torch.none
  %false = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %name = "torch.constant.str"() <{value = "w"}> : () -> !torch.str
  %names = "torch.prim.ListConstruct"(%name) : (!torch.str) -> !torch.list<!torch.str>
  %0 = "torch.aten.sum.dim_DimnameList"(%x, %names, %false, %none) : (!torch.vtensor<[4,8],f32>, !torch.list<!torch.str>, !torch.bool, !torch.none) -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}
