// RUN: dit-opt %s --split-input-file --dit-lower-to-aclnn | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-lower-to-aclnn | dit-opt --split-input-file > /dev/null
// Every chunk also runs: lowered, JIT-compiled, executed on the CPU reference.
// RUN: dit-run %s --split-input-file | FileCheck %s --check-prefix=EXEC

// A library kernel per op, through the kernel table: linear with a bias is aclnnAddmm, one
// input slot per operand slot. A transpose returned from the function is a copy kernel
// (aclnnPermute): the caller's output descriptor is contiguous. Each handle is released right
// after its last use; results after they are copied out.
// CHECK-DAG: llvm.mlir.global private constant @[[LINEAR:__dit_str_[0-9]+]]("dit.linear\00")
// CHECK-DAG: llvm.mlir.global private constant @[[ADDMM:__dit_str_[0-9]+]]("aclnnAddmm\00")
// CHECK-DAG: llvm.mlir.global private constant @{{.*}}("aclnnPermute\00")
// CHECK-LABEL: func.func @f(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr) -> i32
// CHECK-SAME: dit.init = "f_init", dit.inputs = ["bf16[2,8]", "bf16[4,8]", "bf16[4]"], dit.launches = 2 : i64
// CHECK-SAME: dit.outputs = ["bf16[2,4]", "bf16[8,2]"], dit.reads = array<i64: 0, 1, 2>
// CHECK: %[[X:.*]] = call @dit_rt_wrap(%arg0,
// CHECK: %[[W:.*]] = call @dit_rt_wrap(%arg0,
// CHECK: %[[B:.*]] = call @dit_rt_wrap(%arg0,
// CHECK: %[[L:.*]] = call @dit_rt_alloc(%arg0, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: %[[LOP:.*]] = llvm.mlir.addressof @[[LINEAR]]
// CHECK-NEXT: %[[LK:.*]] = llvm.mlir.addressof @[[ADDMM]]
// CHECK: call @dit_rt_launch(%arg0, %[[LOP]], %[[LK]], %{{.*}}, %{{.*}}, %c3_i32, %{{.*}}, %c1_i32)
// CHECK-NEXT: call @dit_rt_release(%arg0, %[[W]])
// CHECK-NEXT: call @dit_rt_release(%arg0, %[[B]])
// CHECK: call @dit_rt_launch
// CHECK-NEXT: call @dit_rt_release(%arg0, %[[X]])
// CHECK: call @dit_rt_copy_out(%arg0, %[[L]],
// CHECK: call @dit_rt_copy_out
// CHECK: call @dit_rt_release(%arg0, %[[L]])
// CHECK: %[[S:.*]] = call @dit_rt_status(%arg0)
// CHECK-NEXT: return %[[S]] : i32
// EXEC: @f: 2 kernels
func.func @f(%x: tensor<2x8xbf16>, %w: tensor<4x8xbf16>, %b: tensor<4xbf16>) -> (tensor<2x4xbf16>, tensor<8x2xbf16>) {
  %l = "dit.linear"(%x, %w, %b) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x8xbf16>, tensor<4x8xbf16>, tensor<4xbf16>) -> tensor<2x4xbf16>
  %t = "dit.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<2x8xbf16>) -> tensor<8x2xbf16>
  return %l, %t : tensor<2x4xbf16>, tensor<8x2xbf16>
}

// -----

