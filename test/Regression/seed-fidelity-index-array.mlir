// Issue 13 item 8: `array<index: ...>` crashed MLIR 22's parser (SIGSEGV: it asks index for a
// bit width); found by the in-repo mutation fuzzer. It is refused, located, before parsing.
// RUN: not dit-opt %s 2>&1 | FileCheck %s
// RUN: not dit-opt %s --fuse-all 2>&1 | FileCheck %s
// RUN: not dit-run %s 2>&1 | FileCheck %s

// CHECK: seed-fidelity-index-array.mlir:[[@LINE+2]]:41: error: a dense array cannot hold 'index' elements: use array<i64: ...>
func.func @f(%x: tensor<2x8xf16>) -> tensor<8x2xf16> {
  %0 = "dit.transpose"(%x) {perm = array<index: 1, 0>} : (tensor<2x8xf16>) -> tensor<8x2xf16>
  return %0 : tensor<8x2xf16>
}
