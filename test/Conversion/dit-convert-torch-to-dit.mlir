// dit-convert-torch-to-dit: torch-mlir's torch dialect (generic form, as the fx importer
// writes it; dit-opt parses it as an unregistered dialect) becomes dit ops. One function per
// supported aten op family, positive and opaque-fallback cases side by side. Every output is
// re-parsed by a second dit-opt that does NOT allow unregistered dialects (so no torch op or
// type is left) and verified; the fused output is verified too.
//
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit | dit-opt --split-input-file | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-convert-torch-to-dit, dit-canonicalize)' | dit-opt --split-input-file --dit-verify > /dev/null
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit --fuse-all | dit-opt --split-input-file --dit-verify > /dev/null
// Numerical check of what the conversion emits and of --fuse-all on it (functions with a
// dit.opaque are not run: the reference runtime has no kernel for aten ops it does not model;
// nor is grouped_mm, whose group list is cast from a random argument, not a valid cumsum).
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit | dit-run - --split-input-file --compare-unfused --input-range=0.5,1 --exclude=addmm_beta_2,gelu_unknown_approximate,div_floor,scalar_from_tensor,layer_norm_two_dims,native_layer_norm_stats_used,attention_masks,opaque_fallback,grouped_mm > /dev/null

// The fusion report: one line per function, one skip per op kept as dit.opaque.
// REPORT: applied at {{.*}}dit-convert-torch-to-dit.mlir:{{[0-9]+}}:1: @linear: 1 torch ops -> 1 dit ops; 0 kept as dit.opaque

// ----- aten.linear(x, w, b) -> dit.linear(x, w, b) -----
// CHECK-LABEL: func.func @linear(%arg0: tensor<2x8x16xbf16>, %arg1: tensor<32x16xbf16>, %arg2: tensor<32xbf16>) -> tensor<2x8x32xbf16>
// CHECK-NEXT: %[[Y:.*]] = "dit.linear"(%arg0, %arg1, %arg2) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x8x16xbf16>, tensor<32x16xbf16>, tensor<32xbf16>) -> tensor<2x8x32xbf16>
// CHECK-NEXT: return %[[Y]] : tensor<2x8x32xbf16>

func.func @linear(%x: !torch.vtensor<[2,8,16],bf16>, %w: !torch.vtensor<[32,16],bf16>, %b: !torch.vtensor<[32],bf16>) -> !torch.vtensor<[2,8,32],bf16> {
  %1 = "torch.aten.linear"(%x, %w, %b) : (!torch.vtensor<[2,8,16],bf16>, !torch.vtensor<[32,16],bf16>, !torch.vtensor<[32],bf16>) -> !torch.vtensor<[2,8,32],bf16>
  %c2 = "torch.constant.none"() : () -> !torch.none
  return %1 : !torch.vtensor<[2,8,32],bf16>
}

// -----

// ----- aten.linear without bias: the bias slot stays empty -----
// CHECK-LABEL: func.func @linear_no_bias
// CHECK-NEXT: "dit.linear"(%arg0, %arg1) {operandSegmentSizes = array<i32: 1, 1, 0>}

func.func @linear_no_bias(%x: !torch.vtensor<[2,8,16],bf16>, %w: !torch.vtensor<[32,16],bf16>) -> !torch.vtensor<[2,8,32],bf16> {
  %c1 = "torch.constant.none"() : () -> !torch.none
  %2 = "torch.aten.linear"(%x, %w, %c1) : (!torch.vtensor<[2,8,16],bf16>, !torch.vtensor<[32,16],bf16>, !torch.none) -> !torch.vtensor<[2,8,32],bf16>
  return %2 : !torch.vtensor<[2,8,32],bf16>
}

// -----

// ----- addmm(b, x, t(w)) (a decomposed nn.Linear) -> dit.linear(x, w, b) -----
// CHECK-LABEL: func.func @addmm_decomposed_linear
// CHECK-NEXT: %[[Y:.*]] = "dit.linear"(%arg0, %arg1, %arg2) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<8x16xbf16>, tensor<32x16xbf16>, tensor<32xbf16>) -> tensor<8x32xbf16>
// CHECK-NEXT: return %[[Y]]

func.func @addmm_decomposed_linear(%x: !torch.vtensor<[8,16],bf16>, %w: !torch.vtensor<[32,16],bf16>, %b: !torch.vtensor<[32],bf16>) -> !torch.vtensor<[8,32],bf16> {
  %1 = "torch.aten.t"(%w) : (!torch.vtensor<[32,16],bf16>) -> !torch.vtensor<[16,32],bf16>
  %c2 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %3 = "torch.aten.addmm"(%b, %x, %1, %c2, %c2) : (!torch.vtensor<[32],bf16>, !torch.vtensor<[8,16],bf16>, !torch.vtensor<[16,32],bf16>, !torch.int, !torch.int) -> !torch.vtensor<[8,32],bf16>
  return %3 : !torch.vtensor<[8,32],bf16>
}

// -----

// ----- addmm with a 2-d bias and an untransposed m2 -> dit.matmul + dit.add -----
// CHECK-LABEL: func.func @addmm_general
// CHECK-NEXT: %[[P:.*]] = "dit.matmul"(%arg1, %arg2) {transpose_a = false, transpose_b = false} : (tensor<8x16xbf16>, tensor<16x32xbf16>) -> tensor<8x32xbf16>
// CHECK-NEXT: %[[Y:.*]] = "dit.add"(%[[P]], %arg0) : (tensor<8x32xbf16>, tensor<8x32xbf16>) -> tensor<8x32xbf16>
// CHECK-NEXT: return %[[Y]]

func.func @addmm_general(%b: !torch.vtensor<[8,32],bf16>, %m1: !torch.vtensor<[8,16],bf16>, %m2: !torch.vtensor<[16,32],bf16>) -> !torch.vtensor<[8,32],bf16> {
  %c1 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %2 = "torch.aten.addmm"(%b, %m1, %m2, %c1, %c1) : (!torch.vtensor<[8,32],bf16>, !torch.vtensor<[8,16],bf16>, !torch.vtensor<[16,32],bf16>, !torch.int, !torch.int) -> !torch.vtensor<[8,32],bf16>
  return %2 : !torch.vtensor<[8,32],bf16>
}

// -----

// ----- addmm with beta = 2 has no dit form: dit.opaque keeps the name and the constants -----
// CHECK-LABEL: func.func @addmm_beta_2
// CHECK-NEXT: "dit.opaque"(%arg0, %arg1, %arg2) {arg3 = 2 : i64, arg4 = 1 : i64, name = "aten.addmm"} : (tensor<32xbf16>, tensor<8x16xbf16>, tensor<16x32xbf16>) -> tensor<8x32xbf16>
// REPORT: skipped at {{.*}}dit-convert-torch-to-dit.mlir:{{[0-9]+}}:{{[0-9]+}}: aten.addmm: beta is not 1; kept as dit.opaque

func.func @addmm_beta_2(%b: !torch.vtensor<[32],bf16>, %m1: !torch.vtensor<[8,16],bf16>, %m2: !torch.vtensor<[16,32],bf16>) -> !torch.vtensor<[8,32],bf16> {
  %c1 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c2 = "torch.constant.int"() <{value = 2 : i64}> : () -> !torch.int
  %3 = "torch.aten.addmm"(%b, %m1, %m2, %c2, %c1) : (!torch.vtensor<[32],bf16>, !torch.vtensor<[8,16],bf16>, !torch.vtensor<[16,32],bf16>, !torch.int, !torch.int) -> !torch.vtensor<[8,32],bf16>
  return %3 : !torch.vtensor<[8,32],bf16>
}

// -----

// ----- mm / bmm / matmul -> dit.matmul; a transpose of the last two dims folds into transpose_b -----
// CHECK-LABEL: func.func @matmuls
// CHECK-NEXT: "dit.matmul"(%arg0, %arg1) {transpose_a = false, transpose_b = true} : (tensor<2x4x8x16xbf16>, tensor<2x4x8x16xbf16>) -> tensor<2x4x8x8xbf16>
// CHECK-NEXT: "dit.matmul"(%arg2, %arg3) {transpose_a = false, transpose_b = false} : (tensor<8x16xbf16>, tensor<16x4xbf16>) -> tensor<8x4xbf16>
// CHECK-NEXT: "dit.matmul"(%arg4, %arg5) {transpose_a = false, transpose_b = false} : (tensor<3x8x16xbf16>, tensor<3x16x2xbf16>) -> tensor<3x8x2xbf16>
// CHECK-NEXT: return

func.func @matmuls(%a: !torch.vtensor<[2,4,8,16],bf16>, %b: !torch.vtensor<[2,4,8,16],bf16>, %m: !torch.vtensor<[8,16],bf16>, %n: !torch.vtensor<[16,4],bf16>, %p: !torch.vtensor<[3,8,16],bf16>, %q: !torch.vtensor<[3,16,2],bf16>) -> (!torch.vtensor<[2,4,8,8],bf16>, !torch.vtensor<[8,4],bf16>, !torch.vtensor<[3,8,2],bf16>) {
  %c1 = "torch.constant.int"() <{value = -1 : i64}> : () -> !torch.int
  %c2 = "torch.constant.int"() <{value = -2 : i64}> : () -> !torch.int
  %3 = "torch.aten.transpose.int"(%b, %c1, %c2) : (!torch.vtensor<[2,4,8,16],bf16>, !torch.int, !torch.int) -> !torch.vtensor<[2,4,16,8],bf16>
  %4 = "torch.aten.matmul"(%a, %3) : (!torch.vtensor<[2,4,8,16],bf16>, !torch.vtensor<[2,4,16,8],bf16>) -> !torch.vtensor<[2,4,8,8],bf16>
  %5 = "torch.aten.mm"(%m, %n) : (!torch.vtensor<[8,16],bf16>, !torch.vtensor<[16,4],bf16>) -> !torch.vtensor<[8,4],bf16>
  %6 = "torch.aten.bmm"(%p, %q) : (!torch.vtensor<[3,8,16],bf16>, !torch.vtensor<[3,16,2],bf16>) -> !torch.vtensor<[3,8,2],bf16>
  return %4, %5, %6 : !torch.vtensor<[2,4,8,8],bf16>, !torch.vtensor<[8,4],bf16>, !torch.vtensor<[3,8,2],bf16>
}

