// What `--emit=ascendc` refuses, with the op and the reason at the group's location: dit.pow,
// element types other than f32/f16/bf16, and (with a 4 KiB Unified Buffer) a group of which
// not even one row fits and that cannot be cut into column chunks; and a missing output
// directory.
// RUN: not dit-opt %s --emit=ascendc -o %t 2>&1 | FileCheck %s
// RUN: not dit-opt %s --emit=ascendc -o %t --target=%S/../Transforms/Inputs/tiny-ub.toml 2>&1 | FileCheck %s --check-prefix=TINY
// RUN: not dit-opt %s --emit=ascendc 2>&1 | FileCheck %s --check-prefix=NODIR

// CHECK: ascendc-errors.mlir:[[@LINE+3]]:{{[0-9]+}}: error: --emit=ascendc: kernel fused_pow_0: %2 = dit.pow: dit.pow is not generated
// TINY: ascendc-errors.mlir:[[@LINE+2]]:{{[0-9]+}}: error: --emit=ascendc: kernel fused_pow_0
func.func @pow(%x: tensor<4x16xf32>, %y: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = "dit.fused"(%x, %y) ({
  ^bb0(%a: tensor<4x16xf32>, %b: tensor<4x16xf32>):
    %1 = "dit.pow"(%a, %b) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    "dit.yield"(%1) : (tensor<4x16xf32>) -> ()
  }) {kernel = "fused_pow_0"} : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// CHECK: ascendc-errors.mlir:[[@LINE+2]]:{{[0-9]+}}: error: --emit=ascendc: kernel fused_int_0: input #0 is i32: generated kernels take f32, f16 and bf16
func.func @int(%x: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = "dit.fused"(%x) ({
  ^bb0(%a: tensor<4x16xi32>):
    %1 = "dit.neg"(%a) : (tensor<4x16xi32>) -> tensor<4x16xi32>
    "dit.yield"(%1) : (tensor<4x16xi32>) -> ()
  }) {kernel = "fused_int_0"} : (tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}

// The default target's 192 KiB hold rows of 4096 f32; 4 KiB do not. An elementwise group is
// then cut into column chunks; a norm, which needs whole rows, is refused.
// CHECK-NOT: fused_wide
// TINY-NOT: fused_wide_mul_0
// TINY: ascendc-errors.mlir:[[@LINE+11]]:{{[0-9]+}}: error: --emit=ascendc: kernel fused_wide_norm_0 stage 0: one row needs {{[0-9]+}} bytes of UB ({{[0-9]+}} fixed + {{[0-9]+}} per row), the Unified Buffer has 4096
func.func @wide_mul(%x: tensor<4x4096xf32>, %y: tensor<4x4096xf32>) -> tensor<4x4096xf32> {
  %0 = "dit.fused"(%x, %y) ({
  ^bb0(%a: tensor<4x4096xf32>, %b: tensor<4x4096xf32>):
    %1 = "dit.mul"(%a, %b) : (tensor<4x4096xf32>, tensor<4x4096xf32>) -> tensor<4x4096xf32>
    "dit.yield"(%1) : (tensor<4x4096xf32>) -> ()
  }) {kernel = "fused_wide_mul_0"} : (tensor<4x4096xf32>, tensor<4x4096xf32>) -> tensor<4x4096xf32>
  return %0 : tensor<4x4096xf32>
}

func.func @wide_norm(%x: tensor<4x4096xf32>, %g: tensor<4096xf32>) -> tensor<4x4096xf32> {
  %0 = "dit.fused"(%x, %g) ({
  ^bb0(%a: tensor<4x4096xf32>, %b: tensor<4096xf32>):
    %1 = "dit.rms_norm"(%a, %b) {epsilon = 9.99999997E-7 : f32} : (tensor<4x4096xf32>, tensor<4096xf32>) -> tensor<4x4096xf32>
    "dit.yield"(%1) : (tensor<4x4096xf32>) -> ()
  }) {kernel = "fused_wide_norm_0"} : (tensor<4x4096xf32>, tensor<4096xf32>) -> tensor<4x4096xf32>
  return %0 : tensor<4x4096xf32>
}

// NODIR: error: --emit=ascendc writes a directory: name it with -o DIR
