// RUN: dit-opt %s | dit-opt | FileCheck %s
// RUN: dit-opt %s | dit-opt | FileCheck %s --check-prefix=OPS
//
// sd35_joint_block.mlir -- one Stable Diffusion 3.5-large MMDiT block (JointTransformerBlock) in
// the dit dialect, as a frontend would emit it: primitive ops only, nothing fused. The input
// later passes raise and fuse (dit.rms_norm, dit.ada_layer_norm, dit.fast_gelu, linear + GELU,
// ...); RMSNorm is spelled out the way diffusers computes it. Same conventions as
// examples/flux_double_block.mlir.
//
// Follows diffusers v0.32.2, written in the order the model code computes it:
//   models/attention.py                       JointTransformerBlock.forward (context_pre_only=False,
//                                             use_dual_attention=False), FeedForward("gelu-approximate")
//   models/normalization.py                   AdaLayerNormZero (norm1, norm1_context), RMSNorm
//   models/attention_processor.py             Attention(added_kv_proj_dim=2432, qk_norm="rms_norm")
//                                             with JointAttnProcessor2_0 (BNSD layout)
//   models/transformers/transformer_sd3.py    SD3Transformer2DModel builds the blocks
// SD3.5-large config: 38 layers, 38 heads x 64 = 2432, qk_norm "rms_norm", no dual-attention
// layers (those are SD3.5-medium's SD35AdaLayerNormZeroX + attn2). This is one of blocks 0..36;
// the last block (context_pre_only=True: AdaLayerNormContinuous for the context, no to_add_out,
// no context FFN) is not this graph. SD3 has no RoPE (positions come from PatchEmbed).
// JointTransformerBlock and JointAttnProcessor2_0 are unchanged through v0.35.2; newer
// diffusers RMSNorm calls torch_npu.npu_rms_norm when torch_npu is present (one fused op).
//
// Configuration: hidden 2432, 38 heads x 64, FFN 4x = 9728, eps 1e-6; batch 1,
// image 1024x1024 -> 128x128 latent, 2x2 patches -> 4096 tokens; text 77 CLIP (L+G, padded to
// 4096 channels) + 256 T5 (max_sequence_length default) = 333 tokens, projected to 2432 by
// context_embedder. Joint sequence 4096 + 333 = 4429, image first.
// Activations and weights bf16 (linear weight [N, K], bias [N], RMSNorm gamma [64]).
// Precision follows the model code: RMSNorm computes in f32 via explicit casts; layer_norm,
// attention and gelu keep bf16 in and out.
// Returns (encoder_hidden_states, hidden_states) in diffusers' order.
//
// Left out: computing temb (time_text_embed) and the patch/context embedders -- arguments;
// Dropout (p = 0, inference) and the bf16 -> bf16 `.to(query.dtype)` (no-ops); attention mask
// (none); feed-forward chunking (_chunk_size None by default); IP-adapter, LoRA scaling and
// the fused-QKV processor.
//
// 111 ops (including the 3 arith.constant scalars; func.return not counted):
// 14 dit.linear, 1 dit.attention, 2 dit.gelu, 4 dit.rsqrt, 4 dit.layer_norm.

// CHECK-LABEL: func.func @sd35_joint_block
// CHECK-COUNT-14: "dit.linear"
// CHECK-NOT: "dit.linear"
// CHECK: return

// OPS-LABEL: func.func @sd35_joint_block
// OPS-COUNT-2: "dit.silu"
// OPS-COUNT-4: "dit.rsqrt"
// OPS: "dit.attention"{{.*}}scale = 1.250000e-01 : f32{{.*}} -> tensor<1x38x4429x64xbf16>
// OPS-NOT: "dit.attention"
// OPS-COUNT-2: "dit.gelu"{{.*}}approximate = "tanh"
// OPS-NOT: "dit.gelu"
// OPS: return