// -----

// ----- elementwise unary ops map one to one; square is x*x, reciprocal 1/x -----
// CHECK-LABEL: func.func @unary
// CHECK-NEXT: %[[A:.*]] = "dit.gelu"(%arg0) {approximate = "none"}
// CHECK-NEXT: %[[B:.*]] = "dit.gelu"(%[[A]]) {approximate = "tanh"}
// CHECK-NEXT: "dit.silu"
// CHECK-NEXT: "dit.sigmoid"
// CHECK-NEXT: "dit.tanh"
// CHECK-NEXT: "dit.relu"
// CHECK-NEXT: "dit.rsqrt"
// CHECK-NEXT: "dit.sqrt"
// CHECK-NEXT: "dit.exp"
// CHECK-NEXT: "dit.neg"
// CHECK-NEXT: %[[E:.*]] = "dit.erf"
// CHECK-NEXT: %[[S:.*]] = "dit.mul"(%[[E]], %[[E]])
// CHECK-NEXT: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<bf16>
// CHECK-NEXT: %[[R:.*]] = "dit.div"(%[[ONE]], %[[S]]) : (tensor<bf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
// CHECK-NEXT: return %[[R]]

func.func @unary(%x: !torch.vtensor<[4,8],bf16>) -> !torch.vtensor<[4,8],bf16> {
  %c1 = "torch.constant.str"() <{value = "none"}> : () -> !torch.str
  %c2 = "torch.constant.str"() <{value = "tanh"}> : () -> !torch.str
  %3 = "torch.aten.gelu"(%x, %c1) : (!torch.vtensor<[4,8],bf16>, !torch.str) -> !torch.vtensor<[4,8],bf16>
  %4 = "torch.aten.gelu"(%3, %c2) : (!torch.vtensor<[4,8],bf16>, !torch.str) -> !torch.vtensor<[4,8],bf16>
  %5 = "torch.aten.silu"(%4) : (!torch.vtensor<[4,8],bf16>) -> !torch.vtensor<[4,8],bf16>
  %6 = "torch.aten.sigmoid"(%5) : (!torch.vtensor<[4,8],bf16>) -> !torch.vtensor<[4,8],bf16>
  %7 = "torch.aten.tanh"(%6) : (!torch.vtensor<[4,8],bf16>) -> !torch.vtensor<[4,8],bf16>
  %8 = "torch.aten.relu"(%7) : (!torch.vtensor<[4,8],bf16>) -> !torch.vtensor<[4,8],bf16>
  %9 = "torch.aten.rsqrt"(%8) : (!torch.vtensor<[4,8],bf16>) -> !torch.vtensor<[4,8],bf16>
  %10 = "torch.aten.sqrt"(%9) : (!torch.vtensor<[4,8],bf16>) -> !torch.vtensor<[4,8],bf16>
  %11 = "torch.aten.exp"(%10) : (!torch.vtensor<[4,8],bf16>) -> !torch.vtensor<[4,8],bf16>
  %12 = "torch.aten.neg"(%11) : (!torch.vtensor<[4,8],bf16>) -> !torch.vtensor<[4,8],bf16>
  %13 = "torch.aten.erf"(%12) : (!torch.vtensor<[4,8],bf16>) -> !torch.vtensor<[4,8],bf16>
  %14 = "torch.aten.square"(%13) : (!torch.vtensor<[4,8],bf16>) -> !torch.vtensor<[4,8],bf16>
  %15 = "torch.aten.reciprocal"(%14) : (!torch.vtensor<[4,8],bf16>) -> !torch.vtensor<[4,8],bf16>
  return %15 : !torch.vtensor<[4,8],bf16>
}

// -----

// ----- gelu(approximate='sigmoid') is no dit.gelu: opaque, with the string recorded -----
// CHECK-LABEL: func.func @gelu_unknown_approximate
// CHECK-NEXT: "dit.opaque"(%arg0) {arg1 = "sigmoid", name = "aten.gelu"}
// REPORT: skipped at {{.*}}dit-convert-torch-to-dit.mlir:{{[0-9]+}}:{{[0-9]+}}: aten.gelu: approximate 'sigmoid' is not none or tanh; kept as dit.opaque

func.func @gelu_unknown_approximate(%x: !torch.vtensor<[4,8],bf16>) -> !torch.vtensor<[4,8],bf16> {
  %c1 = "torch.constant.str"() <{value = "sigmoid"}> : () -> !torch.str
  %2 = "torch.aten.gelu"(%x, %c1) : (!torch.vtensor<[4,8],bf16>, !torch.str) -> !torch.vtensor<[4,8],bf16>
  return %2 : !torch.vtensor<[4,8],bf16>
}

// -----

// ----- an integer input of a float op is cast to the result dtype first -----
// CHECK-LABEL: func.func @int_to_float_unary(%arg0: tensor<4xi64>) -> tensor<4xf32>
// CHECK-NEXT: %[[C:.*]] = "dit.cast"(%arg0) : (tensor<4xi64>) -> tensor<4xf32>
// CHECK-NEXT: "dit.sqrt"(%[[C]]) : (tensor<4xf32>) -> tensor<4xf32>

func.func @int_to_float_unary(%x: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],f32> {
  %1 = "torch.aten.sqrt"(%x) : (!torch.vtensor<[4],si64>) -> !torch.vtensor<[4],f32>
  return %1 : !torch.vtensor<[4],f32>
}

// -----

// ----- Tensor binaries: alpha scales the second operand; an f32 0-d tensor is cast to bf16 (torch computes in the result dtype) -----
// CHECK-LABEL: func.func @binary_tensor
// CHECK-NEXT: %[[P:.*]] = "dit.pow"(%arg0, %arg1) : (tensor<2x4x8xbf16>, tensor<8xbf16>) -> tensor<2x4x8xbf16>
// CHECK-NEXT: %[[A:.*]] = "dit.add"(%[[P]], %arg1) : (tensor<2x4x8xbf16>, tensor<8xbf16>) -> tensor<2x4x8xbf16>
// CHECK-NEXT: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : tensor<bf16>
// CHECK-NEXT: %[[Y2:.*]] = "dit.mul"(%arg1, %[[TWO]])
// CHECK-NEXT: %[[B:.*]] = "dit.sub"(%[[A]], %[[Y2]])
// CHECK-NEXT: %[[S:.*]] = "dit.cast"(%arg2) : (tensor<f32>) -> tensor<bf16>
// CHECK-NEXT: %[[C:.*]] = "dit.mul"(%[[B]], %[[S]]) : (tensor<2x4x8xbf16>, tensor<bf16>) -> tensor<2x4x8xbf16>
// CHECK-NEXT: %[[D:.*]] = "dit.div"(%[[C]], %arg1)
// CHECK-NEXT: %[[F:.*]] = "dit.sub"(%arg1, %[[D]]) : (tensor<8xbf16>, tensor<2x4x8xbf16>) -> tensor<2x4x8xbf16>
// CHECK-NEXT: return %[[F]]

func.func @binary_tensor(%x: !torch.vtensor<[2,4,8],bf16>, %y: !torch.vtensor<[8],bf16>, %s: !torch.vtensor<[],f32>) -> !torch.vtensor<[2,4,8],bf16> {
  %c1 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c2 = "torch.constant.float"() <{value = 2.000000000e+00 : f64}> : () -> !torch.float
  %3 = "torch.aten.pow.Tensor_Tensor"(%x, %y) : (!torch.vtensor<[2,4,8],bf16>, !torch.vtensor<[8],bf16>) -> !torch.vtensor<[2,4,8],bf16>
  %4 = "torch.aten.add.Tensor"(%3, %y, %c1) : (!torch.vtensor<[2,4,8],bf16>, !torch.vtensor<[8],bf16>, !torch.int) -> !torch.vtensor<[2,4,8],bf16>
  %5 = "torch.aten.sub.Tensor"(%4, %y, %c2) : (!torch.vtensor<[2,4,8],bf16>, !torch.vtensor<[8],bf16>, !torch.float) -> !torch.vtensor<[2,4,8],bf16>
  %6 = "torch.aten.mul.Tensor"(%5, %s) : (!torch.vtensor<[2,4,8],bf16>, !torch.vtensor<[],f32>) -> !torch.vtensor<[2,4,8],bf16>
  %7 = "torch.aten.div.Tensor"(%6, %y) : (!torch.vtensor<[2,4,8],bf16>, !torch.vtensor<[8],bf16>) -> !torch.vtensor<[2,4,8],bf16>
  %8 = "torch.aten.rsub.Tensor"(%7, %y, %c1) : (!torch.vtensor<[2,4,8],bf16>, !torch.vtensor<[8],bf16>, !torch.int) -> !torch.vtensor<[2,4,8],bf16>
  return %8 : !torch.vtensor<[2,4,8],bf16>
}

// -----

// ----- Scalar binaries: Python scalars become 0-d constants of the result dtype; alpha folds into the constant -----
// CHECK-LABEL: func.func @binary_scalar
// CHECK-NEXT: %[[EPS:.*]] = arith.constant dense<9.99999997E-7> : tensor<f32>
// CHECK-NEXT: %[[A:.*]] = "dit.add"(%arg0, %[[EPS]]) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[THREE:.*]] = arith.constant dense<3.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[B:.*]] = "dit.sub"(%[[A]], %[[THREE]])
// CHECK-NEXT: %[[HALF:.*]] = arith.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT: %[[C:.*]] = "dit.mul"(%[[B]], %[[HALF]])
// CHECK-NEXT: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[D:.*]] = "dit.div"(%[[C]], %[[TWO]])
// The conversion merges equal constants (and equal ops) it emitted for different torch ops.
// CHECK-NEXT: %[[E:.*]] = "dit.pow"(%[[D]], %[[TWO]])
// CHECK-NEXT: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[F:.*]] = "dit.sub"(%[[ONE]], %[[E]]) : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[G:.*]] = "dit.pow"(%[[TWO]], %[[F]]) : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: return %[[G]]

func.func @binary_scalar(%x: !torch.vtensor<[2,8],f32>) -> !torch.vtensor<[2,8],f32> {
  %c1 = "torch.constant.float"() <{value = 1.000000000e-06 : f64}> : () -> !torch.float
  %c2 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c3 = "torch.constant.float"() <{value = 5.000000000e-01 : f64}> : () -> !torch.float
  %c4 = "torch.constant.int"() <{value = 2 : i64}> : () -> !torch.int
  %c5 = "torch.constant.int"() <{value = 3 : i64}> : () -> !torch.int
  %6 = "torch.aten.add.Scalar"(%x, %c1, %c2) : (!torch.vtensor<[2,8],f32>, !torch.float, !torch.int) -> !torch.vtensor<[2,8],f32>
  %7 = "torch.aten.sub.Scalar"(%6, %c2, %c5) : (!torch.vtensor<[2,8],f32>, !torch.int, !torch.int) -> !torch.vtensor<[2,8],f32>
  %8 = "torch.aten.mul.Scalar"(%7, %c3) : (!torch.vtensor<[2,8],f32>, !torch.float) -> !torch.vtensor<[2,8],f32>
  %9 = "torch.aten.div.Scalar"(%8, %c4) : (!torch.vtensor<[2,8],f32>, !torch.int) -> !torch.vtensor<[2,8],f32>
  %10 = "torch.aten.pow.Tensor_Scalar"(%9, %c4) : (!torch.vtensor<[2,8],f32>, !torch.int) -> !torch.vtensor<[2,8],f32>
  %11 = "torch.aten.rsub.Scalar"(%10, %c2, %c2) : (!torch.vtensor<[2,8],f32>, !torch.int, !torch.int) -> !torch.vtensor<[2,8],f32>
  %12 = "torch.aten.pow.Scalar"(%c4, %11) : (!torch.int, !torch.vtensor<[2,8],f32>) -> !torch.vtensor<[2,8],f32>
  return %12 : !torch.vtensor<[2,8],f32>
}

// -----

// ----- div with rounding_mode='floor' is not dit.div -----
// CHECK-LABEL: func.func @div_floor
// CHECK-NEXT: "dit.opaque"(%arg0, %arg1) {arg2 = "floor", name = "aten.div.Tensor_mode"}
// REPORT: skipped at {{.*}}dit-convert-torch-to-dit.mlir:{{[0-9]+}}:{{[0-9]+}}: aten.div.Tensor_mode: rounding_mode 'floor' (dit.div is true division); kept as dit.opaque

func.func @div_floor(%x: !torch.vtensor<[4],f32>, %y: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %c1 = "torch.constant.str"() <{value = "floor"}> : () -> !torch.str
  %2 = "torch.aten.div.Tensor_mode"(%x, %y, %c1) : (!torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.str) -> !torch.vtensor<[4],f32>
  return %2 : !torch.vtensor<[4],f32>
}

// -----

// ----- a scalar read out of a tensor is no constant: opaque, and the tensor stays an operand -----
// CHECK-LABEL: func.func @scalar_from_tensor
// CHECK-NEXT: "dit.opaque"(%arg0, %arg1) {name = "aten.mul.Scalar"} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// REPORT: skipped at {{.*}}dit-convert-torch-to-dit.mlir:{{[0-9]+}}:{{[0-9]+}}: aten.mul.Scalar: operand #1 is not a constant number; kept as dit.opaque

func.func @scalar_from_tensor(%x: !torch.vtensor<[4],f32>, %t: !torch.vtensor<[],f32>) -> !torch.vtensor<[4],f32> {
  %1 = "torch.aten.Float.Tensor"(%t) : (!torch.vtensor<[],f32>) -> !torch.float
  %2 = "torch.aten.mul.Scalar"(%x, %1) : (!torch.vtensor<[4],f32>, !torch.float) -> !torch.vtensor<[4],f32>
  return %2 : !torch.vtensor<[4],f32>
}

// -----

// ----- mean.dim / sum.dim_IntList / mean -> dit.reduce_*; dims=None reduces all; a dtype casts first -----
// CHECK-LABEL: func.func @reductions
// CHECK-NEXT: "dit.reduce_mean"(%arg0) {dims = array<i64: 2>, keepdim = true} : (tensor<2x4x8xbf16>) -> tensor<2x4x1xbf16>
// CHECK-NEXT: "dit.reduce_sum"(%arg0) {dims = array<i64: 0, 1, 2>, keepdim = false} : (tensor<2x4x8xbf16>) -> tensor<bf16>
// CHECK-NEXT: "dit.reduce_mean"(%arg0) {dims = array<i64: 0, 1, 2>, keepdim = false} : (tensor<2x4x8xbf16>) -> tensor<bf16>
// CHECK-NEXT: %[[C:.*]] = "dit.cast"(%arg0) : (tensor<2x4x8xbf16>) -> tensor<2x4x8xf32>
// CHECK-NEXT: "dit.reduce_sum"(%[[C]]) {dims = array<i64: 2>, keepdim = false} : (tensor<2x4x8xf32>) -> tensor<2x4xf32>

func.func @reductions(%x: !torch.vtensor<[2,4,8],bf16>) -> (!torch.vtensor<[2,4,1],bf16>, !torch.vtensor<[],bf16>, !torch.vtensor<[],bf16>, !torch.vtensor<[2,4],f32>) {
  %c1 = "torch.constant.int"() <{value = -1 : i64}> : () -> !torch.int
  %l2 = "torch.prim.ListConstruct"(%c1) : (!torch.int) -> !torch.list<!torch.int>
  %c3 = "torch.constant.bool"() <{value = true}> : () -> !torch.bool
  %c4 = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %c5 = "torch.constant.none"() : () -> !torch.none
  %c6 = "torch.constant.int"() <{value = 6 : i64}> : () -> !torch.int
  %7 = "torch.aten.mean.dim"(%x, %l2, %c3, %c5) : (!torch.vtensor<[2,4,8],bf16>, !torch.list<!torch.int>, !torch.bool, !torch.none) -> !torch.vtensor<[2,4,1],bf16>
  %8 = "torch.aten.sum.dim_IntList"(%x, %c5, %c4, %c5) : (!torch.vtensor<[2,4,8],bf16>, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[],bf16>
  %9 = "torch.aten.mean"(%x, %c5) : (!torch.vtensor<[2,4,8],bf16>, !torch.none) -> !torch.vtensor<[],bf16>
  %10 = "torch.aten.sum.dim_IntList"(%x, %l2, %c4, %c6) : (!torch.vtensor<[2,4,8],bf16>, !torch.list<!torch.int>, !torch.bool, !torch.int) -> !torch.vtensor<[2,4],f32>
  return %7, %8, %9, %10 : !torch.vtensor<[2,4,1],bf16>, !torch.vtensor<[],bf16>, !torch.vtensor<[],bf16>, !torch.vtensor<[2,4],f32>
}

// -----

// ----- softmax.int and _softmax -> dit.softmax (in the result dtype) -----
// CHECK-LABEL: func.func @softmaxes
// CHECK-NEXT: %[[A:.*]] = "dit.softmax"(%arg0) {dim = 2 : i64} : (tensor<2x4x8xbf16>) -> tensor<2x4x8xbf16>
// CHECK-NEXT: %[[B:.*]] = "dit.softmax"(%[[A]]) {dim = 2 : i64}
// CHECK-NEXT: %[[C:.*]] = "dit.cast"(%[[B]]) : (tensor<2x4x8xbf16>) -> tensor<2x4x8xf32>
// CHECK-NEXT: "dit.softmax"(%[[C]]) {dim = 2 : i64} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>

func.func @softmaxes(%x: !torch.vtensor<[2,4,8],bf16>) -> !torch.vtensor<[2,4,8],f32> {
  %c1 = "torch.constant.int"() <{value = -1 : i64}> : () -> !torch.int
  %c2 = "torch.constant.none"() : () -> !torch.none
  %c3 = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %c4 = "torch.constant.int"() <{value = 6 : i64}> : () -> !torch.int
  %5 = "torch.aten.softmax.int"(%x, %c1, %c2) : (!torch.vtensor<[2,4,8],bf16>, !torch.int, !torch.none) -> !torch.vtensor<[2,4,8],bf16>
  %6 = "torch.aten._softmax"(%5, %c1, %c3) : (!torch.vtensor<[2,4,8],bf16>, !torch.int, !torch.bool) -> !torch.vtensor<[2,4,8],bf16>
  %7 = "torch.aten.softmax.int"(%6, %c1, %c4) : (!torch.vtensor<[2,4,8],bf16>, !torch.int, !torch.int) -> !torch.vtensor<[2,4,8],f32>
  return %7 : !torch.vtensor<[2,4,8],f32>
}

// -----

// ----- layer_norm (affine or not) and native_layer_norm with unused mean/rstd -> dit.layer_norm -----
// CHECK-LABEL: func.func @layer_norms
// CHECK-NEXT: %[[A:.*]] = "dit.layer_norm"(%arg0, %arg1, %arg2) {epsilon = 9.99999997E-7 : f32, operandSegmentSizes = array<i32: 1, 1, 1>}
// CHECK-NEXT: %[[B:.*]] = "dit.layer_norm"(%[[A]]) {epsilon = 9.99999997E-7 : f32, operandSegmentSizes = array<i32: 1, 0, 0>}
// CHECK-NEXT: %[[C:.*]] = "dit.layer_norm"(%[[B]], %arg1) {epsilon = 9.99999997E-7 : f32, operandSegmentSizes = array<i32: 1, 1, 0>}
// CHECK-NEXT: return %[[C]]

func.func @layer_norms(%x: !torch.vtensor<[2,4,64],bf16>, %w: !torch.vtensor<[64],bf16>, %b: !torch.vtensor<[64],bf16>) -> !torch.vtensor<[2,4,64],bf16> {
  %c1 = "torch.constant.int"() <{value = 64 : i64}> : () -> !torch.int
  %l2 = "torch.prim.ListConstruct"(%c1) : (!torch.int) -> !torch.list<!torch.int>
  %c3 = "torch.constant.float"() <{value = 1.000000000e-06 : f64}> : () -> !torch.float
  %c4 = "torch.constant.none"() : () -> !torch.none
  %c5 = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %6 = "torch.aten.layer_norm"(%x, %l2, %w, %b, %c3, %c5) : (!torch.vtensor<[2,4,64],bf16>, !torch.list<!torch.int>, !torch.vtensor<[64],bf16>, !torch.vtensor<[64],bf16>, !torch.float, !torch.bool) -> !torch.vtensor<[2,4,64],bf16>
  %7 = "torch.aten.layer_norm"(%6, %l2, %c4, %c4, %c3, %c5) : (!torch.vtensor<[2,4,64],bf16>, !torch.list<!torch.int>, !torch.none, !torch.none, !torch.float, !torch.bool) -> !torch.vtensor<[2,4,64],bf16>
  %8:3 = "torch.aten.native_layer_norm"(%7, %l2, %w, %c4, %c3) : (!torch.vtensor<[2,4,64],bf16>, !torch.list<!torch.int>, !torch.vtensor<[64],bf16>, !torch.none, !torch.float) -> (!torch.vtensor<[2,4,64],bf16>, !torch.vtensor<[2,4,1],f32>, !torch.vtensor<[2,4,1],f32>)
  return %8#0 : !torch.vtensor<[2,4,64],bf16>
}

// -----

// ----- layer_norm over the last two dims has no dit form -----
// CHECK-LABEL: func.func @layer_norm_two_dims
// CHECK-NEXT: "dit.opaque"(%arg0) {arg1 = [4, 64], arg4 = 1.000000e-05 : f64, arg5 = false, name = "aten.layer_norm"}
// REPORT: skipped at {{.*}}dit-convert-torch-to-dit.mlir:{{[0-9]+}}:{{[0-9]+}}: aten.layer_norm: normalized_shape [4, 64] is not the last dim alone (dit norms normalize the last dim); kept as dit.opaque

func.func @layer_norm_two_dims(%x: !torch.vtensor<[2,4,64],bf16>) -> !torch.vtensor<[2,4,64],bf16> {
  %c1 = "torch.constant.int"() <{value = 4 : i64}> : () -> !torch.int
  %c2 = "torch.constant.int"() <{value = 64 : i64}> : () -> !torch.int
  %l3 = "torch.prim.ListConstruct"(%c1, %c2) : (!torch.int, !torch.int) -> !torch.list<!torch.int>
  %c4 = "torch.constant.float"() <{value = 1.000000000e-05 : f64}> : () -> !torch.float
  %c5 = "torch.constant.none"() : () -> !torch.none
  %c6 = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %7 = "torch.aten.layer_norm"(%x, %l3, %c5, %c5, %c4, %c6) : (!torch.vtensor<[2,4,64],bf16>, !torch.list<!torch.int>, !torch.none, !torch.none, !torch.float, !torch.bool) -> !torch.vtensor<[2,4,64],bf16>
  return %7 : !torch.vtensor<[2,4,64],bf16>
}

// -----

// ----- native_layer_norm whose rstd is used stays whole: one opaque op with three results -----
// CHECK-LABEL: func.func @native_layer_norm_stats_used
// CHECK-NEXT: %[[N:.*]]:3 = "dit.opaque"(%arg0) {{{.*}}name = "aten.native_layer_norm"} : (tensor<2x64xbf16>) -> (tensor<2x64xbf16>, tensor<2x1xf32>, tensor<2x1xf32>)
// CHECK-NEXT: return %[[N]]#0, %[[N]]#2
// REPORT: skipped at {{.*}}dit-convert-torch-to-dit.mlir:{{[0-9]+}}:{{[0-9]+}}: aten.native_layer_norm: result #2 (mean or rstd) is used; kept as dit.opaque

func.func @native_layer_norm_stats_used(%x: !torch.vtensor<[2,64],bf16>) -> (!torch.vtensor<[2,64],bf16>, !torch.vtensor<[2,1],f32>) {
  %c1 = "torch.constant.int"() <{value = 64 : i64}> : () -> !torch.int
  %l2 = "torch.prim.ListConstruct"(%c1) : (!torch.int) -> !torch.list<!torch.int>
  %c3 = "torch.constant.float"() <{value = 1.000000000e-05 : f64}> : () -> !torch.float
  %c4 = "torch.constant.none"() : () -> !torch.none
  %5:3 = "torch.aten.native_layer_norm"(%x, %l2, %c4, %c4, %c3) : (!torch.vtensor<[2,64],bf16>, !torch.list<!torch.int>, !torch.none, !torch.none, !torch.float) -> (!torch.vtensor<[2,64],bf16>, !torch.vtensor<[2,1],f32>, !torch.vtensor<[2,1],f32>)
  return %5#0, %5#2 : !torch.vtensor<[2,64],bf16>, !torch.vtensor<[2,1],f32>
}

// -----

// ----- rms_norm -> dit.rms_norm; no weight: a ones gamma; no eps: finfo(bf16).eps -----
// CHECK-LABEL: func.func @rms_norms
// CHECK-NEXT: %[[A:.*]] = "dit.rms_norm"(%arg0, %arg1) {epsilon = 9.99999997E-7 : f32}
// CHECK-NEXT: %[[ONES:.*]] = arith.constant dense<1.000000e+00> : tensor<64xbf16>
// CHECK-NEXT: "dit.rms_norm"(%[[A]], %[[ONES]]) {epsilon = 7.812500e-03 : f32}

func.func @rms_norms(%x: !torch.vtensor<[2,4,64],bf16>, %w: !torch.vtensor<[64],bf16>) -> !torch.vtensor<[2,4,64],bf16> {
  %c1 = "torch.constant.int"() <{value = 64 : i64}> : () -> !torch.int
  %l2 = "torch.prim.ListConstruct"(%c1) : (!torch.int) -> !torch.list<!torch.int>
  %c3 = "torch.constant.float"() <{value = 1.000000000e-06 : f64}> : () -> !torch.float
  %c4 = "torch.constant.none"() : () -> !torch.none
  %5 = "torch.aten.rms_norm"(%x, %l2, %w, %c3) : (!torch.vtensor<[2,4,64],bf16>, !torch.list<!torch.int>, !torch.vtensor<[64],bf16>, !torch.float) -> !torch.vtensor<[2,4,64],bf16>
  %6 = "torch.aten.rms_norm"(%5, %l2, %c4, %c4) : (!torch.vtensor<[2,4,64],bf16>, !torch.list<!torch.int>, !torch.none, !torch.none) -> !torch.vtensor<[2,4,64],bf16>
  return %6 : !torch.vtensor<[2,4,64],bf16>
}

// -----

// ----- sdpa -> dit.attention (BNSD); default scale 1/sqrt(64) -----
// CHECK-LABEL: func.func @attention
// CHECK-NEXT: %[[A:.*]] = "dit.attention"(%arg0, %arg1, %arg2) {layout = "BNSD", operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 1.250000e-01 : f32} : (tensor<1x4x16x64xbf16>, tensor<1x4x32x64xbf16>, tensor<1x4x32x64xbf16>) -> tensor<1x4x16x64xbf16>
// CHECK-NEXT: "dit.attention"(%[[A]], %arg1, %arg2) {layout = "BNSD", operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 1.250000e-01 : f32}

func.func @attention(%q: !torch.vtensor<[1,4,16,64],bf16>, %k: !torch.vtensor<[1,4,32,64],bf16>, %v: !torch.vtensor<[1,4,32,64],bf16>) -> !torch.vtensor<[1,4,16,64],bf16> {
  %c1 = "torch.constant.none"() : () -> !torch.none
  %c2 = "torch.constant.float"() <{value = 0.000000000e+00 : f64}> : () -> !torch.float
  %c3 = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %c4 = "torch.constant.float"() <{value = 1.250000000e-01 : f64}> : () -> !torch.float
  %5 = "torch.aten.scaled_dot_product_attention"(%q, %k, %v, %c1, %c2, %c3, %c1, %c3) : (!torch.vtensor<[1,4,16,64],bf16>, !torch.vtensor<[1,4,32,64],bf16>, !torch.vtensor<[1,4,32,64],bf16>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool) -> !torch.vtensor<[1,4,16,64],bf16>
  %6 = "torch.aten.scaled_dot_product_attention"(%5, %k, %v, %c1, %c2, %c3, %c4, %c3) : (!torch.vtensor<[1,4,16,64],bf16>, !torch.vtensor<[1,4,32,64],bf16>, !torch.vtensor<[1,4,32,64],bf16>, !torch.none, !torch.float, !torch.bool, !torch.float, !torch.bool) -> !torch.vtensor<[1,4,16,64],bf16>
  return %6 : !torch.vtensor<[1,4,16,64],bf16>
}

// -----

// ----- a boolean keep-mask becomes dit's masked-out mask (1 - m in i8); a float mask is additive (broadcast to [B|1, N, Sq, Skv]); is_causal becomes causal = true; is_causal with a mask is refused (torch refuses it) -----
// CHECK-LABEL: func.func @attention_masks
// CHECK-NEXT: %[[M8:.*]] = "dit.cast"(%arg3) : (tensor<1x1x16x16xi1>) -> tensor<1x1x16x16xi8>
// CHECK-NEXT: %[[ONE:.*]] = arith.constant dense<1> : tensor<i8>
// CHECK-NEXT: %[[OUT:.*]] = "dit.sub"(%[[ONE]], %[[M8]]) : (tensor<i8>, tensor<1x1x16x16xi8>) -> tensor<1x1x16x16xi8>
// CHECK-NEXT: %[[A:.*]] = "dit.attention"(%arg0, %arg1, %arg2, %[[OUT]]) {layout = "BNSD", operandSegmentSizes = array<i32: 1, 1, 1, 1>, scale = 1.250000e-01 : f32}
// CHECK-NEXT: %[[AM:.*]] = "dit.broadcast"(%arg4) : (tensor<1x1x16x16xbf16>) -> tensor<1x4x16x16xbf16>
// CHECK-NEXT: %[[B:.*]] = "dit.attention"(%[[A]], %arg1, %arg2, %[[AM]]) {layout = "BNSD", mask_kind = "additive", operandSegmentSizes = array<i32: 1, 1, 1, 1>, scale = 1.250000e-01 : f32}
// CHECK-NEXT: %[[C:.*]] = "dit.attention"(%[[B]], %arg1, %arg2) {causal = true, layout = "BNSD", operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 1.250000e-01 : f32}
// CHECK:      "dit.opaque"(%[[C]], %arg1, %arg2, %arg3) {arg4 = 0.000000e+00 : f64, arg5 = true, arg7 = false, name = "aten.scaled_dot_product_attention"}
// REPORT: skipped at {{.*}}dit-convert-torch-to-dit.mlir:{{[0-9]+}}:{{[0-9]+}}: aten.scaled_dot_product_attention: is_causal = true with an attn_mask (torch refuses both); kept as dit.opaque

func.func @attention_masks(%q: !torch.vtensor<[1,4,16,64],bf16>, %k: !torch.vtensor<[1,4,16,64],bf16>, %v: !torch.vtensor<[1,4,16,64],bf16>, %m: !torch.vtensor<[1,1,16,16],i1>, %a: !torch.vtensor<[1,1,16,16],bf16>) -> !torch.vtensor<[1,4,16,64],bf16> {
  %c1 = "torch.constant.none"() : () -> !torch.none
  %c2 = "torch.constant.float"() <{value = 0.000000000e+00 : f64}> : () -> !torch.float
  %c3 = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %c4 = "torch.constant.bool"() <{value = true}> : () -> !torch.bool
  %5 = "torch.aten.scaled_dot_product_attention"(%q, %k, %v, %m, %c2, %c3, %c1, %c3) : (!torch.vtensor<[1,4,16,64],bf16>, !torch.vtensor<[1,4,16,64],bf16>, !torch.vtensor<[1,4,16,64],bf16>, !torch.vtensor<[1,1,16,16],i1>, !torch.float, !torch.bool, !torch.none, !torch.bool) -> !torch.vtensor<[1,4,16,64],bf16>
  %6 = "torch.aten.scaled_dot_product_attention"(%5, %k, %v, %a, %c2, %c3, %c1, %c3) : (!torch.vtensor<[1,4,16,64],bf16>, !torch.vtensor<[1,4,16,64],bf16>, !torch.vtensor<[1,4,16,64],bf16>, !torch.vtensor<[1,1,16,16],bf16>, !torch.float, !torch.bool, !torch.none, !torch.bool) -> !torch.vtensor<[1,4,16,64],bf16>
  %7 = "torch.aten.scaled_dot_product_attention"(%6, %k, %v, %c1, %c2, %c4, %c1, %c3) : (!torch.vtensor<[1,4,16,64],bf16>, !torch.vtensor<[1,4,16,64],bf16>, !torch.vtensor<[1,4,16,64],bf16>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool) -> !torch.vtensor<[1,4,16,64],bf16>
  %8 = "torch.aten.scaled_dot_product_attention"(%7, %k, %v, %m, %c2, %c4, %c1, %c3) : (!torch.vtensor<[1,4,16,64],bf16>, !torch.vtensor<[1,4,16,64],bf16>, !torch.vtensor<[1,4,16,64],bf16>, !torch.vtensor<[1,1,16,16],i1>, !torch.float, !torch.bool, !torch.none, !torch.bool) -> !torch.vtensor<[1,4,16,64],bf16>
  return %8 : !torch.vtensor<[1,4,16,64],bf16>
}

// -----

// ----- is_causal with fewer queries than keys (Sq 16, Skv 32): causal = true, top-left aligned like torch; dit-run runs it (line 14) -----
// CHECK-LABEL: func.func @attention_causal_cross
// CHECK-NEXT: "dit.attention"(%arg0, %arg1, %arg2) {causal = true, layout = "BNSD", operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 1.250000e-01 : f32} : (tensor<1x4x16x64xbf16>, tensor<1x4x32x64xbf16>, tensor<1x4x32x64xbf16>) -> tensor<1x4x16x64xbf16>

func.func @attention_causal_cross(%q: !torch.vtensor<[1,4,16,64],bf16>, %k: !torch.vtensor<[1,4,32,64],bf16>, %v: !torch.vtensor<[1,4,32,64],bf16>) -> !torch.vtensor<[1,4,16,64],bf16> {
  %none = "torch.constant.none"() : () -> !torch.none
  %p = "torch.constant.float"() <{value = 0.000000000e+00 : f64}> : () -> !torch.float
  %true = "torch.constant.bool"() <{value = true}> : () -> !torch.bool
  %false = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %0 = "torch.aten.scaled_dot_product_attention"(%q, %k, %v, %none, %p, %true, %none, %false) : (!torch.vtensor<[1,4,16,64],bf16>, !torch.vtensor<[1,4,32,64],bf16>, !torch.vtensor<[1,4,32,64],bf16>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool) -> !torch.vtensor<[1,4,16,64],bf16>
  return %0 : !torch.vtensor<[1,4,16,64],bf16>
}

// -----

// ----- cat -> dit.concat (inputs cast to the result dtype); stack = reshapes + concat -----
// CHECK-LABEL: func.func @cat_stack
// CHECK-NEXT: %[[B:.*]] = "dit.cast"(%arg1) : (tensor<2x5xf32>) -> tensor<2x5xbf16>
// CHECK-NEXT: "dit.concat"(%arg0, %[[B]]) {dim = 1 : i64} : (tensor<2x3xbf16>, tensor<2x5xbf16>) -> tensor<2x8xbf16>
// CHECK-NEXT: %[[A1:.*]] = "dit.reshape"(%arg0) : (tensor<2x3xbf16>) -> tensor<1x2x3xbf16>
// CHECK-NEXT: %[[C1:.*]] = "dit.reshape"(%arg2) : (tensor<2x3xbf16>) -> tensor<1x2x3xbf16>
// CHECK-NEXT: "dit.concat"(%[[A1]], %[[C1]]) {dim = 0 : i64} : (tensor<1x2x3xbf16>, tensor<1x2x3xbf16>) -> tensor<2x2x3xbf16>

func.func @cat_stack(%a: !torch.vtensor<[2,3],bf16>, %b: !torch.vtensor<[2,5],f32>, %c: !torch.vtensor<[2,3],bf16>) -> (!torch.vtensor<[2,8],bf16>, !torch.vtensor<[2,2,3],bf16>) {
  %l1 = "torch.prim.ListConstruct"(%a, %b) : (!torch.vtensor<[2,3],bf16>, !torch.vtensor<[2,5],f32>) -> !torch.list<vtensor>
  %c2 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c3 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %4 = "torch.aten.cat"(%l1, %c2) : (!torch.list<vtensor>, !torch.int) -> !torch.vtensor<[2,8],bf16>
  %l5 = "torch.prim.ListConstruct"(%a, %c) : (!torch.vtensor<[2,3],bf16>, !torch.vtensor<[2,3],bf16>) -> !torch.list<vtensor>
  %6 = "torch.aten.stack"(%l5, %c3) : (!torch.list<vtensor>, !torch.int) -> !torch.vtensor<[2,2,3],bf16>
  return %4, %6 : !torch.vtensor<[2,8],bf16>, !torch.vtensor<[2,2,3],bf16>
}

// -----

// ----- split / split_with_sizes / chunk / unbind + ListUnpack -> dit.split (sizes from the unpacked types) -----
// CHECK-LABEL: func.func @splits
// chunk(3) is the same split as split(4): one dit.split serves both.
// CHECK-NEXT: %[[P:.*]]:3 = "dit.split"(%arg0) {dim = 1 : i64, sizes = array<i64: 4, 4, 4>} : (tensor<2x12xbf16>) -> (tensor<2x4xbf16>, tensor<2x4xbf16>, tensor<2x4xbf16>)
// CHECK-NEXT: %[[Q:.*]]:2 = "dit.split"(%arg0) {dim = 1 : i64, sizes = array<i64: 2, 10>}
// CHECK-NEXT: %[[U:.*]]:2 = "dit.split"(%arg0) {dim = 0 : i64, sizes = array<i64: 1, 1>} : (tensor<2x12xbf16>) -> (tensor<1x12xbf16>, tensor<1x12xbf16>)
// CHECK-NEXT: %[[U1:.*]] = "dit.reshape"(%[[U]]#1) : (tensor<1x12xbf16>) -> tensor<12xbf16>
// CHECK-NEXT: return %[[P]]#0, %[[P]]#2, %[[Q]]#1, %[[P]]#1, %[[U1]]

func.func @splits(%x: !torch.vtensor<[2,12],bf16>) -> (!torch.vtensor<[2,4],bf16>, !torch.vtensor<[2,4],bf16>, !torch.vtensor<[2,10],bf16>, !torch.vtensor<[2,4],bf16>, !torch.vtensor<[12],bf16>) {
  %c1 = "torch.constant.int"() <{value = 4 : i64}> : () -> !torch.int
  %c2 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c3 = "torch.constant.int"() <{value = 3 : i64}> : () -> !torch.int
  %4 = "torch.aten.split.Tensor"(%x, %c1, %c2) : (!torch.vtensor<[2,12],bf16>, !torch.int, !torch.int) -> !torch.list<vtensor>
  %5:3 = "torch.prim.ListUnpack"(%4) : (!torch.list<vtensor>) -> (!torch.vtensor<[2,4],bf16>, !torch.vtensor<[2,4],bf16>, !torch.vtensor<[2,4],bf16>)
  %c6 = "torch.constant.int"() <{value = 2 : i64}> : () -> !torch.int
  %c7 = "torch.constant.int"() <{value = 10 : i64}> : () -> !torch.int
  %l8 = "torch.prim.ListConstruct"(%c6, %c7) : (!torch.int, !torch.int) -> !torch.list<!torch.int>
  %9 = "torch.aten.split_with_sizes"(%x, %l8, %c2) : (!torch.vtensor<[2,12],bf16>, !torch.list<!torch.int>, !torch.int) -> !torch.list<vtensor>
  %10:2 = "torch.prim.ListUnpack"(%9) : (!torch.list<vtensor>) -> (!torch.vtensor<[2,2],bf16>, !torch.vtensor<[2,10],bf16>)
  %11 = "torch.aten.chunk"(%x, %c3, %c2) : (!torch.vtensor<[2,12],bf16>, !torch.int, !torch.int) -> !torch.list<vtensor>
  %12:3 = "torch.prim.ListUnpack"(%11) : (!torch.list<vtensor>) -> (!torch.vtensor<[2,4],bf16>, !torch.vtensor<[2,4],bf16>, !torch.vtensor<[2,4],bf16>)
  %c13 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %14 = "torch.aten.unbind.int"(%x, %c13) : (!torch.vtensor<[2,12],bf16>, !torch.int) -> !torch.list<vtensor>
  %15:2 = "torch.prim.ListUnpack"(%14) : (!torch.list<vtensor>) -> (!torch.vtensor<[12],bf16>, !torch.vtensor<[12],bf16>)
  return %5#0, %5#2, %10#1, %12#1, %15#1 : !torch.vtensor<[2,4],bf16>, !torch.vtensor<[2,4],bf16>, !torch.vtensor<[2,10],bf16>, !torch.vtensor<[2,4],bf16>, !torch.vtensor<[12],bf16>
}

// -----

// ----- slice (INT64_MAX clamps to the dim, None start is 0) / select / narrow -> dit.slice -----
// CHECK-LABEL: func.func @slices
// CHECK-NEXT: "dit.slice"(%arg0) {dim = 1 : i64, end = 16 : i64, start = 8 : i64, step = 1 : i64} : (tensor<4x16xbf16>) -> tensor<4x8xbf16>
// CHECK-NEXT: "dit.slice"(%arg0) {dim = 1 : i64, end = 8 : i64, start = 0 : i64, step = 2 : i64} : (tensor<4x16xbf16>) -> tensor<4x4xbf16>
// CHECK-NEXT: %[[S:.*]] = "dit.slice"(%arg0) {dim = 0 : i64, end = 4 : i64, start = -1 : i64, step = 1 : i64} : (tensor<4x16xbf16>) -> tensor<1x16xbf16>
// CHECK-NEXT: "dit.reshape"(%[[S]]) : (tensor<1x16xbf16>) -> tensor<16xbf16>
// CHECK-NEXT: "dit.slice"(%arg0) {dim = 1 : i64, end = 10 : i64, start = 2 : i64, step = 1 : i64} : (tensor<4x16xbf16>) -> tensor<4x8xbf16>

func.func @slices(%x: !torch.vtensor<[4,16],bf16>) -> (!torch.vtensor<[4,8],bf16>, !torch.vtensor<[4,4],bf16>, !torch.vtensor<[16],bf16>, !torch.vtensor<[4,8],bf16>) {
  %c1 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c2 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %c3 = "torch.constant.int"() <{value = 9223372036854775807 : i64}> : () -> !torch.int
  %c4 = "torch.constant.none"() : () -> !torch.none
  %c5 = "torch.constant.int"() <{value = 2 : i64}> : () -> !torch.int
  %c6 = "torch.constant.int"() <{value = -1 : i64}> : () -> !torch.int
  %c7 = "torch.constant.int"() <{value = 8 : i64}> : () -> !torch.int
  %8 = "torch.aten.slice.Tensor"(%x, %c1, %c7, %c3, %c1) : (!torch.vtensor<[4,16],bf16>, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[4,8],bf16>
  %9 = "torch.aten.slice.Tensor"(%x, %c6, %c4, %c7, %c5) : (!torch.vtensor<[4,16],bf16>, !torch.int, !torch.none, !torch.int, !torch.int) -> !torch.vtensor<[4,4],bf16>
  %10 = "torch.aten.select.int"(%x, %c2, %c6) : (!torch.vtensor<[4,16],bf16>, !torch.int, !torch.int) -> !torch.vtensor<[16],bf16>
  %11 = "torch.aten.narrow"(%x, %c1, %c5, %c7) : (!torch.vtensor<[4,16],bf16>, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[4,8],bf16>
  return %8, %9, %10, %11 : !torch.vtensor<[4,8],bf16>, !torch.vtensor<[4,4],bf16>, !torch.vtensor<[16],bf16>, !torch.vtensor<[4,8],bf16>
}

// -----

// ----- slice_scatter: an interleaving write (step 2 over the whole dim) is a concat of the columns, a step-1 write a concat of slices; copy is its source -----
// CHECK-LABEL: func.func @scatters
// CHECK-NEXT: %[[A:.*]] = "dit.reshape"(%arg1) : (tensor<2x4xf32>) -> tensor<2x4x1xf32>
// CHECK-NEXT: %[[B:.*]] = "dit.reshape"(%arg2) : (tensor<2x4xf32>) -> tensor<2x4x1xf32>
// CHECK-NEXT: %[[AB:.*]] = "dit.concat"(%[[A]], %[[B]]) {dim = 2 : i64} : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x2xf32>
// CHECK-NEXT: %[[I:.*]] = "dit.reshape"(%[[AB]]) : (tensor<2x4x2xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[L:.*]] = "dit.slice"(%arg0) {dim = 1 : i64, end = 2 : i64, start = 0 : i64, step = 1 : i64}
// CHECK-NEXT: %[[R:.*]] = "dit.slice"(%arg0) {dim = 1 : i64, end = 8 : i64, start = 5 : i64, step = 1 : i64}
// CHECK-NEXT: %[[W:.*]] = "dit.concat"(%[[L]], %arg3, %[[R]]) {dim = 1 : i64} : (tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: return %[[I]], %[[W]], %arg3

func.func @scatters(%x: !torch.vtensor<[2,8],f32>, %a: !torch.vtensor<[2,4],f32>, %b: !torch.vtensor<[2,4],f32>, %s: !torch.vtensor<[2,3],f32>) -> (!torch.vtensor<[2,8],f32>, !torch.vtensor<[2,8],f32>, !torch.vtensor<[2,3],f32>) {
  %c1 = "torch.constant.none"() : () -> !torch.none
  %c2 = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %3 = "torch.aten.empty_like"(%x, %c1, %c1, %c1, %c2, %c1) : (!torch.vtensor<[2,8],f32>, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[2,8],f32>
  %c4 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c5 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %c6 = "torch.constant.int"() <{value = 9223372036854775807 : i64}> : () -> !torch.int
  %c7 = "torch.constant.int"() <{value = 2 : i64}> : () -> !torch.int
  %8 = "torch.aten.slice_scatter"(%3, %a, %c4, %c5, %c6, %c7) : (!torch.vtensor<[2,8],f32>, !torch.vtensor<[2,4],f32>, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[2,8],f32>
  %9 = "torch.aten.slice_scatter"(%8, %b, %c4, %c4, %c6, %c7) : (!torch.vtensor<[2,8],f32>, !torch.vtensor<[2,4],f32>, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[2,8],f32>
  %c10 = "torch.constant.int"() <{value = 5 : i64}> : () -> !torch.int
  %11 = "torch.aten.slice_scatter"(%x, %s, %c4, %c7, %c10, %c4) : (!torch.vtensor<[2,8],f32>, !torch.vtensor<[2,3],f32>, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[2,8],f32>
  %c12 = "torch.constant.int"() <{value = 3 : i64}> : () -> !torch.int
  %13 = "torch.aten.slice.Tensor"(%x, %c4, %c5, %c12, %c4) : (!torch.vtensor<[2,8],f32>, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[2,3],f32>
  %14 = "torch.aten.copy"(%13, %s, %c2) : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.bool) -> !torch.vtensor<[2,3],f32>
  return %9, %11, %14 : !torch.vtensor<[2,8],f32>, !torch.vtensor<[2,8],f32>, !torch.vtensor<[2,3],f32>
}

// -----

// ----- repeat_interleave(x, r, dim) -> reshape + broadcast + reshape -----
// CHECK-LABEL: func.func @repeat_interleave
// CHECK-NEXT: %[[U:.*]] = "dit.reshape"(%arg0) : (tensor<1x2x8xbf16>) -> tensor<1x1x2x8xbf16>
// CHECK-NEXT: %[[B:.*]] = "dit.broadcast"(%[[U]]) : (tensor<1x1x2x8xbf16>) -> tensor<1x3x2x8xbf16>
// CHECK-NEXT: "dit.reshape"(%[[B]]) : (tensor<1x3x2x8xbf16>) -> tensor<3x2x8xbf16>

func.func @repeat_interleave(%x: !torch.vtensor<[1,2,8],bf16>) -> !torch.vtensor<[3,2,8],bf16> {
  %c1 = "torch.constant.int"() <{value = 3 : i64}> : () -> !torch.int
  %c2 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %c3 = "torch.constant.none"() : () -> !torch.none
  %4 = "torch.aten.repeat_interleave.self_int"(%x, %c1, %c2, %c3) : (!torch.vtensor<[1,2,8],bf16>, !torch.int, !torch.int, !torch.none) -> !torch.vtensor<[3,2,8],bf16>
  return %4 : !torch.vtensor<[3,2,8],bf16>
}

// -----

// ----- torch.operator names the aten op (here _grouped_mm -> dit.grouped_matmul, group list cumsum in i64) -----
// CHECK-LABEL: func.func @grouped_mm(%arg0: tensor<8x16xbf16>, %arg1: tensor<3x16x8xbf16>, %arg2: tensor<3xi32>)
// CHECK-NEXT: %[[G:.*]] = "dit.cast"(%arg2) : (tensor<3xi32>) -> tensor<3xi64>
// CHECK-NEXT: "dit.grouped_matmul"(%arg0, %arg1, %[[G]]) {group_list_type = "cumsum", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>}

func.func @grouped_mm(%x: !torch.vtensor<[8,16],bf16>, %w: !torch.vtensor<[3,16,8],bf16>, %offs: !torch.vtensor<[3],si32>) -> !torch.vtensor<[8,8],bf16> {
  %c1 = "torch.constant.none"() : () -> !torch.none
  %gmm = "torch.operator"(%x, %w, %offs, %c1, %c1) {name = "torch.aten._grouped_mm"} : (!torch.vtensor<[8,16],bf16>, !torch.vtensor<[3,16,8],bf16>, !torch.vtensor<[3],si32>, !torch.none, !torch.none) -> !torch.vtensor<[8,8],bf16>
  return %gmm : !torch.vtensor<[8,8],bf16>
}

// -----

// ----- views -> dit.reshape; permute / t / movedim -> dit.transpose; expand -> dit.broadcast -----
// CHECK-LABEL: func.func @views
// CHECK-NEXT: "dit.reshape"(%arg0) : (tensor<2x8x16xbf16>) -> tensor<2x128xbf16>
// CHECK-NEXT: "dit.reshape"({{.*}}) : (tensor<2x128xbf16>) -> tensor<2x4x32xbf16>
// CHECK-NEXT: "dit.reshape"({{.*}}) : (tensor<2x4x32xbf16>) -> tensor<2x1x4x32xbf16>
// CHECK-NEXT: "dit.reshape"({{.*}}) : (tensor<2x1x4x32xbf16>) -> tensor<2x4x32xbf16>
// CHECK-NEXT: "dit.reshape"({{.*}}) : (tensor<2x4x32xbf16>) -> tensor<2x128xbf16>
// CHECK-NEXT: "dit.transpose"({{.*}}) {perm = array<i64: 1, 0>} : (tensor<2x128xbf16>) -> tensor<128x2xbf16>
// CHECK-NEXT: "dit.transpose"({{.*}}) {perm = array<i64: 1, 0>} : (tensor<128x2xbf16>) -> tensor<2x128xbf16>
// CHECK-NEXT: "dit.transpose"(%arg0) {perm = array<i64: 1, 2, 0>} : (tensor<2x8x16xbf16>) -> tensor<8x16x2xbf16>
// CHECK-NEXT: "dit.reshape"({{.*}}) : (tensor<8x16x2xbf16>) -> tensor<1x8x16x2xbf16>
// CHECK-NEXT: "dit.broadcast"({{.*}}) : (tensor<1x8x16x2xbf16>) -> tensor<3x8x16x2xbf16>

func.func @views(%x: !torch.vtensor<[2,8,16],bf16>) -> (!torch.vtensor<[2,128],bf16>, !torch.vtensor<[3,8,16,2],bf16>) {
  %c1 = "torch.constant.int"() <{value = 2 : i64}> : () -> !torch.int
  %c2 = "torch.constant.int"() <{value = 128 : i64}> : () -> !torch.int
  %l3 = "torch.prim.ListConstruct"(%c1, %c2) : (!torch.int, !torch.int) -> !torch.list<!torch.int>
  %4 = "torch.aten.view"(%x, %l3) : (!torch.vtensor<[2,8,16],bf16>, !torch.list<!torch.int>) -> !torch.vtensor<[2,128],bf16>
  %c5 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c6 = "torch.constant.int"() <{value = -1 : i64}> : () -> !torch.int
  %c7 = "torch.constant.int"() <{value = 4 : i64}> : () -> !torch.int
  %c8 = "torch.constant.int"() <{value = 32 : i64}> : () -> !torch.int
  %l9 = "torch.prim.ListConstruct"(%c7, %c8) : (!torch.int, !torch.int) -> !torch.list<!torch.int>
  %10 = "torch.aten.unflatten.int"(%4, %c5, %l9) : (!torch.vtensor<[2,128],bf16>, !torch.int, !torch.list<!torch.int>) -> !torch.vtensor<[2,4,32],bf16>
  %11 = "torch.aten.unsqueeze"(%10, %c5) : (!torch.vtensor<[2,4,32],bf16>, !torch.int) -> !torch.vtensor<[2,1,4,32],bf16>
  %12 = "torch.aten.squeeze.dim"(%11, %c5) : (!torch.vtensor<[2,1,4,32],bf16>, !torch.int) -> !torch.vtensor<[2,4,32],bf16>
  %13 = "torch.aten.flatten.using_ints"(%12, %c5, %c6) : (!torch.vtensor<[2,4,32],bf16>, !torch.int, !torch.int) -> !torch.vtensor<[2,128],bf16>
  %c14 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %c15 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %l16 = "torch.prim.ListConstruct"(%c14, %c15) : (!torch.int, !torch.int) -> !torch.list<!torch.int>
  %17 = "torch.aten.permute"(%13, %l16) : (!torch.vtensor<[2,128],bf16>, !torch.list<!torch.int>) -> !torch.vtensor<[128,2],bf16>
  %18 = "torch.aten.t"(%17) : (!torch.vtensor<[128,2],bf16>) -> !torch.vtensor<[2,128],bf16>
  %c19 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %20 = "torch.aten.movedim.int"(%x, %c19, %c6) : (!torch.vtensor<[2,8,16],bf16>, !torch.int, !torch.int) -> !torch.vtensor<[8,16,2],bf16>
  %c21 = "torch.constant.int"() <{value = 3 : i64}> : () -> !torch.int
  %l22 = "torch.prim.ListConstruct"(%c21, %c6, %c6, %c6) : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<!torch.int>
  %23 = "torch.aten.unsqueeze"(%20, %c19) : (!torch.vtensor<[8,16,2],bf16>, !torch.int) -> !torch.vtensor<[1,8,16,2],bf16>
  %c24 = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %25 = "torch.aten.expand"(%23, %l22, %c24) : (!torch.vtensor<[1,8,16,2],bf16>, !torch.list<!torch.int>, !torch.bool) -> !torch.vtensor<[3,8,16,2],bf16>
  return %18, %25 : !torch.vtensor<[2,128],bf16>, !torch.vtensor<[3,8,16,2],bf16>
}

// -----

// ----- view(dtype) -> dit.bitcast -----
// CHECK-LABEL: func.func @bitcast_view
// CHECK-NEXT: "dit.bitcast"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xi32>

func.func @bitcast_view(%x: !torch.vtensor<[4,8],f32>) -> !torch.vtensor<[4,8],si32> {
  %c1 = "torch.constant.int"() <{value = 3 : i64}> : () -> !torch.int
  %2 = "torch.aten.view.dtype"(%x, %c1) : (!torch.vtensor<[4,8],f32>, !torch.int) -> !torch.vtensor<[4,8],si32>
  return %2 : !torch.vtensor<[4,8],si32>
}

// -----

// ----- _to_copy / to.dtype / type_as -> dit.cast, nothing when the dtype is unchanged; clone, contiguous, inference dropout, detach are their input -----
// CHECK-LABEL: func.func @casts
// CHECK-NEXT: %[[F:.*]] = "dit.cast"(%arg0) : (tensor<4x8xbf16>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[B:.*]] = "dit.cast"(%[[F]]) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
// CHECK-NEXT: return %[[B]] : tensor<4x8xbf16>

func.func @casts(%x: !torch.vtensor<[4,8],bf16>, %y: !torch.vtensor<[4,8],f32>) -> !torch.vtensor<[4,8],bf16> {
  %c1 = "torch.constant.none"() : () -> !torch.none
  %c2 = "torch.constant.bool"() <{value = false}> : () -> !torch.bool
  %c3 = "torch.constant.int"() <{value = 6 : i64}> : () -> !torch.int
  %c4 = "torch.constant.int"() <{value = 15 : i64}> : () -> !torch.int
  %5 = "torch.aten._to_copy"(%x, %c3, %c1, %c1, %c1, %c2, %c1) : (!torch.vtensor<[4,8],bf16>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[4,8],f32>
  %6 = "torch.aten.to.dtype"(%5, %c3, %c2, %c2, %c1) : (!torch.vtensor<[4,8],f32>, !torch.int, !torch.bool, !torch.bool, !torch.none) -> !torch.vtensor<[4,8],f32>
  %7 = "torch.aten.type_as"(%6, %x) : (!torch.vtensor<[4,8],f32>, !torch.vtensor<[4,8],bf16>) -> !torch.vtensor<[4,8],bf16>
  %8 = "torch.aten.clone"(%7, %c1) : (!torch.vtensor<[4,8],bf16>, !torch.none) -> !torch.vtensor<[4,8],bf16>
  %c9 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %10 = "torch.aten.contiguous"(%8, %c9) : (!torch.vtensor<[4,8],bf16>, !torch.int) -> !torch.vtensor<[4,8],bf16>
  %c11 = "torch.constant.float"() <{value = 1.000000000e-01 : f64}> : () -> !torch.float
  %12 = "torch.aten.dropout"(%10, %c11, %c2) : (!torch.vtensor<[4,8],bf16>, !torch.float, !torch.bool) -> !torch.vtensor<[4,8],bf16>
  %13 = "torch.aten.detach"(%12) : (!torch.vtensor<[4,8],bf16>) -> !torch.vtensor<[4,8],bf16>
  return %13 : !torch.vtensor<[4,8],bf16>
}

// -----

// ----- literals and full / ones_like / zeros / scalar_tensor -> arith.constant (si64 data re-typed as i64) -----
// CHECK-LABEL: func.func @constants(%arg0: tensor<2x3xi64>) -> (tensor<2x3xf32>, tensor<2x3xi64>)
// CHECK-DAG: %[[LIT:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[INTS:.*]] = arith.constant dense<[4, 5, 6]> : tensor<3xi64>
// CHECK-DAG: %[[FULL:.*]] = arith.constant dense<5.000000e-01> : tensor<2x3xf32>
// CHECK-DAG: %[[ONES:.*]] = arith.constant dense<1> : tensor<2x3xi64>
// CHECK-DAG: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<2x3xf32>
// CHECK-DAG: %[[ST:.*]] = arith.constant dense<3.500000e+00> : tensor<f32>
// CHECK-DAG: %[[A:.*]] = "dit.add"(%arg0, %[[INTS]]) : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
// CHECK-DAG: %[[B:.*]] = "dit.add"(%[[FULL]], %[[ZEROS]])
// CHECK-DAG: %[[C:.*]] = "dit.mul"(%[[B]], %[[LIT]])
// CHECK-DAG: %[[D:.*]] = "dit.mul"(%[[C]], %[[ST]])
// CHECK-DAG: %[[G:.*]] = "dit.add"(%[[A]], %[[ONES]])
// CHECK: return %[[D]], %[[G]]

func.func @constants(%x: !torch.vtensor<[2,3],si64>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si64>) {
  %lit = "torch.vtensor.literal"() <{value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>}> : () -> !torch.vtensor<[3],f32>
  %ints = "torch.vtensor.literal"() <{value = dense<[4, 5, 6]> : tensor<3xsi64>}> : () -> !torch.vtensor<[3],si64>
  %c2 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %3 = "torch.aten.add.Tensor"(%x, %ints, %c2) : (!torch.vtensor<[2,3],si64>, !torch.vtensor<[3],si64>, !torch.int) -> !torch.vtensor<[2,3],si64>
  %c4 = "torch.constant.int"() <{value = 2 : i64}> : () -> !torch.int
  %c5 = "torch.constant.int"() <{value = 3 : i64}> : () -> !torch.int
  %l6 = "torch.prim.ListConstruct"(%c4, %c5) : (!torch.int, !torch.int) -> !torch.list<!torch.int>
  %c7 = "torch.constant.none"() : () -> !torch.none
  %c8 = "torch.constant.float"() <{value = 5.000000000e-01 : f64}> : () -> !torch.float
  %9 = "torch.aten.full"(%l6, %c8, %c7, %c7, %c7, %c7) : (!torch.list<!torch.int>, !torch.float, !torch.none, !torch.none, !torch.none, !torch.none) -> !torch.vtensor<[2,3],f32>
  %10 = "torch.aten.ones_like"(%x, %c7, %c7, %c7, %c7, %c7) : (!torch.vtensor<[2,3],si64>, !torch.none, !torch.none, !torch.none, !torch.none, !torch.none) -> !torch.vtensor<[2,3],si64>
  %11 = "torch.aten.zeros"(%l6, %c7, %c7, %c7, %c7) : (!torch.list<!torch.int>, !torch.none, !torch.none, !torch.none, !torch.none) -> !torch.vtensor<[2,3],f32>
  %c12 = "torch.constant.float"() <{value = 3.500000000e+00 : f64}> : () -> !torch.float
  %13 = "torch.aten.scalar_tensor"(%c12, %c7, %c7, %c7, %c7) : (!torch.float, !torch.none, !torch.none, !torch.none, !torch.none) -> !torch.vtensor<[],f32>
  %14 = "torch.aten.add.Tensor"(%9, %11, %c2) : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.int) -> !torch.vtensor<[2,3],f32>
  %15 = "torch.aten.mul.Tensor"(%14, %lit) : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[3],f32>) -> !torch.vtensor<[2,3],f32>
  %16 = "torch.aten.mul.Tensor"(%15, %13) : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[],f32>) -> !torch.vtensor<[2,3],f32>
  %17 = "torch.aten.add.Tensor"(%3, %10, %c2) : (!torch.vtensor<[2,3],si64>, !torch.vtensor<[2,3],si64>, !torch.int) -> !torch.vtensor<[2,3],si64>
  return %16, %17 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si64>
}

// -----

// ----- ops outside the table become dit.opaque: name, tensor operands, constant args as arg<i> (a None argument has none) -----
// CHECK-LABEL: func.func @opaque_fallback
// CHECK-NEXT: %[[C:.*]] = "dit.opaque"(%arg0) {arg1 = 1 : i64, name = "aten.tril"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: "dit.opaque"(%[[C]]) {arg1 = 0 : i64, name = "aten.cumprod"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: "dit.opaque"(%[[C]]) {arg1 = 1 : i64, name = "aten.searchsorted_like"} : (tensor<4x8xf32>) -> tensor<4x8xi64>
// REPORT: skipped at {{.*}}dit-convert-torch-to-dit.mlir:{{[0-9]+}}:{{[0-9]+}}: aten.tril: no dit op models it; kept as dit.opaque

func.func @opaque_fallback(%x: !torch.vtensor<[4,8],f32>) -> (!torch.vtensor<[4,8],f32>, !torch.vtensor<[4,8],si64>) {
  %none = "torch.constant.none"() : () -> !torch.none
  %c1 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %c2 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
  %3 = "torch.aten.tril"(%x, %c2) : (!torch.vtensor<[4,8],f32>, !torch.int) -> !torch.vtensor<[4,8],f32>
  %4 = "torch.aten.cumprod"(%3, %c1, %none) : (!torch.vtensor<[4,8],f32>, !torch.int, !torch.none) -> !torch.vtensor<[4,8],f32>
  %srt = "torch.operator"(%3, %c2) {name = "torch.aten.searchsorted_like"} : (!torch.vtensor<[4,8],f32>, !torch.int) -> !torch.vtensor<[4,8],si64>
  return %4, %srt : !torch.vtensor<[4,8],f32>, !torch.vtensor<[4,8],si64>
}

// -----

// ----- a returned tuple becomes several results; runtime asserts are dropped -----
// CHECK-LABEL: func.func @tuple_return(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: %[[E:.*]] = "dit.exp"(%arg0)
// CHECK-NEXT: %[[N:.*]] = "dit.neg"(%arg0)
// CHECK-NEXT: return %[[E]], %[[N]] : tensor<4xf32>, tensor<4xf32>

func.func @tuple_return(%x: !torch.vtensor<[4],f32>) -> !torch.tuple<vtensor, vtensor> {
  %c0 = "torch.constant.bool"() <{value = true}> : () -> !torch.bool
  "torch.runtime.assert"(%c0) <{message = "x must be finite"}> : (!torch.bool) -> ()
  %1 = "torch.aten.exp"(%x) : (!torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32>
  %2 = "torch.aten.neg"(%x) : (!torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32>
  %tup = "torch.prim.TupleConstruct"(%1, %2) : (!torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>) -> !torch.tuple<vtensor, vtensor>
  return %tup : !torch.tuple<vtensor, vtensor>
}

// -----

// ----- dynamic dims: ? stays dynamic; a view's size list need not be constant (the result type has the shape) -----
// CHECK-LABEL: func.func @dynamic_dims(%arg0: tensor<?x64xbf16>, %arg1: tensor<32x64xbf16>) -> tensor<?x4x8xbf16>
// CHECK-NEXT: %[[Y:.*]] = "dit.linear"(%arg0, %arg1) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16>
// CHECK-NEXT: "dit.reshape"(%[[Y]]) : (tensor<?x32xbf16>) -> tensor<?x4x8xbf16>

func.func @dynamic_dims(%x: !torch.vtensor<[?,64],bf16>, %w: !torch.vtensor<[32,64],bf16>) -> !torch.vtensor<[?,4,8],bf16> {
  %c1 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
  %2 = "torch.aten.size.int"(%x, %c1) : (!torch.vtensor<[?,64],bf16>, !torch.int) -> !torch.int
  %c3 = "torch.constant.none"() : () -> !torch.none
  %4 = "torch.aten.linear"(%x, %w, %c3) : (!torch.vtensor<[?,64],bf16>, !torch.vtensor<[32,64],bf16>, !torch.none) -> !torch.vtensor<[?,32],bf16>
  %c5 = "torch.constant.int"() <{value = 4 : i64}> : () -> !torch.int
  %c6 = "torch.constant.int"() <{value = 8 : i64}> : () -> !torch.int
  %l7 = "torch.prim.ListConstruct"(%2, %c5, %c6) : (!torch.int, !torch.int, !torch.int) -> !torch.list<!torch.int>
  %8 = "torch.aten.view"(%4, %l7) : (!torch.vtensor<[?,32],bf16>, !torch.list<!torch.int>) -> !torch.vtensor<[?,4,8],bf16>
  return %8 : !torch.vtensor<[?,4,8],bf16>
}
