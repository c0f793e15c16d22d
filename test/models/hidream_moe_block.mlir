// hidream_moe_block.mlir -- the MoE feed-forward of a HiDream-I1 transformer block (ff_i of
// HiDreamImageTransformerBlock / HiDreamImageSingleTransformerBlock) in the dit dialect, written
// the way a grouped-GEMM frontend emits it: primitive ops only, nothing fused. Two functions:
//   @hidream_moe_ffn       bf16 experts
//   @hidream_moe_ffn_w8a8  W8A8 (int8 weights, per-token dynamic int8 activations) experts
//
// Follows diffusers 0.40.0.dev0 (commit 58eb52c0), models/transformers/transformer_hidream_image.py:
//   MOEFeedForwardSwiGLU.forward / moe_infer   (inference path, not the training loop)
//   MoEGate.forward                            (softmax scoring, top-2, norm_topk_prob=False)
//   HiDreamImageFeedForwardSwiGLU              (w2(silu(w1 x) * w3 x), no biases)
// moe_infer runs the experts one by one in a Python loop over the sorted tokens (the RFC notes
// it "needs rewriting to grouped GEMM"). This file is that rewrite, in the shape the fused kernels
// expect: the token permutation (argsort + bincount + gather) and the weighted scatter-sum back
// are dit.opaque ("moe_token_permute", "moe_token_unpermute"; the dialect does not model them;
// cf. torch_npu.npu_moe_token_permute / npu_moe_token_unpermute), the four experts' w1/w3 become
// one dit.grouped_matmul on the stacked [w1 | w3] weight, SwiGLU reads the gate from the FIRST
// half (w1 x) and the up from the second (w3 x), and w2 is a second grouped_matmul.
// group_list is tokens per expert ("count"); moe_infer itself computes the cumulative sum, and
// "cumsum" would serve equally.
//
// Configuration (HiDream-I1): dim 2560 (20 heads x 128), 4 routed experts, top-2, expert inner
// dim 6912 (HiDreamImageFeedForwardSwiGLU(2560, 10240): int(2 * 10240 / 3) rounded up to a
// multiple of 256), shared expert inner 3584 (hidden 5120 -> 3413 -> 3584); batch 1, 1024
// image tokens, so 2048 (token, expert) rows after top-2 routing. bf16 activations.
// Weights: nn.Linear keeps [N, K]; grouped_matmul takes [E, K, N], so routed-expert weights are
// passed stacked and transposed (the frontend's weight-layout step); the shared expert and the
// gate stay dit.linear with [N, K] weights (operandSegmentSizes 1, 1, 0: no bias).
// The gate logits, softmax and top-k stay in bf16 as in the model (F.linear with a bf16 weight).
// W8A8: dit.dynamic_quant gives i8 activations and an f32 scale per row; grouped_matmul takes
// the i8 stacked weight, an f32 per-channel scale [E, N] and that per-token scale [M]
// (operandSegmentSizes x, weight, group_list, bias?, scale?, per_token_scale? = 1, 1, 1, 0, 1, 1)
// and yields bf16. Activations are quantized after the permutation, once per grouped matmul.
// The shared expert is quantized the same way with dit.quant_matmul (W8A8 quantizes every
// expert linear; the router gate stays bf16).
//
// Left out: the attention half of the block and the adaLN modulation around ff_i (input x is
// the modulated norm3_i output, the result is ff_i's output before gate_mlp_i); the training
// path and aux loss; the text-stream ff_t (a dense HiDreamImageFeedForwardSwiGLU, like the
// shared expert here); offsets/bias of the quantized matmuls (none in W8A8 symmetric).
//
// @hidream_moe_ffn: 20 ops; @hidream_moe_ffn_w8a8: 27 ops (func.return not counted).
//
// RUN: dit-opt %s | dit-opt | FileCheck %s
// CHECK-LABEL: func.func @hidream_moe_ffn(
// CHECK: "dit.softmax"
// CHECK: "dit.opaque"{{.*}}name = "topk"{{.*}} -> (tensor<1024x2xbf16>, tensor<1024x2xi64>)
// CHECK: "dit.opaque"{{.*}}name = "moe_token_permute"
// CHECK: "dit.grouped_matmul"{{.*}}group_list_type = "count"{{.*}} -> tensor<2048x13824xbf16>
// CHECK: "dit.split"{{.*}}sizes = array<i64: 6912, 6912>
// CHECK-NEXT: "dit.silu"
// CHECK-NEXT: "dit.mul"
// CHECK-NEXT: "dit.grouped_matmul"{{.*}} -> tensor<2048x2560xbf16>
// CHECK: "dit.opaque"{{.*}}name = "moe_token_unpermute"
// CHECK-COUNT-3: "dit.linear"{{.*}}array<i32: 1, 1, 0>
// CHECK: return
// CHECK-LABEL: func.func @hidream_moe_ffn_w8a8(
// CHECK: "dit.opaque"{{.*}}name = "moe_token_permute"
// CHECK: "dit.dynamic_quant"
// CHECK-NEXT: "dit.grouped_matmul"{{.*}}array<i32: 1, 1, 1, 0, 1, 1>{{.*}}(tensor<2048x2560xi8>, tensor<4x2560x13824xi8>, tensor<4xi64>, tensor<4x13824xf32>, tensor<2048xf32>) -> tensor<2048x13824xbf16>
// CHECK: "dit.dynamic_quant"
// CHECK-NEXT: "dit.grouped_matmul"{{.*}}array<i32: 1, 1, 1, 0, 1, 1>{{.*}} -> tensor<2048x2560xbf16>
// CHECK-COUNT-3: "dit.quant_matmul"
// CHECK-NOT: "dit.linear"
// CHECK: return

