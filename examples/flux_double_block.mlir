// flux_double_block.mlir -- one FLUX.1-dev double-stream (MMDiT) transformer block in the
// dit dialect, as a frontend would emit it: primitive ops only, nothing fused. It is the
// input that later passes raise and fuse (to dit.rms_norm, dit.rope, dit.ada_layer_norm,
// dit.fast_gelu, ...); RMSNorm and RoPE are therefore spelled out the way diffusers computes them.
//
// Follows diffusers v0.32.2, written in the order the model code computes it:
//   models/transformers/transformer_flux.py   FluxTransformerBlock.forward
//   models/normalization.py                   AdaLayerNormZero (norm1, norm1_context), RMSNorm
//   models/attention_processor.py             Attention(qk_norm="rms_norm", added_kv_proj_dim=3072)
//                                             with FluxAttnProcessor2_0 (BNSD layout)
//   models/embeddings.py                      apply_rotary_emb(use_real=True, use_real_unbind_dim=-1)
//   models/attention.py, activations.py       FeedForward(activation_fn="gelu-approximate") = GELU(tanh)
// Newer diffusers (FluxAttention + FluxAttnProcessor) computes the same block in [B,S,H,D]
// layout (q/k norm and RoPE before the head transpose, which moves into dispatch_attention_fn)
// and uses torch.nn.RMSNorm: the same function, but op order, layout and RMSNorm rounding differ.
//
// Configuration (FLUX.1-dev): hidden 3072, 24 heads x 128, FFN 12288, eps 1e-6; batch 1,
// 4096 image tokens (64x64 latent, 2x2 patches) + 512 text tokens = 4608 joint tokens.
// Activations and weights bf16 (linear weight [N, K], bias [N], RMSNorm gamma [128]);
// RoPE cos/sin f32 [4608, 128] as FluxPosEmbed returns them (text positions first).
// Precision follows the model code: RMSNorm and RoPE compute in f32 via explicit casts;
// layer_norm, attention and gelu keep bf16 in and out (their internal precision is the kernel's).
// Returns (encoder_hidden_states, hidden_states) in diffusers' order.
//
// Left out: computing temb (time/guidance/pooled-text embeddings) and the RoPE tables
// (FluxPosEmbed) -- both are arguments; Dropout (p = 0, inference) and the bf16 -> bf16
// `.to(query.dtype)` after attention (no-ops); attention mask (FLUX passes none); the IP-adapter
// branch, LoRA scaling, fused-QKV processor and the fp16-only clip(-65504, 65504).
//
// 145 ops (including the 3 arith.constant scalars; func.return not counted).

