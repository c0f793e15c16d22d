// mlir-opt's pass-manager and printing flags, as dit-opt passes them to MLIR's pass manager
// (issue 16: "dit-opt as mlir-opt").
// RUN: dit-opt %s --dit-cse --dit-dce --mlir-print-ir-before-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: dit-opt %s --dit-cse --dit-cse --mlir-print-ir-after-change -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHANGE
// RUN: dit-opt %s --dit-cse --mlir-print-ir-after-failure -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFAIL --allow-empty
// RUN: dit-opt %s --dit-cse --dit-auto-fuse='aggressive-level=1 min-benefit=0.5' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: not dit-opt %s --dit-auto-fuse='aggressive-level=7' 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not dit-opt %s --dit-auto-fuse='nosuch=1' 2>&1 | FileCheck %s --check-prefix=NOOPT
// RUN: dit-opt %s --dit-cse --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: dit-opt %s --dit-cse --verify-each=false --mlir-disable-threading | FileCheck %s --check-prefix=NOVERIFY
// RUN: not dit-opt %s --verify-each=maybe 2>&1 | FileCheck %s --check-prefix=BADBOOL
// RUN: dit-opt %s --emit-bytecode -o %t.mlirbc
// RUN: dit-opt %t.mlirbc --dit-cse --mlir-print-debuginfo | FileCheck %s --check-prefix=BYTECODE
// RUN: not dit-opt %s --emit-bytecode --emit=llvm 2>&1 | FileCheck %s --check-prefix=BCEMIT
// RUN: not dit-opt %s --emit-bytecode --split-input-file 2>&1 | FileCheck %s --check-prefix=BCSPLIT
// RUN: dit-opt %s --mlir-elide-elementsattrs-if-larger=2 | FileCheck %s --check-prefix=ELIDE
// Pipelines go through MLIR's own parser: nested anchors, upstream passes, options, named
// pipelines.
// RUN: dit-opt %s --pass-pipeline='builtin.module(func.func(cse,dit-canonicalize),canonicalize)' | FileCheck %s --check-prefix=NEST
// RUN: dit-opt %s --dit-auto-fuse='aggressive-level=1' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTS
// RUN: dit-opt %s --pass-pipeline='builtin.module(dit-fuse-all)' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAMED
// RUN: not dit-opt %s --pass-pipeline='builtin.module(func.func(dit-quantize))' 2>&1 | FileCheck %s --check-prefix=ANCHOR

// BEFORE: IR Dump Before CSE (cse)
// BEFORE: IR Dump Before RemoveDeadValues (remove-dead-values)
// Only the first dit-cse changes the IR.
// CHANGE-COUNT-1: IR Dump After CSE (cse)
// CHANGE-NOT: IR Dump After
// NOFAIL-NOT: IR Dump
// DUMP: Pass Manager with 2 passes:
// DUMP-NEXT: builtin.module(
// DUMP-NEXT:   cse,
// DUMP-NEXT:   dit-auto-fuse
// DUMP-NEXT: )
// BADOPT: <command line>: error: --dit-auto-fuse: pass 'dit-auto-fuse': aggressive-level
// NOOPT: <command line>: error: --dit-auto-fuse: <Pass-Options-Parser>: no such option nosuch
// STATS: Pass statistics report
// NOVERIFY: "dit.relu"
// NOVERIFY-NOT: "dit.relu"
// BADBOOL: error: invalid value 'maybe' for '--verify-each
// BYTECODE: "dit.relu"
// BYTECODE-NOT: "dit.relu"
// The original locations (column 8: the ops below) survive the bytecode.
// BYTECODE: loc("{{[^"]*}}":{{[0-9]+}}:8)
// BCEMIT: error: --emit-bytecode writes MLIR: it cannot be combined with --emit=llvm
// NEST: "dit.relu"
// NEST-NOT: "dit.relu"
// OPTS: dit-auto-fuse{aggressive-level=1 blacklist= exclude-ops= min-benefit=0.2}
// NAMED: dit-fold-transpose-quant-matmul,
// NAMED: dit-auto-fuse
// ANCHOR: <pass-pipeline>:1:1: error: Can't add pass 'dit-quantize' restricted to 'builtin.module' on a PassManager intended to run on 'func.func'
// BCSPLIT: <command line>: error: --emit-bytecode writes one module: it cannot be combined with --split-input-file
// ELIDE: dense_resource<__elided__>
// ELIDE-NOT: dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]>

func.func @f(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %c = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %a = "dit.relu"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %b = "dit.relu"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %s = "dit.add"(%a, %c) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %s, %b : tensor<3xf32>, tensor<3xf32>
}
