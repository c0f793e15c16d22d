// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=rope | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=rope | dit-opt --split-input-file > /dev/null
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=rope --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=rope --dit-lower-to-aclnn | FileCheck %s --check-prefix=LOWER
// Numerical check (issue 6): the unfused and transformed graphs on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused > /dev/null

// ----- enable_rope: x·cos + rotate(x)·sin == rope(x, cos, sin){mode} -----

// diffusers' apply_rotary_emb (use_real, unbind -1) as FLUX runs it: pairs via reshape + split,
// stack(-imag, real), flatten, products in f32, cast back. The tables are f32 and x is bf16:
// aclnnRotaryPositionEmbedding takes cos and sin in x's dtype only (rule rope.cos_dtype, issue
// 12). They are function arguments, so the rewrite casts them to bf16, a cast the load-time
// pre-pack (@f_init) runs once: two casts at load, one kernel per call.
// CHECK-LABEL: func.func @rope_interleave_split
// CHECK-NEXT: %[[C:.*]] = "dit.cast"(%arg1) : (tensor<1x1x8x16xf32>) -> tensor<1x1x8x16xbf16>
// CHECK-NEXT: %[[S:.*]] = "dit.cast"(%arg2) : (tensor<1x1x8x16xf32>) -> tensor<1x1x8x16xbf16>
// CHECK-NEXT: %[[R:.*]] = "dit.rope"(%arg0, %[[C]], %[[S]]) {mode = "interleave"} : (tensor<1x2x8x16xbf16>, tensor<1x1x8x16xbf16>, tensor<1x1x8x16xbf16>) -> tensor<1x2x8x16xbf16>
// CHECK-NEXT: return %[[R]]
// REPORT: applied at {{.*}}rope.mlir:[[@LINE+26]]:10: (x * cos + rotate(x) * sin) -> dit.rope (cos/sin cast to bf16 once at load: rule rope.cos_dtype)
// REPORT-NEXT: kernels: 9 before, 1 after
// REPORT-NEXT: pre-pack (init entry, once at load): 2 kernels
// LOWER: llvm.mlir.global private constant @[[CAST:__dit_str_[0-9]+]]("aclnnCast\00")
// LOWER-LABEL: func.func @rope_interleave_split_init(
// LOWER-SAME: dit.launches = 2 : i64
// LOWER: llvm.mlir.addressof @[[CAST]]
// LOWER-LABEL: func.func @rope_interleave_split(
// LOWER-SAME: dit.launches = 1 : i64
// LOWER-NOT: @[[CAST]]
// LOWER: func.func private @dit_rt_wrap
func.func @rope_interleave_split(%x: tensor<1x2x8x16xbf16>, %cos: tensor<1x1x8x16xf32>, %sin: tensor<1x1x8x16xf32>) -> tensor<1x2x8x16xbf16> {
  %pairs = "dit.reshape"(%x) : (tensor<1x2x8x16xbf16>) -> tensor<1x2x8x8x2xbf16>
  %re1, %im1 = "dit.split"(%pairs) {dim = 4 : i64, sizes = array<i64: 1, 1>} : (tensor<1x2x8x8x2xbf16>) -> (tensor<1x2x8x8x1xbf16>, tensor<1x2x8x8x1xbf16>)
  %re = "dit.reshape"(%re1) : (tensor<1x2x8x8x1xbf16>) -> tensor<1x2x8x8xbf16>
  %im = "dit.reshape"(%im1) : (tensor<1x2x8x8x1xbf16>) -> tensor<1x2x8x8xbf16>
  %nim = "dit.neg"(%im) : (tensor<1x2x8x8xbf16>) -> tensor<1x2x8x8xbf16>
  %s0 = "dit.reshape"(%nim) : (tensor<1x2x8x8xbf16>) -> tensor<1x2x8x8x1xbf16>
  %s1 = "dit.reshape"(%re) : (tensor<1x2x8x8xbf16>) -> tensor<1x2x8x8x1xbf16>
  %st = "dit.concat"(%s0, %s1) {dim = 4 : i64} : (tensor<1x2x8x8x1xbf16>, tensor<1x2x8x8x1xbf16>) -> tensor<1x2x8x8x2xbf16>
  %rot = "dit.reshape"(%st) : (tensor<1x2x8x8x2xbf16>) -> tensor<1x2x8x16xbf16>
  %xf = "dit.cast"(%x) : (tensor<1x2x8x16xbf16>) -> tensor<1x2x8x16xf32>
  %xc = "dit.mul"(%xf, %cos) : (tensor<1x2x8x16xf32>, tensor<1x1x8x16xf32>) -> tensor<1x2x8x16xf32>
  %rf = "dit.cast"(%rot) : (tensor<1x2x8x16xbf16>) -> tensor<1x2x8x16xf32>
  %rs = "dit.mul"(%rf, %sin) : (tensor<1x2x8x16xf32>, tensor<1x1x8x16xf32>) -> tensor<1x2x8x16xf32>
  %sum = "dit.add"(%xc, %rs) : (tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %out = "dit.cast"(%sum) : (tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xbf16>
  return %out : tensor<1x2x8x16xbf16>
}

// -----

// The same with tables computed per call (exp of an argument stands in for cos/sin of positions
// the step computes): a cast would be a kernel on every call, so the pattern is left alone and
// the report names the rule.
// CHECK-LABEL: func.func @rope_interleave_split_tables_per_call
// CHECK-NOT: "dit.rope"
// REPORT: skipped at {{.*}}rope.mlir:[[@LINE+17]]:10: rule rope.cos_dtype: cos is f32, x is bf16: the kernel takes them alike (aclnn error 161002; [ops-transformer] posembedding/rotary_position_embedding/docs/aclnnRotaryPositionEmbedding.md {{.*}}); cos and sin are computed per call
func.func @rope_interleave_split_tables_per_call(%x: tensor<1x2x8x16xbf16>, %theta: tensor<1x1x8x16xf32>, %sin: tensor<1x1x8x16xf32>) -> tensor<1x2x8x16xbf16> {
  %cos = "dit.exp"(%theta) : (tensor<1x1x8x16xf32>) -> tensor<1x1x8x16xf32>
  %pairs = "dit.reshape"(%x) : (tensor<1x2x8x16xbf16>) -> tensor<1x2x8x8x2xbf16>
  %re1, %im1 = "dit.split"(%pairs) {dim = 4 : i64, sizes = array<i64: 1, 1>} : (tensor<1x2x8x8x2xbf16>) -> (tensor<1x2x8x8x1xbf16>, tensor<1x2x8x8x1xbf16>)
  %re = "dit.reshape"(%re1) : (tensor<1x2x8x8x1xbf16>) -> tensor<1x2x8x8xbf16>
  %im = "dit.reshape"(%im1) : (tensor<1x2x8x8x1xbf16>) -> tensor<1x2x8x8xbf16>
  %nim = "dit.neg"(%im) : (tensor<1x2x8x8xbf16>) -> tensor<1x2x8x8xbf16>
  %s0 = "dit.reshape"(%nim) : (tensor<1x2x8x8xbf16>) -> tensor<1x2x8x8x1xbf16>
  %s1 = "dit.reshape"(%re) : (tensor<1x2x8x8xbf16>) -> tensor<1x2x8x8x1xbf16>
  %st = "dit.concat"(%s0, %s1) {dim = 4 : i64} : (tensor<1x2x8x8x1xbf16>, tensor<1x2x8x8x1xbf16>) -> tensor<1x2x8x8x2xbf16>
  %rot = "dit.reshape"(%st) : (tensor<1x2x8x8x2xbf16>) -> tensor<1x2x8x16xbf16>
  %xf = "dit.cast"(%x) : (tensor<1x2x8x16xbf16>) -> tensor<1x2x8x16xf32>
  %xc = "dit.mul"(%xf, %cos) : (tensor<1x2x8x16xf32>, tensor<1x1x8x16xf32>) -> tensor<1x2x8x16xf32>
  %rf = "dit.cast"(%rot) : (tensor<1x2x8x16xbf16>) -> tensor<1x2x8x16xf32>
  %rs = "dit.mul"(%rf, %sin) : (tensor<1x2x8x16xf32>, tensor<1x1x8x16xf32>) -> tensor<1x2x8x16xf32>
  %sum = "dit.add"(%xc, %rs) : (tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %out = "dit.cast"(%sum) : (tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xbf16>
  return %out : tensor<1x2x8x16xbf16>
}

// -----

// rotate_half with f16 x and one f32 table argument for both cos and sin, broadcast to
// [8, 32] (a view): one cast of the broadcast table serves both slots, in the pre-pack.
// CHECK-LABEL: func.func @rope_half_shared_table_broadcast
// CHECK-NEXT: %[[B:.*]] = "dit.broadcast"(%arg1)
// CHECK-NEXT: %[[T:.*]] = "dit.cast"(%[[B]]) : (tensor<8x32xf32>) -> tensor<8x32xf16>
// CHECK-NEXT: %[[R:.*]] = "dit.rope"(%arg0, %[[T]], %[[T]]) {mode = "half"} : (tensor<2x8x32xf16>, tensor<8x32xf16>, tensor<8x32xf16>) -> tensor<2x8x32xf16>
// CHECK-NEXT: return %[[R]]
// REPORT: applied at {{.*}}rope.mlir:[[@LINE+13]]:10: (x * cos + rotate(x) * sin) -> dit.rope (cos/sin cast to f16 once at load: rule rope.cos_dtype)
// REPORT-NEXT: kernels: {{[0-9]+}} before, 1 after
// REPORT-NEXT: pre-pack (init entry, once at load): 1 kernel,
func.func @rope_half_shared_table_broadcast(%x: tensor<2x8x32xf16>, %t: tensor<1x32xf32>) -> tensor<2x8x32xf16> {
  %tb = "dit.broadcast"(%t) : (tensor<1x32xf32>) -> tensor<8x32xf32>
  %x1, %x2 = "dit.split"(%x) {dim = 2 : i64, sizes = array<i64: 16, 16>} : (tensor<2x8x32xf16>) -> (tensor<2x8x16xf16>, tensor<2x8x16xf16>)
  %n2 = "dit.neg"(%x2) : (tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  %rot = "dit.concat"(%n2, %x1) {dim = -1 : i64} : (tensor<2x8x16xf16>, tensor<2x8x16xf16>) -> tensor<2x8x32xf16>
  %xf = "dit.cast"(%x) : (tensor<2x8x32xf16>) -> tensor<2x8x32xf32>
  %xc = "dit.mul"(%xf, %tb) : (tensor<2x8x32xf32>, tensor<8x32xf32>) -> tensor<2x8x32xf32>
  %rf = "dit.cast"(%rot) : (tensor<2x8x32xf16>) -> tensor<2x8x32xf32>
  %rs = "dit.mul"(%rf, %tb) : (tensor<2x8x32xf32>, tensor<8x32xf32>) -> tensor<2x8x32xf32>
  %sum = "dit.add"(%xc, %rs) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  %out = "dit.cast"(%sum) : (tensor<2x8x32xf32>) -> tensor<2x8x32xf16>
  return %out : tensor<2x8x32xf16>
}

// -----

// The same rotation with bf16 tables and products in bf16: one aclnnRotaryPositionEmbedding.
// CHECK-LABEL: func.func @rope_interleave_split_bf16
// CHECK-NEXT: %[[R:.*]] = "dit.rope"(%arg0, %arg1, %arg2) {mode = "interleave"} : (tensor<1x2x8x16xbf16>, tensor<1x1x8x16xbf16>, tensor<1x1x8x16xbf16>) -> tensor<1x2x8x16xbf16>
// CHECK-NEXT: return %[[R]]
func.func @rope_interleave_split_bf16(%x: tensor<1x2x8x16xbf16>, %cos: tensor<1x1x8x16xbf16>, %sin: tensor<1x1x8x16xbf16>) -> tensor<1x2x8x16xbf16> {
  %pairs = "dit.reshape"(%x) : (tensor<1x2x8x16xbf16>) -> tensor<1x2x8x8x2xbf16>
  %re1, %im1 = "dit.split"(%pairs) {dim = 4 : i64, sizes = array<i64: 1, 1>} : (tensor<1x2x8x8x2xbf16>) -> (tensor<1x2x8x8x1xbf16>, tensor<1x2x8x8x1xbf16>)
  %re = "dit.reshape"(%re1) : (tensor<1x2x8x8x1xbf16>) -> tensor<1x2x8x8xbf16>
  %im = "dit.reshape"(%im1) : (tensor<1x2x8x8x1xbf16>) -> tensor<1x2x8x8xbf16>
  %nim = "dit.neg"(%im) : (tensor<1x2x8x8xbf16>) -> tensor<1x2x8x8xbf16>
  %s0 = "dit.reshape"(%nim) : (tensor<1x2x8x8xbf16>) -> tensor<1x2x8x8x1xbf16>
  %s1 = "dit.reshape"(%re) : (tensor<1x2x8x8xbf16>) -> tensor<1x2x8x8x1xbf16>
  %st = "dit.concat"(%s0, %s1) {dim = 4 : i64} : (tensor<1x2x8x8x1xbf16>, tensor<1x2x8x8x1xbf16>) -> tensor<1x2x8x8x2xbf16>
  %rot = "dit.reshape"(%st) : (tensor<1x2x8x8x2xbf16>) -> tensor<1x2x8x16xbf16>
  %xc = "dit.mul"(%x, %cos) : (tensor<1x2x8x16xbf16>, tensor<1x1x8x16xbf16>) -> tensor<1x2x8x16xbf16>
  %rs = "dit.mul"(%rot, %sin) : (tensor<1x2x8x16xbf16>, tensor<1x1x8x16xbf16>) -> tensor<1x2x8x16xbf16>
  %sum = "dit.add"(%xc, %rs) : (tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16>) -> tensor<1x2x8x16xbf16>
  return %sum : tensor<1x2x8x16xbf16>
}

// -----

// The same with strided slices x[..., 0::2], x[..., 1::2], all in f32 (no casts).
// CHECK-LABEL: func.func @rope_interleave_slices_f32
// CHECK-NEXT: "dit.rope"(%arg0, %arg1, %arg2) {mode = "interleave"}
func.func @rope_interleave_slices_f32(%x: tensor<4x16xf32>, %cos: tensor<4x16xf32>, %sin: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %re = "dit.slice"(%x) {dim = -1 : i64, start = 0 : i64, end = 16 : i64, step = 2 : i64} : (tensor<4x16xf32>) -> tensor<4x8xf32>
  %im = "dit.slice"(%x) {dim = 1 : i64, start = 1 : i64, end = 16 : i64, step = 2 : i64} : (tensor<4x16xf32>) -> tensor<4x8xf32>
  %nim = "dit.neg"(%im) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s0 = "dit.reshape"(%nim) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
  %s1 = "dit.reshape"(%re) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
  %st = "dit.concat"(%s0, %s1) {dim = -1 : i64} : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x2xf32>
  %rot = "dit.reshape"(%st) : (tensor<4x8x2xf32>) -> tensor<4x16xf32>
  %xc = "dit.mul"(%x, %cos) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %rs = "dit.mul"(%rot, %sin) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %sum = "dit.add"(%xc, %rs) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %sum : tensor<4x16xf32>
}

// -----

// rotate_half: cat(-x2, x1) of the halves of the last dim.
// CHECK-LABEL: func.func @rope_half
// CHECK-NEXT: "dit.rope"(%arg0, %arg1, %arg2) {mode = "half"} : (tensor<2x8x32xf16>, tensor<8x32xf16>, tensor<8x32xf16>) -> tensor<2x8x32xf16>
func.func @rope_half(%x: tensor<2x8x32xf16>, %cos: tensor<8x32xf16>, %sin: tensor<8x32xf16>) -> tensor<2x8x32xf16> {
  %x1, %x2 = "dit.split"(%x) {dim = 2 : i64, sizes = array<i64: 16, 16>} : (tensor<2x8x32xf16>) -> (tensor<2x8x16xf16>, tensor<2x8x16xf16>)
  %n2 = "dit.neg"(%x2) : (tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  %rot = "dit.concat"(%n2, %x1) {dim = -1 : i64} : (tensor<2x8x16xf16>, tensor<2x8x16xf16>) -> tensor<2x8x32xf16>
  %xc = "dit.mul"(%x, %cos) : (tensor<2x8x32xf16>, tensor<8x32xf16>) -> tensor<2x8x32xf16>
  %rs = "dit.mul"(%rot, %sin) : (tensor<2x8x32xf16>, tensor<8x32xf16>) -> tensor<2x8x32xf16>
  %sum = "dit.add"(%xc, %rs) : (tensor<2x8x32xf16>, tensor<2x8x32xf16>) -> tensor<2x8x32xf16>
  return %sum : tensor<2x8x32xf16>
}

// -----

// cat(x2, -x1) rotates the other way: not dit.rope's rotation, nothing fires.
// CHECK-LABEL: func.func @rope_half_wrong_sign
// CHECK-NOT: "dit.rope"
func.func @rope_half_wrong_sign(%x: tensor<2x8x32xf16>, %cos: tensor<8x32xf16>, %sin: tensor<8x32xf16>) -> tensor<2x8x32xf16> {
  %x1, %x2 = "dit.split"(%x) {dim = 2 : i64, sizes = array<i64: 16, 16>} : (tensor<2x8x32xf16>) -> (tensor<2x8x16xf16>, tensor<2x8x16xf16>)
  %n1 = "dit.neg"(%x1) : (tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  %rot = "dit.concat"(%x2, %n1) {dim = -1 : i64} : (tensor<2x8x16xf16>, tensor<2x8x16xf16>) -> tensor<2x8x32xf16>
  %xc = "dit.mul"(%x, %cos) : (tensor<2x8x32xf16>, tensor<8x32xf16>) -> tensor<2x8x32xf16>
  %rs = "dit.mul"(%rot, %sin) : (tensor<2x8x32xf16>, tensor<8x32xf16>) -> tensor<2x8x32xf16>
  %sum = "dit.add"(%xc, %rs) : (tensor<2x8x32xf16>, tensor<2x8x32xf16>) -> tensor<2x8x32xf16>
  return %sum : tensor<2x8x32xf16>
}

// -----

// The rotation of a different tensor than the one multiplied by cos: no rotary embedding.
// CHECK-LABEL: func.func @rope_other_tensor
// CHECK-NOT: "dit.rope"
func.func @rope_other_tensor(%x: tensor<2x8x32xf16>, %y: tensor<2x8x32xf16>, %cos: tensor<8x32xf16>, %sin: tensor<8x32xf16>) -> tensor<2x8x32xf16> {
  %y1, %y2 = "dit.split"(%y) {dim = 2 : i64, sizes = array<i64: 16, 16>} : (tensor<2x8x32xf16>) -> (tensor<2x8x16xf16>, tensor<2x8x16xf16>)
  %n2 = "dit.neg"(%y2) : (tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  %rot = "dit.concat"(%n2, %y1) {dim = -1 : i64} : (tensor<2x8x16xf16>, tensor<2x8x16xf16>) -> tensor<2x8x32xf16>
  %xc = "dit.mul"(%x, %cos) : (tensor<2x8x32xf16>, tensor<8x32xf16>) -> tensor<2x8x32xf16>
  %rs = "dit.mul"(%rot, %sin) : (tensor<2x8x32xf16>, tensor<8x32xf16>) -> tensor<2x8x32xf16>
  %sum = "dit.add"(%xc, %rs) : (tensor<2x8x32xf16>, tensor<2x8x32xf16>) -> tensor<2x8x32xf16>
  return %sum : tensor<2x8x32xf16>
}

// -----

// A cos table over half the last dim does not fit dit.rope: reported, left alone.
// CHECK-LABEL: func.func @rope_table_too_narrow
// CHECK-NOT: "dit.rope"
// REPORT: skipped at {{.*}}rope.mlir:[[@LINE+7]]:10: cos does not broadcast to x over its full last dim
func.func @rope_table_too_narrow(%x: tensor<2x8x32xf16>, %cos: tensor<8x1xf16>, %sin: tensor<8x1xf16>) -> tensor<2x8x32xf16> {
  %x1, %x2 = "dit.split"(%x) {dim = 2 : i64, sizes = array<i64: 16, 16>} : (tensor<2x8x32xf16>) -> (tensor<2x8x16xf16>, tensor<2x8x16xf16>)
  %n2 = "dit.neg"(%x2) : (tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  %rot = "dit.concat"(%n2, %x1) {dim = -1 : i64} : (tensor<2x8x16xf16>, tensor<2x8x16xf16>) -> tensor<2x8x32xf16>
  %xc = "dit.mul"(%x, %cos) : (tensor<2x8x32xf16>, tensor<8x1xf16>) -> tensor<2x8x32xf16>
  %rs = "dit.mul"(%rot, %sin) : (tensor<2x8x32xf16>, tensor<8x1xf16>) -> tensor<2x8x32xf16>
  %sum = "dit.add"(%xc, %rs) : (tensor<2x8x32xf16>, tensor<2x8x32xf16>) -> tensor<2x8x32xf16>
  return %sum : tensor<2x8x32xf16>
}
