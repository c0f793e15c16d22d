// MLIR packs dense i1 constants 8 to a byte; the runtime read them as one byte each, past the
// end of the packed data, so [true, false] came out as [1, <whatever followed>].
// RUN: dit-run %s --print-outputs | FileCheck %s

// CHECK-LABEL: @bools:
// CHECK: values i1[2,5]: [1.000000, 0.000000, 0.000000, 1.000000, 0.000000, 0.000000, 0.000000, 0.000000, ...]
func.func @bools() -> tensor<2x5xi1> {
  %cst = arith.constant dense<[[true, false, false, true, false], [false, false, false, false, true]]> : tensor<2x5xi1>
  %0 = "dit.reshape"(%cst) : (tensor<2x5xi1>) -> tensor<2x5xi1>
  return %0 : tensor<2x5xi1>
}

// CHECK-LABEL: @concat:
// CHECK: values i1[1,3]: [1.000000, 1.000000, 0.000000]
func.func @concat() -> tensor<1x3xi1> {
  %a = arith.constant dense<[[true, false]]> : tensor<1x2xi1>
  %t = arith.constant dense<true> : tensor<1x1xi1>
  %0 = "dit.concat"(%t, %a) {dim = 1 : i64} : (tensor<1x1xi1>, tensor<1x2xi1>) -> tensor<1x3xi1>
  return %0 : tensor<1x3xi1>
}
