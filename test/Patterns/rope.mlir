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

// -----

// ----- enable_rope, the scatter form: Wan2.1's out[..., 0::2] = x1·c − x2·s,
// out[..., 1::2] = x1·s + x2·c (c = cos[..., 0::2], s = sin[..., 1::2]) == rope(x, cos', sin')
// {interleave} with cos', sin' = c, s repeated over each pair -----

// As the torch conversion writes Wan's apply_rotary_emb (q and k, one pair of tables): pairs
// via reshape + split, products in f32, each stream cast back to bf16 by the store, the columns
// concatenated and flattened. The half tables are views of f32 arguments: the rewrite repeats
// them over the pairs and casts them to bf16 (rules rope.cos_dtype, rope.sin_dtype), layout ops
// the pre-pack runs once; the second rope reuses the first's tables. 26 kernels -> 2.
// CHECK-LABEL: func.func @rope_scatter_wan
// CHECK: %[[C:.*]] = "dit.slice"(%arg2) {dim = 3 : i64, end = 16 : i64, start = 0 : i64, step = 2 : i64}
// CHECK-NEXT: %[[CC:.*]] = "dit.cast"(%[[C]]) : (tensor<1x4x1x8xf32>) -> tensor<1x4x1x8xbf16>
// CHECK-NEXT: %[[C1:.*]] = "dit.reshape"(%[[CC]]) : (tensor<1x4x1x8xbf16>) -> tensor<1x4x1x8x1xbf16>
// CHECK-NEXT: %[[C2:.*]] = "dit.broadcast"(%[[C1]]) : (tensor<1x4x1x8x1xbf16>) -> tensor<1x4x1x8x2xbf16>
// CHECK-NEXT: %[[COS:.*]] = "dit.reshape"(%[[C2]]) : (tensor<1x4x1x8x2xbf16>) -> tensor<1x4x1x16xbf16>
// CHECK-NEXT: %[[S:.*]] = "dit.slice"(%arg3) {dim = 3 : i64, end = 16 : i64, start = 1 : i64, step = 2 : i64}
// CHECK-NEXT: %[[SC:.*]] = "dit.cast"(%[[S]]) : (tensor<1x4x1x8xf32>) -> tensor<1x4x1x8xbf16>
// CHECK-NEXT: %[[S1:.*]] = "dit.reshape"(%[[SC]])
// CHECK-NEXT: %[[S2:.*]] = "dit.broadcast"(%[[S1]])
// CHECK-NEXT: %[[SIN:.*]] = "dit.reshape"(%[[S2]]) : (tensor<1x4x1x8x2xbf16>) -> tensor<1x4x1x16xbf16>
// CHECK-NEXT: %[[Q:.*]] = "dit.rope"(%arg0, %[[COS]], %[[SIN]]) {mode = "interleave"} : (tensor<1x4x2x16xbf16>, tensor<1x4x1x16xbf16>, tensor<1x4x1x16xbf16>) -> tensor<1x4x2x16xbf16>
// CHECK-NEXT: %[[K:.*]] = "dit.rope"(%arg1, %[[COS]], %[[SIN]]) {mode = "interleave"}
// CHECK-NEXT: return %[[Q]], %[[K]]
// REPORT-DAG: applied at {{.*}}rope.mlir:[[@LINE+26]]:9: out[0::2] = x1*c - x2*s, out[1::2] = x1*s + x2*c -> dit.rope(interleave) (c, s repeated over each pair once at load, cast to bf16: rules rope.cos_dtype, rope.sin_dtype)
// REPORT-DAG: applied at {{.*}}rope.mlir:[[@LINE+43]]:10: out[0::2] = x1*c - x2*s
// REPORT: kernels: 26 before, 2 after
// REPORT-NEXT: pre-pack (init entry, once at load): 4 kernels,
// LOWER-LABEL: func.func @rope_scatter_wan(
// LOWER-SAME: dit.launches = 2 : i64
func.func @rope_scatter_wan(%q: tensor<1x4x2x16xbf16>, %k: tensor<1x4x2x16xbf16>, %cos: tensor<1x4x1x16xf32>, %sin: tensor<1x4x1x16xf32>) -> (tensor<1x4x2x16xbf16>, tensor<1x4x2x16xbf16>) {
  %c = "dit.slice"(%cos) {dim = 3 : i64, end = 16 : i64, start = 0 : i64, step = 2 : i64} : (tensor<1x4x1x16xf32>) -> tensor<1x4x1x8xf32>
  %s = "dit.slice"(%sin) {dim = 3 : i64, end = 16 : i64, start = 1 : i64, step = 2 : i64} : (tensor<1x4x1x16xf32>) -> tensor<1x4x1x8xf32>
  %qp = "dit.reshape"(%q) : (tensor<1x4x2x16xbf16>) -> tensor<1x4x2x8x2xbf16>
  %q1c, %q2c = "dit.split"(%qp) {dim = 4 : i64, sizes = array<i64: 1, 1>} : (tensor<1x4x2x8x2xbf16>) -> (tensor<1x4x2x8x1xbf16>, tensor<1x4x2x8x1xbf16>)
  %q1 = "dit.reshape"(%q1c) : (tensor<1x4x2x8x1xbf16>) -> tensor<1x4x2x8xbf16>
  %q2 = "dit.reshape"(%q2c) : (tensor<1x4x2x8x1xbf16>) -> tensor<1x4x2x8xbf16>
  %q1f = "dit.cast"(%q1) : (tensor<1x4x2x8xbf16>) -> tensor<1x4x2x8xf32>
  %a = "dit.mul"(%q1f, %c) : (tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) -> tensor<1x4x2x8xf32>
  %q2f = "dit.cast"(%q2) : (tensor<1x4x2x8xbf16>) -> tensor<1x4x2x8xf32>
  %b = "dit.mul"(%q2f, %s) : (tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) -> tensor<1x4x2x8xf32>
  %ev = "dit.sub"(%a, %b) : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32>
  %evb = "dit.cast"(%ev) : (tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xbf16>
  %evc = "dit.reshape"(%evb) : (tensor<1x4x2x8xbf16>) -> tensor<1x4x2x8x1xbf16>
  %p = "dit.mul"(%q1f, %s) : (tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) -> tensor<1x4x2x8xf32>
  %r = "dit.mul"(%q2f, %c) : (tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) -> tensor<1x4x2x8xf32>
  %od = "dit.add"(%p, %r) : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32>
  %odb = "dit.cast"(%od) : (tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xbf16>
  %odc = "dit.reshape"(%odb) : (tensor<1x4x2x8xbf16>) -> tensor<1x4x2x8x1xbf16>
  %cat = "dit.concat"(%evc, %odc) {dim = 4 : i64} : (tensor<1x4x2x8x1xbf16>, tensor<1x4x2x8x1xbf16>) -> tensor<1x4x2x8x2xbf16>
  %qr = "dit.reshape"(%cat) : (tensor<1x4x2x8x2xbf16>) -> tensor<1x4x2x16xbf16>
  %kp = "dit.reshape"(%k) : (tensor<1x4x2x16xbf16>) -> tensor<1x4x2x8x2xbf16>
  %k1c, %k2c = "dit.split"(%kp) {dim = 4 : i64, sizes = array<i64: 1, 1>} : (tensor<1x4x2x8x2xbf16>) -> (tensor<1x4x2x8x1xbf16>, tensor<1x4x2x8x1xbf16>)
  %k1 = "dit.reshape"(%k1c) : (tensor<1x4x2x8x1xbf16>) -> tensor<1x4x2x8xbf16>
  %k2 = "dit.reshape"(%k2c) : (tensor<1x4x2x8x1xbf16>) -> tensor<1x4x2x8xbf16>
  %k1f = "dit.cast"(%k1) : (tensor<1x4x2x8xbf16>) -> tensor<1x4x2x8xf32>
  %ka = "dit.mul"(%k1f, %c) : (tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) -> tensor<1x4x2x8xf32>
  %k2f = "dit.cast"(%k2) : (tensor<1x4x2x8xbf16>) -> tensor<1x4x2x8xf32>
  %kb = "dit.mul"(%k2f, %s) : (tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) -> tensor<1x4x2x8xf32>
  %kev = "dit.sub"(%ka, %kb) : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32>
  %kevb = "dit.cast"(%kev) : (tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xbf16>
  %kevc = "dit.reshape"(%kevb) : (tensor<1x4x2x8xbf16>) -> tensor<1x4x2x8x1xbf16>
  %kp2 = "dit.mul"(%k1f, %s) : (tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) -> tensor<1x4x2x8xf32>
  %kr = "dit.mul"(%k2f, %c) : (tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) -> tensor<1x4x2x8xf32>
  %kod = "dit.add"(%kp2, %kr) : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32>
  %kodb = "dit.cast"(%kod) : (tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xbf16>
  %kodc = "dit.reshape"(%kodb) : (tensor<1x4x2x8xbf16>) -> tensor<1x4x2x8x1xbf16>
  %kcat = "dit.concat"(%kevc, %kodc) {dim = 4 : i64} : (tensor<1x4x2x8x1xbf16>, tensor<1x4x2x8x1xbf16>) -> tensor<1x4x2x8x2xbf16>
  %kr2 = "dit.reshape"(%kcat) : (tensor<1x4x2x8x2xbf16>) -> tensor<1x4x2x16xbf16>
  return %qr, %kr2 : tensor<1x4x2x16xbf16>, tensor<1x4x2x16xbf16>
}

// -----

// The same in f32 with strided slices x[..., 0::2], x[..., 1::2], the odd stream's terms and
// the products' factors in the other order, and full-width half tables that are arguments: no
// cast; x is the sliced tensor itself.
// CHECK-LABEL: func.func @rope_scatter_slices_f32
// CHECK-DAG: %[[C1:.*]] = "dit.reshape"(%arg1) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
// CHECK-DAG: %[[C2:.*]] = "dit.broadcast"(%[[C1]]) : (tensor<4x8x1xf32>) -> tensor<4x8x2xf32>
// CHECK-DAG: %[[COS:.*]] = "dit.reshape"(%[[C2]]) : (tensor<4x8x2xf32>) -> tensor<4x16xf32>
// CHECK-DAG: %[[S1:.*]] = "dit.reshape"(%arg2) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
// CHECK-DAG: %[[S2:.*]] = "dit.broadcast"(%[[S1]])
// CHECK-DAG: %[[SIN:.*]] = "dit.reshape"(%[[S2]])
// CHECK: %[[R:.*]] = "dit.rope"(%arg0, %[[COS]], %[[SIN]]) {mode = "interleave"} : (tensor<2x4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<2x4x16xf32>
// CHECK-NEXT: return %[[R]]
// REPORT: applied at {{.*}}rope.mlir:[[@LINE+13]]:10: out[0::2] = x1*c - x2*s, out[1::2] = x1*s + x2*c -> dit.rope(interleave) (c, s repeated over each pair once at load)
func.func @rope_scatter_slices_f32(%x: tensor<2x4x16xf32>, %c: tensor<4x8xf32>, %s: tensor<4x8xf32>) -> tensor<2x4x16xf32> {
  %x1 = "dit.slice"(%x) {dim = -1 : i64, end = 16 : i64, start = 0 : i64, step = 2 : i64} : (tensor<2x4x16xf32>) -> tensor<2x4x8xf32>
  %x2 = "dit.slice"(%x) {dim = 2 : i64, end = 9223372036854775807 : i64, start = 1 : i64, step = 2 : i64} : (tensor<2x4x16xf32>) -> tensor<2x4x8xf32>
  %a = "dit.mul"(%c, %x1) : (tensor<4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %b = "dit.mul"(%x2, %s) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %ev = "dit.sub"(%a, %b) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %evc = "dit.reshape"(%ev) : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
  %p = "dit.mul"(%s, %x1) : (tensor<4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %r = "dit.mul"(%x2, %c) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %od = "dit.add"(%r, %p) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %odc = "dit.reshape"(%od) : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
  %cat = "dit.concat"(%evc, %odc) {dim = -1 : i64} : (tensor<2x4x8x1xf32>, tensor<2x4x8x1xf32>) -> tensor<2x4x8x2xf32>
  %out = "dit.reshape"(%cat) : (tensor<2x4x8x2xf32>) -> tensor<2x4x16xf32>
  return %out : tensor<2x4x16xf32>
}

// -----

// Half tables computed per call (exp of an argument): repeating them over the pairs would be
// work on every call, so the pattern is left alone and the report says why.
// CHECK-LABEL: func.func @rope_scatter_tables_per_call
// CHECK-NOT: "dit.rope"
// REPORT: skipped at {{.*}}rope.mlir:[[@LINE+14]]:10: cos and sin are computed per call (not function arguments or views of them), so their repetition over the pairs cannot run once at load
func.func @rope_scatter_tables_per_call(%x: tensor<2x4x16xf32>, %theta: tensor<4x8xf32>, %s: tensor<4x8xf32>) -> tensor<2x4x16xf32> {
  %c = "dit.exp"(%theta) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %x1 = "dit.slice"(%x) {dim = 2 : i64, end = 16 : i64, start = 0 : i64, step = 2 : i64} : (tensor<2x4x16xf32>) -> tensor<2x4x8xf32>
  %x2 = "dit.slice"(%x) {dim = 2 : i64, end = 16 : i64, start = 1 : i64, step = 2 : i64} : (tensor<2x4x16xf32>) -> tensor<2x4x8xf32>
  %a = "dit.mul"(%x1, %c) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %b = "dit.mul"(%x2, %s) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %ev = "dit.sub"(%a, %b) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %evc = "dit.reshape"(%ev) : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
  %p = "dit.mul"(%x1, %s) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %r = "dit.mul"(%x2, %c) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %od = "dit.add"(%p, %r) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %odc = "dit.reshape"(%od) : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
  %cat = "dit.concat"(%evc, %odc) {dim = 3 : i64} : (tensor<2x4x8x1xf32>, tensor<2x4x8x1xf32>) -> tensor<2x4x8x2xf32>
  %out = "dit.reshape"(%cat) : (tensor<2x4x8x2xf32>) -> tensor<2x4x16xf32>
  return %out : tensor<2x4x16xf32>
}

// -----

// The tables swapped in the odd stream (x1·c + x2·s): not a rotation, left alone.
// CHECK-LABEL: func.func @rope_scatter_swapped_tables
// CHECK-NOT: "dit.rope"
func.func @rope_scatter_swapped_tables(%x: tensor<2x4x16xf32>, %c: tensor<4x8xf32>, %s: tensor<4x8xf32>) -> tensor<2x4x16xf32> {
  %x1 = "dit.slice"(%x) {dim = 2 : i64, end = 16 : i64, start = 0 : i64, step = 2 : i64} : (tensor<2x4x16xf32>) -> tensor<2x4x8xf32>
  %x2 = "dit.slice"(%x) {dim = 2 : i64, end = 16 : i64, start = 1 : i64, step = 2 : i64} : (tensor<2x4x16xf32>) -> tensor<2x4x8xf32>
  %a = "dit.mul"(%x1, %c) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %b = "dit.mul"(%x2, %s) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %ev = "dit.sub"(%a, %b) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %evc = "dit.reshape"(%ev) : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
  %p = "dit.mul"(%x1, %c) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %r = "dit.mul"(%x2, %s) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %od = "dit.add"(%p, %r) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %odc = "dit.reshape"(%od) : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
  %cat = "dit.concat"(%evc, %odc) {dim = 3 : i64} : (tensor<2x4x8x1xf32>, tensor<2x4x8x1xf32>) -> tensor<2x4x8x2xf32>
  %out = "dit.reshape"(%cat) : (tensor<2x4x8x2xf32>) -> tensor<2x4x16xf32>
  return %out : tensor<2x4x16xf32>
}

// -----

// The streams stored the other way round (odd stream into 0::2): not a rotation, left alone.
// CHECK-LABEL: func.func @rope_scatter_streams_swapped
// CHECK-NOT: "dit.rope"
func.func @rope_scatter_streams_swapped(%x: tensor<2x4x16xf32>, %c: tensor<4x8xf32>, %s: tensor<4x8xf32>) -> tensor<2x4x16xf32> {
  %x1 = "dit.slice"(%x) {dim = 2 : i64, end = 16 : i64, start = 1 : i64, step = 2 : i64} : (tensor<2x4x16xf32>) -> tensor<2x4x8xf32>
  %x2 = "dit.slice"(%x) {dim = 2 : i64, end = 16 : i64, start = 0 : i64, step = 2 : i64} : (tensor<2x4x16xf32>) -> tensor<2x4x8xf32>
  %a = "dit.mul"(%x1, %c) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %b = "dit.mul"(%x2, %s) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %ev = "dit.sub"(%a, %b) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %evc = "dit.reshape"(%ev) : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
  %p = "dit.mul"(%x1, %s) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %r = "dit.mul"(%x2, %c) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %od = "dit.add"(%p, %r) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %odc = "dit.reshape"(%od) : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
  %cat = "dit.concat"(%evc, %odc) {dim = 3 : i64} : (tensor<2x4x8x1xf32>, tensor<2x4x8x1xf32>) -> tensor<2x4x8x2xf32>
  %out = "dit.reshape"(%cat) : (tensor<2x4x8x2xf32>) -> tensor<2x4x16xf32>
  return %out : tensor<2x4x16xf32>
}

// -----

// An intermediate (the even stream) also returned: the rewrite would keep the old chain live,
// so the pattern is left alone.
// CHECK-LABEL: func.func @rope_scatter_stream_used_twice
// CHECK-NOT: "dit.rope"
func.func @rope_scatter_stream_used_twice(%x: tensor<2x4x16xf32>, %c: tensor<4x8xf32>, %s: tensor<4x8xf32>) -> (tensor<2x4x16xf32>, tensor<2x4x8xf32>) {
  %x1 = "dit.slice"(%x) {dim = 2 : i64, end = 16 : i64, start = 0 : i64, step = 2 : i64} : (tensor<2x4x16xf32>) -> tensor<2x4x8xf32>
  %x2 = "dit.slice"(%x) {dim = 2 : i64, end = 16 : i64, start = 1 : i64, step = 2 : i64} : (tensor<2x4x16xf32>) -> tensor<2x4x8xf32>
  %a = "dit.mul"(%x1, %c) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %b = "dit.mul"(%x2, %s) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %ev = "dit.sub"(%a, %b) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %evc = "dit.reshape"(%ev) : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
  %p = "dit.mul"(%x1, %s) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %r = "dit.mul"(%x2, %c) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %od = "dit.add"(%p, %r) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %odc = "dit.reshape"(%od) : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
  %cat = "dit.concat"(%evc, %odc) {dim = 3 : i64} : (tensor<2x4x8x1xf32>, tensor<2x4x8x1xf32>) -> tensor<2x4x8x2xf32>
  %out = "dit.reshape"(%cat) : (tensor<2x4x8x2xf32>) -> tensor<2x4x16xf32>
  return %out, %ev : tensor<2x4x16xf32>, tensor<2x4x8xf32>
}
