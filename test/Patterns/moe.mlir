// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=swiglu,gmm_swiglu | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=swiglu,gmm_swiglu --target=ascend950 | FileCheck %s --check-prefix=A5
// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=swiglu,gmm_swiglu --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// Numerical check: the WeightNZ kernel reads the weight the init entry re-laid into FRACTAL_NZ
// once (dit_rt_to_nz: the one init launch); the values match the unfused graph.
// RUN: dit-run %s --split-input-file --compare-unfused --fuse=swiglu,gmm_swiglu | FileCheck %s --check-prefix=EXEC
// EXEC: @gmm_weight_argument: reference 3 kernels, fuse-all 1 kernels (1 launches per call; init 1 launches, 256.0 KiB pre-packed)
// EXEC-NOT: FAIL

// ----- enable_gmm_swiglu: grouped_matmul + swiglu + dynamic_quant == grouped_matmul_swiglu_quant -----
// A8W8 wants the weight in FRACTAL_NZ (aclnnGroupedMatmulSwigluQuant(V2) docs; issue 12). On
// Atlas A2/A3 a cumsum group list fuses to variant v1, which the kernel table runs as
// aclnnGroupedMatmulSwigluQuantWeightNZ with the weight described as FRACTAL_NZ: the weight must
// be an argument of the function, which the load-time pre-pack converts ND -> NZ once. On Ascend
// 950, V2 (ND weight) reads both list kinds.

// A weight argument with a cumsum list: v1 (WeightNZ) on A2, v2 on 950.
// CHECK-LABEL: func.func @gmm_weight_argument
// CHECK: "dit.grouped_matmul_swiglu_quant"(%arg0, %arg1, %arg2, %arg3, %arg4) {group_list_type = "cumsum", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>, variant = "v1"}
// A5-LABEL: func.func @gmm_weight_argument
// A5: "dit.grouped_matmul_swiglu_quant"(%arg0, %arg1, %arg2, %arg3, %arg4) {group_list_type = "cumsum", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>, variant = "v2"}
func.func @gmm_weight_argument(%x: tensor<64x128xi8>, %w: tensor<8x128x256xi8>, %g: tensor<8xi64>, %ws: tensor<8x256xf32>, %xs: tensor<64xf32>) -> (tensor<64x128xi8>, tensor<64xf32>) {
  %y = "dit.grouped_matmul"(%x, %w, %g, %ws, %xs) {group_list_type = "cumsum", operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1>} : (tensor<64x128xi8>, tensor<8x128x256xi8>, tensor<8xi64>, tensor<8x256xf32>, tensor<64xf32>) -> tensor<64x256xbf16>
  %s = "dit.swiglu"(%y) {dim = -1 : i64} : (tensor<64x256xbf16>) -> tensor<64x128xbf16>
  %q, %qs = "dit.dynamic_quant"(%s) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<64x128xbf16>) -> (tensor<64x128xi8>, tensor<64xf32>)
  return %q, %qs : tensor<64x128xi8>, tensor<64xf32>
}

// -----

// A weight computed in the function cannot be pre-packed to NZ: on A2 the fusion is refused
// by the WeightNZ kernel's format rule, and the report says the weight is not an argument.
// CHECK-LABEL: func.func @gmm_weight_computed
// CHECK-NOT: "dit.grouped_matmul_swiglu_quant"
// REPORT: skipped at {{.*}}moe.mlir:[[@LINE+7]]:13: rule gmm_swiglu_quant_weight_nz.weight_format: weight is ND, the kernel takes FRACTAL_NZ (aclnn error 161002; [ops-transformer] gmm/grouped_matmul_swiglu_quant/docs/aclnnGroupedMatmulSwigluQuantWeightNZ.md {{.*}}; the weight is not an argument of the function, so the load-time pre-pack cannot convert it to FRACTAL_NZ
// A5-LABEL: func.func @gmm_weight_computed
// A5: "dit.grouped_matmul_swiglu_quant"{{.*}}variant = "v2"
func.func @gmm_weight_computed(%x: tensor<64x128xi8>, %w0: tensor<8x128x256xi8>, %g: tensor<8xi64>, %ws: tensor<8x256xf32>, %xs: tensor<64xf32>) -> (tensor<64x128xi8>, tensor<64xf32>) {
  %w = "dit.neg"(%w0) : (tensor<8x128x256xi8>) -> tensor<8x128x256xi8>
  %y = "dit.grouped_matmul"(%x, %w, %g, %ws, %xs) {group_list_type = "cumsum", operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1>} : (tensor<64x128xi8>, tensor<8x128x256xi8>, tensor<8xi64>, tensor<8x256xf32>, tensor<64xf32>) -> tensor<64x256xbf16>
  %s = "dit.swiglu"(%y) {dim = -1 : i64} : (tensor<64x256xbf16>) -> tensor<64x128xbf16>
  %q, %qs = "dit.dynamic_quant"(%s) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<64x128xbf16>) -> (tensor<64x128xi8>, tensor<64xf32>)
  return %q, %qs : tensor<64x128xi8>, tensor<64xf32>
}

// -----

// A count list on A2 would be V2, whose ND weight list the A2 refuses (161002): not fused.
// CHECK-LABEL: func.func @gmm_count_list
// CHECK-NOT: "dit.grouped_matmul_swiglu_quant"
// REPORT: skipped at {{.*}}moe.mlir:[[@LINE+6]]:13: rule gmm_swiglu_quant_v2.weight_nz: weight is ND, the kernel takes FRACTAL_NZ (aclnn error 161002; [ops-transformer] gmm/grouped_matmul_swiglu_quant_v2/docs/aclnnGroupedMatmulSwigluQuantV2.md
// A5-LABEL: func.func @gmm_count_list
// A5: "dit.grouped_matmul_swiglu_quant"{{.*}}group_list_type = "count"{{.*}}variant = "v2"
func.func @gmm_count_list(%x: tensor<64x128xi8>, %w: tensor<8x128x256xi8>, %g: tensor<8xi64>, %ws: tensor<8x256xf32>, %xs: tensor<64xf32>) -> (tensor<64x128xi8>, tensor<64xf32>) {
  %y = "dit.grouped_matmul"(%x, %w, %g, %ws, %xs) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1>} : (tensor<64x128xi8>, tensor<8x128x256xi8>, tensor<8xi64>, tensor<8x256xf32>, tensor<64xf32>) -> tensor<64x256xbf16>
  %s = "dit.swiglu"(%y) {dim = -1 : i64} : (tensor<64x256xbf16>) -> tensor<64x128xbf16>
  %q, %qs = "dit.dynamic_quant"(%s) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<64x128xbf16>) -> (tensor<64x128xi8>, tensor<64xf32>)
  return %q, %qs : tensor<64x128xi8>, tensor<64xf32>
}
