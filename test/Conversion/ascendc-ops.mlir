// Every op a dit.fused group can hold, through `--emit=ascendc`: the generated kernel sources
// are checked here; lowering/ascendc/tests/ops.rs compiles them against the CPU model of
// Ascend C and compares them with the reference runtime (odd row counts, widths that are not
// multiples of 16, broadcasts of every kind, concats that split the rows, several outputs).
// RUN: dit-opt %s --emit=ascendc -o %t
// RUN: FileCheck %s --check-prefix=ELEM --input-file=%t/kernels/fused_elementwise_0.cpp
// RUN: FileCheck %s --check-prefix=NORM --input-file=%t/kernels/fused_norms_0.cpp
// RUN: FileCheck %s --check-prefix=ROPE --input-file=%t/kernels/fused_rope_0.cpp
// RUN: FileCheck %s --check-prefix=CAT --input-file=%t/kernels/fused_concat_0.cpp
// RUN: FileCheck %s --check-prefix=TILE --input-file=%t/kernels/fused_norms_0_tiling.h
// RUN: FileCheck %s --check-prefix=CMAKE --input-file=%t/CMakeLists.txt
// RUN: FileCheck %s --check-prefix=HOST --input-file=%t/host/dit_kernels.cpp

// ELEM: DataCopyPad(
// ELEM: Duplicate(
// ELEM: Div(
// ELEM: Relu(
// ELEM: TQue<TPosition::VECIN, BUFFER_NUM>
// ELEM: extern "C" __global__ __aicore__ void fused_elementwise_0(GM_ADDR x0, GM_ADDR x1, GM_ADDR x2, GM_ADDR x3, GM_ADDR x4, GM_ADDR y0, GM_ADDR y1, fused_elementwise_0_TilingData tiling)
func.func @elementwise(%x: tensor<37x24xf32>, %y: tensor<37x24xf32>, %b: tensor<24xf32>,
                       %c: tensor<37x1xf32>, %s: tensor<f32>) -> (tensor<37x24xf32>, tensor<37x24xf32>) {
  %0:2 = "dit.fused"(%x, %y, %b, %c, %s) ({
  ^bb0(%a0: tensor<37x24xf32>, %a1: tensor<37x24xf32>, %a2: tensor<24xf32>, %a3: tensor<37x1xf32>, %a4: tensor<f32>):
    %1 = "dit.add"(%a0, %a1) : (tensor<37x24xf32>, tensor<37x24xf32>) -> tensor<37x24xf32>
    %2 = "dit.sub"(%1, %a2) : (tensor<37x24xf32>, tensor<24xf32>) -> tensor<37x24xf32>
    %3 = "dit.mul"(%2, %a3) : (tensor<37x24xf32>, tensor<37x1xf32>) -> tensor<37x24xf32>
    %4 = "dit.div"(%3, %a4) : (tensor<37x24xf32>, tensor<f32>) -> tensor<37x24xf32>
    %5 = "dit.relu"(%4) : (tensor<37x24xf32>) -> tensor<37x24xf32>
    %6 = "dit.neg"(%5) : (tensor<37x24xf32>) -> tensor<37x24xf32>
    %7 = "dit.exp"(%a0) : (tensor<37x24xf32>) -> tensor<37x24xf32>
    %8 = "dit.sqrt"(%7) : (tensor<37x24xf32>) -> tensor<37x24xf32>
    %9 = "dit.rsqrt"(%7) : (tensor<37x24xf32>) -> tensor<37x24xf32>
    %10 = "dit.add"(%8, %9) : (tensor<37x24xf32>, tensor<37x24xf32>) -> tensor<37x24xf32>
    %11 = "dit.sub"(%a2, %10) : (tensor<24xf32>, tensor<37x24xf32>) -> tensor<37x24xf32>
    %12 = "dit.div"(%a4, %11) : (tensor<f32>, tensor<37x24xf32>) -> tensor<37x24xf32>
    %13 = "dit.add"(%6, %12) : (tensor<37x24xf32>, tensor<37x24xf32>) -> tensor<37x24xf32>
    "dit.yield"(%4, %13) : (tensor<37x24xf32>, tensor<37x24xf32>) -> ()
  }) {kernel = "fused_elementwise_0"} : (tensor<37x24xf32>, tensor<37x24xf32>, tensor<24xf32>, tensor<37x1xf32>, tensor<f32>) -> (tensor<37x24xf32>, tensor<37x24xf32>)
  return %0#0, %0#1 : tensor<37x24xf32>, tensor<37x24xf32>
}

