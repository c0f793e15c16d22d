// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=swiglu,gelu_mul | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=swiglu,gelu_mul --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// Numerical check (issue 6): the unfused and transformed graphs on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused > /dev/null

// ----- enable_swiglu: silu(first half) · second half == swiglu(x){dim = -1} -----

// CHECK-LABEL: func.func @swiglu_split
// CHECK-NEXT: %[[S:.*]] = "dit.swiglu"(%arg0) {dim = -1 : i64} : (tensor<2x16x256xbf16>) -> tensor<2x16x128xbf16>
// CHECK-NEXT: return %[[S]]
func.func @swiglu_split(%x: tensor<2x16x256xbf16>) -> tensor<2x16x128xbf16> {
  %g, %u = "dit.split"(%x) {dim = -1 : i64, sizes = array<i64: 128, 128>} : (tensor<2x16x256xbf16>) -> (tensor<2x16x128xbf16>, tensor<2x16x128xbf16>)
  %s = "dit.silu"(%g) : (tensor<2x16x128xbf16>) -> tensor<2x16x128xbf16>
  %m = "dit.mul"(%s, %u) : (tensor<2x16x128xbf16>, tensor<2x16x128xbf16>) -> tensor<2x16x128xbf16>
  return %m : tensor<2x16x128xbf16>
}

// -----

// Halves taken with slices, up on the left of the product.
// CHECK-LABEL: func.func @swiglu_slices
// CHECK-NEXT: "dit.swiglu"(%arg0) {dim = -1 : i64} : (tensor<8x64xf16>) -> tensor<8x32xf16>
func.func @swiglu_slices(%x: tensor<8x64xf16>) -> tensor<8x32xf16> {
  %g = "dit.slice"(%x) {dim = 1 : i64, start = 0 : i64, end = 32 : i64, step = 1 : i64} : (tensor<8x64xf16>) -> tensor<8x32xf16>
  %u = "dit.slice"(%x) {dim = -1 : i64, start = 32 : i64, end = 64 : i64, step = 1 : i64} : (tensor<8x64xf16>) -> tensor<8x32xf16>
  %s = "dit.silu"(%g) : (tensor<8x32xf16>) -> tensor<8x32xf16>
  %m = "dit.mul"(%u, %s) : (tensor<8x32xf16>, tensor<8x32xf16>) -> tensor<8x32xf16>
  return %m : tensor<8x32xf16>
}

// -----

// The gate is the SECOND half (as diffusers' SwiGLU chunks it): no dit.swiglu; the two-input
// silu_mul keeps the graph exact, and the report says why swiglu did not fire.
// CHECK-LABEL: func.func @swiglu_gate_second_half
// CHECK-NOT: "dit.swiglu"
// CHECK: %[[G:.*]]:2 = "dit.split"
// CHECK: "dit.silu_mul"(%[[G]]#1, %[[G]]#0)
// REPORT: skipped at {{.*}}activation.mlir:[[@LINE+4]]:8: the gate is the second half of the tensor
func.func @swiglu_gate_second_half(%x: tensor<4x64xbf16>) -> tensor<4x32xbf16> {
  %a, %b = "dit.split"(%x) {dim = -1 : i64, sizes = array<i64: 32, 32>} : (tensor<4x64xbf16>) -> (tensor<4x32xbf16>, tensor<4x32xbf16>)
  %s = "dit.silu"(%b) : (tensor<4x32xbf16>) -> tensor<4x32xbf16>
  %m = "dit.mul"(%s, %a) : (tensor<4x32xbf16>, tensor<4x32xbf16>) -> tensor<4x32xbf16>
  return %m : tensor<4x32xbf16>
}

// -----

