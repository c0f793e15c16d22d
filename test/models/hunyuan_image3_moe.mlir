// hunyuan_image3_moe.mlir -- the MoE feed-forward of a HunyuanImage-3.0 decoder layer
// (HunyuanImage3DecoderLayer.mlp = HunyuanMoE) in the dit dialect, written the way a
// grouped-GEMM frontend emits it: primitive ops only, nothing fused. One function,
// @hunyuan_image3_moe, bf16 experts.
//
// Structure from Tencent-Hunyuan/HunyuanImage-3.0 (commit
// 1d011c84a579a0292bd739a0cee2092243d73986), hunyuan_image_3/hunyuan.py:
//   HunyuanMoE.forward, moe_impl = "flashinfer" branch (the grouped-GEMM path: gate
//     topk_impl='easy', then flashinfer.fused_moe.cutlass_fused_moe on the stacked
//     gate_and_up_proj weights [E, 2I, H] and down_proj weights [E, H, I]); the "eager"
//     branch is a dense einsum dispatch with per-expert Python loop and is not modelled;
//   HunyuanTopKGate (wg = nn.Linear(hidden, num_experts, bias=False, dtype=float32)) and its
//     easy_topk: softmax(logits, dim=1), torch.topk(gates, moe_topk), divide by the top-k sum;
//   HunyuanMLP (experts and shared_mlp): hidden_act "silu" -> one gate_and_up_proj Linear
//     (hidden -> 2 * inter, bias = mlp_bias = False), x1, x2 = chunk(2, dim=2),
//     down_proj(x1 * silu(x2)). NOTE: the SiLU gate is the SECOND half (x2); the first half is
//     the up projection -- the opposite of dit.swiglu's / aclnnSwiGlu's first-half gate.
//   use_mixed_mlp_moe: output = shared_mlp(hidden_states) + combined_output.
// Sizes from sgl-project/sglang (commit 5363d853c9d68a10aa093eee5a8b8e33b72b720b),
// python/sglang/multimodal_gen/configs/models/dits/hunyuan_image3.py, HunyuanImage3ArchConfig:
// hidden_size 4096, intermediate_size 3072, num_experts 64, moe_topk 8, num_shared_expert 1,
// use_mixed_mlp_moe true, norm_topk_prob true, 32 layers; the Tencent README gives "64
// experts, 80B total, 13B active". HunyuanMLP takes config.moe_intermediate_size when it is
// set, else intermediate_size; the tencent/HunyuanImage-3.0 config.json itself was not read, so
// the expert inner 3072 rests on the sglang config (both inner sizes are 3072 there).
// Shared expert inner = 3072 x num_shared_expert 1 = 3072.
//
// Tokens: 3840 = the image tokens of a 1280x768 image (VAE downsample 16, patch_size 1 ->
// 80x48); the text / prompt tokens of the autoregressive sequence are left out (the MoE runs
// on every token, so they would only add rows). 1024x1024 (4096 tokens) was not used because
// 4096 is also the hidden size, and the shape-reduced copy needs one meaning per number.
// Top-8 routing gives 30720 (token, expert) rows. Batch 1, bf16 activations; the gate runs
// in f32 (wg is an f32 Linear, hidden_states.float()).
//
// Simplified:
//   * cutlass_fused_moe (one fused kernel on CUDA) is written as its parts: token permute
//     (dit.opaque "moe_token_permute"), grouped matmul on [w_gate_up]^T, split + silu(second
//     half) * first half, grouped matmul on down^T, weighted un-permute + sum over the 8 picks
//     (dit.opaque "moe_token_unpermute"), as in hidream_moe_block.mlir (cf. torch_npu
//     npu_moe_token_permute / npu_moe_token_unpermute; the NPU path is npu_grouped_matmul).
//   * easy_topk's torch.clamp(weight_sums, min=1e-8) is left out (the dialect has no clamp; the
//     sum of the 8 largest of 64 softmax probabilities is >= 1/8, so the clamp never binds).
//   * weights are function arguments: the routed experts' gate_and_up_proj.weight [2I, H] and
//     down_proj.weight [H, I] stacked and transposed to grouped_matmul's [E, K, N] (the
//     frontend's weight-layout step); the shared MLP and the gate stay dit.linear [N, K].
//   * left out around the MoE: post_attention_layernorm before it (input x is its output), the
//     residual add after it, the attention half of the layer.
//
// 23 ops (func.return not counted).
//
// RUN: dit-opt %s | dit-opt | FileCheck %s
// RUN: dit-opt %s --dit-verify -o /dev/null
// RUN: dit-opt %s --fuse-all | dit-opt --dit-verify -o /dev/null
// RUN: dit-opt %s --fuse-all | FileCheck %s --check-prefix=FUSED
// CHECK-LABEL: func.func @hunyuan_image3_moe(
// CHECK: "dit.linear"{{.*}}tensor<6144x4096xbf16>
// CHECK-NEXT: "dit.split"{{.*}}sizes = array<i64: 3072, 3072>
// CHECK-NEXT: "dit.silu"(%{{.*}}#1)
// CHECK: "dit.softmax"{{.*}}dim = 1
// CHECK-NEXT: "dit.opaque"{{.*}}name = "topk"{{.*}} -> (tensor<3840x8xf32>, tensor<3840x8xi64>)
// CHECK: "dit.opaque"{{.*}}name = "moe_token_permute"{{.*}}num_experts = 64
// CHECK-NEXT: "dit.grouped_matmul"{{.*}}tensor<64x4096x6144xbf16>{{.*}} -> tensor<30720x6144xbf16>
// CHECK-NEXT: "dit.split"{{.*}}sizes = array<i64: 3072, 3072>
// CHECK-NEXT: "dit.silu"(%{{.*}}#1)
// CHECK-NEXT: "dit.mul"
// CHECK-NEXT: "dit.grouped_matmul"{{.*}} -> tensor<30720x4096xbf16>
// CHECK-NEXT: "dit.opaque"{{.*}}name = "moe_token_unpermute"
// CHECK: return
//
// --fuse-all at the real widths (ascend910b): 19 -> 15 kernels. Shared MLP: first half *
// silu(second half) of one linear -> dit.swiglu on the linear with its weight row halves
// swapped (slice + concat, a load-time pre-pack for a constant weight). Routed experts: the
// swap is done only for dit.linear producers, not for dit.grouped_matmul, so the second-half
// gate after the [E, H, 2I] grouped matmul becomes the two-input dit.silu_mul (one generated
// kernel, which dit-auto-fuse opens with the split: it reads the halves in place) instead of
// dit.swiglu; no dit.grouped_matmul_swiglu_quant (bf16 experts).
// FUSED-LABEL: func.func @hunyuan_image3_moe(
// FUSED: "dit.concat"{{.*}} -> tensor<6144x4096xbf16>
// FUSED-NEXT: "dit.linear"{{.*}} -> tensor<1x3840x6144xbf16>
// FUSED-NEXT: "dit.swiglu"{{.*}} -> tensor<1x3840x3072xbf16>
// FUSED: "dit.grouped_matmul"{{.*}} -> tensor<30720x6144xbf16>
// FUSED-NEXT: "dit.fused"
// FUSED-NEXT: ^bb0
// FUSED-NEXT: "dit.split"
// FUSED: "dit.silu_mul"
// FUSED: "dit.grouped_matmul"{{.*}} -> tensor<30720x4096xbf16>
// FUSED-NOT: "dit.silu"(
// FUSED: return