module {
  func.func @hidream_moe_ffn(
      %x: tensor<1x1024x2560xbf16>,            // ff_i input: norm3_i(hidden_states) * (1 + scale_mlp_i) + shift_mlp_i, 1024 image tokens
      %gate_weight: tensor<4x2560xbf16>,       // ff_i.gate.weight (MoEGate, [n_routed_experts, dim], no bias)
      %experts_w13: tensor<4x2560x13824xbf16>, // experts[e].w1 / w3 stacked: [e, :, :6912] = w1^T, [e, :, 6912:] = w3^T
      %experts_w2: tensor<4x6912x2560xbf16>,   // experts[e].w2^T stacked
      %shared_w1: tensor<3584x2560xbf16>,      // ff_i.shared_experts.w1.weight
      %shared_w3: tensor<3584x2560xbf16>,      // ff_i.shared_experts.w3.weight
      %shared_w2: tensor<2560x3584xbf16>       // ff_i.shared_experts.w2.weight
  ) -> tensor<1x1024x2560xbf16> {
    // ==== MoEGate(embed_dim=2560, num_routed_experts=4, num_activated_experts=2) ==========
    // hidden_states.view(-1, h); logits = F.linear(hidden_states, weight, None); scores = logits.softmax(-1)
    %gate_x = "dit.reshape"(%x) : (tensor<1x1024x2560xbf16>) -> tensor<1024x2560xbf16>
    %gate_logits = "dit.linear"(%gate_x, %gate_weight) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x2560xbf16>, tensor<4x2560xbf16>) -> tensor<1024x4xbf16>
    %gate_scores = "dit.softmax"(%gate_logits) {dim = -1 : i64} : (tensor<1024x4xbf16>) -> tensor<1024x4xbf16>
    // topk_weight, topk_idx = torch.topk(scores, k=2, dim=-1, sorted=False); norm_topk_prob=False (no renorm)
    %topk_weight, %topk_idx = "dit.opaque"(%gate_scores) {name = "topk", k = 2 : i64, dim = -1 : i64, sorted = false} : (tensor<1024x4xbf16>) -> (tensor<1024x2xbf16>, tensor<1024x2xi64>)

    // ==== MOEFeedForwardSwiGLU.forward (inference: moe_infer) ===========================
    // x = x.view(-1, x.shape[-1]); flat_topk_idx = topk_idx.view(-1)
    %x_flat = "dit.reshape"(%x) : (tensor<1x1024x2560xbf16>) -> tensor<1024x2560xbf16>
    %flat_topk_idx = "dit.reshape"(%topk_idx) : (tensor<1024x2xi64>) -> tensor<2048xi64>
    // moe_infer: idxs = flat_topk_idx.argsort(); tokens_per_expert = bincount(flat_topk_idx);
    // expert_tokens = x[idxs // 2] -- the token permutation, one op the dialect does not model:
    // (permuted tokens [2048, 2560] grouped by expert, sorted_indices [2048], tokens_per_expert [4] as counts)
    %perm_x, %sorted_idx, %tokens_per_expert = "dit.opaque"(%x_flat, %flat_topk_idx) {name = "moe_token_permute", num_experts = 4 : i64} : (tensor<1024x2560xbf16>, tensor<2048xi64>) -> (tensor<2048x2560xbf16>, tensor<2048xi64>, tensor<4xi64>)

    // ==== routed experts: HiDreamImageFeedForwardSwiGLU(2560, 4*2560) each, inner 6912 ===========
    // expert(x) = w2(silu(w1(x)) * w3(x)), one grouped matmul for the stacked [w1 | w3] of all experts
    %h13 = "dit.grouped_matmul"(%perm_x, %experts_w13, %tokens_per_expert) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<2048x2560xbf16>, tensor<4x2560x13824xbf16>, tensor<4xi64>) -> tensor<2048x13824xbf16>
    // SwiGLU: gate = first half (w1 x), up = second half (w3 x); silu(gate) * up
    %h_gate, %h_up = "dit.split"(%h13) {dim = 1 : i64, sizes = array<i64: 6912, 6912>} : (tensor<2048x13824xbf16>) -> (tensor<2048x6912xbf16>, tensor<2048x6912xbf16>)
    %h_gate_silu = "dit.silu"(%h_gate) : (tensor<2048x6912xbf16>) -> tensor<2048x6912xbf16>
    %h_act = "dit.mul"(%h_gate_silu, %h_up) : (tensor<2048x6912xbf16>, tensor<2048x6912xbf16>) -> tensor<2048x6912xbf16>
    // down projection: w2 of every expert, one grouped matmul
    %expert_out = "dit.grouped_matmul"(%h_act, %experts_w2, %tokens_per_expert) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<2048x6912xbf16>, tensor<4x6912x2560xbf16>, tensor<4xi64>) -> tensor<2048x2560xbf16>
    // expert_out.mul_(topk_weight[idxs]); expert_cache.scatter_reduce_(0, token_idxs, expert_out, "sum"):
    // un-permute, weight by the routing scores and sum the 2 picks per token -- opaque
    %routed = "dit.opaque"(%expert_out, %sorted_idx, %topk_weight) {name = "moe_token_unpermute"} : (tensor<2048x2560xbf16>, tensor<2048xi64>, tensor<1024x2xbf16>) -> tensor<1024x2560xbf16>
    // .view(*orig_shape)
    %routed_3d = "dit.reshape"(%routed) : (tensor<1024x2560xbf16>) -> tensor<1x1024x2560xbf16>

    // ==== shared expert: HiDreamImageFeedForwardSwiGLU(2560, 4*2560 // 2), inner 3584 ==============
    // w2(silu(w1(identity)) * w3(identity)); separate w1 / w3 linears, no bias
    %shared_h1 = "dit.linear"(%x, %shared_w1) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x1024x2560xbf16>, tensor<3584x2560xbf16>) -> tensor<1x1024x3584xbf16>
    %shared_h1_silu = "dit.silu"(%shared_h1) : (tensor<1x1024x3584xbf16>) -> tensor<1x1024x3584xbf16>
    %shared_h3 = "dit.linear"(%x, %shared_w3) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x1024x2560xbf16>, tensor<3584x2560xbf16>) -> tensor<1x1024x3584xbf16>
    %shared_act = "dit.mul"(%shared_h1_silu, %shared_h3) : (tensor<1x1024x3584xbf16>, tensor<1x1024x3584xbf16>) -> tensor<1x1024x3584xbf16>
    %shared_out = "dit.linear"(%shared_act, %shared_w2) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x1024x3584xbf16>, tensor<2560x3584xbf16>) -> tensor<1x1024x2560xbf16>
    // y = y + self.shared_experts(identity)
    %y = "dit.add"(%routed_3d, %shared_out) : (tensor<1x1024x2560xbf16>, tensor<1x1024x2560xbf16>) -> tensor<1x1024x2560xbf16>
    func.return %y : tensor<1x1024x2560xbf16>
  }

  func.func @hidream_moe_ffn_w8a8(
      %x: tensor<1x1024x2560xbf16>,            // ff_i input: norm3_i(hidden_states) * (1 + scale_mlp_i) + shift_mlp_i, 1024 image tokens
      %gate_weight: tensor<4x2560xbf16>,       // ff_i.gate.weight (MoEGate, [n_routed_experts, dim], no bias)
      %experts_w13: tensor<4x2560x13824xi8>,   // experts[e].w1 / w3 stacked: [e, :, :6912] = w1^T, [e, :, 6912:] = w3^T; int8
      %experts_w13_scale: tensor<4x13824xf32>, // per-output-channel weight scale of experts_w13
      %experts_w2: tensor<4x6912x2560xi8>,     // experts[e].w2^T stacked; int8
      %experts_w2_scale: tensor<4x2560xf32>,   // per-output-channel weight scale of experts_w2
      %shared_w1: tensor<3584x2560xi8>,        // ff_i.shared_experts.w1.weight [N, K]; int8
      %shared_w1_scale: tensor<3584xf32>,      // its per-channel scale
      %shared_w3: tensor<3584x2560xi8>,        // ff_i.shared_experts.w3.weight; int8
      %shared_w3_scale: tensor<3584xf32>,      // its per-channel scale
      %shared_w2: tensor<2560x3584xi8>,        // ff_i.shared_experts.w2.weight; int8
      %shared_w2_scale: tensor<2560xf32>       // its per-channel scale
  ) -> tensor<1x1024x2560xbf16> {
    // ==== MoEGate(embed_dim=2560, num_routed_experts=4, num_activated_experts=2) ==========
    // hidden_states.view(-1, h); logits = F.linear(hidden_states, weight, None); scores = logits.softmax(-1)
    %gate_x = "dit.reshape"(%x) : (tensor<1x1024x2560xbf16>) -> tensor<1024x2560xbf16>
    %gate_logits = "dit.linear"(%gate_x, %gate_weight) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x2560xbf16>, tensor<4x2560xbf16>) -> tensor<1024x4xbf16>
    %gate_scores = "dit.softmax"(%gate_logits) {dim = -1 : i64} : (tensor<1024x4xbf16>) -> tensor<1024x4xbf16>
    // topk_weight, topk_idx = torch.topk(scores, k=2, dim=-1, sorted=False); norm_topk_prob=False (no renorm)
    %topk_weight, %topk_idx = "dit.opaque"(%gate_scores) {name = "topk", k = 2 : i64, dim = -1 : i64, sorted = false} : (tensor<1024x4xbf16>) -> (tensor<1024x2xbf16>, tensor<1024x2xi64>)

    // ==== MOEFeedForwardSwiGLU.forward (inference: moe_infer) ===========================
    // x = x.view(-1, x.shape[-1]); flat_topk_idx = topk_idx.view(-1)
    %x_flat = "dit.reshape"(%x) : (tensor<1x1024x2560xbf16>) -> tensor<1024x2560xbf16>
    %flat_topk_idx = "dit.reshape"(%topk_idx) : (tensor<1024x2xi64>) -> tensor<2048xi64>
    // moe_infer: idxs = flat_topk_idx.argsort(); tokens_per_expert = bincount(flat_topk_idx);
    // expert_tokens = x[idxs // 2] -- the token permutation, one op the dialect does not model:
    // (permuted tokens [2048, 2560] grouped by expert, sorted_indices [2048], tokens_per_expert [4] as counts)
    %perm_x, %sorted_idx, %tokens_per_expert = "dit.opaque"(%x_flat, %flat_topk_idx) {name = "moe_token_permute", num_experts = 4 : i64} : (tensor<1024x2560xbf16>, tensor<2048xi64>) -> (tensor<2048x2560xbf16>, tensor<2048xi64>, tensor<4xi64>)

    // ==== routed experts: HiDreamImageFeedForwardSwiGLU(2560, 4*2560) each, inner 6912 ===========
    // expert(x) = w2(silu(w1(x)) * w3(x)), one grouped matmul for the stacked [w1 | w3] of all experts
    // W8A8 dynamic: per-token int8 activation quantization, then int8 x int8 with per-channel weight
    // scale [E, N] and per-token scale [M], dequantized to bf16
    %perm_x_i8, %perm_x_scale = "dit.dynamic_quant"(%perm_x) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<2048x2560xbf16>) -> (tensor<2048x2560xi8>, tensor<2048xf32>)
    %h13 = "dit.grouped_matmul"(%perm_x_i8, %experts_w13, %tokens_per_expert, %experts_w13_scale, %perm_x_scale) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1>} : (tensor<2048x2560xi8>, tensor<4x2560x13824xi8>, tensor<4xi64>, tensor<4x13824xf32>, tensor<2048xf32>) -> tensor<2048x13824xbf16>
    // SwiGLU: gate = first half (w1 x), up = second half (w3 x); silu(gate) * up
    %h_gate, %h_up = "dit.split"(%h13) {dim = 1 : i64, sizes = array<i64: 6912, 6912>} : (tensor<2048x13824xbf16>) -> (tensor<2048x6912xbf16>, tensor<2048x6912xbf16>)
    %h_gate_silu = "dit.silu"(%h_gate) : (tensor<2048x6912xbf16>) -> tensor<2048x6912xbf16>
    %h_act = "dit.mul"(%h_gate_silu, %h_up) : (tensor<2048x6912xbf16>, tensor<2048x6912xbf16>) -> tensor<2048x6912xbf16>
    // down projection: w2 of every expert, one grouped matmul
    %h_act_i8, %h_act_scale = "dit.dynamic_quant"(%h_act) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<2048x6912xbf16>) -> (tensor<2048x6912xi8>, tensor<2048xf32>)
    %expert_out = "dit.grouped_matmul"(%h_act_i8, %experts_w2, %tokens_per_expert, %experts_w2_scale, %h_act_scale) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1>} : (tensor<2048x6912xi8>, tensor<4x6912x2560xi8>, tensor<4xi64>, tensor<4x2560xf32>, tensor<2048xf32>) -> tensor<2048x2560xbf16>
    // expert_out.mul_(topk_weight[idxs]); expert_cache.scatter_reduce_(0, token_idxs, expert_out, "sum"):
    // un-permute, weight by the routing scores and sum the 2 picks per token -- opaque
    %routed = "dit.opaque"(%expert_out, %sorted_idx, %topk_weight) {name = "moe_token_unpermute"} : (tensor<2048x2560xbf16>, tensor<2048xi64>, tensor<1024x2xbf16>) -> tensor<1024x2560xbf16>
    // .view(*orig_shape)
    %routed_3d = "dit.reshape"(%routed) : (tensor<1024x2560xbf16>) -> tensor<1x1024x2560xbf16>

    // ==== shared expert: HiDreamImageFeedForwardSwiGLU(2560, 4*2560 // 2), inner 3584 ==============
    // W8A8 linear layers flatten to [M, K] and quantize their own input (one dynamic_quant per layer)
    %shared_x = "dit.reshape"(%x) : (tensor<1x1024x2560xbf16>) -> tensor<1024x2560xbf16>
    // shared_experts.w1(x)
    %shared_h1_x_i8, %shared_h1_x_scale = "dit.dynamic_quant"(%shared_x) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<1024x2560xbf16>) -> (tensor<1024x2560xi8>, tensor<1024xf32>)
    %shared_h1 = "dit.quant_matmul"(%shared_h1_x_i8, %shared_w1, %shared_w1_scale, %shared_h1_x_scale) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<1024x2560xi8>, tensor<3584x2560xi8>, tensor<3584xf32>, tensor<1024xf32>) -> tensor<1024x3584xbf16>
    %shared_h1_silu = "dit.silu"(%shared_h1) : (tensor<1024x3584xbf16>) -> tensor<1024x3584xbf16>
    // shared_experts.w3(x)
    %shared_h3_x_i8, %shared_h3_x_scale = "dit.dynamic_quant"(%shared_x) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<1024x2560xbf16>) -> (tensor<1024x2560xi8>, tensor<1024xf32>)
    %shared_h3 = "dit.quant_matmul"(%shared_h3_x_i8, %shared_w3, %shared_w3_scale, %shared_h3_x_scale) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<1024x2560xi8>, tensor<3584x2560xi8>, tensor<3584xf32>, tensor<1024xf32>) -> tensor<1024x3584xbf16>
    %shared_act = "dit.mul"(%shared_h1_silu, %shared_h3) : (tensor<1024x3584xbf16>, tensor<1024x3584xbf16>) -> tensor<1024x3584xbf16>
    // shared_experts.w2(...)
    %shared_out2d_x_i8, %shared_out2d_x_scale = "dit.dynamic_quant"(%shared_act) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<1024x3584xbf16>) -> (tensor<1024x3584xi8>, tensor<1024xf32>)
    %shared_out2d = "dit.quant_matmul"(%shared_out2d_x_i8, %shared_w2, %shared_w2_scale, %shared_out2d_x_scale) {transpose_x1 = false, transpose_x2 = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<1024x3584xi8>, tensor<2560x3584xi8>, tensor<2560xf32>, tensor<1024xf32>) -> tensor<1024x2560xbf16>
    %shared_out = "dit.reshape"(%shared_out2d) : (tensor<1024x2560xbf16>) -> tensor<1x1024x2560xbf16>
    // y = y + self.shared_experts(identity)
    %y = "dit.add"(%routed_3d, %shared_out) : (tensor<1x1024x2560xbf16>, tensor<1x1024x2560xbf16>) -> tensor<1x1024x2560xbf16>
    func.return %y : tensor<1x1024x2560xbf16>
  }
}
