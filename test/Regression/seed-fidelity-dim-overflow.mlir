// Issue 13 item 8: a dim whose byte size overflows is a located error on every command (the
// debug build panicked in the cost model and auto-fuse; the release build printed "UB 0 B").
// A --shape-hint near i64::MAX only saturates the report's sizes.
// RUN: not dit-opt %s --split-input-file 2>&1 | FileCheck %s
// RUN: not dit-opt %s --split-input-file --fuse-all --fusion-report=json 2>&1 | FileCheck %s
// RUN: not dit-opt %s --split-input-file --dit-lower-to-aclnn 2>&1 | FileCheck %s
// RUN: not dit-opt %s --split-input-file --fuse-all --fusion-report=text --shape-hint=0=9223372036854775807 --shape-hint=1=9223372036854775807 2>&1 | FileCheck %s --check-prefix=HINT

// CHECK-NOT: panicked
// CHECK: seed-fidelity-dim-overflow.mlir:[[@LINE+2]]:8: error: 'dit.relu' op operand #0 (tensor<9223372036854775807x4xf32>) needs more than 2^63-1 bytes [rule size]
func.func @f(%x: tensor<9223372036854775807x4xf32>) -> tensor<9223372036854775807x4xf32> {
  %0 = "dit.relu"(%x) : (tensor<9223372036854775807x4xf32>) -> tensor<9223372036854775807x4xf32>
  %1 = "dit.neg"(%0) : (tensor<9223372036854775807x4xf32>) -> tensor<9223372036854775807x4xf32>
  return %1 : tensor<9223372036854775807x4xf32>
}

// -----

// Three huge dims overflow even a 128-bit product.
// CHECK: seed-fidelity-dim-overflow.mlir:[[@LINE+2]]:8: error: 'dit.relu' op operand #0 ({{.*}}) needs more than 2^63-1 bytes [rule size]
func.func @g(%x: tensor<4611686018427387904x4611686018427387904x4611686018427387904xi1>) -> tensor<4611686018427387904x4611686018427387904x4611686018427387904xi1> {
  %0 = "dit.relu"(%x) : (tensor<4611686018427387904x4611686018427387904x4611686018427387904xi1>) -> tensor<4611686018427387904x4611686018427387904x4611686018427387904xi1>
  return %0 : tensor<4611686018427387904x4611686018427387904x4611686018427387904xi1>
}

// -----

// HINT-NOT: panicked
// HINT: fusion report
// HINT: DDR bytes: over 16 EiB (saturated) before
// HINT: func.func @h
func.func @h(%x: tensor<?x?x8xf32>) -> tensor<?x?x8xf32> {
  %0 = "dit.relu"(%x) : (tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  %1 = "dit.neg"(%0) : (tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  return %1 : tensor<?x?x8xf32>
}
