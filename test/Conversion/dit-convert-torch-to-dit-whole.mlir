// dit-convert-torch-to-dit on what a whole diffusers model adds to its blocks (tools/dit-import
// --whole-model): the conv patch embedding (stride == kernel) as a linear on patches, sin/cos
// of the sinusoidal embeddings, arange with constant bounds as a constant, outer, a permuting
// einsum (SD3's unpatchify), and f64 RoPE frequency tables computed in f32. Positive and
// opaque-fallback cases side by side; every output re-parsed without unregistered dialects.
//
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit | dit-opt --split-input-file | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit --fuse-all | dit-opt --split-input-file --dit-verify > /dev/null
// Numerics of the converted functions, and of --fuse-all on them (functions with a dit.opaque
// are not run: the reference runtime has no kernel for aten ops it does not model).
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit | dit-run - --split-input-file --compare-unfused --exclude=conv2d_padded,einsum_contraction,arange_wrong_length > /dev/null
// Values: the patch-embedding linear against a hand-computed convolution, and the aranges.
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit | dit-run - --split-input-file --print-outputs --exclude=conv2d_padded,einsum_contraction,arange_wrong_length | FileCheck %s --check-prefix=VALUES

// ----- conv2d with stride == kernel, no padding: patches -> linear -> channels first -----
// CHECK-LABEL: func.func @conv2d_patch(%arg0: tensor<1x4x8x8xf32>, %arg1: tensor<16x4x2x2xf32>, %arg2: tensor<16xf32>) -> tensor<1x16x4x4xf32>
// CHECK-NEXT: %[[S:.*]] = "dit.reshape"(%arg0) : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x2x4x2xf32>
// CHECK-NEXT: %[[P:.*]] = "dit.transpose"(%[[S]]) {perm = array<i64: 0, 2, 4, 1, 3, 5>} : (tensor<1x4x4x2x4x2xf32>) -> tensor<1x4x4x4x2x2xf32>
// CHECK-NEXT: %[[X:.*]] = "dit.reshape"(%[[P]]) : (tensor<1x4x4x4x2x2xf32>) -> tensor<1x16x16xf32>
// CHECK-NEXT: %[[W:.*]] = "dit.reshape"(%arg1) : (tensor<16x4x2x2xf32>) -> tensor<16x16xf32>
// CHECK-NEXT: %[[Y:.*]] = "dit.linear"(%[[X]], %[[W]], %arg2) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x16x16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> tensor<1x16x16xf32>
// CHECK-NEXT: %[[T:.*]] = "dit.transpose"(%[[Y]]) {perm = array<i64: 0, 2, 1>} : (tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
// CHECK-NEXT: %[[O:.*]] = "dit.reshape"(%[[T]]) : (tensor<1x16x16xf32>) -> tensor<1x16x4x4xf32>
// CHECK-NEXT: return %[[O]]
// REPORT: applied at {{.*}}: @conv2d_patch: 1 torch ops -> 7 dit ops; 0 kept as dit.opaque

func.func @conv2d_patch(%x: !torch.vtensor<[1,4,8,8],f32>, %w: !torch.vtensor<[16,4,2,2],f32>, %b: !torch.vtensor<[16],f32>) -> !torch.vtensor<[1,16,4,4],f32> {
  %c2 = "torch.constant.int"() {value = 2 : i64} : () -> !torch.int
  %stride = "torch.prim.ListConstruct"(%c2, %c2) : (!torch.int, !torch.int) -> !torch.list<int>
  %c0 = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
  %pad = "torch.prim.ListConstruct"(%c0, %c0) : (!torch.int, !torch.int) -> !torch.list<int>
  %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
  %dil = "torch.prim.ListConstruct"(%c1, %c1) : (!torch.int, !torch.int) -> !torch.list<int>
  %y = "torch.aten.conv2d"(%x, %w, %b, %stride, %pad, %dil, %c1) : (!torch.vtensor<[1,4,8,8],f32>, !torch.vtensor<[16,4,2,2],f32>, !torch.vtensor<[16],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.int) -> !torch.vtensor<[1,16,4,4],f32>
  return %y : !torch.vtensor<[1,16,4,4],f32>
}

