// RUN: dit-opt %s --dit-lower-to-aclnn --mlir-print-debuginfo | FileCheck %s
// The lowered program keeps each op's location: the relu's launch points at the relu (line 4).
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "dit.relu"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
// CHECK: call @dit_rt_launch({{.*}}) loc(#[[RELU:loc[0-9]+]])
// CHECK: call @dit_rt_copy_out({{.*}}) loc(#[[RET:loc[0-9]+]])
// CHECK-DAG: #[[RELU]] = loc("{{[^"]*}}":4:8)
// CHECK-DAG: #[[RET]] = loc("{{[^"]*}}":5:3)
