// --shape-hint binds dynamic dims for the cost model: by the name a dit.dim_names argument
// attribute gives the dim, or by its index among the dynamic argument dims. Results inherit
// the bound value through elementwise ops, norms, linears and concat along the dim.
// RUN: dit-opt %s --fuse-all --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNBOUND
// RUN: dit-opt %s --fuse-all --fusion-report=text --shape-hint=seq=1024 -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAMED
// RUN: dit-opt %s --fuse-all --fusion-report=text --shape-hint=0=1024 -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAMED
// RUN: dit-opt %s --fuse-all --fusion-report=json --shape-hint=seq=1024 -o /dev/null 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: not dit-opt %s --shape-hint=batch=2 2>&1 | FileCheck %s --check-prefix=NOMATCH
// RUN: not dit-opt %s --shape-hint=seq=0 2>&1 | FileCheck %s --check-prefix=BADVALUE
// RUN: not dit-opt %s --shape-hint=seq 2>&1 | FileCheck %s --check-prefix=NOVALUE

// Unbound: x [?, 64] f16 counts as 1 row: 128 B in, weights 8 KiB + 128 B, 1 row out per op.
// UNBOUND: kernels: 4 before, 2 after
// UNBOUND: 6 unbound dynamic dim uses counted as 1: bind them with --shape-hint
// NAMED: kernels: 4 before, 2 after
// x is 1024 x 64 x 2 B = 128 KiB; the lower bound reads x, w (8 KiB), gamma (128 B) once and
// writes the 1024 x 64 result once: 264.1 KiB.
// NAMED: lower bound 264.1 KiB
// NAMED-SAME: all dims static or bound by --shape-hint
// JSON: "unbound_dynamic_dims": 0
// NOMATCH: error: --shape-hint batch matches no dynamic dim of a function argument
// BADVALUE: <command line>: error: --shape-hint: shape hint 'seq=0': the value must be a positive integer
// NOVALUE: <command line>: error: --shape-hint: shape hint 'seq' must be NAME_OR_INDEX=VALUE
func.func @block(%x: tensor<?x64xf16> {dit.dim_names = ["seq", ""]}, %w: tensor<64x64xf16>, %gamma: tensor<64xf16>) -> tensor<?x64xf16> {
  %l = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<?x64xf16>, tensor<64x64xf16>) -> tensor<?x64xf16>
  %s = "dit.sigmoid"(%l) : (tensor<?x64xf16>) -> tensor<?x64xf16>
  %m = "dit.mul"(%l, %s) : (tensor<?x64xf16>, tensor<?x64xf16>) -> tensor<?x64xf16>
  %n = "dit.rms_norm"(%m, %gamma) {epsilon = 1.0e-6 : f32} : (tensor<?x64xf16>, tensor<64xf16>) -> tensor<?x64xf16>
  return %n : tensor<?x64xf16>
}
