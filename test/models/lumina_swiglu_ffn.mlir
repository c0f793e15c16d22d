// lumina_swiglu_ffn.mlir -- the SwiGLU feed-forward of a Lumina-Image-2.0 transformer block
// (Lumina2TransformerBlock.feed_forward, LuminaFeedForward) in the dit dialect: two separate
// projections of the same input (gate w1 = linear_1, up w3 = linear_3), silu(w1 x) * w3 x,
// then w2 = linear_2. Primitive ops only, nothing fused. Two functions, the same FFN:
//   @lumina2_feed_forward                  FP32SiLU as the model writes it: cast to f32, silu,
//                                          cast back to bf16 (dit.silu on f32)
//   @lumina2_feed_forward_silu_decomposed  the form a decomposing frontend (and seed 003's
//                                          SwiGLU pattern) sees: gate.float() -> sigmoid ->
//                                          mul(gate, sigmoid) -> cast back to bf16 -> mul up
// Both are the two-input SwiGLU (gate and up from two linears, not one merged projection).
//
// Follows diffusers 0.40.0.dev0 (commit 58eb52c0):
//   models/attention.py       LuminaFeedForward(dim, inner_dim=4 * dim, multiple_of=256,
//                             ffn_dim_multiplier=None): linear_1 / linear_3 [inner, dim] and
//                             linear_2 [dim, inner], all bias=False; forward
//                             linear_2(silu(linear_1(x)) * linear_3(x)), silu = FP32SiLU
//   models/activations.py     FP32SiLU: F.silu(inputs.float(), inplace=False).to(inputs.dtype)
//   models/transformers/transformer_lumina2.py  Lumina2TransformerBlock (feed_forward input is
//                             ffn_norm1(hidden_states) * (1 + scale_mlp.unsqueeze(1)))
// OmniGen2 (OmniGen2 repo / vLLM-Omni) uses the same LuminaFeedForward shape of FFN.
//
// Configuration (Alpha-VLLM/Lumina-Image-2.0): hidden 2304; inner = 4 * 2304 = 9216 (already a
// multiple of 256, ffn_dim_multiplier None). NB: diffusers' LuminaFeedForward does NOT apply
// the LLaMA int(2 * hidden / 3) rule (6144 here); Lumina-Next passes inner_dim=int(4 * 2 * dim / 3)
// explicitly, Lumina2 passes 4 * dim. Batch 1, 4352 tokens (256 caption + 4096 image tokens of
// a 1024x1024 image: Lumina2 attends over one joint sequence). bf16 activations and weights,
// linear weight [N, K] without bias (operandSegmentSizes 1, 1, 0).
//
// Left out: the rest of the block (attention, sandwich RMSNorms ffn_norm1 / ffn_norm2, tanh
// gates): the input is the modulated ffn_norm1 output and the result is feed_forward's output.
//
// @lumina2_feed_forward: 7 ops; @lumina2_feed_forward_silu_decomposed: 8 ops
// (func.return not counted).
//
// RUN: dit-opt %s | dit-opt | FileCheck %s
// CHECK-LABEL: func.func @lumina2_feed_forward(
// CHECK: "dit.linear"{{.*}}tensor<9216x2304xbf16>
// CHECK-NEXT: "dit.cast"{{.*}} -> tensor<1x4352x9216xf32>
// CHECK-NEXT: "dit.silu"{{.*}} -> tensor<1x4352x9216xf32>
// CHECK-NEXT: "dit.cast"{{.*}} -> tensor<1x4352x9216xbf16>
// CHECK-NEXT: "dit.linear"{{.*}}tensor<9216x2304xbf16>
// CHECK-NEXT: "dit.mul"
// CHECK-NEXT: "dit.linear"{{.*}}tensor<2304x9216xbf16>
// CHECK-NEXT: return
// CHECK-LABEL: func.func @lumina2_feed_forward_silu_decomposed(
// CHECK: "dit.linear"{{.*}}tensor<9216x2304xbf16>
// CHECK-NEXT: "dit.cast"{{.*}} -> tensor<1x4352x9216xf32>
// CHECK-NEXT: "dit.sigmoid"
// CHECK-NEXT: "dit.mul"{{.*}} -> tensor<1x4352x9216xf32>
// CHECK-NEXT: "dit.cast"{{.*}} -> tensor<1x4352x9216xbf16>
// CHECK-NEXT: "dit.linear"{{.*}}tensor<9216x2304xbf16>
// CHECK-NEXT: "dit.mul"{{.*}} -> tensor<1x4352x9216xbf16>
// CHECK-NEXT: "dit.linear"{{.*}}tensor<2304x9216xbf16>
// CHECK-NEXT: return

