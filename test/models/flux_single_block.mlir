// RUN: dit-opt %s | dit-opt | FileCheck %s
// RUN: dit-opt %s | dit-opt | FileCheck %s --check-prefix=OPS
//
// flux_single_block.mlir -- one FLUX.1-dev single-stream transformer block
// (FluxSingleTransformerBlock) in the dit dialect, as a frontend would emit it: primitive ops
// only, nothing fused. The input later passes raise and fuse (dit.rms_norm, dit.rope,
// dit.ada_layer_norm, dit.fast_gelu, linear + activation, ...); RMSNorm and RoPE are spelled out
// the way diffusers computes them. Same conventions as examples/flux_double_block.mlir.
//
// Follows diffusers v0.32.2, written in the order the model code computes it:
//   models/transformers/transformer_flux.py   FluxSingleTransformerBlock.forward
//   models/normalization.py                   AdaLayerNormZeroSingle (norm), RMSNorm
//   models/attention_processor.py             Attention(qk_norm="rms_norm", pre_only=True)
//                                             with FluxAttnProcessor2_0 (BNSD layout, no to_out)
//   models/embeddings.py                      apply_rotary_emb(use_real=True, use_real_unbind_dim=-1)
// On torch_npu, v0.32.2 picks FluxAttnProcessor2_0_NPU: the same graph with
// npu_fusion_attention(input_layout="BNSD", scale=1/sqrt(128)) in place of SDPA (one dit.attention).
// Newer diffusers (FluxAttention + FluxAttnProcessor) computes the same block in [B,S,H,D]
// layout (q/k norm and RoPE before the head transpose) with torch.nn.RMSNorm.
//
// Configuration (FLUX.1-dev): hidden 3072, 24 heads x 128, mlp_ratio 4 -> 12288, eps 1e-6;
// batch 1, joint sequence 512 text + 4096 image tokens = 4608 (the single blocks run on
// torch.cat([encoder_hidden_states, hidden_states], dim=1)). Activations and weights bf16
// (linear weight [N, K], bias [N], RMSNorm gamma [128]); RoPE cos/sin f32 [4608, 128].
// The MLP branch (proj_mlp + GELU(tanh)) runs in parallel with attention; both are concatenated
// along the feature dim (3072 + 12288 = 15360) before proj_out, then the gated residual.
// Precision follows the model code: RMSNorm and RoPE compute in f32 via explicit casts;
// layer_norm, attention and gelu keep bf16 in and out.
//
// Left out: computing temb and the RoPE tables (FluxPosEmbed) -- arguments; the text/image
// concat before and split after the single-block stack (FluxTransformer2DModel.forward); the
// bf16 -> bf16 `.to(query.dtype)` after attention (no-op); attention mask (none in FLUX);
// IP-adapter, LoRA scaling, fused-QKV processor and the fp16-only clip(-65504, 65504).
//
// 81 ops (including the 3 arith.constant scalars; func.return not counted):
// 6 dit.linear, 1 dit.attention, 1 dit.gelu, 2 dit.rsqrt, 1 dit.layer_norm.

// CHECK-LABEL: func.func @flux_single_block
// CHECK-COUNT-6: "dit.linear"
// CHECK-NOT: "dit.linear"
// CHECK: return

// OPS-LABEL: func.func @flux_single_block
// OPS: "dit.silu"
// OPS: "dit.layer_norm"
// OPS: "dit.gelu"{{.*}}approximate = "tanh"
// OPS-COUNT-2: "dit.rsqrt"
// OPS-COUNT-2: "dit.neg"
// OPS: "dit.attention"{{.*}}scale = 0.0883883{{[0-9]*}} : f32
// OPS-NOT: "dit.attention"
// OPS: "dit.concat"{{.*}}dim = 2 : i64{{.*}} -> tensor<1x4608x15360xbf16>
// OPS: "dit.linear"{{.*}}tensor<3072x15360xbf16>
// OPS: return

