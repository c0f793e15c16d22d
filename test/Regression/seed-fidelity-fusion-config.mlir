// Seed 004 / seed 000 §3.7: one --fusion-config TOML carries every fusion switch and
// dit-auto-fuse's options (an [auto_fuse] table, or seed 004's flat keys). Its options feed
// dit-auto-fuse in --fuse-all and in explicit pipelines, unless the pipeline sets the same
// option; unknown keys and bad values are errors at the key, exit code 1.
//
// RUN: dit-opt %s --fuse-all --fusion-config=%S/Inputs/auto-fuse.toml | FileCheck %s --check-prefix=CONFIG
// RUN: dit-opt %s --pass-pipeline='builtin.module(dit-auto-fuse)' --fusion-config=%S/Inputs/auto-fuse.toml | FileCheck %s --check-prefix=CONFIG
// RUN: dit-opt %s --pass-pipeline='builtin.module(dit-auto-fuse{blacklist=dit.exp:dit.mul})' --fusion-config=%S/Inputs/auto-fuse.toml | FileCheck %s --check-prefix=OVERRIDE
// RUN: dit-opt %s --fuse-all --fusion-config=%S/Inputs/auto-fuse-flat.toml | FileCheck %s --check-prefix=OFF
// RUN: dit-opt %s --fuse-all | FileCheck %s --check-prefix=DEFAULT
// RUN: not dit-opt %s --fuse-all --fusion-config=%S/Inputs/auto-fuse-bad-key.toml 2>&1 | FileCheck %s --check-prefix=BADKEY
// RUN: not dit-opt %s --fuse-all --fusion-config=%S/Inputs/auto-fuse-bad-value.toml 2>&1 | FileCheck %s --check-prefix=BADVALUE
// RUN: not dit-opt %s --fuse-all --fusion-config=%S/Inputs/auto-fuse-bad-entry.toml 2>&1 | FileCheck %s --check-prefix=BADENTRY

// The config's blacklist keeps add out of the kernel, its exclude_ops keeps the cast out.
// CONFIG-LABEL: func.func @config
// CONFIG: %[[A:.*]] = "dit.add"(%arg0, %arg1)
// CONFIG-NEXT: %[[F:.*]] = "dit.fused"(%[[A]], %arg1)
// CONFIG: "dit.exp"
// CONFIG-NEXT: "dit.mul"
// CONFIG-NEXT: "dit.yield"
// CONFIG: "dit.cast"(%[[F]])
// The pipeline's blacklist replaces the file's: add -> exp fuse, exp -> mul do not.
// OVERRIDE-LABEL: func.func @config
// OVERRIDE: "dit.fused"(%arg0, %arg1)
// OVERRIDE-NEXT: ^bb0
// OVERRIDE-NEXT: "dit.add"
// OVERRIDE-NEXT: "dit.exp"
// OVERRIDE-NEXT: "dit.yield"
// OVERRIDE: "dit.mul"
// aggressive_level = 0 turns dit-auto-fuse off.
// OFF-LABEL: func.func @config
// OFF-NOT: "dit.fused"
// DEFAULT-LABEL: func.func @config
// DEFAULT: "dit.fused"(%arg0, %arg1)
// DEFAULT-NEXT: ^bb0
// DEFAULT-NEXT: "dit.add"
// DEFAULT-NEXT: "dit.exp"
// DEFAULT-NEXT: "dit.mul"
// DEFAULT-NEXT: "dit.cast"
// BADKEY: auto-fuse-bad-key.toml:4:3: error: unknown [auto_fuse] option 'black_list' (known: aggressive_level, min_benefit, blacklist, fusion_blacklist, exclude_ops)
// BADVALUE: auto-fuse-bad-value.toml:2:1: error: 'aggressive_level': aggressive-level must be 0, 1 or 2, got '3'
// BADENTRY: auto-fuse-bad-entry.toml:2:1: error: 'blacklist': blacklist entry 'dit.add' must be producer:consumer
func.func @config(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>) -> tensor<8x64xbf16> {
  %a = "dit.add"(%x, %y) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %e = "dit.exp"(%a) : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %m = "dit.mul"(%e, %y) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %c = "dit.cast"(%m) : (tensor<8x64xf32>) -> tensor<8x64xbf16>
  return %c : tensor<8x64xbf16>
}
