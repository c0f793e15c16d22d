// dit-quantize: selected f16/bf16 dit.linear ops become dit.dynamic_quant + dit.quant_matmul
// (W8A8), with the int8 weight [K, N] and its f32 scale [N] appended as func arguments.
// Every output is re-verified by a second dit-opt.
//
// RUN: dit-opt %s --split-input-file --dit-quantize | dit-opt --split-input-file | FileCheck %s
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-quantize{linears=all})' | dit-opt --split-input-file | FileCheck %s
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-quantize{linears=ff.*,*.to_?})' | dit-opt --split-input-file | FileCheck %s --check-prefix=SEL
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-quantize{output_dtype=bf16})' | dit-opt --split-input-file | FileCheck %s --check-prefix=BF16
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-quantize, dit-fuse-patterns)' | dit-opt --split-input-file | FileCheck %s --check-prefix=FUSE
// RUN: dit-opt %s --split-input-file --dit-quantize --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-opt %S/Inputs/quantize-by-line.mlir --pass-pipeline='builtin.module(dit-quantize{linears=6:*})' | dit-opt | FileCheck %s --check-prefix=LINE
// RUN: not dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-quantize{output_dtype=f32})' 2>&1 | FileCheck %s --check-prefix=BADDTYPE
// RUN: not dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-quantize{linears=ff.*,,x})' 2>&1 | FileCheck %s --check-prefix=BADLIST

// BADDTYPE: <pass-pipeline>:1:29: error: pass 'dit-quantize': option 'output_dtype' must be f16 or bf16, got 'f32'
// BADLIST: <pass-pipeline>:1:29: error: pass 'dit-quantize': option 'linears' must be 'all' or a comma-separated list of non-empty glob patterns, got 'ff.*,,x'

// LINE-LABEL: func.func @by_line
// LINE-SAME: %arg3: tensor<64x16xi8> {dit.quantized = "weight_int8", dit.quantized_from = 2 : i64}
// LINE-SAME: %arg4: tensor<16xf32> {dit.quantized = "weight_scale", dit.quantized_from = 2 : i64}
// LINE: "dit.linear"(%arg0, %arg1)
// LINE: "dit.quant_matmul"({{.*}}, %arg3, %arg4, {{.*}}) -> tensor<4x16xf16>

// ----- 2-D x without bias -----

// CHECK-LABEL: func.func @no_bias
// CHECK-SAME: (%arg0: tensor<4x64xf16>, %arg1: tensor<128x64xf16>, %arg2: tensor<64x128xi8> {dit.quantized = "weight_int8", dit.quantized_from = 1 : i64}, %arg3: tensor<128xf32> {dit.quantized = "weight_scale", dit.quantized_from = 1 : i64}) -> tensor<4x128xf16>
// CHECK-NEXT: %[[Q:.*]]:2 = "dit.dynamic_quant"(%arg0) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<4x64xf16>) -> (tensor<4x64xi8>, tensor<4xf32>)
// CHECK-NEXT: %[[M:.*]] = "dit.quant_matmul"(%[[Q]]#0, %arg2, %arg3, %[[Q]]#1) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>, transpose_x1 = false, transpose_x2 = false} : (tensor<4x64xi8>, tensor<64x128xi8>, tensor<128xf32>, tensor<4xf32>) -> tensor<4x128xf16>
// CHECK-NEXT: return %[[M]]
// SEL-LABEL: func.func @no_bias
// SEL-NEXT: "dit.linear"
// BF16-LABEL: func.func @no_bias
// BF16: %[[M:.*]] = "dit.quant_matmul"{{.*}} -> tensor<4x128xbf16>
// BF16-NEXT: %[[C:.*]] = "dit.cast"(%[[M]]) : (tensor<4x128xbf16>) -> tensor<4x128xf16>
// BF16-NEXT: return %[[C]]
// REPORT-DAG: applied at {{.*}}dit-quantize.mlir:[[@LINE+2]]:8: linear -> dit.dynamic_quant + dit.quant_matmul (W8A8, weight argument 1: int8 weight and scale appended as arguments)
func.func @no_bias(%x: tensor<4x64xf16>, %w: tensor<128x64xf16>) -> tensor<4x128xf16> {
  %r = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xf16>, tensor<128x64xf16>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}

