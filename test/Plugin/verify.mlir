// mlir-opt with the plugin checks dit's rules: the ODS constraints, and the Rust rules
// (dialects/dit/src/verifier.rs) through the ODS verifier hook, with dit's rule names.
// RUN: mlir-opt --load-dialect-plugin=%dit_plugin --split-input-file --verify-diagnostics %s

func.func @matmul_contraction(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<99x1xi1> {
  // expected-error @+1 {{'dit.matmul' op contraction dimensions differ: 8 vs 4 [rule matmul.contraction]}}
  %0 = "dit.matmul"(%a, %b) {transpose_a = false, transpose_b = false} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<99x1xi1>
  return %0 : tensor<99x1xi1>
}

// -----

// Without its flags the same op fails ODS's own check first.
func.func @matmul_no_flags(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<99x1xi1> {
  // expected-error @+1 {{'dit.matmul' op requires attribute 'transpose_a'}}
  %0 = "dit.matmul"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<99x1xi1>
  return %0 : tensor<99x1xi1>
}

// -----

func.func @transpose_perm(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{[rule transpose.perm]}}
  %0 = "dit.transpose"(%x) {perm = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// dit.yield is a terminator to MLIR (the trait TypeIDs of the plugin are libMLIR.so's).
func.func @fused_ok(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "dit.fused"(%x) ({
  ^bb0(%a: tensor<4x8xf32>):
    %1 = "dit.relu"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    "dit.yield"(%1) : (tensor<4x8xf32>) -> ()
  }) {kernel = "k"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// dit.fused is isolated from above: its body cannot use %x directly.
func.func @fused_isolated(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = "dit.fused"(%x) ({
  ^bb0(%a: tensor<4x8xf32>):
    // expected-error @+1 {{using value defined outside the region}}
    %1 = "dit.relu"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    "dit.yield"(%1) : (tensor<4x8xf32>) -> ()
  }) {kernel = "k"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
