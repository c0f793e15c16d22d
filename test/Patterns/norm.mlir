// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=rms_norm,adalayernorm | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=rms_norm,adalayernorm --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// Numerical check (issue 6): the unfused and transformed graphs on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused --input-range=0.1,1 > /dev/null

// ----- enable_rms_norm: x·rsqrt(mean(x², -1) + ε)·γ == rms_norm(x, γ){ε} -----

// diffusers' RMSNorm in f32: cast up, pow 2, mean, add eps, rsqrt, mul, cast back, mul γ.
// CHECK-LABEL: func.func @rms_norm_cast_gamma_rhs
// CHECK-NEXT: %[[N:.*]] = "dit.rms_norm"(%arg0, %arg1) {epsilon = 9.99999997E-7 : f32} : (tensor<2x16x128xbf16>, tensor<128xbf16>) -> tensor<2x16x128xbf16>
// CHECK-NEXT: return %[[N]]
func.func @rms_norm_cast_gamma_rhs(%x: tensor<2x16x128xbf16>, %g: tensor<128xbf16>) -> tensor<2x16x128xbf16> {
  %two = arith.constant dense<2.0> : tensor<f32>
  %eps = arith.constant dense<1.0e-6> : tensor<f32>
  %xf = "dit.cast"(%x) : (tensor<2x16x128xbf16>) -> tensor<2x16x128xf32>
  %sq = "dit.pow"(%xf, %two) : (tensor<2x16x128xf32>, tensor<f32>) -> tensor<2x16x128xf32>
  %m = "dit.reduce_mean"(%sq) {dims = array<i64: -1>, keepdim = true} : (tensor<2x16x128xf32>) -> tensor<2x16x1xf32>
  %a = "dit.add"(%m, %eps) : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16x1xf32>
  %r = "dit.rsqrt"(%a) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
  %n = "dit.mul"(%xf, %r) : (tensor<2x16x128xf32>, tensor<2x16x1xf32>) -> tensor<2x16x128xf32>
  %nc = "dit.cast"(%n) : (tensor<2x16x128xf32>) -> tensor<2x16x128xbf16>
  %o = "dit.mul"(%nc, %g) : (tensor<2x16x128xbf16>, tensor<128xbf16>) -> tensor<2x16x128xbf16>
  return %o : tensor<2x16x128xbf16>
}

// -----

