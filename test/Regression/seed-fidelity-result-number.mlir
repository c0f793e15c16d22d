// Issue 13 item 8: a result number MLIR 22's parser sizes its forward-reference table by before
// it knows the op. %a#2147483647 allocated until the process was killed (found by
// tools/dit-opt/tests/mutation.rs); it is refused, located, before parsing.
// RUN: not dit-opt %s 2>&1 | FileCheck %s
// RUN: not dit-opt %s --split-input-file --fuse-all 2>&1 | FileCheck %s
// RUN: not dit-run %s 2>&1 | FileCheck %s
// CHECK: seed-fidelity-result-number.mlir:[[# @LINE + 4]]:{{[0-9]+}}: error: result number after '#' is over 1048576: no op has that many results
// CHECK-NOT: error
func.func @huge_result_number(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %a:2 = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 4, 4>} : (tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
  %e = "dit.exp"(%a#2147483647) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %e : tensor<4x4xf32>
}