// -----

// ----- 2-D x with a bias (kept as the quant_matmul's bias); selected by name -----

// CHECK-LABEL: func.func @with_bias
// CHECK-SAME: %arg3: tensor<64x32xi8> {dit.quantized = "weight_int8", dit.quantized_from = 1 : i64}, %arg4: tensor<32xf32> {dit.quantized = "weight_scale", dit.quantized_from = 1 : i64}) -> tensor<8x32xbf16>
// CHECK-NEXT: %[[Q:.*]]:2 = "dit.dynamic_quant"(%arg0)
// CHECK-NEXT: %[[M:.*]] = "dit.quant_matmul"(%[[Q]]#0, %arg3, %arg4, %arg2, %[[Q]]#1) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1>, transpose_x1 = false, transpose_x2 = false} : (tensor<8x64xi8>, tensor<64x32xi8>, tensor<32xf32>, tensor<32xbf16>, tensor<8xf32>) -> tensor<8x32xbf16>
// CHECK-NEXT: return %[[M]]
// SEL-LABEL: func.func @with_bias
// SEL: "dit.quant_matmul"
// BF16-LABEL: func.func @with_bias
// BF16-NOT: "dit.cast"
// BF16: return
// REPORT-DAG: applied at {{.*}}dit-quantize.mlir: 'ff.net.0.proj': linear (bias) -> dit.dynamic_quant + dit.quant_matmul
func.func @with_bias(%x: tensor<8x64xbf16>, %w: tensor<32x64xbf16>, %b: tensor<32xbf16>) -> tensor<8x32xbf16> {
  %r = "dit.linear"(%x, %w, %b) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<8x64xbf16>, tensor<32x64xbf16>, tensor<32xbf16>) -> tensor<8x32xbf16> loc("ff.net.0.proj")
  return %r : tensor<8x32xbf16>
}

// -----

// ----- 3-D x: flattened to [M, K] (quant_matmul takes the per-token scale as [M]) -----

// CHECK-LABEL: func.func @batched
// CHECK-SAME: %arg2: tensor<64x16xi8> {{.*}}, %arg3: tensor<16xf32> {{.*}}) -> tensor<2x8x16xf16>
// CHECK-NEXT: %[[X:.*]] = "dit.reshape"(%arg0) : (tensor<2x8x64xf16>) -> tensor<16x64xf16>
// CHECK-NEXT: %[[Q:.*]]:2 = "dit.dynamic_quant"(%[[X]]) {{.*}} : (tensor<16x64xf16>) -> (tensor<16x64xi8>, tensor<16xf32>)
// CHECK-NEXT: %[[M:.*]] = "dit.quant_matmul"(%[[Q]]#0, %arg2, %arg3, %[[Q]]#1) {{.*}} -> tensor<16x16xf16>
// CHECK-NEXT: %[[R:.*]] = "dit.reshape"(%[[M]]) : (tensor<16x16xf16>) -> tensor<2x8x16xf16>
// CHECK-NEXT: return %[[R]]
// REPORT-DAG: applied at {{.*}}dit-quantize.mlir:[[@LINE+2]]:8: linear -> {{.*}}; x flattened to [16x64]
func.func @batched(%x: tensor<2x8x64xf16>, %w: tensor<16x64xf16>) -> tensor<2x8x16xf16> {
  %r = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x8x64xf16>, tensor<16x64xf16>) -> tensor<2x8x16xf16>
  return %r : tensor<2x8x16xf16>
}

// -----

