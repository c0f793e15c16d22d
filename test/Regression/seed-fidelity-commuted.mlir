// Issue 13, item 3: add and mul commute, and the exporters use both orders. Seed 003's SwiGLU
// cast chain written with silu as sigmoid(g)·g, and AdaLayerNorm written as
// (1 + scale)·norm + shift as FLUX.2's blocks write it, fused only in the order the patterns
// were written in. Every pattern now also matches its commuted forms (the build repeats each
// pattern per operand order, passes/src/patterns/pdl_commute.rs; tools/dit-opt/tests/commuted.rs checks
// every positive fusion test with its add/mul operands swapped). A few more of the forms that
// were missed: the RMSNorm's rsqrt·x, y + x·c for muls_add, and the rope's rotate(x)·sin first.
//
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns | FileCheck %s
// RUN: dit-run %s --split-input-file --compare-unfused --input-range=0.1,1 > /dev/null

// Seed 003: x.float(), sigmoid, sigmoid(x)·x, cast back, times up.
// CHECK-LABEL: func.func @cast_chain_sigmoid_first
// CHECK-NEXT: %[[A:.*]] = "dit.silu_mul"(%arg0, %arg1) : (tensor<4x32xbf16>, tensor<4x32xbf16>) -> tensor<4x32xbf16>
// CHECK-NEXT: return %[[A]]
func.func @cast_chain_sigmoid_first(%g: tensor<4x32xbf16>, %u: tensor<4x32xbf16>) -> tensor<4x32xbf16> {
  %gf = "dit.cast"(%g) : (tensor<4x32xbf16>) -> tensor<4x32xf32>
  %sg = "dit.sigmoid"(%gf) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %m = "dit.mul"(%sg, %gf) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  %b = "dit.cast"(%m) : (tensor<4x32xf32>) -> tensor<4x32xbf16>
  %o = "dit.mul"(%u, %b) : (tensor<4x32xbf16>, tensor<4x32xbf16>) -> tensor<4x32xbf16>
  return %o : tensor<4x32xbf16>
}

// -----

// FLUX.2's modulation: (1 + scale)·norm + shift, the shift added on the left as well.
// CHECK-LABEL: func.func @adalayernorm_scale_first
// CHECK-NEXT: %[[A:.*]] = "dit.ada_layer_norm"(%arg0, %arg1, %arg2) {epsilon = 9.99999997E-7 : f32}
// CHECK-NEXT: return %[[A]]
func.func @adalayernorm_scale_first(%x: tensor<1x16x64xbf16>, %scale: tensor<1x1x64xbf16>, %shift: tensor<1x1x64xbf16>) -> tensor<1x16x64xbf16> {
  %one = arith.constant dense<1.0> : tensor<bf16>
  %ln = "dit.layer_norm"(%x) {epsilon = 1.0e-6 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x16x64xbf16>) -> tensor<1x16x64xbf16>
  %s1 = "dit.add"(%one, %scale) : (tensor<bf16>, tensor<1x1x64xbf16>) -> tensor<1x1x64xbf16>
  %m = "dit.mul"(%s1, %ln) : (tensor<1x1x64xbf16>, tensor<1x16x64xbf16>) -> tensor<1x16x64xbf16>
  %o = "dit.add"(%shift, %m) : (tensor<1x1x64xbf16>, tensor<1x16x64xbf16>) -> tensor<1x16x64xbf16>
  return %o : tensor<1x16x64xbf16>
}

// -----

