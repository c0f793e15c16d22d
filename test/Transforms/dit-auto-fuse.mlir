// RUN: dit-opt %s --split-input-file --dit-auto-fuse | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-auto-fuse | dit-opt --split-input-file > /dev/null
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-auto-fuse{aggressive-level=0})' | FileCheck %s --check-prefix=OFF
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-auto-fuse{exclude-ops=dit.cast})' | FileCheck %s --check-prefix=EXCL
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-auto-fuse{blacklist=dit.exp:dit.mul})' | FileCheck %s --check-prefix=BLACK
// RUN: dit-opt %s --split-input-file --dit-auto-fuse --target=%S/Inputs/tiny-ub.toml | FileCheck %s --check-prefix=TINY
// RUN: dit-opt %s --split-input-file --dit-auto-fuse --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not dit-opt %s --pass-pipeline='builtin.module(dit-auto-fuse{aggressive-level=3})' 2>&1 | FileCheck %s --check-prefix=BADLEVEL
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-auto-fuse{aggressive-level=1})' | FileCheck %s --check-prefix=L1
// Numerical check (issue 6): the unfused and transformed graphs on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused --pipeline='builtin.module(dit-auto-fuse)' > /dev/null
// RUN: dit-run %s --split-input-file --compare-unfused --pipeline='builtin.module(dit-auto-fuse{aggressive-level=1})' > /dev/null
// RUN: dit-run %s --split-input-file --compare-unfused --pipeline='builtin.module(dit-auto-fuse)' --target=%S/Inputs/tiny-ub.toml > /dev/null

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
// REPORT: applied at {{.*}}: fused_straight_chain_0: exp -> mul -> cast (3 ops, 1 output)
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
// Level 2 (the default): both branches end in one kernel with two outputs; exp is computed
// once inside it (the per-branch copies of the recompute step are the same computation there).
// CHECK-LABEL: func.func @branch_ends_chain
// CHECK-NOT: "dit.exp"(%arg0) :
// CHECK: %[[F:.*]]:2 = "dit.fused"(%arg0)
// CHECK-COUNT-1: "dit.exp"
// CHECK-NOT: "dit.exp"
// CHECK: "dit.yield"
// CHECK: return %[[F]]#0, %[[F]]#1
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

// -----

