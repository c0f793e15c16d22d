// REQUIRES: bishengir
// One small dit.fused group (a bf16 scale by a rank-0 scalar, a shift and an exp) through
// dit-lower-fused-to-linalg and then Huawei's compilers up to the HIVM module, for Ascend910B2
// (A2, bishengir-compile) and Ascend950PR_9599 (950, bishengir-compile-a5). Block dims are the
// chips' AI core counts from the compilers' own device table (hacc-append-device-spec): 24 and
// 36. The stand-in hivmc on PATH (lit.cfg.py) copies the HIVM module out; --save-temps keeps it.
// RUN: rm -rf %t && mkdir -p %t/a2 %t/a5
// RUN: dit-opt %s --dit-auto-fuse --emit=linalg -o %t/linalg
// RUN: FileCheck %s --check-prefix=LINALG < %t/linalg/fused_scale_shift_0.mlir
// RUN: %bishengir %t/linalg/fused_scale_shift_0.mlir --enable-hfusion-compile=true --mlir-disable-threading --target=Ascend910B2 --block-dim=24 --save-temps=%t/a2 -o %t/a2/kernel
// RUN: FileCheck %s --check-prefix=A2 < %t/a2/module.hivm.opt.mlir
// RUN: %bishengir-compile-a5 %t/linalg/fused_scale_shift_0.mlir --enable-hfusion-compile=true --mlir-disable-threading --target=Ascend950PR_9599 --block-dim=36 --save-temps=%t/a5 -o %t/a5/kernel
// RUN: FileCheck %s --check-prefix=A5 < %t/a5/module.hivm.opt.mlir

// The rank-0 scale is viewed as tensor<1xbf16> and broadcast through a leading unit dim: the
// 950 compiler cannot classify a direct broadcast from rank 0 in bf16.
// LINALG: func.func @fused_scale_shift_0(%arg0: tensor<64x256xbf16>, %arg1: tensor<bf16>, %arg2: tensor<64x256xbf16>) -> tensor<64x256xbf16> attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hfusion.fusion_kind = #hfusion.fusion_kind<ANY_PB>}
// LINALG: tensor.expand_shape %arg1 [] output_shape [1] : tensor<bf16> into tensor<1xbf16>
// LINALG: linalg.broadcast ins(%{{.*}} : tensor<1xbf16>) outs(%{{.*}} : tensor<1x64x256xbf16>) dimensions = [1, 2]
// LINALG: tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<1x64x256xbf16> into tensor<64x256xbf16>
// LINALG: arith.mulf
// LINALG: arith.addf
// LINALG: math.exp

// On A2 the kernel is a vector-core DEVICE entry on global-memory buffers (three inputs, one
// output) over the whole chip; the scale became a vector-scalar multiply, so the broadcast was
// folded away, and the bf16 math runs in f32 between casts.
// A2: dlti.target_system_spec {{.*}}"AI_CORE_COUNT", 24 : i32
// A2: func.func @fused_scale_shift_0(%arg0: memref<64x256xbf16, #hivm.address_space<gm>> {hacc.arg_type = #hacc.arg_type<input>{{.*}}%arg1: memref<bf16, #hivm.address_space<gm>>{{.*}}%arg3: memref<64x256xbf16, #hivm.address_space<gm>> {hacc.arg_type = #hacc.arg_type<output>{{.*}}hacc.block_dim = 24 : i64, hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>{{.*}}#hivm.func_core_type<AIV>
// A2-DAG: call @vcast_bfloat16_t_to_float_1d_with_mode
// A2-DAG: call @vmuls_vs_1d_float
// A2-DAG: call @vadd_1d_float
// A2-DAG: call @vexp_1d_float
// A2-DAG: call @vcast_float_to_bfloat16_t_1d_with_mode
// A2-DAG: call @store_ubuf_to_gm_1d_bfloat16_t

// 950: the same entry over 36 cores; the math is one outlined vector function holding the
// scalar multiply, the add and the exp as register-based intrinsics.
// A5: dlti.target_system_spec {{.*}}"AI_CORE_COUNT", 36 : i32
// A5: func.func @fused_scale_shift_0_outlined_vf_0(
// A5-DAG: intr.hivm.vmul.s
// A5-DAG: intr.hivm.vadd.s
// A5-DAG: intr.hivm.vexp
// A5: func.func @fused_scale_shift_0(%arg0: memref<64x256xbf16, #hivm.address_space<gm>>{{.*}}hacc.block_dim = 36 : i64, hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>
// A5: call @fused_scale_shift_0_outlined_vf_0
// A5: call @store_ubuf_to_gm_1d_bfloat16_t
func.func @scale_shift(%x: tensor<64x256xbf16>, %s: tensor<bf16>, %b: tensor<64x256xbf16>) -> tensor<64x256xbf16> {
  %m = "dit.mul"(%x, %s) : (tensor<64x256xbf16>, tensor<bf16>) -> tensor<64x256xbf16>
  %a = "dit.add"(%m, %b) : (tensor<64x256xbf16>, tensor<64x256xbf16>) -> tensor<64x256xbf16>
  %e = "dit.exp"(%a) : (tensor<64x256xbf16>) -> tensor<64x256xbf16>
  return %e : tensor<64x256xbf16>
}