// Halves along a dim that is not the last: dit.swiglu's dim is fixed to -1 here, so only the
// two-input form applies.
// CHECK-LABEL: func.func @swiglu_not_last_dim
// CHECK-NOT: "dit.swiglu"
// CHECK: "dit.silu_mul"
func.func @swiglu_not_last_dim(%x: tensor<8x64xf16>) -> tensor<4x64xf16> {
  %g, %u = "dit.split"(%x) {dim = 0 : i64, sizes = array<i64: 4, 4>} : (tensor<8x64xf16>) -> (tensor<4x64xf16>, tensor<4x64xf16>)
  %s = "dit.silu"(%g) : (tensor<4x64xf16>) -> tensor<4x64xf16>
  %m = "dit.mul"(%s, %u) : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  return %m : tensor<4x64xf16>
}

// -----

// The silu is used elsewhere: fusing would compute it twice.
// CHECK-LABEL: func.func @swiglu_shared_silu
// CHECK-NOT: "dit.swiglu"
// CHECK-NOT: "dit.silu_mul"
func.func @swiglu_shared_silu(%x: tensor<4x64xbf16>) -> (tensor<4x32xbf16>, tensor<4x32xbf16>) {
  %g, %u = "dit.split"(%x) {dim = -1 : i64, sizes = array<i64: 32, 32>} : (tensor<4x64xbf16>) -> (tensor<4x32xbf16>, tensor<4x32xbf16>)
  %s = "dit.silu"(%g) : (tensor<4x32xbf16>) -> tensor<4x32xbf16>
  %m = "dit.mul"(%s, %u) : (tensor<4x32xbf16>, tensor<4x32xbf16>) -> tensor<4x32xbf16>
  return %m, %s : tensor<4x32xbf16>, tensor<4x32xbf16>
}

// -----

// ----- two separate tensors: silu(g) · u == silu_mul(g, u) -----

// CHECK-LABEL: func.func @silu_mul_two_inputs
// CHECK-NEXT: %[[R:.*]] = "dit.silu_mul"(%arg0, %arg1)
// CHECK-NEXT: return %[[R]]
func.func @silu_mul_two_inputs(%g: tensor<4x32xbf16>, %u: tensor<4x32xbf16>) -> tensor<4x32xbf16> {
  %s = "dit.silu"(%g) : (tensor<4x32xbf16>) -> tensor<4x32xbf16>
  %m = "dit.mul"(%u, %s) : (tensor<4x32xbf16>, tensor<4x32xbf16>) -> tensor<4x32xbf16>
  return %m : tensor<4x32xbf16>
}

// -----

// A broadcasting product is not silu_mul's elementwise contract.
// CHECK-LABEL: func.func @silu_mul_broadcast
// CHECK-NOT: "dit.silu_mul"
func.func @silu_mul_broadcast(%g: tensor<4x32xbf16>, %u: tensor<32xbf16>) -> tensor<4x32xbf16> {
  %s = "dit.silu"(%g) : (tensor<4x32xbf16>) -> tensor<4x32xbf16>
  %m = "dit.mul"(%s, %u) : (tensor<4x32xbf16>, tensor<32xbf16>) -> tensor<4x32xbf16>
  return %m : tensor<4x32xbf16>
}

// -----

