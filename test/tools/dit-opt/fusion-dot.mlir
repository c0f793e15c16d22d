// --emit-fusion-dot writes the result as Graphviz: a cluster per function, and inside it a
// filled cluster per dit.fused kernel holding the ops it computes.
// RUN: dit-opt %s --fuse-all --emit-fusion-dot=%t.dot -o /dev/null
// RUN: FileCheck %s < %t.dot
// RUN: not dit-opt %s --fuse-all --emit-fusion-dot=%t.missing/dir/g.dot -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: digraph dit {
// CHECK: subgraph cluster_func_0 {
// CHECK: label="chain";
// CHECK: [[X:n[0-9]+]] [label="arg 0", shape=ellipse];
// CHECK: subgraph cluster_fused_chain_0 {
// CHECK: [[E:n[0-9]+]] [label="exp"];
// CHECK-NEXT: [[X]] -> [[E]];
// CHECK: [[M:n[0-9]+]] [label="mul"];
// CHECK-NEXT: [[E]] -> [[M]];
// BAD: error: cannot write {{.*}}g.dot
func.func @chain(%x: tensor<16x64xf32>, %y: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %e = "dit.exp"(%x) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = "dit.mul"(%e, %y) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  return %m : tensor<16x64xf32>
}
