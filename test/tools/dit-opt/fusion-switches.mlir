// The fusion switches: --fuse, --no-fuse and --fusion-config select the patterns; unknown
// names are located errors.
// RUN: dit-opt %s --fuse-all | FileCheck %s --check-prefix=ALL
// RUN: dit-opt %s --fuse-all --fusion-config=%S/../../Transforms/Inputs/no-fast-gelu.toml | FileCheck %s --check-prefix=CONFIG
// RUN: dit-opt %s --fuse-all --fuse=gelu_erf | FileCheck %s --check-prefix=CONFIG
// RUN: not dit-opt %s --fuse-all --fusion-config=%S/../../Transforms/Inputs/unknown-switch.toml 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not dit-opt %s --fuse=warp_drive 2>&1 | FileCheck %s --check-prefix=BADFUSE
// RUN: not dit-opt %s --no-fuse=fast_gelu,nope 2>&1 | FileCheck %s --check-prefix=BADNOFUSE
// RUN: not dit-opt %s --pass-pipeline='builtin.module(dit-fuse-patterns{enable_nope=true})' 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not dit-opt %s --pass-pipeline='builtin.module(dit-fuse-patterns{enable_rope=maybe})' 2>&1 | FileCheck %s --check-prefix=BADVALUE

// ALL: "dit.fast_gelu"
// CONFIG: "dit.gelu"(%arg0) {approximate = "tanh"}
// UNKNOWN: unknown-switch.toml:2:1: error: unknown fusion 'enable_warp_drive'
// BADFUSE: <command line>: error: --fuse: unknown fusion 'enable_warp_drive'
// BADNOFUSE: <command line>: error: --no-fuse: unknown fusion 'enable_nope'
// BADOPT: <pass-pipeline>:1:{{[0-9]+}}: error: <Pass-Options-Parser>: no such option enable_nope
// BADVALUE: error: pass 'dit-fuse-patterns': option 'enable_rope' must be true or false, got 'maybe'

func.func @f(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %g = "dit.gelu"(%x) {approximate = "tanh"} : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %g : tensor<4x8xbf16>
}
