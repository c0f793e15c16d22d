// lingbot_video_moe_ffn.mlir -- the sparse-MoE feed-forward of a LingBot-Video MoE 30B-A3B block
// (LingBotVideoBlock.ffn = LingBotVideoSparseMoeBlock) in the dit dialect, written the way a
// grouped-GEMM frontend emits it: primitive ops only, nothing fused. One function,
// @lingbot_video_moe_ffn, bf16 experts (the model runs its experts unquantized).
//
// Structure from vllm-project/vllm-omni (commit 08e0818b8f48f7d9617366ac135bfa79afcbc343),
// vllm_omni/diffusion/models/lingbot_video/lingbot_video_transformer.py ("Adapted from
// LingBot-Video, https://github.com/Robbyant/lingbot-video"):
//   LingBotVideoSparseMoeBlock.forward / _run_selected_experts / _reorder_tokens /
//   _run_grouped_experts (the torch._grouped_mm path) / _restore_tokens,
//   LingBotVideoRouter.forward, LingBotVideoGroupedExperts (w1 [E, I, H], w2 [E, H, I],
//   w3 [E, I, H]), LingBotVideoMLP (shared expert: down(silu(gate x) * up x), no biases).
// Sizes of the released checkpoint robbyant/lingbot-video-moe-30b-a3b from sgl-project/sglang
// (commit 687a28c7499b65b6edb5254e6378baf5a64cb3dd),
// python/sglang/multimodal_gen/configs/models/dits/lingbot_video_moe.py,
// LingBotVideoMoEArchConfig ("mirrors the upstream transformer/config.json"): hidden_size 2048,
// num_experts 128, num_experts_per_tok 8, moe_intermediate_size 768, n_shared_experts 1,
// score_func "sigmoid", norm_topk_prob true, n_group 4, topk_group 2, routed_scaling_factor 2.5,
// decoder_sparse_step 1 (all 48 blocks are MoE). The checkpoint's config.json itself was not
// read; the vllm-omni defaults (num_experts 0, moe_intermediate_size 512) are NOT the release.
//
// Tokens: 1560 = one 480x832 latent frame (T2I; Wan 2.1 VAE /8 -> 60x104, patch (1, 2, 2) ->
// 30x52); the text tokens of the joint [video; text] sequence are left out. Top-8 routing gives
// 12480 (token, expert) rows. Batch 1. Activations bf16 (the bulk dtype); the router is one of
// LINGBOT_VIDEO_FP32_MODULES, so its weight is f32 and it runs on tokens.float().
//
// Simplified (what this graph does not model):
//   * expert SELECTION: the model picks the top-8 of scores + e_score_correction_bias, limited
//     to the 2 best of 4 expert groups (group score = sum of its two best), and gathers the gate
//     values from the unbiased scores. The dialect has no gather / scatter / masked_fill, so
//     here dit.opaque "topk" (k = 8) runs on the sigmoid scores themselves; this changes which
//     experts are chosen, not any shape, op or dtype downstream. The gate math after the
//     selection is kept: top / (sum(top) + 1e-20) * 2.5, then .to(bf16).
//   * _reorder_tokens (argsort by expert + gather) is dit.opaque "moe_token_permute" and
//     _restore_tokens (scatter, weight by the gate, sum the 8 picks in f32, cast back) is
//     dit.opaque "moe_token_unpermute", as in hidream_moe_block.mlir (cf. torch_npu
//     npu_moe_token_permute / npu_moe_token_unpermute). The padding mask (padded CFG rows) is
//     absent (all rows valid, so active_positions are all rows).
//   * _pad_grouped_tokens (each expert's rows padded to a multiple of 8 for CUDA
//     torch._grouped_mm, offs = cumsum of the padded counts) is left out: grouped_matmul takes
//     the unpadded per-expert counts ("count"); "cumsum" of the same counts would serve equally.
//   * weights are function arguments; torch._grouped_mm takes w.transpose(-2, -1), so the
//     routed-expert weights are passed as [E, H, I] / [E, I, H] (= grouped_matmul's [E, K, N]).
//     w1 and w3 stay two separate grouped matmuls, as the model runs them (the model keeps
//     separate gate / up weights; merging them is the fusion's job, not the frontend's).
//   * left out around the FFN: norm2 + AdaLN modulation before it (input x is ffn_in),
//     norm_post_ffn and the tanh-gated residual after it, and the attention half of the block.
//
// 27 ops (including the 2 arith.constant scalars; func.return not counted).
//
// RUN: dit-opt %s | dit-opt | FileCheck %s
// RUN: dit-opt %s --dit-verify -o /dev/null
// RUN: dit-opt %s --fuse-all | dit-opt --dit-verify -o /dev/null
// RUN: dit-opt %s --fuse-all | FileCheck %s --check-prefix=FUSED
// CHECK-LABEL: func.func @lingbot_video_moe_ffn(
// CHECK: "dit.linear"{{.*}}(tensor<1560x2048xf32>, tensor<128x2048xf32>) -> tensor<1560x128xf32>
// CHECK-NEXT: "dit.sigmoid"
// CHECK-NEXT: "dit.opaque"{{.*}}name = "topk"{{.*}} -> (tensor<1560x8xf32>, tensor<1560x8xi64>)
// CHECK: "dit.opaque"{{.*}}name = "moe_token_permute"{{.*}}num_experts = 128
// CHECK-NEXT: "dit.grouped_matmul"{{.*}}group_list_type = "count"{{.*}}tensor<128x2048x768xbf16>{{.*}} -> tensor<12480x768xbf16>
// CHECK-NEXT: "dit.silu"
// CHECK-NEXT: "dit.grouped_matmul"{{.*}} -> tensor<12480x768xbf16>
// CHECK-NEXT: "dit.mul"
// CHECK-NEXT: "dit.grouped_matmul"{{.*}} -> tensor<12480x2048xbf16>
// CHECK-NEXT: "dit.opaque"{{.*}}name = "moe_token_unpermute"
// CHECK-COUNT-3: "dit.linear"{{.*}}array<i32: 1, 1, 0>
// CHECK: return
// --fuse-all at the real widths (ascend910b): 22 -> 16 kernels. The routed experts' two
// grouped matmuls (w1 gate, w3 up) are NOT merged (no pass merges dit.grouped_matmul pairs),
// so their silu(h1) * h3 becomes the two-input dit.silu_mul (one generated kernel), not
// dit.swiglu and not dit.grouped_matmul_swiglu_quant. The shared expert's gate / up linears
// merge into one linear on concat(Wg, Wu) followed by dit.swiglu; the router's gate-weight
// chain (add -> div -> mul -> cast) is one generated vector kernel.
// FUSED-LABEL: func.func @lingbot_video_moe_ffn(
// FUSED: "dit.fused"
// FUSED: "dit.div"
// FUSED: kernel = "fused_lingbot_video_moe_ffn_0"
// FUSED: "dit.opaque"{{.*}}name = "moe_token_permute"
// FUSED-NEXT: "dit.grouped_matmul"{{.*}} -> tensor<12480x768xbf16>
// FUSED-NEXT: "dit.grouped_matmul"{{.*}} -> tensor<12480x768xbf16>
// FUSED-NEXT: "dit.fused"
// FUSED: "dit.silu_mul"
// FUSED: "dit.grouped_matmul"{{.*}} -> tensor<12480x2048xbf16>
// FUSED: "dit.concat"{{.*}} -> tensor<1536x2048xbf16>
// FUSED-NEXT: "dit.linear"{{.*}} -> tensor<1x1560x1536xbf16>
// FUSED-NEXT: "dit.swiglu"{{.*}} -> tensor<1x1560x768xbf16>
// FUSED-NOT: "dit.silu"(
// FUSED: return

