// A FLUX.1 single-stream block (FluxSingleTransformerBlock, diffusers v0.32) in torch-mlir's
// torch dialect, generic form, as the fx importer writes it after torch.export with an empty
// decomposition table (aten.linear, gelu, layer_norm and sdpa stay whole; chunk is
// aten.split.Tensor; .to() is aten._to_copy): the same graph as test/models/flux_single_block.mlir
// at reduced widths (hidden 64, 2 heads x 32, MLP 256, 16 tokens) so that the reference runtime
// runs it. RMSNorm and RoPE are spelled out as diffusers computes them (pow / mean / rsqrt in f32;
// reshape(..., -1, 2).unbind(-1), stack([-imag, real], -1).flatten(3)). The conversion must give
// graphs the fusion patterns recognise: --fuse-all fires rms_norm (q and k), rope (q and k, its
// f32 tables cast to bf16 at load), adalayernorm and fast_gelu.
//
// RUN: dit-opt %s --dit-convert-torch-to-dit | dit-opt | FileCheck %s
// RUN: dit-opt %s --dit-convert-torch-to-dit --fuse-all --fusion-report=text -o %t.fused.mlir 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-opt %t.fused.mlir --dit-verify | FileCheck %s --check-prefix=FUSED
// RUN: dit-opt %s --dit-convert-torch-to-dit | dit-run - --compare-unfused > /dev/null

// CHECK-LABEL: func.func @flux_single_block(%arg0: tensor<1x16x64xbf16>, %arg1: tensor<1x64xbf16>, %arg2: tensor<16x32xf32>, %arg3: tensor<16x32xf32>,
// CHECK-NEXT: %[[SILU:.*]] = "dit.silu"(%arg1)
// CHECK-NEXT: %[[EMB:.*]] = "dit.linear"(%[[SILU]], %arg4, %arg5)
// CHECK-NEXT: %[[MOD:.*]]:3 = "dit.split"(%[[EMB]]) {dim = 1 : i64, sizes = array<i64: 64, 64, 64>}
// CHECK-NEXT: "dit.layer_norm"(%arg0) {epsilon = 9.99999997E-7 : f32, operandSegmentSizes = array<i32: 1, 0, 0>}
// CHECK: "dit.gelu"({{.*}}) {approximate = "tanh"}
// The q RMSNorm reads ONE f32 cast of q (the conversion merges what pow and the multiply emit).
// CHECK: %[[QF:.*]] = "dit.cast"(%[[Q:.*]]) : (tensor<1x2x16x32xbf16>) -> tensor<1x2x16x32xf32>
// CHECK-NEXT: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[SQ:.*]] = "dit.pow"(%[[QF]], %[[TWO]])
// CHECK-NEXT: %[[VAR:.*]] = "dit.reduce_mean"(%[[SQ]]) {dims = array<i64: 3>, keepdim = true}
// CHECK-NEXT: %[[EPS:.*]] = arith.constant dense<9.99999997E-7> : tensor<f32>
// CHECK-NEXT: %[[VE:.*]] = "dit.add"(%[[VAR]], %[[EPS]])
// CHECK-NEXT: %[[RSTD:.*]] = "dit.rsqrt"(%[[VE]])
// CHECK-NEXT: "dit.mul"(%[[QF]], %[[RSTD]])
// RoPE's rotate_half: unbind -> split [1, 1] + reshapes; stack -> reshapes + concat.
// CHECK: "dit.split"({{.*}}) {dim = 4 : i64, sizes = array<i64: 1, 1>}
// CHECK: "dit.neg"
// CHECK: "dit.concat"({{.*}}) {dim = 4 : i64}
// CHECK: "dit.attention"({{.*}}) {layout = "BNSD", operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 0.176776692 : f32}
// CHECK: "dit.concat"({{.*}}) {dim = 2 : i64} : (tensor<1x16x64xbf16>, tensor<1x16x256xbf16>) -> tensor<1x16x320xbf16>
// CHECK: return

