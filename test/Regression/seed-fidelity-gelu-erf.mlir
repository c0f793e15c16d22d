// Issue 13, item 2: the erf GELU of seed 000 (P2, "erf-GELU"), 0.5·x·(1 + erf(x/√2)), comes
// out of exporters in every grouping and order of its product: Hugging Face's
// `x * 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0)))`, `(1 + erf(…)) * x * 0.5`,
// `x * (0.5 * (1 + erf(…)))`, `x * (1 + erf(…)) / 2`. Each is one dit.gelu(none); products that
// are not GELU (another scale, another variable, an extra factor, a shared intermediate) stay.
//
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=gelu_erf | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=gelu_erf --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-run %s --split-input-file --compare-unfused --fuse=gelu_erf > /dev/null

// Hugging Face's form: (x·0.5)·(1 + erf(x/√2)), the √2 a division.
// CHECK-LABEL: func.func @gelu_erf_hf
// CHECK-NEXT: %[[G:.*]] = "dit.gelu"(%arg0) {approximate = "none"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[G]]
// REPORT: applied at {{.*}}seed-fidelity-gelu-erf.mlir:[[@LINE+9]]:8: 0.5 * x * (1 + erf(x / sqrt2)), any grouping -> dit.gelu(none)
func.func @gelu_erf_hf(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %half = arith.constant dense<0.5> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %r2 = arith.constant dense<1.41421356> : tensor<f32>
  %hx = "dit.mul"(%x, %half) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  %s = "dit.div"(%x, %r2) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  %e = "dit.erf"(%s) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %p = "dit.add"(%one, %e) : (tensor<f32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %g = "dit.mul"(%hx, %p) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %g : tensor<4x16xf32>
}

// -----

// The bracket first: ((1 + erf(x·(1/√2)))·x)·0.5, bf16 constants.
// CHECK-LABEL: func.func @gelu_erf_bracket_first
// CHECK-NEXT: %[[G:.*]] = "dit.gelu"(%arg0) {approximate = "none"} : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
// CHECK-NEXT: return %[[G]]
func.func @gelu_erf_bracket_first(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  %half = arith.constant dense<0.5> : tensor<bf16>
  %one = arith.constant dense<1.0> : tensor<bf16>
  %r2 = arith.constant dense<0.70703125> : tensor<bf16>
  %s = "dit.mul"(%x, %r2) : (tensor<2x8xbf16>, tensor<bf16>) -> tensor<2x8xbf16>
  %e = "dit.erf"(%s) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  %p = "dit.add"(%e, %one) : (tensor<2x8xbf16>, tensor<bf16>) -> tensor<2x8xbf16>
  %px = "dit.mul"(%p, %x) : (tensor<2x8xbf16>, tensor<2x8xbf16>) -> tensor<2x8xbf16>
  %g = "dit.mul"(%px, %half) : (tensor<2x8xbf16>, tensor<bf16>) -> tensor<2x8xbf16>
  return %g : tensor<2x8xbf16>
}

// -----

// The 0.5 on the bracket: x·(0.5·(1 + erf(x/√2))).
// CHECK-LABEL: func.func @gelu_erf_half_on_bracket
// CHECK-NEXT: %[[G:.*]] = "dit.gelu"(%arg0) {approximate = "none"} : (tensor<8xf16>) -> tensor<8xf16>
// CHECK-NEXT: return %[[G]]
func.func @gelu_erf_half_on_bracket(%x: tensor<8xf16>) -> tensor<8xf16> {
  %half = arith.constant dense<0.5> : tensor<f16>
  %one = arith.constant dense<1.0> : tensor<f16>
  %r2 = arith.constant dense<1.414> : tensor<f16>
  %s = "dit.div"(%x, %r2) : (tensor<8xf16>, tensor<f16>) -> tensor<8xf16>
  %e = "dit.erf"(%s) : (tensor<8xf16>) -> tensor<8xf16>
  %p = "dit.add"(%e, %one) : (tensor<8xf16>, tensor<f16>) -> tensor<8xf16>
  %q = "dit.mul"(%half, %p) : (tensor<f16>, tensor<8xf16>) -> tensor<8xf16>
  %g = "dit.mul"(%x, %q) : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xf16>
  return %g : tensor<8xf16>
}

// -----

// Halved by a division last: x·(1 + erf(x/√2))/2.
// CHECK-LABEL: func.func @gelu_erf_div_two
// CHECK-NEXT: %[[G:.*]] = "dit.gelu"(%arg0) {approximate = "none"} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %[[G]]
func.func @gelu_erf_div_two(%x: tensor<8xf32>) -> tensor<8xf32> {
  %two = arith.constant dense<2.0> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %r2 = arith.constant dense<0.70710678> : tensor<f32>
  %s = "dit.mul"(%r2, %x) : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %e = "dit.erf"(%s) : (tensor<8xf32>) -> tensor<8xf32>
  %p = "dit.add"(%one, %e) : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %h = "dit.mul"(%p, %x) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %g = "dit.div"(%h, %two) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

// The tanh form in the same grouping goes through the same product check: x·(0.5·(1 + tanh(…))).
// CHECK-LABEL: func.func @gelu_tanh_half_on_bracket_div
// CHECK-NEXT: %[[G:.*]] = "dit.gelu"(%arg0) {approximate = "tanh"} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %[[G]]
func.func @gelu_tanh_half_on_bracket_div(%x: tensor<8xf32>) -> tensor<8xf32> {
  %two = arith.constant dense<2.0> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %three = arith.constant dense<3.0> : tensor<f32>
  %c = arith.constant dense<0.044715> : tensor<f32>
  %k = arith.constant dense<0.7978845608> : tensor<f32>
  %x3 = "dit.pow"(%x, %three) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %cx3 = "dit.mul"(%c, %x3) : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %in = "dit.add"(%cx3, %x) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %z = "dit.mul"(%in, %k) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %t = "dit.tanh"(%z) : (tensor<8xf32>) -> tensor<8xf32>
  %p = "dit.add"(%t, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %q = "dit.div"(%p, %two) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %g = "dit.mul"(%q, %x) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

// 0.25·x·(1 + erf(x/√2)) is half a GELU: nothing fires.
// CHECK-LABEL: func.func @gelu_erf_quarter
// CHECK: "dit.erf"
// CHECK-NOT: "dit.gelu"
func.func @gelu_erf_quarter(%x: tensor<8xf32>) -> tensor<8xf32> {
  %quarter = arith.constant dense<0.25> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %r2 = arith.constant dense<1.41421356> : tensor<f32>
  %hx = "dit.mul"(%x, %quarter) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %s = "dit.div"(%x, %r2) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e = "dit.erf"(%s) : (tensor<8xf32>) -> tensor<8xf32>
  %p = "dit.add"(%e, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %g = "dit.mul"(%hx, %p) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

// y·0.5·(1 + erf(x/√2)): the erf reads another variable.
// CHECK-LABEL: func.func @gelu_erf_other_variable
// CHECK: "dit.erf"
// CHECK-NOT: "dit.gelu"
func.func @gelu_erf_other_variable(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %half = arith.constant dense<0.5> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %r2 = arith.constant dense<1.41421356> : tensor<f32>
  %hy = "dit.mul"(%y, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %s = "dit.div"(%x, %r2) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e = "dit.erf"(%s) : (tensor<8xf32>) -> tensor<8xf32>
  %p = "dit.add"(%e, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %g = "dit.mul"(%hy, %p) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

// An extra factor, gelu(x)·y written as one product: the product as a whole is no GELU, and
// its GELU part is not a value of its own to raise.
// CHECK-LABEL: func.func @gelu_erf_extra_factor
// CHECK: "dit.erf"
// CHECK-NOT: "dit.gelu"
func.func @gelu_erf_extra_factor(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %half = arith.constant dense<0.5> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %r2 = arith.constant dense<1.41421356> : tensor<f32>
  %xy = "dit.mul"(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %s = "dit.div"(%x, %r2) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e = "dit.erf"(%s) : (tensor<8xf32>) -> tensor<8xf32>
  %p = "dit.add"(%e, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h = "dit.mul"(%xy, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %g = "dit.mul"(%h, %p) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

// The halved x is used elsewhere too: raising would lose it.
// CHECK-LABEL: func.func @gelu_erf_shared_half
// CHECK: "dit.erf"
// CHECK-NOT: "dit.gelu"
func.func @gelu_erf_shared_half(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %half = arith.constant dense<0.5> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %r2 = arith.constant dense<1.41421356> : tensor<f32>
  %hx = "dit.mul"(%x, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %s = "dit.div"(%x, %r2) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e = "dit.erf"(%s) : (tensor<8xf32>) -> tensor<8xf32>
  %p = "dit.add"(%e, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %g = "dit.mul"(%hx, %p) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %g, %hx : tensor<8xf32>, tensor<8xf32>
}