module {
  func.func @sd35_joint_block(
      %hidden_states: tensor<1x4096x2432xbf16>,                              // image stream (pos_embed: 128x128 latent, 2x2 patches -> 4096 tokens)
      %encoder_hidden_states: tensor<1x333x2432xbf16>,                       // text stream (77 CLIP-L/G + 256 T5 tokens, after context_embedder)
      %temb: tensor<1x2432xbf16>,                                            // timestep + pooled-text embedding (time_text_embed)
      %norm1_linear_weight: tensor<14592x2432xbf16>,                         // norm1.linear.weight
      %norm1_linear_bias: tensor<14592xbf16>,                                // norm1.linear.bias
      %norm1_context_linear_weight: tensor<14592x2432xbf16>,                 // norm1_context.linear.weight
      %norm1_context_linear_bias: tensor<14592xbf16>,                        // norm1_context.linear.bias
      %attn_to_q_weight: tensor<2432x2432xbf16>,                             // attn.to_q.weight
      %attn_to_q_bias: tensor<2432xbf16>,                                    // attn.to_q.bias
      %attn_to_k_weight: tensor<2432x2432xbf16>,                             // attn.to_k.weight
      %attn_to_k_bias: tensor<2432xbf16>,                                    // attn.to_k.bias
      %attn_to_v_weight: tensor<2432x2432xbf16>,                             // attn.to_v.weight
      %attn_to_v_bias: tensor<2432xbf16>,                                    // attn.to_v.bias
      %attn_norm_q_weight: tensor<64xbf16>,                                  // attn.norm_q.weight
      %attn_norm_k_weight: tensor<64xbf16>,                                  // attn.norm_k.weight
      %attn_add_q_proj_weight: tensor<2432x2432xbf16>,                       // attn.add_q_proj.weight
      %attn_add_q_proj_bias: tensor<2432xbf16>,                              // attn.add_q_proj.bias
      %attn_add_k_proj_weight: tensor<2432x2432xbf16>,                       // attn.add_k_proj.weight
      %attn_add_k_proj_bias: tensor<2432xbf16>,                              // attn.add_k_proj.bias
      %attn_add_v_proj_weight: tensor<2432x2432xbf16>,                       // attn.add_v_proj.weight
      %attn_add_v_proj_bias: tensor<2432xbf16>,                              // attn.add_v_proj.bias
      %attn_norm_added_q_weight: tensor<64xbf16>,                            // attn.norm_added_q.weight
      %attn_norm_added_k_weight: tensor<64xbf16>,                            // attn.norm_added_k.weight
      %attn_to_out_0_weight: tensor<2432x2432xbf16>,                         // attn.to_out.0.weight
      %attn_to_out_0_bias: tensor<2432xbf16>,                                // attn.to_out.0.bias
      %attn_to_add_out_weight: tensor<2432x2432xbf16>,                       // attn.to_add_out.weight
      %attn_to_add_out_bias: tensor<2432xbf16>,                              // attn.to_add_out.bias
      %ff_net_0_proj_weight: tensor<9728x2432xbf16>,                         // ff.net.0.proj.weight
      %ff_net_0_proj_bias: tensor<9728xbf16>,                                // ff.net.0.proj.bias
      %ff_net_2_weight: tensor<2432x9728xbf16>,                              // ff.net.2.weight
      %ff_net_2_bias: tensor<2432xbf16>,                                     // ff.net.2.bias
      %ff_context_net_0_proj_weight: tensor<9728x2432xbf16>,                 // ff_context.net.0.proj.weight
      %ff_context_net_0_proj_bias: tensor<9728xbf16>,                        // ff_context.net.0.proj.bias
      %ff_context_net_2_weight: tensor<2432x9728xbf16>,                      // ff_context.net.2.weight
      %ff_context_net_2_bias: tensor<2432xbf16>                              // ff_context.net.2.bias
  ) -> (tensor<1x333x2432xbf16>, tensor<1x4096x2432xbf16>) {
    // ---- scalar constants --------------------------------------------------
    %one = arith.constant dense<1.000000e+00> : tensor<bf16>
    %two = arith.constant dense<2.000000e+00> : tensor<f32>
    %rms_eps = arith.constant dense<1.000000e-06> : tensor<f32>

    // ==== norm1(hidden_states, emb=temb) =====
    // norm1 = AdaLayerNormZero(2432): emb = linear(silu(temb)); 6-way chunk
    %img_silu = "dit.silu"(%temb) : (tensor<1x2432xbf16>) -> tensor<1x2432xbf16>
    %img_emb = "dit.linear"(%img_silu, %norm1_linear_weight, %norm1_linear_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x2432xbf16>, tensor<14592x2432xbf16>, tensor<14592xbf16>) -> tensor<1x14592xbf16>
    %img_shift_msa, %img_scale_msa, %img_gate_msa, %img_shift_mlp, %img_scale_mlp, %img_gate_mlp = "dit.split"(%img_emb) {dim = 1 : i64, sizes = array<i64: 2432, 2432, 2432, 2432, 2432, 2432>} : (tensor<1x14592xbf16>) -> (tensor<1x2432xbf16>, tensor<1x2432xbf16>, tensor<1x2432xbf16>, tensor<1x2432xbf16>, tensor<1x2432xbf16>, tensor<1x2432xbf16>)
    // norm1.norm (LayerNorm, no affine, eps 1e-6); x * (1 + scale_msa[:, None]) + shift_msa[:, None]
    %img_norm1 = "dit.layer_norm"(%hidden_states) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x4096x2432xbf16>) -> tensor<1x4096x2432xbf16>
    %img_msa_scale_b = "dit.reshape"(%img_scale_msa) : (tensor<1x2432xbf16>) -> tensor<1x1x2432xbf16>
    %img_msa_one_plus_scale = "dit.add"(%one, %img_msa_scale_b) : (tensor<bf16>, tensor<1x1x2432xbf16>) -> tensor<1x1x2432xbf16>
    %img_msa_scaled = "dit.mul"(%img_norm1, %img_msa_one_plus_scale) : (tensor<1x4096x2432xbf16>, tensor<1x1x2432xbf16>) -> tensor<1x4096x2432xbf16>
    %img_msa_shift_b = "dit.reshape"(%img_shift_msa) : (tensor<1x2432xbf16>) -> tensor<1x1x2432xbf16>
    %img_msa_mod = "dit.add"(%img_msa_scaled, %img_msa_shift_b) : (tensor<1x4096x2432xbf16>, tensor<1x1x2432xbf16>) -> tensor<1x4096x2432xbf16>

    // ==== norm1_context(encoder_hidden_states, emb=temb) (context_pre_only=False) =====
    // norm1_context = AdaLayerNormZero(2432): emb = linear(silu(temb)); 6-way chunk
    %txt_silu = "dit.silu"(%temb) : (tensor<1x2432xbf16>) -> tensor<1x2432xbf16>
    %txt_emb = "dit.linear"(%txt_silu, %norm1_context_linear_weight, %norm1_context_linear_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x2432xbf16>, tensor<14592x2432xbf16>, tensor<14592xbf16>) -> tensor<1x14592xbf16>
    %txt_shift_msa, %txt_scale_msa, %txt_gate_msa, %txt_shift_mlp, %txt_scale_mlp, %txt_gate_mlp = "dit.split"(%txt_emb) {dim = 1 : i64, sizes = array<i64: 2432, 2432, 2432, 2432, 2432, 2432>} : (tensor<1x14592xbf16>) -> (tensor<1x2432xbf16>, tensor<1x2432xbf16>, tensor<1x2432xbf16>, tensor<1x2432xbf16>, tensor<1x2432xbf16>, tensor<1x2432xbf16>)
    // norm1_context.norm (LayerNorm, no affine, eps 1e-6); x * (1 + scale_msa[:, None]) + shift_msa[:, None]
    %txt_norm1 = "dit.layer_norm"(%encoder_hidden_states) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x333x2432xbf16>) -> tensor<1x333x2432xbf16>
    %txt_msa_scale_b = "dit.reshape"(%txt_scale_msa) : (tensor<1x2432xbf16>) -> tensor<1x1x2432xbf16>
    %txt_msa_one_plus_scale = "dit.add"(%one, %txt_msa_scale_b) : (tensor<bf16>, tensor<1x1x2432xbf16>) -> tensor<1x1x2432xbf16>
    %txt_msa_scaled = "dit.mul"(%txt_norm1, %txt_msa_one_plus_scale) : (tensor<1x333x2432xbf16>, tensor<1x1x2432xbf16>) -> tensor<1x333x2432xbf16>
    %txt_msa_shift_b = "dit.reshape"(%txt_shift_msa) : (tensor<1x2432xbf16>) -> tensor<1x1x2432xbf16>
    %txt_msa_mod = "dit.add"(%txt_msa_scaled, %txt_msa_shift_b) : (tensor<1x333x2432xbf16>, tensor<1x1x2432xbf16>) -> tensor<1x333x2432xbf16>

    // ==== attn = Attention(added_kv_proj_dim=2432, qk_norm="rms_norm", context_pre_only=False,
    //                      processor=JointAttnProcessor2_0) ======
    // ---- sample (image) projections: to_q/to_k/to_v, view(1, -1, 38, 64).transpose(1, 2)
    %img_q_proj = "dit.linear"(%img_msa_mod, %attn_to_q_weight, %attn_to_q_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4096x2432xbf16>, tensor<2432x2432xbf16>, tensor<2432xbf16>) -> tensor<1x4096x2432xbf16>
    %img_k_proj = "dit.linear"(%img_msa_mod, %attn_to_k_weight, %attn_to_k_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4096x2432xbf16>, tensor<2432x2432xbf16>, tensor<2432xbf16>) -> tensor<1x4096x2432xbf16>
    %img_v_proj = "dit.linear"(%img_msa_mod, %attn_to_v_weight, %attn_to_v_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4096x2432xbf16>, tensor<2432x2432xbf16>, tensor<2432xbf16>) -> tensor<1x4096x2432xbf16>
    %img_q_bshd = "dit.reshape"(%img_q_proj) : (tensor<1x4096x2432xbf16>) -> tensor<1x4096x38x64xbf16>
    %img_q = "dit.transpose"(%img_q_bshd) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4096x38x64xbf16>) -> tensor<1x38x4096x64xbf16>
    %img_k_bshd = "dit.reshape"(%img_k_proj) : (tensor<1x4096x2432xbf16>) -> tensor<1x4096x38x64xbf16>
    %img_k = "dit.transpose"(%img_k_bshd) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4096x38x64xbf16>) -> tensor<1x38x4096x64xbf16>
    %img_v_bshd = "dit.reshape"(%img_v_proj) : (tensor<1x4096x2432xbf16>) -> tensor<1x4096x38x64xbf16>
    %img_v = "dit.transpose"(%img_v_bshd) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4096x38x64xbf16>) -> tensor<1x38x4096x64xbf16>
    // attn.norm_q: diffusers RMSNorm(64, eps=1e-6), decomposed: var = x.float().pow(2).mean(-1, keepdim)
    // x * rsqrt(var + eps) promotes bf16 x f32 to f32 (so it reads the f32 x); .to(bf16); * weight
    %img_q_rms_f32 = "dit.cast"(%img_q) : (tensor<1x38x4096x64xbf16>) -> tensor<1x38x4096x64xf32>
    %img_q_rms_sq = "dit.pow"(%img_q_rms_f32, %two) : (tensor<1x38x4096x64xf32>, tensor<f32>) -> tensor<1x38x4096x64xf32>
    %img_q_rms_var = "dit.reduce_mean"(%img_q_rms_sq) {dims = array<i64: 3>, keepdim = true} : (tensor<1x38x4096x64xf32>) -> tensor<1x38x4096x1xf32>
    %img_q_rms_var_eps = "dit.add"(%img_q_rms_var, %rms_eps) : (tensor<1x38x4096x1xf32>, tensor<f32>) -> tensor<1x38x4096x1xf32>
    %img_q_rms_rstd = "dit.rsqrt"(%img_q_rms_var_eps) : (tensor<1x38x4096x1xf32>) -> tensor<1x38x4096x1xf32>
    %img_q_rms_scaled = "dit.mul"(%img_q_rms_f32, %img_q_rms_rstd) : (tensor<1x38x4096x64xf32>, tensor<1x38x4096x1xf32>) -> tensor<1x38x4096x64xf32>
    %img_q_rms_bf16 = "dit.cast"(%img_q_rms_scaled) : (tensor<1x38x4096x64xf32>) -> tensor<1x38x4096x64xbf16>
    %img_q_rms_normed = "dit.mul"(%img_q_rms_bf16, %attn_norm_q_weight) : (tensor<1x38x4096x64xbf16>, tensor<64xbf16>) -> tensor<1x38x4096x64xbf16>
    // attn.norm_k: diffusers RMSNorm(64, eps=1e-6), decomposed: var = x.float().pow(2).mean(-1, keepdim)
    // x * rsqrt(var + eps) promotes bf16 x f32 to f32 (so it reads the f32 x); .to(bf16); * weight
    %img_k_rms_f32 = "dit.cast"(%img_k) : (tensor<1x38x4096x64xbf16>) -> tensor<1x38x4096x64xf32>
    %img_k_rms_sq = "dit.pow"(%img_k_rms_f32, %two) : (tensor<1x38x4096x64xf32>, tensor<f32>) -> tensor<1x38x4096x64xf32>
    %img_k_rms_var = "dit.reduce_mean"(%img_k_rms_sq) {dims = array<i64: 3>, keepdim = true} : (tensor<1x38x4096x64xf32>) -> tensor<1x38x4096x1xf32>
    %img_k_rms_var_eps = "dit.add"(%img_k_rms_var, %rms_eps) : (tensor<1x38x4096x1xf32>, tensor<f32>) -> tensor<1x38x4096x1xf32>
    %img_k_rms_rstd = "dit.rsqrt"(%img_k_rms_var_eps) : (tensor<1x38x4096x1xf32>) -> tensor<1x38x4096x1xf32>
    %img_k_rms_scaled = "dit.mul"(%img_k_rms_f32, %img_k_rms_rstd) : (tensor<1x38x4096x64xf32>, tensor<1x38x4096x1xf32>) -> tensor<1x38x4096x64xf32>
    %img_k_rms_bf16 = "dit.cast"(%img_k_rms_scaled) : (tensor<1x38x4096x64xf32>) -> tensor<1x38x4096x64xbf16>
    %img_k_rms_normed = "dit.mul"(%img_k_rms_bf16, %attn_norm_k_weight) : (tensor<1x38x4096x64xbf16>, tensor<64xbf16>) -> tensor<1x38x4096x64xbf16>

    // ---- context (text) projections: add_q_proj/add_k_proj/add_v_proj, same view/transpose
    %txt_q_proj = "dit.linear"(%txt_msa_mod, %attn_add_q_proj_weight, %attn_add_q_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x333x2432xbf16>, tensor<2432x2432xbf16>, tensor<2432xbf16>) -> tensor<1x333x2432xbf16>
    %txt_k_proj = "dit.linear"(%txt_msa_mod, %attn_add_k_proj_weight, %attn_add_k_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x333x2432xbf16>, tensor<2432x2432xbf16>, tensor<2432xbf16>) -> tensor<1x333x2432xbf16>
    %txt_v_proj = "dit.linear"(%txt_msa_mod, %attn_add_v_proj_weight, %attn_add_v_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x333x2432xbf16>, tensor<2432x2432xbf16>, tensor<2432xbf16>) -> tensor<1x333x2432xbf16>
    %txt_q_bshd = "dit.reshape"(%txt_q_proj) : (tensor<1x333x2432xbf16>) -> tensor<1x333x38x64xbf16>
    %txt_q = "dit.transpose"(%txt_q_bshd) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x333x38x64xbf16>) -> tensor<1x38x333x64xbf16>
    %txt_k_bshd = "dit.reshape"(%txt_k_proj) : (tensor<1x333x2432xbf16>) -> tensor<1x333x38x64xbf16>
    %txt_k = "dit.transpose"(%txt_k_bshd) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x333x38x64xbf16>) -> tensor<1x38x333x64xbf16>
    %txt_v_bshd = "dit.reshape"(%txt_v_proj) : (tensor<1x333x2432xbf16>) -> tensor<1x333x38x64xbf16>
    %txt_v = "dit.transpose"(%txt_v_bshd) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x333x38x64xbf16>) -> tensor<1x38x333x64xbf16>
    // attn.norm_added_q: diffusers RMSNorm(64, eps=1e-6), decomposed: var = x.float().pow(2).mean(-1, keepdim)
    // x * rsqrt(var + eps) promotes bf16 x f32 to f32 (so it reads the f32 x); .to(bf16); * weight
    %txt_q_rms_f32 = "dit.cast"(%txt_q) : (tensor<1x38x333x64xbf16>) -> tensor<1x38x333x64xf32>
    %txt_q_rms_sq = "dit.pow"(%txt_q_rms_f32, %two) : (tensor<1x38x333x64xf32>, tensor<f32>) -> tensor<1x38x333x64xf32>
    %txt_q_rms_var = "dit.reduce_mean"(%txt_q_rms_sq) {dims = array<i64: 3>, keepdim = true} : (tensor<1x38x333x64xf32>) -> tensor<1x38x333x1xf32>
    %txt_q_rms_var_eps = "dit.add"(%txt_q_rms_var, %rms_eps) : (tensor<1x38x333x1xf32>, tensor<f32>) -> tensor<1x38x333x1xf32>
    %txt_q_rms_rstd = "dit.rsqrt"(%txt_q_rms_var_eps) : (tensor<1x38x333x1xf32>) -> tensor<1x38x333x1xf32>
    %txt_q_rms_scaled = "dit.mul"(%txt_q_rms_f32, %txt_q_rms_rstd) : (tensor<1x38x333x64xf32>, tensor<1x38x333x1xf32>) -> tensor<1x38x333x64xf32>
    %txt_q_rms_bf16 = "dit.cast"(%txt_q_rms_scaled) : (tensor<1x38x333x64xf32>) -> tensor<1x38x333x64xbf16>
    %txt_q_rms_normed = "dit.mul"(%txt_q_rms_bf16, %attn_norm_added_q_weight) : (tensor<1x38x333x64xbf16>, tensor<64xbf16>) -> tensor<1x38x333x64xbf16>
    // attn.norm_added_k: diffusers RMSNorm(64, eps=1e-6), decomposed: var = x.float().pow(2).mean(-1, keepdim)
    // x * rsqrt(var + eps) promotes bf16 x f32 to f32 (so it reads the f32 x); .to(bf16); * weight
    %txt_k_rms_f32 = "dit.cast"(%txt_k) : (tensor<1x38x333x64xbf16>) -> tensor<1x38x333x64xf32>
    %txt_k_rms_sq = "dit.pow"(%txt_k_rms_f32, %two) : (tensor<1x38x333x64xf32>, tensor<f32>) -> tensor<1x38x333x64xf32>
    %txt_k_rms_var = "dit.reduce_mean"(%txt_k_rms_sq) {dims = array<i64: 3>, keepdim = true} : (tensor<1x38x333x64xf32>) -> tensor<1x38x333x1xf32>
    %txt_k_rms_var_eps = "dit.add"(%txt_k_rms_var, %rms_eps) : (tensor<1x38x333x1xf32>, tensor<f32>) -> tensor<1x38x333x1xf32>
    %txt_k_rms_rstd = "dit.rsqrt"(%txt_k_rms_var_eps) : (tensor<1x38x333x1xf32>) -> tensor<1x38x333x1xf32>
    %txt_k_rms_scaled = "dit.mul"(%txt_k_rms_f32, %txt_k_rms_rstd) : (tensor<1x38x333x64xf32>, tensor<1x38x333x1xf32>) -> tensor<1x38x333x64xf32>
    %txt_k_rms_bf16 = "dit.cast"(%txt_k_rms_scaled) : (tensor<1x38x333x64xf32>) -> tensor<1x38x333x64xbf16>
    %txt_k_rms_normed = "dit.mul"(%txt_k_rms_bf16, %attn_norm_added_k_weight) : (tensor<1x38x333x64xbf16>, tensor<64xbf16>) -> tensor<1x38x333x64xbf16>

    // ---- joint sequence: torch.cat([image, text], dim=2) -> [1,38,4429,64] (image first, unlike FLUX)
    %joint_q = "dit.concat"(%img_q_rms_normed, %txt_q_rms_normed) {dim = 2 : i64} : (tensor<1x38x4096x64xbf16>, tensor<1x38x333x64xbf16>) -> tensor<1x38x4429x64xbf16>
    %joint_k = "dit.concat"(%img_k_rms_normed, %txt_k_rms_normed) {dim = 2 : i64} : (tensor<1x38x4096x64xbf16>, tensor<1x38x333x64xbf16>) -> tensor<1x38x4429x64xbf16>
    %joint_v = "dit.concat"(%img_v, %txt_v) {dim = 2 : i64} : (tensor<1x38x4096x64xbf16>, tensor<1x38x333x64xbf16>) -> tensor<1x38x4429x64xbf16>

    // ---- F.scaled_dot_product_attention(q, k, v), default scale 1/sqrt(64); no mask, no RoPE
    %attn = "dit.attention"(%joint_q, %joint_k, %joint_v) {scale = 1.250000e-01 : f32, layout = "BNSD", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x38x4429x64xbf16>, tensor<1x38x4429x64xbf16>, tensor<1x38x4429x64xbf16>) -> tensor<1x38x4429x64xbf16>
    // .transpose(1, 2).reshape(1, -1, 38 * 64); the following .to(query.dtype) is bf16 -> bf16, a no-op
    %attn_bsnd = "dit.transpose"(%attn) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x38x4429x64xbf16>) -> tensor<1x4429x38x64xbf16>
    %attn_flat = "dit.reshape"(%attn_bsnd) : (tensor<1x4429x38x64xbf16>) -> tensor<1x4429x2432xbf16>
    // split back: hidden_states = out[:, :4096], encoder_hidden_states = out[:, 4096:]
    %img_attn = "dit.slice"(%attn_flat) {dim = 1 : i64, start = 0 : i64, end = 4096 : i64, step = 1 : i64} : (tensor<1x4429x2432xbf16>) -> tensor<1x4096x2432xbf16>
    %txt_attn = "dit.slice"(%attn_flat) {dim = 1 : i64, start = 4096 : i64, end = 4429 : i64, step = 1 : i64} : (tensor<1x4429x2432xbf16>) -> tensor<1x333x2432xbf16>
    // attn.to_add_out (not context_pre_only), then attn.to_out[0] (to_out[1] is Dropout)
    %txt_attn_out = "dit.linear"(%txt_attn, %attn_to_add_out_weight, %attn_to_add_out_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x333x2432xbf16>, tensor<2432x2432xbf16>, tensor<2432xbf16>) -> tensor<1x333x2432xbf16>
    %img_attn_out = "dit.linear"(%img_attn, %attn_to_out_0_weight, %attn_to_out_0_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4096x2432xbf16>, tensor<2432x2432xbf16>, tensor<2432xbf16>) -> tensor<1x4096x2432xbf16>

    // ==== image stream: gated residuals and feed-forward =====
    // hidden_states = hidden_states + gate_msa.unsqueeze(1) * attn_output
    %img_gate_msa_b = "dit.reshape"(%img_gate_msa) : (tensor<1x2432xbf16>) -> tensor<1x1x2432xbf16>
    %img_attn_gated = "dit.mul"(%img_gate_msa_b, %img_attn_out) : (tensor<1x1x2432xbf16>, tensor<1x4096x2432xbf16>) -> tensor<1x4096x2432xbf16>
    %img_resid1 = "dit.add"(%hidden_states, %img_attn_gated) : (tensor<1x4096x2432xbf16>, tensor<1x4096x2432xbf16>) -> tensor<1x4096x2432xbf16>
    // norm2 (LayerNorm, no affine, eps 1e-6); * (1 + scale_mlp[:, None]) + shift_mlp[:, None]
    %img_norm2 = "dit.layer_norm"(%img_resid1) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x4096x2432xbf16>) -> tensor<1x4096x2432xbf16>
    %img_mlp_scale_b = "dit.reshape"(%img_scale_mlp) : (tensor<1x2432xbf16>) -> tensor<1x1x2432xbf16>
    %img_mlp_one_plus_scale = "dit.add"(%one, %img_mlp_scale_b) : (tensor<bf16>, tensor<1x1x2432xbf16>) -> tensor<1x1x2432xbf16>
    %img_mlp_scaled = "dit.mul"(%img_norm2, %img_mlp_one_plus_scale) : (tensor<1x4096x2432xbf16>, tensor<1x1x2432xbf16>) -> tensor<1x4096x2432xbf16>
    %img_mlp_shift_b = "dit.reshape"(%img_shift_mlp) : (tensor<1x2432xbf16>) -> tensor<1x1x2432xbf16>
    %img_mlp_mod = "dit.add"(%img_mlp_scaled, %img_mlp_shift_b) : (tensor<1x4096x2432xbf16>, tensor<1x1x2432xbf16>) -> tensor<1x4096x2432xbf16>
    // ff = FeedForward(2432, dim_out=2432, activation_fn="gelu-approximate"):
    // net.0 = GELU(proj 2432->9728, tanh), net.1 = Dropout, net.2 = Linear 9728->2432
    %img_ff_proj = "dit.linear"(%img_mlp_mod, %ff_net_0_proj_weight, %ff_net_0_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4096x2432xbf16>, tensor<9728x2432xbf16>, tensor<9728xbf16>) -> tensor<1x4096x9728xbf16>
    %img_ff_gelu = "dit.gelu"(%img_ff_proj) {approximate = "tanh"} : (tensor<1x4096x9728xbf16>) -> tensor<1x4096x9728xbf16>
    %img_ff_out = "dit.linear"(%img_ff_gelu, %ff_net_2_weight, %ff_net_2_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4096x9728xbf16>, tensor<2432x9728xbf16>, tensor<2432xbf16>) -> tensor<1x4096x2432xbf16>
    // ... + gate_mlp.unsqueeze(1) * ff_output
    %img_gate_mlp_b = "dit.reshape"(%img_gate_mlp) : (tensor<1x2432xbf16>) -> tensor<1x1x2432xbf16>
    %img_ff_gated = "dit.mul"(%img_gate_mlp_b, %img_ff_out) : (tensor<1x1x2432xbf16>, tensor<1x4096x2432xbf16>) -> tensor<1x4096x2432xbf16>
    %img_out = "dit.add"(%img_resid1, %img_ff_gated) : (tensor<1x4096x2432xbf16>, tensor<1x4096x2432xbf16>) -> tensor<1x4096x2432xbf16>

    // ==== text stream: gated residuals and feed-forward =====
    // encoder_hidden_states = encoder_hidden_states + c_gate_msa.unsqueeze(1) * context_attn_output
    %txt_gate_msa_b = "dit.reshape"(%txt_gate_msa) : (tensor<1x2432xbf16>) -> tensor<1x1x2432xbf16>
    %txt_attn_gated = "dit.mul"(%txt_gate_msa_b, %txt_attn_out) : (tensor<1x1x2432xbf16>, tensor<1x333x2432xbf16>) -> tensor<1x333x2432xbf16>
    %txt_resid1 = "dit.add"(%encoder_hidden_states, %txt_attn_gated) : (tensor<1x333x2432xbf16>, tensor<1x333x2432xbf16>) -> tensor<1x333x2432xbf16>
    // norm2_context (LayerNorm, no affine, eps 1e-6); * (1 + scale_mlp[:, None]) + shift_mlp[:, None]
    %txt_norm2 = "dit.layer_norm"(%txt_resid1) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x333x2432xbf16>) -> tensor<1x333x2432xbf16>
    %txt_mlp_scale_b = "dit.reshape"(%txt_scale_mlp) : (tensor<1x2432xbf16>) -> tensor<1x1x2432xbf16>
    %txt_mlp_one_plus_scale = "dit.add"(%one, %txt_mlp_scale_b) : (tensor<bf16>, tensor<1x1x2432xbf16>) -> tensor<1x1x2432xbf16>
    %txt_mlp_scaled = "dit.mul"(%txt_norm2, %txt_mlp_one_plus_scale) : (tensor<1x333x2432xbf16>, tensor<1x1x2432xbf16>) -> tensor<1x333x2432xbf16>
    %txt_mlp_shift_b = "dit.reshape"(%txt_shift_mlp) : (tensor<1x2432xbf16>) -> tensor<1x1x2432xbf16>
    %txt_mlp_mod = "dit.add"(%txt_mlp_scaled, %txt_mlp_shift_b) : (tensor<1x333x2432xbf16>, tensor<1x1x2432xbf16>) -> tensor<1x333x2432xbf16>
    // ff_context = FeedForward(2432, dim_out=2432, activation_fn="gelu-approximate"):
    // net.0 = GELU(proj 2432->9728, tanh), net.1 = Dropout, net.2 = Linear 9728->2432
    %txt_ff_proj = "dit.linear"(%txt_mlp_mod, %ff_context_net_0_proj_weight, %ff_context_net_0_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x333x2432xbf16>, tensor<9728x2432xbf16>, tensor<9728xbf16>) -> tensor<1x333x9728xbf16>
    %txt_ff_gelu = "dit.gelu"(%txt_ff_proj) {approximate = "tanh"} : (tensor<1x333x9728xbf16>) -> tensor<1x333x9728xbf16>
    %txt_ff_out = "dit.linear"(%txt_ff_gelu, %ff_context_net_2_weight, %ff_context_net_2_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x333x9728xbf16>, tensor<2432x9728xbf16>, tensor<2432xbf16>) -> tensor<1x333x2432xbf16>
    // ... + gate_mlp.unsqueeze(1) * ff_output
    %txt_gate_mlp_b = "dit.reshape"(%txt_gate_mlp) : (tensor<1x2432xbf16>) -> tensor<1x1x2432xbf16>
    %txt_ff_gated = "dit.mul"(%txt_gate_mlp_b, %txt_ff_out) : (tensor<1x1x2432xbf16>, tensor<1x333x2432xbf16>) -> tensor<1x333x2432xbf16>
    %txt_out = "dit.add"(%txt_resid1, %txt_ff_gated) : (tensor<1x333x2432xbf16>, tensor<1x333x2432xbf16>) -> tensor<1x333x2432xbf16>

    // return encoder_hidden_states, hidden_states  (diffusers order)
    func.return %txt_out, %img_out : tensor<1x333x2432xbf16>, tensor<1x4096x2432xbf16>
  }
}