// RMSNorm with the rsqrt on the left of x.
// CHECK-LABEL: func.func @rms_norm_rsqrt_first
// CHECK-NEXT: "dit.rms_norm"(%arg0, %arg1) {epsilon = 9.99999997E-7 : f32} : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
func.func @rms_norm_rsqrt_first(%x: tensor<8x32xf32>, %g: tensor<32xf32>) -> tensor<8x32xf32> {
  %two = arith.constant dense<2.0> : tensor<f32>
  %eps = arith.constant dense<1.0e-6> : tensor<f32>
  %sq = "dit.pow"(%x, %two) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
  %m = "dit.reduce_mean"(%sq) {dims = array<i64: -1>, keepdim = true} : (tensor<8x32xf32>) -> tensor<8x1xf32>
  %a = "dit.add"(%m, %eps) : (tensor<8x1xf32>, tensor<f32>) -> tensor<8x1xf32>
  %r = "dit.rsqrt"(%a) : (tensor<8x1xf32>) -> tensor<8x1xf32>
  %n = "dit.mul"(%r, %x) : (tensor<8x1xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  %o = "dit.mul"(%g, %n) : (tensor<32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  return %o : tensor<8x32xf32>
}

// -----

// y + x·c: the scaled term on the right of the add.
// CHECK-LABEL: func.func @muls_add_product_second
// CHECK-NEXT: "dit.muls_add"(%arg0, %arg1) {scale = 2.500000e-01 : f32}
func.func @muls_add_product_second(%x: tensor<4x8xf16>, %y: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %c = arith.constant dense<0.25> : tensor<f16>
  %m = "dit.mul"(%x, %c) : (tensor<4x8xf16>, tensor<f16>) -> tensor<4x8xf16>
  %o = "dit.add"(%y, %m) : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return %o : tensor<4x8xf16>
}

// -----

// sin·rotate_half(x) + cos·x: both products and the sum in the other order.
// CHECK-LABEL: func.func @rope_half_tables_first
// CHECK-NEXT: "dit.rope"(%arg0, %arg1, %arg2) {mode = "half"}
// CHECK-NEXT: return
func.func @rope_half_tables_first(%x: tensor<2x8x32xf16>, %cos: tensor<8x32xf16>, %sin: tensor<8x32xf16>) -> tensor<2x8x32xf16> {
  %x1, %x2 = "dit.split"(%x) {dim = 2 : i64, sizes = array<i64: 16, 16>} : (tensor<2x8x32xf16>) -> (tensor<2x8x16xf16>, tensor<2x8x16xf16>)
  %n2 = "dit.neg"(%x2) : (tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  %rot = "dit.concat"(%n2, %x1) {dim = -1 : i64} : (tensor<2x8x16xf16>, tensor<2x8x16xf16>) -> tensor<2x8x32xf16>
  %xc = "dit.mul"(%cos, %x) : (tensor<8x32xf16>, tensor<2x8x32xf16>) -> tensor<2x8x32xf16>
  %rs = "dit.mul"(%sin, %rot) : (tensor<8x32xf16>, tensor<2x8x32xf16>) -> tensor<2x8x32xf16>
  %sum = "dit.add"(%rs, %xc) : (tensor<2x8x32xf16>, tensor<2x8x32xf16>) -> tensor<2x8x32xf16>
  return %sum : tensor<2x8x32xf16>
}

// -----

// sigmoid(g)·h with h another tensor is no SiLU in either order: nothing fires.
// CHECK-LABEL: func.func @cast_chain_other_operand
// CHECK: "dit.sigmoid"
// CHECK-NOT: "dit.silu_mul"
func.func @cast_chain_other_operand(%g: tensor<4x32xbf16>, %h: tensor<4x32xf32>, %u: tensor<4x32xbf16>) -> tensor<4x32xbf16> {
  %gf = "dit.cast"(%g) : (tensor<4x32xbf16>) -> tensor<4x32xf32>
  %sg = "dit.sigmoid"(%gf) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %m = "dit.mul"(%sg, %h) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  %b = "dit.cast"(%m) : (tensor<4x32xf32>) -> tensor<4x32xbf16>
  %o = "dit.mul"(%u, %b) : (tensor<4x32xbf16>, tensor<4x32xbf16>) -> tensor<4x32xbf16>
  return %o : tensor<4x32xbf16>
}

// -----

// (1 + scale)·norm + shift with a norm that has its own affine weight is another modulation:
// nothing fires in this order either.
// CHECK-LABEL: func.func @adalayernorm_scale_first_affine_norm
// CHECK-NOT: "dit.ada_layer_norm"
func.func @adalayernorm_scale_first_affine_norm(%x: tensor<1x16x64xbf16>, %w: tensor<64xbf16>, %scale: tensor<1x1x64xbf16>, %shift: tensor<1x1x64xbf16>) -> tensor<1x16x64xbf16> {
  %one = arith.constant dense<1.0> : tensor<bf16>
  %ln = "dit.layer_norm"(%x, %w) {epsilon = 1.0e-6 : f32, operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x16x64xbf16>, tensor<64xbf16>) -> tensor<1x16x64xbf16>
  %s1 = "dit.add"(%one, %scale) : (tensor<bf16>, tensor<1x1x64xbf16>) -> tensor<1x1x64xbf16>
  %m = "dit.mul"(%s1, %ln) : (tensor<1x1x64xbf16>, tensor<1x16x64xbf16>) -> tensor<1x16x64xbf16>
  %o = "dit.add"(%shift, %m) : (tensor<1x1x64xbf16>, tensor<1x16x64xbf16>) -> tensor<1x16x64xbf16>
  return %o : tensor<1x16x64xbf16>
}
