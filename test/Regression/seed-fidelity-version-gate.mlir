// Seed 001 §3.5: CANN registers and runs the QuantBatchMatmulV3 transpose rules only when the
// graph compiler's version (aclsysGetVersionNum("ge-compiler")) is >= 90100000
// (IsTargetVersion, TAEGET_VERSION). The target carries that version (ge_compiler_version,
// default a current one); below the threshold neither rule changes the graph, and the fusion
// report says why at each quant_matmul it left.
//
// RUN: dit-opt %s --fuse-all --target=%S/Inputs/ascend910b-ge-9000.toml | FileCheck %s --check-prefix=OLD
// RUN: dit-opt %s --fuse-all --target=%S/Inputs/ascend910b-ge-9000.toml --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=OLDREPORT
// RUN: dit-opt %s --dit-fold-transpose-quant-matmul-limit --target=%S/Inputs/ascend910b-ge-9000.toml --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMREPORT
// RUN: dit-opt %s --fuse-all --target=%S/Inputs/ascend910b-ge-9010.toml | FileCheck %s --check-prefix=NEW
// RUN: dit-opt %s --fuse-all | FileCheck %s --check-prefix=NEW

// OLD-LABEL: func.func @gated
// OLD: %[[T:.*]] = "dit.transpose"(%arg1)
// OLD: "dit.quant_matmul"(%arg0, %[[T]], %arg2) {{.*}}transpose_x2 = true
// NEW-LABEL: func.func @gated
// NEW-NOT: "dit.transpose"
// NEW: "dit.quant_matmul"(%arg0, %arg1, %arg2) {{.*}}transpose_x2 = false
// OLDREPORT: dit-fold-transpose-quant-matmul: matched 1, applied 0, skipped 1
// OLDREPORT: skipped at {{.*}}seed-fidelity-version-gate.mlir:[[@LINE+5]]:8: ge-compiler version 90000000 of target ascend910b-ge-9000 is below 90100000: the transpose rules are not enabled (seed 001 section 3.5)
// OLDREPORT: dit-fold-transpose-quant-matmul-limit: matched 1, applied 0, skipped 1
// LIMREPORT: skipped at {{.*}}seed-fidelity-version-gate.mlir:[[@LINE+3]]:8: ge-compiler version 90000000 {{.*}}below 90100000
func.func @gated(%a: tensor<4x64xi8>, %w: tensor<64x128xi8>, %s: tensor<128xf32>) -> tensor<4x128xf16> {
  %t = "dit.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<64x128xi8>) -> tensor<128x64xi8>
  %r = "dit.quant_matmul"(%a, %t, %s) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}
