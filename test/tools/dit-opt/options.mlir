// dit-opt's mlir-opt-style options.
// RUN: dit-opt < %s | FileCheck %s --check-prefix=STDIN
// RUN: dit-opt %s -o %t.mlir && FileCheck %s --check-prefix=STDIN < %t.mlir
// RUN: dit-opt %s --dit-dce --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=IR
// RUN: dit-opt %s --pass-pipeline='builtin.module(dit-cse, dit-dce)' --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: dit-opt %s --pass-pipeline='dit-canonicalize' | FileCheck %s --check-prefix=PIPE
// RUN: dit-opt %s --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// RUN: dit-opt --version | FileCheck %s --check-prefix=VERSION
// RUN: dit-opt --show-dialects | FileCheck %s --check-prefix=DIALECTS
// RUN: dit-opt --list-passes | FileCheck %s --check-prefix=LIST
// RUN: not dit-opt %s --pass-pipeline='builtin.module(dit-dce,dit-nope)' 2>&1 | FileCheck %s --check-prefix=BADPIPE
// RUN: not dit-opt %s --pass-pipeline='dit-dce' --dit-cse 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: not dit-opt %s --target=ascend310 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not dit-opt %s --no-such-flag 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not dit-opt %t.does-not-exist 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: dit-opt %s --target=ascend950 --dit-canonicalize -o /dev/null

// STDIN: func.func @f
// IR: IR Dump After RemoveDeadValues (remove-dead-values)
// IR: func.func @f
// TIME: Execution time report
// TIME: CSE
// TIME: RemoveDeadValues
// PIPE-NOT: "dit.neg"
// LOC: loc(
// VERSION: {{[0-9]+\.[0-9]+\.[0-9]+}}
// DIALECTS: Available Dialects: {{.*}}dit
// LIST: --dit-verify
// LIST: --dit-dce
// LIST: --dit-cse
// LIST: --dit-canonicalize
// BADPIPE: <pass-pipeline>:1:24: error: 'dit-nope' does not refer to a registered pass or pass pipeline
// MIXED: <command line>: error: --pass-pipeline cannot be combined with individual pass flags
// TARGET: <command line>: error: --target: unknown target 'ascend310' (known: ascend910b, ascend910_93, ascend950)
// FLAG: <command line>: error: unexpected argument '--no-such-flag'
// MISSING: error: cannot read input

func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %dead = "dit.neg"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %x : tensor<8xf32>
}