module {
  func.func @flux_double_block(
      %hidden_states: tensor<1x4096x3072xbf16>,                          // image stream (packed 2x2 latent patches, 64x64 -> 4096 tokens)
      %encoder_hidden_states: tensor<1x512x3072xbf16>,                   // text stream (T5 tokens after context_embedder)
      %temb: tensor<1x3072xbf16>,                                        // timestep + guidance + pooled-text embedding
      %rope_cos: tensor<4608x128xf32>,                                   // image_rotary_emb[0]: FluxPosEmbed cos, text ids first
      %rope_sin: tensor<4608x128xf32>,                                   // image_rotary_emb[1]: FluxPosEmbed sin
      %norm1_linear_weight: tensor<18432x3072xbf16>,                     // norm1.linear.weight
      %norm1_linear_bias: tensor<18432xbf16>,                            // norm1.linear.bias
      %norm1_context_linear_weight: tensor<18432x3072xbf16>,             // norm1_context.linear.weight
      %norm1_context_linear_bias: tensor<18432xbf16>,                    // norm1_context.linear.bias
      %attn_to_q_weight: tensor<3072x3072xbf16>,                         // attn.to_q.weight
      %attn_to_q_bias: tensor<3072xbf16>,                                // attn.to_q.bias
      %attn_to_k_weight: tensor<3072x3072xbf16>,                         // attn.to_k.weight
      %attn_to_k_bias: tensor<3072xbf16>,                                // attn.to_k.bias
      %attn_to_v_weight: tensor<3072x3072xbf16>,                         // attn.to_v.weight
      %attn_to_v_bias: tensor<3072xbf16>,                                // attn.to_v.bias
      %attn_norm_q_weight: tensor<128xbf16>,                             // attn.norm_q.weight
      %attn_norm_k_weight: tensor<128xbf16>,                             // attn.norm_k.weight
      %attn_add_q_proj_weight: tensor<3072x3072xbf16>,                   // attn.add_q_proj.weight
      %attn_add_q_proj_bias: tensor<3072xbf16>,                          // attn.add_q_proj.bias
      %attn_add_k_proj_weight: tensor<3072x3072xbf16>,                   // attn.add_k_proj.weight
      %attn_add_k_proj_bias: tensor<3072xbf16>,                          // attn.add_k_proj.bias
      %attn_add_v_proj_weight: tensor<3072x3072xbf16>,                   // attn.add_v_proj.weight
      %attn_add_v_proj_bias: tensor<3072xbf16>,                          // attn.add_v_proj.bias
      %attn_norm_added_q_weight: tensor<128xbf16>,                       // attn.norm_added_q.weight
      %attn_norm_added_k_weight: tensor<128xbf16>,                       // attn.norm_added_k.weight
      %attn_to_out_0_weight: tensor<3072x3072xbf16>,                     // attn.to_out.0.weight
      %attn_to_out_0_bias: tensor<3072xbf16>,                            // attn.to_out.0.bias
      %attn_to_add_out_weight: tensor<3072x3072xbf16>,                   // attn.to_add_out.weight
      %attn_to_add_out_bias: tensor<3072xbf16>,                          // attn.to_add_out.bias
      %ff_net_0_proj_weight: tensor<12288x3072xbf16>,                    // ff.net.0.proj.weight
      %ff_net_0_proj_bias: tensor<12288xbf16>,                           // ff.net.0.proj.bias
      %ff_net_2_weight: tensor<3072x12288xbf16>,                         // ff.net.2.weight
      %ff_net_2_bias: tensor<3072xbf16>,                                 // ff.net.2.bias
      %ff_context_net_0_proj_weight: tensor<12288x3072xbf16>,            // ff_context.net.0.proj.weight
      %ff_context_net_0_proj_bias: tensor<12288xbf16>,                   // ff_context.net.0.proj.bias
      %ff_context_net_2_weight: tensor<3072x12288xbf16>,                 // ff_context.net.2.weight
      %ff_context_net_2_bias: tensor<3072xbf16>                          // ff_context.net.2.bias
  ) -> (tensor<1x512x3072xbf16>, tensor<1x4096x3072xbf16>) {
    // ---- scalar constants --------------------------------------------------
    %one = arith.constant dense<1.000000e+00> : tensor<bf16>
    %two = arith.constant dense<2.000000e+00> : tensor<f32>
    %rms_eps = arith.constant dense<1.000000e-06> : tensor<f32>

    // ==== norm1(hidden_states, emb=temb) ======================================
    // norm1 = AdaLayerNormZero(3072): emb = linear(silu(temb)); 6-way chunk
    %img_silu = "dit.silu"(%temb) : (tensor<1x3072xbf16>) -> tensor<1x3072xbf16>
    %img_emb = "dit.linear"(%img_silu, %norm1_linear_weight, %norm1_linear_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x3072xbf16>, tensor<18432x3072xbf16>, tensor<18432xbf16>) -> tensor<1x18432xbf16>
    %img_shift_msa, %img_scale_msa, %img_gate_msa, %img_shift_mlp, %img_scale_mlp, %img_gate_mlp = "dit.split"(%img_emb) {dim = 1 : i64, sizes = array<i64: 3072, 3072, 3072, 3072, 3072, 3072>} : (tensor<1x18432xbf16>) -> (tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>)
    // norm1.norm (LayerNorm, no affine, eps 1e-6); x * (1 + scale_msa[:, None]) + shift_msa[:, None]
    %img_norm1 = "dit.layer_norm"(%hidden_states) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x4096x3072xbf16>) -> tensor<1x4096x3072xbf16>
    %img_msa_scale_b = "dit.reshape"(%img_scale_msa) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_msa_one_plus_scale = "dit.add"(%one, %img_msa_scale_b) : (tensor<bf16>, tensor<1x1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_msa_scaled = "dit.mul"(%img_norm1, %img_msa_one_plus_scale) : (tensor<1x4096x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x4096x3072xbf16>
    %img_msa_shift_b = "dit.reshape"(%img_shift_msa) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_msa_mod = "dit.add"(%img_msa_scaled, %img_msa_shift_b) : (tensor<1x4096x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x4096x3072xbf16>

    // ==== norm1_context(encoder_hidden_states, emb=temb) ======================
    // norm1_context = AdaLayerNormZero(3072): emb = linear(silu(temb)); 6-way chunk
    %txt_silu = "dit.silu"(%temb) : (tensor<1x3072xbf16>) -> tensor<1x3072xbf16>
    %txt_emb = "dit.linear"(%txt_silu, %norm1_context_linear_weight, %norm1_context_linear_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x3072xbf16>, tensor<18432x3072xbf16>, tensor<18432xbf16>) -> tensor<1x18432xbf16>
    %txt_shift_msa, %txt_scale_msa, %txt_gate_msa, %txt_shift_mlp, %txt_scale_mlp, %txt_gate_mlp = "dit.split"(%txt_emb) {dim = 1 : i64, sizes = array<i64: 3072, 3072, 3072, 3072, 3072, 3072>} : (tensor<1x18432xbf16>) -> (tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>)
    // norm1_context.norm (LayerNorm, no affine, eps 1e-6); x * (1 + scale_msa[:, None]) + shift_msa[:, None]
    %txt_norm1 = "dit.layer_norm"(%encoder_hidden_states) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x512x3072xbf16>) -> tensor<1x512x3072xbf16>
    %txt_msa_scale_b = "dit.reshape"(%txt_scale_msa) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_msa_one_plus_scale = "dit.add"(%one, %txt_msa_scale_b) : (tensor<bf16>, tensor<1x1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_msa_scaled = "dit.mul"(%txt_norm1, %txt_msa_one_plus_scale) : (tensor<1x512x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x512x3072xbf16>
    %txt_msa_shift_b = "dit.reshape"(%txt_shift_msa) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_msa_mod = "dit.add"(%txt_msa_scaled, %txt_msa_shift_b) : (tensor<1x512x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x512x3072xbf16>

    // ==== attn = Attention(..., processor=FluxAttnProcessor2_0) ================
    // ---- sample (image) projections: to_q/to_k/to_v, view(1,-1,24,128).transpose(1,2)
    %img_q_proj = "dit.linear"(%img_msa_mod, %attn_to_q_weight, %attn_to_q_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4096x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x4096x3072xbf16>
    %img_k_proj = "dit.linear"(%img_msa_mod, %attn_to_k_weight, %attn_to_k_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4096x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x4096x3072xbf16>
    %img_v_proj = "dit.linear"(%img_msa_mod, %attn_to_v_weight, %attn_to_v_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4096x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x4096x3072xbf16>
    %img_q_bshd = "dit.reshape"(%img_q_proj) : (tensor<1x4096x3072xbf16>) -> tensor<1x4096x24x128xbf16>
    %img_q = "dit.transpose"(%img_q_bshd) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4096x24x128xbf16>) -> tensor<1x24x4096x128xbf16>
    %img_k_bshd = "dit.reshape"(%img_k_proj) : (tensor<1x4096x3072xbf16>) -> tensor<1x4096x24x128xbf16>
    %img_k = "dit.transpose"(%img_k_bshd) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4096x24x128xbf16>) -> tensor<1x24x4096x128xbf16>
    %img_v_bshd = "dit.reshape"(%img_v_proj) : (tensor<1x4096x3072xbf16>) -> tensor<1x4096x24x128xbf16>
    %img_v = "dit.transpose"(%img_v_bshd) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4096x24x128xbf16>) -> tensor<1x24x4096x128xbf16>
    // attn.norm_q: diffusers RMSNorm(128, eps=1e-6), decomposed: var = x.float().pow(2).mean(-1, keepdim)
    // x * rsqrt(var + eps) promotes bf16 x f32 to f32 (so it reads the f32 x); .to(bf16); * weight
    %img_q_rms_f32 = "dit.cast"(%img_q) : (tensor<1x24x4096x128xbf16>) -> tensor<1x24x4096x128xf32>
    %img_q_rms_sq = "dit.pow"(%img_q_rms_f32, %two) : (tensor<1x24x4096x128xf32>, tensor<f32>) -> tensor<1x24x4096x128xf32>
    %img_q_rms_var = "dit.reduce_mean"(%img_q_rms_sq) {dims = array<i64: 3>, keepdim = true} : (tensor<1x24x4096x128xf32>) -> tensor<1x24x4096x1xf32>
    %img_q_rms_var_eps = "dit.add"(%img_q_rms_var, %rms_eps) : (tensor<1x24x4096x1xf32>, tensor<f32>) -> tensor<1x24x4096x1xf32>
    %img_q_rms_rstd = "dit.rsqrt"(%img_q_rms_var_eps) : (tensor<1x24x4096x1xf32>) -> tensor<1x24x4096x1xf32>
    %img_q_rms_scaled = "dit.mul"(%img_q_rms_f32, %img_q_rms_rstd) : (tensor<1x24x4096x128xf32>, tensor<1x24x4096x1xf32>) -> tensor<1x24x4096x128xf32>
    %img_q_rms_bf16 = "dit.cast"(%img_q_rms_scaled) : (tensor<1x24x4096x128xf32>) -> tensor<1x24x4096x128xbf16>
    %img_q_normed = "dit.mul"(%img_q_rms_bf16, %attn_norm_q_weight) : (tensor<1x24x4096x128xbf16>, tensor<128xbf16>) -> tensor<1x24x4096x128xbf16>
    // attn.norm_k: diffusers RMSNorm(128, eps=1e-6), decomposed: var = x.float().pow(2).mean(-1, keepdim)
    // x * rsqrt(var + eps) promotes bf16 x f32 to f32 (so it reads the f32 x); .to(bf16); * weight
    %img_k_rms_f32 = "dit.cast"(%img_k) : (tensor<1x24x4096x128xbf16>) -> tensor<1x24x4096x128xf32>
    %img_k_rms_sq = "dit.pow"(%img_k_rms_f32, %two) : (tensor<1x24x4096x128xf32>, tensor<f32>) -> tensor<1x24x4096x128xf32>
    %img_k_rms_var = "dit.reduce_mean"(%img_k_rms_sq) {dims = array<i64: 3>, keepdim = true} : (tensor<1x24x4096x128xf32>) -> tensor<1x24x4096x1xf32>
    %img_k_rms_var_eps = "dit.add"(%img_k_rms_var, %rms_eps) : (tensor<1x24x4096x1xf32>, tensor<f32>) -> tensor<1x24x4096x1xf32>
    %img_k_rms_rstd = "dit.rsqrt"(%img_k_rms_var_eps) : (tensor<1x24x4096x1xf32>) -> tensor<1x24x4096x1xf32>
    %img_k_rms_scaled = "dit.mul"(%img_k_rms_f32, %img_k_rms_rstd) : (tensor<1x24x4096x128xf32>, tensor<1x24x4096x1xf32>) -> tensor<1x24x4096x128xf32>
    %img_k_rms_bf16 = "dit.cast"(%img_k_rms_scaled) : (tensor<1x24x4096x128xf32>) -> tensor<1x24x4096x128xbf16>
    %img_k_normed = "dit.mul"(%img_k_rms_bf16, %attn_norm_k_weight) : (tensor<1x24x4096x128xbf16>, tensor<128xbf16>) -> tensor<1x24x4096x128xbf16>

    // ---- context (text) projections: add_q_proj/add_k_proj/add_v_proj
    %txt_q_proj = "dit.linear"(%txt_msa_mod, %attn_add_q_proj_weight, %attn_add_q_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x512x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x512x3072xbf16>
    %txt_k_proj = "dit.linear"(%txt_msa_mod, %attn_add_k_proj_weight, %attn_add_k_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x512x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x512x3072xbf16>
    %txt_v_proj = "dit.linear"(%txt_msa_mod, %attn_add_v_proj_weight, %attn_add_v_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x512x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x512x3072xbf16>
    %txt_q_bshd = "dit.reshape"(%txt_q_proj) : (tensor<1x512x3072xbf16>) -> tensor<1x512x24x128xbf16>
    %txt_q = "dit.transpose"(%txt_q_bshd) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x512x24x128xbf16>) -> tensor<1x24x512x128xbf16>
    %txt_k_bshd = "dit.reshape"(%txt_k_proj) : (tensor<1x512x3072xbf16>) -> tensor<1x512x24x128xbf16>
    %txt_k = "dit.transpose"(%txt_k_bshd) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x512x24x128xbf16>) -> tensor<1x24x512x128xbf16>
    %txt_v_bshd = "dit.reshape"(%txt_v_proj) : (tensor<1x512x3072xbf16>) -> tensor<1x512x24x128xbf16>
    %txt_v = "dit.transpose"(%txt_v_bshd) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x512x24x128xbf16>) -> tensor<1x24x512x128xbf16>
    // attn.norm_added_q: diffusers RMSNorm(128, eps=1e-6), decomposed: var = x.float().pow(2).mean(-1, keepdim)
    // x * rsqrt(var + eps) promotes bf16 x f32 to f32 (so it reads the f32 x); .to(bf16); * weight
    %txt_q_rms_f32 = "dit.cast"(%txt_q) : (tensor<1x24x512x128xbf16>) -> tensor<1x24x512x128xf32>
    %txt_q_rms_sq = "dit.pow"(%txt_q_rms_f32, %two) : (tensor<1x24x512x128xf32>, tensor<f32>) -> tensor<1x24x512x128xf32>
    %txt_q_rms_var = "dit.reduce_mean"(%txt_q_rms_sq) {dims = array<i64: 3>, keepdim = true} : (tensor<1x24x512x128xf32>) -> tensor<1x24x512x1xf32>
    %txt_q_rms_var_eps = "dit.add"(%txt_q_rms_var, %rms_eps) : (tensor<1x24x512x1xf32>, tensor<f32>) -> tensor<1x24x512x1xf32>
    %txt_q_rms_rstd = "dit.rsqrt"(%txt_q_rms_var_eps) : (tensor<1x24x512x1xf32>) -> tensor<1x24x512x1xf32>
    %txt_q_rms_scaled = "dit.mul"(%txt_q_rms_f32, %txt_q_rms_rstd) : (tensor<1x24x512x128xf32>, tensor<1x24x512x1xf32>) -> tensor<1x24x512x128xf32>
    %txt_q_rms_bf16 = "dit.cast"(%txt_q_rms_scaled) : (tensor<1x24x512x128xf32>) -> tensor<1x24x512x128xbf16>
    %txt_q_normed = "dit.mul"(%txt_q_rms_bf16, %attn_norm_added_q_weight) : (tensor<1x24x512x128xbf16>, tensor<128xbf16>) -> tensor<1x24x512x128xbf16>
    // attn.norm_added_k: diffusers RMSNorm(128, eps=1e-6), decomposed: var = x.float().pow(2).mean(-1, keepdim)
    // x * rsqrt(var + eps) promotes bf16 x f32 to f32 (so it reads the f32 x); .to(bf16); * weight
    %txt_k_rms_f32 = "dit.cast"(%txt_k) : (tensor<1x24x512x128xbf16>) -> tensor<1x24x512x128xf32>
    %txt_k_rms_sq = "dit.pow"(%txt_k_rms_f32, %two) : (tensor<1x24x512x128xf32>, tensor<f32>) -> tensor<1x24x512x128xf32>
    %txt_k_rms_var = "dit.reduce_mean"(%txt_k_rms_sq) {dims = array<i64: 3>, keepdim = true} : (tensor<1x24x512x128xf32>) -> tensor<1x24x512x1xf32>
    %txt_k_rms_var_eps = "dit.add"(%txt_k_rms_var, %rms_eps) : (tensor<1x24x512x1xf32>, tensor<f32>) -> tensor<1x24x512x1xf32>
    %txt_k_rms_rstd = "dit.rsqrt"(%txt_k_rms_var_eps) : (tensor<1x24x512x1xf32>) -> tensor<1x24x512x1xf32>
    %txt_k_rms_scaled = "dit.mul"(%txt_k_rms_f32, %txt_k_rms_rstd) : (tensor<1x24x512x128xf32>, tensor<1x24x512x1xf32>) -> tensor<1x24x512x128xf32>
    %txt_k_rms_bf16 = "dit.cast"(%txt_k_rms_scaled) : (tensor<1x24x512x128xf32>) -> tensor<1x24x512x128xbf16>
    %txt_k_normed = "dit.mul"(%txt_k_rms_bf16, %attn_norm_added_k_weight) : (tensor<1x24x512x128xbf16>, tensor<128xbf16>) -> tensor<1x24x512x128xbf16>

    // ---- joint sequence: torch.cat([text, image], dim=2) -> [1,24,4608,128]
    %joint_q = "dit.concat"(%txt_q_normed, %img_q_normed) {dim = 2 : i64} : (tensor<1x24x512x128xbf16>, tensor<1x24x4096x128xbf16>) -> tensor<1x24x4608x128xbf16>
    %joint_k = "dit.concat"(%txt_k_normed, %img_k_normed) {dim = 2 : i64} : (tensor<1x24x512x128xbf16>, tensor<1x24x4096x128xbf16>) -> tensor<1x24x4608x128xbf16>
    %joint_v = "dit.concat"(%txt_v, %img_v) {dim = 2 : i64} : (tensor<1x24x512x128xbf16>, tensor<1x24x4096x128xbf16>) -> tensor<1x24x4608x128xbf16>

    // ---- rotary embedding on q and k (cos/sin[None, None] -> [1,1,4608,128])
    // apply_rotary_emb(q, image_rotary_emb), use_real=True, use_real_unbind_dim=-1:
    // x_real, x_imag = x.reshape(..., 64, 2).unbind(-1); x_rotated = stack([-x_imag, x_real], -1).flatten(3)
    // out = (x.float() * cos + x_rotated.float() * sin).to(x.dtype)
    %q_rope_cos = "dit.reshape"(%rope_cos) : (tensor<4608x128xf32>) -> tensor<1x1x4608x128xf32>
    %q_rope_sin = "dit.reshape"(%rope_sin) : (tensor<4608x128xf32>) -> tensor<1x1x4608x128xf32>
    %q_rope_pairs = "dit.reshape"(%joint_q) : (tensor<1x24x4608x128xbf16>) -> tensor<1x24x4608x64x2xbf16>
    %q_rope_real1, %q_rope_imag1 = "dit.split"(%q_rope_pairs) {dim = 4 : i64, sizes = array<i64: 1, 1>} : (tensor<1x24x4608x64x2xbf16>) -> (tensor<1x24x4608x64x1xbf16>, tensor<1x24x4608x64x1xbf16>)
    %q_rope_real = "dit.reshape"(%q_rope_real1) : (tensor<1x24x4608x64x1xbf16>) -> tensor<1x24x4608x64xbf16>
    %q_rope_imag = "dit.reshape"(%q_rope_imag1) : (tensor<1x24x4608x64x1xbf16>) -> tensor<1x24x4608x64xbf16>
    %q_rope_neg_imag = "dit.neg"(%q_rope_imag) : (tensor<1x24x4608x64xbf16>) -> tensor<1x24x4608x64xbf16>
    %q_rope_stk0 = "dit.reshape"(%q_rope_neg_imag) : (tensor<1x24x4608x64xbf16>) -> tensor<1x24x4608x64x1xbf16>
    %q_rope_stk1 = "dit.reshape"(%q_rope_real) : (tensor<1x24x4608x64xbf16>) -> tensor<1x24x4608x64x1xbf16>
    %q_rope_stacked = "dit.concat"(%q_rope_stk0, %q_rope_stk1) {dim = 4 : i64} : (tensor<1x24x4608x64x1xbf16>, tensor<1x24x4608x64x1xbf16>) -> tensor<1x24x4608x64x2xbf16>
    %q_rope_rotated = "dit.reshape"(%q_rope_stacked) : (tensor<1x24x4608x64x2xbf16>) -> tensor<1x24x4608x128xbf16>
    %q_rope_x_f32 = "dit.cast"(%joint_q) : (tensor<1x24x4608x128xbf16>) -> tensor<1x24x4608x128xf32>
    %q_rope_x_cos = "dit.mul"(%q_rope_x_f32, %q_rope_cos) : (tensor<1x24x4608x128xf32>, tensor<1x1x4608x128xf32>) -> tensor<1x24x4608x128xf32>
    %q_rope_rot_f32 = "dit.cast"(%q_rope_rotated) : (tensor<1x24x4608x128xbf16>) -> tensor<1x24x4608x128xf32>
    %q_rope_rot_sin = "dit.mul"(%q_rope_rot_f32, %q_rope_sin) : (tensor<1x24x4608x128xf32>, tensor<1x1x4608x128xf32>) -> tensor<1x24x4608x128xf32>
    %q_rope_sum = "dit.add"(%q_rope_x_cos, %q_rope_rot_sin) : (tensor<1x24x4608x128xf32>, tensor<1x24x4608x128xf32>) -> tensor<1x24x4608x128xf32>
    %q_rope = "dit.cast"(%q_rope_sum) : (tensor<1x24x4608x128xf32>) -> tensor<1x24x4608x128xbf16>
    // apply_rotary_emb(k, image_rotary_emb), use_real=True, use_real_unbind_dim=-1:
    // x_real, x_imag = x.reshape(..., 64, 2).unbind(-1); x_rotated = stack([-x_imag, x_real], -1).flatten(3)
    // out = (x.float() * cos + x_rotated.float() * sin).to(x.dtype)
    %k_rope_cos = "dit.reshape"(%rope_cos) : (tensor<4608x128xf32>) -> tensor<1x1x4608x128xf32>
    %k_rope_sin = "dit.reshape"(%rope_sin) : (tensor<4608x128xf32>) -> tensor<1x1x4608x128xf32>
    %k_rope_pairs = "dit.reshape"(%joint_k) : (tensor<1x24x4608x128xbf16>) -> tensor<1x24x4608x64x2xbf16>
    %k_rope_real1, %k_rope_imag1 = "dit.split"(%k_rope_pairs) {dim = 4 : i64, sizes = array<i64: 1, 1>} : (tensor<1x24x4608x64x2xbf16>) -> (tensor<1x24x4608x64x1xbf16>, tensor<1x24x4608x64x1xbf16>)
    %k_rope_real = "dit.reshape"(%k_rope_real1) : (tensor<1x24x4608x64x1xbf16>) -> tensor<1x24x4608x64xbf16>
    %k_rope_imag = "dit.reshape"(%k_rope_imag1) : (tensor<1x24x4608x64x1xbf16>) -> tensor<1x24x4608x64xbf16>
    %k_rope_neg_imag = "dit.neg"(%k_rope_imag) : (tensor<1x24x4608x64xbf16>) -> tensor<1x24x4608x64xbf16>
    %k_rope_stk0 = "dit.reshape"(%k_rope_neg_imag) : (tensor<1x24x4608x64xbf16>) -> tensor<1x24x4608x64x1xbf16>
    %k_rope_stk1 = "dit.reshape"(%k_rope_real) : (tensor<1x24x4608x64xbf16>) -> tensor<1x24x4608x64x1xbf16>
    %k_rope_stacked = "dit.concat"(%k_rope_stk0, %k_rope_stk1) {dim = 4 : i64} : (tensor<1x24x4608x64x1xbf16>, tensor<1x24x4608x64x1xbf16>) -> tensor<1x24x4608x64x2xbf16>
    %k_rope_rotated = "dit.reshape"(%k_rope_stacked) : (tensor<1x24x4608x64x2xbf16>) -> tensor<1x24x4608x128xbf16>
    %k_rope_x_f32 = "dit.cast"(%joint_k) : (tensor<1x24x4608x128xbf16>) -> tensor<1x24x4608x128xf32>
    %k_rope_x_cos = "dit.mul"(%k_rope_x_f32, %k_rope_cos) : (tensor<1x24x4608x128xf32>, tensor<1x1x4608x128xf32>) -> tensor<1x24x4608x128xf32>
    %k_rope_rot_f32 = "dit.cast"(%k_rope_rotated) : (tensor<1x24x4608x128xbf16>) -> tensor<1x24x4608x128xf32>
    %k_rope_rot_sin = "dit.mul"(%k_rope_rot_f32, %k_rope_sin) : (tensor<1x24x4608x128xf32>, tensor<1x1x4608x128xf32>) -> tensor<1x24x4608x128xf32>
    %k_rope_sum = "dit.add"(%k_rope_x_cos, %k_rope_rot_sin) : (tensor<1x24x4608x128xf32>, tensor<1x24x4608x128xf32>) -> tensor<1x24x4608x128xf32>
    %k_rope = "dit.cast"(%k_rope_sum) : (tensor<1x24x4608x128xf32>) -> tensor<1x24x4608x128xbf16>

    // ---- F.scaled_dot_product_attention(q, k, v), default scale 1/sqrt(128)
    %attn = "dit.attention"(%q_rope, %k_rope, %joint_v) {scale = 0.0883883476 : f32, layout = "BNSD", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x24x4608x128xbf16>, tensor<1x24x4608x128xbf16>, tensor<1x24x4608x128xbf16>) -> tensor<1x24x4608x128xbf16>
    // .transpose(1, 2).reshape(1, -1, 24 * 128); the following .to(query.dtype) is bf16 -> bf16, a no-op
    %attn_bsnd = "dit.transpose"(%attn) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x24x4608x128xbf16>) -> tensor<1x4608x24x128xbf16>
    %attn_flat = "dit.reshape"(%attn_bsnd) : (tensor<1x4608x24x128xbf16>) -> tensor<1x4608x3072xbf16>
    // split back: encoder_hidden_states = out[:, :512], hidden_states = out[:, 512:]
    %txt_attn = "dit.slice"(%attn_flat) {dim = 1 : i64, start = 0 : i64, end = 512 : i64, step = 1 : i64} : (tensor<1x4608x3072xbf16>) -> tensor<1x512x3072xbf16>
    %img_attn = "dit.slice"(%attn_flat) {dim = 1 : i64, start = 512 : i64, end = 4608 : i64, step = 1 : i64} : (tensor<1x4608x3072xbf16>) -> tensor<1x4096x3072xbf16>
    // attn.to_out[0] (to_out[1] is Dropout) and attn.to_add_out
    %img_attn_out = "dit.linear"(%img_attn, %attn_to_out_0_weight, %attn_to_out_0_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4096x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x4096x3072xbf16>
    %txt_attn_out = "dit.linear"(%txt_attn, %attn_to_add_out_weight, %attn_to_add_out_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x512x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x512x3072xbf16>

    // ==== image stream: gated residuals and feed-forward ======================
    // hidden_states = hidden_states + gate_msa.unsqueeze(1) * attn_output
    %img_gate_msa_b = "dit.reshape"(%img_gate_msa) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_attn_gated = "dit.mul"(%img_gate_msa_b, %img_attn_out) : (tensor<1x1x3072xbf16>, tensor<1x4096x3072xbf16>) -> tensor<1x4096x3072xbf16>
    %img_resid1 = "dit.add"(%hidden_states, %img_attn_gated) : (tensor<1x4096x3072xbf16>, tensor<1x4096x3072xbf16>) -> tensor<1x4096x3072xbf16>
    // norm2 (LayerNorm, no affine, eps 1e-6); * (1 + scale_mlp[:, None]) + shift_mlp[:, None]
    %img_norm2 = "dit.layer_norm"(%img_resid1) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x4096x3072xbf16>) -> tensor<1x4096x3072xbf16>
    %img_mlp_scale_b = "dit.reshape"(%img_scale_mlp) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_mlp_one_plus_scale = "dit.add"(%one, %img_mlp_scale_b) : (tensor<bf16>, tensor<1x1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_mlp_scaled = "dit.mul"(%img_norm2, %img_mlp_one_plus_scale) : (tensor<1x4096x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x4096x3072xbf16>
    %img_mlp_shift_b = "dit.reshape"(%img_shift_mlp) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_mlp_mod = "dit.add"(%img_mlp_scaled, %img_mlp_shift_b) : (tensor<1x4096x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x4096x3072xbf16>
    // ff = FeedForward(3072, activation_fn="gelu-approximate"): net.0 = GELU(proj 3072->12288, tanh), net.1 = Dropout, net.2 = Linear 12288->3072
    %img_ff_proj = "dit.linear"(%img_mlp_mod, %ff_net_0_proj_weight, %ff_net_0_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4096x3072xbf16>, tensor<12288x3072xbf16>, tensor<12288xbf16>) -> tensor<1x4096x12288xbf16>
    %img_ff_gelu = "dit.gelu"(%img_ff_proj) {approximate = "tanh"} : (tensor<1x4096x12288xbf16>) -> tensor<1x4096x12288xbf16>
    %img_ff_out = "dit.linear"(%img_ff_gelu, %ff_net_2_weight, %ff_net_2_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4096x12288xbf16>, tensor<3072x12288xbf16>, tensor<3072xbf16>) -> tensor<1x4096x3072xbf16>
    // hidden_states = hidden_states + gate_mlp.unsqueeze(1) * ff_output
    %img_gate_mlp_b = "dit.reshape"(%img_gate_mlp) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_ff_gated = "dit.mul"(%img_gate_mlp_b, %img_ff_out) : (tensor<1x1x3072xbf16>, tensor<1x4096x3072xbf16>) -> tensor<1x4096x3072xbf16>
    %img_out = "dit.add"(%img_resid1, %img_ff_gated) : (tensor<1x4096x3072xbf16>, tensor<1x4096x3072xbf16>) -> tensor<1x4096x3072xbf16>

    // ==== text stream: gated residuals and feed-forward =======================
    // encoder_hidden_states = encoder_hidden_states + c_gate_msa.unsqueeze(1) * context_attn_output
    %txt_gate_msa_b = "dit.reshape"(%txt_gate_msa) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_attn_gated = "dit.mul"(%txt_gate_msa_b, %txt_attn_out) : (tensor<1x1x3072xbf16>, tensor<1x512x3072xbf16>) -> tensor<1x512x3072xbf16>
    %txt_resid1 = "dit.add"(%encoder_hidden_states, %txt_attn_gated) : (tensor<1x512x3072xbf16>, tensor<1x512x3072xbf16>) -> tensor<1x512x3072xbf16>
    // norm2_context (LayerNorm, no affine, eps 1e-6); * (1 + c_scale_mlp[:, None]) + c_shift_mlp[:, None]
    %txt_norm2 = "dit.layer_norm"(%txt_resid1) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x512x3072xbf16>) -> tensor<1x512x3072xbf16>
    %txt_mlp_scale_b = "dit.reshape"(%txt_scale_mlp) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_mlp_one_plus_scale = "dit.add"(%one, %txt_mlp_scale_b) : (tensor<bf16>, tensor<1x1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_mlp_scaled = "dit.mul"(%txt_norm2, %txt_mlp_one_plus_scale) : (tensor<1x512x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x512x3072xbf16>
    %txt_mlp_shift_b = "dit.reshape"(%txt_shift_mlp) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_mlp_mod = "dit.add"(%txt_mlp_scaled, %txt_mlp_shift_b) : (tensor<1x512x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x512x3072xbf16>
    // ff_context = FeedForward(3072, activation_fn="gelu-approximate"): net.0 = GELU(proj 3072->12288, tanh), net.1 = Dropout, net.2 = Linear 12288->3072
    %txt_ff_proj = "dit.linear"(%txt_mlp_mod, %ff_context_net_0_proj_weight, %ff_context_net_0_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x512x3072xbf16>, tensor<12288x3072xbf16>, tensor<12288xbf16>) -> tensor<1x512x12288xbf16>
    %txt_ff_gelu = "dit.gelu"(%txt_ff_proj) {approximate = "tanh"} : (tensor<1x512x12288xbf16>) -> tensor<1x512x12288xbf16>
    %txt_ff_out = "dit.linear"(%txt_ff_gelu, %ff_context_net_2_weight, %ff_context_net_2_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x512x12288xbf16>, tensor<3072x12288xbf16>, tensor<3072xbf16>) -> tensor<1x512x3072xbf16>
    // encoder_hidden_states = encoder_hidden_states + c_gate_mlp.unsqueeze(1) * context_ff_output
    %txt_gate_mlp_b = "dit.reshape"(%txt_gate_mlp) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_ff_gated = "dit.mul"(%txt_gate_mlp_b, %txt_ff_out) : (tensor<1x1x3072xbf16>, tensor<1x512x3072xbf16>) -> tensor<1x512x3072xbf16>
    %txt_out = "dit.add"(%txt_resid1, %txt_ff_gated) : (tensor<1x512x3072xbf16>, tensor<1x512x3072xbf16>) -> tensor<1x512x3072xbf16>
    // (the fp16 clip(-65504, 65504) branch does not apply to bf16)

    // return encoder_hidden_states, hidden_states  (diffusers order)
    func.return %txt_out, %img_out : tensor<1x512x3072xbf16>, tensor<1x4096x3072xbf16>
  }
}