module {
  func.func @hunyuan_image3_moe(
      %x: tensor<1x3840x4096xbf16>,            // post_attention_layernorm(hidden_states), 3840 image tokens
      %shared_w13: tensor<6144x4096xbf16>,     // mlp.shared_mlp.gate_and_up_proj.weight [2 x 3072, 4096]: rows [:3072] up (x1), [3072:] gate (x2)
      %shared_w2: tensor<4096x3072xbf16>,      // mlp.shared_mlp.down_proj.weight
      %gate_wg: tensor<64x4096xf32>,           // mlp.gate.wg.weight [num_experts, hidden], float32
      %experts_w13: tensor<64x4096x6144xbf16>, // mlp.experts[e].gate_and_up_proj.weight^T stacked: [e, :, :3072] up, [e, :, 3072:] gate
      %experts_w2: tensor<64x3072x4096xbf16>   // mlp.experts[e].down_proj.weight^T stacked
  ) -> tensor<1x3840x4096xbf16> {
    // ==== shared_mlp: HunyuanMLP(is_shared_mlp=True), inner 3072 x 1 ========================
    // gate_and_up_proj = self.gate_and_up_proj(x); x1, x2 = gate_and_up_proj.chunk(2, dim=2)
    %shared_h13 = "dit.linear"(%x, %shared_w13) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x3840x4096xbf16>, tensor<6144x4096xbf16>) -> tensor<1x3840x6144xbf16>
    %shared_x1, %shared_x2 = "dit.split"(%shared_h13) {dim = 2 : i64, sizes = array<i64: 3072, 3072>} : (tensor<1x3840x6144xbf16>) -> (tensor<1x3840x3072xbf16>, tensor<1x3840x3072xbf16>)
    // down_proj(x1 * self.act_fn(x2)): the gate is the second half
    %shared_x2_silu = "dit.silu"(%shared_x2) : (tensor<1x3840x3072xbf16>) -> tensor<1x3840x3072xbf16>
    %shared_act = "dit.mul"(%shared_x1, %shared_x2_silu) : (tensor<1x3840x3072xbf16>, tensor<1x3840x3072xbf16>) -> tensor<1x3840x3072xbf16>
    %shared_out = "dit.linear"(%shared_act, %shared_w2) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x3840x3072xbf16>, tensor<4096x3072xbf16>) -> tensor<1x3840x4096xbf16>

    // ==== gate: HunyuanTopKGate.forward(hidden_states, topk_impl='easy') ==================
    // hidden_states = hidden_states.reshape(-1, hidden_size); wg is float32 -> hidden_states.float(); logits = self.wg(hidden_states)
    %gate_x = "dit.reshape"(%x) : (tensor<1x3840x4096xbf16>) -> tensor<3840x4096xbf16>
    %gate_x_f32 = "dit.cast"(%gate_x) : (tensor<3840x4096xbf16>) -> tensor<3840x4096xf32>
    %logits = "dit.linear"(%gate_x_f32, %gate_wg) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<3840x4096xf32>, tensor<64x4096xf32>) -> tensor<3840x64xf32>
    // easy_topk: gates = F.softmax(logits, dim=1); topk_weight_1, expert_index = torch.topk(gates, moe_topk)
    %gates = "dit.softmax"(%logits) {dim = 1 : i64} : (tensor<3840x64xf32>) -> tensor<3840x64xf32>
    %topk_weight_1, %expert_index = "dit.opaque"(%gates) {name = "topk", k = 8 : i64, dim = -1 : i64, sorted = true} : (tensor<3840x64xf32>) -> (tensor<3840x8xf32>, tensor<3840x8xi64>)
    // weight_sums = topk_weight_1.sum(dim=1, keepdim=True) (clamp(min=1e-8) left out); topk_weight = topk_weight_1 / weight_sums
    %weight_sums = "dit.reduce_sum"(%topk_weight_1) {dims = array<i64: 1>, keepdim = true} : (tensor<3840x8xf32>) -> tensor<3840x1xf32>
    %topk_weight = "dit.div"(%topk_weight_1, %weight_sums) : (tensor<3840x8xf32>, tensor<3840x1xf32>) -> tensor<3840x8xf32>

    // ==== routed experts: cutlass_fused_moe(reshaped_input, topk_index, topk_weight.float(), moe_weight, moe_weight_2)
    // reshaped_input = hidden_states.reshape(-1, hidden_size)
    %tokens = "dit.reshape"(%x) : (tensor<1x3840x4096xbf16>) -> tensor<3840x4096xbf16>
    %flat_index = "dit.reshape"(%expert_index) : (tensor<3840x8xi64>) -> tensor<30720xi64>
    // dispatch: the (token, expert) pairs sorted by expert -- opaque
    %perm_x, %sorted_idx, %tokens_per_expert = "dit.opaque"(%tokens, %flat_index) {name = "moe_token_permute", num_experts = 64 : i64} : (tensor<3840x4096xbf16>, tensor<30720xi64>) -> (tensor<30720x4096xbf16>, tensor<30720xi64>, tensor<64xi64>)
    // FC1: every expert's gate_and_up_proj, one grouped matmul on the stacked [E, H, 2I] weight
    %h13 = "dit.grouped_matmul"(%perm_x, %experts_w13, %tokens_per_expert) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<30720x4096xbf16>, tensor<64x4096x6144xbf16>, tensor<64xi64>) -> tensor<30720x6144xbf16>
    // HunyuanMLP activation: x1, x2 = chunk(2); x1 * silu(x2)
    %h_x1, %h_x2 = "dit.split"(%h13) {dim = 1 : i64, sizes = array<i64: 3072, 3072>} : (tensor<30720x6144xbf16>) -> (tensor<30720x3072xbf16>, tensor<30720x3072xbf16>)
    %h_x2_silu = "dit.silu"(%h_x2) : (tensor<30720x3072xbf16>) -> tensor<30720x3072xbf16>
    %h_act = "dit.mul"(%h_x1, %h_x2_silu) : (tensor<30720x3072xbf16>, tensor<30720x3072xbf16>) -> tensor<30720x3072xbf16>
    // FC2: every expert's down_proj, one grouped matmul
    %expert_out = "dit.grouped_matmul"(%h_act, %experts_w2, %tokens_per_expert) {group_list_type = "count", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<30720x3072xbf16>, tensor<64x3072x4096xbf16>, tensor<64xi64>) -> tensor<30720x4096xbf16>
    // combine: un-permute, weight by topk_weight (f32) and sum the 8 picks per token -- opaque
    %combined = "dit.opaque"(%expert_out, %sorted_idx, %topk_weight) {name = "moe_token_unpermute"} : (tensor<30720x4096xbf16>, tensor<30720xi64>, tensor<3840x8xf32>) -> tensor<3840x4096xbf16>
    // combined_output = combined_output.reshape(bsz, seq_len, hidden_size)
    %combined_3d = "dit.reshape"(%combined) : (tensor<3840x4096xbf16>) -> tensor<1x3840x4096xbf16>
    // use_mixed_mlp_moe: output = hidden_states_mlp + combined_output
    %y = "dit.add"(%shared_out, %combined_3d) : (tensor<1x3840x4096xbf16>, tensor<1x3840x4096xbf16>) -> tensor<1x3840x4096xbf16>
    func.return %y : tensor<1x3840x4096xbf16>
  }
}
