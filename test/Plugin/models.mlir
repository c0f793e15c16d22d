// dit passes in upstream mlir-opt, on a whole model (test/models/wan21_block.mlir): nested under
// func.func and mixed with upstream passes, and as the dit-fuse-all pipeline, which gives what
// `dit-opt --fuse-all` gives. tools/dit-plugin/tests/plugin.rs runs the same checks on every
// model.
//
// RUN: %mlir_opt_dit %dit_root/test/models/wan21_block.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(dit-fuse-patterns),cse,canonicalize,dit-auto-fuse)' \
// RUN:   -o %t.mixed.mlir
// RUN: FileCheck %s --input-file=%t.mixed.mlir
// The output parses and verifies again (mlir-opt verifies after parsing).
// RUN: mlir-opt --load-dialect-plugin=%dit_plugin %t.mixed.mlir -o /dev/null
//
// RUN: dit-opt --fuse-all %dit_root/test/models/wan21_block.mlir | mlir-opt --load-dialect-plugin=%dit_plugin -o %t.dit-opt.mlir
// RUN: %mlir_opt_dit %dit_root/test/models/wan21_block.mlir --pass-pipeline='builtin.module(dit-fuse-all)' -o %t.fuse-all.mlir
// RUN: diff %t.dit-opt.mlir %t.fuse-all.mlir
// RUN: FileCheck %s --input-file=%t.fuse-all.mlir

// dit-fuse-patterns raised the library kernels and dit-auto-fuse grouped vector chains.
// CHECK: "dit.rms_norm"
// CHECK: "dit.fused"
// CHECK: "dit.yield"
// CHECK: kernel = "fused_