// -----

// ----- conv3d (Wan's (1, 2, 2) patches), no bias, bf16 -----
// CHECK-LABEL: func.func @conv3d_patch
// CHECK-NEXT: "dit.reshape"(%arg0) : (tensor<1x4x2x4x4xbf16>) -> tensor<1x4x2x1x2x2x2x2xbf16>
// CHECK-NEXT: "dit.transpose"({{.*}}) {perm = array<i64: 0, 2, 4, 6, 1, 3, 5, 7>} : (tensor<1x4x2x1x2x2x2x2xbf16>) -> tensor<1x2x2x2x4x1x2x2xbf16>
// CHECK-NEXT: "dit.reshape"({{.*}}) : (tensor<1x2x2x2x4x1x2x2xbf16>) -> tensor<1x8x16xbf16>
// CHECK-NEXT: "dit.reshape"(%arg1) : (tensor<8x4x1x2x2xbf16>) -> tensor<8x16xbf16>
// CHECK-NEXT: "dit.linear"({{.*}}) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x8x16xbf16>, tensor<8x16xbf16>) -> tensor<1x8x8xbf16>

func.func @conv3d_patch(%x: !torch.vtensor<[1,4,2,4,4],bf16>, %w: !torch.vtensor<[8,4,1,2,2],bf16>) -> !torch.vtensor<[1,8,2,2,2],bf16> {
  %none = "torch.constant.none"() : () -> !torch.none
  %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
  %c2 = "torch.constant.int"() {value = 2 : i64} : () -> !torch.int
  %stride = "torch.prim.ListConstruct"(%c1, %c2, %c2) : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %c0 = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
  %pad = "torch.prim.ListConstruct"(%c0, %c0, %c0) : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %dil = "torch.prim.ListConstruct"(%c1, %c1, %c1) : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %y = "torch.aten.conv3d"(%x, %w, %none, %stride, %pad, %dil, %c1) : (!torch.vtensor<[1,4,2,4,4],bf16>, !torch.vtensor<[8,4,1,2,2],bf16>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.int) -> !torch.vtensor<[1,8,2,2,2],bf16>
  return %y : !torch.vtensor<[1,8,2,2,2],bf16>
}

// -----

// ----- a padded convolution is no patch embedding: kept as dit.opaque -----
// CHECK-LABEL: func.func @conv2d_padded
// CHECK: "dit.opaque"
// REPORT: skipped at {{.*}}: aten.conv2d: only stride == kernel, no padding, no dilation (a patch embedding) becomes a linear; kept as dit.opaque

func.func @conv2d_padded(%x: !torch.vtensor<[1,4,8,8],f32>, %w: !torch.vtensor<[16,4,2,2],f32>) -> !torch.vtensor<[1,16,5,5],f32> {
  %none = "torch.constant.none"() : () -> !torch.none
  %c2 = "torch.constant.int"() {value = 2 : i64} : () -> !torch.int
  %stride = "torch.prim.ListConstruct"(%c2, %c2) : (!torch.int, !torch.int) -> !torch.list<int>
  %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
  %pad = "torch.prim.ListConstruct"(%c1, %c1) : (!torch.int, !torch.int) -> !torch.list<int>
  %dil = "torch.prim.ListConstruct"(%c1, %c1) : (!torch.int, !torch.int) -> !torch.list<int>
  %y = "torch.aten.conv2d"(%x, %w, %none, %stride, %pad, %dil, %c1) : (!torch.vtensor<[1,4,8,8],f32>, !torch.vtensor<[16,4,2,2],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.int) -> !torch.vtensor<[1,16,5,5],f32>
  return %y : !torch.vtensor<[1,16,5,5],f32>
}

// -----

// ----- the values: x = ones, w[o, c, i, j] = ones, b = 0.5: every output is 4·2·2 + 0.5 -----
// VALUES-LABEL: @conv2d_patch_values:
// VALUES: values f32[1,2,2,2]: [16.500000, 16.500000, 16.500000, 16.500000, 16.500000, 16.500000, 16.500000, 16.500000]