// Level 2 recomputes a cheap producer per branch when the branches cannot share a kernel: the
// linear between them is a Cube op. Each kernel starts from x; exp's DDR round trip is gone.
// CHECK-LABEL: func.func @recompute_across_cube
// CHECK: %[[A:.*]] = "dit.fused"(%arg0)
// CHECK: "dit.exp"
// CHECK: "dit.neg"
// CHECK: %[[L:.*]] = "dit.linear"(%[[A]]
// CHECK: "dit.fused"(%arg0, %[[L]])
// CHECK: "dit.exp"
// CHECK: "dit.add"
// L1-LABEL: func.func @recompute_across_cube
// L1: %[[E:.*]] = "dit.exp"(%arg0)
// REPORT: recomputed dit.exp for each of its 2 users instead of a DDR round trip (level 2)
func.func @recompute_across_cube(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %e = "dit.exp"(%x) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %a = "dit.neg"(%e) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %l = "dit.linear"(%a, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
  %b = "dit.add"(%e, %l) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  return %b : tensor<16x64xf32>
}

// -----

// Level 2: a value that is needed later anyway (a residual) stays in the group as an extra
// output, so the norm reading it joins the kernel and does not read it back. Level 1 ends the
// chain at the branch.
// CHECK-LABEL: func.func @extra_output
// CHECK: %[[F:.*]]:2 = "dit.fused"
// CHECK: "dit.mul"
// CHECK: %[[R:.*]] = "dit.add"
// CHECK: %[[N:.*]] = "dit.rms_norm"(%[[R]]
// CHECK: "dit.yield"(%[[R]], %[[N]])
// CHECK: "dit.linear"(%[[F]]#1
// CHECK: "dit.add"(%[[F]]#0
// L1-LABEL: func.func @extra_output
// L1: %[[R:.*]] = "dit.fused"
// L1: "dit.rms_norm"(%[[R]]
// REPORT: fused_extra_output_0: mul -> add -> rms_norm (3 ops, 2 outputs)
func.func @extra_output(%x: tensor<16x64xbf16>, %g: tensor<1x64xbf16>, %r: tensor<16x64xbf16>, %gamma: tensor<64xbf16>, %w: tensor<64x64xbf16>) -> tensor<16x64xbf16> {
  %m = "dit.mul"(%x, %g) : (tensor<16x64xbf16>, tensor<1x64xbf16>) -> tensor<16x64xbf16>
  %res = "dit.add"(%r, %m) : (tensor<16x64xbf16>, tensor<16x64xbf16>) -> tensor<16x64xbf16>
  %n = "dit.rms_norm"(%res, %gamma) {epsilon = 1.0e-6 : f32} : (tensor<16x64xbf16>, tensor<64xbf16>) -> tensor<16x64xbf16>
  %l = "dit.linear"(%n, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x64xbf16>, tensor<64x64xbf16>) -> tensor<16x64xbf16>
  %o = "dit.add"(%res, %l) : (tensor<16x64xbf16>, tensor<16x64xbf16>) -> tensor<16x64xbf16>
  return %o : tensor<16x64xbf16>
}

// -----

// Level 2: the q and k epilogues (norm, rope) read slices of the same projection output and
// the same rotary tables, and neither depends on the other: one kernel, two outputs. Level 1
// keeps one kernel per chain. At level 2 the kernel also reads q and k in place: the split
// and the reshapes to heads join it (each head a 64-wide row of the projection's rows); at
// level 1 the k piece is read outside before the q kernel, so the split stays a copy.
// CHECK-LABEL: func.func @siblings
// CHECK: %[[P:.*]] = "dit.linear"
// CHECK-NEXT: %[[F:.*]]:2 = "dit.fused"(%[[P]],
// CHECK: "dit.split"
// CHECK-COUNT-2: "dit.reshape"
// CHECK-COUNT-2: "dit.rope"
// CHECK: "dit.attention"(%[[F]]#0, %[[F]]#1
// L1-LABEL: func.func @siblings
// L1: "dit.split"
// L1-COUNT-2: "dit.fused"
// REPORT: fused_siblings_0: split -> reshape -> reshape -> rms_norm -> rope -> rms_norm -> rope (7 ops, 2 outputs, 2 sibling kernels reading the same tensors in one launch)
func.func @siblings(%x: tensor<1x8x128xbf16>, %w: tensor<256x128xbf16>, %gq: tensor<64xbf16>, %cos: tensor<1x8x1x64xf32>, %sin: tensor<1x8x1x64xf32>, %gk: tensor<64xbf16>, %v: tensor<1x8x2x64xbf16>) -> tensor<1x8x2x64xbf16> {
  %p = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x8x128xbf16>, tensor<256x128xbf16>) -> tensor<1x8x256xbf16>
  %q0, %k0 = "dit.split"(%p) {dim = 2 : i64, sizes = array<i64: 128, 128>} : (tensor<1x8x256xbf16>) -> (tensor<1x8x128xbf16>, tensor<1x8x128xbf16>)
  %q1 = "dit.reshape"(%q0) : (tensor<1x8x128xbf16>) -> tensor<1x8x2x64xbf16>
  %k1 = "dit.reshape"(%k0) : (tensor<1x8x128xbf16>) -> tensor<1x8x2x64xbf16>
  %qn = "dit.rms_norm"(%q1, %gq) {epsilon = 1.0e-6 : f32} : (tensor<1x8x2x64xbf16>, tensor<64xbf16>) -> tensor<1x8x2x64xbf16>
  %qr = "dit.rope"(%qn, %cos, %sin) {mode = "half"} : (tensor<1x8x2x64xbf16>, tensor<1x8x1x64xf32>, tensor<1x8x1x64xf32>) -> tensor<1x8x2x64xbf16>
  %kn = "dit.rms_norm"(%k1, %gk) {epsilon = 1.0e-6 : f32} : (tensor<1x8x2x64xbf16>, tensor<64xbf16>) -> tensor<1x8x2x64xbf16>
  %kr = "dit.rope"(%kn, %cos, %sin) {mode = "half"} : (tensor<1x8x2x64xbf16>, tensor<1x8x1x64xf32>, tensor<1x8x1x64xf32>) -> tensor<1x8x2x64xbf16>
  %o = "dit.attention"(%qr, %kr, %v) {scale = 0.125 : f32, layout = "BSND", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x8x2x64xbf16>, tensor<1x8x2x64xbf16>, tensor<1x8x2x64xbf16>) -> tensor<1x8x2x64xbf16>
  return %o : tensor<1x8x2x64xbf16>
}

// -----

