// Lowering refuses what the runtime cannot run, with a located error and exit code 1.
// RUN: not dit-opt %s --split-input-file --dit-lower-to-aclnn -o /dev/null 2>&1 | FileCheck %s
// RUN: not dit-opt %s --split-input-file --emit=llvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMIT
// EMIT: <command line>: error: --emit=llvm writes one module: it cannot be combined with --split-input-file

// The runtime runs static shapes: a dynamic dim is a located error.
// CHECK: lower-to-aclnn-errors.mlir:[[# @LINE + 1]]:1: error: dit-lower-to-aclnn: dynamic dims cannot be lowered
func.func @dynamic(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %e = "dit.exp"(%x) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %e : tensor<?x8xf32>
}

// -----

// Only dit ops (and constants) lower: a call is refused with its location.
// CHECK: lower-to-aclnn-errors.mlir:[[# @LINE + 5]]:8: error: dit-lower-to-aclnn: cannot lower 'func.call': not a dit op
func.func @callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @not_a_dit_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Each function gets an init entry @<name>_init: a function of that name already there is a
// located error, not a silent clash of symbols.
// CHECK: lower-to-aclnn-errors.mlir:[[# @LINE + 1]]:1: error: dit-lower-to-aclnn: its init entry @g_init would clash with the function of that name
func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = "dit.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %e : tensor<4xf32>
}
func.func @g_init(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