func.func @conv2d_patch_values() -> !torch.vtensor<[1,2,2,2],f32> {
  %x = "torch.vtensor.literal"() {value = dense<1.0> : tensor<1x4x4x4xf32>} : () -> !torch.vtensor<[1,4,4,4],f32>
  %w = "torch.vtensor.literal"() {value = dense<1.0> : tensor<2x4x2x2xf32>} : () -> !torch.vtensor<[2,4,2,2],f32>
  %b = "torch.vtensor.literal"() {value = dense<0.5> : tensor<2xf32>} : () -> !torch.vtensor<[2],f32>
  %c2 = "torch.constant.int"() {value = 2 : i64} : () -> !torch.int
  %stride = "torch.prim.ListConstruct"(%c2, %c2) : (!torch.int, !torch.int) -> !torch.list<int>
  %c0 = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
  %pad = "torch.prim.ListConstruct"(%c0, %c0) : (!torch.int, !torch.int) -> !torch.list<int>
  %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
  %dil = "torch.prim.ListConstruct"(%c1, %c1) : (!torch.int, !torch.int) -> !torch.list<int>
  %y = "torch.aten.conv2d"(%x, %w, %b, %stride, %pad, %dil, %c1) : (!torch.vtensor<[1,4,4,4],f32>, !torch.vtensor<[2,4,2,2],f32>, !torch.vtensor<[2],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.int) -> !torch.vtensor<[1,2,2,2],f32>
  return %y : !torch.vtensor<[1,2,2,2],f32>
}

// -----

// ----- aten.convolution (the overload with `transposed`), stride == kernel -> linear -----
// CHECK-LABEL: func.func @convolution_patch
// CHECK: "dit.linear"
// CHECK-NOT: dit.opaque

func.func @convolution_patch(%x: !torch.vtensor<[1,4,8,8],f32>, %w: !torch.vtensor<[16,4,2,2],f32>, %b: !torch.vtensor<[16],f32>) -> !torch.vtensor<[1,16,4,4],f32> {
  %c2 = "torch.constant.int"() {value = 2 : i64} : () -> !torch.int
  %stride = "torch.prim.ListConstruct"(%c2, %c2) : (!torch.int, !torch.int) -> !torch.list<int>
  %c0 = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
  %pad = "torch.prim.ListConstruct"(%c0, %c0) : (!torch.int, !torch.int) -> !torch.list<int>
  %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
  %dil = "torch.prim.ListConstruct"(%c1, %c1) : (!torch.int, !torch.int) -> !torch.list<int>
  %false = "torch.constant.bool"() {value = false} : () -> !torch.bool
  %y = "torch.aten.convolution"(%x, %w, %b, %stride, %pad, %dil, %false, %pad, %c1) : (!torch.vtensor<[1,4,8,8],f32>, !torch.vtensor<[16,4,2,2],f32>, !torch.vtensor<[16],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int) -> !torch.vtensor<[1,16,4,4],f32>
  return %y : !torch.vtensor<[1,16,4,4],f32>
}

// -----

// ----- sin / cos of the sinusoidal timestep embedding -> dit.sin / dit.cos -----
// CHECK-LABEL: func.func @sin_cos
// CHECK-NEXT: %[[S:.*]] = "dit.sin"(%arg0) : (tensor<1x8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT: %[[C:.*]] = "dit.cos"(%arg0) : (tensor<1x8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT: "dit.concat"(%[[S]], %[[C]]) {dim = 1 : i64}

func.func @sin_cos(%x: !torch.vtensor<[1,8],f32>) -> !torch.vtensor<[1,16],f32> {
  %s = "torch.aten.sin"(%x) : (!torch.vtensor<[1,8],f32>) -> !torch.vtensor<[1,8],f32>
  %c = "torch.aten.cos"(%x) : (!torch.vtensor<[1,8],f32>) -> !torch.vtensor<[1,8],f32>
  %l = "torch.prim.ListConstruct"(%s, %c) : (!torch.vtensor<[1,8],f32>, !torch.vtensor<[1,8],f32>) -> !torch.list<vtensor>
  %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
  %y = "torch.aten.cat"(%l, %c1) : (!torch.list<vtensor>, !torch.int) -> !torch.vtensor<[1,16],f32>
  return %y : !torch.vtensor<[1,16],f32>
}