// Seed 003's cast chain: x.float(), sigmoid, mul, cast back, times up; both f16 and bf16.
// CHECK-LABEL: func.func @silu_mul_cast_chain
// CHECK-NEXT: %[[A:.*]] = "dit.silu_mul"(%arg0, %arg1) : (tensor<4x32xbf16>, tensor<4x32xbf16>) -> tensor<4x32xbf16>
// CHECK-NEXT: %[[B:.*]] = "dit.silu_mul"(%arg2, %arg3) : (tensor<4x32xf16>, tensor<4x32xf16>) -> tensor<4x32xf16>
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @silu_mul_cast_chain(%g: tensor<4x32xbf16>, %u: tensor<4x32xbf16>, %g2: tensor<4x32xf16>, %u2: tensor<4x32xf16>) -> (tensor<4x32xbf16>, tensor<4x32xf16>) {
  %gf = "dit.cast"(%g) : (tensor<4x32xbf16>) -> tensor<4x32xf32>
  %sg = "dit.sigmoid"(%gf) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %m = "dit.mul"(%gf, %sg) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  %b = "dit.cast"(%m) : (tensor<4x32xf32>) -> tensor<4x32xbf16>
  %o = "dit.mul"(%b, %u) : (tensor<4x32xbf16>, tensor<4x32xbf16>) -> tensor<4x32xbf16>
  %gf2 = "dit.cast"(%g2) : (tensor<4x32xf16>) -> tensor<4x32xf32>
  %sg2 = "dit.sigmoid"(%gf2) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %m2 = "dit.mul"(%gf2, %sg2) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  %b2 = "dit.cast"(%m2) : (tensor<4x32xf32>) -> tensor<4x32xf16>
  %o2 = "dit.mul"(%u2, %b2) : (tensor<4x32xf16>, tensor<4x32xf16>) -> tensor<4x32xf16>
  return %o, %o2 : tensor<4x32xbf16>, tensor<4x32xf16>
}

// -----

// x·sigmoid(2x) is no silu: nothing fires.
// CHECK-LABEL: func.func @silu_mul_cast_chain_other_sigmoid
// CHECK-NOT: "dit.silu_mul"
func.func @silu_mul_cast_chain_other_sigmoid(%g: tensor<4x32xbf16>, %u: tensor<4x32xbf16>) -> tensor<4x32xbf16> {
  %gf = "dit.cast"(%g) : (tensor<4x32xbf16>) -> tensor<4x32xf32>
  %gg = "dit.add"(%gf, %gf) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  %sg = "dit.sigmoid"(%gg) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %m = "dit.mul"(%gf, %sg) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  %b = "dit.cast"(%m) : (tensor<4x32xf32>) -> tensor<4x32xbf16>
  %o = "dit.mul"(%b, %u) : (tensor<4x32xbf16>, tensor<4x32xbf16>) -> tensor<4x32xbf16>
  return %o : tensor<4x32xbf16>
}

// -----

// ----- enable_gelu_mul: gelu(first half) · second half == gelu_mul(x), last dim <= 1024 -----

// CHECK-LABEL: func.func @gelu_mul_halves
// CHECK-NEXT: %[[G:.*]] = "dit.gelu_mul"(%arg0) {approximate = "none"} : (tensor<16x1024xbf16>) -> tensor<16x512xbf16>
// CHECK-NEXT: return %[[G]]
func.func @gelu_mul_halves(%x: tensor<16x1024xbf16>) -> tensor<16x512xbf16> {
  %g, %u = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 512, 512>} : (tensor<16x1024xbf16>) -> (tensor<16x512xbf16>, tensor<16x512xbf16>)
  %a = "dit.gelu"(%g) {approximate = "none"} : (tensor<16x512xbf16>) -> tensor<16x512xbf16>
  %m = "dit.mul"(%u, %a) : (tensor<16x512xbf16>, tensor<16x512xbf16>) -> tensor<16x512xbf16>
  return %m : tensor<16x512xbf16>
}

// -----

// Wider than aclnnGeluMul takes: left alone, and the report names the kernel's rule and doc.
// CHECK-LABEL: func.func @gelu_mul_too_wide
// CHECK-NOT: "dit.gelu_mul"
// REPORT: skipped at {{.*}}activation.mlir:[[@LINE+4]]:8: rule gelu_mul.last_dim: x [16, 2048]: the last dim must be known and <= 1024 (aclnn error 161002; [ops-nn] activation/gelu_mul/docs/aclnnGeluMul.md
func.func @gelu_mul_too_wide(%x: tensor<16x2048xbf16>) -> tensor<16x1024xbf16> {
  %g, %u = "dit.split"(%x) {dim = -1 : i64, sizes = array<i64: 1024, 1024>} : (tensor<16x2048xbf16>) -> (tensor<16x1024xbf16>, tensor<16x1024xbf16>)
  %a = "dit.gelu"(%g) {approximate = "tanh"} : (tensor<16x1024xbf16>) -> tensor<16x1024xbf16>
  %m = "dit.mul"(%a, %u) : (tensor<16x1024xbf16>, tensor<16x1024xbf16>) -> tensor<16x1024xbf16>
  return %m : tensor<16x1024xbf16>
}

