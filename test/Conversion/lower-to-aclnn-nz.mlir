// dit.quant_matmul with x2_format = "FRACTAL_NZ" (DIALECT.md) lowers to the kernel that takes an
// NZ x2, aclnnQuantMatmulWeightNz (issue 12; it was refused with "no kernel table entry"). The
// table passes x2 through View::Nz: described as ACL_FORMAT_FRACTAL_NZ with its fractal dims.
// The bytes get there by the load-time pre-pack: @quant_matmul_nz_init re-lays the x2 argument
// into NZ once (dit_rt_to_nz, one init launch) and keeps it; each call reads it back and does
// not touch the row-major x2 (input 1 is not among what it reads).
// RUN: dit-opt %s --dit-lower-to-aclnn | FileCheck %s
// CHECK-DAG: llvm.mlir.global private constant @{{.*}}("aclnnQuantMatmulWeightNz\00")
// CHECK-LABEL: func.func @quant_matmul_nz_init
// CHECK-SAME: dit.launches = 1 : i64
// CHECK-SAME: dit.reads = array<i64: 1>
// CHECK: %[[W:.*]] = call @dit_rt_wrap
// CHECK-NEXT: %[[NZ:.*]] = call @dit_rt_to_nz(%arg0, %[[W]])
// CHECK: call @dit_rt_pack_store(%arg0, %{{.*}}, %[[NZ]])
// CHECK-LABEL: func.func @quant_matmul_nz(
// CHECK-SAME: dit.launches = 1 : i64
// CHECK-SAME: dit.reads = array<i64: 0, 2, 3>
// CHECK: call @dit_rt_pack_load
// CHECK: call @dit_rt_launch
// The NZ copy holds the same values: against the row-major twin the outputs are identical,
// over two calls on one context.
// RUN: dit-run %s --calls 2 --reference=%S/Inputs/quant-matmul-nd.mlir | FileCheck %s --check-prefix=EXEC
// EXEC: @quant_matmul_nz: reference 1 kernels, input 1 kernels (1 launches per call; init 1 launches, 8.0 KiB pre-packed)
// EXEC: output 0 f16[4,128]: max abs error 0.000e0, cosine 1.000000 ok
func.func @quant_matmul_nz(%a: tensor<4x64xi8>, %b: tensor<128x64xi8>, %s: tensor<128xf32>, %p: tensor<4xf32>) -> tensor<4x128xf16> {
  %r = "dit.quant_matmul"(%a, %b, %s, %p) {transpose_x1 = false, transpose_x2 = true, x2_format = "FRACTAL_NZ", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>, tensor<4xf32>) -> tensor<4x128xf16>
  return %r : tensor<4x128xf16>
}