// -----

// ----- arange(0, 8) in f32 (Timesteps' exponent) -> a dense constant -----
// CHECK-LABEL: func.func @arange_start
// CHECK-NEXT: %[[A:.*]] = arith.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00]> : tensor<8xf32>
// CHECK-NEXT: "dit.mul"(%arg0, %[[A]])

func.func @arange_start(%x: !torch.vtensor<[8],f32>) -> !torch.vtensor<[8],f32> {
  %c0 = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
  %c8 = "torch.constant.int"() {value = 8 : i64} : () -> !torch.int
  %f32 = "torch.constant.int"() {value = 6 : i64} : () -> !torch.int
  %none = "torch.constant.none"() : () -> !torch.none
  %cpu = "torch.constant.device"() {value = "cpu"} : () -> !torch.Device
  %false = "torch.constant.bool"() {value = false} : () -> !torch.bool
  %a = "torch.aten.arange.start"(%c0, %c8, %f32, %none, %cpu, %false) : (!torch.int, !torch.int, !torch.int, !torch.none, !torch.Device, !torch.bool) -> !torch.vtensor<[8],f32>
  %y = "torch.aten.mul.Tensor"(%x, %a) : (!torch.vtensor<[8],f32>, !torch.vtensor<[8],f32>) -> !torch.vtensor<[8],f32>
  return %y : !torch.vtensor<[8],f32>
}

// -----

// ----- arange with a step in i64, and a float arange(end) -----
// CHECK-LABEL: func.func @arange_step
// CHECK: arith.constant dense<[1, 4, 7]> : tensor<3xi64>
// CHECK: arith.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00]> : tensor<3xf32>
// VALUES-LABEL: @arange_step:
// VALUES: values i64[3]: [1.000000, 4.000000, 7.000000]
// VALUES: values f32[3]: [0.000000, 1.000000, 2.000000]

func.func @arange_step() -> (!torch.vtensor<[3],si64>, !torch.vtensor<[3],f32>) {
  %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
  %c9 = "torch.constant.int"() {value = 9 : i64} : () -> !torch.int
  %c3 = "torch.constant.int"() {value = 3 : i64} : () -> !torch.int
  %none = "torch.constant.none"() : () -> !torch.none
  %false = "torch.constant.bool"() {value = false} : () -> !torch.bool
  %a = "torch.aten.arange.start_step"(%c1, %c9, %c3, %none, %none, %none, %false) : (!torch.int, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool) -> !torch.vtensor<[3],si64>
  %e = "torch.constant.float"() {value = 2.5 : f64} : () -> !torch.float
  %b = "torch.aten.arange"(%e, %none, %none, %none, %false) : (!torch.float, !torch.none, !torch.none, !torch.none, !torch.bool) -> !torch.vtensor<[3],f32>
  return %a, %b : !torch.vtensor<[3],si64>, !torch.vtensor<[3],f32>
}

// -----

// ----- an arange whose result type disagrees with its bounds: kept as dit.opaque -----
// CHECK-LABEL: func.func @arange_wrong_length
// CHECK: "dit.opaque"
// REPORT: skipped at {{.*}}: aten.arange.start: arange(0, 8, 1) has 8 elements, the result type 4; kept as dit.opaque

func.func @arange_wrong_length() -> !torch.vtensor<[4],f32> {
  %c0 = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
  %c8 = "torch.constant.int"() {value = 8 : i64} : () -> !torch.int
  %none = "torch.constant.none"() : () -> !torch.none
  %false = "torch.constant.bool"() {value = false} : () -> !torch.bool
  %a = "torch.aten.arange.start"(%c0, %c8, %none, %none, %none, %false) : (!torch.int, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool) -> !torch.vtensor<[4],f32>
  return %a : !torch.vtensor<[4],f32>
}

// -----

