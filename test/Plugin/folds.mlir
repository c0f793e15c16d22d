// The ODS folders (dialects/dit/lib/DitFolds.cpp) in upstream canonicalize: mlir-opt with the
// dialect plugin folds dit's shape and type no-ops without any dit pass.
// RUN: mlir-opt --load-dialect-plugin=%dit_plugin --canonicalize --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @reshape_of_reshape
// CHECK-NEXT: %[[R:.*]] = "dit.reshape"(%arg0) : (tensor<4x8xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_of_reshape(%x: tensor<4x8xf32>) -> tensor<2x16xf32> {
  %0 = "dit.reshape"(%x) : (tensor<4x8xf32>) -> tensor<32xf32>
  %1 = "dit.reshape"(%0) : (tensor<32xf32>) -> tensor<2x16xf32>
  return %1 : tensor<2x16xf32>
}

// -----

// An identity cast, bitcast, broadcast and reshape are their input.
// CHECK-LABEL: func.func @identities
// CHECK-NEXT: return %arg0
func.func @identities(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %0 = "dit.cast"(%x) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %1 = "dit.bitcast"(%0) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %2 = "dit.broadcast"(%1) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %3 = "dit.reshape"(%2) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %3 : tensor<4x8xbf16>
}

// -----

// cast(cast(x)) stays: the inner cast rounds.
// CHECK-LABEL: func.func @cast_of_cast
// CHECK: "dit.cast"(%arg0)
// CHECK: "dit.cast"
func.func @cast_of_cast(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "dit.cast"(%x) : (tensor<4xf32>) -> tensor<4xbf16>
  %1 = "dit.cast"(%0) : (tensor<4xbf16>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Two transposes compose; inverse permutations leave x.
// CHECK-LABEL: func.func @transposes
// CHECK-NEXT: %[[T:.*]] = "dit.transpose"(%arg0) {perm = array<i64: 2, 0, 1>}
// CHECK-NEXT: return %[[T]], %arg0
func.func @transposes(%x: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x4xf32>) {
  %0 = "dit.transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = "dit.transpose"(%0) {perm = array<i64: 2, 1, 0>} : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>
  %2 = "dit.transpose"(%0) {perm = array<i64: 1, 0, 2>} : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  return %1, %2 : tensor<4x2x3xf32>, tensor<2x3x4xf32>
}

// -----

// concat(split(x)) of every piece in order is x; out of order it stays.
// CHECK-LABEL: func.func @concat_of_split
// CHECK: %[[S:.*]]:2 = "dit.split"(%arg0)
// CHECK-NEXT: %[[C:.*]] = "dit.concat"(%[[S]]#1, %[[S]]#0)
// CHECK-NEXT: return %arg0, %[[C]]
func.func @concat_of_split(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0:2 = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 3, 5>} : (tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x5xf32>)
  %1 = "dit.concat"(%0#0, %0#1) {dim = -1 : i64} : (tensor<4x3xf32>, tensor<4x5xf32>) -> tensor<4x8xf32>
  %2 = "dit.concat"(%0#1, %0#0) {dim = 1 : i64} : (tensor<4x5xf32>, tensor<4x3xf32>) -> tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A piece with no element along dim is dropped; one piece left is the result.
// CHECK-LABEL: func.func @empty_pieces
// CHECK-NEXT: %[[C:.*]] = "dit.concat"(%arg0, %arg2) {dim = 1 : i64} : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<4x5xf32>
// CHECK-NEXT: return %[[C]], %arg0
func.func @empty_pieces(%a: tensor<4x3xf32>, %e: tensor<4x0xf32>, %b: tensor<4x2xf32>) -> (tensor<4x5xf32>, tensor<4x3xf32>) {
  %0 = "dit.concat"(%a, %e, %b) {dim = 1 : i64} : (tensor<4x3xf32>, tensor<4x0xf32>, tensor<4x2xf32>) -> tensor<4x5xf32>
  %1 = "dit.concat"(%e, %a) {dim = 1 : i64} : (tensor<4x0xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %0, %1 : tensor<4x5xf32>, tensor<4x3xf32>
}

// -----

// add and mul are Commutative: folding puts the constant on the right.
// CHECK-LABEL: func.func @constant_to_rhs
// CHECK: %[[C:.*]] = arith.constant
// CHECK-NEXT: %[[M:.*]] = "dit.mul"(%arg0, %[[C]])
// CHECK-NEXT: "dit.add"(%[[M]], %[[C]])
func.func @constant_to_rhs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<2.0> : tensor<4xf32>
  %0 = "dit.mul"(%c, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "dit.add"(%c, %0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
