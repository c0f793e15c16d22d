// dit-merge-horizontal: projections (dit.linear, or dit.matmul with a weight argument as b) on
// the same x with function-argument weights become one op on the concatenated weight and one
// dit.split along the last dim. Every output is re-verified by a second dit-opt.
//
// RUN: dit-opt %s --split-input-file --dit-merge-horizontal | dit-opt --split-input-file | FileCheck %s
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-merge-horizontal{max-group=2})' | dit-opt --split-input-file | FileCheck %s --check-prefix=MAX2
// RUN: dit-opt %s --split-input-file --dit-merge-horizontal --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-opt %dit_root/examples/flux_double_block.mlir --dit-merge-horizontal | dit-opt | FileCheck %s --check-prefix=FLUX
// RUN: not dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-merge-horizontal{max-group=1})' 2>&1 | FileCheck %s --check-prefix=BADMAX
// Numerical check (issue 6): the unfused and transformed graphs on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused --pipeline='builtin.module(dit-merge-horizontal)' > /dev/null

// BADMAX: error: pass 'dit-merge-horizontal': option 'max-group' must be an integer >= 2, got '1'

// FLUX-LABEL: func.func @flux_double_block
// The weight and bias concatenations of both streams sit at the top of the body.
// FLUX-COUNT-4: "dit.concat"(%arg{{[0-9]+}}, %arg{{[0-9]+}}, %arg{{[0-9]+}}) {dim = 0 : i64}
// FLUX-NOT: "dit.concat"
// FLUX: %[[IMG:.*]] = "dit.linear"({{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}) {{.*}} : (tensor<1x4096x3072xbf16>, tensor<9216x3072xbf16>, tensor<9216xbf16>) -> tensor<1x4096x9216xbf16>
// FLUX-NEXT: "dit.split"(%[[IMG]]) {dim = 2 : i64, sizes = array<i64: 3072, 3072, 3072>}
// FLUX-NOT: (tensor<1x4096x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x4096x3072xbf16>
// FLUX: %[[TXT:.*]] = "dit.linear"({{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}) {{.*}} : (tensor<1x512x3072xbf16>, tensor<9216x3072xbf16>, tensor<9216xbf16>) -> tensor<1x512x9216xbf16>
// FLUX-NEXT: "dit.split"(%[[TXT]]) {dim = 2 : i64, sizes = array<i64: 3072, 3072, 3072>}
// The output projections (different inputs) stay.
// FLUX: "dit.linear"{{.*}}(tensor<1x4096x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x4096x3072xbf16>
// FLUX: "dit.linear"{{.*}}(tensor<1x512x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x512x3072xbf16>

// ----- Q/K/V: three linears on the same normed x -> one linear + a 3-way split -----

// CHECK-LABEL: func.func @qkv
// CHECK-NEXT: %[[W:.*]] = "dit.concat"(%arg2, %arg3, %arg4) {dim = 0 : i64} : (tensor<64x64xf16>, tensor<32x64xf16>, tensor<32x64xf16>) -> tensor<128x64xf16>
// CHECK-NEXT: %[[N:.*]] = "dit.rms_norm"
// CHECK-NEXT: %[[L:.*]] = "dit.linear"(%[[N]], %[[W]]) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xf16>, tensor<128x64xf16>) -> tensor<4x128xf16>
// CHECK-NEXT: %[[S:.*]]:3 = "dit.split"(%[[L]]) {dim = 1 : i64, sizes = array<i64: 64, 32, 32>} : (tensor<4x128xf16>) -> (tensor<4x64xf16>, tensor<4x32xf16>, tensor<4x32xf16>)
// CHECK-NEXT: return %[[S]]#0, %[[S]]#1, %[[S]]#2
// MAX2-LABEL: func.func @qkv
// MAX2-NEXT: %[[W:.*]] = "dit.concat"(%arg2, %arg3) {dim = 0 : i64} : (tensor<64x64xf16>, tensor<32x64xf16>) -> tensor<96x64xf16>
// MAX2-NEXT: %[[N:.*]] = "dit.rms_norm"
// MAX2-NEXT: %[[L:.*]] = "dit.linear"(%[[N]], %[[W]]) {{.*}} -> tensor<4x96xf16>
// MAX2-NEXT: %[[S:.*]]:2 = "dit.split"(%[[L]]) {dim = 1 : i64, sizes = array<i64: 64, 32>}
// MAX2-NEXT: %[[V:.*]] = "dit.linear"(%[[N]], %arg4) {{.*}} -> tensor<4x32xf16>
// MAX2-NEXT: return %[[S]]#0, %[[S]]#1, %[[V]]
// REPORT-DAG: applied at {{.*}}dit-merge-horizontal.mlir:[[@LINE+4]]:8: 3 x dit.linear on the same input -> one dit.linear + dit.split [64, 32, 32] (weight arguments [2, 3, 4])
func.func @qkv(%x: tensor<4x64xf16>, %g: tensor<64xf16>, %wq: tensor<64x64xf16>, %wk: tensor<32x64xf16>, %wv: tensor<32x64xf16>)
    -> (tensor<4x64xf16>, tensor<4x32xf16>, tensor<4x32xf16>) {
  %n = "dit.rms_norm"(%x, %g) {epsilon = 1.0e-06 : f32} : (tensor<4x64xf16>, tensor<64xf16>) -> tensor<4x64xf16>
  %q = "dit.linear"(%n, %wq) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xf16>, tensor<64x64xf16>) -> tensor<4x64xf16>
  %k = "dit.linear"(%n, %wk) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xf16>, tensor<32x64xf16>) -> tensor<4x32xf16>
  %v = "dit.linear"(%n, %wv) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xf16>, tensor<32x64xf16>) -> tensor<4x32xf16>
  return %q, %k, %v : tensor<4x64xf16>, tensor<4x32xf16>, tensor<4x32xf16>
}