// One dynamic dim is fine: M is dynamic.
// CHECK-LABEL: func.func @batched_dynamic
// CHECK-NEXT: "dit.reshape"(%arg0) : (tensor<?x8x64xf16>) -> tensor<?x64xf16>
// CHECK: "dit.reshape"({{.*}}) : (tensor<?x16xf16>) -> tensor<?x8x16xf16>
func.func @batched_dynamic(%x: tensor<?x8x64xf16>, %w: tensor<16x64xf16>) -> tensor<?x8x16xf16> {
  %r = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<?x8x64xf16>, tensor<16x64xf16>) -> tensor<?x8x16xf16>
  return %r : tensor<?x8x16xf16>
}

// -----

// Two dynamic dims cannot be flattened unambiguously: left alone.
// CHECK-LABEL: func.func @two_dynamic
// CHECK: "dit.linear"
// REPORT-DAG: skipped at {{.*}}dit-quantize.mlir:[[@LINE+2]]:8: x has rank 3 and 2 dynamic dims
func.func @two_dynamic(%x: tensor<?x?x64xf16>, %w: tensor<16x64xf16>) -> tensor<?x?x16xf16> {
  %r = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<?x?x64xf16>, tensor<16x64xf16>) -> tensor<?x?x16xf16>
  return %r : tensor<?x?x16xf16>
}

// -----

// ----- Selection by name: ff.* and *.to_? match, proj_out does not -----

// CHECK-LABEL: func.func @by_name
// CHECK-COUNT-3: "dit.quant_matmul"
// CHECK-NOT: "dit.linear"
// SEL-LABEL: func.func @by_name
// SEL-SAME: %arg4: tensor<64x64xi8> {dit.quantized = "weight_int8", dit.quantized_from = 1 : i64}, %arg5: tensor<64xf32> {dit.quantized = "weight_scale", dit.quantized_from = 1 : i64}, %arg6: tensor<64x64xi8> {dit.quantized = "weight_int8", dit.quantized_from = 2 : i64}, %arg7: tensor<64xf32> {dit.quantized = "weight_scale", dit.quantized_from = 2 : i64})
// SEL: "dit.quant_matmul"({{.*}}, %arg4, %arg5, {{.*}})
// SEL: "dit.quant_matmul"({{.*}}, %arg6, %arg7, {{.*}})
// SEL: "dit.linear"(%{{.*}}, %arg3)
func.func @by_name(%x: tensor<4x64xf16>, %w1: tensor<64x64xf16>, %w2: tensor<64x64xf16>, %w3: tensor<64x64xf16>) -> tensor<4x64xf16> {
  %a = "dit.linear"(%x, %w1) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xf16>, tensor<64x64xf16>) -> tensor<4x64xf16> loc("ff.net.0.proj")
  %b = "dit.linear"(%a, %w2) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xf16>, tensor<64x64xf16>) -> tensor<4x64xf16> loc("attn.to_q")
  %c = "dit.linear"(%b, %w3) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xf16>, tensor<64x64xf16>) -> tensor<4x64xf16> loc("proj_out")
  return %c : tensor<4x64xf16>
}

// -----

// ----- A weight shared by two linears gets one pair of arguments -----

// CHECK-LABEL: func.func @shared_weight
// CHECK-SAME: %arg2: tensor<64x64xi8> {{.*}}, %arg3: tensor<64xf32> {{.*}}) -> tensor<4x64xf16>
// CHECK: "dit.quant_matmul"({{.*}}, %arg2, %arg3, {{.*}})
// CHECK: "dit.quant_matmul"({{.*}}, %arg2, %arg3, {{.*}})
// REPORT-DAG: applied at {{.*}}dit-quantize.mlir:[[@LINE+3]]:8: linear -> {{.*}}int8 weight and scale appended as arguments
// REPORT-DAG: applied at {{.*}}dit-quantize.mlir:[[@LINE+3]]:8: linear -> {{.*}}int8 weight and scale arguments shared with an earlier linear
func.func @shared_weight(%x: tensor<4x64xf16>, %w: tensor<64x64xf16>) -> tensor<4x64xf16> {
  %a = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xf16>, tensor<64x64xf16>) -> tensor<4x64xf16>
  %b = "dit.linear"(%a, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xf16>, tensor<64x64xf16>) -> tensor<4x64xf16>
  return %b : tensor<4x64xf16>
}