// The rope fusion's table casts are load-time re-layouts (cost::placement puts them in the init
// entry): grouped, they would run on every call, so the group starts at the rope.
// CHECK-LABEL: func.func @auto_fuse_prepack_cast
// CHECK-NEXT: %[[C:.*]] = "dit.cast"(%arg1)
// CHECK-NEXT: %[[S:.*]] = "dit.cast"(%arg2)
// CHECK-NEXT: "dit.fused"(%arg0, %[[C]], %[[S]])
// CHECK-NEXT: ^bb0
// CHECK-NEXT: "dit.rope"
// CHECK-NEXT: "dit.exp"
func.func @auto_fuse_prepack_cast(%x: tensor<2x8x32xbf16>, %cos: tensor<8x32xf32>, %sin: tensor<8x32xf32>) -> tensor<2x8x32xbf16> {
  %c = "dit.cast"(%cos) : (tensor<8x32xf32>) -> tensor<8x32xbf16>
  %s = "dit.cast"(%sin) : (tensor<8x32xf32>) -> tensor<8x32xbf16>
  %r = "dit.rope"(%x, %c, %s) {mode = "half"} : (tensor<2x8x32xbf16>, tensor<8x32xbf16>, tensor<8x32xbf16>) -> tensor<2x8x32xbf16>
  %e = "dit.exp"(%r) : (tensor<2x8x32xbf16>) -> tensor<2x8x32xbf16>
  return %e : tensor<2x8x32xbf16>
}

// -----

// The UB check is the Ascend C generator's: six live f32 rows of 5120 (40 KiB each, double
// buffered: 240 KiB) do not fit the 192 KiB UB as whole rows, which the per-tensor row model
// cut into two kernels; every op works column by column, so the generator cuts the rows into
// column chunks and one kernel holds the chain (Wan2.1's f32 residual chains).
// CHECK-LABEL: func.func @wide_rows_in_column_chunks
// CHECK-COUNT-1: "dit.fused"
// CHECK-NOT: "dit.fused"
// CHECK: return
// REPORT: applied at {{.*}}dit-auto-fuse.mlir:[[@LINE+6]]:8: fused_wide_rows_in_column_chunks_0: mul -> add -> mul -> exp -> neg (5 ops, 1 output), UB {{[0-9]+}} B at the smallest tile
func.func @wide_rows_in_column_chunks(%x: tensor<4x5120xf32>, %y: tensor<4x5120xf32>, %z: tensor<4x5120xf32>, %w: tensor<4x5120xf32>) -> tensor<4x5120xf32> {
  %a = "dit.mul"(%x, %y) : (tensor<4x5120xf32>, tensor<4x5120xf32>) -> tensor<4x5120xf32>
  %b = "dit.add"(%a, %z) : (tensor<4x5120xf32>, tensor<4x5120xf32>) -> tensor<4x5120xf32>
  %c = "dit.mul"(%b, %w) : (tensor<4x5120xf32>, tensor<4x5120xf32>) -> tensor<4x5120xf32>
  %d = "dit.exp"(%c) : (tensor<4x5120xf32>) -> tensor<4x5120xf32>
  %e = "dit.neg"(%d) : (tensor<4x5120xf32>) -> tensor<4x5120xf32>
  return %e : tensor<4x5120xf32>
}

// -----

// A norm needs whole rows: over 16384-wide f32 rows the same kind of chain does not fit the
// UB even as one row, and the generator cannot cut a reduction into column chunks. The chain
// is cut where the generator can still tile it: the elementwise head is one kernel (in column
// chunks), the norm stays a library kernel.
// CHECK-LABEL: func.func @norm_row_too_wide
// CHECK: %[[F:.*]] = "dit.fused"(%arg0, %arg1, %arg2)
// CHECK: "dit.mul"
// CHECK: "dit.add"
// CHECK-NOT: "dit.rms_norm"
// CHECK: "dit.yield"
// CHECK: "dit.rms_norm"(%[[F]], %arg3)
// REPORT: skipped at {{.*}}dit-auto-fuse.mlir:[[@LINE+4]]:8: 3 ops do not fit the UB as the Ascend C generator tiles them: one row needs {{[0-9]+}} B
func.func @norm_row_too_wide(%x: tensor<2x16384xf32>, %y: tensor<2x16384xf32>, %z: tensor<2x16384xf32>, %g: tensor<16384xf32>) -> tensor<2x16384xf32> {
  %a = "dit.mul"(%x, %y) : (tensor<2x16384xf32>, tensor<2x16384xf32>) -> tensor<2x16384xf32>
  %b = "dit.add"(%a, %z) : (tensor<2x16384xf32>, tensor<2x16384xf32>) -> tensor<2x16384xf32>
  %n = "dit.rms_norm"(%b, %g) {epsilon = 1.0e-6 : f32} : (tensor<2x16384xf32>, tensor<16384xf32>) -> tensor<2x16384xf32>
  return %n : tensor<2x16384xf32>
}