module {
  func.func @flux_single_block(
      %hidden_states: tensor<1x4608x3072xbf16>,                              // joint stream: cat([encoder_hidden_states (512 text), hidden_states (4096 image)], dim=1)
      %temb: tensor<1x3072xbf16>,                                            // timestep + guidance + pooled-text embedding
      %rope_cos: tensor<4608x128xf32>,                                       // image_rotary_emb[0]: FluxPosEmbed cos, text ids first
      %rope_sin: tensor<4608x128xf32>,                                       // image_rotary_emb[1]: FluxPosEmbed sin
      %norm_linear_weight: tensor<9216x3072xbf16>,                           // norm.linear.weight (AdaLayerNormZeroSingle)
      %norm_linear_bias: tensor<9216xbf16>,                                  // norm.linear.bias
      %proj_mlp_weight: tensor<12288x3072xbf16>,                             // proj_mlp.weight
      %proj_mlp_bias: tensor<12288xbf16>,                                    // proj_mlp.bias
      %attn_to_q_weight: tensor<3072x3072xbf16>,                             // attn.to_q.weight
      %attn_to_q_bias: tensor<3072xbf16>,                                    // attn.to_q.bias
      %attn_to_k_weight: tensor<3072x3072xbf16>,                             // attn.to_k.weight
      %attn_to_k_bias: tensor<3072xbf16>,                                    // attn.to_k.bias
      %attn_to_v_weight: tensor<3072x3072xbf16>,                             // attn.to_v.weight
      %attn_to_v_bias: tensor<3072xbf16>,                                    // attn.to_v.bias
      %attn_norm_q_weight: tensor<128xbf16>,                                 // attn.norm_q.weight
      %attn_norm_k_weight: tensor<128xbf16>,                                 // attn.norm_k.weight
      %proj_out_weight: tensor<3072x15360xbf16>,                             // proj_out.weight (3072 + 12288 -> 3072)
      %proj_out_bias: tensor<3072xbf16>                                      // proj_out.bias
  ) -> tensor<1x4608x3072xbf16> {
    // ---- scalar constants --------------------------------------------------
    %one = arith.constant dense<1.000000e+00> : tensor<bf16>
    %two = arith.constant dense<2.000000e+00> : tensor<f32>
    %rms_eps = arith.constant dense<1.000000e-06> : tensor<f32>

    // ==== norm(hidden_states, emb=temb) =======================================
    // norm = AdaLayerNormZeroSingle(3072): emb = linear(silu(temb)); 3-way chunk -> shift_msa, scale_msa, gate
    %silu = "dit.silu"(%temb) : (tensor<1x3072xbf16>) -> tensor<1x3072xbf16>
    %emb = "dit.linear"(%silu, %norm_linear_weight, %norm_linear_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x3072xbf16>, tensor<9216x3072xbf16>, tensor<9216xbf16>) -> tensor<1x9216xbf16>
    %shift_msa, %scale_msa, %gate_msa = "dit.split"(%emb) {dim = 1 : i64, sizes = array<i64: 3072, 3072, 3072>} : (tensor<1x9216xbf16>) -> (tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>)
    // norm.norm (LayerNorm, no affine, eps 1e-6); x * (1 + scale_msa[:, None]) + shift_msa[:, None]
    %norm_x = "dit.layer_norm"(%hidden_states) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x4608x3072xbf16>) -> tensor<1x4608x3072xbf16>
    %msa_scale_b = "dit.reshape"(%scale_msa) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %msa_one_plus_scale = "dit.add"(%one, %msa_scale_b) : (tensor<bf16>, tensor<1x1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %msa_scaled = "dit.mul"(%norm_x, %msa_one_plus_scale) : (tensor<1x4608x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x4608x3072xbf16>
    %msa_shift_b = "dit.reshape"(%shift_msa) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %norm_hidden_states = "dit.add"(%msa_scaled, %msa_shift_b) : (tensor<1x4608x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x4608x3072xbf16>

    // ==== MLP branch: mlp_hidden_states = act_mlp(proj_mlp(norm_hidden_states)) ===
    // proj_mlp 3072 -> 12288 (mlp_ratio 4), act_mlp = nn.GELU(approximate="tanh")
    %mlp_proj = "dit.linear"(%norm_hidden_states, %proj_mlp_weight, %proj_mlp_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4608x3072xbf16>, tensor<12288x3072xbf16>, tensor<12288xbf16>) -> tensor<1x4608x12288xbf16>
    %mlp_hidden_states = "dit.gelu"(%mlp_proj) {approximate = "tanh"} : (tensor<1x4608x12288xbf16>) -> tensor<1x4608x12288xbf16>

    // ==== attn = Attention(pre_only=True, qk_norm="rms_norm", processor=FluxAttnProcessor2_0) ===
    // no encoder_hidden_states (self-attention over the joint sequence), no to_out (pre_only)
    // ---- to_q/to_k/to_v, view(1, -1, 24, 128).transpose(1, 2)
    %q_proj = "dit.linear"(%norm_hidden_states, %attn_to_q_weight, %attn_to_q_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4608x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x4608x3072xbf16>
    %k_proj = "dit.linear"(%norm_hidden_states, %attn_to_k_weight, %attn_to_k_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4608x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x4608x3072xbf16>
    %v_proj = "dit.linear"(%norm_hidden_states, %attn_to_v_weight, %attn_to_v_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4608x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x4608x3072xbf16>
    %q_bshd = "dit.reshape"(%q_proj) : (tensor<1x4608x3072xbf16>) -> tensor<1x4608x24x128xbf16>
    %q = "dit.transpose"(%q_bshd) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4608x24x128xbf16>) -> tensor<1x24x4608x128xbf16>
    %k_bshd = "dit.reshape"(%k_proj) : (tensor<1x4608x3072xbf16>) -> tensor<1x4608x24x128xbf16>
    %k = "dit.transpose"(%k_bshd) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4608x24x128xbf16>) -> tensor<1x24x4608x128xbf16>
    %v_bshd = "dit.reshape"(%v_proj) : (tensor<1x4608x3072xbf16>) -> tensor<1x4608x24x128xbf16>
    %v = "dit.transpose"(%v_bshd) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4608x24x128xbf16>) -> tensor<1x24x4608x128xbf16>
    // attn.norm_q: diffusers RMSNorm(128, eps=1e-6), decomposed: var = x.float().pow(2).mean(-1, keepdim)
    // x * rsqrt(var + eps) promotes bf16 x f32 to f32 (so it reads the f32 x); .to(bf16); * weight
    %q_rms_f32 = "dit.cast"(%q) : (tensor<1x24x4608x128xbf16>) -> tensor<1x24x4608x128xf32>
    %q_rms_sq = "dit.pow"(%q_rms_f32, %two) : (tensor<1x24x4608x128xf32>, tensor<f32>) -> tensor<1x24x4608x128xf32>
    %q_rms_var = "dit.reduce_mean"(%q_rms_sq) {dims = array<i64: 3>, keepdim = true} : (tensor<1x24x4608x128xf32>) -> tensor<1x24x4608x1xf32>
    %q_rms_var_eps = "dit.add"(%q_rms_var, %rms_eps) : (tensor<1x24x4608x1xf32>, tensor<f32>) -> tensor<1x24x4608x1xf32>
    %q_rms_rstd = "dit.rsqrt"(%q_rms_var_eps) : (tensor<1x24x4608x1xf32>) -> tensor<1x24x4608x1xf32>
    %q_rms_scaled = "dit.mul"(%q_rms_f32, %q_rms_rstd) : (tensor<1x24x4608x128xf32>, tensor<1x24x4608x1xf32>) -> tensor<1x24x4608x128xf32>
    %q_rms_bf16 = "dit.cast"(%q_rms_scaled) : (tensor<1x24x4608x128xf32>) -> tensor<1x24x4608x128xbf16>
    %q_rms_normed = "dit.mul"(%q_rms_bf16, %attn_norm_q_weight) : (tensor<1x24x4608x128xbf16>, tensor<128xbf16>) -> tensor<1x24x4608x128xbf16>
    // attn.norm_k: diffusers RMSNorm(128, eps=1e-6), decomposed: var = x.float().pow(2).mean(-1, keepdim)
    // x * rsqrt(var + eps) promotes bf16 x f32 to f32 (so it reads the f32 x); .to(bf16); * weight
    %k_rms_f32 = "dit.cast"(%k) : (tensor<1x24x4608x128xbf16>) -> tensor<1x24x4608x128xf32>
    %k_rms_sq = "dit.pow"(%k_rms_f32, %two) : (tensor<1x24x4608x128xf32>, tensor<f32>) -> tensor<1x24x4608x128xf32>
    %k_rms_var = "dit.reduce_mean"(%k_rms_sq) {dims = array<i64: 3>, keepdim = true} : (tensor<1x24x4608x128xf32>) -> tensor<1x24x4608x1xf32>
    %k_rms_var_eps = "dit.add"(%k_rms_var, %rms_eps) : (tensor<1x24x4608x1xf32>, tensor<f32>) -> tensor<1x24x4608x1xf32>
    %k_rms_rstd = "dit.rsqrt"(%k_rms_var_eps) : (tensor<1x24x4608x1xf32>) -> tensor<1x24x4608x1xf32>
    %k_rms_scaled = "dit.mul"(%k_rms_f32, %k_rms_rstd) : (tensor<1x24x4608x128xf32>, tensor<1x24x4608x1xf32>) -> tensor<1x24x4608x128xf32>
    %k_rms_bf16 = "dit.cast"(%k_rms_scaled) : (tensor<1x24x4608x128xf32>) -> tensor<1x24x4608x128xbf16>
    %k_rms_normed = "dit.mul"(%k_rms_bf16, %attn_norm_k_weight) : (tensor<1x24x4608x128xbf16>, tensor<128xbf16>) -> tensor<1x24x4608x128xbf16>

    // ---- rotary embedding on q and k (cos/sin[None, None] -> [1,1,4608,128])
    // apply_rotary_emb(q, image_rotary_emb), use_real=True, use_real_unbind_dim=-1:
    // x_real, x_imag = x.reshape(..., 64, 2).unbind(-1); x_rotated = stack([-x_imag, x_real], -1).flatten(3)
    // out = (x.float() * cos + x_rotated.float() * sin).to(x.dtype)
    %q_rope_cos = "dit.reshape"(%rope_cos) : (tensor<4608x128xf32>) -> tensor<1x1x4608x128xf32>
    %q_rope_sin = "dit.reshape"(%rope_sin) : (tensor<4608x128xf32>) -> tensor<1x1x4608x128xf32>
    %q_rope_pairs = "dit.reshape"(%q_rms_normed) : (tensor<1x24x4608x128xbf16>) -> tensor<1x24x4608x64x2xbf16>
    %q_rope_real1, %q_rope_imag1 = "dit.split"(%q_rope_pairs) {dim = 4 : i64, sizes = array<i64: 1, 1>} : (tensor<1x24x4608x64x2xbf16>) -> (tensor<1x24x4608x64x1xbf16>, tensor<1x24x4608x64x1xbf16>)
    %q_rope_real = "dit.reshape"(%q_rope_real1) : (tensor<1x24x4608x64x1xbf16>) -> tensor<1x24x4608x64xbf16>
    %q_rope_imag = "dit.reshape"(%q_rope_imag1) : (tensor<1x24x4608x64x1xbf16>) -> tensor<1x24x4608x64xbf16>
    %q_rope_neg_imag = "dit.neg"(%q_rope_imag) : (tensor<1x24x4608x64xbf16>) -> tensor<1x24x4608x64xbf16>
    %q_rope_stk0 = "dit.reshape"(%q_rope_neg_imag) : (tensor<1x24x4608x64xbf16>) -> tensor<1x24x4608x64x1xbf16>
    %q_rope_stk1 = "dit.reshape"(%q_rope_real) : (tensor<1x24x4608x64xbf16>) -> tensor<1x24x4608x64x1xbf16>
    %q_rope_stacked = "dit.concat"(%q_rope_stk0, %q_rope_stk1) {dim = 4 : i64} : (tensor<1x24x4608x64x1xbf16>, tensor<1x24x4608x64x1xbf16>) -> tensor<1x24x4608x64x2xbf16>
    %q_rope_rotated = "dit.reshape"(%q_rope_stacked) : (tensor<1x24x4608x64x2xbf16>) -> tensor<1x24x4608x128xbf16>
    %q_rope_x_f32 = "dit.cast"(%q_rms_normed) : (tensor<1x24x4608x128xbf16>) -> tensor<1x24x4608x128xf32>
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
    %k_rope_pairs = "dit.reshape"(%k_rms_normed) : (tensor<1x24x4608x128xbf16>) -> tensor<1x24x4608x64x2xbf16>
    %k_rope_real1, %k_rope_imag1 = "dit.split"(%k_rope_pairs) {dim = 4 : i64, sizes = array<i64: 1, 1>} : (tensor<1x24x4608x64x2xbf16>) -> (tensor<1x24x4608x64x1xbf16>, tensor<1x24x4608x64x1xbf16>)
    %k_rope_real = "dit.reshape"(%k_rope_real1) : (tensor<1x24x4608x64x1xbf16>) -> tensor<1x24x4608x64xbf16>
    %k_rope_imag = "dit.reshape"(%k_rope_imag1) : (tensor<1x24x4608x64x1xbf16>) -> tensor<1x24x4608x64xbf16>
    %k_rope_neg_imag = "dit.neg"(%k_rope_imag) : (tensor<1x24x4608x64xbf16>) -> tensor<1x24x4608x64xbf16>
    %k_rope_stk0 = "dit.reshape"(%k_rope_neg_imag) : (tensor<1x24x4608x64xbf16>) -> tensor<1x24x4608x64x1xbf16>
    %k_rope_stk1 = "dit.reshape"(%k_rope_real) : (tensor<1x24x4608x64xbf16>) -> tensor<1x24x4608x64x1xbf16>
    %k_rope_stacked = "dit.concat"(%k_rope_stk0, %k_rope_stk1) {dim = 4 : i64} : (tensor<1x24x4608x64x1xbf16>, tensor<1x24x4608x64x1xbf16>) -> tensor<1x24x4608x64x2xbf16>
    %k_rope_rotated = "dit.reshape"(%k_rope_stacked) : (tensor<1x24x4608x64x2xbf16>) -> tensor<1x24x4608x128xbf16>
    %k_rope_x_f32 = "dit.cast"(%k_rms_normed) : (tensor<1x24x4608x128xbf16>) -> tensor<1x24x4608x128xf32>
    %k_rope_x_cos = "dit.mul"(%k_rope_x_f32, %k_rope_cos) : (tensor<1x24x4608x128xf32>, tensor<1x1x4608x128xf32>) -> tensor<1x24x4608x128xf32>
    %k_rope_rot_f32 = "dit.cast"(%k_rope_rotated) : (tensor<1x24x4608x128xbf16>) -> tensor<1x24x4608x128xf32>
    %k_rope_rot_sin = "dit.mul"(%k_rope_rot_f32, %k_rope_sin) : (tensor<1x24x4608x128xf32>, tensor<1x1x4608x128xf32>) -> tensor<1x24x4608x128xf32>
    %k_rope_sum = "dit.add"(%k_rope_x_cos, %k_rope_rot_sin) : (tensor<1x24x4608x128xf32>, tensor<1x24x4608x128xf32>) -> tensor<1x24x4608x128xf32>
    %k_rope = "dit.cast"(%k_rope_sum) : (tensor<1x24x4608x128xf32>) -> tensor<1x24x4608x128xbf16>

    // ---- F.scaled_dot_product_attention(q, k, v), default scale 1/sqrt(128); no mask
    %attn = "dit.attention"(%q_rope, %k_rope, %v) {scale = 0.0883883476 : f32, layout = "BNSD", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x24x4608x128xbf16>, tensor<1x24x4608x128xbf16>, tensor<1x24x4608x128xbf16>) -> tensor<1x24x4608x128xbf16>
    // .transpose(1, 2).reshape(1, -1, 24 * 128); the following .to(query.dtype) is bf16 -> bf16, a no-op
    // (encoder_hidden_states is None: the processor returns this directly, no output projection)
    %attn_bsnd = "dit.transpose"(%attn) {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x24x4608x128xbf16>) -> tensor<1x4608x24x128xbf16>
    %attn_output = "dit.reshape"(%attn_bsnd) : (tensor<1x4608x24x128xbf16>) -> tensor<1x4608x3072xbf16>

    // ==== hidden_states = torch.cat([attn_output, mlp_hidden_states], dim=2) ====
    // gate = gate.unsqueeze(1); hidden_states = gate * self.proj_out(hidden_states); residual + hidden_states
    %attn_mlp_cat = "dit.concat"(%attn_output, %mlp_hidden_states) {dim = 2 : i64} : (tensor<1x4608x3072xbf16>, tensor<1x4608x12288xbf16>) -> tensor<1x4608x15360xbf16>
    %gate_b = "dit.reshape"(%gate_msa) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %proj_out = "dit.linear"(%attn_mlp_cat, %proj_out_weight, %proj_out_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4608x15360xbf16>, tensor<3072x15360xbf16>, tensor<3072xbf16>) -> tensor<1x4608x3072xbf16>
    %gated = "dit.mul"(%gate_b, %proj_out) : (tensor<1x1x3072xbf16>, tensor<1x4608x3072xbf16>) -> tensor<1x4608x3072xbf16>
    %out = "dit.add"(%hidden_states, %gated) : (tensor<1x4608x3072xbf16>, tensor<1x4608x3072xbf16>) -> tensor<1x4608x3072xbf16>
    // (the fp16 clip(-65504, 65504) branch does not apply to bf16)

    // return hidden_states
    func.return %out : tensor<1x4608x3072xbf16>
  }
}
