// Upstream CSE and canonicalize work on dit ops: they are Pure in ODS, so mlir-opt merges two
// identical dit.add ops and erases unused ones without any dit pass.
// RUN: mlir-opt --load-dialect-plugin=%dit_plugin --cse %s | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%dit_plugin --canonicalize %s | FileCheck %s --check-prefix=DCE
// dit-cse is a dit name for upstream cse (a registered pipeline that adds it).
// RUN: %mlir_opt_dit --pass-pipeline="builtin.module(func.func(dit-cse))" %s | FileCheck %s

// CHECK-LABEL: func.func @twice
// CHECK-NEXT: %[[A:.*]] = "dit.add"(%arg0, %arg1)
// CHECK-NEXT: %[[M:.*]] = "dit.mul"(%[[A]], %[[A]])
// CHECK-NEXT: return %[[M]]
// DCE-LABEL: func.func @twice
// DCE-NOT: dit.relu
func.func @twice(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "dit.add"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "dit.add"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = "dit.mul"(%0, %1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %unused = "dit.relu"(%2) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// add and mul are Commutative in ODS: CSE merges add(a, b) with add(b, a).
// CHECK-LABEL: func.func @commuted
// CHECK-NEXT: %[[A:.*]] = "dit.add"(%arg0, %arg1)
// CHECK-NEXT: return %[[A]], %[[A]]
func.func @commuted(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = "dit.add"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "dit.add"(%b, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// sub is not: nothing to merge.
// CHECK-LABEL: func.func @different
// CHECK: "dit.sub"(%arg0, %arg1)
// CHECK: "dit.sub"(%arg1, %arg0)
func.func @different(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = "dit.sub"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "dit.sub"(%b, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}