// -----

// aclnnGeluMul takes rank 2-8 (issue 12): a rank-1 input is left alone.
// CHECK-LABEL: func.func @gelu_mul_rank1
// CHECK-NOT: "dit.gelu_mul"
// REPORT: skipped at {{.*}}activation.mlir:[[@LINE+4]]:8: rule gelu_mul.rank: x has rank 1, the kernel takes rank 2-8 (aclnn error 161002; [ops-nn] activation/gelu_mul/docs/aclnnGeluMul.md
func.func @gelu_mul_rank1(%x: tensor<64xbf16>) -> tensor<32xbf16> {
  %g, %u = "dit.split"(%x) {dim = -1 : i64, sizes = array<i64: 32, 32>} : (tensor<64xbf16>) -> (tensor<32xbf16>, tensor<32xbf16>)
  %a = "dit.gelu"(%g) {approximate = "tanh"} : (tensor<32xbf16>) -> tensor<32xbf16>
  %m = "dit.mul"(%a, %u) : (tensor<32xbf16>, tensor<32xbf16>) -> tensor<32xbf16>
  return %m : tensor<32xbf16>
}

// -----

// aclnnGeluMul takes at most 200000 rows (the product of all dims but the last, issue 12):
// 2 x 150000 rows are left alone.
// CHECK-LABEL: func.func @gelu_mul_too_many_rows
// CHECK-NOT: "dit.gelu_mul"
// REPORT: skipped at {{.*}}activation.mlir:[[@LINE+4]]:8: rule gelu_mul.lead_product: x [2, 150000, 64]: the product of all dims but the last is 300000 > 200000 (aclnn error 161002; [ops-nn] activation/gelu_mul/docs/aclnnGeluMul.md
func.func @gelu_mul_too_many_rows(%x: tensor<2x150000x64xbf16>) -> tensor<2x150000x32xbf16> {
  %g, %u = "dit.split"(%x) {dim = -1 : i64, sizes = array<i64: 32, 32>} : (tensor<2x150000x64xbf16>) -> (tensor<2x150000x32xbf16>, tensor<2x150000x32xbf16>)
  %a = "dit.gelu"(%g) {approximate = "tanh"} : (tensor<2x150000x32xbf16>) -> tensor<2x150000x32xbf16>
  %m = "dit.mul"(%a, %u) : (tensor<2x150000x32xbf16>, tensor<2x150000x32xbf16>) -> tensor<2x150000x32xbf16>
  return %m : tensor<2x150000x32xbf16>
}

// -----

// Gate from the second half: gelu_mul would gate the wrong half.
// CHECK-LABEL: func.func @gelu_mul_gate_second_half
// CHECK-NOT: "dit.gelu_mul"
// REPORT: skipped at {{.*}}activation.mlir:[[@LINE+4]]:8: the gate is the second half of the tensor; dit.gelu_mul
func.func @gelu_mul_gate_second_half(%x: tensor<16x64xbf16>) -> tensor<16x32xbf16> {
  %a, %b = "dit.split"(%x) {dim = -1 : i64, sizes = array<i64: 32, 32>} : (tensor<16x64xbf16>) -> (tensor<16x32xbf16>, tensor<16x32xbf16>)
  %g = "dit.gelu"(%b) {approximate = "tanh"} : (tensor<16x32xbf16>) -> tensor<16x32xbf16>
  %m = "dit.mul"(%g, %a) : (tensor<16x32xbf16>, tensor<16x32xbf16>) -> tensor<16x32xbf16>
  return %m : tensor<16x32xbf16>
}
