// dit passes from the plugin in MLIR's pass registry: nesting, several functions on MLIR's
// threads, options (parsed, checked by the pass, printed back) and the errors mlir-opt reports
// for bad pipelines.
//
// RUN: %mlir_opt_dit %s --pass-pipeline='builtin.module(func.func(dit-fuse-patterns,dit-auto-fuse{min-benefit=0}))' | FileCheck %s
// RUN: %mlir_opt_dit %s --pass-pipeline='builtin.module(func.func(dit-fuse-patterns{enable_fast_gelu=false}))' | FileCheck %s --check-prefix=OFF
//
// Options print back with the pipeline (tools/dit-plugin/tests/plugin.rs parses the printed
// pipeline again).
// RUN: %mlir_opt_dit %s --pass-pipeline='builtin.module(func.func(dit-fuse-patterns{enable_fast_gelu=false}),dit-auto-fuse{min-benefit=0.5})' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
//
// RUN: not %mlir_opt_dit %s --pass-pipeline='builtin.module(dit-fuse-patterns{enable_rope=maybe})' 2>&1 | FileCheck %s --check-prefix=BADVALUE
// RUN: not %mlir_opt_dit %s --pass-pipeline='builtin.module(dit-auto-fuse{nosuch=1})' 2>&1 | FileCheck %s --check-prefix=NOOPTION
// RUN: not %mlir_opt_dit %s --pass-pipeline='builtin.module(func.func(dit-quantize))' 2>&1 | FileCheck %s --check-prefix=MODULEONLY
// RUN: not %mlir_opt_dit %s --pass-pipeline='builtin.module(dit-fuse-all{x=1})' 2>&1 | FileCheck %s --check-prefix=PIPEOPT
// RUN: not %mlir_opt_dit %s --pass-pipeline='builtin.module(dit-nosuch)' 2>&1 | FileCheck %s --check-prefix=NOPASS
//
// mlir-opt lists the passes and their options.
// RUN: %mlir_opt_dit --help | FileCheck %s --check-prefix=HELP

// DUMP: func.func(
// DUMP-NEXT: dit-fuse-patterns{{{.*}}enable_fast_gelu=false
// DUMP: dit-auto-fuse{{{.*}}min-benefit=0.5
// BADVALUE: pass 'dit-fuse-patterns': option 'enable_rope' must be true or false, got 'maybe'
// NOOPTION: no such option nosuch
// MODULEONLY: Can't add pass 'dit-quantize' restricted to 'builtin.module' on a PassManager intended to run on 'func.func'
// PIPEOPT: pipeline 'dit-fuse-all' takes no options
// NOPASS: 'dit-nosuch' does not refer to a registered pass or pass pipeline
// HELP-DAG: --dit-auto-fuse
// HELP-DAG: --min-benefit=
// HELP-DAG: --dit-fuse-all
// HELP-DAG: --dit-lower-fused-to-linalg

// Four functions: MLIR runs the func.func pipeline on its threads; each is rewritten.
// CHECK-LABEL: func.func @f0
// CHECK: "dit.fused"
// CHECK: "dit.fast_gelu"
// CHECK: {kernel = "fused_f0_0"}
// CHECK-LABEL: func.func @f1
// CHECK: {kernel = "fused_f1_0"}
// CHECK-LABEL: func.func @f2
// CHECK: {kernel = "fused_f2_0"}
// CHECK-LABEL: func.func @f3
// CHECK: {kernel = "fused_f3_0"}
// OFF-LABEL: func.func @f0
// OFF: "dit.gelu"(%{{.*}}) {approximate = "tanh"}
// OFF-NOT: dit.fast_gelu
func.func @f0(%x: tensor<4x8xbf16>, %y: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %g = "dit.gelu"(%x) {approximate = "tanh"} : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %a = "dit.add"(%g, %y) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %r = "dit.relu"(%a) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}
func.func @f1(%x: tensor<4x8xbf16>, %y: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %g = "dit.gelu"(%x) {approximate = "tanh"} : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %a = "dit.add"(%g, %y) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %r = "dit.relu"(%a) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}
func.func @f2(%x: tensor<4x8xbf16>, %y: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %g = "dit.gelu"(%x) {approximate = "tanh"} : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %a = "dit.add"(%g, %y) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %r = "dit.relu"(%a) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}
func.func @f3(%x: tensor<4x8xbf16>, %y: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %g = "dit.gelu"(%x) {approximate = "tanh"} : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %a = "dit.add"(%g, %y) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %r = "dit.relu"(%a) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}
