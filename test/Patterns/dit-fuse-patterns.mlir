// RUN: dit-opt %s --split-input-file --dit-fuse-patterns | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --no-fuse=fast_gelu,mul_add,gelu_erf | FileCheck %s --check-prefix=OFF
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=norm_rope_cache | FileCheck %s --check-prefix=OFF
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-fuse-patterns{enable_fast_gelu=false})' | FileCheck %s --check-prefix=OPT
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// ----- enable_fast_gelu: gelu(x, tanh) == fast_gelu(x) up to FastGelu's own formula -----

// CHECK-LABEL: func.func @fast_gelu_tanh
// CHECK-NEXT: %[[F:.*]] = "dit.fast_gelu"(%arg0)
// CHECK-NEXT: return %[[F]]
// OFF-LABEL: func.func @fast_gelu_tanh
// OFF: "dit.gelu"(%arg0) {approximate = "tanh"}
// OPT-LABEL: func.func @fast_gelu_tanh
// OPT: "dit.gelu"(%arg0) {approximate = "tanh"}
// REPORT: applied at {{.*}}dit-fuse-patterns.mlir:[[@LINE+2]]:8: dit.gelu(tanh) -> dit.fast_gelu
func.func @fast_gelu_tanh(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %g = "dit.gelu"(%x) {approximate = "tanh"} : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %g : tensor<4x8xbf16>
}

// -----

// erf GELU is not FastGelu's approximation target: it stays.
// CHECK-LABEL: func.func @fast_gelu_not_erf
// CHECK: "dit.gelu"(%arg0) {approximate = "none"}
func.func @fast_gelu_not_erf(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %g = "dit.gelu"(%x) {approximate = "none"} : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %g : tensor<4x8xbf16>
}

// -----

// ----- enable_mul_add: x·c + y == muls_add(x, y){scale = c} for a scalar constant c -----

// CHECK-LABEL: func.func @mul_add_const_rhs
// CHECK-NEXT: %[[R:.*]] = "dit.muls_add"(%arg0, %arg1) {scale = 1.250000e-01 : f32}
// CHECK-NEXT: return %[[R]]
func.func @mul_add_const_rhs(%x: tensor<4x8xf16>, %y: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %c = arith.constant dense<0.125> : tensor<f16>
  %m = "dit.mul"(%x, %c) : (tensor<4x8xf16>, tensor<f16>) -> tensor<4x8xf16>
  %a = "dit.add"(%m, %y) : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return %a : tensor<4x8xf16>
}

// -----