// -----

// ----- Existing argument attributes are kept -----

// CHECK-LABEL: func.func @arg_attrs
// CHECK-SAME: (%arg0: tensor<4x64xf16> {dit.note = "x"}, %arg1: tensor<8x64xf16>, %arg2: tensor<64x8xi8> {dit.quantized = "weight_int8", dit.quantized_from = 1 : i64}, %arg3: tensor<8xf32> {dit.quantized = "weight_scale", dit.quantized_from = 1 : i64})
func.func @arg_attrs(%x: tensor<4x64xf16> {dit.note = "x"}, %w: tensor<8x64xf16>) -> tensor<4x8xf16> {
  %r = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xf16>, tensor<8x64xf16>) -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// -----

// ----- Left alone, with the reason in the report -----

// f32: only f16/bf16 linears are quantized.
// CHECK-LABEL: func.func @f32_linear
// CHECK-SAME: (%arg0: tensor<4x64xf32>, %arg1: tensor<8x64xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: "dit.linear"
// REPORT-DAG: skipped at {{.*}}dit-quantize.mlir:[[@LINE+2]]:8: x is f32: only f16 and bf16 linears are quantized
func.func @f32_linear(%x: tensor<4x64xf32>, %w: tensor<8x64xf32>) -> tensor<4x8xf32> {
  %r = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xf32>, tensor<8x64xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// The weight is computed in the function: a caller could not prepare its int8 form.
// CHECK-LABEL: func.func @computed_weight
// CHECK: "dit.linear"
// REPORT-DAG: skipped at {{.*}}dit-quantize.mlir:[[@LINE+3]]:8: the weight is not an argument of the enclosing func
func.func @computed_weight(%x: tensor<4x64xf16>, %wt: tensor<64x8xf16>) -> tensor<4x8xf16> {
  %w = "dit.transpose"(%wt) {perm = array<i64: 1, 0>} : (tensor<64x8xf16>) -> tensor<8x64xf16>
  %r = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xf16>, tensor<8x64xf16>) -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// -----

// A function called inside the module keeps its signature (its callers would break).
// CHECK-LABEL: func.func @callee
// CHECK-SAME: (%arg0: tensor<4x64xf16>, %arg1: tensor<8x64xf16>) -> tensor<4x8xf16>
// CHECK-NEXT: "dit.linear"
// REPORT-DAG: skipped at {{.*}}dit-quantize.mlir:[[@LINE+2]]:8: @callee is called inside the module
func.func @callee(%x: tensor<4x64xf16>, %w: tensor<8x64xf16>) -> tensor<4x8xf16> {
  %r = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64xf16>, tensor<8x64xf16>) -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}