module {
  func.func @lingbot_video_moe_ffn(
      %x: tensor<1x1560x2048xbf16>,            // ffn_in = (norm2(x) * (1 + scale_mlp) + shift_mlp).to(bf16), 1560 tokens
      %router_weight: tensor<128x2048xf32>,    // ffn.router.weight [num_experts, hidden] (kept in fp32)
      %experts_w1: tensor<128x2048x768xbf16>,  // ffn.experts.w1.transpose(-2, -1): [E, H, I] (gate)
      %experts_w3: tensor<128x2048x768xbf16>,  // ffn.experts.w3.transpose(-2, -1): [E, H, I] (up)
      %experts_w2: tensor<128x768x2048xbf16>,  // ffn.experts.w2.transpose(-2, -1): [E, I, H] (down)
      %shared_gate_w: tensor<768x2048xbf16>,   // ffn.shared_experts.gate_proj.weight (768 = 768 x n_shared_experts 1)
      %shared_up_w: tensor<768x2048xbf16>,     // ffn.shared_experts.up_proj.weight
      %shared_down_w: tensor<2048x768xbf16>    // ffn.shared_experts.down_proj.weight
  ) -> tensor<1x1560x2048xbf16> {
    // ==== LingBotVideoSparseMoeBlock.forward: tokens = hidden_states.reshape(-1, hidden) ====
    %tokens = "dit.reshape"(%x) : (tensor<1x1560x2048xbf16>) -> tensor<1560x2048xbf16>

    // ==== LingBotVideoRouter(2048, 128, top_k 8, sigmoid, norm_topk_prob, route_scale 2.5) ====
    // autocast off: logits = F.linear(tokens.float(), self.weight.float()); scores = logits.sigmoid()
    %tokens_f32 = "dit.cast"(%tokens) : (tensor<1560x2048xbf16>) -> tensor<1560x2048xf32>
    %logits = "dit.linear"(%tokens_f32, %router_weight) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1560x2048xf32>, tensor<128x2048xf32>) -> tensor<1560x128xf32>
    %scores = "dit.sigmoid"(%logits) : (tensor<1560x128xf32>) -> tensor<1560x128xf32>
    // selection simplified (see header): top_indices = topk(scores, k=8, sorted=False)[1]; top_scores = scores.gather(1, top_indices)
    %top_scores, %top_indices = "dit.opaque"(%scores) {name = "topk", k = 8 : i64, dim = -1 : i64, sorted = false} : (tensor<1560x128xf32>) -> (tensor<1560x8xf32>, tensor<1560x8xi64>)
    // norm_topk_prob: top_scores = top_scores / (top_scores.sum(dim=-1, keepdim=True) + 1e-20)
    %top_sum = "dit.reduce_sum"(%top_scores) {dims = array<i64: 1>, keepdim = true} : (tensor<1560x8xf32>) -> tensor<1560x1xf32>
    %tiny = arith.constant dense<1.000000e-20> : tensor<f32>
    %top_den = "dit.add"(%top_sum, %tiny) : (tensor<1560x1xf32>, tensor<f32>) -> tensor<1560x1xf32>
    %top_norm = "dit.div"(%top_scores, %top_den) : (tensor<1560x8xf32>, tensor<1560x1xf32>) -> tensor<1560x8xf32>
    // top_scores = top_scores * self.route_scale; return top_indices, top_scores.to(tokens.dtype)
    %route_scale = arith.constant dense<2.500000e+00> : tensor<f32>
    %top_scaled = "dit.mul"(%top_norm, %route_scale) : (tensor<1560x8xf32>, tensor<f32>) -> tensor<1560x8xf32>
    %gate_weights = "dit.cast"(%top_scaled) : (tensor<1560x8xf32>) -> tensor<1560x8xbf16>

    // ==== _reorder_tokens: flat_indices = top_indices.reshape(-1); counts = bincount;
    // sort_order = argsort(active_experts, stable=True); permuted_tokens = tokens[sorted_positions // top_k]
    %flat_indices = "dit.reshape"(%top_indices) : (tensor<1560x8xi64>) -> tensor<12480xi64>
    %perm_tokens, %sorted_positions, %counts = "dit.opaque"(%tokens, %flat_indices) {name = "moe_token_permute", num_experts = 128 : i64} : (tensor<1560x2048xbf16>, tensor<12480xi64>) -> (tensor<12480x2048xbf16>, tensor<12480xi64>, tensor<128xi64>)

    // ==== _run_grouped_experts (torch._grouped_mm path; alignment padding left out) ========
    // h = F.silu(torch._grouped_mm(padded_tokens, w1.transpose(-2, -1), offs=offsets))
    %h1 = "dit.grouped_matmul"(%perm_tokens, %experts_w1, %counts) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<12480x2048xbf16>, tensor<128x2048x768xbf16>, tensor<128xi64>) -> tensor<12480x768xbf16>
    %h1_silu = "dit.silu"(%h1) : (tensor<12480x768xbf16>) -> tensor<12480x768xbf16>
    // h = h * torch._grouped_mm(padded_tokens, w3.transpose(-2, -1), offs=offsets)
    %h3 = "dit.grouped_matmul"(%perm_tokens, %experts_w3, %counts) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<12480x2048xbf16>, tensor<128x2048x768xbf16>, tensor<128xi64>) -> tensor<12480x768xbf16>
    %h_act = "dit.mul"(%h1_silu, %h3) : (tensor<12480x768xbf16>, tensor<12480x768xbf16>) -> tensor<12480x768xbf16>
    // out = torch._grouped_mm(h, w2.transpose(-2, -1), offs=offsets).type_as(padded_tokens)
    %expert_out = "dit.grouped_matmul"(%h_act, %experts_w2, %counts) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<12480x768xbf16>, tensor<128x768x2048xbf16>, tensor<128xi64>) -> tensor<12480x2048xbf16>

    // ==== _restore_tokens: scatter back, (unsorted.float() * scores).sum(dim=1).to(bf16) -- opaque
    %routed = "dit.opaque"(%expert_out, %sorted_positions, %gate_weights) {name = "moe_token_unpermute"} : (tensor<12480x2048xbf16>, tensor<12480xi64>, tensor<1560x8xbf16>) -> tensor<1560x2048xbf16>
    // out = out.reshape(batch_size, -1, self.hidden_size)
    %routed_3d = "dit.reshape"(%routed) : (tensor<1560x2048xbf16>) -> tensor<1x1560x2048xbf16>

    // ==== shared expert: LingBotVideoMLP(2048, 768 * 1): down(silu(gate(x)) * up(x)) ==========
    %shared_gate = "dit.linear"(%x, %shared_gate_w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x1560x2048xbf16>, tensor<768x2048xbf16>) -> tensor<1x1560x768xbf16>
    %shared_gate_silu = "dit.silu"(%shared_gate) : (tensor<1x1560x768xbf16>) -> tensor<1x1560x768xbf16>
    %shared_up = "dit.linear"(%x, %shared_up_w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x1560x2048xbf16>, tensor<768x2048xbf16>) -> tensor<1x1560x768xbf16>
    %shared_act = "dit.mul"(%shared_gate_silu, %shared_up) : (tensor<1x1560x768xbf16>, tensor<1x1560x768xbf16>) -> tensor<1x1560x768xbf16>
    %shared_out = "dit.linear"(%shared_act, %shared_down_w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x1560x768xbf16>, tensor<2048x768xbf16>) -> tensor<1x1560x2048xbf16>
    // out = out + self.shared_experts(hidden_states)
    %y = "dit.add"(%routed_3d, %shared_out) : (tensor<1x1560x2048xbf16>, tensor<1x1560x2048xbf16>) -> tensor<1x1560x2048xbf16>
    func.return %y : tensor<1x1560x2048xbf16>
  }
}