// REPORT: dit-convert-torch-to-dit: matched 1, applied 1, skipped 0
// REPORT-NEXT: applied at {{.*}}torch-flux-single-block.mlir:[[# @LINE + 20]]:1: @flux_single_block: 70 torch ops -> {{[0-9]+}} dit ops; 0 kept as dit.opaque
// REPORT: enable_adalayernorm: matched 1, applied 1
// REPORT: enable_fast_gelu: matched 1, applied 1
// REPORT: enable_rms_norm: matched 2, applied 2
// FLUX's rope tables are f32 and q/k bf16: aclnnRotaryPositionEmbedding takes cos and sin in
// x's dtype only (rule rope.cos_dtype, issue 12). They are function arguments, so the pre-pack
// casts them once.
// REPORT: enable_rope: matched 2, applied 2, skipped 0
// REPORT: applied at {{.*}}: (x * cos + rotate(x) * sin) -> dit.rope (cos/sin cast to bf16 once at load: rule rope.cos_dtype)
// REPORT: kernels: 54 before, {{[0-9]+}} after

// FUSED-LABEL: func.func @flux_single_block
// FUSED-DAG: "dit.ada_layer_norm"
// FUSED-DAG: "dit.fast_gelu"
// FUSED-DAG: "dit.rms_norm"
// FUSED-DAG: "dit.rope"
// FUSED-NOT: "dit.reduce_mean"
// FUSED-NOT: "dit.rsqrt"
// FUSED: return

