// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=norm_rope_cache --target=ascend950 | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=norm_rope_cache --target=ascend950 | dit-opt --split-input-file > /dev/null
// RUN: dit-opt %s --split-input-file --fuse-all --target=ascend950 | FileCheck %s --check-prefix=DEFAULT
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=norm_rope_cache --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=A2
// Numerical check (issue 6): the unfused and transformed graphs on the CPU reference runtime.
// RUN: dit-run %s --split-input-file --compare-unfused --fuse=norm_rope_cache --target=ascend950 > /dev/null

// ----- enable_norm_rope_cache (off by default): the MLA kv path into KvRmsNormRopeCache -----

// CHECK-LABEL: func.func @mla_kv_cache
// CHECK-NEXT: %[[F:.*]]:2 = "dit.kv_rms_norm_rope_cache"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6) {cache_mode = "Norm", epsilon = 9.99999974E-6 : f32}
// CHECK-NEXT: return %[[F]]#0, %[[F]]#1
// The switch is off in --fuse-all's defaults.
// DEFAULT-LABEL: func.func @mla_kv_cache
// DEFAULT-NOT: "dit.kv_rms_norm_rope_cache"
// aclnnKvRmsNormRopeCache's current page lists Ascend 950, Atlas A3 and Atlas A2 (pages of 2025
// listed A2/A3 as 不支持; torch_npu calls it on A2/A3): on the default target it fuses too.
// A2: applied at {{.*}}cache.mlir:[[@LINE+9]]:9: rms_norm + rope + cache writes -> dit.kv_rms_norm_rope_cache (Norm)
func.func @mla_kv_cache(%kv: tensor<2x1x4x576xbf16>, %gamma: tensor<512xbf16>, %cos: tensor<2x1x4x64xbf16>, %sin: tensor<2x1x4x64xbf16>, %index: tensor<2x4xi64>, %k_cache: tensor<2x1x128x64xbf16>, %ckv_cache: tensor<2x1x128x512xbf16>) -> (tensor<2x1x128x64xbf16>, tensor<2x1x128x512xbf16>) {
  %c, %r = "dit.split"(%kv) {dim = -1 : i64, sizes = array<i64: 512, 64>} : (tensor<2x1x4x576xbf16>) -> (tensor<2x1x4x512xbf16>, tensor<2x1x4x64xbf16>)
  %cn = "dit.rms_norm"(%c, %gamma) {epsilon = 1.0e-5 : f32} : (tensor<2x1x4x512xbf16>, tensor<512xbf16>) -> tensor<2x1x4x512xbf16>
  %x1 = "dit.slice"(%r) {dim = 3 : i64, start = 0 : i64, end = 64 : i64, step = 2 : i64} : (tensor<2x1x4x64xbf16>) -> tensor<2x1x4x32xbf16>
  %x2 = "dit.slice"(%r) {dim = 3 : i64, start = 1 : i64, end = 64 : i64, step = 2 : i64} : (tensor<2x1x4x64xbf16>) -> tensor<2x1x4x32xbf16>
  %xd = "dit.concat"(%x1, %x2) {dim = -1 : i64} : (tensor<2x1x4x32xbf16>, tensor<2x1x4x32xbf16>) -> tensor<2x1x4x64xbf16>
  %kp = "dit.rope"(%xd, %cos, %sin) {mode = "half"} : (tensor<2x1x4x64xbf16>, tensor<2x1x4x64xbf16>, tensor<2x1x4x64xbf16>) -> tensor<2x1x4x64xbf16>
  %k2 = "dit.opaque"(%k_cache, %index, %kp) {name = "scatter_update"} : (tensor<2x1x128x64xbf16>, tensor<2x4xi64>, tensor<2x1x4x64xbf16>) -> tensor<2x1x128x64xbf16>
  %c2 = "dit.opaque"(%ckv_cache, %index, %cn) {name = "scatter_update"} : (tensor<2x1x128x512xbf16>, tensor<2x4xi64>, tensor<2x1x4x512xbf16>) -> tensor<2x1x128x512xbf16>
  return %k2, %c2 : tensor<2x1x128x64xbf16>, tensor<2x1x128x512xbf16>
}

// -----