// The constant on the left of the mul is the same computation.
// CHECK-LABEL: func.func @mul_add_const_lhs
// CHECK-NEXT: %[[R:.*]] = "dit.muls_add"(%arg0, %arg1) {scale = 2.000000e+00 : f32}
func.func @mul_add_const_lhs(%x: tensor<4x8xf16>, %y: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %c = arith.constant dense<2.0> : tensor<1x1xf16>
  %m = "dit.mul"(%c, %x) : (tensor<1x1xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  %a = "dit.add"(%m, %y) : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return %a : tensor<4x8xf16>
}

// -----

// The product is used elsewhere: fusing would compute it twice, so nothing fires.
// CHECK-LABEL: func.func @mul_add_multi_use
// CHECK-NOT: "dit.muls_add"
// CHECK: "dit.mul"
// CHECK: "dit.add"
func.func @mul_add_multi_use(%x: tensor<4x8xf16>, %y: tensor<4x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>) {
  %c = arith.constant dense<0.125> : tensor<f16>
  %m = "dit.mul"(%x, %c) : (tensor<4x8xf16>, tensor<f16>) -> tensor<4x8xf16>
  %a = "dit.add"(%m, %y) : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return %a, %m : tensor<4x8xf16>, tensor<4x8xf16>
}

// -----

// A non-scalar constant is no `scale` attribute.
// CHECK-LABEL: func.func @mul_add_vector_constant
// CHECK-NOT: "dit.muls_add"
func.func @mul_add_vector_constant(%x: tensor<4x8xf16>, %y: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf16>
  %m = "dit.mul"(%x, %c) : (tensor<4x8xf16>, tensor<8xf16>) -> tensor<4x8xf16>
  %a = "dit.add"(%m, %y) : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return %a : tensor<4x8xf16>
}

// -----

// ----- enable_gelu_erf: 0.5·x·(1 + erf(x/√2)) == gelu(x, "none") -----

// CHECK-LABEL: func.func @gelu_erf_half_last
// CHECK-NEXT: %[[G:.*]] = "dit.gelu"(%arg0) {approximate = "none"}
// CHECK-NEXT: return %[[G]]
// OFF-LABEL: func.func @gelu_erf_half_last
// OFF: "dit.erf"
func.func @gelu_erf_half_last(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r2 = arith.constant dense<0.70710678> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %half = arith.constant dense<0.5> : tensor<f32>
  %s = "dit.mul"(%x, %r2) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %e = "dit.erf"(%s) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %p = "dit.add"(%one, %e) : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %h = "dit.mul"(%x, %p) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g = "dit.mul"(%h, %half) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

// The half applied first; bf16-rounded constants.
// CHECK-LABEL: func.func @gelu_erf_bf16_half_first
// CHECK-NOT: "dit.erf"
// CHECK: "dit.gelu"(%arg0) {approximate = "none"}
func.func @gelu_erf_bf16_half_first(%x: tensor<8xbf16>) -> tensor<8xbf16> {
  %r2 = arith.constant dense<0.70703125> : tensor<bf16>
  %one = arith.constant dense<1.0> : tensor<bf16>
  %half = arith.constant dense<0.5> : tensor<bf16>
  %s = "dit.mul"(%x, %r2) : (tensor<8xbf16>, tensor<bf16>) -> tensor<8xbf16>
  %e = "dit.erf"(%s) : (tensor<8xbf16>) -> tensor<8xbf16>
  %p = "dit.add"(%e, %one) : (tensor<8xbf16>, tensor<bf16>) -> tensor<8xbf16>
  %h = "dit.mul"(%half, %x) : (tensor<bf16>, tensor<8xbf16>) -> tensor<8xbf16>
  %g = "dit.mul"(%h, %p) : (tensor<8xbf16>, tensor<8xbf16>) -> tensor<8xbf16>
  return %g : tensor<8xbf16>
}

// -----

// x/√2 written as a division.
// CHECK-LABEL: func.func @gelu_erf_div
// CHECK-NEXT: "dit.gelu"(%arg0) {approximate = "none"}
func.func @gelu_erf_div(%x: tensor<8xf32>) -> tensor<8xf32> {
  %d = arith.constant dense<1.41421356> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %half = arith.constant dense<0.5> : tensor<f32>
  %s = "dit.div"(%x, %d) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e = "dit.erf"(%s) : (tensor<8xf32>) -> tensor<8xf32>
  %p = "dit.add"(%e, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h = "dit.mul"(%x, %p) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %g = "dit.mul"(%h, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

// A wrong constant (erf(x/2)) is a different function: nothing fires.
// CHECK-LABEL: func.func @gelu_erf_wrong_constant
// CHECK: "dit.erf"
// CHECK-NOT: "dit.gelu"
func.func @gelu_erf_wrong_constant(%x: tensor<8xf32>) -> tensor<8xf32> {
  %d = arith.constant dense<2.0> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %half = arith.constant dense<0.5> : tensor<f32>
  %s = "dit.div"(%x, %d) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e = "dit.erf"(%s) : (tensor<8xf32>) -> tensor<8xf32>
  %p = "dit.add"(%e, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h = "dit.mul"(%x, %p) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %g = "dit.mul"(%h, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

// The erf is also used elsewhere: raising would lose it.
// CHECK-LABEL: func.func @gelu_erf_shared_intermediate
// CHECK: "dit.erf"
// CHECK-NOT: "dit.gelu"
func.func @gelu_erf_shared_intermediate(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %d = arith.constant dense<1.41421356> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %half = arith.constant dense<0.5> : tensor<f32>
  %s = "dit.div"(%x, %d) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e = "dit.erf"(%s) : (tensor<8xf32>) -> tensor<8xf32>
  %p = "dit.add"(%e, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h = "dit.mul"(%x, %p) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %g = "dit.mul"(%h, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %g, %e : tensor<8xf32>, tensor<8xf32>
}

// -----

// A [1, 1] constant widens an [8] x to [1, 8]: muls_add(x, y) would not give the product's
// type, so nothing fires.
// CHECK-LABEL: func.func @mul_add_widening_constant
// CHECK-NOT: "dit.muls_add"
func.func @mul_add_widening_constant(%x: tensor<8xf16>, %y: tensor<1x8xf16>) -> tensor<1x8xf16> {
  %c = arith.constant dense<0.5> : tensor<1x1xf16>
  %m = "dit.mul"(%x, %c) : (tensor<8xf16>, tensor<1x1xf16>) -> tensor<1x8xf16>
  %a = "dit.add"(%m, %y) : (tensor<1x8xf16>, tensor<1x8xf16>) -> tensor<1x8xf16>
  return %a : tensor<1x8xf16>
}
