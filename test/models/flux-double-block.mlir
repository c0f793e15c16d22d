// The bundled FLUX.1-dev double-stream block parses, verifies and canonicalizes: the model
// code computes silu(temb) once per AdaLayerNormZero and reshapes cos/sin once per
// apply_rotary_emb call; CSE keeps one of each.
// RUN: dit-opt %dit_root/examples/flux_double_block.mlir | dit-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: dit-opt %dit_root/examples/flux_double_block.mlir --dit-canonicalize | FileCheck %s

// ROUNDTRIP-LABEL: func.func @flux_double_block
// ROUNDTRIP-COUNT-2: "dit.silu"
// ROUNDTRIP: "dit.attention"

// CHECK-LABEL: func.func @flux_double_block
// CHECK-COUNT-1: "dit.silu"
// CHECK-NOT: "dit.silu"
// CHECK: "dit.attention"
// CHECK-COUNT-2: "dit.gelu"{{.*}}approximate = "tanh"
// CHECK: return
