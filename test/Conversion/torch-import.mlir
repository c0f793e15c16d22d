// Reading torch-mlir output: dit-opt parses the torch dialect (not registered) only when the
// pipeline imports it (or with --allow-unregistered-dialect), both spellings of a constant's
// value (properties `<{value = 1}>` and attributes `{value = 1}`), module and argument
// attributes (`torch.*` ones are dropped, `dit.arg_name` kept), declarations and calls, shape
// arithmetic feeding a split size, lists unpacked without an op in between, and literals
// (dense resources of the result type stay arith.constant; signed-integer resources cannot be
// re-typed and stay opaque).
//
// RUN: not dit-opt %s 2>&1 | FileCheck %s --check-prefix=NOIMPORT
// RUN: dit-opt %s --allow-unregistered-dialect | FileCheck %s --check-prefix=KEPT
// RUN: dit-opt %s --pass-pipeline='builtin.module(dit-convert-torch-to-dit)' | dit-opt | FileCheck %s
// RUN: dit-opt %s --dit-convert-torch-to-dit --fusion-report=text --shape-hint=0=128 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// NOIMPORT: torch-import.mlir:[[# @LINE + 27]]:{{[0-9]+}}: error: `!"torch"<"vtensor<[4],f32>">` type created with unregistered dialect
// KEPT: "torch.aten.relu"

// CHECK: module {
// CHECK-NOT: torch
// CHECK: func.func private @callee(tensor<4xf32>) -> tensor<4xf32>
// CHECK: func.func @caller(%arg0: tensor<4xf32> {dit.arg_name = "x"}) -> tensor<4xf32>
// CHECK-NEXT: %[[C:.*]] = call @callee(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: "dit.relu"(%[[C]])
// CHECK: func.func @scalars(%arg0: tensor<2x12xbf16>) -> (tensor<2x6xbf16>, tensor<2x12xbf16>)
// CHECK-NEXT: %[[S:.*]]:2 = "dit.split"(%arg0) {dim = 1 : i64, sizes = array<i64: 6, 6>}
// CHECK-NEXT: %[[H:.*]] = arith.constant dense<5.000000e-01> : tensor<bf16>
// CHECK-NEXT: %[[M:.*]] = "dit.mul"(%[[S]]#0, %[[H]])
// CHECK-NEXT: %[[A:.*]] = "dit.add"(%[[M]], %[[S]]#1)
// CHECK-NEXT: %[[CAT:.*]] = "dit.concat"(%[[A]], %[[S]]#1) {dim = 1 : i64}
// CHECK-NEXT: return %[[A]], %[[CAT]]
// CHECK: func.func @dynamic(%arg0: tensor<?x64xbf16>, %arg1: tensor<32x64xbf16>) -> tensor<?x32xbf16>
// CHECK: func.func @resource_literal() -> tensor<2x2xf32>
// CHECK-NEXT: arith.constant dense_resource<torch_tensor_2_2_torch.float32> : tensor<2x2xf32>
// CHECK-NEXT: "dit.opaque"() {name = "vtensor.literal"} : () -> tensor<2x2xi64>
// CHECK-NOT: torch
// CHECK: dialect_resources

// REPORT: skipped at {{.*}}torch-import.mlir:{{[0-9]+}}:10: vtensor.literal: a signed-integer dense_resource literal cannot be re-typed to a signless tensor; kept as dit.opaque
// REPORT: DDR bytes: {{.*}}; all dims static or bound by --shape-hint)