// -----

// A cast of a reshape of a vector op's result moves before the reshape (elementwise ops
// commute with it; both are as costly either way) and joins its producer's kernel: HiDream's
// `rms_norm -> reshape to heads -> cast to f32`. The reshape follows, down at its user.
// CHECK-LABEL: func.func @cast_over_reshape
// CHECK: %[[F:.*]] = "dit.fused"(%arg0, %arg1)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: "dit.rms_norm"
// CHECK-NEXT: "dit.cast"{{.*}} -> tensor<8x256xf32>
// CHECK-NEXT: "dit.yield"
// CHECK: %[[R:.*]] = "dit.reshape"(%[[F]]) : (tensor<8x256xf32>) -> tensor<8x4x64xf32>
// CHECK-NEXT: return %[[R]]
// REPORT: applied at {{.*}}dit-auto-fuse.mlir:[[@LINE+4]]:8: dit.cast moved before the reshape of its operand, into reach of its producer's kernel
func.func @cast_over_reshape(%x: tensor<8x256xbf16>, %g: tensor<256xbf16>) -> tensor<8x4x64xf32> {
  %n = "dit.rms_norm"(%x, %g) {epsilon = 1.0e-6 : f32} : (tensor<8x256xbf16>, tensor<256xbf16>) -> tensor<8x256xbf16>
  %r = "dit.reshape"(%n) : (tensor<8x256xbf16>) -> tensor<8x4x64xbf16>
  %c = "dit.cast"(%r) : (tensor<8x4x64xbf16>) -> tensor<8x4x64xf32>
  return %c : tensor<8x4x64xf32>
}

// -----

// The reshape has another user, so the cast stays where it is (the other user needs the
// value as it was).
// CHECK-LABEL: func.func @reshape_read_twice
// CHECK: %[[N:.*]] = "dit.rms_norm"(%arg0, %arg1)
// CHECK-NEXT: %[[R:.*]] = "dit.reshape"(%[[N]])
// CHECK-NEXT: "dit.cast"(%[[R]])
func.func @reshape_read_twice(%x: tensor<8x256xbf16>, %g: tensor<256xbf16>) -> (tensor<8x4x64xf32>, tensor<8x4x64xbf16>) {
  %n = "dit.rms_norm"(%x, %g) {epsilon = 1.0e-6 : f32} : (tensor<8x256xbf16>, tensor<256xbf16>) -> tensor<8x256xbf16>
  %r = "dit.reshape"(%n) : (tensor<8x256xbf16>) -> tensor<8x4x64xbf16>
  %c = "dit.cast"(%r) : (tensor<8x4x64xbf16>) -> tensor<8x4x64xf32>
  return %c, %r : tensor<8x4x64xf32>, tensor<8x4x64xbf16>
}

// -----

