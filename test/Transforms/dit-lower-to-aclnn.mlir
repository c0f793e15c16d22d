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
// CHECK-SAME: dit.inputs = ["bf16[2,8]", "bf16[4,8]", "bf16[4]"], dit.outputs = ["bf16[2,4]", "bf16[8,2]"]
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

// Views launch nothing: a split is two strided views (offsets 0 and 4 elements, row stride 8),
// a transpose read by a library kernel is a permuted-stride view, a reshape re-describes the
// bytes. An absent optional operand (the linear's bias) is a null input slot: aclnnMatmul.
// CHECK-DAG: llvm.mlir.global private constant @{{.*}}(dense<[8, 1]> : tensor<2xi64>)
// CHECK-DAG: llvm.mlir.global private constant @{{.*}}(dense<[1, 4]> : tensor<2xi64>)
// CHECK-DAG: ("aclnnMatmul\00")
// CHECK-DAG: ("aclnnMul\00")
// CHECK-DAG: ("aclnnCat\00")
// CHECK-LABEL: func.func @views
// CHECK-NOT: dit.split
// CHECK: call @dit_rt_view(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c0_i64)
// CHECK: call @dit_rt_view(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c4_i64)
// CHECK: call @dit_rt_launch
// CHECK: call @dit_rt_view
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: llvm.getelementptr
// CHECK-NEXT: llvm.store %[[NULL]]
// CHECK: call @dit_rt_launch
// CHECK: call @dit_rt_reshape
// CHECK: call @dit_rt_view
// CHECK: call @dit_rt_launch
// The cost model counts the strided split and the transpose as copies (conservative: a library
// kernel may first make a strided input contiguous); the lowering passes them as views.
// EXEC: @views: 5 kernels
func.func @views(%x: tensor<2x8xf32>, %w: tensor<4x2xf32>) -> tensor<8x4xf32> {
  %a, %b = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 4, 4>} : (tensor<2x8xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  %m = "dit.mul"(%a, %b) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %t = "dit.transpose"(%m) {perm = array<i64: 1, 0>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  %l = "dit.linear"(%t, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x4xf32>
  %r = "dit.reshape"(%l) : (tensor<4x4xf32>) -> tensor<8x2xf32>
  %o = "dit.broadcast"(%r) : (tensor<8x2xf32>) -> tensor<8x2xf32>
  %c = "dit.concat"(%o, %o) {dim = 1 : i64} : (tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<8x4xf32>
  return %c : tensor<8x4xf32>
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