module attributes {torch.debug_module_name = "Block"} {
  func.func private @callee(!torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32>

  func.func @caller(%x: !torch.vtensor<[4],f32> {dit.arg_name = "x", torch.type_bound = !torch.vtensor<[4],f32>}) -> !torch.vtensor<[4],f32> {
    %0 = func.call @callee(%x) : (!torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32>
    %1 = "torch.aten.relu"(%0) : (!torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32>
    return %1 : !torch.vtensor<[4],f32>
  }

  func.func @scalars(%x: !torch.vtensor<[2,12],bf16>) -> (!torch.vtensor<[2,6],bf16>, !torch.vtensor<[2,12],bf16>) {
    %c1 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
    %c2 = "torch.constant.int"() {value = 2 : i64} : () -> !torch.int
    %n = "torch.aten.size.int"(%x, %c1) : (!torch.vtensor<[2,12],bf16>, !torch.int) -> !torch.int
    %half = "torch.aten.floordiv.int"(%n, %c2) : (!torch.int, !torch.int) -> !torch.int
    %0 = "torch.aten.split.Tensor"(%x, %half, %c1) : (!torch.vtensor<[2,12],bf16>, !torch.int, !torch.int) -> !torch.list<vtensor>
    %1:2 = "torch.prim.ListUnpack"(%0) : (!torch.list<vtensor>) -> (!torch.vtensor<[2,6],bf16>, !torch.vtensor<[2,6],bf16>)
    %num = "torch.constant.number"() {value = 5.000000e-01 : f64} : () -> !torch.number
    %2 = "torch.aten.mul.Scalar"(%1#0, %num) : (!torch.vtensor<[2,6],bf16>, !torch.number) -> !torch.vtensor<[2,6],bf16>
    %none = "torch.constant.none"() : () -> !torch.none
    %opt = "torch.derefine"(%none) : (!torch.none) -> !torch.optional<vtensor>
    %3 = "torch.aten.add.Tensor"(%2, %1#1, %c1) : (!torch.vtensor<[2,6],bf16>, !torch.vtensor<[2,6],bf16>, !torch.int) -> !torch.vtensor<[2,6],bf16>
    %l = "torch.prim.ListConstruct"(%3, %1#1) : (!torch.vtensor<[2,6],bf16>, !torch.vtensor<[2,6],bf16>) -> !torch.list<vtensor>
    %4 = "torch.aten.cat"(%l, %c1) : (!torch.list<vtensor>, !torch.int) -> !torch.vtensor<[2,12],bf16>
    %5:2 = "torch.prim.ListUnpack"(%l) : (!torch.list<vtensor>) -> (!torch.vtensor<[2,6],bf16>, !torch.vtensor<[2,6],bf16>)
    return %5#0, %4 : !torch.vtensor<[2,6],bf16>, !torch.vtensor<[2,12],bf16>
  }

  func.func @dynamic(%x: !torch.vtensor<[?,64],bf16>, %w: !torch.vtensor<[32,64],bf16>) -> !torch.vtensor<[?,32],bf16> {
    %none = "torch.constant.none"() : () -> !torch.none
    %0 = "torch.aten.linear"(%x, %w, %none) : (!torch.vtensor<[?,64],bf16>, !torch.vtensor<[32,64],bf16>, !torch.none) -> !torch.vtensor<[?,32],bf16>
    return %0 : !torch.vtensor<[?,32],bf16>
  }

  func.func @resource_literal() -> !torch.vtensor<[2,2],f32> {
    %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
    %c6 = "torch.constant.int"() {value = 6 : i64} : () -> !torch.int
    %none = "torch.constant.none"() : () -> !torch.none
    %false = "torch.constant.bool"() {value = false} : () -> !torch.bool
    %0 = "torch.vtensor.literal"() {value = dense_resource<torch_tensor_2_2_torch.float32> : tensor<2x2xf32>} : () -> !torch.vtensor<[2,2],f32>
    %1 = "torch.vtensor.literal"() {value = dense_resource<torch_tensor_2_2_torch.int64> : tensor<2x2xsi64>} : () -> !torch.vtensor<[2,2],si64>
    %2 = "torch.aten._to_copy"(%1, %c6, %none, %none, %none, %false, %none) : (!torch.vtensor<[2,2],si64>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[2,2],f32>
    %3 = "torch.aten.add.Tensor"(%0, %2, %c1) : (!torch.vtensor<[2,2],f32>, !torch.vtensor<[2,2],f32>, !torch.int) -> !torch.vtensor<[2,2],f32>
    return %3 : !torch.vtensor<[2,2],f32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_2_2_torch.float32: "0x040000000000803F000000400000404000008040",
      torch_tensor_2_2_torch.int64: "0x080000000100000000000000020000000000000003000000000000000400000000000000"
    }
  }
#-}
