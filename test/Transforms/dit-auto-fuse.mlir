// RUN: dit-opt %s --split-input-file --dit-auto-fuse | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-auto-fuse | dit-opt --split-input-file > /dev/null
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-auto-fuse{aggressive-level=0})' | FileCheck %s --check-prefix=OFF
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-auto-fuse{exclude-ops=dit.cast})' | FileCheck %s --check-prefix=EXCL
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-auto-fuse{blacklist=dit.exp:dit.mul})' | FileCheck %s --check-prefix=BLACK
// RUN: dit-opt %s --split-input-file --dit-auto-fuse --target=%S/Inputs/tiny-ub.toml | FileCheck %s --check-prefix=TINY
// RUN: dit-opt %s --split-input-file --dit-auto-fuse --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not dit-opt %s --pass-pipeline='builtin.module(dit-auto-fuse{aggressive-level=3})' 2>&1 | FileCheck %s --check-prefix=BADLEVEL
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-auto-fuse{aggressive-level=1})' | FileCheck %s --check-prefix=L1

// BADLEVEL: aggressive-level must be 0, 1 or 2, got '3'

// A straight chain of vector ops becomes one kernel.
// CHECK-LABEL: func.func @straight_chain
// CHECK: %[[F:.*]] = "dit.fused"(%arg0, %arg1) ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<16x64xf32>, %[[B:.*]]: tensor<16x64xf32>):
// CHECK-NEXT: "dit.exp"(%[[A]])
// CHECK-NEXT: "dit.mul"
// CHECK-NEXT: "dit.cast"
// CHECK-NEXT: "dit.yield"
// CHECK-NEXT: }) {kernel = "fused_straight_chain_0"} : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xbf16>
// CHECK-NEXT: return %[[F]]
// OFF-LABEL: func.func @straight_chain
// OFF-NOT: "dit.fused"
// EXCL-LABEL: func.func @straight_chain
// EXCL: "dit.fused"
// EXCL: "dit.yield"
// EXCL: "dit.cast"
// BLACK-LABEL: func.func @straight_chain
// BLACK: "dit.exp"
// BLACK: "dit.fused"
// REPORT: applied at {{.*}}: fused_straight_chain_0: exp -> mul -> cast (3 ops)
func.func @straight_chain(%x: tensor<16x64xf32>, %y: tensor<16x64xf32>) -> tensor<16x64xbf16> {
  %e = "dit.exp"(%x) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = "dit.mul"(%e, %y) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %c = "dit.cast"(%m) : (tensor<16x64xf32>) -> tensor<16x64xbf16>
  return %c : tensor<16x64xbf16>
}

// -----

// Level 1: a value with two users ends the chain (it goes through DDR either way).
// L1-LABEL: func.func @branch_ends_chain
// L1: %[[E:.*]] = "dit.exp"(%arg0)
// L1: "dit.fused"(%[[E]]
// L1: "dit.fused"(%[[E]]
// Level 2 (the default): exp reads no more than it writes, so each branch recomputes it and
// both chains start from x; the exp's DDR round trip and its kernel are gone.
// CHECK-LABEL: func.func @branch_ends_chain
// CHECK-NOT: "dit.exp"(%arg0) :
// CHECK: "dit.fused"(%arg0)
// CHECK: "dit.exp"
// CHECK: "dit.fused"(%arg0)
// CHECK: "dit.exp"
// REPORT: recomputed dit.exp for each of its 2 users instead of a DDR round trip (level 2)
func.func @branch_ends_chain(%x: tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %e = "dit.exp"(%x) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %a = "dit.neg"(%e) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %a2 = "dit.tanh"(%a) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %b = "dit.sigmoid"(%e) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %b2 = "dit.sqrt"(%b) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  return %a2, %b2 : tensor<16x64xf32>, tensor<16x64xf32>
}

// -----

// A Cube op is never grouped with vector ops: the linear stays, its epilogue fuses on its own.
// CHECK-LABEL: func.func @cube_not_mixed
// CHECK: %[[L:.*]] = "dit.linear"
// CHECK: "dit.fused"(%[[L]]
// CHECK-NOT: "dit.linear"
// CHECK: "dit.yield"
func.func @cube_not_mixed(%x: tensor<16x64xbf16>, %w: tensor<32x64xbf16>, %r: tensor<16x32xbf16>) -> tensor<16x32xbf16> {
  %l = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x64xbf16>, tensor<32x64xbf16>) -> tensor<16x32xbf16>
  %s = "dit.sigmoid"(%l) : (tensor<16x32xbf16>) -> tensor<16x32xbf16>
  %a = "dit.add"(%s, %r) : (tensor<16x32xbf16>, tensor<16x32xbf16>) -> tensor<16x32xbf16>
  return %a : tensor<16x32xbf16>
}

// -----

// With a 4 KiB UB, six live f32 rows of 64 (256 B each, double buffered) do not all fit: the
// chain is cut in block order into kernels that do.
// TINY-LABEL: func.func @ub_split
// TINY-COUNT-2: "dit.fused"
// CHECK-LABEL: func.func @ub_split
// CHECK-COUNT-1: "dit.fused"
func.func @ub_split(%x: tensor<16x64xf32>, %y: tensor<16x64xf32>, %z: tensor<16x64xf32>, %w: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %a = "dit.mul"(%x, %y) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %b = "dit.add"(%a, %z) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %c = "dit.mul"(%b, %w) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %d = "dit.exp"(%c) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %e = "dit.tanh"(%d) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %f = "dit.neg"(%e) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  return %f : tensor<16x64xf32>
}

// -----

// A broadcast add of a large tensor with a small one saves too little to be worth a kernel:
// the fused intermediate is 1 KiB, the add moves 129 KiB anyway.
// CHECK-LABEL: func.func @too_little_benefit
// CHECK-NOT: "dit.fused"
// REPORT: skipped at {{.*}}: 2 ops would save 2% of their DDR bytes, below min-benefit 20%
func.func @too_little_benefit(%big: tensor<64x256xf32>, %s: tensor<1x256xf32>) -> tensor<64x256xf32> {
  %n = "dit.neg"(%s) : (tensor<1x256xf32>) -> tensor<1x256xf32>
  %m = "dit.add"(%big, %n) : (tensor<64x256xf32>, tensor<1x256xf32>) -> tensor<64x256xf32>
  return %m : tensor<64x256xf32>
}