// ----- get_1d_rotary_pos_embed's f64 chain: 1 / theta^(arange/dim), outer with the positions,
// cos, back to f32. dit has no f64: every f64 result is computed in f32 (reported); the
// frequencies depend on constants only and fold at compile time (arange -> div -> pow ->
// reciprocal -> the outer's reshape: 1 / 10000^(0/4), 1 / 10000^(2/4) = 1, 0.01 in f32) -----
// CHECK-LABEL: func.func @rope_f64_table(%arg0: tensor<6xf32>) -> tensor<6x2xf32>
// CHECK-NEXT: %[[P:.*]] = "dit.reshape"(%arg0) : (tensor<6xf32>) -> tensor<6x1xf32>
// CHECK-NEXT: %[[F:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 0.00999999977]]> : tensor<1x2xf32>
// CHECK-NEXT: %[[A:.*]] = "dit.mul"(%[[P]], %[[F]]) : (tensor<6x1xf32>, tensor<1x2xf32>) -> tensor<6x2xf32>
// CHECK-NEXT: %[[C:.*]] = "dit.cos"(%[[A]]) : (tensor<6x2xf32>) -> tensor<6x2xf32>
// CHECK-NEXT: return %[[C]]
// CHECK-NOT: f64
// REPORT: applied at {{.*}}: @rope_f64_table: 4 ops on constants folded at compile time (at most 4096 elements each)
// REPORT: applied at {{.*}}: @rope_f64_table: 6 f64 results computed in f32 (dit has no f64; diffusers does the same on the NPU)

func.func @rope_f64_table(%pos: !torch.vtensor<[6],f32>) -> !torch.vtensor<[6,2],f32> {
  %c0 = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
  %c4 = "torch.constant.int"() {value = 4 : i64} : () -> !torch.int
  %c2 = "torch.constant.int"() {value = 2 : i64} : () -> !torch.int
  %f64 = "torch.constant.int"() {value = 7 : i64} : () -> !torch.int
  %f32 = "torch.constant.int"() {value = 6 : i64} : () -> !torch.int
  %none = "torch.constant.none"() : () -> !torch.none
  %false = "torch.constant.bool"() {value = false} : () -> !torch.bool
  %theta = "torch.constant.float"() {value = 1.000000e+04 : f64} : () -> !torch.float
  %a = "torch.aten.arange.start_step"(%c0, %c4, %c2, %f64, %none, %none, %false) : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.none, !torch.none, !torch.bool) -> !torch.vtensor<[2],f64>
  %d = "torch.aten.div.Scalar"(%a, %c4) : (!torch.vtensor<[2],f64>, !torch.int) -> !torch.vtensor<[2],f64>
  %p = "torch.aten.pow.Scalar"(%theta, %d) : (!torch.float, !torch.vtensor<[2],f64>) -> !torch.vtensor<[2],f64>
  %r = "torch.aten.reciprocal"(%p) : (!torch.vtensor<[2],f64>) -> !torch.vtensor<[2],f64>
  %o = "torch.aten.outer"(%pos, %r) : (!torch.vtensor<[6],f32>, !torch.vtensor<[2],f64>) -> !torch.vtensor<[6,2],f64>
  %c = "torch.aten.cos"(%o) : (!torch.vtensor<[6,2],f64>) -> !torch.vtensor<[6,2],f64>
  %y = "torch.aten._to_copy"(%c, %f32, %none, %none, %none, %false, %none) : (!torch.vtensor<[6,2],f64>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[6,2],f32>
  return %y : !torch.vtensor<[6,2],f32>
}

// -----

// ----- Timesteps' frequencies exp(-ln(10000) · arange(4) / 4) fold (each step rounded to f32,
// as torch computes them in f32); the product with the timestep (an input) and its sin stay -----
// CHECK-LABEL: func.func @timestep_frequencies
// CHECK-NEXT: %[[F:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 0.099999994, 0.00999999977, 9.99999931E-4]]> : tensor<1x4xf32>
// CHECK-NEXT: %[[T:.*]] = "dit.mul"(%arg0, %[[F]]) : (tensor<1x1xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: "dit.sin"(%[[T]])
// REPORT: applied at {{.*}}: @timestep_frequencies: 4 ops on constants folded at compile time (at most 4096 elements each)

