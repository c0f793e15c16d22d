// hunyuan_video_double_block.mlir -- HunyuanVideo transformer blocks in the dit dialect, as a
// frontend would emit them: primitive ops only, nothing fused; RMSNorm and RoPE spelled out the
// way the model code computes them, casts included. Two functions:
//   @hunyuan_video_double_block  HunyuanVideoTransformerBlock (dual-stream, 20 in the model)
//   @hunyuan_video_single_block  HunyuanVideoSingleTransformerBlock (single-stream, 40 in the model)
//
// Follows diffusers 0.40.0.dev0 (commit 58eb52c0), in the order the model code computes it:
//   models/transformers/transformer_hunyuan_video.py  HunyuanVideoTransformerBlock.forward,
//                                                     HunyuanVideoSingleTransformerBlock.forward,
//                                                     HunyuanVideoAttnProcessor2_0,
//                                                     HunyuanVideoTransformer3DModel.forward (mask)
//   models/normalization.py                           AdaLayerNormZero / AdaLayerNormZeroSingle
//                                                     (norm_type="layer_norm"), RMSNorm (generic branch)
//   models/attention_processor.py                     Attention(qk_norm="rms_norm", eps=1e-6, bias=True)
//   models/embeddings.py                              apply_rotary_emb(use_real=True, unbind_dim=-1,
//                                                     sequence_dim=1)
//   models/attention.py, activations.py               FeedForward(mult=4.0, "gelu-approximate")
// The processor unflattens to [B, S, H, D] and attends through dispatch_attention_fn in that
// layout (dit.attention layout "BSND"). Unlike FLUX, the joint sequence is [image, text] (image
// first) and RoPE touches the image (latent) tokens only; text q/k get RMSNorm but no RoPE.
//
// Configuration (hunyuanvideo-community/HunyuanVideo): hidden 3072, 24 heads x 128, mlp_ratio 4
// (12288), qk_norm rms_norm eps 1e-6, LayerNorm eps 1e-6, rope_axes_dim (16, 56, 56); batch 1,
// 2048 video tokens (29 frames at 256x256 -> 8x32x32 latent, 1x2x2 patches) + 256 text tokens
// (the pipeline's max_sequence_length) = 2304 joint tokens. Activations and weights bf16
// (linear weight [N, K], bias [N]; RMSNorm gamma [128]); RoPE cos/sin f32 [2048, 128] as
// HunyuanVideoRotaryPosEmbed returns them; attention mask bool [1, 1, 1, 2304] built by the model
// from encoder_attention_mask (true for every video token and every valid text token). The mask is
// i1, which the verifier accepts (DIALECT.md's element-type list does not name it).
// Precision follows the model code: RMSNorm and RoPE compute in f32 via explicit casts;
// layer_norm, attention and gelu keep bf16 in and out. diffusers' RMSNorm calls
// torch_npu.npu_rms_norm itself when torch_npu is importable; this follows the generic branch.
// Both functions return (hidden_states, encoder_hidden_states) in diffusers' order.
//
// Left out: computing temb, the mask and the RoPE tables (arguments); the token refiner, patch
// embedding and the TokenReplace (I2V) block variants; Dropout (p = 0) and the bf16 -> bf16
// `.to(query.dtype)` after attention (no-ops); LoRA, context-parallel plans.
//
// @hunyuan_video_double_block: 138 ops; @hunyuan_video_single_block: 92 ops
// (each including its 3 arith.constant scalars; func.return not counted).
//
// RUN: dit-opt %s | dit-opt | FileCheck %s
// CHECK-LABEL: func.func @hunyuan_video_double_block(
// CHECK-COUNT-2: "dit.layer_norm"
// CHECK-COUNT-2: "dit.rsqrt"
// CHECK-COUNT-2: "dit.neg"{{.*}}tensor<1x2048x24x64xbf16>
// CHECK-COUNT-2: "dit.rsqrt"
// CHECK-NOT: "dit.neg"
// CHECK-COUNT-3: "dit.concat"{{.*}} -> tensor<1x2304x24x128xbf16>
// CHECK: "dit.attention"{{.*}}layout = "BSND"{{.*}}array<i32: 1, 1, 1, 1>{{.*}}tensor<1x1x1x2304xi1>
// CHECK-COUNT-2: "dit.layer_norm"
// CHECK-COUNT-2: "dit.gelu"{{.*}}approximate = "tanh"
// CHECK: return
// CHECK-LABEL: func.func @hunyuan_video_single_block(
// CHECK: "dit.layer_norm"
// CHECK: "dit.gelu"{{.*}}approximate = "tanh"{{.*}} -> tensor<1x2304x12288xbf16>
// CHECK-COUNT-2: "dit.rsqrt"
// CHECK-COUNT-2: "dit.neg"{{.*}}tensor<1x2048x24x64xbf16>
// CHECK: "dit.attention"{{.*}}layout = "BSND"{{.*}}array<i32: 1, 1, 1, 1>
// CHECK: "dit.concat"{{.*}} -> tensor<1x2304x15360xbf16>
// CHECK: "dit.linear"{{.*}}tensor<3072x15360xbf16>
// CHECK: return