func.func @flux_single_block(%hidden_states: !torch.vtensor<[1,16,64],bf16>, %temb: !torch.vtensor<[1,64],bf16>, %rope_cos: !torch.vtensor<[16,32],f32>, %rope_sin: !torch.vtensor<[16,32],f32>, %norm_linear_weight: !torch.vtensor<[192,64],bf16>, %norm_linear_bias: !torch.vtensor<[192],bf16>, %proj_mlp_weight: !torch.vtensor<[256,64],bf16>, %proj_mlp_bias: !torch.vtensor<[256],bf16>, %to_q_weight: !torch.vtensor<[64,64],bf16>, %to_q_bias: !torch.vtensor<[64],bf16>, %to_k_weight: !torch.vtensor<[64,64],bf16>, %to_k_bias: !torch.vtensor<[64],bf16>, %to_v_weight: !torch.vtensor<[64,64],bf16>, %to_v_bias: !torch.vtensor<[64],bf16>, %norm_q_weight: !torch.vtensor<[32],bf16>, %norm_k_weight: !torch.vtensor<[32],bf16>, %proj_out_weight: !torch.vtensor<[64,320],bf16>, %proj_out_bias: !torch.vtensor<[64],bf16>) -> !torch.vtensor<[1,16,64],bf16> {
  %c1 = "torch.constant.none"() : () -> !torch.none
  %c2 = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %c3 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %c4 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c5 = "torch.constant.int"() <{value = 2 : i64}> : () -> !torch.int
  %c6 = "torch.constant.int"() <{value = 3 : i64}> : () -> !torch.int
  %c7 = "torch.constant.int"() <{value = -1 : i64}> : () -> !torch.int
  %c8 = "torch.constant.int"() <{value = 6 : i64}> : () -> !torch.int
  %c9 = "torch.constant.int"() <{value = 15 : i64}> : () -> !torch.int
  %c10 = "torch.constant.float"() <{value = 1.000000000e-06 : f64}> : () -> !torch.float
  %c11 = "torch.constant.str"() <{value = "tanh"}> : () -> !torch.str
  %c12 = "torch.constant.float"() <{value = 0.000000000e+00 : f64}> : () -> !torch.float
  %13 = "torch.aten.silu"(%temb) : (!torch.vtensor<[1,64],bf16>) -> !torch.vtensor<[1,64],bf16>
  %14 = "torch.aten.linear"(%13, %norm_linear_weight, %norm_linear_bias) : (!torch.vtensor<[1,64],bf16>, !torch.vtensor<[192,64],bf16>, !torch.vtensor<[192],bf16>) -> !torch.vtensor<[1,192],bf16>
  %c15 = "torch.constant.int"() <{value = 64 : i64}> : () -> !torch.int
  %16 = "torch.aten.split.Tensor"(%14, %c15, %c4) : (!torch.vtensor<[1,192],bf16>, !torch.int, !torch.int) -> !torch.list<vtensor>
  %17:3 = "torch.prim.ListUnpack"(%16) : (!torch.list<vtensor>) -> (!torch.vtensor<[1,64],bf16>, !torch.vtensor<[1,64],bf16>, !torch.vtensor<[1,64],bf16>)
  %c18 = "torch.constant.int"() <{value = 64 : i64}> : () -> !torch.int
  %l19 = "torch.prim.ListConstruct"(%c18) : (!torch.int) -> !torch.list<!torch.int>
  %20 = "torch.aten.layer_norm"(%hidden_states, %l19, %c1, %c1, %c10, %c2) : (!torch.vtensor<[1,16,64],bf16>, !torch.list<!torch.int>, !torch.none, !torch.none, !torch.float, !torch.bool) -> !torch.vtensor<[1,16,64],bf16>
  %21 = "torch.aten.unsqueeze"(%17#1, %c4) : (!torch.vtensor<[1,64],bf16>, !torch.int) -> !torch.vtensor<[1,1,64],bf16>
  %22 = "torch.aten.add.Scalar"(%21, %c4, %c4) : (!torch.vtensor<[1,1,64],bf16>, !torch.int, !torch.int) -> !torch.vtensor<[1,1,64],bf16>
  %23 = "torch.aten.mul.Tensor"(%20, %22) : (!torch.vtensor<[1,16,64],bf16>, !torch.vtensor<[1,1,64],bf16>) -> !torch.vtensor<[1,16,64],bf16>
  %24 = "torch.aten.unsqueeze"(%17#0, %c4) : (!torch.vtensor<[1,64],bf16>, !torch.int) -> !torch.vtensor<[1,1,64],bf16>
  %25 = "torch.aten.add.Tensor"(%23, %24, %c4) : (!torch.vtensor<[1,16,64],bf16>, !torch.vtensor<[1,1,64],bf16>, !torch.int) -> !torch.vtensor<[1,16,64],bf16>
  %26 = "torch.aten.linear"(%25, %proj_mlp_weight, %proj_mlp_bias) : (!torch.vtensor<[1,16,64],bf16>, !torch.vtensor<[256,64],bf16>, !torch.vtensor<[256],bf16>) -> !torch.vtensor<[1,16,256],bf16>
  %27 = "torch.aten.gelu"(%26, %c11) : (!torch.vtensor<[1,16,256],bf16>, !torch.str) -> !torch.vtensor<[1,16,256],bf16>
  %c28 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c29 = "torch.constant.int"() <{value = -1 : i64}> : () -> !torch.int
  %c30 = "torch.constant.int"() <{value = 2 : i64}> : () -> !torch.int
  %c31 = "torch.constant.int"() <{value = 32 : i64}> : () -> !torch.int
  %l32 = "torch.prim.ListConstruct"(%c28, %c29, %c30, %c31) : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<!torch.int>
  %33 = "torch.aten.linear"(%25, %to_q_weight, %to_q_bias) : (!torch.vtensor<[1,16,64],bf16>, !torch.vtensor<[64,64],bf16>, !torch.vtensor<[64],bf16>) -> !torch.vtensor<[1,16,64],bf16>
  %34 = "torch.aten.view"(%33, %l32) : (!torch.vtensor<[1,16,64],bf16>, !torch.list<!torch.int>) -> !torch.vtensor<[1,16,2,32],bf16>
  %35 = "torch.aten.transpose.int"(%34, %c4, %c5) : (!torch.vtensor<[1,16,2,32],bf16>, !torch.int, !torch.int) -> !torch.vtensor<[1,2,16,32],bf16>
  %36 = "torch.aten.linear"(%25, %to_k_weight, %to_k_bias) : (!torch.vtensor<[1,16,64],bf16>, !torch.vtensor<[64,64],bf16>, !torch.vtensor<[64],bf16>) -> !torch.vtensor<[1,16,64],bf16>
  %37 = "torch.aten.view"(%36, %l32) : (!torch.vtensor<[1,16,64],bf16>, !torch.list<!torch.int>) -> !torch.vtensor<[1,16,2,32],bf16>
  %38 = "torch.aten.transpose.int"(%37, %c4, %c5) : (!torch.vtensor<[1,16,2,32],bf16>, !torch.int, !torch.int) -> !torch.vtensor<[1,2,16,32],bf16>
  %39 = "torch.aten.linear"(%25, %to_v_weight, %to_v_bias) : (!torch.vtensor<[1,16,64],bf16>, !torch.vtensor<[64,64],bf16>, !torch.vtensor<[64],bf16>) -> !torch.vtensor<[1,16,64],bf16>
  %40 = "torch.aten.view"(%39, %l32) : (!torch.vtensor<[1,16,64],bf16>, !torch.list<!torch.int>) -> !torch.vtensor<[1,16,2,32],bf16>
  %41 = "torch.aten.transpose.int"(%40, %c4, %c5) : (!torch.vtensor<[1,16,2,32],bf16>, !torch.int, !torch.int) -> !torch.vtensor<[1,2,16,32],bf16>
  %l42 = "torch.prim.ListConstruct"(%c7) : (!torch.int) -> !torch.list<!torch.int>
  %43 = "torch.aten._to_copy"(%35, %c8, %c1, %c1, %c1, %c2, %c1) : (!torch.vtensor<[1,2,16,32],bf16>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[1,2,16,32],f32>
  %44 = "torch.aten.pow.Tensor_Scalar"(%43, %c5) : (!torch.vtensor<[1,2,16,32],f32>, !torch.int) -> !torch.vtensor<[1,2,16,32],f32>
  %c45 = "torch.constant.bool"() <{value = true}> : () -> !torch.bool
  %46 = "torch.aten.mean.dim"(%44, %l42, %c45, %c1) : (!torch.vtensor<[1,2,16,32],f32>, !torch.list<!torch.int>, !torch.bool, !torch.none) -> !torch.vtensor<[1,2,16,1],f32>
  %47 = "torch.aten.add.Scalar"(%46, %c10, %c4) : (!torch.vtensor<[1,2,16,1],f32>, !torch.float, !torch.int) -> !torch.vtensor<[1,2,16,1],f32>
  %48 = "torch.aten.rsqrt"(%47) : (!torch.vtensor<[1,2,16,1],f32>) -> !torch.vtensor<[1,2,16,1],f32>
  %49 = "torch.aten.mul.Tensor"(%35, %48) : (!torch.vtensor<[1,2,16,32],bf16>, !torch.vtensor<[1,2,16,1],f32>) -> !torch.vtensor<[1,2,16,32],f32>
  %50 = "torch.aten._to_copy"(%49, %c9, %c1, %c1, %c1, %c2, %c1) : (!torch.vtensor<[1,2,16,32],f32>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[1,2,16,32],bf16>
  %51 = "torch.aten.mul.Tensor"(%50, %norm_q_weight) : (!torch.vtensor<[1,2,16,32],bf16>, !torch.vtensor<[32],bf16>) -> !torch.vtensor<[1,2,16,32],bf16>
  %52 = "torch.aten._to_copy"(%38, %c8, %c1, %c1, %c1, %c2, %c1) : (!torch.vtensor<[1,2,16,32],bf16>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[1,2,16,32],f32>
  %53 = "torch.aten.pow.Tensor_Scalar"(%52, %c5) : (!torch.vtensor<[1,2,16,32],f32>, !torch.int) -> !torch.vtensor<[1,2,16,32],f32>
  %c54 = "torch.constant.bool"() <{value = true}> : () -> !torch.bool
  %55 = "torch.aten.mean.dim"(%53, %l42, %c54, %c1) : (!torch.vtensor<[1,2,16,32],f32>, !torch.list<!torch.int>, !torch.bool, !torch.none) -> !torch.vtensor<[1,2,16,1],f32>
  %56 = "torch.aten.add.Scalar"(%55, %c10, %c4) : (!torch.vtensor<[1,2,16,1],f32>, !torch.float, !torch.int) -> !torch.vtensor<[1,2,16,1],f32>
  %57 = "torch.aten.rsqrt"(%56) : (!torch.vtensor<[1,2,16,1],f32>) -> !torch.vtensor<[1,2,16,1],f32>
  %58 = "torch.aten.mul.Tensor"(%38, %57) : (!torch.vtensor<[1,2,16,32],bf16>, !torch.vtensor<[1,2,16,1],f32>) -> !torch.vtensor<[1,2,16,32],f32>
  %59 = "torch.aten._to_copy"(%58, %c9, %c1, %c1, %c1, %c2, %c1) : (!torch.vtensor<[1,2,16,32],f32>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[1,2,16,32],bf16>
  %60 = "torch.aten.mul.Tensor"(%59, %norm_k_weight) : (!torch.vtensor<[1,2,16,32],bf16>, !torch.vtensor<[32],bf16>) -> !torch.vtensor<[1,2,16,32],bf16>
  %61 = "torch.aten.unsqueeze"(%rope_cos, %c3) : (!torch.vtensor<[16,32],f32>, !torch.int) -> !torch.vtensor<[1,16,32],f32>
  %62 = "torch.aten.unsqueeze"(%61, %c3) : (!torch.vtensor<[1,16,32],f32>, !torch.int) -> !torch.vtensor<[1,1,16,32],f32>
  %63 = "torch.aten.unsqueeze"(%rope_sin, %c3) : (!torch.vtensor<[16,32],f32>, !torch.int) -> !torch.vtensor<[1,16,32],f32>
  %64 = "torch.aten.unsqueeze"(%63, %c3) : (!torch.vtensor<[1,16,32],f32>, !torch.int) -> !torch.vtensor<[1,1,16,32],f32>
  %c65 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c66 = "torch.constant.int"() <{value = 2 : i64}> : () -> !torch.int
  %c67 = "torch.constant.int"() <{value = 16 : i64}> : () -> !torch.int
  %c68 = "torch.constant.int"() <{value = -1 : i64}> : () -> !torch.int
  %c69 = "torch.constant.int"() <{value = 2 : i64}> : () -> !torch.int
  %l70 = "torch.prim.ListConstruct"(%c65, %c66, %c67, %c68, %c69) : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<!torch.int>
  %71 = "torch.aten.view"(%51, %l70) : (!torch.vtensor<[1,2,16,32],bf16>, !torch.list<!torch.int>) -> !torch.vtensor<[1,2,16,16,2],bf16>
  %72 = "torch.aten.unbind.int"(%71, %c7) : (!torch.vtensor<[1,2,16,16,2],bf16>, !torch.int) -> !torch.list<vtensor>
  %73:2 = "torch.prim.ListUnpack"(%72) : (!torch.list<vtensor>) -> (!torch.vtensor<[1,2,16,16],bf16>, !torch.vtensor<[1,2,16,16],bf16>)
  %74 = "torch.aten.neg"(%73#1) : (!torch.vtensor<[1,2,16,16],bf16>) -> !torch.vtensor<[1,2,16,16],bf16>
  %l75 = "torch.prim.ListConstruct"(%74, %73#0) : (!torch.vtensor<[1,2,16,16],bf16>, !torch.vtensor<[1,2,16,16],bf16>) -> !torch.list<vtensor>
  %76 = "torch.aten.stack"(%l75, %c7) : (!torch.list<vtensor>, !torch.int) -> !torch.vtensor<[1,2,16,16,2],bf16>
  %77 = "torch.aten.flatten.using_ints"(%76, %c6, %c7) : (!torch.vtensor<[1,2,16,16,2],bf16>, !torch.int, !torch.int) -> !torch.vtensor<[1,2,16,32],bf16>
  %78 = "torch.aten._to_copy"(%51, %c8, %c1, %c1, %c1, %c2, %c1) : (!torch.vtensor<[1,2,16,32],bf16>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[1,2,16,32],f32>
  %79 = "torch.aten.mul.Tensor"(%78, %62) : (!torch.vtensor<[1,2,16,32],f32>, !torch.vtensor<[1,1,16,32],f32>) -> !torch.vtensor<[1,2,16,32],f32>
  %80 = "torch.aten._to_copy"(%77, %c8, %c1, %c1, %c1, %c2, %c1) : (!torch.vtensor<[1,2,16,32],bf16>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[1,2,16,32],f32>
  %81 = "torch.aten.mul.Tensor"(%80, %64) : (!torch.vtensor<[1,2,16,32],f32>, !torch.vtensor<[1,1,16,32],f32>) -> !torch.vtensor<[1,2,16,32],f32>
  %82 = "torch.aten.add.Tensor"(%79, %81, %c4) : (!torch.vtensor<[1,2,16,32],f32>, !torch.vtensor<[1,2,16,32],f32>, !torch.int) -> !torch.vtensor<[1,2,16,32],f32>
  %83 = "torch.aten._to_copy"(%82, %c9, %c1, %c1, %c1, %c2, %c1) : (!torch.vtensor<[1,2,16,32],f32>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[1,2,16,32],bf16>
  %84 = "torch.aten.view"(%60, %l70) : (!torch.vtensor<[1,2,16,32],bf16>, !torch.list<!torch.int>) -> !torch.vtensor<[1,2,16,16,2],bf16>
  %85 = "torch.aten.unbind.int"(%84, %c7) : (!torch.vtensor<[1,2,16,16,2],bf16>, !torch.int) -> !torch.list<vtensor>
  %86:2 = "torch.prim.ListUnpack"(%85) : (!torch.list<vtensor>) -> (!torch.vtensor<[1,2,16,16],bf16>, !torch.vtensor<[1,2,16,16],bf16>)
  %87 = "torch.aten.neg"(%86#1) : (!torch.vtensor<[1,2,16,16],bf16>) -> !torch.vtensor<[1,2,16,16],bf16>
  %l88 = "torch.prim.ListConstruct"(%87, %86#0) : (!torch.vtensor<[1,2,16,16],bf16>, !torch.vtensor<[1,2,16,16],bf16>) -> !torch.list<vtensor>
  %89 = "torch.aten.stack"(%l88, %c7) : (!torch.list<vtensor>, !torch.int) -> !torch.vtensor<[1,2,16,16,2],bf16>
  %90 = "torch.aten.flatten.using_ints"(%89, %c6, %c7) : (!torch.vtensor<[1,2,16,16,2],bf16>, !torch.int, !torch.int) -> !torch.vtensor<[1,2,16,32],bf16>
  %91 = "torch.aten._to_copy"(%60, %c8, %c1, %c1, %c1, %c2, %c1) : (!torch.vtensor<[1,2,16,32],bf16>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[1,2,16,32],f32>
  %92 = "torch.aten.mul.Tensor"(%91, %62) : (!torch.vtensor<[1,2,16,32],f32>, !torch.vtensor<[1,1,16,32],f32>) -> !torch.vtensor<[1,2,16,32],f32>
  %93 = "torch.aten._to_copy"(%90, %c8, %c1, %c1, %c1, %c2, %c1) : (!torch.vtensor<[1,2,16,32],bf16>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[1,2,16,32],f32>
  %94 = "torch.aten.mul.Tensor"(%93, %64) : (!torch.vtensor<[1,2,16,32],f32>, !torch.vtensor<[1,1,16,32],f32>) -> !torch.vtensor<[1,2,16,32],f32>
  %95 = "torch.aten.add.Tensor"(%92, %94, %c4) : (!torch.vtensor<[1,2,16,32],f32>, !torch.vtensor<[1,2,16,32],f32>, !torch.int) -> !torch.vtensor<[1,2,16,32],f32>
  %96 = "torch.aten._to_copy"(%95, %c9, %c1, %c1, %c1, %c2, %c1) : (!torch.vtensor<[1,2,16,32],f32>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[1,2,16,32],bf16>
  %97 = "torch.aten.scaled_dot_product_attention"(%83, %96, %41, %c1, %c12, %c2, %c1, %c2) : (!torch.vtensor<[1,2,16,32],bf16>, !torch.vtensor<[1,2,16,32],bf16>, !torch.vtensor<[1,2,16,32],bf16>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool) -> !torch.vtensor<[1,2,16,32],bf16>
  %98 = "torch.aten.transpose.int"(%97, %c4, %c5) : (!torch.vtensor<[1,2,16,32],bf16>, !torch.int, !torch.int) -> !torch.vtensor<[1,16,2,32],bf16>
  %c99 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c100 = "torch.constant.int"() <{value = -1 : i64}> : () -> !torch.int
  %c101 = "torch.constant.int"() <{value = 64 : i64}> : () -> !torch.int
  %l102 = "torch.prim.ListConstruct"(%c99, %c100, %c101) : (!torch.int, !torch.int, !torch.int) -> !torch.list<!torch.int>
  %103 = "torch.aten.view"(%98, %l102) : (!torch.vtensor<[1,16,2,32],bf16>, !torch.list<!torch.int>) -> !torch.vtensor<[1,16,64],bf16>
  %l104 = "torch.prim.ListConstruct"(%103, %27) : (!torch.vtensor<[1,16,64],bf16>, !torch.vtensor<[1,16,256],bf16>) -> !torch.list<vtensor>
  %105 = "torch.aten.cat"(%l104, %c5) : (!torch.list<vtensor>, !torch.int) -> !torch.vtensor<[1,16,320],bf16>
  %106 = "torch.aten.unsqueeze"(%17#2, %c4) : (!torch.vtensor<[1,64],bf16>, !torch.int) -> !torch.vtensor<[1,1,64],bf16>
  %107 = "torch.aten.linear"(%105, %proj_out_weight, %proj_out_bias) : (!torch.vtensor<[1,16,320],bf16>, !torch.vtensor<[64,320],bf16>, !torch.vtensor<[64],bf16>) -> !torch.vtensor<[1,16,64],bf16>
  %108 = "torch.aten.mul.Tensor"(%106, %107) : (!torch.vtensor<[1,1,64],bf16>, !torch.vtensor<[1,16,64],bf16>) -> !torch.vtensor<[1,16,64],bf16>
  %109 = "torch.aten.add.Tensor"(%hidden_states, %108, %c4) : (!torch.vtensor<[1,16,64],bf16>, !torch.vtensor<[1,16,64],bf16>, !torch.int) -> !torch.vtensor<[1,16,64],bf16>
  return %109 : !torch.vtensor<[1,16,64],bf16>
}