func.func @activations(%x: tensor<5x7x40xbf16>) -> (tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>) {
  %0:7 = "dit.fused"(%x) ({
  ^bb0(%a: tensor<5x7x40xbf16>):
    %1 = "dit.tanh"(%a) : (tensor<5x7x40xbf16>) -> tensor<5x7x40xbf16>
    %2 = "dit.erf"(%a) : (tensor<5x7x40xbf16>) -> tensor<5x7x40xbf16>
    %3 = "dit.sigmoid"(%a) : (tensor<5x7x40xbf16>) -> tensor<5x7x40xbf16>
    %4 = "dit.silu"(%a) : (tensor<5x7x40xbf16>) -> tensor<5x7x40xbf16>
    %5 = "dit.gelu"(%a) {approximate = "none"} : (tensor<5x7x40xbf16>) -> tensor<5x7x40xbf16>
    %6 = "dit.gelu"(%a) {approximate = "tanh"} : (tensor<5x7x40xbf16>) -> tensor<5x7x40xbf16>
    %7 = "dit.fast_gelu"(%a) : (tensor<5x7x40xbf16>) -> tensor<5x7x40xbf16>
    "dit.yield"(%1, %2, %3, %4, %5, %6, %7) : (tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>) -> ()
  }) {kernel = "fused_activations_0"} : (tensor<5x7x40xbf16>) -> (tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>)
  return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6 : tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>, tensor<5x7x40xbf16>
}

