// --verify-diagnostics passes when every expectation is met and nothing else is reported,
// and fails, pointing at the comment, when one is missing or a diagnostic is unexpected.
// RUN: dit-opt %s --split-input-file --verify-diagnostics
// RUN: not dit-opt %S/Inputs/unmet-expectation.mlir --verify-diagnostics 2>&1 | FileCheck %s

// CHECK: unmet-expectation.mlir:4:4: error: expected error "this message is never produced" was not produced
// CHECK: unmet-expectation.mlir:6:8: error: unexpected error: 'dit.softmax' op

func.func @above(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "dit.softmax"(%x) {dim = 3 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  // expected-error @above {{dim 3 is out of range for rank 1}}
  return %0 : tensor<8xf32>
}

// -----

func.func @same_line(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "dit.softmax"(%x) {dim = -2 : i64} : (tensor<8xf32>) -> tensor<8xf32> // expected-error {{out of range}}
  return %0 : tensor<8xf32>
}

// -----

// expected-error @+2 {{out of range}}
func.func @plus_two(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "dit.softmax"(%x) {dim = 1 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// The -re form: {{...}} blocks are regular expressions, the rest is literal.
func.func @regex(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error-re @+1 {{'dit.softmax' op dim {{-?[0-9]+}} is out of range for rank {{[0-9]}}}}
  %0 = "dit.softmax"(%x) {dim = 5 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