// -----

// ----- gate/up pair in front of SiLU-mul; the merged linear goes before the first one -----

// CHECK-LABEL: func.func @gate_up
// CHECK-NEXT: %[[W:.*]] = "dit.concat"(%arg1, %arg2) {dim = 0 : i64} : (tensor<128x64xbf16>, tensor<128x64xbf16>) -> tensor<256x64xbf16>
// CHECK-NEXT: %[[L:.*]] = "dit.linear"(%arg0, %[[W]]) {{.*}} -> tensor<8x256xbf16>
// CHECK-NEXT: %[[S:.*]]:2 = "dit.split"(%[[L]]) {dim = 1 : i64, sizes = array<i64: 128, 128>}
// CHECK-NEXT: %[[A:.*]] = "dit.silu"(%[[S]]#0)
// CHECK-NEXT: %[[M:.*]] = "dit.mul"(%[[A]], %[[S]]#1)
// CHECK-NEXT: return %[[M]]
func.func @gate_up(%x: tensor<8x64xbf16>, %wg: tensor<128x64xbf16>, %wu: tensor<128x64xbf16>) -> tensor<8x128xbf16> {
  %g = "dit.linear"(%x, %wg) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x64xbf16>, tensor<128x64xbf16>) -> tensor<8x128xbf16>
  %a = "dit.silu"(%g) : (tensor<8x128xbf16>) -> tensor<8x128xbf16>
  %u = "dit.linear"(%x, %wu) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x64xbf16>, tensor<128x64xbf16>) -> tensor<8x128xbf16>
  %m = "dit.mul"(%a, %u) : (tensor<8x128xbf16>, tensor<8x128xbf16>) -> tensor<8x128xbf16>
  return %m : tensor<8x128xbf16>
}

// -----

// ----- with biases: weights and biases both concatenated -----

// CHECK-LABEL: func.func @biases
// CHECK-NEXT: %[[W:.*]] = "dit.concat"(%arg1, %arg3) {dim = 0 : i64} : (tensor<16x32xf16>, tensor<48x32xf16>) -> tensor<64x32xf16>
// CHECK-NEXT: %[[B:.*]] = "dit.concat"(%arg2, %arg4) {dim = 0 : i64} : (tensor<16xf16>, tensor<48xf16>) -> tensor<64xf16>
// CHECK-NEXT: %[[L:.*]] = "dit.linear"(%arg0, %[[W]], %[[B]]) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x32xf16>, tensor<64x32xf16>, tensor<64xf16>) -> tensor<2x64xf16>
// CHECK-NEXT: %[[S:.*]]:2 = "dit.split"(%[[L]]) {dim = 1 : i64, sizes = array<i64: 16, 48>}
// CHECK-NEXT: return %[[S]]#0, %[[S]]#1
func.func @biases(%x: tensor<2x32xf16>, %w1: tensor<16x32xf16>, %b1: tensor<16xf16>, %w2: tensor<48x32xf16>, %b2: tensor<48xf16>)
    -> (tensor<2x16xf16>, tensor<2x48xf16>) {
  %a = "dit.linear"(%x, %w1, %b1) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x32xf16>, tensor<16x32xf16>, tensor<16xf16>) -> tensor<2x16xf16>
  %b = "dit.linear"(%x, %w2, %b2) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x32xf16>, tensor<48x32xf16>, tensor<48xf16>) -> tensor<2x48xf16>
  return %a, %b : tensor<2x16xf16>, tensor<2x48xf16>
}

