// The numerical check catches a wrong fusion. Here the "fused" graph is what a pattern that
// ignores the halves order would produce: dit.swiglu gates with the FIRST half, the reference
// gates with the second. Same shapes, same kernels count, wrong values: dit-run fails.
// RUN: not dit-run %s --reference=%S/Inputs/gate-second-half.mlir > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.out
// RUN: FileCheck %s --input-file=%t.err --check-prefix=ERR
// The right fusion (swap the halves first) passes against the same reference.
// RUN: dit-run %S/Inputs/swapped-then-fused.mlir --reference=%S/Inputs/gate-second-half.mlir | FileCheck %s --check-prefix=RIGHT
// And --fuse-all on the reference itself shows the shipped patterns keep the order (they make
// dit.silu_mul(second half, first half) here, one generated kernel, which dit-auto-fuse opens
// with the split: it reads the halves in place as column windows of the input).
// RUN: dit-run %S/Inputs/gate-second-half.mlir --compare-unfused | FileCheck %s --check-prefix=FUSEALL

// CHECK: output 0 bf16[4,32]: max abs error {{.*}}, cosine {{.*}} FAIL (cosine < 1 - 2^-7)
// ERR: wrong-fusion.mlir:1:1: error: @swiglu: input disagrees with the reference: output 0: cosine
// RIGHT: output 0 bf16[4,32]: max abs error {{.*}} ok
// FUSEALL: @swiglu: reference 3 kernels, fuse-all 1 kernels (1 launches per call
// FUSEALL: output 0 bf16[4,32]: {{.*}} ok
func.func @swiglu(%x: tensor<4x64xbf16>) -> tensor<4x32xbf16> {
  %y = "dit.swiglu"(%x) {dim = 1 : i64} : (tensor<4x64xbf16>) -> tensor<4x32xbf16>
  return %y : tensor<4x32xbf16>
}
