// Seed 003 §2.6–2.7 (Sink Split): `add_config(mul, {0, 1}, {0})` and `add_config(swiglu, {0},
// {0})` say a split may move below mul (both inputs split alike) and below swiglu, and
// `add_config(grouped_matmul, {0}, {0})` names the GMM's x. Before this test dit-sink-split only
// merged split trees: a token split of the projection that fed one mul and one swiglu per
// piece stayed as two muls and two swiglus. Now the split sinks to the bottom of the chain
// (one mul, one swiglu, one offset-view split), and the unfused and sunk graphs agree on the
// CPU reference. The GMM case cannot sink (one group_list for the whole x routes rows
// differently); the report says why instead of staying silent.
//
// RUN: dit-opt %s --split-input-file --dit-sink-split | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-sink-split --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-run %s --split-input-file --compare-unfused --pipeline='builtin.module(dit-sink-split)' > /dev/null

// CHECK-LABEL: func.func @token_split_mul_swiglu
// CHECK-NEXT: %[[M:.*]] = "dit.mul"(%arg0, %arg1) : (tensor<6x64xbf16>, tensor<6x64xbf16>)
// CHECK-NEXT: %[[G:.*]] = "dit.swiglu"(%[[M]]) {dim = 1 : i64} : (tensor<6x64xbf16>) -> tensor<6x32xbf16>
// CHECK-NEXT: %[[S:.*]]:3 = "dit.split"(%[[G]]) {dim = 0 : i64, sizes = array<i64: 2, 2, 2>}
// CHECK-NOT: "dit.mul"
// CHECK-NOT: "dit.swiglu"
// REPORT: dit-sink-split: matched 2, applied 2, skipped 0
func.func @token_split_mul_swiglu(%h: tensor<6x64xbf16>, %scale: tensor<6x64xbf16>) -> (tensor<2x32xbf16>, tensor<2x32xbf16>, tensor<2x32xbf16>) {
  %a:3 = "dit.split"(%h) {dim = 0 : i64, sizes = array<i64: 2, 2, 2>} : (tensor<6x64xbf16>) -> (tensor<2x64xbf16>, tensor<2x64xbf16>, tensor<2x64xbf16>)
  %b:3 = "dit.split"(%scale) {dim = 0 : i64, sizes = array<i64: 2, 2, 2>} : (tensor<6x64xbf16>) -> (tensor<2x64xbf16>, tensor<2x64xbf16>, tensor<2x64xbf16>)
  %m0 = "dit.mul"(%a#0, %b#0) : (tensor<2x64xbf16>, tensor<2x64xbf16>) -> tensor<2x64xbf16>
  %m1 = "dit.mul"(%a#1, %b#1) : (tensor<2x64xbf16>, tensor<2x64xbf16>) -> tensor<2x64xbf16>
  %m2 = "dit.mul"(%a#2, %b#2) : (tensor<2x64xbf16>, tensor<2x64xbf16>) -> tensor<2x64xbf16>
  %g0 = "dit.swiglu"(%m0) {dim = 1 : i64} : (tensor<2x64xbf16>) -> tensor<2x32xbf16>
  %g1 = "dit.swiglu"(%m1) {dim = 1 : i64} : (tensor<2x64xbf16>) -> tensor<2x32xbf16>
  %g2 = "dit.swiglu"(%m2) {dim = 1 : i64} : (tensor<2x64xbf16>) -> tensor<2x32xbf16>
  return %g0, %g1, %g2 : tensor<2x32xbf16>, tensor<2x32xbf16>, tensor<2x32xbf16>
}

// -----

// CHECK-LABEL: func.func @token_split_gmm
// CHECK-NEXT: "dit.split"
// CHECK-NEXT: "dit.grouped_matmul"
// CHECK-NEXT: "dit.grouped_matmul"
// REPORT: skipped at {{.*}}seed-fidelity-split-sinking.mlir:[[@LINE+2]]:{{.*}}: every piece of the split along dim 0 feeds a dit.grouped_matmul's x
func.func @token_split_gmm(%x: tensor<8x16xf16>, %w: tensor<2x16x4xf16>, %g0: tensor<2xi64>, %g1: tensor<2xi64>) -> (tensor<4x4xf16>, tensor<4x4xf16>) {
  %a:2 = "dit.split"(%x) {dim = 0 : i64, sizes = array<i64: 4, 4>} : (tensor<8x16xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>)
  %y0 = "dit.grouped_matmul"(%a#0, %w, %g0) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x16xf16>, tensor<2x16x4xf16>, tensor<2xi64>) -> tensor<4x4xf16>
  %y1 = "dit.grouped_matmul"(%a#1, %w, %g1) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x16xf16>, tensor<2x16x4xf16>, tensor<2xi64>) -> tensor<4x4xf16>
  return %y0, %y1 : tensor<4x4xf16>, tensor<4x4xf16>
}