func.func @gated(%x: tensor<3x11x24xf16>, %y: tensor<1x11x24xf16>, %g: tensor<3x11x24xf16>,
                 %h: tensor<3x11x48xf16>, %k: tensor<3x11x24xf16>) -> (tensor<3x11x24xf16>, tensor<3x11x24xf16>, tensor<3x11x24xf16>, tensor<3x11x12xf16>) {
  %0:4 = "dit.fused"(%x, %y, %g, %h, %k) ({
  ^bb0(%a0: tensor<3x11x24xf16>, %a1: tensor<1x11x24xf16>, %a2: tensor<3x11x24xf16>, %a3: tensor<3x11x48xf16>, %a4: tensor<3x11x24xf16>):
    %1 = "dit.muls_add"(%a0, %a1) {scale = 5.000000e-01 : f32} : (tensor<3x11x24xf16>, tensor<1x11x24xf16>) -> tensor<3x11x24xf16>
    %2 = "dit.silu_mul"(%a2, %1) : (tensor<3x11x24xf16>, tensor<3x11x24xf16>) -> tensor<3x11x24xf16>
    %3 = "dit.swiglu"(%a3) {dim = -1 : i64} : (tensor<3x11x48xf16>) -> tensor<3x11x24xf16>
    %4 = "dit.gelu_mul"(%a4) {approximate = "tanh"} : (tensor<3x11x24xf16>) -> tensor<3x11x12xf16>
    "dit.yield"(%1, %2, %3, %4) : (tensor<3x11x24xf16>, tensor<3x11x24xf16>, tensor<3x11x24xf16>, tensor<3x11x12xf16>) -> ()
  }) {kernel = "fused_gated_0"} : (tensor<3x11x24xf16>, tensor<1x11x24xf16>, tensor<3x11x24xf16>, tensor<3x11x48xf16>, tensor<3x11x24xf16>) -> (tensor<3x11x24xf16>, tensor<3x11x24xf16>, tensor<3x11x24xf16>, tensor<3x11x12xf16>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<3x11x24xf16>, tensor<3x11x24xf16>, tensor<3x11x24xf16>, tensor<3x11x12xf16>
}

// NORM: ReduceSum(
// NORM: Rsqrt(
// NORM: SyncVS();
// NORM: GetValue(
// NORM: ReduceMax(
// TILE: struct fused_norms_0_TilingData {
// TILE: inline int32_t fused_norms_0_Tiling(uint32_t ubBytes, uint32_t coreNum
func.func @norms(%x: tensor<2x9x40xbf16>, %g: tensor<40xf32>, %b: tensor<40xf32>, %gb: tensor<40xbf16>,
                 %sc: tensor<2x1x40xbf16>, %sh: tensor<2x1x40xbf16>) -> (tensor<2x9x40xbf16>, tensor<2x9x40xbf16>, tensor<2x9x40xbf16>, tensor<2x9x40xbf16>, tensor<2x9x40xbf16>) {
  %0:5 = "dit.fused"(%x, %g, %b, %gb, %sc, %sh) ({
  ^bb0(%a0: tensor<2x9x40xbf16>, %a1: tensor<40xf32>, %a2: tensor<40xf32>, %a3: tensor<40xbf16>, %a4: tensor<2x1x40xbf16>, %a5: tensor<2x1x40xbf16>):
    %1 = "dit.layer_norm"(%a0, %a1, %a2) {epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x9x40xbf16>, tensor<40xf32>, tensor<40xf32>) -> tensor<2x9x40xbf16>
    %2 = "dit.layer_norm"(%a0) {epsilon = 9.99999997E-7 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2x9x40xbf16>) -> tensor<2x9x40xbf16>
    %3 = "dit.rms_norm"(%a0, %a3) {epsilon = 9.99999997E-7 : f32} : (tensor<2x9x40xbf16>, tensor<40xbf16>) -> tensor<2x9x40xbf16>
    %4 = "dit.ada_layer_norm"(%a0, %a4, %a5) {epsilon = 9.99999997E-7 : f32} : (tensor<2x9x40xbf16>, tensor<2x1x40xbf16>, tensor<2x1x40xbf16>) -> tensor<2x9x40xbf16>
    %5 = "dit.softmax"(%a0) {dim = 2 : i64} : (tensor<2x9x40xbf16>) -> tensor<2x9x40xbf16>
    "dit.yield"(%1, %2, %3, %4, %5) : (tensor<2x9x40xbf16>, tensor<2x9x40xbf16>, tensor<2x9x40xbf16>, tensor<2x9x40xbf16>, tensor<2x9x40xbf16>) -> ()
  }) {kernel = "fused_norms_0"} : (tensor<2x9x40xbf16>, tensor<40xf32>, tensor<40xf32>, tensor<40xbf16>, tensor<2x1x40xbf16>, tensor<2x1x40xbf16>) -> (tensor<2x9x40xbf16>, tensor<2x9x40xbf16>, tensor<2x9x40xbf16>, tensor<2x9x40xbf16>, tensor<2x9x40xbf16>)
  return %0#0, %0#1, %0#2, %0#3, %0#4 : tensor<2x9x40xbf16>, tensor<2x9x40xbf16>, tensor<2x9x40xbf16>, tensor<2x9x40xbf16>, tensor<2x9x40xbf16>
}

// ROPE: tables.SetValue(
// ROPE: SyncSV();
// ROPE: Gather(
func.func @rope(%x: tensor<2x5x3x24xbf16>, %c: tensor<5x1x24xf32>, %s: tensor<5x1x24xf32>,
                %ci: tensor<1x5x1x24xf32>, %si: tensor<1x5x1x24xf32>) -> (tensor<2x5x3x24xbf16>, tensor<2x5x3x24xbf16>) {
  %0:2 = "dit.fused"(%x, %c, %s, %ci, %si) ({
  ^bb0(%a0: tensor<2x5x3x24xbf16>, %a1: tensor<5x1x24xf32>, %a2: tensor<5x1x24xf32>, %a3: tensor<1x5x1x24xf32>, %a4: tensor<1x5x1x24xf32>):
    %1 = "dit.rope"(%a0, %a1, %a2) {mode = "half"} : (tensor<2x5x3x24xbf16>, tensor<5x1x24xf32>, tensor<5x1x24xf32>) -> tensor<2x5x3x24xbf16>
    %2 = "dit.rope"(%a0, %a3, %a4) {mode = "interleave"} : (tensor<2x5x3x24xbf16>, tensor<1x5x1x24xf32>, tensor<1x5x1x24xf32>) -> tensor<2x5x3x24xbf16>
    "dit.yield"(%1, %2) : (tensor<2x5x3x24xbf16>, tensor<2x5x3x24xbf16>) -> ()
  }) {kernel = "fused_rope_0"} : (tensor<2x5x3x24xbf16>, tensor<5x1x24xf32>, tensor<5x1x24xf32>, tensor<1x5x1x24xf32>, tensor<1x5x1x24xf32>) -> (tensor<2x5x3x24xbf16>, tensor<2x5x3x24xbf16>)
  return %0#0, %0#1 : tensor<2x5x3x24xbf16>, tensor<2x5x3x24xbf16>
}

// CAT: // Stage 0:
// CAT: // Stage 1:
// CAT: // Stage 2:
// CAT: pipe.Reset();
func.func @concat(%a: tensor<2x3x16xbf16>, %b: tensor<2x5x16xbf16>, %c: tensor<2x8x8xbf16>, %d: tensor<2x2x16xbf16>,
                  %e: tensor<1x8x16xbf16>) -> (tensor<2x8x24xbf16>, tensor<2x10x16xbf16>, tensor<3x8x16xbf16>) {
  %0:3 = "dit.fused"(%a, %b, %c, %d, %e) ({
  ^bb0(%a0: tensor<2x3x16xbf16>, %a1: tensor<2x5x16xbf16>, %a2: tensor<2x8x8xbf16>, %a3: tensor<2x2x16xbf16>, %a4: tensor<1x8x16xbf16>):
    %1 = "dit.concat"(%a0, %a1) {dim = 1 : i64} : (tensor<2x3x16xbf16>, tensor<2x5x16xbf16>) -> tensor<2x8x16xbf16>
    %2 = "dit.concat"(%1, %a2) {dim = 2 : i64} : (tensor<2x8x16xbf16>, tensor<2x8x8xbf16>) -> tensor<2x8x24xbf16>
    %3 = "dit.concat"(%1, %a3) {dim = 1 : i64} : (tensor<2x8x16xbf16>, tensor<2x2x16xbf16>) -> tensor<2x10x16xbf16>
    %4 = "dit.concat"(%a4, %1) {dim = 0 : i64} : (tensor<1x8x16xbf16>, tensor<2x8x16xbf16>) -> tensor<3x8x16xbf16>
    "dit.yield"(%2, %3, %4) : (tensor<2x8x24xbf16>, tensor<2x10x16xbf16>, tensor<3x8x16xbf16>) -> ()
  }) {kernel = "fused_concat_0"} : (tensor<2x3x16xbf16>, tensor<2x5x16xbf16>, tensor<2x8x8xbf16>, tensor<2x2x16xbf16>, tensor<1x8x16xbf16>) -> (tensor<2x8x24xbf16>, tensor<2x10x16xbf16>, tensor<3x8x16xbf16>)
  return %0#0, %0#1, %0#2 : tensor<2x8x24xbf16>, tensor<2x10x16xbf16>, tensor<3x8x16xbf16>
}

func.func @concat_compute(%a: tensor<1x4x32xf32>, %b: tensor<1x3x32xf32>, %s: tensor<1x1x32xf32>) -> tensor<1x7x32xbf16> {
  %0 = "dit.fused"(%a, %b, %s) ({
  ^bb0(%a0: tensor<1x4x32xf32>, %a1: tensor<1x3x32xf32>, %a2: tensor<1x1x32xf32>):
    %1 = "dit.exp"(%a0) : (tensor<1x4x32xf32>) -> tensor<1x4x32xf32>
    %2 = "dit.concat"(%1, %a1) {dim = 1 : i64} : (tensor<1x4x32xf32>, tensor<1x3x32xf32>) -> tensor<1x7x32xf32>
    %3 = "dit.mul"(%2, %a2) : (tensor<1x7x32xf32>, tensor<1x1x32xf32>) -> tensor<1x7x32xf32>
    %4 = "dit.cast"(%3) : (tensor<1x7x32xf32>) -> tensor<1x7x32xbf16>
    "dit.yield"(%4) : (tensor<1x7x32xbf16>) -> ()
  }) {kernel = "fused_concat_compute_0"} : (tensor<1x4x32xf32>, tensor<1x3x32xf32>, tensor<1x1x32xf32>) -> tensor<1x7x32xbf16>
  return %0 : tensor<1x7x32xbf16>
}

func.func @casts(%x: tensor<13x20xf32>, %y: tensor<13x20xf32>, %h: tensor<13x20xf16>) -> (tensor<13x20xf32>, tensor<13x20xf16>, tensor<13x20xbf16>) {
  %0:3 = "dit.fused"(%x, %y, %h) ({
  ^bb0(%a0: tensor<13x20xf32>, %a1: tensor<13x20xf32>, %a2: tensor<13x20xf16>):
    %1 = "dit.cast"(%a0) : (tensor<13x20xf32>) -> tensor<13x20xbf16>
    %2 = "dit.cast"(%1) : (tensor<13x20xbf16>) -> tensor<13x20xf32>
    %3 = "dit.add"(%2, %a1) : (tensor<13x20xf32>, tensor<13x20xf32>) -> tensor<13x20xf32>
    %4 = "dit.cast"(%3) : (tensor<13x20xf32>) -> tensor<13x20xf16>
    %5 = "dit.cast"(%a2) : (tensor<13x20xf16>) -> tensor<13x20xbf16>
    "dit.yield"(%3, %4, %5) : (tensor<13x20xf32>, tensor<13x20xf16>, tensor<13x20xbf16>) -> ()
  }) {kernel = "fused_casts_0"} : (tensor<13x20xf32>, tensor<13x20xf32>, tensor<13x20xf16>) -> (tensor<13x20xf32>, tensor<13x20xf16>, tensor<13x20xbf16>)
  return %0#0, %0#1, %0#2 : tensor<13x20xf32>, tensor<13x20xf16>, tensor<13x20xbf16>
}

func.func @shapes(%x: tensor<4x16xf32>, %y: tensor<7x16xf32>, %s: tensor<1x16xf32>, %t: tensor<16xf32>,
                  %u: tensor<f32>, %v: tensor<f32>) -> (tensor<4x16xf32>, tensor<7x16xf32>, tensor<1x16xf32>, tensor<f32>) {
  %0:4 = "dit.fused"(%x, %y, %s, %t, %u, %v) ({
  ^bb0(%a0: tensor<4x16xf32>, %a1: tensor<7x16xf32>, %a2: tensor<1x16xf32>, %a3: tensor<16xf32>, %a4: tensor<f32>, %a5: tensor<f32>):
    %1 = "dit.mul"(%a2, %a3) : (tensor<1x16xf32>, tensor<16xf32>) -> tensor<1x16xf32>
    %2 = "dit.add"(%a0, %1) : (tensor<4x16xf32>, tensor<1x16xf32>) -> tensor<4x16xf32>
    %3 = "dit.sub"(%a1, %1) : (tensor<7x16xf32>, tensor<1x16xf32>) -> tensor<7x16xf32>
    %4 = "dit.add"(%a4, %a5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "dit.yield"(%2, %3, %1, %4) : (tensor<4x16xf32>, tensor<7x16xf32>, tensor<1x16xf32>, tensor<f32>) -> ()
  }) {kernel = "fused_shapes_0"} : (tensor<4x16xf32>, tensor<7x16xf32>, tensor<1x16xf32>, tensor<16xf32>, tensor<f32>, tensor<f32>) -> (tensor<4x16xf32>, tensor<7x16xf32>, tensor<1x16xf32>, tensor<f32>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<4x16xf32>, tensor<7x16xf32>, tensor<1x16xf32>, tensor<f32>
}

// CMAKE: set(DIT_KERNEL_NAMES "fused_elementwise_0;fused_activations_0;fused_gated_0;fused_norms_0;fused_rope_0;fused_concat_0;fused_concat_compute_0;fused_casts_0;fused_shapes_0")
// CMAKE: set(DIT_UB_BYTES 196608)
// HOST: extern "C" int32_t dit_kernel_launch(
