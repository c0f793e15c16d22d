// dit-run's bad input and misuse: a located error (or a command-line error) and exit code 1.
// RUN: not dit-run %s --entry=nosuch 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not dit-run %s --input-range=1,0 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not dit-run %s --fuse=nosuch 2>&1 | FileCheck %s --check-prefix=FUSE
// RUN: not dit-run %s --pipeline='builtin.module(dit-nosuch)' --compare-unfused 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: not dit-run %s --input-npy=%t.missing.npy 2>&1 | FileCheck %s --check-prefix=NPY
// RUN: not dit-run %S/Inputs/malformed.mlir 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not dit-run %s --target=nosuch --compare-unfused 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not dit-run %S/Inputs/nan.mlir 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: env ASCEND_HOME_PATH=%t.nocann not dit-run %s --backend=cann 2>&1 | FileCheck %s --check-prefix=CANN
// RUN: dit-run %s --seed=7 --print-outputs | FileCheck %s --check-prefix=OK

// ENTRY: error: no function @nosuch to run
// RANGE: <command line>: error: --input-range: 1,0 is not a range
// FUSE: <command line>: error: --fuse:
// PIPE: error: --pipeline:
// NPY: error: cannot read
// PARSE: malformed.mlir:4:10: error: use of value '%e' expects different type
// TARGET: <command line>: error: --target:
// NAN: error: output 0 of @nan has non-finite values
// CANN: errors.mlir:1:1: error: {{.*}}ASCEND_HOME_PATH
// OK: @f: 1 kernels
// OK: output 0 f32[2,4]: L2 norm
// OK: values f32[2,4]: [
func.func @f(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e = "dit.exp"(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %e : tensor<2x4xf32>
}