// -----

// ----- mixed bias presence: no merge -----

// CHECK-LABEL: func.func @mixed_bias
// CHECK-NOT: "dit.concat"
// CHECK-NOT: "dit.split"
// CHECK: "dit.linear"(%arg0, %arg1, %arg2)
// CHECK-NEXT: "dit.linear"(%arg0, %arg3)
func.func @mixed_bias(%x: tensor<2x32xf16>, %w1: tensor<16x32xf16>, %b1: tensor<16xf16>, %w2: tensor<16x32xf16>)
    -> (tensor<2x16xf16>, tensor<2x16xf16>) {
  %a = "dit.linear"(%x, %w1, %b1) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x32xf16>, tensor<16x32xf16>, tensor<16xf16>) -> tensor<2x16xf16>
  %b = "dit.linear"(%x, %w2) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x32xf16>, tensor<16x32xf16>) -> tensor<2x16xf16>
  return %a, %b : tensor<2x16xf16>, tensor<2x16xf16>
}

// -----

// ----- weights that are not function arguments: no merge (reported) -----

// CHECK-LABEL: func.func @computed_weights
// CHECK-NOT: "dit.split"
// CHECK: "dit.linear"(%arg0, %{{[0-9]+}})
// CHECK-NEXT: "dit.linear"(%arg0, %{{[0-9]+}})
// REPORT-DAG: skipped at {{.*}}dit-merge-horizontal.mlir:[[@LINE+6]]:8: the weight is not an argument of the enclosing func
func.func @computed_weights(%x: tensor<2x32xf16>, %w1: tensor<16x32xf16>, %w2: tensor<16x32xf16>)
    -> (tensor<2x16xf16>, tensor<2x16xf16>) {
  %n1 = "dit.neg"(%w1) : (tensor<16x32xf16>) -> tensor<16x32xf16>
  %n2 = "dit.neg"(%w2) : (tensor<16x32xf16>) -> tensor<16x32xf16>
  %a = "dit.linear"(%x, %n1) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x32xf16>, tensor<16x32xf16>) -> tensor<2x16xf16>
  %b = "dit.linear"(%x, %n2) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x32xf16>, tensor<16x32xf16>) -> tensor<2x16xf16>
  return %a, %b : tensor<2x16xf16>, tensor<2x16xf16>
}

// -----

// ----- different inputs and different dtypes: no merge -----

// CHECK-LABEL: func.func @different_inputs
// CHECK-NOT: "dit.split"
// CHECK: "dit.linear"(%arg0, %arg2)
// CHECK-NEXT: "dit.linear"(%arg1, %arg3)
// CHECK-NEXT: "dit.linear"(%arg4, %arg5)
func.func @different_inputs(%x: tensor<2x32xf16>, %y: tensor<2x32xf16>, %w1: tensor<16x32xf16>, %w2: tensor<16x32xf16>,
                            %z: tensor<2x32xbf16>, %w3: tensor<16x32xbf16>)
    -> (tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xbf16>) {
  %a = "dit.linear"(%x, %w1) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x32xf16>, tensor<16x32xf16>) -> tensor<2x16xf16>
  %b = "dit.linear"(%y, %w2) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x32xf16>, tensor<16x32xf16>) -> tensor<2x16xf16>
  %c = "dit.linear"(%z, %w3) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x32xbf16>, tensor<16x32xbf16>) -> tensor<2x16xbf16>
  return %a, %b, %c : tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xbf16>
}

// -----

// ----- 3-D x [B, S, K]; two inputs with the same weight list share one weight concat -----