// Wan2.1's residual add and the LayerNorm after it (rows of 5120, widened to f32): one kernel.
// Its f32 gate, gamma and beta come in through a bf16 tile queue a piece at a time instead of
// a 20 KiB staging queue of their own, which is what lets one row fit double-buffered
// (184672 B); with that queue it needed 205152 B and the chain was cut before the LayerNorm.
// CHECK-LABEL: func.func @wan_residual_norm
// CHECK: %[[F:.*]]:2 = "dit.fused"(%arg0, %arg1, %arg2, %arg3, %arg4)
// CHECK: "dit.layer_norm"
// CHECK: "dit.yield"
// CHECK-NEXT: }) {kernel = "fused_wan_residual_norm_0"}
// CHECK-NEXT: return %[[F]]#0, %[[F]]#1
// REPORT: applied at {{.*}}: fused_wan_residual_norm_0: cast -> mul -> cast -> add -> cast -> cast -> layer_norm -> cast (8 ops, 2 outputs), UB 184672 B at the smallest tile, saves
func.func @wan_residual_norm(%x: tensor<1x3x5120xbf16>, %gate: tensor<1x1x5120xf32>, %res: tensor<1x3x5120xbf16>, %w: tensor<5120xf32>, %b: tensor<5120xf32>) -> (tensor<1x3x5120xbf16>, tensor<1x3x5120xbf16>) {
  %0 = "dit.cast"(%x) : (tensor<1x3x5120xbf16>) -> tensor<1x3x5120xf32>
  %1 = "dit.mul"(%0, %gate) : (tensor<1x3x5120xf32>, tensor<1x1x5120xf32>) -> tensor<1x3x5120xf32>
  %2 = "dit.cast"(%res) : (tensor<1x3x5120xbf16>) -> tensor<1x3x5120xf32>
  %3 = "dit.add"(%2, %1) : (tensor<1x3x5120xf32>, tensor<1x3x5120xf32>) -> tensor<1x3x5120xf32>
  %4 = "dit.cast"(%3) : (tensor<1x3x5120xf32>) -> tensor<1x3x5120xbf16>
  %5 = "dit.cast"(%4) : (tensor<1x3x5120xbf16>) -> tensor<1x3x5120xf32>
  %6 = "dit.layer_norm"(%5, %w, %b) {epsilon = 9.99999997E-7 : f32, operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x3x5120xf32>, tensor<5120xf32>, tensor<5120xf32>) -> tensor<1x3x5120xf32>
  %7 = "dit.cast"(%6) : (tensor<1x3x5120xf32>) -> tensor<1x3x5120xbf16>
  return %4, %7 : tensor<1x3x5120xbf16>, tensor<1x3x5120xbf16>
}

// -----

// The same pair with the f32 residual also an output: one more f32 queue, and one row fits
// only single-buffered (164192 B; double-buffered 246112 B). Split at the LayerNorm it would be
// two double-buffered kernels; the performance model says one single-buffered kernel (copy-in,
// compute and copy-out no longer overlap) is faster than the two plus a launch at 3 rows, so
// it is taken.
// CHECK-LABEL: func.func @wan_residual_norm_f32_out
// CHECK: %[[F:.*]]:3 = "dit.fused"(%arg0, %arg1, %arg2, %arg3, %arg4)
// CHECK: "dit.layer_norm"
// CHECK: }) {kernel = "fused_wan_residual_norm_f32_out_0"}
// CHECK-NEXT: return %[[F]]#0, %[[F]]#1, %[[F]]#2
// CHECK-NOT: "dit.fused"
// REPORT: applied at {{.*}}: fused_wan_residual_norm_f32_out_0: cast -> mul -> cast -> add -> cast -> cast -> layer_norm -> cast (8 ops, 3 outputs), UB 164192 B at the smallest tile (single-buffered queues: one row does not fit double-buffered, and the performance model says one such kernel beats the cut)
func.func @wan_residual_norm_f32_out(%x: tensor<1x3x5120xbf16>, %gate: tensor<1x1x5120xf32>, %res: tensor<1x3x5120xbf16>, %w: tensor<5120xf32>, %b: tensor<5120xf32>) -> (tensor<1x3x5120xbf16>, tensor<1x3x5120xf32>, tensor<1x3x5120xbf16>) {
  %0 = "dit.cast"(%x) : (tensor<1x3x5120xbf16>) -> tensor<1x3x5120xf32>
  %1 = "dit.mul"(%0, %gate) : (tensor<1x3x5120xf32>, tensor<1x1x5120xf32>) -> tensor<1x3x5120xf32>
  %2 = "dit.cast"(%res) : (tensor<1x3x5120xbf16>) -> tensor<1x3x5120xf32>
  %3 = "dit.add"(%2, %1) : (tensor<1x3x5120xf32>, tensor<1x3x5120xf32>) -> tensor<1x3x5120xf32>
  %4 = "dit.cast"(%3) : (tensor<1x3x5120xf32>) -> tensor<1x3x5120xbf16>
  %5 = "dit.cast"(%4) : (tensor<1x3x5120xbf16>) -> tensor<1x3x5120xf32>
  %6 = "dit.layer_norm"(%5, %w, %b) {epsilon = 9.99999997E-7 : f32, operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x3x5120xf32>, tensor<5120xf32>, tensor<5120xf32>) -> tensor<1x3x5120xf32>
  %7 = "dit.cast"(%6) : (tensor<1x3x5120xf32>) -> tensor<1x3x5120xbf16>
  return %4, %5, %7 : tensor<1x3x5120xbf16>, tensor<1x3x5120xf32>, tensor<1x3x5120xbf16>
}
