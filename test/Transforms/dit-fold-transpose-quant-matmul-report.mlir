// The fusion report of the transpose folds (--fusion-report=text, on stderr): a section per pass
// with `matched N, applied M, skipped K`, one `applied at` / `skipped at FILE:LINE:COL` line per
// decision (all applied lines, then all skipped lines; counts are per data side), and the kernel
// counts. Only stable fragments are checked. Kernels: every dit op here
// (transposes and quant_matmuls) is one kernel: 7 before.
//
// RUN: dit-opt %s --dit-fold-transpose-quant-matmul --fusion-report=text -o %t 2>&1 | FileCheck %s --check-prefix=A2
// RUN: dit-opt %s --dit-fold-transpose-quant-matmul --fusion-report=text --target=ascend910_93 -o %t 2>&1 | FileCheck %s --check-prefix=A2
// RUN: dit-opt %s --dit-fold-transpose-quant-matmul --fusion-report=text --target=ascend950 -o %t 2>&1 | FileCheck %s --check-prefix=A5
// RUN: dit-opt %s --dit-fold-transpose-quant-matmul-limit --fusion-report=text -o %t 2>&1 | FileCheck %s --check-prefix=LIM
// RUN: dit-opt %s --dit-fold-transpose-quant-matmul-limit --fusion-report=text --target=ascend950 -o %t 2>&1 | FileCheck %s --check-prefix=LIM5
// RUN: dit-opt %s --fuse-all --fusion-report=text -o %t 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: dit-opt %S/Inputs/fold-transpose-quant-matmul-report-s8s4.mlir --dit-fold-transpose-quant-matmul --fusion-report=text --target=%S/Inputs/ascend910b-s8s4.toml -o %t 2>&1 | FileCheck %s --check-prefix=S4
// RUN: dit-opt %S/Inputs/fold-transpose-quant-matmul-report-s8s4.mlir --dit-fold-transpose-quant-matmul --fusion-report=text -o %t 2>&1 | FileCheck %s --check-prefix=NOS4
// Numerical check (issue 6): the unfused and transformed graphs on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused --max-elements=200000 > /dev/null

// A2: dit-fold-transpose-quant-matmul: matched 3, applied 2, skipped 1
// A5: dit-fold-transpose-quant-matmul: matched 3, applied 3, skipped 0
// LIM: dit-fold-transpose-quant-matmul-limit: matched {{[0-9]+}}, applied 1,
// LIM5: dit-fold-transpose-quant-matmul-limit: matched {{[0-9]+}}, applied 0,
// ALL: dit-fold-transpose-quant-matmul: matched 3, applied 2, skipped 1
// S4: dit-fold-transpose-quant-matmul: matched 1, applied 0, skipped 1
// S4: skipped at {{.*}}fold-transpose-quant-matmul-report-s8s4.mlir:{{[0-9]+}}:{{[0-9]+}}{{.*}}s8s4
// S4: kernels: 3 before, 3 after
// NOS4: dit-fold-transpose-quant-matmul: matched 2, applied 2, skipped 0
// NOS4-COUNT-2: applied at {{.*}}fold-transpose-quant-matmul-report-s8s4.mlir:
// NOS4: kernels: 3 before, 1 after

func.func @applied(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  // A2-DAG: applied at {{.*}}dit-fold-transpose-quant-matmul-report.mlir:[[@LINE+3]]:{{[0-9]+}}
  // A5-DAG: applied at {{.*}}dit-fold-transpose-quant-matmul-report.mlir:[[@LINE+2]]:{{[0-9]+}}
  // ALL-DAG: applied at {{.*}}dit-fold-transpose-quant-matmul-report.mlir:[[@LINE+1]]:{{[0-9]+}}
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

func.func @skipped_65535(%a: tensor<64x65536xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<65536x128xf16> {
  %t = "dit.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<64x65536xi8>) -> tensor<65536x64xi8>
  // A2-DAG: skipped at {{.*}}dit-fold-transpose-quant-matmul-report.mlir:[[@LINE+4]]:{{[0-9]+}}{{.*}}65535
  // A5-DAG: applied at {{.*}}dit-fold-transpose-quant-matmul-report.mlir:[[@LINE+3]]:{{[0-9]+}}
  // LIM-DAG: skipped at {{.*}}dit-fold-transpose-quant-matmul-report.mlir:[[@LINE+2]]:{{[0-9]+}}{{.*}}65535
  // ALL-DAG: skipped at {{.*}}dit-fold-transpose-quant-matmul-report.mlir:[[@LINE+1]]:{{[0-9]+}}{{.*}}65535
  %r = "dit.quant_matmul"(%t, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<65536x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<65536x128xf16>
  return %r : tensor<65536x128xf16>
}

// No transpose: not matched (the counts above leave no room for a line about it).
func.func @untouched(%a: tensor<4x64xi8>, %w: tensor<128x64xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %r = "dit.quant_matmul"(%a, %w, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// x2 outer 128, inner 70000: the normal rule folds it, and so does the limit rule on its own.
func.func @limit_fits(%a: tensor<4x128xi8>, %w: tensor<70000x128xi8>, %s: tensor<70000xf32>) -> tensor<4x70000xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<70000x128xi8>) -> tensor<128x70000xi8>
  // A2-DAG: applied at {{.*}}dit-fold-transpose-quant-matmul-report.mlir:[[@LINE+4]]:{{[0-9]+}}
  // A5-DAG: applied at {{.*}}dit-fold-transpose-quant-matmul-report.mlir:[[@LINE+3]]:{{[0-9]+}}
  // LIM-DAG: applied at {{.*}}dit-fold-transpose-quant-matmul-report.mlir:[[@LINE+2]]:{{[0-9]+}}
  // ALL-DAG: applied at {{.*}}dit-fold-transpose-quant-matmul-report.mlir:[[@LINE+1]]:{{[0-9]+}}
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x128xi8>, tensor<128x70000xi8>, tensor<70000xf32>) -> tensor<4x70000xf16>
  return %r : tensor<4x70000xf16>
}

// The cost model counts a transpose of a weight argument that only feeds quant_matmul's x2 as
// a load-time re-layout, not a kernel: folding such a transpose saves no launch per inference
// (it saves the pre-pack). Transposes of x1 (activations) are kernels.
// A2: kernels: 5 before, 5 after
// A5: kernels: 5 before, 4 after
// LIM: kernels: 5 before, 5 after
// LIM5: kernels: 5 before, 5 after
// --fuse-all: the limit rule runs after the normal one and finds nothing left to fold.
// ALL: dit-fold-transpose-quant-matmul-limit: matched {{[0-9]+}}, applied 0,
// ALL: kernels: {{[0-9]+}} before, 5 after