// CHECK-LABEL: func.func @three_d_shared
// CHECK-NEXT: %[[W:.*]] = "dit.concat"(%arg2, %arg3) {dim = 0 : i64} : (tensor<24x32xbf16>, tensor<8x32xbf16>) -> tensor<32x32xbf16>
// CHECK-NEXT: %[[L1:.*]] = "dit.linear"(%arg0, %[[W]]) {{.*}} : (tensor<2x5x32xbf16>, tensor<32x32xbf16>) -> tensor<2x5x32xbf16>
// CHECK-NEXT: %[[S1:.*]]:2 = "dit.split"(%[[L1]]) {dim = 2 : i64, sizes = array<i64: 24, 8>} : (tensor<2x5x32xbf16>) -> (tensor<2x5x24xbf16>, tensor<2x5x8xbf16>)
// CHECK-NEXT: %[[L2:.*]] = "dit.linear"(%arg1, %[[W]]) {{.*}} : (tensor<2x?x32xbf16>, tensor<32x32xbf16>) -> tensor<2x?x32xbf16>
// CHECK-NEXT: %[[S2:.*]]:2 = "dit.split"(%[[L2]]) {dim = 2 : i64, sizes = array<i64: 24, 8>} : (tensor<2x?x32xbf16>) -> (tensor<2x?x24xbf16>, tensor<2x?x8xbf16>)
// CHECK-NEXT: return %[[S1]]#0, %[[S1]]#1, %[[S2]]#0, %[[S2]]#1
// REPORT-DAG: weight concat shared with an earlier group
func.func @three_d_shared(%x: tensor<2x5x32xbf16>, %y: tensor<2x?x32xbf16>, %wa: tensor<24x32xbf16>, %wb: tensor<8x32xbf16>)
    -> (tensor<2x5x24xbf16>, tensor<2x5x8xbf16>, tensor<2x?x24xbf16>, tensor<2x?x8xbf16>) {
  %a = "dit.linear"(%x, %wa) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x5x32xbf16>, tensor<24x32xbf16>) -> tensor<2x5x24xbf16>
  %b = "dit.linear"(%x, %wb) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x5x32xbf16>, tensor<8x32xbf16>) -> tensor<2x5x8xbf16>
  %c = "dit.linear"(%y, %wa) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x?x32xbf16>, tensor<24x32xbf16>) -> tensor<2x?x24xbf16>
  %d = "dit.linear"(%y, %wb) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x?x32xbf16>, tensor<8x32xbf16>) -> tensor<2x?x8xbf16>
  return %a, %b, %c, %d : tensor<2x5x24xbf16>, tensor<2x5x8xbf16>, tensor<2x?x24xbf16>, tensor<2x?x8xbf16>
}

// -----

// ----- dit.matmul with equal transpose flags and weight arguments as b; a different-flag one stays -----

// CHECK-LABEL: func.func @matmuls
// CHECK-NEXT: %[[W:.*]] = "dit.concat"(%arg1, %arg2) {dim = 1 : i64} : (tensor<32x16xf32>, tensor<32x8xf32>) -> tensor<32x24xf32>
// CHECK-NEXT: %[[M:.*]] = "dit.matmul"(%arg0, %[[W]]) {transpose_a = false, transpose_b = false} : (tensor<4x32xf32>, tensor<32x24xf32>) -> tensor<4x24xf32>
// CHECK-NEXT: %[[S:.*]]:2 = "dit.split"(%[[M]]) {dim = 1 : i64, sizes = array<i64: 16, 8>}
// CHECK-NEXT: %[[T:.*]] = "dit.matmul"(%arg0, %arg3) {transpose_a = false, transpose_b = true}
// CHECK-NEXT: return %[[S]]#0, %[[S]]#1, %[[T]]
func.func @matmuls(%x: tensor<4x32xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x8xf32>, %w3: tensor<8x32xf32>)
    -> (tensor<4x16xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %a = "dit.matmul"(%x, %w1) {transpose_a = false, transpose_b = false} : (tensor<4x32xf32>, tensor<32x16xf32>) -> tensor<4x16xf32>
  %b = "dit.matmul"(%x, %w2) {transpose_a = false, transpose_b = false} : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
  %c = "dit.matmul"(%x, %w3) {transpose_a = false, transpose_b = true} : (tensor<4x32xf32>, tensor<8x32xf32>) -> tensor<4x8xf32>
  return %a, %b, %c : tensor<4x16xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
