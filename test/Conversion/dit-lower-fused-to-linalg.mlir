// RUN: dit-opt %s --dit-lower-fused-to-linalg | FileCheck %s
// The output is upstream MLIR: LLVM 22's mlir-opt parses and verifies it (hacc / hfusion
// attributes are the only unregistered pieces).
// RUN: dit-opt %s --dit-lower-fused-to-linalg | mlir-opt --allow-unregistered-dialect --verify-each | FileCheck %s --check-prefix=UPSTREAM
// --emit=linalg writes one module per group.
// RUN: rm -rf %t && dit-opt %s --emit=linalg -o %t
// RUN: mlir-opt --allow-unregistered-dialect %t/k_rms.mlir | FileCheck %s --check-prefix=FILE
// RUN: mlir-opt --allow-unregistered-dialect %t/k_bcast.mlir > /dev/null
// Errors: every group that cannot be lowered is named, and nothing is written.
// RUN: rm -rf %t.bad && not dit-opt %S/Inputs/lower-fused-to-linalg-unsupported.mlir --emit=linalg -o %t.bad 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not ls %t.bad

// Everything outside the groups goes: one DEVICE function per group.
// CHECK-NOT: dit.
// UPSTREAM-NOT: dit.

// Numpy broadcasting: a [8] operand gains the leading dim, a [4, 1] one is collapsed first.
// CHECK-LABEL: func.func @k_bcast(%arg0: tensor<4x8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<4x1xf32>) -> tensor<4x8xf32>
// CHECK-SAME: hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hfusion.fusion_kind = #hfusion.fusion_kind<ANY_PB>
// CHECK: %[[B1:.*]] = linalg.broadcast ins(%arg1 : tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>) dimensions = [0]
// CHECK: %[[A:.*]] = arith.addf %arg0, %[[B1]] : tensor<4x8xf32>
// CHECK: %[[C:.*]] = tensor.collapse_shape %arg2 {{\[}}[0, 1]] : tensor<4x1xf32> into tensor<4xf32>
// CHECK: %[[B2:.*]] = linalg.broadcast ins(%[[C]] : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>) dimensions = [1]
// CHECK: %[[M:.*]] = arith.mulf %[[A]], %[[B2]] : tensor<4x8xf32>
// CHECK: return %[[M]] : tensor<4x8xf32>
// UPSTREAM-LABEL: func.func @k_bcast
// UPSTREAM-SAME: hfusion.fusion_kind = #hfusion.fusion_kind<ANY_PB>
func.func @bcast(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %s: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %r = "dit.fused"(%x, %b, %s) ({
  ^bb0(%a0: tensor<4x8xf32>, %a1: tensor<8xf32>, %a2: tensor<4x1xf32>):
    %0 = "dit.add"(%a0, %a1) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %1 = "dit.mul"(%0, %a2) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
    "dit.yield"(%1) : (tensor<4x8xf32>) -> ()
  }) {kernel = "k_bcast"} : (tensor<4x8xf32>, tensor<8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// An elementwise-only group: arith / math ops on whole tensors (the form bishengir takes);
// SiLU is x / (1 + e^-x); two results, one of them an intermediate.
// CHECK-LABEL: func.func @k_silu(%arg0: tensor<2x16xbf16>) -> (tensor<2x16xf32>, tensor<2x16xbf16>)
// CHECK-SAME: hfusion.fusion_kind = #hfusion.fusion_kind<PURE_ELEMWISE>
// CHECK: %[[W:.*]] = arith.extf %arg0 : tensor<2x16xbf16> to tensor<2x16xf32>
// CHECK: %[[N:.*]] = arith.negf %[[W]] : tensor<2x16xf32>
// CHECK: %[[E:.*]] = math.exp %[[N]] : tensor<2x16xf32>
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[ONE]] : f32) outs(%{{.*}} : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK: %[[D:.*]] = arith.addf %[[E]], %[[F]] : tensor<2x16xf32>
// CHECK: %[[S:.*]] = arith.divf %{{.*}}, %[[D]] : tensor<2x16xf32>
// CHECK: %[[Y:.*]] = arith.mulf %[[W]], %[[S]] : tensor<2x16xf32>
// CHECK: %[[T:.*]] = arith.truncf %[[Y]] : tensor<2x16xf32> to tensor<2x16xbf16>
// CHECK: return %[[W]], %[[T]] : tensor<2x16xf32>, tensor<2x16xbf16>
func.func @silu(%x: tensor<2x16xbf16>) -> (tensor<2x16xf32>, tensor<2x16xbf16>) {
  %r:2 = "dit.fused"(%x) ({
  ^bb0(%a0: tensor<2x16xbf16>):
    %0 = "dit.cast"(%a0) : (tensor<2x16xbf16>) -> tensor<2x16xf32>
    %1 = "dit.silu"(%0) : (tensor<2x16xf32>) -> tensor<2x16xf32>
    %2 = "dit.cast"(%1) : (tensor<2x16xf32>) -> tensor<2x16xbf16>
    "dit.yield"(%0, %2) : (tensor<2x16xf32>, tensor<2x16xbf16>) -> ()
  }) {kernel = "k_silu"} : (tensor<2x16xbf16>) -> (tensor<2x16xf32>, tensor<2x16xbf16>)
  return %r#0, %r#1 : tensor<2x16xf32>, tensor<2x16xbf16>
}

// RMSNorm written out: statistics in f32, the sum of squares by linalg.reduce over the last
// dim, times 1/D, plus epsilon, rsqrt, broadcast back, times the [D] weight.
// CHECK-LABEL: func.func @k_rms(%arg0: tensor<3x64xf16>, %arg1: tensor<64xf16>) -> tensor<3x64xf16>
// CHECK-SAME: hfusion.fusion_kind = #hfusion.fusion_kind<LAST_AXIS_PBR>
// CHECK: %[[X:.*]] = arith.extf %arg0 : tensor<3x64xf16> to tensor<3x64xf32>
// CHECK: %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : tensor<3x64xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[SUM:.*]] = linalg.reduce ins(%[[SQ]] : tensor<3x64xf32>) outs(%{{.*}} : tensor<3xf32>) dimensions = [1]
// CHECK: arith.addf
// CHECK: arith.constant 1.562500e-02 : f32
// CHECK: arith.constant 9.99999997E-7 : f32
// CHECK: %[[R:.*]] = math.rsqrt %{{.*}} : tensor<3xf32>
// CHECK: linalg.broadcast ins(%[[R]] : tensor<3xf32>) outs(%{{.*}} : tensor<3x64xf32>) dimensions = [1]
// CHECK: linalg.broadcast ins(%{{.*}} : tensor<64xf32>) outs(%{{.*}} : tensor<3x64xf32>) dimensions = [0]
// CHECK: arith.truncf %{{.*}} : tensor<3x64xf32> to tensor<3x64xf16>
// FILE: module {
// FILE-NEXT: func.func @k_rms
// FILE-SAME: hfusion.fusion_kind = #hfusion.fusion_kind<LAST_AXIS_PBR>
// FILE: linalg.reduce
// FILE-NOT: func.func
func.func @rms(%x: tensor<3x64xf16>, %g: tensor<64xf16>) -> tensor<3x64xf16> {
  %r = "dit.fused"(%x, %g) ({
  ^bb0(%a0: tensor<3x64xf16>, %a1: tensor<64xf16>):
    %0 = "dit.rms_norm"(%a0, %a1) {epsilon = 1.0e-6 : f32} : (tensor<3x64xf16>, tensor<64xf16>) -> tensor<3x64xf16>
    "dit.yield"(%0) : (tensor<3x64xf16>) -> ()
  }) {kernel = "k_rms"} : (tensor<3x64xf16>, tensor<64xf16>) -> tensor<3x64xf16>
  return %r : tensor<3x64xf16>
}

// Softmax along the last dim: max (init -inf) and sum reductions.
// CHECK-LABEL: func.func @k_softmax(%arg0: tensor<2x5x32xf32>) -> tensor<2x5x32xf32>
// CHECK-SAME: fusion_kind<LAST_AXIS_PBR>
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.reduce ins(%arg0 : tensor<2x5x32xf32>) outs(%{{.*}} : tensor<2x5xf32>) dimensions = [2]
// CHECK: arith.maximumf
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: linalg.reduce
// CHECK: arith.addf
// CHECK: arith.divf
func.func @softmax(%x: tensor<2x5x32xf32>) -> tensor<2x5x32xf32> {
  %r = "dit.fused"(%x) ({
  ^bb0(%a0: tensor<2x5x32xf32>):
    %0 = "dit.softmax"(%a0) {dim = -1 : i64} : (tensor<2x5x32xf32>) -> tensor<2x5x32xf32>
    "dit.yield"(%0) : (tensor<2x5x32xf32>) -> ()
  }) {kernel = "k_softmax"} : (tensor<2x5x32xf32>) -> tensor<2x5x32xf32>
  return %r : tensor<2x5x32xf32>
}

// rope (half mode) rotates by extract_slice and tensor.concat ([-b, a]); concat is tensor.concat.
// CHECK-LABEL: func.func @k_rope
// CHECK-SAME: fusion_kind<ANY_PB>
// CHECK: %[[A:.*]] = tensor.extract_slice %arg0[0, 0] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
// CHECK: %[[B:.*]] = tensor.extract_slice %arg0[0, 4] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
// CHECK: %[[NB:.*]] = arith.negf %[[B]] : tensor<2x4xf32>
// CHECK: %[[ROT:.*]] = tensor.concat dim(1) %[[NB]], %[[A]] : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
// CHECK: %[[P:.*]] = arith.mulf %arg0, %{{.*}} : tensor<2x8xf32>
// CHECK: %[[Q:.*]] = arith.mulf %[[ROT]], %{{.*}} : tensor<2x8xf32>
// CHECK: %[[Y:.*]] = arith.addf %[[P]], %[[Q]] : tensor<2x8xf32>
// CHECK: tensor.concat dim(1) %[[Y]], %arg0 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x16xf32>
func.func @rope(%x: tensor<2x8xf32>, %c: tensor<1x8xf32>, %s: tensor<1x8xf32>) -> tensor<2x16xf32> {
  %r = "dit.fused"(%x, %c, %s) ({
  ^bb0(%a0: tensor<2x8xf32>, %a1: tensor<1x8xf32>, %a2: tensor<1x8xf32>):
    %0 = "dit.rope"(%a0, %a1, %a2) {mode = "half"} : (tensor<2x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<2x8xf32>
    %1 = "dit.concat"(%0, %a0) {dim = 1 : i64} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x16xf32>
    "dit.yield"(%1) : (tensor<2x16xf32>) -> ()
  }) {kernel = "k_rope"} : (tensor<2x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<2x16xf32>
  return %r : tensor<2x16xf32>
}

// ERR: lower-fused-to-linalg-unsupported.mlir:6:10: error: dit-lower-fused-to-linalg: k_trunc: 'dit.cast': casts from f32 to i8 (round half to even, saturating) are not lowered yet
// ERR: lower-fused-to-linalg-unsupported.mlir:16:10: error: dit-lower-fused-to-linalg: k_transpose: 'dit.transpose': this op is not lowered to linalg yet
// ERR: lower-fused-to-linalg-unsupported.mlir:24:8: error: dit-lower-fused-to-linalg: a second group is named k_ok: kernel names must be unique

// Integer groups (an attention mask): i1 widens exactly (extui, through i32: bishengir turns a
// direct i1 -> i8 extui into an i8 -> i8 vcast it rejects), i8 arithmetic saturates like the
// CPU reference (computed in i64, clamped, truncated); the rank-0 operand is viewed as the
// result's unit dims and broadcast along the others (950 cannot classify a rank-0 broadcast).
// CHECK-LABEL: func.func @k_mask(%arg0: tensor<1x8xi1>, %arg1: tensor<i8>) -> tensor<1x8xi8>
// CHECK-SAME: fusion_kind<ANY_PB>
// CHECK: %[[W:.*]] = arith.extui %arg0 : tensor<1x8xi1> to tensor<1x8xi32>
// CHECK: %[[M:.*]] = arith.trunci %[[W]] : tensor<1x8xi32> to tensor<1x8xi8>
// CHECK: %[[V:.*]] = tensor.expand_shape %arg1 [] output_shape [1] : tensor<i8> into tensor<1xi8>
// CHECK: %[[O:.*]] = linalg.broadcast ins(%[[V]] : tensor<1xi8>) outs(%{{.*}} : tensor<1x8xi8>) dimensions = [1]
// CHECK: %[[X:.*]] = arith.extsi %[[O]] : tensor<1x8xi8> to tensor<1x8xi64>
// CHECK: %[[Y:.*]] = arith.extsi %[[M]] : tensor<1x8xi8> to tensor<1x8xi64>
// CHECK: %[[S:.*]] = arith.subi %[[X]], %[[Y]] : tensor<1x8xi64>
// CHECK-DAG: %[[LO:.*]] = arith.constant dense<-128> : tensor<1x8xi64>
// CHECK-DAG: %[[HI:.*]] = arith.constant dense<127> : tensor<1x8xi64>
// CHECK: %[[C:.*]] = arith.maxsi %[[S]], %[[LO]] : tensor<1x8xi64>
// CHECK: %[[D:.*]] = arith.minsi %[[C]], %[[HI]] : tensor<1x8xi64>
// CHECK: arith.trunci %[[D]] : tensor<1x8xi64> to tensor<1x8xi8>
func.func @mask(%m: tensor<1x8xi1>, %one: tensor<i8>) -> tensor<1x8xi8> {
  %r = "dit.fused"(%m, %one) ({
  ^bb0(%a0: tensor<1x8xi1>, %a1: tensor<i8>):
    %0 = "dit.cast"(%a0) : (tensor<1x8xi1>) -> tensor<1x8xi8>
    %1 = "dit.sub"(%a1, %0) : (tensor<i8>, tensor<1x8xi8>) -> tensor<1x8xi8>
    "dit.yield"(%1) : (tensor<1x8xi8>) -> ()
  }) {kernel = "k_mask"} : (tensor<1x8xi1>, tensor<i8>) -> tensor<1x8xi8>
  return %r : tensor<1x8xi8>
}

// rope (interleave): the last dim viewed as [W/2, 2] pairs, (x0, x1) -> (-x1, x0).
// CHECK-LABEL: func.func @k_rope_pairs
// CHECK: %[[E:.*]] = tensor.expand_shape %arg0 {{\[}}[0], [1, 2]] output_shape [2, 4, 2] : tensor<2x8xf32> into tensor<2x4x2xf32>
// CHECK: %[[EV:.*]] = tensor.extract_slice %[[E]][0, 0, 0] [2, 4, 1] [1, 1, 1]
// CHECK: %[[OD:.*]] = tensor.extract_slice %[[E]][0, 0, 1] [2, 4, 1] [1, 1, 1]
// CHECK: %[[N:.*]] = arith.negf %[[OD]] : tensor<2x4x1xf32>
// CHECK: %[[S:.*]] = tensor.concat dim(2) %[[N]], %[[EV]]
// CHECK: tensor.collapse_shape %[[S]] {{\[}}[0], [1, 2]] : tensor<2x4x2xf32> into tensor<2x8xf32>
func.func @rope_pairs(%x: tensor<2x8xf32>, %c: tensor<1x8xf32>, %s: tensor<1x8xf32>) -> tensor<2x8xf32> {
  %r = "dit.fused"(%x, %c, %s) ({
  ^bb0(%a0: tensor<2x8xf32>, %a1: tensor<1x8xf32>, %a2: tensor<1x8xf32>):
    %0 = "dit.rope"(%a0, %a1, %a2) {mode = "interleave"} : (tensor<2x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<2x8xf32>
    "dit.yield"(%0) : (tensor<2x8xf32>) -> ()
  }) {kernel = "k_rope_pairs"} : (tensor<2x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// rope with f32 tables on bf16 x (q / k after a bf16 norm): computed in f32 and rounded once,
// as the CPU reference does (in f64), not in bf16.
// CHECK-LABEL: func.func @k_rope_mixed(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xf32>, %arg2: tensor<1x8xf32>) -> tensor<2x8xbf16>
// CHECK: %[[X:.*]] = arith.extf %arg0 : tensor<2x8xbf16> to tensor<2x8xf32>
// CHECK: arith.negf %{{.*}} : tensor<2x4xf32>
// CHECK: %[[Y:.*]] = arith.addf %{{.*}}, %{{.*}} : tensor<2x8xf32>
// CHECK: arith.truncf %[[Y]] : tensor<2x8xf32> to tensor<2x8xbf16>
func.func @rope_mixed(%x: tensor<2x8xbf16>, %c: tensor<1x8xf32>, %s: tensor<1x8xf32>) -> tensor<2x8xbf16> {
  %r = "dit.fused"(%x, %c, %s) ({
  ^bb0(%a0: tensor<2x8xbf16>, %a1: tensor<1x8xf32>, %a2: tensor<1x8xf32>):
    %0 = "dit.rope"(%a0, %a1, %a2) {mode = "half"} : (tensor<2x8xbf16>, tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<2x8xbf16>
    "dit.yield"(%0) : (tensor<2x8xbf16>) -> ()
  }) {kernel = "k_rope_mixed"} : (tensor<2x8xbf16>, tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}