// x·x for the square, γ on the left, reduce dim given as rank-1.
// CHECK-LABEL: func.func @rms_norm_cast_gamma_lhs
// CHECK-NEXT: "dit.rms_norm"(%arg0, %arg1) {epsilon = 9.99999974E-6 : f32}
func.func @rms_norm_cast_gamma_lhs(%x: tensor<4x64xf16>, %g: tensor<64xf16>) -> tensor<4x64xf16> {
  %eps = arith.constant dense<1.0e-5> : tensor<f32>
  %xf = "dit.cast"(%x) : (tensor<4x64xf16>) -> tensor<4x64xf32>
  %sq = "dit.mul"(%xf, %xf) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %m = "dit.reduce_mean"(%sq) {dims = array<i64: 1>, keepdim = true} : (tensor<4x64xf32>) -> tensor<4x1xf32>
  %a = "dit.add"(%m, %eps) : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %r = "dit.rsqrt"(%a) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %n = "dit.mul"(%xf, %r) : (tensor<4x64xf32>, tensor<4x1xf32>) -> tensor<4x64xf32>
  %nc = "dit.cast"(%n) : (tensor<4x64xf32>) -> tensor<4x64xf16>
  %o = "dit.mul"(%g, %nc) : (tensor<64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  return %o : tensor<4x64xf16>
}

// -----

// All in f32, no casts; an f32 γ.
// CHECK-LABEL: func.func @rms_norm_f32
// CHECK-NEXT: "dit.rms_norm"(%arg0, %arg1) {epsilon = 9.99999997E-7 : f32} : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
func.func @rms_norm_f32(%x: tensor<8x32xf32>, %g: tensor<32xf32>) -> tensor<8x32xf32> {
  %two = arith.constant dense<2.0> : tensor<f32>
  %eps = arith.constant dense<1.0e-6> : tensor<f32>
  %sq = "dit.pow"(%x, %two) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
  %m = "dit.reduce_mean"(%sq) {dims = array<i64: -1>, keepdim = true} : (tensor<8x32xf32>) -> tensor<8x1xf32>
  %a = "dit.add"(%m, %eps) : (tensor<8x1xf32>, tensor<f32>) -> tensor<8x1xf32>
  %r = "dit.rsqrt"(%a) : (tensor<8x1xf32>) -> tensor<8x1xf32>
  %n = "dit.mul"(%x, %r) : (tensor<8x32xf32>, tensor<8x1xf32>) -> tensor<8x32xf32>
  %o = "dit.mul"(%n, %g) : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  return %o : tensor<8x32xf32>
}

// -----

// Mean over a dim that is not the last: not an RMSNorm over the features.
// CHECK-LABEL: func.func @rms_norm_wrong_dim
// CHECK-NOT: "dit.rms_norm"
// CHECK: "dit.reduce_mean"
func.func @rms_norm_wrong_dim(%x: tensor<8x32xf32>, %g: tensor<32xf32>) -> tensor<8x32xf32> {
  %two = arith.constant dense<2.0> : tensor<f32>
  %eps = arith.constant dense<1.0e-6> : tensor<f32>
  %sq = "dit.pow"(%x, %two) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
  %m = "dit.reduce_mean"(%sq) {dims = array<i64: 0>, keepdim = true} : (tensor<8x32xf32>) -> tensor<1x32xf32>
  %a = "dit.add"(%m, %eps) : (tensor<1x32xf32>, tensor<f32>) -> tensor<1x32xf32>
  %r = "dit.rsqrt"(%a) : (tensor<1x32xf32>) -> tensor<1x32xf32>
  %n = "dit.mul"(%x, %r) : (tensor<8x32xf32>, tensor<1x32xf32>) -> tensor<8x32xf32>
  %o = "dit.mul"(%n, %g) : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  return %o : tensor<8x32xf32>
}

// -----

// pow(x, 3) is no square.
// CHECK-LABEL: func.func @rms_norm_cube
// CHECK-NOT: "dit.rms_norm"
func.func @rms_norm_cube(%x: tensor<8x32xf32>, %g: tensor<32xf32>) -> tensor<8x32xf32> {
  %three = arith.constant dense<3.0> : tensor<f32>
  %eps = arith.constant dense<1.0e-6> : tensor<f32>
  %sq = "dit.pow"(%x, %three) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
  %m = "dit.reduce_mean"(%sq) {dims = array<i64: -1>, keepdim = true} : (tensor<8x32xf32>) -> tensor<8x1xf32>
  %a = "dit.add"(%m, %eps) : (tensor<8x1xf32>, tensor<f32>) -> tensor<8x1xf32>
  %r = "dit.rsqrt"(%a) : (tensor<8x1xf32>) -> tensor<8x1xf32>
  %n = "dit.mul"(%x, %r) : (tensor<8x32xf32>, tensor<8x1xf32>) -> tensor<8x32xf32>
  %o = "dit.mul"(%n, %g) : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  return %o : tensor<8x32xf32>
}

// -----

// The rsqrt is used elsewhere too: raising would lose it, nothing fires.
// CHECK-LABEL: func.func @rms_norm_shared_rsqrt
// CHECK-NOT: "dit.rms_norm"
func.func @rms_norm_shared_rsqrt(%x: tensor<8x32xf32>, %g: tensor<32xf32>) -> (tensor<8x32xf32>, tensor<8x1xf32>) {
  %two = arith.constant dense<2.0> : tensor<f32>
  %eps = arith.constant dense<1.0e-6> : tensor<f32>
  %sq = "dit.pow"(%x, %two) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
  %m = "dit.reduce_mean"(%sq) {dims = array<i64: -1>, keepdim = true} : (tensor<8x32xf32>) -> tensor<8x1xf32>
  %a = "dit.add"(%m, %eps) : (tensor<8x1xf32>, tensor<f32>) -> tensor<8x1xf32>
  %r = "dit.rsqrt"(%a) : (tensor<8x1xf32>) -> tensor<8x1xf32>
  %n = "dit.mul"(%x, %r) : (tensor<8x32xf32>, tensor<8x1xf32>) -> tensor<8x32xf32>
  %o = "dit.mul"(%n, %g) : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  return %o, %r : tensor<8x32xf32>, tensor<8x1xf32>
}

// -----

// γ is a full tensor, not a per-feature vector: no dit.rms_norm can take it as gamma; the report
// says why. The unweighted norm under it is raised with a weight of ones (enable_rms_norm's
// no-gamma form) and γ stays a multiply.
// CHECK-LABEL: func.func @rms_norm_gamma_not_vector
// CHECK: %[[ONES:.*]] = arith.constant dense<1.000000e+00> : tensor<32xf32>
// CHECK-NEXT: %[[N:.*]] = "dit.rms_norm"(%arg0, %[[ONES]]) {epsilon = 9.99999997E-7 : f32}
// CHECK-NEXT: %[[O:.*]] = "dit.mul"(%[[N]], %arg1)
// CHECK-NEXT: return %[[O]]
// REPORT: skipped at {{.*}}norm.mlir:[[@LINE+9]]:8: gamma must be a vector over the last dim, got rank 2
func.func @rms_norm_gamma_not_vector(%x: tensor<8x32xf32>, %g: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %two = arith.constant dense<2.0> : tensor<f32>
  %eps = arith.constant dense<1.0e-6> : tensor<f32>
  %sq = "dit.pow"(%x, %two) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
  %m = "dit.reduce_mean"(%sq) {dims = array<i64: -1>, keepdim = true} : (tensor<8x32xf32>) -> tensor<8x1xf32>
  %a = "dit.add"(%m, %eps) : (tensor<8x1xf32>, tensor<f32>) -> tensor<8x1xf32>
  %r = "dit.rsqrt"(%a) : (tensor<8x1xf32>) -> tensor<8x1xf32>
  %n = "dit.mul"(%x, %r) : (tensor<8x32xf32>, tensor<8x1xf32>) -> tensor<8x32xf32>
  %o = "dit.mul"(%n, %g) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  return %o : tensor<8x32xf32>
}

// -----

// ----- enable_rms_norm without a weight: x·rsqrt(mean(x², -1) + ε) == rms_norm(x, 1){ε} -----

// diffusers' RMSNorm(elementwise_affine=False) in f32 as LTX-Video runs it: cast up, pow 2, mean,
// add eps, rsqrt, mul, cast back; the cast-up x also feeds a residual add. aclnnRmsNorm takes
// gamma always: a constant of ones of x's dtype over the last dim.
// CHECK-LABEL: func.func @rms_norm_no_gamma_cast
// CHECK: %[[ONES:.*]] = arith.constant dense<1.000000e+00> : tensor<64xbf16>
// CHECK: %[[N:.*]] = "dit.rms_norm"(%arg0, %[[ONES]]) {epsilon = 9.99999997E-7 : f32} : (tensor<2x8x64xbf16>, tensor<64xbf16>) -> tensor<2x8x64xbf16>
// CHECK-NOT: "dit.reduce_mean"
// REPORT: applied at {{.*}}norm.mlir:[[@LINE+10]]:8: decomposed RMSNorm without weight -> dit.rms_norm(x, ones)
func.func @rms_norm_no_gamma_cast(%x: tensor<2x8x64xbf16>) -> (tensor<2x8x64xbf16>, tensor<2x8x64xf32>) {
  %two = arith.constant dense<2.0> : tensor<f32>
  %eps = arith.constant dense<1.0e-6> : tensor<f32>
  %xf = "dit.cast"(%x) : (tensor<2x8x64xbf16>) -> tensor<2x8x64xf32>
  %sq = "dit.pow"(%xf, %two) : (tensor<2x8x64xf32>, tensor<f32>) -> tensor<2x8x64xf32>
  %m = "dit.reduce_mean"(%sq) {dims = array<i64: 2>, keepdim = true} : (tensor<2x8x64xf32>) -> tensor<2x8x1xf32>
  %a = "dit.add"(%m, %eps) : (tensor<2x8x1xf32>, tensor<f32>) -> tensor<2x8x1xf32>
  %r = "dit.rsqrt"(%a) : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %n = "dit.mul"(%xf, %r) : (tensor<2x8x64xf32>, tensor<2x8x1xf32>) -> tensor<2x8x64xf32>
  %o = "dit.cast"(%n) : (tensor<2x8x64xf32>) -> tensor<2x8x64xbf16>
  %res = "dit.add"(%xf, %xf) : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  return %o, %res : tensor<2x8x64xbf16>, tensor<2x8x64xf32>
}

// -----

// All in f32, x·x for the square, the rsqrt on the left of the product.
// CHECK-LABEL: func.func @rms_norm_no_gamma_f32
// CHECK: %[[ONES:.*]] = arith.constant dense<1.000000e+00> : tensor<32xf32>
// CHECK-NEXT: %[[N:.*]] = "dit.rms_norm"(%arg0, %[[ONES]]) {epsilon = 9.99999974E-6 : f32} : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: return %[[N]]
func.func @rms_norm_no_gamma_f32(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %eps = arith.constant dense<1.0e-5> : tensor<f32>
  %sq = "dit.mul"(%x, %x) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = "dit.reduce_mean"(%sq) {dims = array<i64: -1>, keepdim = true} : (tensor<8x32xf32>) -> tensor<8x1xf32>
  %a = "dit.add"(%m, %eps) : (tensor<8x1xf32>, tensor<f32>) -> tensor<8x1xf32>
  %r = "dit.rsqrt"(%a) : (tensor<8x1xf32>) -> tensor<8x1xf32>
  %n = "dit.mul"(%r, %x) : (tensor<8x1xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  return %n : tensor<8x32xf32>
}

// -----

// The product in f32 returned as it is while x is bf16: the kernel would have to cast; left
// alone, the report says why.
// CHECK-LABEL: func.func @rms_norm_no_gamma_wider_result
// CHECK-NOT: "dit.rms_norm"
// REPORT: skipped at {{.*}}norm.mlir:[[@LINE+8]]:8: the normalised result's type differs from x's
func.func @rms_norm_no_gamma_wider_result(%x: tensor<8x32xbf16>) -> tensor<8x32xf32> {
  %eps = arith.constant dense<1.0e-5> : tensor<f32>
  %xf = "dit.cast"(%x) : (tensor<8x32xbf16>) -> tensor<8x32xf32>
  %sq = "dit.mul"(%xf, %xf) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = "dit.reduce_mean"(%sq) {dims = array<i64: -1>, keepdim = true} : (tensor<8x32xf32>) -> tensor<8x1xf32>
  %a = "dit.add"(%m, %eps) : (tensor<8x1xf32>, tensor<f32>) -> tensor<8x1xf32>
  %r = "dit.rsqrt"(%a) : (tensor<8x1xf32>) -> tensor<8x1xf32>
  %n = "dit.mul"(%xf, %r) : (tensor<8x32xf32>, tensor<8x1xf32>) -> tensor<8x32xf32>
  return %n : tensor<8x32xf32>
}

// -----

// A dynamic last dim: no weight of ones can be built; left alone, the report says why.
// CHECK-LABEL: func.func @rms_norm_no_gamma_dynamic_last_dim
// CHECK-NOT: "dit.rms_norm"
// REPORT: skipped at {{.*}}norm.mlir:[[@LINE+7]]:8: the last dim is dynamic
func.func @rms_norm_no_gamma_dynamic_last_dim(%x: tensor<8x?xf32>) -> tensor<8x?xf32> {
  %eps = arith.constant dense<1.0e-5> : tensor<f32>
  %sq = "dit.mul"(%x, %x) : (tensor<8x?xf32>, tensor<8x?xf32>) -> tensor<8x?xf32>
  %m = "dit.reduce_mean"(%sq) {dims = array<i64: -1>, keepdim = true} : (tensor<8x?xf32>) -> tensor<8x1xf32>
  %a = "dit.add"(%m, %eps) : (tensor<8x1xf32>, tensor<f32>) -> tensor<8x1xf32>
  %r = "dit.rsqrt"(%a) : (tensor<8x1xf32>) -> tensor<8x1xf32>
  %n = "dit.mul"(%x, %r) : (tensor<8x?xf32>, tensor<8x1xf32>) -> tensor<8x?xf32>
  return %n : tensor<8x?xf32>
}

// -----

// ----- enable_adalayernorm: layer_norm(x)·(1 + scale) + shift == ada_layer_norm -----

// CHECK-LABEL: func.func @adalayernorm_modulate
// CHECK-NEXT: %[[A:.*]] = "dit.ada_layer_norm"(%arg0, %arg1, %arg2) {epsilon = 9.99999997E-7 : f32}
// CHECK-NEXT: return %[[A]]
func.func @adalayernorm_modulate(%x: tensor<1x16x64xbf16>, %scale: tensor<1x1x64xbf16>, %shift: tensor<1x1x64xbf16>) -> tensor<1x16x64xbf16> {
  %one = arith.constant dense<1.0> : tensor<bf16>
  %ln = "dit.layer_norm"(%x) {epsilon = 1.0e-6 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x16x64xbf16>) -> tensor<1x16x64xbf16>
  %s1 = "dit.add"(%one, %scale) : (tensor<bf16>, tensor<1x1x64xbf16>) -> tensor<1x1x64xbf16>
  %m = "dit.mul"(%ln, %s1) : (tensor<1x16x64xbf16>, tensor<1x1x64xbf16>) -> tensor<1x16x64xbf16>
  %o = "dit.add"(%m, %shift) : (tensor<1x16x64xbf16>, tensor<1x1x64xbf16>) -> tensor<1x16x64xbf16>
  return %o : tensor<1x16x64xbf16>
}

// -----

// (2 + scale) is another modulation: nothing fires.
// CHECK-LABEL: func.func @adalayernorm_two_plus_scale
// CHECK-NOT: "dit.ada_layer_norm"
func.func @adalayernorm_two_plus_scale(%x: tensor<1x16x64xbf16>, %scale: tensor<1x1x64xbf16>, %shift: tensor<1x1x64xbf16>) -> tensor<1x16x64xbf16> {
  %two = arith.constant dense<2.0> : tensor<bf16>
  %ln = "dit.layer_norm"(%x) {epsilon = 1.0e-6 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x16x64xbf16>) -> tensor<1x16x64xbf16>
  %s1 = "dit.add"(%scale, %two) : (tensor<1x1x64xbf16>, tensor<bf16>) -> tensor<1x1x64xbf16>
  %m = "dit.mul"(%ln, %s1) : (tensor<1x16x64xbf16>, tensor<1x1x64xbf16>) -> tensor<1x16x64xbf16>
  %o = "dit.add"(%m, %shift) : (tensor<1x16x64xbf16>, tensor<1x1x64xbf16>) -> tensor<1x16x64xbf16>
  return %o : tensor<1x16x64xbf16>
}

// -----

// The normalised x is also used unmodulated: the layer_norm must stay, nothing fires.
// CHECK-LABEL: func.func @adalayernorm_shared_norm
// CHECK-NOT: "dit.ada_layer_norm"
func.func @adalayernorm_shared_norm(%x: tensor<1x16x64xbf16>, %scale: tensor<1x1x64xbf16>, %shift: tensor<1x1x64xbf16>) -> (tensor<1x16x64xbf16>, tensor<1x16x64xbf16>) {
  %one = arith.constant dense<1.0> : tensor<bf16>
  %ln = "dit.layer_norm"(%x) {epsilon = 1.0e-6 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x16x64xbf16>) -> tensor<1x16x64xbf16>
  %s1 = "dit.add"(%scale, %one) : (tensor<1x1x64xbf16>, tensor<bf16>) -> tensor<1x1x64xbf16>
  %m = "dit.mul"(%ln, %s1) : (tensor<1x16x64xbf16>, tensor<1x1x64xbf16>) -> tensor<1x16x64xbf16>
  %o = "dit.add"(%m, %shift) : (tensor<1x16x64xbf16>, tensor<1x1x64xbf16>) -> tensor<1x16x64xbf16>
  return %o, %ln : tensor<1x16x64xbf16>, tensor<1x16x64xbf16>
}

// -----

// A negative epsilon is no RMSNorm epsilon (and no valid dit.rms_norm attribute): nothing fires.
// CHECK-LABEL: func.func @rms_norm_negative_eps
// CHECK-NOT: "dit.rms_norm"
func.func @rms_norm_negative_eps(%x: tensor<8x32xf32>, %g: tensor<32xf32>) -> tensor<8x32xf32> {
  %two = arith.constant dense<2.0> : tensor<f32>
  %eps = arith.constant dense<-1.0e-6> : tensor<f32>
  %sq = "dit.pow"(%x, %two) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
  %m = "dit.reduce_mean"(%sq) {dims = array<i64: -1>, keepdim = true} : (tensor<8x32xf32>) -> tensor<8x1xf32>
  %a = "dit.add"(%m, %eps) : (tensor<8x1xf32>, tensor<f32>) -> tensor<8x1xf32>
  %r = "dit.rsqrt"(%a) : (tensor<8x1xf32>) -> tensor<8x1xf32>
  %n = "dit.mul"(%x, %r) : (tensor<8x32xf32>, tensor<8x1xf32>) -> tensor<8x32xf32>
  %o = "dit.mul"(%n, %g) : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  return %o : tensor<8x32xf32>
}

// -----

// The epsilon is a per-row tensor, not one constant: no epsilon attribute can hold it.
// CHECK-LABEL: func.func @rms_norm_tensor_eps
// CHECK-NOT: "dit.rms_norm"
func.func @rms_norm_tensor_eps(%x: tensor<8x32xf32>, %g: tensor<32xf32>, %eps: tensor<8x1xf32>) -> tensor<8x32xf32> {
  %two = arith.constant dense<2.0> : tensor<f32>
  %sq = "dit.pow"(%x, %two) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
  %m = "dit.reduce_mean"(%sq) {dims = array<i64: -1>, keepdim = true} : (tensor<8x32xf32>) -> tensor<8x1xf32>
  %a = "dit.add"(%m, %eps) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
  %r = "dit.rsqrt"(%a) : (tensor<8x1xf32>) -> tensor<8x1xf32>
  %n = "dit.mul"(%x, %r) : (tensor<8x32xf32>, tensor<8x1xf32>) -> tensor<8x32xf32>
  %o = "dit.mul"(%n, %g) : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  return %o : tensor<8x32xf32>
}