func.func @caller(%x: tensor<4x64xf16>, %w: tensor<8x64xf16>) -> tensor<4x8xf16> {
  %r = func.call @callee(%x, %w) : (tensor<4x64xf16>, tensor<8x64xf16>) -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// -----

// f16 linear with an f16 bias and output_dtype=bf16: the bias type differs, left alone.
// BF16-LABEL: func.func @f16_bias_bf16_output
// BF16-NEXT: "dit.linear"
func.func @f16_bias_bf16_output(%x: tensor<4x64xf16>, %w: tensor<8x64xf16>, %b: tensor<8xf16>) -> tensor<4x8xf16> {
  %r = "dit.linear"(%x, %w, %b) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<4x64xf16>, tensor<8x64xf16>, tensor<8xf16>) -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// -----

// ----- Then the P0 fusion: linear + GELU(tanh) ends as dit.quant_matmul_gelu -----

// CHECK-LABEL: func.func @linear_gelu
// CHECK: "dit.quant_matmul"
// CHECK-NEXT: "dit.gelu"
// SEL-LABEL: func.func @linear_gelu
// SEL: "dit.quant_matmul"
// SEL-LABEL: func.func @linear_gelu_batched
// SEL: "dit.linear"
// FUSE-LABEL: func.func @linear_gelu
// FUSE-NEXT: %[[Q:.*]]:2 = "dit.dynamic_quant"(%arg0)
// FUSE-NEXT: %[[G:.*]] = "dit.quant_matmul_gelu"(%[[Q]]#0, %arg3, %[[Q]]#1, %arg4, %arg2) {approximate = "gelu_tanh", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<4x64xi8>, tensor<64x128xi8>, tensor<4xf32>, tensor<128xf32>, tensor<128xf16>) -> tensor<4x128xf16>
// FUSE-NEXT: return %[[G]]
func.func @linear_gelu(%x: tensor<4x64xf16>, %w: tensor<128x64xf16>, %b: tensor<128xf16>) -> tensor<4x128xf16> {
  %r = "dit.linear"(%x, %w, %b) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<4x64xf16>, tensor<128x64xf16>, tensor<128xf16>) -> tensor<4x128xf16> loc("ff.net.0.proj")
  %g = "dit.gelu"(%r) {approximate = "tanh"} : (tensor<4x128xf16>) -> tensor<4x128xf16>
  return %g : tensor<4x128xf16>
}

// -----

// 3-D x: the GELU moves before the reshape back, so the fusion still applies.
// CHECK-LABEL: func.func @linear_gelu_batched
// CHECK: %[[M:.*]] = "dit.quant_matmul"
// CHECK-NEXT: %[[G:.*]] = "dit.gelu"(%[[M]]) {approximate = "tanh"} : (tensor<4608x64xbf16>) -> tensor<4608x64xbf16>
// CHECK-NEXT: %[[R:.*]] = "dit.reshape"(%[[G]]) : (tensor<4608x64xbf16>) -> tensor<1x4608x64xbf16>
// CHECK-NEXT: return %[[R]]
// FUSE-LABEL: func.func @linear_gelu_batched
// FUSE-NEXT: %[[X:.*]] = "dit.reshape"(%arg0) : (tensor<1x4608x32xbf16>) -> tensor<4608x32xbf16>
// FUSE-NEXT: %[[Q:.*]]:2 = "dit.dynamic_quant"(%[[X]])
// FUSE-NEXT: %[[G:.*]] = "dit.quant_matmul_gelu"(%[[Q]]#0, %arg2, %[[Q]]#1, %arg3) {approximate = "gelu_tanh", {{.*}}} : {{.*}} -> tensor<4608x64xbf16>
// FUSE-NEXT: %[[R:.*]] = "dit.reshape"(%[[G]]) : (tensor<4608x64xbf16>) -> tensor<1x4608x64xbf16>
// FUSE-NEXT: return %[[R]]
// REPORT-DAG: applied at {{.*}}dit-quantize.mlir:[[@LINE+2]]:8: linear -> {{.*}}; the reshape back moved after its dit.gelu
func.func @linear_gelu_batched(%x: tensor<1x4608x32xbf16>, %w: tensor<64x32xbf16>) -> tensor<1x4608x64xbf16> {
  %r = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x4608x32xbf16>, tensor<64x32xbf16>) -> tensor<1x4608x64xbf16>
  %g = "dit.gelu"(%r) {approximate = "tanh"} : (tensor<1x4608x64xbf16>) -> tensor<1x4608x64xbf16>
  return %g : tensor<1x4608x64xbf16>
}

// REPORT: kernels:
