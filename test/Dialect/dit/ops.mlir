// RUN: dit-opt %s | dit-opt | FileCheck %s
//
// Round trip of every dit op in the generic form (the ODS definition has no custom syntax and
// no properties: attributes print in a sorted `{...}` dictionary, operandSegmentSizes
// included). Shapes and dtypes follow the contract's rules (DIALECT.md). dit.fused / dit.yield
// come last: dit.yield is the terminator of a dit.fused body.

// ===== elementwise binary =====

// CHECK-LABEL: func.func @add(
// CHECK: %{{.*}} = "dit.add"(%{{.*}}, %{{.*}}) : (tensor<2x1x8xf16>, tensor<4x8xf16>) -> tensor<2x4x8xf16>
func.func @add(%a: tensor<2x1x8xf16>, %b: tensor<4x8xf16>) -> tensor<2x4x8xf16> {
  %0 = "dit.add"(%a, %b) : (tensor<2x1x8xf16>, tensor<4x8xf16>) -> tensor<2x4x8xf16>
  return %0 : tensor<2x4x8xf16>
}

// CHECK-LABEL: func.func @sub(
// CHECK: %{{.*}} = "dit.sub"(%{{.*}}, %{{.*}}) : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
func.func @sub(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = "dit.sub"(%a, %b) : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// CHECK-LABEL: func.func @mul(
// CHECK: %{{.*}} = "dit.mul"(%{{.*}}, %{{.*}}) : (tensor<4x8xbf16>, tensor<bf16>) -> tensor<4x8xbf16>
func.func @mul(%a: tensor<4x8xbf16>, %b: tensor<bf16>) -> tensor<4x8xbf16> {
  %0 = "dit.mul"(%a, %b) : (tensor<4x8xbf16>, tensor<bf16>) -> tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// CHECK-LABEL: func.func @div(
// CHECK: %{{.*}} = "dit.div"(%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
func.func @div(%a: tensor<4x8xf32>, %b: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %0 = "dit.div"(%a, %b) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @pow(
// CHECK: %{{.*}} = "dit.pow"(%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
func.func @pow(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %two = arith.constant dense<2.000000e+00> : tensor<f32>
  %0 = "dit.pow"(%a, %two) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// ===== elementwise unary =====

// CHECK-LABEL: func.func @unary(
// CHECK: %{{.*}} = "dit.neg"(%{{.*}}) : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
// CHECK: %{{.*}} = "dit.exp"(%{{.*}}) : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
// CHECK: %{{.*}} = "dit.sqrt"(%{{.*}}) : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
// CHECK: %{{.*}} = "dit.rsqrt"(%{{.*}}) : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
// CHECK: %{{.*}} = "dit.tanh"(%{{.*}}) : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
// CHECK: %{{.*}} = "dit.erf"(%{{.*}}) : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
// CHECK: %{{.*}} = "dit.sigmoid"(%{{.*}}) : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
// CHECK: %{{.*}} = "dit.silu"(%{{.*}}) : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
// CHECK: %{{.*}} = "dit.relu"(%{{.*}}) : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
func.func @unary(%x: tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16> {
  %0 = "dit.neg"(%x) : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
  %1 = "dit.exp"(%0) : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
  %2 = "dit.sqrt"(%1) : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
  %3 = "dit.rsqrt"(%2) : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
  %4 = "dit.tanh"(%3) : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
  %5 = "dit.erf"(%4) : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
  %6 = "dit.sigmoid"(%5) : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
  %7 = "dit.silu"(%6) : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
  %8 = "dit.relu"(%7) : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
  return %8 : tensor<2x?x64xbf16>
}

// CHECK-LABEL: func.func @gelu(
// CHECK: %{{.*}} = "dit.gelu"(%{{.*}}) {approximate = "none"} : (tensor<2x8xf16>) -> tensor<2x8xf16>
// CHECK: %{{.*}} = "dit.gelu"(%{{.*}}) {approximate = "tanh"} : (tensor<2x8xf16>) -> tensor<2x8xf16>
func.func @gelu(%x: tensor<2x8xf16>) -> (tensor<2x8xf16>, tensor<2x8xf16>) {
  %0 = "dit.gelu"(%x) {approximate = "none"} : (tensor<2x8xf16>) -> tensor<2x8xf16>
  %1 = "dit.gelu"(%x) {approximate = "tanh"} : (tensor<2x8xf16>) -> tensor<2x8xf16>
  return %0, %1 : tensor<2x8xf16>, tensor<2x8xf16>
}

// ===== conversion, reduction, layout =====

// CHECK-LABEL: func.func @cast(
// CHECK: %{{.*}} = "dit.cast"(%{{.*}}) : (tensor<4x8xbf16>) -> tensor<4x8xf32>
func.func @cast(%x: tensor<4x8xbf16>) -> tensor<4x8xf32> {
  %0 = "dit.cast"(%x) : (tensor<4x8xbf16>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @reduce_mean(
// CHECK: %{{.*}} = "dit.reduce_mean"(%{{.*}}) {dims = array<i64: 2>, keepdim = true} : (tensor<1x4x128xf32>) -> tensor<1x4x1xf32>
func.func @reduce_mean(%x: tensor<1x4x128xf32>) -> tensor<1x4x1xf32> {
  %0 = "dit.reduce_mean"(%x) {dims = array<i64: 2>, keepdim = true} : (tensor<1x4x128xf32>) -> tensor<1x4x1xf32>
  return %0 : tensor<1x4x1xf32>
}

// CHECK-LABEL: func.func @reduce_sum(
// CHECK: %{{.*}} = "dit.reduce_sum"(%{{.*}}) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<2x4x8xf32>) -> tensor<8xf32>
func.func @reduce_sum(%x: tensor<2x4x8xf32>) -> tensor<8xf32> {
  %0 = "dit.reduce_sum"(%x) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<2x4x8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @softmax(
// CHECK: %{{.*}} = "dit.softmax"(%{{.*}}) {dim = 3 : i64} : (tensor<1x2x16x32xf32>) -> tensor<1x2x16x32xf32>
func.func @softmax(%x: tensor<1x2x16x32xf32>) -> tensor<1x2x16x32xf32> {
  %0 = "dit.softmax"(%x) {dim = 3 : i64} : (tensor<1x2x16x32xf32>) -> tensor<1x2x16x32xf32>
  return %0 : tensor<1x2x16x32xf32>
}

// CHECK-LABEL: func.func @reshape(
// CHECK: %{{.*}} = "dit.reshape"(%{{.*}}) : (tensor<1x16x256xbf16>) -> tensor<1x16x2x128xbf16>
func.func @reshape(%x: tensor<1x16x256xbf16>) -> tensor<1x16x2x128xbf16> {
  %0 = "dit.reshape"(%x) : (tensor<1x16x256xbf16>) -> tensor<1x16x2x128xbf16>
  return %0 : tensor<1x16x2x128xbf16>
}

// CHECK-LABEL: func.func @broadcast(
// CHECK: %{{.*}} = "dit.broadcast"(%{{.*}}) : (tensor<1x8xf16>) -> tensor<4x8xf16>
func.func @broadcast(%x: tensor<1x8xf16>) -> tensor<4x8xf16> {
  %0 = "dit.broadcast"(%x) : (tensor<1x8xf16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// CHECK-LABEL: func.func @bitcast(
// CHECK: %{{.*}} = "dit.bitcast"(%{{.*}}) : (tensor<4x8xi8>) -> tensor<4x8xf8E4M3FN>
func.func @bitcast(%x: tensor<4x8xi8>) -> tensor<4x8xf8E4M3FN> {
  %0 = "dit.bitcast"(%x) : (tensor<4x8xi8>) -> tensor<4x8xf8E4M3FN>
  return %0 : tensor<4x8xf8E4M3FN>
}

// CHECK-LABEL: func.func @transpose(
// CHECK: %{{.*}} = "dit.transpose"(%{{.*}}) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x16x2x128xbf16>) -> tensor<1x2x16x128xbf16>
func.func @transpose(%x: tensor<1x16x2x128xbf16>) -> tensor<1x2x16x128xbf16> {
  %0 = "dit.transpose"(%x) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x16x2x128xbf16>) -> tensor<1x2x16x128xbf16>
  return %0 : tensor<1x2x16x128xbf16>
}

// CHECK-LABEL: func.func @slice(
// CHECK: %{{.*}} = "dit.slice"(%{{.*}}) {dim = 1 : i64, end = 8 : i64, start = 0 : i64, step = 2 : i64} : (tensor<4x16xf16>) -> tensor<4x4xf16>
func.func @slice(%x: tensor<4x16xf16>) -> tensor<4x4xf16> {
  %0 = "dit.slice"(%x) {dim = 1 : i64, start = 0 : i64, end = 8 : i64, step = 2 : i64} : (tensor<4x16xf16>) -> tensor<4x4xf16>
  return %0 : tensor<4x4xf16>
}

// CHECK-LABEL: func.func @split(
// CHECK: %{{.*}}:3 = "dit.split"(%{{.*}}) {dim = 1 : i64, sizes = array<i64: 6, 6, 6>} : (tensor<1x18xbf16>) -> (tensor<1x6xbf16>, tensor<1x6xbf16>, tensor<1x6xbf16>)
func.func @split(%x: tensor<1x18xbf16>) -> (tensor<1x6xbf16>, tensor<1x6xbf16>, tensor<1x6xbf16>) {
  %0:3 = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 6, 6, 6>} : (tensor<1x18xbf16>) -> (tensor<1x6xbf16>, tensor<1x6xbf16>, tensor<1x6xbf16>)
  return %0#0, %0#1, %0#2 : tensor<1x6xbf16>, tensor<1x6xbf16>, tensor<1x6xbf16>
}

// CHECK-LABEL: func.func @split_gqa(
// CHECK: %{{.*}}:3 = "dit.split"(%{{.*}}) {dim = 1 : i64, sizes = array<i64: 32, 8, 8>} : (tensor<2x48xbf16>) -> (tensor<2x32xbf16>, tensor<2x8xbf16>, tensor<2x8xbf16>)
func.func @split_gqa(%x: tensor<2x48xbf16>) -> (tensor<2x32xbf16>, tensor<2x8xbf16>, tensor<2x8xbf16>) {
  %q, %k, %v = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 32, 8, 8>} : (tensor<2x48xbf16>) -> (tensor<2x32xbf16>, tensor<2x8xbf16>, tensor<2x8xbf16>)
  return %q, %k, %v : tensor<2x32xbf16>, tensor<2x8xbf16>, tensor<2x8xbf16>
}

// CHECK-LABEL: func.func @concat(
// CHECK: %{{.*}} = "dit.concat"(%{{.*}}, %{{.*}}) {dim = 2 : i64} : (tensor<1x2x3x8xbf16>, tensor<1x2x5x8xbf16>) -> tensor<1x2x8x8xbf16>
func.func @concat(%a: tensor<1x2x3x8xbf16>, %b: tensor<1x2x5x8xbf16>) -> tensor<1x2x8x8xbf16> {
  %0 = "dit.concat"(%a, %b) {dim = 2 : i64} : (tensor<1x2x3x8xbf16>, tensor<1x2x5x8xbf16>) -> tensor<1x2x8x8xbf16>
  return %0 : tensor<1x2x8x8xbf16>
}

// CHECK-LABEL: func.func @concat3(
// CHECK: %{{.*}} = "dit.concat"(%{{.*}}, %{{.*}}, %{{.*}}) {dim = 1 : i64} : (tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
func.func @concat3(%a: tensor<4x1xf32>) -> tensor<4x3xf32> {
  %0 = "dit.concat"(%a, %a, %a) {dim = 1 : i64} : (tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// ===== matmul family =====

// CHECK-LABEL: func.func @matmul(
// CHECK: %{{.*}} = "dit.matmul"(%{{.*}}, %{{.*}}) {transpose_a = false, transpose_b = false} : (tensor<2x4x16xf16>, tensor<2x16x8xf16>) -> tensor<2x4x8xf16>
func.func @matmul(%a: tensor<2x4x16xf16>, %b: tensor<2x16x8xf16>) -> tensor<2x4x8xf16> {
  %0 = "dit.matmul"(%a, %b) {transpose_a = false, transpose_b = false} : (tensor<2x4x16xf16>, tensor<2x16x8xf16>) -> tensor<2x4x8xf16>
  return %0 : tensor<2x4x8xf16>
}

// CHECK-LABEL: func.func @matmul_bcast_tb(
// CHECK: %{{.*}} = "dit.matmul"(%{{.*}}, %{{.*}}) {transpose_a = false, transpose_b = true} : (tensor<2x3x4x16xbf16>, tensor<8x16xbf16>) -> tensor<2x3x4x8xbf16>
func.func @matmul_bcast_tb(%a: tensor<2x3x4x16xbf16>, %b: tensor<8x16xbf16>) -> tensor<2x3x4x8xbf16> {
  %0 = "dit.matmul"(%a, %b) {transpose_a = false, transpose_b = true} : (tensor<2x3x4x16xbf16>, tensor<8x16xbf16>) -> tensor<2x3x4x8xbf16>
  return %0 : tensor<2x3x4x8xbf16>
}

// CHECK-LABEL: func.func @linear(
// CHECK: %{{.*}} = "dit.linear"(%{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x4x16xbf16>, tensor<32x16xbf16>, tensor<32xbf16>) -> tensor<2x4x32xbf16>
// CHECK: %{{.*}} = "dit.linear"(%{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x4x16xbf16>, tensor<32x16xbf16>) -> tensor<2x4x32xbf16>
func.func @linear(%x: tensor<2x4x16xbf16>, %w: tensor<32x16xbf16>, %b: tensor<32xbf16>) -> (tensor<2x4x32xbf16>, tensor<2x4x32xbf16>) {
  %0 = "dit.linear"(%x, %w, %b) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x4x16xbf16>, tensor<32x16xbf16>, tensor<32xbf16>) -> tensor<2x4x32xbf16>
  %1 = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x4x16xbf16>, tensor<32x16xbf16>) -> tensor<2x4x32xbf16>
  return %0, %1 : tensor<2x4x32xbf16>, tensor<2x4x32xbf16>
}

// ===== norms, rope, attention =====

// CHECK-LABEL: func.func @rms_norm(
// CHECK: %{{.*}} = "dit.rms_norm"(%{{.*}}, %{{.*}}) {epsilon = 9.99999997E-7 : f32} : (tensor<2x4x64xbf16>, tensor<64xbf16>) -> tensor<2x4x64xbf16>
func.func @rms_norm(%x: tensor<2x4x64xbf16>, %g: tensor<64xbf16>) -> tensor<2x4x64xbf16> {
  %0 = "dit.rms_norm"(%x, %g) {epsilon = 1.000000e-06 : f32} : (tensor<2x4x64xbf16>, tensor<64xbf16>) -> tensor<2x4x64xbf16>
  return %0 : tensor<2x4x64xbf16>
}

// CHECK-LABEL: func.func @layer_norm(
// CHECK: %{{.*}} = "dit.layer_norm"(%{{.*}}, %{{.*}}, %{{.*}}) {epsilon = 9.99999997E-7 : f32, operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x16x64xbf16>, tensor<64xbf16>, tensor<64xbf16>) -> tensor<1x16x64xbf16>
// CHECK: %{{.*}} = "dit.layer_norm"(%{{.*}}) {epsilon = 9.99999997E-7 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x16x64xbf16>) -> tensor<1x16x64xbf16>
// CHECK: %{{.*}} = "dit.layer_norm"(%{{.*}}, %{{.*}}) {epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x16x64xbf16>, tensor<64xbf16>) -> tensor<1x16x64xbf16>
func.func @layer_norm(%x: tensor<1x16x64xbf16>, %g: tensor<64xbf16>, %b: tensor<64xbf16>) -> (tensor<1x16x64xbf16>, tensor<1x16x64xbf16>, tensor<1x16x64xbf16>) {
  %0 = "dit.layer_norm"(%x, %g, %b) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x16x64xbf16>, tensor<64xbf16>, tensor<64xbf16>) -> tensor<1x16x64xbf16>
  %1 = "dit.layer_norm"(%x) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x16x64xbf16>) -> tensor<1x16x64xbf16>
  %2 = "dit.layer_norm"(%x, %g) {epsilon = 1.000000e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x16x64xbf16>, tensor<64xbf16>) -> tensor<1x16x64xbf16>
  return %0, %1, %2 : tensor<1x16x64xbf16>, tensor<1x16x64xbf16>, tensor<1x16x64xbf16>
}

// CHECK-LABEL: func.func @rope(
// CHECK: %{{.*}} = "dit.rope"(%{{.*}}, %{{.*}}, %{{.*}}) {mode = "half"} : (tensor<1x2x16x64xbf16>, tensor<1x1x16x64xbf16>, tensor<1x1x16x64xbf16>) -> tensor<1x2x16x64xbf16>
// CHECK: %{{.*}} = "dit.rope"(%{{.*}}, %{{.*}}, %{{.*}}) {mode = "interleave"} : (tensor<1x2x16x64xbf16>, tensor<1x1x16x64xbf16>, tensor<1x1x16x64xbf16>) -> tensor<1x2x16x64xbf16>
func.func @rope(%x: tensor<1x2x16x64xbf16>, %cos: tensor<1x1x16x64xbf16>, %sin: tensor<1x1x16x64xbf16>) -> (tensor<1x2x16x64xbf16>, tensor<1x2x16x64xbf16>) {
  %0 = "dit.rope"(%x, %cos, %sin) {mode = "half"} : (tensor<1x2x16x64xbf16>, tensor<1x1x16x64xbf16>, tensor<1x1x16x64xbf16>) -> tensor<1x2x16x64xbf16>
  %1 = "dit.rope"(%x, %cos, %sin) {mode = "interleave"} : (tensor<1x2x16x64xbf16>, tensor<1x1x16x64xbf16>, tensor<1x1x16x64xbf16>) -> tensor<1x2x16x64xbf16>
  return %0, %1 : tensor<1x2x16x64xbf16>, tensor<1x2x16x64xbf16>
}

// CHECK-LABEL: func.func @attention(
// CHECK: %{{.*}} = "dit.attention"(%{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 1.250000e-01 : f32} : (tensor<1x2x16x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>) -> tensor<1x2x16x64xbf16>
// CHECK: %{{.*}} = "dit.attention"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {layout = "BNSD", operandSegmentSizes = array<i32: 1, 1, 1, 1>, scale = 1.250000e-01 : f32} : (tensor<1x2x16x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x1x16x32xbf16>) -> tensor<1x2x16x64xbf16>
func.func @attention(%q: tensor<1x2x16x64xbf16>, %k: tensor<1x2x32x64xbf16>, %v: tensor<1x2x32x64xbf16>, %m: tensor<1x1x16x32xbf16>) -> (tensor<1x2x16x64xbf16>, tensor<1x2x16x64xbf16>) {
  %0 = "dit.attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 1.250000e-01 : f32} : (tensor<1x2x16x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>) -> tensor<1x2x16x64xbf16>
  %1 = "dit.attention"(%q, %k, %v, %m) {layout = "BNSD", operandSegmentSizes = array<i32: 1, 1, 1, 1>, scale = 1.250000e-01 : f32} : (tensor<1x2x16x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x1x16x32xbf16>) -> tensor<1x2x16x64xbf16>
  return %0, %1 : tensor<1x2x16x64xbf16>, tensor<1x2x16x64xbf16>
}

// ===== quantisation =====

// CHECK-LABEL: func.func @dynamic_quant(
// CHECK: %{{.*}}:2 = "dit.dynamic_quant"(%{{.*}}) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<16x64xbf16>) -> (tensor<16x64xi8>, tensor<16xf32>)
// CHECK: %{{.*}}:2 = "dit.dynamic_quant"(%{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1>} : (tensor<16x64xbf16>, tensor<64xbf16>) -> (tensor<16x64xi8>, tensor<16xf32>)
func.func @dynamic_quant(%x: tensor<16x64xbf16>, %s: tensor<64xbf16>) -> (tensor<16x64xi8>, tensor<16xf32>, tensor<16x64xi8>, tensor<16xf32>) {
  %0:2 = "dit.dynamic_quant"(%x) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<16x64xbf16>) -> (tensor<16x64xi8>, tensor<16xf32>)
  %1:2 = "dit.dynamic_quant"(%x, %s) {operandSegmentSizes = array<i32: 1, 1>} : (tensor<16x64xbf16>, tensor<64xbf16>) -> (tensor<16x64xi8>, tensor<16xf32>)
  return %0#0, %0#1, %1#0, %1#1 : tensor<16x64xi8>, tensor<16xf32>, tensor<16x64xi8>, tensor<16xf32>
}

// CHECK-LABEL: func.func @quant_matmul(
// CHECK: %{{.*}} = "dit.quant_matmul"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>, transpose_x1 = false, transpose_x2 = true} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>, tensor<4xf32>) -> tensor<4x128xf16>
// CHECK: %{{.*}} = "dit.quant_matmul"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {group_size = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0>, transpose_x1 = false, transpose_x2 = false, x2_format = "ND"} : (tensor<4x64xi8>, tensor<64x128xi8>, tensor<128xf32>, tensor<128xi32>) -> tensor<4x128xbf16>
func.func @quant_matmul(%a: tensor<4x64xi8>, %b: tensor<128x64xi8>, %s: tensor<128xf32>, %pts: tensor<4xf32>, %bias: tensor<128xi32>, %b2: tensor<64x128xi8>) -> (tensor<4x128xf16>, tensor<4x128xbf16>) {
  %0 = "dit.quant_matmul"(%a, %b, %s, %pts) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>, transpose_x1 = false, transpose_x2 = true} : (tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>, tensor<4xf32>) -> tensor<4x128xf16>
  %1 = "dit.quant_matmul"(%a, %b2, %s, %bias) {group_size = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0>, transpose_x1 = false, transpose_x2 = false, x2_format = "ND"} : (tensor<4x64xi8>, tensor<64x128xi8>, tensor<128xf32>, tensor<128xi32>) -> tensor<4x128xbf16>
  return %0, %1 : tensor<4x128xf16>, tensor<4x128xbf16>
}

// CHECK-LABEL: func.func @grouped_matmul(
// CHECK: %{{.*}} = "dit.grouped_matmul"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {group_list_type = "cumsum", operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<64x128xbf16>, tensor<8x128x256xbf16>, tensor<8xi64>, tensor<8x256xbf16>) -> tensor<64x256xbf16>
// CHECK: %{{.*}} = "dit.grouped_matmul"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1>} : (tensor<64x128xi8>, tensor<8x128x256xi8>, tensor<8xi64>, tensor<8x256xf32>, tensor<64xf32>) -> tensor<64x256xbf16>
func.func @grouped_matmul(%x: tensor<64x128xbf16>, %w: tensor<8x128x256xbf16>, %gl: tensor<8xi64>, %bias: tensor<8x256xbf16>, %xq: tensor<64x128xi8>, %wq: tensor<8x128x256xi8>, %ws: tensor<8x256xf32>, %pts: tensor<64xf32>) -> (tensor<64x256xbf16>, tensor<64x256xbf16>) {
  %0 = "dit.grouped_matmul"(%x, %w, %gl, %bias) {group_list_type = "cumsum", operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<64x128xbf16>, tensor<8x128x256xbf16>, tensor<8xi64>, tensor<8x256xbf16>) -> tensor<64x256xbf16>
  %1 = "dit.grouped_matmul"(%xq, %wq, %gl, %ws, %pts) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1>} : (tensor<64x128xi8>, tensor<8x128x256xi8>, tensor<8xi64>, tensor<8x256xf32>, tensor<64xf32>) -> tensor<64x256xbf16>
  return %0, %1 : tensor<64x256xbf16>, tensor<64x256xbf16>
}

// CHECK-LABEL: func.func @opaque(
// CHECK: %{{.*}} = "dit.opaque"(%{{.*}}) {name = "aten.cumsum"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: %{{.*}} = "dit.opaque"() {name = "aten.randn"} : () -> tensor<4x8xf32>
// CHECK: %{{.*}} = "dit.opaque"(%{{.*}}, %{{.*}}) {name = "aten.maximum"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @opaque(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = "dit.opaque"(%x) {name = "aten.cumsum"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "dit.opaque"() {name = "aten.randn"} : () -> tensor<4x8xf32>
  %2 = "dit.opaque"(%0, %1) {name = "aten.maximum"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// ===== fused ops =====

// CHECK-LABEL: func.func @fast_gelu(
// CHECK: %{{.*}} = "dit.fast_gelu"(%{{.*}}) : (tensor<2x4x64xbf16>) -> tensor<2x4x64xbf16>
func.func @fast_gelu(%x: tensor<2x4x64xbf16>) -> tensor<2x4x64xbf16> {
  %0 = "dit.fast_gelu"(%x) : (tensor<2x4x64xbf16>) -> tensor<2x4x64xbf16>
  return %0 : tensor<2x4x64xbf16>
}

// CHECK-LABEL: func.func @muls_add(
// CHECK: %{{.*}} = "dit.muls_add"(%{{.*}}, %{{.*}}) {scale = 5.000000e-01 : f32} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
func.func @muls_add(%x: tensor<4x8xf16>, %y: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = "dit.muls_add"(%x, %y) {scale = 5.000000e-01 : f32} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// CHECK-LABEL: func.func @ada_layer_norm(
// CHECK: %{{.*}} = "dit.ada_layer_norm"(%{{.*}}, %{{.*}}, %{{.*}}) {epsilon = 9.99999997E-7 : f32} : (tensor<1x16x64xbf16>, tensor<1x1x64xbf16>, tensor<1x1x64xbf16>) -> tensor<1x16x64xbf16>
func.func @ada_layer_norm(%x: tensor<1x16x64xbf16>, %scale: tensor<1x1x64xbf16>, %shift: tensor<1x1x64xbf16>) -> tensor<1x16x64xbf16> {
  %0 = "dit.ada_layer_norm"(%x, %scale, %shift) {epsilon = 1.000000e-06 : f32} : (tensor<1x16x64xbf16>, tensor<1x1x64xbf16>, tensor<1x1x64xbf16>) -> tensor<1x16x64xbf16>
  return %0 : tensor<1x16x64xbf16>
}

// CHECK-LABEL: func.func @quant_matmul_gelu(
// CHECK: %{{.*}} = "dit.quant_matmul_gelu"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {approximate = "gelu_tanh", operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<4x64xi8>, tensor<64x128xi8>, tensor<4xf32>, tensor<128xf32>) -> tensor<4x128xbf16>
// CHECK: %{{.*}} = "dit.quant_matmul_gelu"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {approximate = "gelu_erf", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<4x64xi8>, tensor<64x128xi8>, tensor<4xf32>, tensor<128xf32>, tensor<128xi32>) -> tensor<4x128xf16>
func.func @quant_matmul_gelu(%a: tensor<4x64xi8>, %b: tensor<64x128xi8>, %as: tensor<4xf32>, %bs: tensor<128xf32>, %bias: tensor<128xi32>) -> (tensor<4x128xbf16>, tensor<4x128xf16>) {
  %0 = "dit.quant_matmul_gelu"(%a, %b, %as, %bs) {approximate = "gelu_tanh", operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<4x64xi8>, tensor<64x128xi8>, tensor<4xf32>, tensor<128xf32>) -> tensor<4x128xbf16>
  %1 = "dit.quant_matmul_gelu"(%a, %b, %as, %bs, %bias) {approximate = "gelu_erf", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<4x64xi8>, tensor<64x128xi8>, tensor<4xf32>, tensor<128xf32>, tensor<128xi32>) -> tensor<4x128xf16>
  return %0, %1 : tensor<4x128xbf16>, tensor<4x128xf16>
}

// CHECK-LABEL: func.func @fused_matmul(
// CHECK: %{{.*}} = "dit.fused_matmul"(%{{.*}}, %{{.*}}) {fused_op_type = "", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<4x64xf16>, tensor<64x128xf16>) -> tensor<4x128xf16>
// CHECK: %{{.*}} = "dit.fused_matmul"(%{{.*}}, %{{.*}}, %{{.*}}) {fused_op_type = "gelu_tanh", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<4x64xf16>, tensor<64x128xf16>, tensor<128xf16>) -> tensor<4x128xf16>
// CHECK: %{{.*}} = "dit.fused_matmul"(%{{.*}}, %{{.*}}, %{{.*}}) {fused_op_type = "add", operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<4x64xf16>, tensor<64x128xf16>, tensor<4x128xf16>) -> tensor<4x128xf16>
// CHECK: %{{.*}} = "dit.fused_matmul"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {fused_op_type = "mul", operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<4x64xf16>, tensor<64x128xf16>, tensor<128xf16>, tensor<4x128xf16>) -> tensor<4x128xf16>
func.func @fused_matmul(%a: tensor<4x64xf16>, %b: tensor<64x128xf16>, %bias: tensor<128xf16>, %x3: tensor<4x128xf16>) -> (tensor<4x128xf16>, tensor<4x128xf16>, tensor<4x128xf16>, tensor<4x128xf16>) {
  %0 = "dit.fused_matmul"(%a, %b) {fused_op_type = "", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<4x64xf16>, tensor<64x128xf16>) -> tensor<4x128xf16>
  %1 = "dit.fused_matmul"(%a, %b, %bias) {fused_op_type = "gelu_tanh", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<4x64xf16>, tensor<64x128xf16>, tensor<128xf16>) -> tensor<4x128xf16>
  %2 = "dit.fused_matmul"(%a, %b, %x3) {fused_op_type = "add", operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<4x64xf16>, tensor<64x128xf16>, tensor<4x128xf16>) -> tensor<4x128xf16>
  %3 = "dit.fused_matmul"(%a, %b, %bias, %x3) {fused_op_type = "mul", operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<4x64xf16>, tensor<64x128xf16>, tensor<128xf16>, tensor<4x128xf16>) -> tensor<4x128xf16>
  return %0, %1, %2, %3 : tensor<4x128xf16>, tensor<4x128xf16>, tensor<4x128xf16>, tensor<4x128xf16>
}

// CHECK-LABEL: func.func @grouped_matmul_swiglu_quant(
// CHECK: %{{.*}}:3 = "dit.grouped_matmul_swiglu_quant"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>, variant = "v1"} : (tensor<64x128xi8>, tensor<8x128x512xi8>, tensor<8xi64>, tensor<8x512xf32>, tensor<64xf32>) -> (tensor<64x256xi8>, tensor<64xf32>, tensor<64xf32>)
func.func @grouped_matmul_swiglu_quant(%x: tensor<64x128xi8>, %w: tensor<8x128x512xi8>, %gl: tensor<8xi64>, %ws: tensor<8x512xf32>, %xs: tensor<64xf32>) -> (tensor<64x256xi8>, tensor<64xf32>, tensor<64xf32>) {
  %y, %ys, %yo = "dit.grouped_matmul_swiglu_quant"(%x, %w, %gl, %ws, %xs) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>, variant = "v1"} : (tensor<64x128xi8>, tensor<8x128x512xi8>, tensor<8xi64>, tensor<8x512xf32>, tensor<64xf32>) -> (tensor<64x256xi8>, tensor<64xf32>, tensor<64xf32>)
  return %y, %ys, %yo : tensor<64x256xi8>, tensor<64xf32>, tensor<64xf32>
}

// CHECK-LABEL: func.func @swiglu(
// CHECK: %{{.*}} = "dit.swiglu"(%{{.*}}) {dim = 2 : i64} : (tensor<2x4x256xbf16>) -> tensor<2x4x128xbf16>
func.func @swiglu(%x: tensor<2x4x256xbf16>) -> tensor<2x4x128xbf16> {
  %0 = "dit.swiglu"(%x) {dim = 2 : i64} : (tensor<2x4x256xbf16>) -> tensor<2x4x128xbf16>
  return %0 : tensor<2x4x128xbf16>
}

// CHECK-LABEL: func.func @silu_mul(
// CHECK: %{{.*}} = "dit.silu_mul"(%{{.*}}, %{{.*}}) : (tensor<2x4x128xbf16>, tensor<2x4x128xbf16>) -> tensor<2x4x128xbf16>
func.func @silu_mul(%g: tensor<2x4x128xbf16>, %u: tensor<2x4x128xbf16>) -> tensor<2x4x128xbf16> {
  %0 = "dit.silu_mul"(%g, %u) : (tensor<2x4x128xbf16>, tensor<2x4x128xbf16>) -> tensor<2x4x128xbf16>
  return %0 : tensor<2x4x128xbf16>
}

// CHECK-LABEL: func.func @gelu_mul(
// CHECK: %{{.*}} = "dit.gelu_mul"(%{{.*}}) {approximate = "tanh"} : (tensor<2x4x256xf16>) -> tensor<2x4x128xf16>
// CHECK: %{{.*}} = "dit.gelu_mul"(%{{.*}}) {approximate = "none"} : (tensor<2x4x256xf16>) -> tensor<2x4x128xf16>
func.func @gelu_mul(%x: tensor<2x4x256xf16>) -> (tensor<2x4x128xf16>, tensor<2x4x128xf16>) {
  %0 = "dit.gelu_mul"(%x) {approximate = "tanh"} : (tensor<2x4x256xf16>) -> tensor<2x4x128xf16>
  %1 = "dit.gelu_mul"(%x) {approximate = "none"} : (tensor<2x4x256xf16>) -> tensor<2x4x128xf16>
  return %0, %1 : tensor<2x4x128xf16>, tensor<2x4x128xf16>
}

// CHECK-LABEL: func.func @kv_rms_norm_rope_cache(
// CHECK: %{{.*}}:2 = "dit.kv_rms_norm_rope_cache"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {cache_mode = "Norm", epsilon = 9.99999974E-6 : f32} : (tensor<4x1x1x576xbf16>, tensor<512xbf16>, tensor<4x1x1x64xbf16>, tensor<4x1x1x64xbf16>, tensor<4x1xi64>, tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>) -> (tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>)
func.func @kv_rms_norm_rope_cache(%kv: tensor<4x1x1x576xbf16>, %g: tensor<512xbf16>, %cos: tensor<4x1x1x64xbf16>, %sin: tensor<4x1x1x64xbf16>, %idx: tensor<4x1xi64>, %kc: tensor<4x1x16x64xbf16>, %ckvc: tensor<4x1x16x512xbf16>) -> (tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>) {
  %0:2 = "dit.kv_rms_norm_rope_cache"(%kv, %g, %cos, %sin, %idx, %kc, %ckvc) {cache_mode = "Norm", epsilon = 9.99999974E-6 : f32} : (tensor<4x1x1x576xbf16>, tensor<512xbf16>, tensor<4x1x1x64xbf16>, tensor<4x1x1x64xbf16>, tensor<4x1xi64>, tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>) -> (tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>)
  return %0#0, %0#1 : tensor<4x1x16x64xbf16>, tensor<4x1x16x512xbf16>
}

// ===== region op =====

// CHECK-LABEL: func.func @fused(
// CHECK: %{{.*}} = "dit.fused"(%{{.*}}, %{{.*}}) ({
// CHECK: ^bb0(%{{.*}}: tensor<2x4x64xbf16>, %{{.*}}: tensor<2x4x64xbf16>):
// CHECK:   %{{.*}} = "dit.silu"(%{{.*}}) : (tensor<2x4x64xbf16>) -> tensor<2x4x64xbf16>
// CHECK:   %{{.*}} = "dit.mul"(%{{.*}}, %{{.*}}) : (tensor<2x4x64xbf16>, tensor<2x4x64xbf16>) -> tensor<2x4x64xbf16>
// CHECK:   "dit.yield"(%{{.*}}) : (tensor<2x4x64xbf16>) -> ()
// CHECK: }) {kernel = "fused_silu_mul_0"} : (tensor<2x4x64xbf16>, tensor<2x4x64xbf16>) -> tensor<2x4x64xbf16>
func.func @fused(%g: tensor<2x4x64xbf16>, %u: tensor<2x4x64xbf16>) -> tensor<2x4x64xbf16> {
  %0 = "dit.fused"(%g, %u) ({
  ^bb0(%a: tensor<2x4x64xbf16>, %b: tensor<2x4x64xbf16>):
    %1 = "dit.silu"(%a) : (tensor<2x4x64xbf16>) -> tensor<2x4x64xbf16>
    %2 = "dit.mul"(%1, %b) : (tensor<2x4x64xbf16>, tensor<2x4x64xbf16>) -> tensor<2x4x64xbf16>
    "dit.yield"(%2) : (tensor<2x4x64xbf16>) -> ()
  }) {kernel = "fused_silu_mul_0"} : (tensor<2x4x64xbf16>, tensor<2x4x64xbf16>) -> tensor<2x4x64xbf16>
  return %0 : tensor<2x4x64xbf16>
}
