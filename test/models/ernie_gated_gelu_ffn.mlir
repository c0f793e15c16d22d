// ernie_gated_gelu_ffn.mlir -- the gated-GELU feed-forward of an ERNIE-Image transformer block
// (ErnieImageSharedAdaLNBlock.mlp) in the dit dialect: up * gelu(gate) with exact erf GELU,
// then the down linear. Primitive ops only, nothing fused. Three functions:
//   @ernie_gated_gelu_ffn             merged projection, ERNIE-Image widths (3072 -> 2 x 8192):
//                                     gelu_mul must NOT fire (merged last dim 16384 > GeluMul's 1024)
//   @ernie_gated_gelu_ffn_small       the same merged FFN at inner 512 (merged last dim 1024):
//                                     gelu_mul is legal
//   @ernie_gated_gelu_ffn_two_linear  diffusers' literal form: separate gate_proj / up_proj
//                                     linears (no split; a gelu_mul rewrite would first have to
//                                     merge the two weights)
//
// Follows diffusers 0.40.0.dev0 (commit 58eb52c0), models/transformers/transformer_ernie_image.py:
//   ErnieImageFeedForward.forward: linear_fc2(up_proj(x) * F.gelu(gate_proj(x))), all bias=False
//   ErnieImageTransformer2DModel defaults: hidden_size 3072, ffn_hidden_size 8192
// (vLLM-Omni's models/ernie_image/ernie_image_transformer.py, the RFC's only gelu(x) * y site,
// computes the same with separate ColumnParallelLinear gate_proj / up_proj.)
// The merged form: diffusers notes "Separate gate and up projections (matches converted
// weights)", and the down projection keeps the Megatron name linear_fc2, i.e. the original
// checkpoint has one linear_fc1 producing [gate | up]. The first two functions write that form:
// linear_fc1.weight = cat([gate_proj.weight, up_proj.weight], 0), so by construction the gate is
// the FIRST half of the split (which half the original checkpoint puts first is not checked
// here). All functions keep the model's operand order for the product: up * gelu(gate).
//
// Configuration: hidden 3072, FFN inner 8192 (diffusers defaults); batch 1, 4096 image tokens
// (a 64 x 64 token grid). bf16 activations and weights, linear weight [N, K] without bias
// (operandSegmentSizes 1, 1, 0).
//
// Left out: the rest of the block (attention, the shared adaLN RMSNorm and modulation, gated
// residual): the input is the modulated norm output and the result is the mlp output.
//
// @ernie_gated_gelu_ffn: 5 ops; @ernie_gated_gelu_ffn_small: 5 ops;
// @ernie_gated_gelu_ffn_two_linear: 5 ops (func.return not counted).
//
// RUN: dit-opt %s | dit-opt | FileCheck %s
// CHECK-LABEL: func.func @ernie_gated_gelu_ffn(
// CHECK: "dit.linear"{{.*}} -> tensor<1x4096x16384xbf16>
// CHECK-NEXT: "dit.split"{{.*}}sizes = array<i64: 8192, 8192>
// CHECK-NEXT: "dit.gelu"{{.*}}approximate = "none"
// CHECK-NEXT: "dit.mul"
// CHECK-NEXT: "dit.linear"{{.*}}tensor<3072x8192xbf16>
// CHECK-NEXT: return
// CHECK-LABEL: func.func @ernie_gated_gelu_ffn_small(
// CHECK: "dit.linear"{{.*}} -> tensor<1x4096x1024xbf16>
// CHECK-NEXT: "dit.split"{{.*}}sizes = array<i64: 512, 512>
// CHECK-NEXT: "dit.gelu"{{.*}}approximate = "none"
// CHECK-NEXT: "dit.mul"
// CHECK-NEXT: "dit.linear"{{.*}}tensor<3072x512xbf16>
// CHECK-NEXT: return
// CHECK-LABEL: func.func @ernie_gated_gelu_ffn_two_linear(
// CHECK-COUNT-2: "dit.linear"{{.*}} -> tensor<1x4096x8192xbf16>
// CHECK-NEXT: "dit.gelu"{{.*}}approximate = "none"
// CHECK-NEXT: "dit.mul"
// CHECK-NEXT: "dit.linear"{{.*}}tensor<3072x8192xbf16>
// CHECK-NEXT: return