// Odd elements first is not the kernel's de-interleave: nothing fires.
// CHECK-LABEL: func.func @mla_odd_first
// CHECK-NOT: "dit.kv_rms_norm_rope_cache"
func.func @mla_odd_first(%kv: tensor<2x1x4x576xbf16>, %gamma: tensor<512xbf16>, %cos: tensor<2x1x4x64xbf16>, %sin: tensor<2x1x4x64xbf16>, %index: tensor<2x4xi64>, %k_cache: tensor<2x1x128x64xbf16>, %ckv_cache: tensor<2x1x128x512xbf16>) -> (tensor<2x1x128x64xbf16>, tensor<2x1x128x512xbf16>) {
  %c, %r = "dit.split"(%kv) {dim = -1 : i64, sizes = array<i64: 512, 64>} : (tensor<2x1x4x576xbf16>) -> (tensor<2x1x4x512xbf16>, tensor<2x1x4x64xbf16>)
  %cn = "dit.rms_norm"(%c, %gamma) {epsilon = 1.0e-5 : f32} : (tensor<2x1x4x512xbf16>, tensor<512xbf16>) -> tensor<2x1x4x512xbf16>
  %x1 = "dit.slice"(%r) {dim = 3 : i64, start = 1 : i64, end = 64 : i64, step = 2 : i64} : (tensor<2x1x4x64xbf16>) -> tensor<2x1x4x32xbf16>
  %x2 = "dit.slice"(%r) {dim = 3 : i64, start = 0 : i64, end = 64 : i64, step = 2 : i64} : (tensor<2x1x4x64xbf16>) -> tensor<2x1x4x32xbf16>
  %xd = "dit.concat"(%x1, %x2) {dim = -1 : i64} : (tensor<2x1x4x32xbf16>, tensor<2x1x4x32xbf16>) -> tensor<2x1x4x64xbf16>
  %kp = "dit.rope"(%xd, %cos, %sin) {mode = "half"} : (tensor<2x1x4x64xbf16>, tensor<2x1x4x64xbf16>, tensor<2x1x4x64xbf16>) -> tensor<2x1x4x64xbf16>
  %k2 = "dit.opaque"(%k_cache, %index, %kp) {name = "scatter_update"} : (tensor<2x1x128x64xbf16>, tensor<2x4xi64>, tensor<2x1x4x64xbf16>) -> tensor<2x1x128x64xbf16>
  %c2 = "dit.opaque"(%ckv_cache, %index, %cn) {name = "scatter_update"} : (tensor<2x1x128x512xbf16>, tensor<2x4xi64>, tensor<2x1x4x512xbf16>) -> tensor<2x1x128x512xbf16>
  return %k2, %c2 : tensor<2x1x128x64xbf16>, tensor<2x1x128x512xbf16>
}

// -----

// A 448 + 64 kv is not the MLA layout the kernel takes.
// CHECK-LABEL: func.func @mla_wrong_width
// CHECK-NOT: "dit.kv_rms_norm_rope_cache"
func.func @mla_wrong_width(%kv: tensor<2x1x4x512xbf16>, %gamma: tensor<448xbf16>, %cos: tensor<2x1x4x64xbf16>, %sin: tensor<2x1x4x64xbf16>, %index: tensor<2x4xi64>, %k_cache: tensor<2x1x128x64xbf16>, %ckv_cache: tensor<2x1x128x448xbf16>) -> (tensor<2x1x128x64xbf16>, tensor<2x1x128x448xbf16>) {
  %c, %r = "dit.split"(%kv) {dim = -1 : i64, sizes = array<i64: 448, 64>} : (tensor<2x1x4x512xbf16>) -> (tensor<2x1x4x448xbf16>, tensor<2x1x4x64xbf16>)
  %cn = "dit.rms_norm"(%c, %gamma) {epsilon = 1.0e-5 : f32} : (tensor<2x1x4x448xbf16>, tensor<448xbf16>) -> tensor<2x1x4x448xbf16>
  %x1 = "dit.slice"(%r) {dim = 3 : i64, start = 0 : i64, end = 64 : i64, step = 2 : i64} : (tensor<2x1x4x64xbf16>) -> tensor<2x1x4x32xbf16>
  %x2 = "dit.slice"(%r) {dim = 3 : i64, start = 1 : i64, end = 64 : i64, step = 2 : i64} : (tensor<2x1x4x64xbf16>) -> tensor<2x1x4x32xbf16>
  %xd = "dit.concat"(%x1, %x2) {dim = -1 : i64} : (tensor<2x1x4x32xbf16>, tensor<2x1x4x32xbf16>) -> tensor<2x1x4x64xbf16>
  %kp = "dit.rope"(%xd, %cos, %sin) {mode = "half"} : (tensor<2x1x4x64xbf16>, tensor<2x1x4x64xbf16>, tensor<2x1x4x64xbf16>) -> tensor<2x1x4x64xbf16>
  %k2 = "dit.opaque"(%k_cache, %index, %kp) {name = "scatter_update"} : (tensor<2x1x128x64xbf16>, tensor<2x4xi64>, tensor<2x1x4x64xbf16>) -> tensor<2x1x128x64xbf16>
  %c2 = "dit.opaque"(%ckv_cache, %index, %cn) {name = "scatter_update"} : (tensor<2x1x128x448xbf16>, tensor<2x4xi64>, tensor<2x1x4x448xbf16>) -> tensor<2x1x128x448xbf16>
  return %k2, %c2 : tensor<2x1x128x64xbf16>, tensor<2x1x128x448xbf16>
}