module {
  func.func @hunyuan_video_double_block(
      %hidden_states: tensor<1x2048x3072xbf16>,               // video stream: 29 frames 256x256 -> 8x32x32 latent, 1x2x2 patches -> 8x16x16 = 2048 tokens
      %encoder_hidden_states: tensor<1x256x3072xbf16>,        // text stream (LLaVA-LLaMA tokens after the token refiner), 256 tokens
      %temb: tensor<1x3072xbf16>,                             // time_text_embed(timestep, pooled_projections, guidance)
      %attention_mask: tensor<1x1x1x2304xi1>,                 // [B, 1, 1, N] bool: image tokens + valid text tokens true, text padding false
      %freqs_cos: tensor<2048x128xf32>,                       // image_rotary_emb[0]: HunyuanVideoRotaryPosEmbed cos, 16+56+56 = 128, repeat_interleave'd
      %freqs_sin: tensor<2048x128xf32>,                       // image_rotary_emb[1]: sin
      %norm1_linear_weight: tensor<18432x3072xbf16>,          // norm1.linear.weight
      %norm1_linear_bias: tensor<18432xbf16>,                 // norm1.linear.bias
      %norm1_context_linear_weight: tensor<18432x3072xbf16>,  // norm1_context.linear.weight
      %norm1_context_linear_bias: tensor<18432xbf16>,         // norm1_context.linear.bias
      %attn_to_q_weight: tensor<3072x3072xbf16>,              // attn.to_q.weight
      %attn_to_q_bias: tensor<3072xbf16>,                     // attn.to_q.bias
      %attn_to_k_weight: tensor<3072x3072xbf16>,              // attn.to_k.weight
      %attn_to_k_bias: tensor<3072xbf16>,                     // attn.to_k.bias
      %attn_to_v_weight: tensor<3072x3072xbf16>,              // attn.to_v.weight
      %attn_to_v_bias: tensor<3072xbf16>,                     // attn.to_v.bias
      %attn_norm_q_weight: tensor<128xbf16>,                  // attn.norm_q.weight
      %attn_norm_k_weight: tensor<128xbf16>,                  // attn.norm_k.weight
      %attn_add_q_proj_weight: tensor<3072x3072xbf16>,        // attn.add_q_proj.weight
      %attn_add_q_proj_bias: tensor<3072xbf16>,               // attn.add_q_proj.bias
      %attn_add_k_proj_weight: tensor<3072x3072xbf16>,        // attn.add_k_proj.weight
      %attn_add_k_proj_bias: tensor<3072xbf16>,               // attn.add_k_proj.bias
      %attn_add_v_proj_weight: tensor<3072x3072xbf16>,        // attn.add_v_proj.weight
      %attn_add_v_proj_bias: tensor<3072xbf16>,               // attn.add_v_proj.bias
      %attn_norm_added_q_weight: tensor<128xbf16>,            // attn.norm_added_q.weight
      %attn_norm_added_k_weight: tensor<128xbf16>,            // attn.norm_added_k.weight
      %attn_to_out_0_weight: tensor<3072x3072xbf16>,          // attn.to_out.0.weight
      %attn_to_out_0_bias: tensor<3072xbf16>,                 // attn.to_out.0.bias
      %attn_to_add_out_weight: tensor<3072x3072xbf16>,        // attn.to_add_out.weight
      %attn_to_add_out_bias: tensor<3072xbf16>,               // attn.to_add_out.bias
      %ff_net_0_proj_weight: tensor<12288x3072xbf16>,         // ff.net.0.proj.weight
      %ff_net_0_proj_bias: tensor<12288xbf16>,                // ff.net.0.proj.bias
      %ff_net_2_weight: tensor<3072x12288xbf16>,              // ff.net.2.weight
      %ff_net_2_bias: tensor<3072xbf16>,                      // ff.net.2.bias
      %ff_context_net_0_proj_weight: tensor<12288x3072xbf16>, // ff_context.net.0.proj.weight
      %ff_context_net_0_proj_bias: tensor<12288xbf16>,        // ff_context.net.0.proj.bias
      %ff_context_net_2_weight: tensor<3072x12288xbf16>,      // ff_context.net.2.weight
      %ff_context_net_2_bias: tensor<3072xbf16>               // ff_context.net.2.bias
  ) -> (tensor<1x2048x3072xbf16>, tensor<1x256x3072xbf16>) {
    // ---- scalar constants --------------------------------------------------
    %one = arith.constant dense<1.000000e+00> : tensor<bf16>
    %two = arith.constant dense<2.000000e+00> : tensor<f32>
    %rms_eps = arith.constant dense<1.000000e-06> : tensor<f32>

    // ==== 1. input normalization ==============================================
    // norm1 = AdaLayerNormZero(3072, norm_type="layer_norm"): emb = linear(silu(temb));
    // shift_msa, scale_msa, gate_msa, shift_mlp, scale_mlp, gate_mlp = emb.chunk(6, dim=1)
    %img_ada_silu = "dit.silu"(%temb) : (tensor<1x3072xbf16>) -> tensor<1x3072xbf16>
    %img_ada_emb = "dit.linear"(%img_ada_silu, %norm1_linear_weight, %norm1_linear_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x3072xbf16>, tensor<18432x3072xbf16>, tensor<18432xbf16>) -> tensor<1x18432xbf16>
    %img_shift_msa, %img_scale_msa, %img_gate_msa, %img_shift_mlp, %img_scale_mlp, %img_gate_mlp = "dit.split"(%img_ada_emb) {dim = 1 : i64, sizes = array<i64: 3072, 3072, 3072, 3072, 3072, 3072>} : (tensor<1x18432xbf16>) -> (tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>)
    // norm (LayerNorm, no affine, eps 1e-6); x * (1 + scale_msa[:, None]) + shift_msa[:, None]
    %img_norm1 = "dit.layer_norm"(%hidden_states) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x2048x3072xbf16>) -> tensor<1x2048x3072xbf16>
    %img_scale_msa_b = "dit.reshape"(%img_scale_msa) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_msa_one_plus_scale = "dit.add"(%one, %img_scale_msa_b) : (tensor<bf16>, tensor<1x1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_msa_scaled = "dit.mul"(%img_norm1, %img_msa_one_plus_scale) : (tensor<1x2048x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x2048x3072xbf16>
    %img_shift_msa_b = "dit.reshape"(%img_shift_msa) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_msa_mod = "dit.add"(%img_msa_scaled, %img_shift_msa_b) : (tensor<1x2048x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x2048x3072xbf16>
    // norm1_context = AdaLayerNormZero(3072, norm_type="layer_norm"): emb = linear(silu(temb));
    // shift_msa, scale_msa, gate_msa, shift_mlp, scale_mlp, gate_mlp = emb.chunk(6, dim=1)
    %txt_ada_silu = "dit.silu"(%temb) : (tensor<1x3072xbf16>) -> tensor<1x3072xbf16>
    %txt_ada_emb = "dit.linear"(%txt_ada_silu, %norm1_context_linear_weight, %norm1_context_linear_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x3072xbf16>, tensor<18432x3072xbf16>, tensor<18432xbf16>) -> tensor<1x18432xbf16>
    %txt_shift_msa, %txt_scale_msa, %txt_gate_msa, %txt_shift_mlp, %txt_scale_mlp, %txt_gate_mlp = "dit.split"(%txt_ada_emb) {dim = 1 : i64, sizes = array<i64: 3072, 3072, 3072, 3072, 3072, 3072>} : (tensor<1x18432xbf16>) -> (tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>)
    // norm (LayerNorm, no affine, eps 1e-6); x * (1 + scale_msa[:, None]) + shift_msa[:, None]
    %txt_norm1 = "dit.layer_norm"(%encoder_hidden_states) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x256x3072xbf16>) -> tensor<1x256x3072xbf16>
    %txt_scale_msa_b = "dit.reshape"(%txt_scale_msa) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_msa_one_plus_scale = "dit.add"(%one, %txt_scale_msa_b) : (tensor<bf16>, tensor<1x1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_msa_scaled = "dit.mul"(%txt_norm1, %txt_msa_one_plus_scale) : (tensor<1x256x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x256x3072xbf16>
    %txt_shift_msa_b = "dit.reshape"(%txt_shift_msa) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_msa_mod = "dit.add"(%txt_msa_scaled, %txt_shift_msa_b) : (tensor<1x256x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x256x3072xbf16>

    // ==== 2. joint attention: Attention(added_kv_proj_dim=3072, processor=HunyuanVideoAttnProcessor2_0)
    // ---- 1. QKV projections (latent stream); .unflatten(2, (heads, -1)) -> [B, S, H, D]
    %img_q_proj = "dit.linear"(%img_msa_mod, %attn_to_q_weight, %attn_to_q_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x2048x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x2048x3072xbf16>
    %img_k_proj = "dit.linear"(%img_msa_mod, %attn_to_k_weight, %attn_to_k_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x2048x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x2048x3072xbf16>
    %img_v_proj = "dit.linear"(%img_msa_mod, %attn_to_v_weight, %attn_to_v_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x2048x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x2048x3072xbf16>
    %img_q = "dit.reshape"(%img_q_proj) : (tensor<1x2048x3072xbf16>) -> tensor<1x2048x24x128xbf16>
    %img_k = "dit.reshape"(%img_k_proj) : (tensor<1x2048x3072xbf16>) -> tensor<1x2048x24x128xbf16>
    %img_v = "dit.reshape"(%img_v_proj) : (tensor<1x2048x3072xbf16>) -> tensor<1x2048x24x128xbf16>
    // ---- 2. QK normalization
    // attn.norm_q: diffusers RMSNorm(128, eps=1e-6): var = x.to(f32).pow(2).mean(-1, keepdim=True);
    // x * rsqrt(var + eps) promotes bf16 x f32 to f32 (reads the f32 x); .to(bf16) since weight is bf16; * weight
    %img_q_rms_f32 = "dit.cast"(%img_q) : (tensor<1x2048x24x128xbf16>) -> tensor<1x2048x24x128xf32>
    %img_q_rms_sq = "dit.pow"(%img_q_rms_f32, %two) : (tensor<1x2048x24x128xf32>, tensor<f32>) -> tensor<1x2048x24x128xf32>
    %img_q_rms_var = "dit.reduce_mean"(%img_q_rms_sq) {dims = array<i64: 3>, keepdim = true} : (tensor<1x2048x24x128xf32>) -> tensor<1x2048x24x1xf32>
    %img_q_rms_var_eps = "dit.add"(%img_q_rms_var, %rms_eps) : (tensor<1x2048x24x1xf32>, tensor<f32>) -> tensor<1x2048x24x1xf32>
    %img_q_rms_rstd = "dit.rsqrt"(%img_q_rms_var_eps) : (tensor<1x2048x24x1xf32>) -> tensor<1x2048x24x1xf32>
    %img_q_rms_scaled = "dit.mul"(%img_q_rms_f32, %img_q_rms_rstd) : (tensor<1x2048x24x128xf32>, tensor<1x2048x24x1xf32>) -> tensor<1x2048x24x128xf32>
    %img_q_rms_bf16 = "dit.cast"(%img_q_rms_scaled) : (tensor<1x2048x24x128xf32>) -> tensor<1x2048x24x128xbf16>
    %img_q_rms_normed = "dit.mul"(%img_q_rms_bf16, %attn_norm_q_weight) : (tensor<1x2048x24x128xbf16>, tensor<128xbf16>) -> tensor<1x2048x24x128xbf16>
    // attn.norm_k: diffusers RMSNorm(128, eps=1e-6): var = x.to(f32).pow(2).mean(-1, keepdim=True);
    // x * rsqrt(var + eps) promotes bf16 x f32 to f32 (reads the f32 x); .to(bf16) since weight is bf16; * weight
    %img_k_rms_f32 = "dit.cast"(%img_k) : (tensor<1x2048x24x128xbf16>) -> tensor<1x2048x24x128xf32>
    %img_k_rms_sq = "dit.pow"(%img_k_rms_f32, %two) : (tensor<1x2048x24x128xf32>, tensor<f32>) -> tensor<1x2048x24x128xf32>
    %img_k_rms_var = "dit.reduce_mean"(%img_k_rms_sq) {dims = array<i64: 3>, keepdim = true} : (tensor<1x2048x24x128xf32>) -> tensor<1x2048x24x1xf32>
    %img_k_rms_var_eps = "dit.add"(%img_k_rms_var, %rms_eps) : (tensor<1x2048x24x1xf32>, tensor<f32>) -> tensor<1x2048x24x1xf32>
    %img_k_rms_rstd = "dit.rsqrt"(%img_k_rms_var_eps) : (tensor<1x2048x24x1xf32>) -> tensor<1x2048x24x1xf32>
    %img_k_rms_scaled = "dit.mul"(%img_k_rms_f32, %img_k_rms_rstd) : (tensor<1x2048x24x128xf32>, tensor<1x2048x24x1xf32>) -> tensor<1x2048x24x128xf32>
    %img_k_rms_bf16 = "dit.cast"(%img_k_rms_scaled) : (tensor<1x2048x24x128xf32>) -> tensor<1x2048x24x128xbf16>
    %img_k_rms_normed = "dit.mul"(%img_k_rms_bf16, %attn_norm_k_weight) : (tensor<1x2048x24x128xbf16>, tensor<128xbf16>) -> tensor<1x2048x24x128xbf16>
    // ---- 3. rotary embedding on the latent (image) stream only; add_q_proj exists, so text is not yet joined
    // apply_rotary_emb(query, image_rotary_emb, sequence_dim=1), use_real=True, use_real_unbind_dim=-1:
    // cos/sin[None, :, None, :] -> [1, S, 1, 128]; x_real, x_imag = x.reshape(..., 64, 2).unbind(-1);
    // x_rotated = stack([-x_imag, x_real], -1).flatten(3); out = (x.float() * cos + x_rotated.float() * sin).to(x.dtype)
    %img_q_rope_cos = "dit.reshape"(%freqs_cos) : (tensor<2048x128xf32>) -> tensor<1x2048x1x128xf32>
    %img_q_rope_sin = "dit.reshape"(%freqs_sin) : (tensor<2048x128xf32>) -> tensor<1x2048x1x128xf32>
    %img_q_rope_pairs = "dit.reshape"(%img_q_rms_normed) : (tensor<1x2048x24x128xbf16>) -> tensor<1x2048x24x64x2xbf16>
    %img_q_rope_real1, %img_q_rope_imag1 = "dit.split"(%img_q_rope_pairs) {dim = 4 : i64, sizes = array<i64: 1, 1>} : (tensor<1x2048x24x64x2xbf16>) -> (tensor<1x2048x24x64x1xbf16>, tensor<1x2048x24x64x1xbf16>)
    %img_q_rope_real = "dit.reshape"(%img_q_rope_real1) : (tensor<1x2048x24x64x1xbf16>) -> tensor<1x2048x24x64xbf16>
    %img_q_rope_imag = "dit.reshape"(%img_q_rope_imag1) : (tensor<1x2048x24x64x1xbf16>) -> tensor<1x2048x24x64xbf16>
    %img_q_rope_neg_imag = "dit.neg"(%img_q_rope_imag) : (tensor<1x2048x24x64xbf16>) -> tensor<1x2048x24x64xbf16>
    %img_q_rope_stk0 = "dit.reshape"(%img_q_rope_neg_imag) : (tensor<1x2048x24x64xbf16>) -> tensor<1x2048x24x64x1xbf16>
    %img_q_rope_stk1 = "dit.reshape"(%img_q_rope_real) : (tensor<1x2048x24x64xbf16>) -> tensor<1x2048x24x64x1xbf16>
    %img_q_rope_stacked = "dit.concat"(%img_q_rope_stk0, %img_q_rope_stk1) {dim = 4 : i64} : (tensor<1x2048x24x64x1xbf16>, tensor<1x2048x24x64x1xbf16>) -> tensor<1x2048x24x64x2xbf16>
    %img_q_rope_rotated = "dit.reshape"(%img_q_rope_stacked) : (tensor<1x2048x24x64x2xbf16>) -> tensor<1x2048x24x128xbf16>
    %img_q_rope_x_f32 = "dit.cast"(%img_q_rms_normed) : (tensor<1x2048x24x128xbf16>) -> tensor<1x2048x24x128xf32>
    %img_q_rope_x_cos = "dit.mul"(%img_q_rope_x_f32, %img_q_rope_cos) : (tensor<1x2048x24x128xf32>, tensor<1x2048x1x128xf32>) -> tensor<1x2048x24x128xf32>
    %img_q_rope_rot_f32 = "dit.cast"(%img_q_rope_rotated) : (tensor<1x2048x24x128xbf16>) -> tensor<1x2048x24x128xf32>
    %img_q_rope_rot_sin = "dit.mul"(%img_q_rope_rot_f32, %img_q_rope_sin) : (tensor<1x2048x24x128xf32>, tensor<1x2048x1x128xf32>) -> tensor<1x2048x24x128xf32>
    %img_q_rope_sum = "dit.add"(%img_q_rope_x_cos, %img_q_rope_rot_sin) : (tensor<1x2048x24x128xf32>, tensor<1x2048x24x128xf32>) -> tensor<1x2048x24x128xf32>
    %img_q_rope = "dit.cast"(%img_q_rope_sum) : (tensor<1x2048x24x128xf32>) -> tensor<1x2048x24x128xbf16>
    // apply_rotary_emb(key, image_rotary_emb, sequence_dim=1), use_real=True, use_real_unbind_dim=-1:
    // cos/sin[None, :, None, :] -> [1, S, 1, 128]; x_real, x_imag = x.reshape(..., 64, 2).unbind(-1);
    // x_rotated = stack([-x_imag, x_real], -1).flatten(3); out = (x.float() * cos + x_rotated.float() * sin).to(x.dtype)
    %img_k_rope_cos = "dit.reshape"(%freqs_cos) : (tensor<2048x128xf32>) -> tensor<1x2048x1x128xf32>
    %img_k_rope_sin = "dit.reshape"(%freqs_sin) : (tensor<2048x128xf32>) -> tensor<1x2048x1x128xf32>
    %img_k_rope_pairs = "dit.reshape"(%img_k_rms_normed) : (tensor<1x2048x24x128xbf16>) -> tensor<1x2048x24x64x2xbf16>
    %img_k_rope_real1, %img_k_rope_imag1 = "dit.split"(%img_k_rope_pairs) {dim = 4 : i64, sizes = array<i64: 1, 1>} : (tensor<1x2048x24x64x2xbf16>) -> (tensor<1x2048x24x64x1xbf16>, tensor<1x2048x24x64x1xbf16>)
    %img_k_rope_real = "dit.reshape"(%img_k_rope_real1) : (tensor<1x2048x24x64x1xbf16>) -> tensor<1x2048x24x64xbf16>
    %img_k_rope_imag = "dit.reshape"(%img_k_rope_imag1) : (tensor<1x2048x24x64x1xbf16>) -> tensor<1x2048x24x64xbf16>
    %img_k_rope_neg_imag = "dit.neg"(%img_k_rope_imag) : (tensor<1x2048x24x64xbf16>) -> tensor<1x2048x24x64xbf16>
    %img_k_rope_stk0 = "dit.reshape"(%img_k_rope_neg_imag) : (tensor<1x2048x24x64xbf16>) -> tensor<1x2048x24x64x1xbf16>
    %img_k_rope_stk1 = "dit.reshape"(%img_k_rope_real) : (tensor<1x2048x24x64xbf16>) -> tensor<1x2048x24x64x1xbf16>
    %img_k_rope_stacked = "dit.concat"(%img_k_rope_stk0, %img_k_rope_stk1) {dim = 4 : i64} : (tensor<1x2048x24x64x1xbf16>, tensor<1x2048x24x64x1xbf16>) -> tensor<1x2048x24x64x2xbf16>
    %img_k_rope_rotated = "dit.reshape"(%img_k_rope_stacked) : (tensor<1x2048x24x64x2xbf16>) -> tensor<1x2048x24x128xbf16>
    %img_k_rope_x_f32 = "dit.cast"(%img_k_rms_normed) : (tensor<1x2048x24x128xbf16>) -> tensor<1x2048x24x128xf32>
    %img_k_rope_x_cos = "dit.mul"(%img_k_rope_x_f32, %img_k_rope_cos) : (tensor<1x2048x24x128xf32>, tensor<1x2048x1x128xf32>) -> tensor<1x2048x24x128xf32>
    %img_k_rope_rot_f32 = "dit.cast"(%img_k_rope_rotated) : (tensor<1x2048x24x128xbf16>) -> tensor<1x2048x24x128xf32>
    %img_k_rope_rot_sin = "dit.mul"(%img_k_rope_rot_f32, %img_k_rope_sin) : (tensor<1x2048x24x128xf32>, tensor<1x2048x1x128xf32>) -> tensor<1x2048x24x128xf32>
    %img_k_rope_sum = "dit.add"(%img_k_rope_x_cos, %img_k_rope_rot_sin) : (tensor<1x2048x24x128xf32>, tensor<1x2048x24x128xf32>) -> tensor<1x2048x24x128xf32>
    %img_k_rope = "dit.cast"(%img_k_rope_sum) : (tensor<1x2048x24x128xf32>) -> tensor<1x2048x24x128xbf16>
    // ---- 4. encoder condition QKV projection and normalization (no RoPE on text)
    %txt_q_proj = "dit.linear"(%txt_msa_mod, %attn_add_q_proj_weight, %attn_add_q_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x256x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x256x3072xbf16>
    %txt_k_proj = "dit.linear"(%txt_msa_mod, %attn_add_k_proj_weight, %attn_add_k_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x256x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x256x3072xbf16>
    %txt_v_proj = "dit.linear"(%txt_msa_mod, %attn_add_v_proj_weight, %attn_add_v_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x256x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x256x3072xbf16>
    %txt_q = "dit.reshape"(%txt_q_proj) : (tensor<1x256x3072xbf16>) -> tensor<1x256x24x128xbf16>
    %txt_k = "dit.reshape"(%txt_k_proj) : (tensor<1x256x3072xbf16>) -> tensor<1x256x24x128xbf16>
    %txt_v = "dit.reshape"(%txt_v_proj) : (tensor<1x256x3072xbf16>) -> tensor<1x256x24x128xbf16>
    // attn.norm_added_q: diffusers RMSNorm(128, eps=1e-6): var = x.to(f32).pow(2).mean(-1, keepdim=True);
    // x * rsqrt(var + eps) promotes bf16 x f32 to f32 (reads the f32 x); .to(bf16) since weight is bf16; * weight
    %txt_q_rms_f32 = "dit.cast"(%txt_q) : (tensor<1x256x24x128xbf16>) -> tensor<1x256x24x128xf32>
    %txt_q_rms_sq = "dit.pow"(%txt_q_rms_f32, %two) : (tensor<1x256x24x128xf32>, tensor<f32>) -> tensor<1x256x24x128xf32>
    %txt_q_rms_var = "dit.reduce_mean"(%txt_q_rms_sq) {dims = array<i64: 3>, keepdim = true} : (tensor<1x256x24x128xf32>) -> tensor<1x256x24x1xf32>
    %txt_q_rms_var_eps = "dit.add"(%txt_q_rms_var, %rms_eps) : (tensor<1x256x24x1xf32>, tensor<f32>) -> tensor<1x256x24x1xf32>
    %txt_q_rms_rstd = "dit.rsqrt"(%txt_q_rms_var_eps) : (tensor<1x256x24x1xf32>) -> tensor<1x256x24x1xf32>
    %txt_q_rms_scaled = "dit.mul"(%txt_q_rms_f32, %txt_q_rms_rstd) : (tensor<1x256x24x128xf32>, tensor<1x256x24x1xf32>) -> tensor<1x256x24x128xf32>
    %txt_q_rms_bf16 = "dit.cast"(%txt_q_rms_scaled) : (tensor<1x256x24x128xf32>) -> tensor<1x256x24x128xbf16>
    %txt_q_rms_normed = "dit.mul"(%txt_q_rms_bf16, %attn_norm_added_q_weight) : (tensor<1x256x24x128xbf16>, tensor<128xbf16>) -> tensor<1x256x24x128xbf16>
    // attn.norm_added_k: diffusers RMSNorm(128, eps=1e-6): var = x.to(f32).pow(2).mean(-1, keepdim=True);
    // x * rsqrt(var + eps) promotes bf16 x f32 to f32 (reads the f32 x); .to(bf16) since weight is bf16; * weight
    %txt_k_rms_f32 = "dit.cast"(%txt_k) : (tensor<1x256x24x128xbf16>) -> tensor<1x256x24x128xf32>
    %txt_k_rms_sq = "dit.pow"(%txt_k_rms_f32, %two) : (tensor<1x256x24x128xf32>, tensor<f32>) -> tensor<1x256x24x128xf32>
    %txt_k_rms_var = "dit.reduce_mean"(%txt_k_rms_sq) {dims = array<i64: 3>, keepdim = true} : (tensor<1x256x24x128xf32>) -> tensor<1x256x24x1xf32>
    %txt_k_rms_var_eps = "dit.add"(%txt_k_rms_var, %rms_eps) : (tensor<1x256x24x1xf32>, tensor<f32>) -> tensor<1x256x24x1xf32>
    %txt_k_rms_rstd = "dit.rsqrt"(%txt_k_rms_var_eps) : (tensor<1x256x24x1xf32>) -> tensor<1x256x24x1xf32>
    %txt_k_rms_scaled = "dit.mul"(%txt_k_rms_f32, %txt_k_rms_rstd) : (tensor<1x256x24x128xf32>, tensor<1x256x24x1xf32>) -> tensor<1x256x24x128xf32>
    %txt_k_rms_bf16 = "dit.cast"(%txt_k_rms_scaled) : (tensor<1x256x24x128xf32>) -> tensor<1x256x24x128xbf16>
    %txt_k_rms_normed = "dit.mul"(%txt_k_rms_bf16, %attn_norm_added_k_weight) : (tensor<1x256x24x128xbf16>, tensor<128xbf16>) -> tensor<1x256x24x128xbf16>
    // torch.cat([latent, encoder], dim=1): image tokens FIRST, text last -> [1, 2304, 24, 128]
    %joint_q = "dit.concat"(%img_q_rope, %txt_q_rms_normed) {dim = 1 : i64} : (tensor<1x2048x24x128xbf16>, tensor<1x256x24x128xbf16>) -> tensor<1x2304x24x128xbf16>
    %joint_k = "dit.concat"(%img_k_rope, %txt_k_rms_normed) {dim = 1 : i64} : (tensor<1x2048x24x128xbf16>, tensor<1x256x24x128xbf16>) -> tensor<1x2304x24x128xbf16>
    %joint_v = "dit.concat"(%img_v, %txt_v) {dim = 1 : i64} : (tensor<1x2048x24x128xbf16>, tensor<1x256x24x128xbf16>) -> tensor<1x2304x24x128xbf16>
    // ---- 5. dispatch_attention_fn(q, k, v, attn_mask) in [B, S, H, D] layout, default scale 1/sqrt(128)
    %joint_attn = "dit.attention"(%joint_q, %joint_k, %joint_v, %attention_mask) {scale = 0.0883883476 : f32, layout = "BSND", operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x2304x24x128xbf16>, tensor<1x2304x24x128xbf16>, tensor<1x2304x24x128xbf16>, tensor<1x1x1x2304xi1>) -> tensor<1x2304x24x128xbf16>
    // .flatten(2, 3); .to(query.dtype) is bf16 -> bf16, a no-op
    %joint_attn_flat = "dit.reshape"(%joint_attn) : (tensor<1x2304x24x128xbf16>) -> tensor<1x2304x3072xbf16>
    // ---- 6. output projection: hidden = out[:, :-256], encoder = out[:, -256:]
    %img_attn = "dit.slice"(%joint_attn_flat) {dim = 1 : i64, start = 0 : i64, end = 2048 : i64, step = 1 : i64} : (tensor<1x2304x3072xbf16>) -> tensor<1x2048x3072xbf16>
    %txt_attn = "dit.slice"(%joint_attn_flat) {dim = 1 : i64, start = 2048 : i64, end = 2304 : i64, step = 1 : i64} : (tensor<1x2304x3072xbf16>) -> tensor<1x256x3072xbf16>
    // attn.to_out[0], to_out[1] (Dropout); attn.to_add_out
    %img_attn_out = "dit.linear"(%img_attn, %attn_to_out_0_weight, %attn_to_out_0_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x2048x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x2048x3072xbf16>
    %txt_attn_out = "dit.linear"(%txt_attn, %attn_to_add_out_weight, %attn_to_add_out_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x256x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x256x3072xbf16>

    // ==== 3. modulation and residual connection ===============================
    // hidden_states = hidden_states + attn_output * gate_msa.unsqueeze(1)
    %img_gate_msa_b = "dit.reshape"(%img_gate_msa) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_attn_gated = "dit.mul"(%img_attn_out, %img_gate_msa_b) : (tensor<1x2048x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x2048x3072xbf16>
    %img_resid1 = "dit.add"(%hidden_states, %img_attn_gated) : (tensor<1x2048x3072xbf16>, tensor<1x2048x3072xbf16>) -> tensor<1x2048x3072xbf16>
    // encoder_hidden_states = encoder_hidden_states + context_attn_output * c_gate_msa.unsqueeze(1)
    %txt_gate_msa_b = "dit.reshape"(%txt_gate_msa) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_attn_gated = "dit.mul"(%txt_attn_out, %txt_gate_msa_b) : (tensor<1x256x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x256x3072xbf16>
    %txt_resid1 = "dit.add"(%encoder_hidden_states, %txt_attn_gated) : (tensor<1x256x3072xbf16>, tensor<1x256x3072xbf16>) -> tensor<1x256x3072xbf16>
    // norm2 / norm2_context (LayerNorm, no affine, eps 1e-6)
    %img_norm2 = "dit.layer_norm"(%img_resid1) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x2048x3072xbf16>) -> tensor<1x2048x3072xbf16>
    %txt_norm2 = "dit.layer_norm"(%txt_resid1) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x256x3072xbf16>) -> tensor<1x256x3072xbf16>
    // norm * (1 + scale_mlp[:, None]) + shift_mlp[:, None]
    %img_scale_mlp_b = "dit.reshape"(%img_scale_mlp) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_mlp_one_plus_scale = "dit.add"(%one, %img_scale_mlp_b) : (tensor<bf16>, tensor<1x1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_mlp_scaled = "dit.mul"(%img_norm2, %img_mlp_one_plus_scale) : (tensor<1x2048x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x2048x3072xbf16>
    %img_shift_mlp_b = "dit.reshape"(%img_shift_mlp) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_mlp_mod = "dit.add"(%img_mlp_scaled, %img_shift_mlp_b) : (tensor<1x2048x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x2048x3072xbf16>
    // norm * (1 + c_scale_mlp[:, None]) + c_shift_mlp[:, None]
    %txt_scale_mlp_b = "dit.reshape"(%txt_scale_mlp) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_mlp_one_plus_scale = "dit.add"(%one, %txt_scale_mlp_b) : (tensor<bf16>, tensor<1x1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_mlp_scaled = "dit.mul"(%txt_norm2, %txt_mlp_one_plus_scale) : (tensor<1x256x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x256x3072xbf16>
    %txt_shift_mlp_b = "dit.reshape"(%txt_shift_mlp) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_mlp_mod = "dit.add"(%txt_mlp_scaled, %txt_shift_mlp_b) : (tensor<1x256x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x256x3072xbf16>

    // ==== 4. feed-forward =====================================================
    // ff = FeedForward(3072, mult=4.0, activation_fn="gelu-approximate"): net.0 = GELU(proj 3072->12288, tanh),
    // net.1 = Dropout, net.2 = Linear 12288->3072
    %img_ff_proj = "dit.linear"(%img_mlp_mod, %ff_net_0_proj_weight, %ff_net_0_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x2048x3072xbf16>, tensor<12288x3072xbf16>, tensor<12288xbf16>) -> tensor<1x2048x12288xbf16>
    %img_ff_gelu = "dit.gelu"(%img_ff_proj) {approximate = "tanh"} : (tensor<1x2048x12288xbf16>) -> tensor<1x2048x12288xbf16>
    %img_ff_out = "dit.linear"(%img_ff_gelu, %ff_net_2_weight, %ff_net_2_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x2048x12288xbf16>, tensor<3072x12288xbf16>, tensor<3072xbf16>) -> tensor<1x2048x3072xbf16>
    // ff_context = FeedForward(3072, mult=4.0, activation_fn="gelu-approximate"): net.0 = GELU(proj 3072->12288, tanh),
    // net.1 = Dropout, net.2 = Linear 12288->3072
    %txt_ff_proj = "dit.linear"(%txt_mlp_mod, %ff_context_net_0_proj_weight, %ff_context_net_0_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x256x3072xbf16>, tensor<12288x3072xbf16>, tensor<12288xbf16>) -> tensor<1x256x12288xbf16>
    %txt_ff_gelu = "dit.gelu"(%txt_ff_proj) {approximate = "tanh"} : (tensor<1x256x12288xbf16>) -> tensor<1x256x12288xbf16>
    %txt_ff_out = "dit.linear"(%txt_ff_gelu, %ff_context_net_2_weight, %ff_context_net_2_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x256x12288xbf16>, tensor<3072x12288xbf16>, tensor<3072xbf16>) -> tensor<1x256x3072xbf16>
    // hidden_states = hidden_states + gate_mlp.unsqueeze(1) * ff_output
    %img_gate_mlp_b = "dit.reshape"(%img_gate_mlp) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_ff_gated = "dit.mul"(%img_gate_mlp_b, %img_ff_out) : (tensor<1x1x3072xbf16>, tensor<1x2048x3072xbf16>) -> tensor<1x2048x3072xbf16>
    %img_out = "dit.add"(%img_resid1, %img_ff_gated) : (tensor<1x2048x3072xbf16>, tensor<1x2048x3072xbf16>) -> tensor<1x2048x3072xbf16>
    // encoder_hidden_states = encoder_hidden_states + c_gate_mlp.unsqueeze(1) * context_ff_output
    %txt_gate_mlp_b = "dit.reshape"(%txt_gate_mlp) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_ff_gated = "dit.mul"(%txt_gate_mlp_b, %txt_ff_out) : (tensor<1x1x3072xbf16>, tensor<1x256x3072xbf16>) -> tensor<1x256x3072xbf16>
    %txt_out = "dit.add"(%txt_resid1, %txt_ff_gated) : (tensor<1x256x3072xbf16>, tensor<1x256x3072xbf16>) -> tensor<1x256x3072xbf16>

    // return hidden_states, encoder_hidden_states  (diffusers order)
    func.return %img_out, %txt_out : tensor<1x2048x3072xbf16>, tensor<1x256x3072xbf16>
  }

  func.func @hunyuan_video_single_block(
      %hidden_states: tensor<1x2048x3072xbf16>,        // video stream: 29 frames 256x256 -> 8x32x32 latent, 1x2x2 patches -> 8x16x16 = 2048 tokens
      %encoder_hidden_states: tensor<1x256x3072xbf16>, // text stream (LLaVA-LLaMA tokens after the token refiner), 256 tokens
      %temb: tensor<1x3072xbf16>,                      // time_text_embed(timestep, pooled_projections, guidance)
      %attention_mask: tensor<1x1x1x2304xi1>,          // [B, 1, 1, N] bool: image tokens + valid text tokens true, text padding false
      %freqs_cos: tensor<2048x128xf32>,                // image_rotary_emb[0]: HunyuanVideoRotaryPosEmbed cos, 16+56+56 = 128, repeat_interleave'd
      %freqs_sin: tensor<2048x128xf32>,                // image_rotary_emb[1]: sin
      %norm_linear_weight: tensor<9216x3072xbf16>,     // norm.linear.weight
      %norm_linear_bias: tensor<9216xbf16>,            // norm.linear.bias
      %proj_mlp_weight: tensor<12288x3072xbf16>,       // proj_mlp.weight
      %proj_mlp_bias: tensor<12288xbf16>,              // proj_mlp.bias
      %attn_to_q_weight: tensor<3072x3072xbf16>,       // attn.to_q.weight
      %attn_to_q_bias: tensor<3072xbf16>,              // attn.to_q.bias
      %attn_to_k_weight: tensor<3072x3072xbf16>,       // attn.to_k.weight
      %attn_to_k_bias: tensor<3072xbf16>,              // attn.to_k.bias
      %attn_to_v_weight: tensor<3072x3072xbf16>,       // attn.to_v.weight
      %attn_to_v_bias: tensor<3072xbf16>,              // attn.to_v.bias
      %attn_norm_q_weight: tensor<128xbf16>,           // attn.norm_q.weight
      %attn_norm_k_weight: tensor<128xbf16>,           // attn.norm_k.weight
      %proj_out_weight: tensor<3072x15360xbf16>,       // proj_out.weight
      %proj_out_bias: tensor<3072xbf16>                // proj_out.bias
  ) -> (tensor<1x2048x3072xbf16>, tensor<1x256x3072xbf16>) {
    // ---- scalar constants --------------------------------------------------
    %one = arith.constant dense<1.000000e+00> : tensor<bf16>
    %two = arith.constant dense<2.000000e+00> : tensor<f32>
    %rms_eps = arith.constant dense<1.000000e-06> : tensor<f32>

    // hidden_states = torch.cat([hidden_states, encoder_hidden_states], dim=1); residual = hidden_states
    %joint_in = "dit.concat"(%hidden_states, %encoder_hidden_states) {dim = 1 : i64} : (tensor<1x2048x3072xbf16>, tensor<1x256x3072xbf16>) -> tensor<1x2304x3072xbf16>

    // ==== 1. input normalization ==============================================
    // norm = AdaLayerNormZeroSingle(3072, norm_type="layer_norm"): emb = linear(silu(temb));
    // shift_msa, scale_msa, gate = emb.chunk(3, dim=1); x = norm(x) * (1 + scale_msa[:, None]) + shift_msa[:, None]
    %ada_silu = "dit.silu"(%temb) : (tensor<1x3072xbf16>) -> tensor<1x3072xbf16>
    %ada_emb = "dit.linear"(%ada_silu, %norm_linear_weight, %norm_linear_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x3072xbf16>, tensor<9216x3072xbf16>, tensor<9216xbf16>) -> tensor<1x9216xbf16>
    %shift_msa, %scale_msa, %gate = "dit.split"(%ada_emb) {dim = 1 : i64, sizes = array<i64: 3072, 3072, 3072>} : (tensor<1x9216xbf16>) -> (tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>)
    %norm_x = "dit.layer_norm"(%joint_in) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x2304x3072xbf16>) -> tensor<1x2304x3072xbf16>
    %scale_msa_b = "dit.reshape"(%scale_msa) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %one_plus_scale = "dit.add"(%one, %scale_msa_b) : (tensor<bf16>, tensor<1x1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %norm_scaled = "dit.mul"(%norm_x, %one_plus_scale) : (tensor<1x2304x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x2304x3072xbf16>
    %shift_msa_b = "dit.reshape"(%shift_msa) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %norm_hidden = "dit.add"(%norm_scaled, %shift_msa_b) : (tensor<1x2304x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x2304x3072xbf16>
    // mlp_hidden_states = act_mlp(proj_mlp(norm_hidden_states)), act_mlp = nn.GELU(approximate="tanh")
    %mlp_proj = "dit.linear"(%norm_hidden, %proj_mlp_weight, %proj_mlp_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x2304x3072xbf16>, tensor<12288x3072xbf16>, tensor<12288xbf16>) -> tensor<1x2304x12288xbf16>
    %mlp_hidden = "dit.gelu"(%mlp_proj) {approximate = "tanh"} : (tensor<1x2304x12288xbf16>) -> tensor<1x2304x12288xbf16>
    // norm_hidden_states[:, :-256], norm_hidden_states[:, -256:]
    %norm_img = "dit.slice"(%norm_hidden) {dim = 1 : i64, start = 0 : i64, end = 2048 : i64, step = 1 : i64} : (tensor<1x2304x3072xbf16>) -> tensor<1x2048x3072xbf16>
    %norm_txt = "dit.slice"(%norm_hidden) {dim = 1 : i64, start = 2048 : i64, end = 2304 : i64, step = 1 : i64} : (tensor<1x2304x3072xbf16>) -> tensor<1x256x3072xbf16>

    // ==== 2. attention: Attention(pre_only=True, no added KV projections, HunyuanVideoAttnProcessor2_0)
    // add_q_proj is None and encoder_hidden_states is given: torch.cat([hidden, encoder], dim=1) again
    %attn_in = "dit.concat"(%norm_img, %norm_txt) {dim = 1 : i64} : (tensor<1x2048x3072xbf16>, tensor<1x256x3072xbf16>) -> tensor<1x2304x3072xbf16>
    // ---- 1. QKV projections; .unflatten(2, (heads, -1)) -> [1, 2304, 24, 128]
    %q_proj = "dit.linear"(%attn_in, %attn_to_q_weight, %attn_to_q_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x2304x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x2304x3072xbf16>
    %k_proj = "dit.linear"(%attn_in, %attn_to_k_weight, %attn_to_k_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x2304x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x2304x3072xbf16>
    %v_proj = "dit.linear"(%attn_in, %attn_to_v_weight, %attn_to_v_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x2304x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x2304x3072xbf16>
    %q = "dit.reshape"(%q_proj) : (tensor<1x2304x3072xbf16>) -> tensor<1x2304x24x128xbf16>
    %k = "dit.reshape"(%k_proj) : (tensor<1x2304x3072xbf16>) -> tensor<1x2304x24x128xbf16>
    %v = "dit.reshape"(%v_proj) : (tensor<1x2304x3072xbf16>) -> tensor<1x2304x24x128xbf16>
    // ---- 2. QK normalization
    // attn.norm_q: diffusers RMSNorm(128, eps=1e-6): var = x.to(f32).pow(2).mean(-1, keepdim=True);
    // x * rsqrt(var + eps) promotes bf16 x f32 to f32 (reads the f32 x); .to(bf16) since weight is bf16; * weight
    %q_rms_f32 = "dit.cast"(%q) : (tensor<1x2304x24x128xbf16>) -> tensor<1x2304x24x128xf32>
    %q_rms_sq = "dit.pow"(%q_rms_f32, %two) : (tensor<1x2304x24x128xf32>, tensor<f32>) -> tensor<1x2304x24x128xf32>
    %q_rms_var = "dit.reduce_mean"(%q_rms_sq) {dims = array<i64: 3>, keepdim = true} : (tensor<1x2304x24x128xf32>) -> tensor<1x2304x24x1xf32>
    %q_rms_var_eps = "dit.add"(%q_rms_var, %rms_eps) : (tensor<1x2304x24x1xf32>, tensor<f32>) -> tensor<1x2304x24x1xf32>
    %q_rms_rstd = "dit.rsqrt"(%q_rms_var_eps) : (tensor<1x2304x24x1xf32>) -> tensor<1x2304x24x1xf32>
    %q_rms_scaled = "dit.mul"(%q_rms_f32, %q_rms_rstd) : (tensor<1x2304x24x128xf32>, tensor<1x2304x24x1xf32>) -> tensor<1x2304x24x128xf32>
    %q_rms_bf16 = "dit.cast"(%q_rms_scaled) : (tensor<1x2304x24x128xf32>) -> tensor<1x2304x24x128xbf16>
    %q_rms_normed = "dit.mul"(%q_rms_bf16, %attn_norm_q_weight) : (tensor<1x2304x24x128xbf16>, tensor<128xbf16>) -> tensor<1x2304x24x128xbf16>
    // attn.norm_k: diffusers RMSNorm(128, eps=1e-6): var = x.to(f32).pow(2).mean(-1, keepdim=True);
    // x * rsqrt(var + eps) promotes bf16 x f32 to f32 (reads the f32 x); .to(bf16) since weight is bf16; * weight
    %k_rms_f32 = "dit.cast"(%k) : (tensor<1x2304x24x128xbf16>) -> tensor<1x2304x24x128xf32>
    %k_rms_sq = "dit.pow"(%k_rms_f32, %two) : (tensor<1x2304x24x128xf32>, tensor<f32>) -> tensor<1x2304x24x128xf32>
    %k_rms_var = "dit.reduce_mean"(%k_rms_sq) {dims = array<i64: 3>, keepdim = true} : (tensor<1x2304x24x128xf32>) -> tensor<1x2304x24x1xf32>
    %k_rms_var_eps = "dit.add"(%k_rms_var, %rms_eps) : (tensor<1x2304x24x1xf32>, tensor<f32>) -> tensor<1x2304x24x1xf32>
    %k_rms_rstd = "dit.rsqrt"(%k_rms_var_eps) : (tensor<1x2304x24x1xf32>) -> tensor<1x2304x24x1xf32>
    %k_rms_scaled = "dit.mul"(%k_rms_f32, %k_rms_rstd) : (tensor<1x2304x24x128xf32>, tensor<1x2304x24x1xf32>) -> tensor<1x2304x24x128xf32>
    %k_rms_bf16 = "dit.cast"(%k_rms_scaled) : (tensor<1x2304x24x128xf32>) -> tensor<1x2304x24x128xbf16>
    %k_rms_normed = "dit.mul"(%k_rms_bf16, %attn_norm_k_weight) : (tensor<1x2304x24x128xbf16>, tensor<128xbf16>) -> tensor<1x2304x24x128xbf16>
    // ---- 3. RoPE on the latent part only: cat([apply_rotary_emb(q[:, :-256]), q[:, -256:]], dim=1)
    %q_img = "dit.slice"(%q_rms_normed) {dim = 1 : i64, start = 0 : i64, end = 2048 : i64, step = 1 : i64} : (tensor<1x2304x24x128xbf16>) -> tensor<1x2048x24x128xbf16>
    // apply_rotary_emb(query[:, :-256], image_rotary_emb, sequence_dim=1), use_real=True, use_real_unbind_dim=-1:
    // cos/sin[None, :, None, :] -> [1, S, 1, 128]; x_real, x_imag = x.reshape(..., 64, 2).unbind(-1);
    // x_rotated = stack([-x_imag, x_real], -1).flatten(3); out = (x.float() * cos + x_rotated.float() * sin).to(x.dtype)
    %q_rope_cos = "dit.reshape"(%freqs_cos) : (tensor<2048x128xf32>) -> tensor<1x2048x1x128xf32>
    %q_rope_sin = "dit.reshape"(%freqs_sin) : (tensor<2048x128xf32>) -> tensor<1x2048x1x128xf32>
    %q_rope_pairs = "dit.reshape"(%q_img) : (tensor<1x2048x24x128xbf16>) -> tensor<1x2048x24x64x2xbf16>
    %q_rope_real1, %q_rope_imag1 = "dit.split"(%q_rope_pairs) {dim = 4 : i64, sizes = array<i64: 1, 1>} : (tensor<1x2048x24x64x2xbf16>) -> (tensor<1x2048x24x64x1xbf16>, tensor<1x2048x24x64x1xbf16>)
    %q_rope_real = "dit.reshape"(%q_rope_real1) : (tensor<1x2048x24x64x1xbf16>) -> tensor<1x2048x24x64xbf16>
    %q_rope_imag = "dit.reshape"(%q_rope_imag1) : (tensor<1x2048x24x64x1xbf16>) -> tensor<1x2048x24x64xbf16>
    %q_rope_neg_imag = "dit.neg"(%q_rope_imag) : (tensor<1x2048x24x64xbf16>) -> tensor<1x2048x24x64xbf16>
    %q_rope_stk0 = "dit.reshape"(%q_rope_neg_imag) : (tensor<1x2048x24x64xbf16>) -> tensor<1x2048x24x64x1xbf16>
    %q_rope_stk1 = "dit.reshape"(%q_rope_real) : (tensor<1x2048x24x64xbf16>) -> tensor<1x2048x24x64x1xbf16>
    %q_rope_stacked = "dit.concat"(%q_rope_stk0, %q_rope_stk1) {dim = 4 : i64} : (tensor<1x2048x24x64x1xbf16>, tensor<1x2048x24x64x1xbf16>) -> tensor<1x2048x24x64x2xbf16>
    %q_rope_rotated = "dit.reshape"(%q_rope_stacked) : (tensor<1x2048x24x64x2xbf16>) -> tensor<1x2048x24x128xbf16>
    %q_rope_x_f32 = "dit.cast"(%q_img) : (tensor<1x2048x24x128xbf16>) -> tensor<1x2048x24x128xf32>
    %q_rope_x_cos = "dit.mul"(%q_rope_x_f32, %q_rope_cos) : (tensor<1x2048x24x128xf32>, tensor<1x2048x1x128xf32>) -> tensor<1x2048x24x128xf32>
    %q_rope_rot_f32 = "dit.cast"(%q_rope_rotated) : (tensor<1x2048x24x128xbf16>) -> tensor<1x2048x24x128xf32>
    %q_rope_rot_sin = "dit.mul"(%q_rope_rot_f32, %q_rope_sin) : (tensor<1x2048x24x128xf32>, tensor<1x2048x1x128xf32>) -> tensor<1x2048x24x128xf32>
    %q_rope_sum = "dit.add"(%q_rope_x_cos, %q_rope_rot_sin) : (tensor<1x2048x24x128xf32>, tensor<1x2048x24x128xf32>) -> tensor<1x2048x24x128xf32>
    %q_rope = "dit.cast"(%q_rope_sum) : (tensor<1x2048x24x128xf32>) -> tensor<1x2048x24x128xbf16>
    %q_txt = "dit.slice"(%q_rms_normed) {dim = 1 : i64, start = 2048 : i64, end = 2304 : i64, step = 1 : i64} : (tensor<1x2304x24x128xbf16>) -> tensor<1x256x24x128xbf16>
    %q_joint = "dit.concat"(%q_rope, %q_txt) {dim = 1 : i64} : (tensor<1x2048x24x128xbf16>, tensor<1x256x24x128xbf16>) -> tensor<1x2304x24x128xbf16>
    %k_img = "dit.slice"(%k_rms_normed) {dim = 1 : i64, start = 0 : i64, end = 2048 : i64, step = 1 : i64} : (tensor<1x2304x24x128xbf16>) -> tensor<1x2048x24x128xbf16>
    // apply_rotary_emb(key[:, :-256], image_rotary_emb, sequence_dim=1), use_real=True, use_real_unbind_dim=-1:
    // cos/sin[None, :, None, :] -> [1, S, 1, 128]; x_real, x_imag = x.reshape(..., 64, 2).unbind(-1);
    // x_rotated = stack([-x_imag, x_real], -1).flatten(3); out = (x.float() * cos + x_rotated.float() * sin).to(x.dtype)
    %k_rope_cos = "dit.reshape"(%freqs_cos) : (tensor<2048x128xf32>) -> tensor<1x2048x1x128xf32>
    %k_rope_sin = "dit.reshape"(%freqs_sin) : (tensor<2048x128xf32>) -> tensor<1x2048x1x128xf32>
    %k_rope_pairs = "dit.reshape"(%k_img) : (tensor<1x2048x24x128xbf16>) -> tensor<1x2048x24x64x2xbf16>
    %k_rope_real1, %k_rope_imag1 = "dit.split"(%k_rope_pairs) {dim = 4 : i64, sizes = array<i64: 1, 1>} : (tensor<1x2048x24x64x2xbf16>) -> (tensor<1x2048x24x64x1xbf16>, tensor<1x2048x24x64x1xbf16>)
    %k_rope_real = "dit.reshape"(%k_rope_real1) : (tensor<1x2048x24x64x1xbf16>) -> tensor<1x2048x24x64xbf16>
    %k_rope_imag = "dit.reshape"(%k_rope_imag1) : (tensor<1x2048x24x64x1xbf16>) -> tensor<1x2048x24x64xbf16>
    %k_rope_neg_imag = "dit.neg"(%k_rope_imag) : (tensor<1x2048x24x64xbf16>) -> tensor<1x2048x24x64xbf16>
    %k_rope_stk0 = "dit.reshape"(%k_rope_neg_imag) : (tensor<1x2048x24x64xbf16>) -> tensor<1x2048x24x64x1xbf16>
    %k_rope_stk1 = "dit.reshape"(%k_rope_real) : (tensor<1x2048x24x64xbf16>) -> tensor<1x2048x24x64x1xbf16>
    %k_rope_stacked = "dit.concat"(%k_rope_stk0, %k_rope_stk1) {dim = 4 : i64} : (tensor<1x2048x24x64x1xbf16>, tensor<1x2048x24x64x1xbf16>) -> tensor<1x2048x24x64x2xbf16>
    %k_rope_rotated = "dit.reshape"(%k_rope_stacked) : (tensor<1x2048x24x64x2xbf16>) -> tensor<1x2048x24x128xbf16>
    %k_rope_x_f32 = "dit.cast"(%k_img) : (tensor<1x2048x24x128xbf16>) -> tensor<1x2048x24x128xf32>
    %k_rope_x_cos = "dit.mul"(%k_rope_x_f32, %k_rope_cos) : (tensor<1x2048x24x128xf32>, tensor<1x2048x1x128xf32>) -> tensor<1x2048x24x128xf32>
    %k_rope_rot_f32 = "dit.cast"(%k_rope_rotated) : (tensor<1x2048x24x128xbf16>) -> tensor<1x2048x24x128xf32>
    %k_rope_rot_sin = "dit.mul"(%k_rope_rot_f32, %k_rope_sin) : (tensor<1x2048x24x128xf32>, tensor<1x2048x1x128xf32>) -> tensor<1x2048x24x128xf32>
    %k_rope_sum = "dit.add"(%k_rope_x_cos, %k_rope_rot_sin) : (tensor<1x2048x24x128xf32>, tensor<1x2048x24x128xf32>) -> tensor<1x2048x24x128xf32>
    %k_rope = "dit.cast"(%k_rope_sum) : (tensor<1x2048x24x128xf32>) -> tensor<1x2048x24x128xbf16>
    %k_txt = "dit.slice"(%k_rms_normed) {dim = 1 : i64, start = 2048 : i64, end = 2304 : i64, step = 1 : i64} : (tensor<1x2304x24x128xbf16>) -> tensor<1x256x24x128xbf16>
    %k_joint = "dit.concat"(%k_rope, %k_txt) {dim = 1 : i64} : (tensor<1x2048x24x128xbf16>, tensor<1x256x24x128xbf16>) -> tensor<1x2304x24x128xbf16>
    // ---- 5. dispatch_attention_fn(q, k, v, attn_mask) in [B, S, H, D] layout, default scale 1/sqrt(128)
    %attn = "dit.attention"(%q_joint, %k_joint, %v, %attention_mask) {scale = 0.0883883476 : f32, layout = "BSND", operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x2304x24x128xbf16>, tensor<1x2304x24x128xbf16>, tensor<1x2304x24x128xbf16>, tensor<1x1x1x2304xi1>) -> tensor<1x2304x24x128xbf16>
    // .flatten(2, 3); .to(query.dtype) is a no-op
    %attn_flat = "dit.reshape"(%attn) : (tensor<1x2304x24x128xbf16>) -> tensor<1x2304x3072xbf16>
    // ---- 6. split hidden / encoder; pre_only: no to_out, no to_add_out
    %attn_img = "dit.slice"(%attn_flat) {dim = 1 : i64, start = 0 : i64, end = 2048 : i64, step = 1 : i64} : (tensor<1x2304x3072xbf16>) -> tensor<1x2048x3072xbf16>
    %attn_txt = "dit.slice"(%attn_flat) {dim = 1 : i64, start = 2048 : i64, end = 2304 : i64, step = 1 : i64} : (tensor<1x2304x3072xbf16>) -> tensor<1x256x3072xbf16>
    // attn_output = torch.cat([attn_output, context_attn_output], dim=1)
    %attn_out = "dit.concat"(%attn_img, %attn_txt) {dim = 1 : i64} : (tensor<1x2048x3072xbf16>, tensor<1x256x3072xbf16>) -> tensor<1x2304x3072xbf16>

    // ==== 3. modulation and residual connection ===============================
    // hidden_states = torch.cat([attn_output, mlp_hidden_states], dim=2) -> [1, 2304, 15360]
    %cat_attn_mlp = "dit.concat"(%attn_out, %mlp_hidden) {dim = 2 : i64} : (tensor<1x2304x3072xbf16>, tensor<1x2304x12288xbf16>) -> tensor<1x2304x15360xbf16>
    // hidden_states = gate.unsqueeze(1) * self.proj_out(hidden_states); hidden_states = hidden_states + residual
    %proj_out = "dit.linear"(%cat_attn_mlp, %proj_out_weight, %proj_out_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x2304x15360xbf16>, tensor<3072x15360xbf16>, tensor<3072xbf16>) -> tensor<1x2304x3072xbf16>
    %gate_b = "dit.reshape"(%gate) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %gated = "dit.mul"(%gate_b, %proj_out) : (tensor<1x1x3072xbf16>, tensor<1x2304x3072xbf16>) -> tensor<1x2304x3072xbf16>
    %out = "dit.add"(%gated, %joint_in) : (tensor<1x2304x3072xbf16>, tensor<1x2304x3072xbf16>) -> tensor<1x2304x3072xbf16>
    // hidden_states[:, :-256], hidden_states[:, -256:]
    %img_out = "dit.slice"(%out) {dim = 1 : i64, start = 0 : i64, end = 2048 : i64, step = 1 : i64} : (tensor<1x2304x3072xbf16>) -> tensor<1x2048x3072xbf16>
    %txt_out = "dit.slice"(%out) {dim = 1 : i64, start = 2048 : i64, end = 2304 : i64, step = 1 : i64} : (tensor<1x2304x3072xbf16>) -> tensor<1x256x3072xbf16>

    // return hidden_states, encoder_hidden_states
    func.return %img_out, %txt_out : tensor<1x2048x3072xbf16>, tensor<1x256x3072xbf16>
  }
}
