// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=gelu_erf | dit-opt --split-input-file | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns | dit-opt --split-input-file | FileCheck %s --check-prefix=CHAIN
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --no-fuse=gelu_erf | FileCheck %s --check-prefix=OFF
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=gelu_erf --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// Numerical check (issue 6): the unfused and transformed graphs on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused > /dev/null

// ----- enable_gelu_erf, tanh form: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) == gelu(x, "tanh") -----
// With --fuse=gelu_erf alone the result is dit.gelu {approximate = "tanh"}; with the default
// switches enable_fast_gelu raises that on to dit.fast_gelu in the same run (CHAIN).

// PyTorch / HF NewGELU: 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * pow(x, 3)))), the
// 0.5 applied first, constants on the left (the pass moves them right).
// CHECK-LABEL: func.func @tanh_pow_half_first
// CHECK-NEXT: %[[G:.*]] = "dit.gelu"(%arg0) {approximate = "tanh"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[G]]
// CHAIN-LABEL: func.func @tanh_pow_half_first
// CHAIN-NEXT: %[[F:.*]] = "dit.fast_gelu"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHAIN-NEXT: return %[[F]]
// OFF-LABEL: func.func @tanh_pow_half_first
// OFF: "dit.tanh"
// OFF-NOT: "dit.gelu"
// OFF-NOT: "dit.fast_gelu"
// REPORT: applied at {{.*}}gelu.mlir:[[@LINE+14]]:8: 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))), any grouping -> dit.gelu(tanh)
func.func @tanh_pow_half_first(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %half = arith.constant dense<0.5> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %three = arith.constant dense<3.0> : tensor<f32>
  %c = arith.constant dense<0.044715> : tensor<f32>
  %k = arith.constant dense<0.7978845608> : tensor<f32>
  %hx = "dit.mul"(%half, %x) : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %x3 = "dit.pow"(%x, %three) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %cx3 = "dit.mul"(%c, %x3) : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %in = "dit.add"(%x, %cx3) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %z = "dit.mul"(%k, %in) : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = "dit.tanh"(%z) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %p = "dit.add"(%one, %t) : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g = "dit.mul"(%hx, %p) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

// x³ as x·x·x, the 0.5 applied last, bf16-rounded constants (√(2/π) -> 0.796875,
// 0.044715 -> 0.044677734).
// CHECK-LABEL: func.func @tanh_cube_products_half_last_bf16
// CHECK-NEXT: %[[G:.*]] = "dit.gelu"(%arg0) {approximate = "tanh"} : (tensor<2x16xbf16>) -> tensor<2x16xbf16>
// CHECK-NEXT: return %[[G]]
// CHAIN-LABEL: func.func @tanh_cube_products_half_last_bf16
// CHAIN-NEXT: "dit.fast_gelu"(%arg0)
func.func @tanh_cube_products_half_last_bf16(%x: tensor<2x16xbf16>) -> tensor<2x16xbf16> {
  %half = arith.constant dense<0.5> : tensor<bf16>
  %one = arith.constant dense<1.0> : tensor<bf16>
  %c = arith.constant dense<0.044677734> : tensor<bf16>
  %k = arith.constant dense<0.796875> : tensor<bf16>
  %x2 = "dit.mul"(%x, %x) : (tensor<2x16xbf16>, tensor<2x16xbf16>) -> tensor<2x16xbf16>
  %x3 = "dit.mul"(%x2, %x) : (tensor<2x16xbf16>, tensor<2x16xbf16>) -> tensor<2x16xbf16>
  %cx3 = "dit.mul"(%x3, %c) : (tensor<2x16xbf16>, tensor<bf16>) -> tensor<2x16xbf16>
  %in = "dit.add"(%cx3, %x) : (tensor<2x16xbf16>, tensor<2x16xbf16>) -> tensor<2x16xbf16>
  %z = "dit.mul"(%in, %k) : (tensor<2x16xbf16>, tensor<bf16>) -> tensor<2x16xbf16>
  %t = "dit.tanh"(%z) : (tensor<2x16xbf16>) -> tensor<2x16xbf16>
  %p = "dit.add"(%t, %one) : (tensor<2x16xbf16>, tensor<bf16>) -> tensor<2x16xbf16>
  %h = "dit.mul"(%x, %p) : (tensor<2x16xbf16>, tensor<2x16xbf16>) -> tensor<2x16xbf16>
  %g = "dit.mul"(%h, %half) : (tensor<2x16xbf16>, tensor<bf16>) -> tensor<2x16xbf16>
  return %g : tensor<2x16xbf16>
}

// -----

// HF FastGELUActivation: 0.5 * x * (1 + tanh(x * 0.7978845608 * (1 + 0.044715 * x * x))):
// the inner as x·(1 + c·x²), √(2/π) on the x factor.
// CHECK-LABEL: func.func @tanh_inner_factored
// CHECK-NEXT: %[[G:.*]] = "dit.gelu"(%arg0) {approximate = "tanh"} : (tensor<8x64xbf16>) -> tensor<8x64xbf16>
// CHECK-NEXT: return %[[G]]
func.func @tanh_inner_factored(%x: tensor<8x64xbf16>) -> tensor<8x64xbf16> {
  %half = arith.constant dense<0.5> : tensor<bf16>
  %one = arith.constant dense<1.0> : tensor<bf16>
  %c = arith.constant dense<0.044715> : tensor<bf16>
  %k = arith.constant dense<0.7978845608> : tensor<bf16>
  %hx = "dit.mul"(%half, %x) : (tensor<bf16>, tensor<8x64xbf16>) -> tensor<8x64xbf16>
  %kx = "dit.mul"(%x, %k) : (tensor<8x64xbf16>, tensor<bf16>) -> tensor<8x64xbf16>
  %cx = "dit.mul"(%c, %x) : (tensor<bf16>, tensor<8x64xbf16>) -> tensor<8x64xbf16>
  %cxx = "dit.mul"(%cx, %x) : (tensor<8x64xbf16>, tensor<8x64xbf16>) -> tensor<8x64xbf16>
  %br = "dit.add"(%one, %cxx) : (tensor<bf16>, tensor<8x64xbf16>) -> tensor<8x64xbf16>
  %z = "dit.mul"(%kx, %br) : (tensor<8x64xbf16>, tensor<8x64xbf16>) -> tensor<8x64xbf16>
  %t = "dit.tanh"(%z) : (tensor<8x64xbf16>) -> tensor<8x64xbf16>
  %p = "dit.add"(%one, %t) : (tensor<bf16>, tensor<8x64xbf16>) -> tensor<8x64xbf16>
  %g = "dit.mul"(%p, %hx) : (tensor<8x64xbf16>, tensor<8x64xbf16>) -> tensor<8x64xbf16>
  return %g : tensor<8x64xbf16>
}

// -----

// The inner as x·(1 + c·pow(x, 2)) times √(2/π), the bracket first in the 0.5-last product.
// CHECK-LABEL: func.func @tanh_inner_pow2_bracket_left
// CHECK-NEXT: %[[G:.*]] = "dit.gelu"(%arg0) {approximate = "tanh"} : (tensor<16xf16>) -> tensor<16xf16>
// CHECK-NEXT: return %[[G]]
func.func @tanh_inner_pow2_bracket_left(%x: tensor<16xf16>) -> tensor<16xf16> {
  %half = arith.constant dense<0.5> : tensor<f16>
  %one = arith.constant dense<1.0> : tensor<f16>
  %two = arith.constant dense<2.0> : tensor<f16>
  %c = arith.constant dense<0.044715> : tensor<f16>
  %k = arith.constant dense<0.7978845608> : tensor<f16>
  %x2 = "dit.pow"(%x, %two) : (tensor<16xf16>, tensor<f16>) -> tensor<16xf16>
  %cx2 = "dit.mul"(%x2, %c) : (tensor<16xf16>, tensor<f16>) -> tensor<16xf16>
  %br = "dit.add"(%cx2, %one) : (tensor<16xf16>, tensor<f16>) -> tensor<16xf16>
  %in = "dit.mul"(%x, %br) : (tensor<16xf16>, tensor<16xf16>) -> tensor<16xf16>
  %z = "dit.mul"(%in, %k) : (tensor<16xf16>, tensor<f16>) -> tensor<16xf16>
  %t = "dit.tanh"(%z) : (tensor<16xf16>) -> tensor<16xf16>
  %p = "dit.add"(%t, %one) : (tensor<16xf16>, tensor<f16>) -> tensor<16xf16>
  %h = "dit.mul"(%p, %x) : (tensor<16xf16>, tensor<16xf16>) -> tensor<16xf16>
  %g = "dit.mul"(%half, %h) : (tensor<f16>, tensor<16xf16>) -> tensor<16xf16>
  return %g : tensor<16xf16>
}

// -----

// √(2/π) folded into both terms (k·x + 0.0356774·x³), the 0.5 on the bracket.
// CHECK-LABEL: func.func @tanh_folded_constants_half_on_bracket
// CHECK-NEXT: %[[G:.*]] = "dit.gelu"(%arg0) {approximate = "tanh"}
// CHECK-NEXT: %[[H:.*]] = "dit.gelu"(%arg1) {approximate = "tanh"}
// CHECK-NEXT: return %[[G]], %[[H]]
func.func @tanh_folded_constants_half_on_bracket(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %half = arith.constant dense<0.5> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %three = arith.constant dense<3.0> : tensor<f32>
  %kc = arith.constant dense<0.0356774081> : tensor<f32>
  %k = arith.constant dense<0.7978845608> : tensor<f32>
  %kx = "dit.mul"(%x, %k) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %x3 = "dit.pow"(%x, %three) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %kcx3 = "dit.mul"(%x3, %kc) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %z = "dit.add"(%kx, %kcx3) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = "dit.tanh"(%z) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %p = "dit.add"(%t, %one) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %q = "dit.mul"(%p, %half) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %g = "dit.mul"(%x, %q) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ky = "dit.mul"(%y, %k) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %y3 = "dit.pow"(%y, %three) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %kcy3 = "dit.mul"(%y3, %kc) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %zy = "dit.add"(%kcy3, %ky) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ty = "dit.tanh"(%zy) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %py = "dit.add"(%ty, %one) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %qy = "dit.mul"(%half, %py) : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %gy = "dit.mul"(%qy, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %g, %gy : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// ----- negative cases: nothing is raised -----

// A wrong cubic coefficient (0.05) is another function.
// CHECK-LABEL: func.func @tanh_wrong_cubic
// CHECK: "dit.tanh"
// CHECK-NOT: "dit.gelu"
// CHAIN-LABEL: func.func @tanh_wrong_cubic
// CHAIN-NOT: "dit.fast_gelu"
func.func @tanh_wrong_cubic(%x: tensor<8xf32>) -> tensor<8xf32> {
  %half = arith.constant dense<0.5> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %three = arith.constant dense<3.0> : tensor<f32>
  %c = arith.constant dense<0.05> : tensor<f32>
  %k = arith.constant dense<0.7978845608> : tensor<f32>
  %x3 = "dit.pow"(%x, %three) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %cx3 = "dit.mul"(%x3, %c) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %in = "dit.add"(%x, %cx3) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %z = "dit.mul"(%in, %k) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %t = "dit.tanh"(%z) : (tensor<8xf32>) -> tensor<8xf32>
  %p = "dit.add"(%t, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h = "dit.mul"(%x, %p) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %g = "dit.mul"(%h, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

// √(2/π) missing (tanh(x + 0.044715·x³)).
// CHECK-LABEL: func.func @tanh_missing_scale
// CHECK-NOT: "dit.gelu"
func.func @tanh_missing_scale(%x: tensor<8xf32>) -> tensor<8xf32> {
  %half = arith.constant dense<0.5> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %three = arith.constant dense<3.0> : tensor<f32>
  %c = arith.constant dense<0.044715> : tensor<f32>
  %x3 = "dit.pow"(%x, %three) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %cx3 = "dit.mul"(%x3, %c) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %in = "dit.add"(%x, %cx3) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %t = "dit.tanh"(%in) : (tensor<8xf32>) -> tensor<8xf32>
  %p = "dit.add"(%t, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h = "dit.mul"(%x, %p) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %g = "dit.mul"(%h, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

// The cube is of another tensor: tanh(√(2/π)·(x + 0.044715·y³)) is no GELU of x.
// CHECK-LABEL: func.func @tanh_other_variable
// CHECK-NOT: "dit.gelu"
func.func @tanh_other_variable(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %half = arith.constant dense<0.5> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %three = arith.constant dense<3.0> : tensor<f32>
  %c = arith.constant dense<0.044715> : tensor<f32>
  %k = arith.constant dense<0.7978845608> : tensor<f32>
  %y3 = "dit.pow"(%y, %three) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %cy3 = "dit.mul"(%y3, %c) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %in = "dit.add"(%x, %cy3) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %z = "dit.mul"(%in, %k) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %t = "dit.tanh"(%z) : (tensor<8xf32>) -> tensor<8xf32>
  %p = "dit.add"(%t, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h = "dit.mul"(%x, %p) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %g = "dit.mul"(%h, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

// x² where x³ belongs: x + 0.044715·x² is no GELU polynomial.
// CHECK-LABEL: func.func @tanh_square_not_cube
// CHECK-NOT: "dit.gelu"
func.func @tanh_square_not_cube(%x: tensor<8xf32>) -> tensor<8xf32> {
  %half = arith.constant dense<0.5> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %c = arith.constant dense<0.044715> : tensor<f32>
  %k = arith.constant dense<0.7978845608> : tensor<f32>
  %x2 = "dit.mul"(%x, %x) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %cx2 = "dit.mul"(%x2, %c) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %in = "dit.add"(%x, %cx2) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %z = "dit.mul"(%in, %k) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %t = "dit.tanh"(%z) : (tensor<8xf32>) -> tensor<8xf32>
  %p = "dit.add"(%t, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h = "dit.mul"(%x, %p) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %g = "dit.mul"(%h, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

// The cube is used elsewhere too: raising would keep it alive and compute it twice.
// CHECK-LABEL: func.func @tanh_shared_inner
// CHECK: "dit.tanh"
// CHECK-NOT: "dit.gelu"
func.func @tanh_shared_inner(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %half = arith.constant dense<0.5> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %three = arith.constant dense<3.0> : tensor<f32>
  %c = arith.constant dense<0.044715> : tensor<f32>
  %k = arith.constant dense<0.7978845608> : tensor<f32>
  %x3 = "dit.pow"(%x, %three) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %cx3 = "dit.mul"(%x3, %c) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %in = "dit.add"(%x, %cx3) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %z = "dit.mul"(%in, %k) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %t = "dit.tanh"(%z) : (tensor<8xf32>) -> tensor<8xf32>
  %p = "dit.add"(%t, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h = "dit.mul"(%x, %p) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %g = "dit.mul"(%h, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %g, %x3 : tensor<8xf32>, tensor<8xf32>
}

// -----

// The tanh is used elsewhere.
// CHECK-LABEL: func.func @tanh_shared_tanh
// CHECK-NOT: "dit.gelu"
func.func @tanh_shared_tanh(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %half = arith.constant dense<0.5> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %three = arith.constant dense<3.0> : tensor<f32>
  %c = arith.constant dense<0.044715> : tensor<f32>
  %k = arith.constant dense<0.7978845608> : tensor<f32>
  %x3 = "dit.pow"(%x, %three) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %cx3 = "dit.mul"(%x3, %c) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %in = "dit.add"(%x, %cx3) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %z = "dit.mul"(%in, %k) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %t = "dit.tanh"(%z) : (tensor<8xf32>) -> tensor<8xf32>
  %p = "dit.add"(%t, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h = "dit.mul"(%x, %p) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %g = "dit.mul"(%h, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %g, %t : tensor<8xf32>, tensor<8xf32>
}

// -----

// The 0.5 broadcasts x to a larger shape: dit.gelu(x) would not have the product's type.
// CHECK-LABEL: func.func @tanh_broadcasting_half
// CHECK-NOT: "dit.gelu"
func.func @tanh_broadcasting_half(%x: tensor<8xf32>) -> tensor<4x8xf32> {
  %half = arith.constant dense<0.5> : tensor<4x8xf32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %three = arith.constant dense<3.0> : tensor<f32>
  %c = arith.constant dense<0.044715> : tensor<f32>
  %k = arith.constant dense<0.7978845608> : tensor<f32>
  %x3 = "dit.pow"(%x, %three) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %cx3 = "dit.mul"(%x3, %c) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %in = "dit.add"(%x, %cx3) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %z = "dit.mul"(%in, %k) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %t = "dit.tanh"(%z) : (tensor<8xf32>) -> tensor<8xf32>
  %p = "dit.add"(%t, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h = "dit.mul"(%x, %p) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %g = "dit.mul"(%h, %half) : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