module {
  func.func @lumina2_feed_forward(
      %x: tensor<1x4352x2304xbf16>,             // ffn_norm1(hidden_states) * (1 + scale_mlp): 256 caption + 4096 image tokens
      %linear_1_weight: tensor<9216x2304xbf16>, // feed_forward.linear_1.weight (w1, gate)
      %linear_2_weight: tensor<2304x9216xbf16>, // feed_forward.linear_2.weight (w2, down)
      %linear_3_weight: tensor<9216x2304xbf16>  // feed_forward.linear_3.weight (w3, up)
  ) -> tensor<1x4352x2304xbf16> {
    // linear_2(silu(linear_1(x)) * linear_3(x)); Python evaluates silu(linear_1(x)) before linear_3(x)
    // w1: gate projection 2304 -> 9216, no bias
    %h1 = "dit.linear"(%x, %linear_1_weight) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x4352x2304xbf16>, tensor<9216x2304xbf16>) -> tensor<1x4352x9216xbf16>
    // self.silu = FP32SiLU(): F.silu(inputs.float()).to(inputs.dtype)
    %h1_f32 = "dit.cast"(%h1) : (tensor<1x4352x9216xbf16>) -> tensor<1x4352x9216xf32>
    %h1_silu_f32 = "dit.silu"(%h1_f32) : (tensor<1x4352x9216xf32>) -> tensor<1x4352x9216xf32>
    %h1_silu = "dit.cast"(%h1_silu_f32) : (tensor<1x4352x9216xf32>) -> tensor<1x4352x9216xbf16>
    // w3: up projection 2304 -> 9216 on the same input, no bias
    %h3 = "dit.linear"(%x, %linear_3_weight) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x4352x2304xbf16>, tensor<9216x2304xbf16>) -> tensor<1x4352x9216xbf16>
    // silu(gate) * up (bf16)
    %h = "dit.mul"(%h1_silu, %h3) : (tensor<1x4352x9216xbf16>, tensor<1x4352x9216xbf16>) -> tensor<1x4352x9216xbf16>
    // w2: down projection 9216 -> 2304, no bias
    %out = "dit.linear"(%h, %linear_2_weight) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x4352x9216xbf16>, tensor<2304x9216xbf16>) -> tensor<1x4352x2304xbf16>
    func.return %out : tensor<1x4352x2304xbf16>
  }

  func.func @lumina2_feed_forward_silu_decomposed(
      %x: tensor<1x4352x2304xbf16>,             // ffn_norm1(hidden_states) * (1 + scale_mlp): 256 caption + 4096 image tokens
      %linear_1_weight: tensor<9216x2304xbf16>, // feed_forward.linear_1.weight (w1, gate)
      %linear_2_weight: tensor<2304x9216xbf16>, // feed_forward.linear_2.weight (w2, down)
      %linear_3_weight: tensor<9216x2304xbf16>  // feed_forward.linear_3.weight (w3, up)
  ) -> tensor<1x4352x2304xbf16> {
    // linear_2(silu(linear_1(x)) * linear_3(x)); Python evaluates silu(linear_1(x)) before linear_3(x)
    // w1: gate projection 2304 -> 9216, no bias
    %h1 = "dit.linear"(%x, %linear_1_weight) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x4352x2304xbf16>, tensor<9216x2304xbf16>) -> tensor<1x4352x9216xbf16>
    // FP32SiLU as the decomposed graph spells it (seed 003's pattern):
    // gate.float() -> sigmoid -> mul(gate_f32, sigmoid) -> cast back to bf16 -> mul with up
    %h1_f32 = "dit.cast"(%h1) : (tensor<1x4352x9216xbf16>) -> tensor<1x4352x9216xf32>
    %h1_sigmoid = "dit.sigmoid"(%h1_f32) : (tensor<1x4352x9216xf32>) -> tensor<1x4352x9216xf32>
    %h1_silu_f32 = "dit.mul"(%h1_f32, %h1_sigmoid) : (tensor<1x4352x9216xf32>, tensor<1x4352x9216xf32>) -> tensor<1x4352x9216xf32>
    %h1_silu = "dit.cast"(%h1_silu_f32) : (tensor<1x4352x9216xf32>) -> tensor<1x4352x9216xbf16>
    // w3: up projection 2304 -> 9216 on the same input, no bias
    %h3 = "dit.linear"(%x, %linear_3_weight) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x4352x2304xbf16>, tensor<9216x2304xbf16>) -> tensor<1x4352x9216xbf16>
    // silu(gate) * up (bf16)
    %h = "dit.mul"(%h1_silu, %h3) : (tensor<1x4352x9216xbf16>, tensor<1x4352x9216xbf16>) -> tensor<1x4352x9216xbf16>
    // w2: down projection 9216 -> 2304, no bias
    %out = "dit.linear"(%h, %linear_2_weight) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x4352x9216xbf16>, tensor<2304x9216xbf16>) -> tensor<1x4352x2304xbf16>
    func.return %out : tensor<1x4352x2304xbf16>
  }
}