// What is a view and what launches is the cost model's placement, so the report counts what
// runs. A split along dim 0 gives contiguous pieces: two offset views (elements 0 and 16). A
// split along dim 1 gives strided pieces, and a library kernel (aclnnMul) reads them: that is
// a copy kernel (aclnnSplitWithSize), as is a transpose a library kernel reads (aclnnPermute).
// A reshape re-describes the bytes and a broadcast is a stride-0 view: no launch. An absent
// optional operand (the linear's bias) is a null input slot: aclnnMatmul.
// CHECK-DAG: llvm.mlir.global private constant @[[SPLIT:.*]]("aclnnSplitWithSize\00")
// CHECK-DAG: llvm.mlir.global private constant @[[PERMUTE:.*]]("aclnnPermute\00")
// CHECK-DAG: ("aclnnMatmul\00")
// CHECK-DAG: ("aclnnMul\00")
// CHECK-DAG: ("aclnnCat\00")
// CHECK-LABEL: func.func @views(
// CHECK-SAME: dit.launches = 6 : i64
// CHECK: llvm.mlir.addressof @[[SPLIT]]
// CHECK: call @dit_rt_launch
// CHECK: call @dit_rt_launch
// CHECK: llvm.mlir.addressof @[[PERMUTE]]
// CHECK: call @dit_rt_launch
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: llvm.getelementptr
// CHECK-NEXT: llvm.store %[[NULL]]
// CHECK: call @dit_rt_launch
// CHECK: call @dit_rt_reshape
// CHECK: call @dit_rt_view
// CHECK: call @dit_rt_launch
// CHECK: call @dit_rt_view(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c0_i64
// CHECK: call @dit_rt_view(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c16_i64)
// CHECK: call @dit_rt_launch
// EXEC: @views: 6 kernels (6 launches per call; init 0 launches, 0 B pre-packed)
func.func @views(%x: tensor<2x8xf32>, %w: tensor<4x2xf32>, %y: tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<2x8xf32>) {
  %a, %b = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 4, 4>} : (tensor<2x8xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  %m = "dit.mul"(%a, %b) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %t = "dit.transpose"(%m) {perm = array<i64: 1, 0>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  %l = "dit.linear"(%t, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x4xf32>
  %r = "dit.reshape"(%l) : (tensor<4x4xf32>) -> tensor<8x2xf32>
  %o = "dit.broadcast"(%r) : (tensor<8x2xf32>) -> tensor<8x2xf32>
  %c = "dit.concat"(%o, %o) {dim = 1 : i64} : (tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<8x4xf32>
  %p, %q = "dit.split"(%y) {dim = 0 : i64, sizes = array<i64: 2, 2>} : (tensor<4x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>)
  %s = "dit.add"(%p, %q) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %c, %s : tensor<8x4xf32>, tensor<2x8xf32>
}

// -----

// A dit.fused kernel passes its name and its region as a JSON body program (value ids: the
// captured values, then each op's results); constants become runtime constants.
// CHECK-DAG: ("fused_fused_0\00")
// CHECK-DAG: ("{\22body\22:{\22args\22:[{\22dtype\22:\22bf16\22,\22shape\22:[4,8]},{\22dtype\22:\22bf16\22,\22shape\22:[]}],\22ops\22:[{\22attrs\22:{},\22name\22:\22dit.mul\22,\22operands\22:[0,1],\22results\22:[{\22dtype\22:\22bf16\22,\22shape\22:[4,8]}]},{\22attrs\22:{},\22name\22:\22dit.exp\22,\22operands\22:[2],{{.*}}\22yield\22:[3]},\22kernel\22:\22fused_fused_0\22}\00")
// CHECK-LABEL: func.func @fused
// CHECK: call @dit_rt_constant(%arg0, %c27_i32, %c0_i32,
// EXEC: @fused: 1 kernels
func.func @fused(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %two = arith.constant dense<2.0> : tensor<bf16>
  %f = "dit.fused"(%x, %two) ({
  ^bb0(%a: tensor<4x8xbf16>, %s: tensor<bf16>):
    %m = "dit.mul"(%a, %s) : (tensor<4x8xbf16>, tensor<bf16>) -> tensor<4x8xbf16>
    %e = "dit.exp"(%m) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
    "dit.yield"(%e) : (tensor<4x8xbf16>) -> ()
  }) {kernel = "fused_fused_0"} : (tensor<4x8xbf16>, tensor<bf16>) -> tensor<4x8xbf16>
  return %f : tensor<4x8xbf16>
}


// -----

// The load-time pre-pack: a concat of weight arguments read only as a linear's weight (what
// dit-merge-horizontal makes of Q/K projections) runs once, in @prepack_init, which keeps its
// result in the context. @prepack reads it back and launches only the linear: the report's
// kernels (1) are its launches, and the concat is the init entry's one launch.
// CHECK-LABEL: func.func @prepack_init(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32
// CHECK-SAME: dit.init_of = "prepack"
// CHECK-SAME: dit.launches = 1 : i64, dit.prepack_bytes = 256 : i64, dit.reads = array<i64: 1, 2>
// CHECK: call @dit_rt_wrap
// CHECK: call @dit_rt_wrap
// CHECK: call @dit_rt_launch
// CHECK: call @dit_rt_pack_store
// CHECK: call @dit_rt_status
// CHECK-LABEL: func.func @prepack(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr) -> i32
// CHECK-SAME: dit.init = "prepack_init"
// CHECK-SAME: dit.launches = 1 : i64
// CHECK-SAME: dit.reads = array<i64: 0>
// CHECK: call @dit_rt_wrap
// CHECK-NOT: call @dit_rt_wrap
// CHECK: %[[W:.*]] = call @dit_rt_pack_load
// CHECK: call @dit_rt_launch
// CHECK-NOT: call @dit_rt_launch
// CHECK: call @dit_rt_release(%arg0, %[[W]])
// EXEC: @prepack: 1 kernels (1 launches per call; init 1 launches, 128 B pre-packed)
func.func @prepack(%x: tensor<2x8xbf16>, %wq: tensor<4x8xbf16>, %wk: tensor<4x8xbf16>) -> tensor<2x8xbf16> {
  %w = "dit.concat"(%wq, %wk) {dim = 0 : i64} : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<8x8xbf16>
  %y = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}