// -----

// cos and sin must have kv's dtype ("与kv数据类型一致", checked at the kernel's tiling: 561002):
// f32 tables with a bf16 kv do not fuse, and the skip names the rule.
// A2: skipped at {{.*}}cache.mlir:[[@LINE+11]]:9: rule kv_rms_norm_rope_cache.cos_dtype: cos is f32, kv is bf16: the kernel takes them alike (aclnn error 561002;
// CHECK-LABEL: func.func @mla_kv_cache_f32_tables
// CHECK-NOT: "dit.kv_rms_norm_rope_cache"
func.func @mla_kv_cache_f32_tables(%kv: tensor<2x1x4x576xbf16>, %gamma: tensor<512xbf16>, %cos: tensor<2x1x4x64xf32>, %sin: tensor<2x1x4x64xf32>, %index: tensor<2x4xi64>, %k_cache: tensor<2x1x128x64xbf16>, %ckv_cache: tensor<2x1x128x512xbf16>) -> (tensor<2x1x128x64xbf16>, tensor<2x1x128x512xbf16>) {
  %c, %r = "dit.split"(%kv) {dim = -1 : i64, sizes = array<i64: 512, 64>} : (tensor<2x1x4x576xbf16>) -> (tensor<2x1x4x512xbf16>, tensor<2x1x4x64xbf16>)
  %cn = "dit.rms_norm"(%c, %gamma) {epsilon = 1.0e-5 : f32} : (tensor<2x1x4x512xbf16>, tensor<512xbf16>) -> tensor<2x1x4x512xbf16>
  %x1 = "dit.slice"(%r) {dim = 3 : i64, start = 0 : i64, end = 64 : i64, step = 2 : i64} : (tensor<2x1x4x64xbf16>) -> tensor<2x1x4x32xbf16>
  %x2 = "dit.slice"(%r) {dim = 3 : i64, start = 1 : i64, end = 64 : i64, step = 2 : i64} : (tensor<2x1x4x64xbf16>) -> tensor<2x1x4x32xbf16>
  %xd = "dit.concat"(%x1, %x2) {dim = -1 : i64} : (tensor<2x1x4x32xbf16>, tensor<2x1x4x32xbf16>) -> tensor<2x1x4x64xbf16>
  %kp = "dit.rope"(%xd, %cos, %sin) {mode = "half"} : (tensor<2x1x4x64xbf16>, tensor<2x1x4x64xf32>, tensor<2x1x4x64xf32>) -> tensor<2x1x4x64xbf16>
  %k2 = "dit.opaque"(%k_cache, %index, %kp) {name = "scatter_update"} : (tensor<2x1x128x64xbf16>, tensor<2x4xi64>, tensor<2x1x4x64xbf16>) -> tensor<2x1x128x64xbf16>
  %c2 = "dit.opaque"(%ckv_cache, %index, %cn) {name = "scatter_update"} : (tensor<2x1x128x512xbf16>, tensor<2x4xi64>, tensor<2x1x4x512xbf16>) -> tensor<2x1x128x512xbf16>
  return %k2, %c2 : tensor<2x1x128x64xbf16>, tensor<2x1x128x512xbf16>
}