module {
  func.func @ernie_gated_gelu_ffn(
      %x: tensor<1x4096x3072xbf16>,                // mlp input: the adaLN-modulated RMSNorm output, 4096 image tokens
      %linear_fc1_weight: tensor<16384x3072xbf16>, // [gate_proj.weight; up_proj.weight] stacked row-wise: rows [0, 8192) gate, [8192, 16384) up
      %linear_fc2_weight: tensor<3072x8192xbf16>   // linear_fc2.weight (down)
  ) -> tensor<1x4096x3072xbf16> {
    // Ernie-Image width: the merged last dim is 16384, beyond GeluMul's 1024 limit, so a
    // gelu_mul rewrite must refuse here (the erf-GELU rewrite alone may still apply)
    // merged gate/up projection 3072 -> 2 x 8192, no bias
    %fc1 = "dit.linear"(%x, %linear_fc1_weight) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x4096x3072xbf16>, tensor<16384x3072xbf16>) -> tensor<1x4096x16384xbf16>
    // gate_out, up_out = fc1.chunk(2, dim=-1): the gate is the FIRST half
    %gate_out, %up_out = "dit.split"(%fc1) {dim = 2 : i64, sizes = array<i64: 8192, 8192>} : (tensor<1x4096x16384xbf16>) -> (tensor<1x4096x8192xbf16>, tensor<1x4096x8192xbf16>)
    // F.gelu(gate_out): exact erf GELU (approximate="none")
    %gate_gelu = "dit.gelu"(%gate_out) {approximate = "none"} : (tensor<1x4096x8192xbf16>) -> tensor<1x4096x8192xbf16>
    // up_out * F.gelu(gate_out): operand order as in the model (up first)
    %h = "dit.mul"(%up_out, %gate_gelu) : (tensor<1x4096x8192xbf16>, tensor<1x4096x8192xbf16>) -> tensor<1x4096x8192xbf16>
    // linear_fc2: down projection 8192 -> 3072, no bias
    %out = "dit.linear"(%h, %linear_fc2_weight) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x4096x8192xbf16>, tensor<3072x8192xbf16>) -> tensor<1x4096x3072xbf16>
    func.return %out : tensor<1x4096x3072xbf16>
  }

  func.func @ernie_gated_gelu_ffn_small(
      %x: tensor<1x4096x3072xbf16>,               // mlp input: the adaLN-modulated RMSNorm output, 4096 image tokens
      %linear_fc1_weight: tensor<1024x3072xbf16>, // [gate_proj.weight; up_proj.weight] stacked row-wise: rows [0, 512) gate, [512, 1024) up
      %linear_fc2_weight: tensor<3072x512xbf16>   // linear_fc2.weight (down)
  ) -> tensor<1x4096x3072xbf16> {
    // Same FFN at inner width 512: the merged last dim is 1024 = GeluMul's limit, so
    // dit.gelu_mul (gelu(first half) * second half) is a legal replacement for split/gelu/mul
    // merged gate/up projection 3072 -> 2 x 512, no bias
    %fc1 = "dit.linear"(%x, %linear_fc1_weight) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x4096x3072xbf16>, tensor<1024x3072xbf16>) -> tensor<1x4096x1024xbf16>
    // gate_out, up_out = fc1.chunk(2, dim=-1): the gate is the FIRST half
    %gate_out, %up_out = "dit.split"(%fc1) {dim = 2 : i64, sizes = array<i64: 512, 512>} : (tensor<1x4096x1024xbf16>) -> (tensor<1x4096x512xbf16>, tensor<1x4096x512xbf16>)
    // F.gelu(gate_out): exact erf GELU (approximate="none")
    %gate_gelu = "dit.gelu"(%gate_out) {approximate = "none"} : (tensor<1x4096x512xbf16>) -> tensor<1x4096x512xbf16>
    // up_out * F.gelu(gate_out): operand order as in the model (up first)
    %h = "dit.mul"(%up_out, %gate_gelu) : (tensor<1x4096x512xbf16>, tensor<1x4096x512xbf16>) -> tensor<1x4096x512xbf16>
    // linear_fc2: down projection 512 -> 3072, no bias
    %out = "dit.linear"(%h, %linear_fc2_weight) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x4096x512xbf16>, tensor<3072x512xbf16>) -> tensor<1x4096x3072xbf16>
    func.return %out : tensor<1x4096x3072xbf16>
  }

  func.func @ernie_gated_gelu_ffn_two_linear(
      %x: tensor<1x4096x3072xbf16>,               // mlp input: the adaLN-modulated RMSNorm output, 4096 image tokens
      %gate_proj_weight: tensor<8192x3072xbf16>,  // mlp.gate_proj.weight
      %up_proj_weight: tensor<8192x3072xbf16>,    // mlp.up_proj.weight
      %linear_fc2_weight: tensor<3072x8192xbf16>  // mlp.linear_fc2.weight
  ) -> tensor<1x4096x3072xbf16> {
    // diffusers' literal form: linear_fc2(up_proj(x) * F.gelu(gate_proj(x))); Python evaluates up_proj(x) first
    %up_out = "dit.linear"(%x, %up_proj_weight) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x4096x3072xbf16>, tensor<8192x3072xbf16>) -> tensor<1x4096x8192xbf16>
    %gate_out = "dit.linear"(%x, %gate_proj_weight) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x4096x3072xbf16>, tensor<8192x3072xbf16>) -> tensor<1x4096x8192xbf16>
    %gate_gelu = "dit.gelu"(%gate_out) {approximate = "none"} : (tensor<1x4096x8192xbf16>) -> tensor<1x4096x8192xbf16>
    %h = "dit.mul"(%up_out, %gate_gelu) : (tensor<1x4096x8192xbf16>, tensor<1x4096x8192xbf16>) -> tensor<1x4096x8192xbf16>
    %out = "dit.linear"(%h, %linear_fc2_weight) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x4096x8192xbf16>, tensor<3072x8192xbf16>) -> tensor<1x4096x3072xbf16>
    func.return %out : tensor<1x4096x3072xbf16>
  }
}