func.func @timestep_frequencies(%t: !torch.vtensor<[1,1],f32>) -> !torch.vtensor<[1,4],f32> {
  %c0 = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
  %c4 = "torch.constant.int"() {value = 4 : i64} : () -> !torch.int
  %f32 = "torch.constant.int"() {value = 6 : i64} : () -> !torch.int
  %none = "torch.constant.none"() : () -> !torch.none
  %false = "torch.constant.bool"() {value = false} : () -> !torch.bool
  %neg_ln = "torch.constant.float"() {value = -9.2103403719761836 : f64} : () -> !torch.float
  %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
  %a = "torch.aten.arange.start"(%c0, %c4, %f32, %none, %none, %false) : (!torch.int, !torch.int, !torch.int, !torch.none, !torch.none, !torch.bool) -> !torch.vtensor<[4],f32>
  %m = "torch.aten.mul.Scalar"(%a, %neg_ln) : (!torch.vtensor<[4],f32>, !torch.float) -> !torch.vtensor<[4],f32>
  %d = "torch.aten.div.Scalar"(%m, %c4) : (!torch.vtensor<[4],f32>, !torch.int) -> !torch.vtensor<[4],f32>
  %e = "torch.aten.exp"(%d) : (!torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32>
  %u = "torch.aten.unsqueeze"(%e, %c0) : (!torch.vtensor<[4],f32>, !torch.int) -> !torch.vtensor<[1,4],f32>
  %p = "torch.aten.mul.Tensor"(%t, %u) : (!torch.vtensor<[1,1],f32>, !torch.vtensor<[1,4],f32>) -> !torch.vtensor<[1,4],f32>
  %s = "torch.aten.sin"(%p) : (!torch.vtensor<[1,4],f32>) -> !torch.vtensor<[1,4],f32>
  return %s : !torch.vtensor<[1,4],f32>
}

// -----

// ----- einsum that permutes one operand (SD3's unpatchify) -> dit.transpose -----
// CHECK-LABEL: func.func @einsum_permute
// CHECK-NEXT: %[[T:.*]] = "dit.transpose"(%arg0) {perm = array<i64: 0, 5, 1, 3, 2, 4>} : (tensor<1x2x2x2x2x3xf32>) -> tensor<1x3x2x2x2x2xf32>
// CHECK-NEXT: return %[[T]]

func.func @einsum_permute(%x: !torch.vtensor<[1,2,2,2,2,3],f32>) -> !torch.vtensor<[1,3,2,2,2,2],f32> {
  %eq = "torch.constant.str"() {value = "nhwpqc->nchpwq"} : () -> !torch.str
  %l = "torch.prim.ListConstruct"(%x) : (!torch.vtensor<[1,2,2,2,2,3],f32>) -> !torch.list<vtensor>
  %none = "torch.constant.none"() : () -> !torch.none
  %y = "torch.aten.einsum"(%eq, %l, %none) : (!torch.str, !torch.list<vtensor>, !torch.none) -> !torch.vtensor<[1,3,2,2,2,2],f32>
  return %y : !torch.vtensor<[1,3,2,2,2,2],f32>
}

// -----

// ----- an einsum that contracts is no permutation: kept as dit.opaque -----
// CHECK-LABEL: func.func @einsum_contraction
// CHECK: "dit.opaque"
// REPORT: skipped at {{.*}}: aten.einsum: 'ij->i' is not a permutation of the operand's dims; kept as dit.opaque

func.func @einsum_contraction(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2],f32> {
  %eq = "torch.constant.str"() {value = "ij->i"} : () -> !torch.str
  %l = "torch.prim.ListConstruct"(%x) : (!torch.vtensor<[2,3],f32>) -> !torch.list<vtensor>
  %none = "torch.constant.none"() : () -> !torch.none
  %y = "torch.aten.einsum"(%eq, %l, %none) : (!torch.str, !torch.list<vtensor>, !torch.none) -> !torch.vtensor<[2],f32>
  return %y : !torch.vtensor<[2],f32>
}
