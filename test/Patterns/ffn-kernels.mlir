// Seed 004's FFN example (GEMM1 -> BiasAdd -> ReLU -> GEMM2 -> BiasAdd), counted by the cost
// model after --fuse-all: 2 kernels on ascend950, where FusedMatmul takes the bias and the
// ReLU (its weight transpose is a load-time re-layout, not a kernel), and 3 on ascend910b,
// where a Cube kernel cannot take a vector epilogue: the ReLU stays its own kernel and the
// report says why.
// RUN: dit-opt %s --fuse-all --target=ascend950 --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=A5
// RUN: dit-opt %s --fuse-all --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=A2
// RUN: dit-opt %s --fuse-all --target=ascend950 | dit-opt > /dev/null
// Numerical check (issue 6): the unfused and transformed graphs on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused > /dev/null
// RUN: dit-run %s --split-input-file --compare-unfused --target=ascend950 > /dev/null

// A5: kernels: 3 before, 2 after
// A2: skipped at {{.*}}: target ascend910b has no FusedMatmul
// A2: kernels: 3 before, 3 after
func.func @ffn(%x: tensor<64x256xbf16>, %w1: tensor<1024x256xbf16>, %b1: tensor<1024xbf16>, %w2: tensor<256x1024xbf16>, %b2: tensor<256xbf16>) -> tensor<64x256xbf16> {
  %h = "dit.linear"(%x, %w1, %b1) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<64x256xbf16>, tensor<1024x256xbf16>, tensor<1024xbf16>) -> tensor<64x1024xbf16>
  %r = "dit.relu"(%h) : (tensor<64x1024xbf16>) -> tensor<64x1024xbf16>
  %o = "dit.linear"(%r, %w2, %b2) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<64x1024xbf16>, tensor<256x1024xbf16>, tensor<256xbf16>) -> tensor<64x256xbf16>
  return %o : tensor<64x256xbf16>
}
