// qwen_image_block.mlir -- one Qwen-Image double-stream (MMDiT) transformer block in the dit
// dialect, as a frontend would emit it: primitive ops only, nothing fused. RMSNorm and RoPE are
// spelled out the way the model code computes them, casts included.
//
// Follows diffusers 0.40.0.dev0 (commit 58eb52c0), in the order the model code computes it:
//   models/transformers/transformer_qwenimage.py  QwenImageTransformerBlock.forward / _modulate,
//                                                 QwenDoubleStreamAttnProcessor2_0,
//                                                 apply_rotary_emb_qwen(use_real=False) via ROPE_PER_DEVICE["cuda"]
//   models/attention_processor.py                 Attention(qk_norm="rms_norm", added_kv_proj_dim=3072, bias=True)
//   models/normalization.py                       RMSNorm (generic branch; see below)
//   models/attention.py, activations.py           FeedForward(activation_fn="gelu-approximate") = GELU(tanh)
// The attention runs through dispatch_attention_fn in [B, S, H, D] layout (dit.attention layout
// "BSND"); q/k norm and RoPE act on that layout, before any head transpose.
//
// Configuration (Qwen-Image): hidden 3072, 24 heads x 128, FFN 4x = 12288, eps 1e-6,
// zero_cond_t=False; batch 1, 4096 image tokens (1024x1024 -> 128x128 latent, 2x2 patches) +
// 256 text tokens = 4352 joint tokens, text first. Activations and weights bf16 (linear weight
// [N, K], bias [N]; RMSNorm gamma [128]).
// RoPE: QwenEmbedRope returns complex64 freqs (img [4096, 64], txt [256, 64]); dit has no complex
// type, so each is passed as real part (cos) and imaginary part (sin), f32 [S, 64], and the
// complex product is written out: (a + ib)(c + is) = (ac - bs) + i(as + bc), in f32 on x.float(),
// result .type_as(x) (bf16). (The "neuron" entry of ROPE_PER_DEVICE computes the same rotation
// FLUX-style: x * cos + rotate(x) * sin with cos/sin repeat_interleave'd to [S, 1, 128].)
// Precision follows the model code: RMSNorm and RoPE compute in f32 via explicit casts;
// layer_norm, attention and gelu keep bf16 in and out (their internal precision is the kernel's).
// diffusers' RMSNorm calls torch_npu.npu_rms_norm itself when torch_npu is importable; this file
// follows the generic branch (the graph a frontend traces without torch_npu).
// Returns (encoder_hidden_states, hidden_states) in diffusers' order.
//
// Left out: computing temb and the RoPE tables (arguments); the text attention mask (the pipeline
// sets an all-true prompt mask to None, which batch 1 without padding gives); zero_cond_t /
// modulate_index (Qwen-Image-Edit-2511 style per-token modulation); Dropout (p = 0) and the
// bf16 -> bf16 `.to(dtype)` after attention (no-ops); the fp16-only clip; LoRA, TP/CP plans.
//
// 180 ops (including the 3 arith.constant scalars; func.return not counted).
//
// RUN: dit-opt %s | dit-opt | FileCheck %s
// CHECK-LABEL: func.func @qwen_image_block(
// CHECK-COUNT-2: "dit.silu"
// CHECK-COUNT-2: "dit.layer_norm"
// CHECK-COUNT-6: "dit.linear"{{.*}}(tensor<1x{{4096|256}}x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>)
// CHECK-COUNT-4: "dit.rsqrt"
// CHECK-COUNT-4: "dit.sub"
// CHECK-COUNT-3: "dit.concat"{{.*}} -> tensor<1x4352x24x128xbf16>
// CHECK: "dit.attention"{{.*}}layout = "BSND"{{.*}}scale = 0.0883883{{[0-9]*}} : f32
// CHECK-NOT: "dit.attention"
// CHECK-COUNT-2: "dit.gelu"{{.*}}approximate = "tanh"
// CHECK-NOT: "dit.gelu"
// CHECK: return

module {
  func.func @qwen_image_block(
      %hidden_states: tensor<1x4096x3072xbf16>,            // image stream (packed 2x2 latent patches, 64x64 -> 4096 tokens)
      %encoder_hidden_states: tensor<1x256x3072xbf16>,     // text stream (Qwen2.5-VL hidden states after txt_norm + txt_in)
      %temb: tensor<1x3072xbf16>,                          // time_text_embed(timestep, hidden_states)
      %img_freqs_cos: tensor<4096x64xf32>,                 // image_rotary_emb[0].real: QwenEmbedRope img_freqs (complex64 [4096, 64])
      %img_freqs_sin: tensor<4096x64xf32>,                 // image_rotary_emb[0].imag
      %txt_freqs_cos: tensor<256x64xf32>,                  // image_rotary_emb[1].real: txt_freqs (complex64 [256, 64])
      %txt_freqs_sin: tensor<256x64xf32>,                  // image_rotary_emb[1].imag
      %img_mod_1_weight: tensor<18432x3072xbf16>,          // img_mod.1.weight
      %img_mod_1_bias: tensor<18432xbf16>,                 // img_mod.1.bias
      %txt_mod_1_weight: tensor<18432x3072xbf16>,          // txt_mod.1.weight
      %txt_mod_1_bias: tensor<18432xbf16>,                 // txt_mod.1.bias
      %attn_to_q_weight: tensor<3072x3072xbf16>,           // attn.to_q.weight
      %attn_to_q_bias: tensor<3072xbf16>,                  // attn.to_q.bias
      %attn_to_k_weight: tensor<3072x3072xbf16>,           // attn.to_k.weight
      %attn_to_k_bias: tensor<3072xbf16>,                  // attn.to_k.bias
      %attn_to_v_weight: tensor<3072x3072xbf16>,           // attn.to_v.weight
      %attn_to_v_bias: tensor<3072xbf16>,                  // attn.to_v.bias
      %attn_norm_q_weight: tensor<128xbf16>,               // attn.norm_q.weight
      %attn_norm_k_weight: tensor<128xbf16>,               // attn.norm_k.weight
      %attn_add_q_proj_weight: tensor<3072x3072xbf16>,     // attn.add_q_proj.weight
      %attn_add_q_proj_bias: tensor<3072xbf16>,            // attn.add_q_proj.bias
      %attn_add_k_proj_weight: tensor<3072x3072xbf16>,     // attn.add_k_proj.weight
      %attn_add_k_proj_bias: tensor<3072xbf16>,            // attn.add_k_proj.bias
      %attn_add_v_proj_weight: tensor<3072x3072xbf16>,     // attn.add_v_proj.weight
      %attn_add_v_proj_bias: tensor<3072xbf16>,            // attn.add_v_proj.bias
      %attn_norm_added_q_weight: tensor<128xbf16>,         // attn.norm_added_q.weight
      %attn_norm_added_k_weight: tensor<128xbf16>,         // attn.norm_added_k.weight
      %attn_to_out_0_weight: tensor<3072x3072xbf16>,       // attn.to_out.0.weight
      %attn_to_out_0_bias: tensor<3072xbf16>,              // attn.to_out.0.bias
      %attn_to_add_out_weight: tensor<3072x3072xbf16>,     // attn.to_add_out.weight
      %attn_to_add_out_bias: tensor<3072xbf16>,            // attn.to_add_out.bias
      %img_mlp_net_0_proj_weight: tensor<12288x3072xbf16>, // img_mlp.net.0.proj.weight
      %img_mlp_net_0_proj_bias: tensor<12288xbf16>,        // img_mlp.net.0.proj.bias
      %img_mlp_net_2_weight: tensor<3072x12288xbf16>,      // img_mlp.net.2.weight
      %img_mlp_net_2_bias: tensor<3072xbf16>,              // img_mlp.net.2.bias
      %txt_mlp_net_0_proj_weight: tensor<12288x3072xbf16>, // txt_mlp.net.0.proj.weight
      %txt_mlp_net_0_proj_bias: tensor<12288xbf16>,        // txt_mlp.net.0.proj.bias
      %txt_mlp_net_2_weight: tensor<3072x12288xbf16>,      // txt_mlp.net.2.weight
      %txt_mlp_net_2_bias: tensor<3072xbf16>               // txt_mlp.net.2.bias
  ) -> (tensor<1x256x3072xbf16>, tensor<1x4096x3072xbf16>) {
    // ---- scalar constants --------------------------------------------------
    %one = arith.constant dense<1.000000e+00> : tensor<bf16>
    %two = arith.constant dense<2.000000e+00> : tensor<f32>
    %rms_eps = arith.constant dense<1.000000e-06> : tensor<f32>

    // ==== modulation parameters ==============================================
    // img_mod = Sequential(SiLU, Linear(3072, 6*3072)); img_mod1, img_mod2 = img_mod_params.chunk(2, dim=-1)
    %img_mod_silu = "dit.silu"(%temb) : (tensor<1x3072xbf16>) -> tensor<1x3072xbf16>
    %img_mod_params = "dit.linear"(%img_mod_silu, %img_mod_1_weight, %img_mod_1_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x3072xbf16>, tensor<18432x3072xbf16>, tensor<18432xbf16>) -> tensor<1x18432xbf16>
    %img_mod1, %img_mod2 = "dit.split"(%img_mod_params) {dim = 1 : i64, sizes = array<i64: 9216, 9216>} : (tensor<1x18432xbf16>) -> (tensor<1x9216xbf16>, tensor<1x9216xbf16>)
    // txt_mod = Sequential(SiLU, Linear(3072, 6*3072)) on the same temb (zero_cond_t=False)
    %txt_mod_silu = "dit.silu"(%temb) : (tensor<1x3072xbf16>) -> tensor<1x3072xbf16>
    %txt_mod_params = "dit.linear"(%txt_mod_silu, %txt_mod_1_weight, %txt_mod_1_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x3072xbf16>, tensor<18432x3072xbf16>, tensor<18432xbf16>) -> tensor<1x18432xbf16>
    %txt_mod1, %txt_mod2 = "dit.split"(%txt_mod_params) {dim = 1 : i64, sizes = array<i64: 9216, 9216>} : (tensor<1x18432xbf16>) -> (tensor<1x9216xbf16>, tensor<1x9216xbf16>)

    // ==== norm1 + modulation ==================================================
    // img_norm1 (LayerNorm, no affine, eps 1e-6); _modulate(x, img_mod1): shift, scale, gate = chunk(3, -1),
    // each .unsqueeze(1); x * (1 + scale) + shift (modulate_index is None: zero_cond_t=False)
    %img_normed1 = "dit.layer_norm"(%hidden_states) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x4096x3072xbf16>) -> tensor<1x4096x3072xbf16>
    %img_shift1, %img_scale1, %img_gate1 = "dit.split"(%img_mod1) {dim = 1 : i64, sizes = array<i64: 3072, 3072, 3072>} : (tensor<1x9216xbf16>) -> (tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>)
    %img_shift1_b = "dit.reshape"(%img_shift1) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_scale1_b = "dit.reshape"(%img_scale1) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_gate1_b = "dit.reshape"(%img_gate1) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_one_plus_scale1 = "dit.add"(%one, %img_scale1_b) : (tensor<bf16>, tensor<1x1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_scaled1 = "dit.mul"(%img_normed1, %img_one_plus_scale1) : (tensor<1x4096x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x4096x3072xbf16>
    %img_modulated1 = "dit.add"(%img_scaled1, %img_shift1_b) : (tensor<1x4096x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x4096x3072xbf16>
    // txt_norm1 (LayerNorm, no affine, eps 1e-6); _modulate(x, txt_mod1): shift, scale, gate = chunk(3, -1),
    // each .unsqueeze(1); x * (1 + scale) + shift (modulate_index is None: zero_cond_t=False)
    %txt_normed1 = "dit.layer_norm"(%encoder_hidden_states) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x256x3072xbf16>) -> tensor<1x256x3072xbf16>
    %txt_shift1, %txt_scale1, %txt_gate1 = "dit.split"(%txt_mod1) {dim = 1 : i64, sizes = array<i64: 3072, 3072, 3072>} : (tensor<1x9216xbf16>) -> (tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>)
    %txt_shift1_b = "dit.reshape"(%txt_shift1) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_scale1_b = "dit.reshape"(%txt_scale1) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_gate1_b = "dit.reshape"(%txt_gate1) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_one_plus_scale1 = "dit.add"(%one, %txt_scale1_b) : (tensor<bf16>, tensor<1x1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_scaled1 = "dit.mul"(%txt_normed1, %txt_one_plus_scale1) : (tensor<1x256x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x256x3072xbf16>
    %txt_modulated1 = "dit.add"(%txt_scaled1, %txt_shift1_b) : (tensor<1x256x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x256x3072xbf16>

    // ==== attn = Attention(processor=QwenDoubleStreamAttnProcessor2_0) =======
    // ---- image (sample) projections: to_q/to_k/to_v
    %img_q_proj = "dit.linear"(%img_modulated1, %attn_to_q_weight, %attn_to_q_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4096x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x4096x3072xbf16>
    %img_k_proj = "dit.linear"(%img_modulated1, %attn_to_k_weight, %attn_to_k_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4096x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x4096x3072xbf16>
    %img_v_proj = "dit.linear"(%img_modulated1, %attn_to_v_weight, %attn_to_v_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4096x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x4096x3072xbf16>
    // ---- text (context) projections: add_q_proj/add_k_proj/add_v_proj
    %txt_q_proj = "dit.linear"(%txt_modulated1, %attn_add_q_proj_weight, %attn_add_q_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x256x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x256x3072xbf16>
    %txt_k_proj = "dit.linear"(%txt_modulated1, %attn_add_k_proj_weight, %attn_add_k_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x256x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x256x3072xbf16>
    %txt_v_proj = "dit.linear"(%txt_modulated1, %attn_add_v_proj_weight, %attn_add_v_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x256x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x256x3072xbf16>
    // ---- .unflatten(-1, (-1, 128)) -> [B, S, H, D]
    %img_q = "dit.reshape"(%img_q_proj) : (tensor<1x4096x3072xbf16>) -> tensor<1x4096x24x128xbf16>
    %img_k = "dit.reshape"(%img_k_proj) : (tensor<1x4096x3072xbf16>) -> tensor<1x4096x24x128xbf16>
    %img_v = "dit.reshape"(%img_v_proj) : (tensor<1x4096x3072xbf16>) -> tensor<1x4096x24x128xbf16>
    %txt_q = "dit.reshape"(%txt_q_proj) : (tensor<1x256x3072xbf16>) -> tensor<1x256x24x128xbf16>
    %txt_k = "dit.reshape"(%txt_k_proj) : (tensor<1x256x3072xbf16>) -> tensor<1x256x24x128xbf16>
    %txt_v = "dit.reshape"(%txt_v_proj) : (tensor<1x256x3072xbf16>) -> tensor<1x256x24x128xbf16>

    // ---- QK normalization (over head_dim, in [B, S, H, D] layout)
    // attn.norm_q: diffusers RMSNorm(128, eps=1e-6): var = x.to(f32).pow(2).mean(-1, keepdim=True);
    // x * rsqrt(var + eps) promotes bf16 x f32 to f32 (reads the f32 x); .to(bf16) since weight is bf16; * weight
    %img_q_rms_f32 = "dit.cast"(%img_q) : (tensor<1x4096x24x128xbf16>) -> tensor<1x4096x24x128xf32>
    %img_q_rms_sq = "dit.pow"(%img_q_rms_f32, %two) : (tensor<1x4096x24x128xf32>, tensor<f32>) -> tensor<1x4096x24x128xf32>
    %img_q_rms_var = "dit.reduce_mean"(%img_q_rms_sq) {dims = array<i64: 3>, keepdim = true} : (tensor<1x4096x24x128xf32>) -> tensor<1x4096x24x1xf32>
    %img_q_rms_var_eps = "dit.add"(%img_q_rms_var, %rms_eps) : (tensor<1x4096x24x1xf32>, tensor<f32>) -> tensor<1x4096x24x1xf32>
    %img_q_rms_rstd = "dit.rsqrt"(%img_q_rms_var_eps) : (tensor<1x4096x24x1xf32>) -> tensor<1x4096x24x1xf32>
    %img_q_rms_scaled = "dit.mul"(%img_q_rms_f32, %img_q_rms_rstd) : (tensor<1x4096x24x128xf32>, tensor<1x4096x24x1xf32>) -> tensor<1x4096x24x128xf32>
    %img_q_rms_bf16 = "dit.cast"(%img_q_rms_scaled) : (tensor<1x4096x24x128xf32>) -> tensor<1x4096x24x128xbf16>
    %img_q_rms_normed = "dit.mul"(%img_q_rms_bf16, %attn_norm_q_weight) : (tensor<1x4096x24x128xbf16>, tensor<128xbf16>) -> tensor<1x4096x24x128xbf16>
    // attn.norm_k: diffusers RMSNorm(128, eps=1e-6): var = x.to(f32).pow(2).mean(-1, keepdim=True);
    // x * rsqrt(var + eps) promotes bf16 x f32 to f32 (reads the f32 x); .to(bf16) since weight is bf16; * weight
    %img_k_rms_f32 = "dit.cast"(%img_k) : (tensor<1x4096x24x128xbf16>) -> tensor<1x4096x24x128xf32>
    %img_k_rms_sq = "dit.pow"(%img_k_rms_f32, %two) : (tensor<1x4096x24x128xf32>, tensor<f32>) -> tensor<1x4096x24x128xf32>
    %img_k_rms_var = "dit.reduce_mean"(%img_k_rms_sq) {dims = array<i64: 3>, keepdim = true} : (tensor<1x4096x24x128xf32>) -> tensor<1x4096x24x1xf32>
    %img_k_rms_var_eps = "dit.add"(%img_k_rms_var, %rms_eps) : (tensor<1x4096x24x1xf32>, tensor<f32>) -> tensor<1x4096x24x1xf32>
    %img_k_rms_rstd = "dit.rsqrt"(%img_k_rms_var_eps) : (tensor<1x4096x24x1xf32>) -> tensor<1x4096x24x1xf32>
    %img_k_rms_scaled = "dit.mul"(%img_k_rms_f32, %img_k_rms_rstd) : (tensor<1x4096x24x128xf32>, tensor<1x4096x24x1xf32>) -> tensor<1x4096x24x128xf32>
    %img_k_rms_bf16 = "dit.cast"(%img_k_rms_scaled) : (tensor<1x4096x24x128xf32>) -> tensor<1x4096x24x128xbf16>
    %img_k_rms_normed = "dit.mul"(%img_k_rms_bf16, %attn_norm_k_weight) : (tensor<1x4096x24x128xbf16>, tensor<128xbf16>) -> tensor<1x4096x24x128xbf16>
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

    // ---- rotary embedding (img_freqs on image q/k, txt_freqs on text q/k); complex64 freqs are passed
    //      as their real (cos) and imaginary (sin) parts, [S, 64] f32
    // img_query (image) = apply_rotary_emb_qwen(img_query, img_freqs, use_real=False) (ROPE_PER_DEVICE['cuda']):
    // x_c = view_as_complex(x.float().reshape(..., 64, 2)); freqs_cis.unsqueeze(1) -> [S, 1, 64];
    // out = view_as_real(x_c * freqs_cis).flatten(3).type_as(x); (a+ib)(c+is) = (ac - bs) + i(as + bc)
    %img_q_rope_x_f32 = "dit.cast"(%img_q_rms_normed) : (tensor<1x4096x24x128xbf16>) -> tensor<1x4096x24x128xf32>
    %img_q_rope_pairs = "dit.reshape"(%img_q_rope_x_f32) : (tensor<1x4096x24x128xf32>) -> tensor<1x4096x24x64x2xf32>
    %img_q_rope_re1, %img_q_rope_im1 = "dit.split"(%img_q_rope_pairs) {dim = 4 : i64, sizes = array<i64: 1, 1>} : (tensor<1x4096x24x64x2xf32>) -> (tensor<1x4096x24x64x1xf32>, tensor<1x4096x24x64x1xf32>)
    %img_q_rope_re = "dit.reshape"(%img_q_rope_re1) : (tensor<1x4096x24x64x1xf32>) -> tensor<1x4096x24x64xf32>
    %img_q_rope_im = "dit.reshape"(%img_q_rope_im1) : (tensor<1x4096x24x64x1xf32>) -> tensor<1x4096x24x64xf32>
    %img_q_rope_cos = "dit.reshape"(%img_freqs_cos) : (tensor<4096x64xf32>) -> tensor<4096x1x64xf32>
    %img_q_rope_sin = "dit.reshape"(%img_freqs_sin) : (tensor<4096x64xf32>) -> tensor<4096x1x64xf32>
    %img_q_rope_re_cos = "dit.mul"(%img_q_rope_re, %img_q_rope_cos) : (tensor<1x4096x24x64xf32>, tensor<4096x1x64xf32>) -> tensor<1x4096x24x64xf32>
    %img_q_rope_im_sin = "dit.mul"(%img_q_rope_im, %img_q_rope_sin) : (tensor<1x4096x24x64xf32>, tensor<4096x1x64xf32>) -> tensor<1x4096x24x64xf32>
    %img_q_rope_out_re = "dit.sub"(%img_q_rope_re_cos, %img_q_rope_im_sin) : (tensor<1x4096x24x64xf32>, tensor<1x4096x24x64xf32>) -> tensor<1x4096x24x64xf32>
    %img_q_rope_re_sin = "dit.mul"(%img_q_rope_re, %img_q_rope_sin) : (tensor<1x4096x24x64xf32>, tensor<4096x1x64xf32>) -> tensor<1x4096x24x64xf32>
    %img_q_rope_im_cos = "dit.mul"(%img_q_rope_im, %img_q_rope_cos) : (tensor<1x4096x24x64xf32>, tensor<4096x1x64xf32>) -> tensor<1x4096x24x64xf32>
    %img_q_rope_out_im = "dit.add"(%img_q_rope_re_sin, %img_q_rope_im_cos) : (tensor<1x4096x24x64xf32>, tensor<1x4096x24x64xf32>) -> tensor<1x4096x24x64xf32>
    %img_q_rope_out_re1 = "dit.reshape"(%img_q_rope_out_re) : (tensor<1x4096x24x64xf32>) -> tensor<1x4096x24x64x1xf32>
    %img_q_rope_out_im1 = "dit.reshape"(%img_q_rope_out_im) : (tensor<1x4096x24x64xf32>) -> tensor<1x4096x24x64x1xf32>
    %img_q_rope_out_pairs = "dit.concat"(%img_q_rope_out_re1, %img_q_rope_out_im1) {dim = 4 : i64} : (tensor<1x4096x24x64x1xf32>, tensor<1x4096x24x64x1xf32>) -> tensor<1x4096x24x64x2xf32>
    %img_q_rope_out_f32 = "dit.reshape"(%img_q_rope_out_pairs) : (tensor<1x4096x24x64x2xf32>) -> tensor<1x4096x24x128xf32>
    %img_q_rope = "dit.cast"(%img_q_rope_out_f32) : (tensor<1x4096x24x128xf32>) -> tensor<1x4096x24x128xbf16>
    // img_key (image) = apply_rotary_emb_qwen(img_key, img_freqs, use_real=False) (ROPE_PER_DEVICE['cuda']):
    // x_c = view_as_complex(x.float().reshape(..., 64, 2)); freqs_cis.unsqueeze(1) -> [S, 1, 64];
    // out = view_as_real(x_c * freqs_cis).flatten(3).type_as(x); (a+ib)(c+is) = (ac - bs) + i(as + bc)
    %img_k_rope_x_f32 = "dit.cast"(%img_k_rms_normed) : (tensor<1x4096x24x128xbf16>) -> tensor<1x4096x24x128xf32>
    %img_k_rope_pairs = "dit.reshape"(%img_k_rope_x_f32) : (tensor<1x4096x24x128xf32>) -> tensor<1x4096x24x64x2xf32>
    %img_k_rope_re1, %img_k_rope_im1 = "dit.split"(%img_k_rope_pairs) {dim = 4 : i64, sizes = array<i64: 1, 1>} : (tensor<1x4096x24x64x2xf32>) -> (tensor<1x4096x24x64x1xf32>, tensor<1x4096x24x64x1xf32>)
    %img_k_rope_re = "dit.reshape"(%img_k_rope_re1) : (tensor<1x4096x24x64x1xf32>) -> tensor<1x4096x24x64xf32>
    %img_k_rope_im = "dit.reshape"(%img_k_rope_im1) : (tensor<1x4096x24x64x1xf32>) -> tensor<1x4096x24x64xf32>
    %img_k_rope_cos = "dit.reshape"(%img_freqs_cos) : (tensor<4096x64xf32>) -> tensor<4096x1x64xf32>
    %img_k_rope_sin = "dit.reshape"(%img_freqs_sin) : (tensor<4096x64xf32>) -> tensor<4096x1x64xf32>
    %img_k_rope_re_cos = "dit.mul"(%img_k_rope_re, %img_k_rope_cos) : (tensor<1x4096x24x64xf32>, tensor<4096x1x64xf32>) -> tensor<1x4096x24x64xf32>
    %img_k_rope_im_sin = "dit.mul"(%img_k_rope_im, %img_k_rope_sin) : (tensor<1x4096x24x64xf32>, tensor<4096x1x64xf32>) -> tensor<1x4096x24x64xf32>
    %img_k_rope_out_re = "dit.sub"(%img_k_rope_re_cos, %img_k_rope_im_sin) : (tensor<1x4096x24x64xf32>, tensor<1x4096x24x64xf32>) -> tensor<1x4096x24x64xf32>
    %img_k_rope_re_sin = "dit.mul"(%img_k_rope_re, %img_k_rope_sin) : (tensor<1x4096x24x64xf32>, tensor<4096x1x64xf32>) -> tensor<1x4096x24x64xf32>
    %img_k_rope_im_cos = "dit.mul"(%img_k_rope_im, %img_k_rope_cos) : (tensor<1x4096x24x64xf32>, tensor<4096x1x64xf32>) -> tensor<1x4096x24x64xf32>
    %img_k_rope_out_im = "dit.add"(%img_k_rope_re_sin, %img_k_rope_im_cos) : (tensor<1x4096x24x64xf32>, tensor<1x4096x24x64xf32>) -> tensor<1x4096x24x64xf32>
    %img_k_rope_out_re1 = "dit.reshape"(%img_k_rope_out_re) : (tensor<1x4096x24x64xf32>) -> tensor<1x4096x24x64x1xf32>
    %img_k_rope_out_im1 = "dit.reshape"(%img_k_rope_out_im) : (tensor<1x4096x24x64xf32>) -> tensor<1x4096x24x64x1xf32>
    %img_k_rope_out_pairs = "dit.concat"(%img_k_rope_out_re1, %img_k_rope_out_im1) {dim = 4 : i64} : (tensor<1x4096x24x64x1xf32>, tensor<1x4096x24x64x1xf32>) -> tensor<1x4096x24x64x2xf32>
    %img_k_rope_out_f32 = "dit.reshape"(%img_k_rope_out_pairs) : (tensor<1x4096x24x64x2xf32>) -> tensor<1x4096x24x128xf32>
    %img_k_rope = "dit.cast"(%img_k_rope_out_f32) : (tensor<1x4096x24x128xf32>) -> tensor<1x4096x24x128xbf16>
    // txt_query (text) = apply_rotary_emb_qwen(txt_query, txt_freqs, use_real=False) (ROPE_PER_DEVICE['cuda']):
    // x_c = view_as_complex(x.float().reshape(..., 64, 2)); freqs_cis.unsqueeze(1) -> [S, 1, 64];
    // out = view_as_real(x_c * freqs_cis).flatten(3).type_as(x); (a+ib)(c+is) = (ac - bs) + i(as + bc)
    %txt_q_rope_x_f32 = "dit.cast"(%txt_q_rms_normed) : (tensor<1x256x24x128xbf16>) -> tensor<1x256x24x128xf32>
    %txt_q_rope_pairs = "dit.reshape"(%txt_q_rope_x_f32) : (tensor<1x256x24x128xf32>) -> tensor<1x256x24x64x2xf32>
    %txt_q_rope_re1, %txt_q_rope_im1 = "dit.split"(%txt_q_rope_pairs) {dim = 4 : i64, sizes = array<i64: 1, 1>} : (tensor<1x256x24x64x2xf32>) -> (tensor<1x256x24x64x1xf32>, tensor<1x256x24x64x1xf32>)
    %txt_q_rope_re = "dit.reshape"(%txt_q_rope_re1) : (tensor<1x256x24x64x1xf32>) -> tensor<1x256x24x64xf32>
    %txt_q_rope_im = "dit.reshape"(%txt_q_rope_im1) : (tensor<1x256x24x64x1xf32>) -> tensor<1x256x24x64xf32>
    %txt_q_rope_cos = "dit.reshape"(%txt_freqs_cos) : (tensor<256x64xf32>) -> tensor<256x1x64xf32>
    %txt_q_rope_sin = "dit.reshape"(%txt_freqs_sin) : (tensor<256x64xf32>) -> tensor<256x1x64xf32>
    %txt_q_rope_re_cos = "dit.mul"(%txt_q_rope_re, %txt_q_rope_cos) : (tensor<1x256x24x64xf32>, tensor<256x1x64xf32>) -> tensor<1x256x24x64xf32>
    %txt_q_rope_im_sin = "dit.mul"(%txt_q_rope_im, %txt_q_rope_sin) : (tensor<1x256x24x64xf32>, tensor<256x1x64xf32>) -> tensor<1x256x24x64xf32>
    %txt_q_rope_out_re = "dit.sub"(%txt_q_rope_re_cos, %txt_q_rope_im_sin) : (tensor<1x256x24x64xf32>, tensor<1x256x24x64xf32>) -> tensor<1x256x24x64xf32>
    %txt_q_rope_re_sin = "dit.mul"(%txt_q_rope_re, %txt_q_rope_sin) : (tensor<1x256x24x64xf32>, tensor<256x1x64xf32>) -> tensor<1x256x24x64xf32>
    %txt_q_rope_im_cos = "dit.mul"(%txt_q_rope_im, %txt_q_rope_cos) : (tensor<1x256x24x64xf32>, tensor<256x1x64xf32>) -> tensor<1x256x24x64xf32>
    %txt_q_rope_out_im = "dit.add"(%txt_q_rope_re_sin, %txt_q_rope_im_cos) : (tensor<1x256x24x64xf32>, tensor<1x256x24x64xf32>) -> tensor<1x256x24x64xf32>
    %txt_q_rope_out_re1 = "dit.reshape"(%txt_q_rope_out_re) : (tensor<1x256x24x64xf32>) -> tensor<1x256x24x64x1xf32>
    %txt_q_rope_out_im1 = "dit.reshape"(%txt_q_rope_out_im) : (tensor<1x256x24x64xf32>) -> tensor<1x256x24x64x1xf32>
    %txt_q_rope_out_pairs = "dit.concat"(%txt_q_rope_out_re1, %txt_q_rope_out_im1) {dim = 4 : i64} : (tensor<1x256x24x64x1xf32>, tensor<1x256x24x64x1xf32>) -> tensor<1x256x24x64x2xf32>
    %txt_q_rope_out_f32 = "dit.reshape"(%txt_q_rope_out_pairs) : (tensor<1x256x24x64x2xf32>) -> tensor<1x256x24x128xf32>
    %txt_q_rope = "dit.cast"(%txt_q_rope_out_f32) : (tensor<1x256x24x128xf32>) -> tensor<1x256x24x128xbf16>
    // txt_key (text) = apply_rotary_emb_qwen(txt_key, txt_freqs, use_real=False) (ROPE_PER_DEVICE['cuda']):
    // x_c = view_as_complex(x.float().reshape(..., 64, 2)); freqs_cis.unsqueeze(1) -> [S, 1, 64];
    // out = view_as_real(x_c * freqs_cis).flatten(3).type_as(x); (a+ib)(c+is) = (ac - bs) + i(as + bc)
    %txt_k_rope_x_f32 = "dit.cast"(%txt_k_rms_normed) : (tensor<1x256x24x128xbf16>) -> tensor<1x256x24x128xf32>
    %txt_k_rope_pairs = "dit.reshape"(%txt_k_rope_x_f32) : (tensor<1x256x24x128xf32>) -> tensor<1x256x24x64x2xf32>
    %txt_k_rope_re1, %txt_k_rope_im1 = "dit.split"(%txt_k_rope_pairs) {dim = 4 : i64, sizes = array<i64: 1, 1>} : (tensor<1x256x24x64x2xf32>) -> (tensor<1x256x24x64x1xf32>, tensor<1x256x24x64x1xf32>)
    %txt_k_rope_re = "dit.reshape"(%txt_k_rope_re1) : (tensor<1x256x24x64x1xf32>) -> tensor<1x256x24x64xf32>
    %txt_k_rope_im = "dit.reshape"(%txt_k_rope_im1) : (tensor<1x256x24x64x1xf32>) -> tensor<1x256x24x64xf32>
    %txt_k_rope_cos = "dit.reshape"(%txt_freqs_cos) : (tensor<256x64xf32>) -> tensor<256x1x64xf32>
    %txt_k_rope_sin = "dit.reshape"(%txt_freqs_sin) : (tensor<256x64xf32>) -> tensor<256x1x64xf32>
    %txt_k_rope_re_cos = "dit.mul"(%txt_k_rope_re, %txt_k_rope_cos) : (tensor<1x256x24x64xf32>, tensor<256x1x64xf32>) -> tensor<1x256x24x64xf32>
    %txt_k_rope_im_sin = "dit.mul"(%txt_k_rope_im, %txt_k_rope_sin) : (tensor<1x256x24x64xf32>, tensor<256x1x64xf32>) -> tensor<1x256x24x64xf32>
    %txt_k_rope_out_re = "dit.sub"(%txt_k_rope_re_cos, %txt_k_rope_im_sin) : (tensor<1x256x24x64xf32>, tensor<1x256x24x64xf32>) -> tensor<1x256x24x64xf32>
    %txt_k_rope_re_sin = "dit.mul"(%txt_k_rope_re, %txt_k_rope_sin) : (tensor<1x256x24x64xf32>, tensor<256x1x64xf32>) -> tensor<1x256x24x64xf32>
    %txt_k_rope_im_cos = "dit.mul"(%txt_k_rope_im, %txt_k_rope_cos) : (tensor<1x256x24x64xf32>, tensor<256x1x64xf32>) -> tensor<1x256x24x64xf32>
    %txt_k_rope_out_im = "dit.add"(%txt_k_rope_re_sin, %txt_k_rope_im_cos) : (tensor<1x256x24x64xf32>, tensor<1x256x24x64xf32>) -> tensor<1x256x24x64xf32>
    %txt_k_rope_out_re1 = "dit.reshape"(%txt_k_rope_out_re) : (tensor<1x256x24x64xf32>) -> tensor<1x256x24x64x1xf32>
    %txt_k_rope_out_im1 = "dit.reshape"(%txt_k_rope_out_im) : (tensor<1x256x24x64xf32>) -> tensor<1x256x24x64x1xf32>
    %txt_k_rope_out_pairs = "dit.concat"(%txt_k_rope_out_re1, %txt_k_rope_out_im1) {dim = 4 : i64} : (tensor<1x256x24x64x1xf32>, tensor<1x256x24x64x1xf32>) -> tensor<1x256x24x64x2xf32>
    %txt_k_rope_out_f32 = "dit.reshape"(%txt_k_rope_out_pairs) : (tensor<1x256x24x64x2xf32>) -> tensor<1x256x24x128xf32>
    %txt_k_rope = "dit.cast"(%txt_k_rope_out_f32) : (tensor<1x256x24x128xf32>) -> tensor<1x256x24x128xbf16>

    // ---- joint sequence: torch.cat([text, image], dim=1) -> [1, 4352, 24, 128]
    %joint_q = "dit.concat"(%txt_q_rope, %img_q_rope) {dim = 1 : i64} : (tensor<1x256x24x128xbf16>, tensor<1x4096x24x128xbf16>) -> tensor<1x4352x24x128xbf16>
    %joint_k = "dit.concat"(%txt_k_rope, %img_k_rope) {dim = 1 : i64} : (tensor<1x256x24x128xbf16>, tensor<1x4096x24x128xbf16>) -> tensor<1x4352x24x128xbf16>
    %joint_v = "dit.concat"(%txt_v, %img_v) {dim = 1 : i64} : (tensor<1x256x24x128xbf16>, tensor<1x4096x24x128xbf16>) -> tensor<1x4352x24x128xbf16>
    // ---- dispatch_attention_fn(q, k, v) in [B, S, H, D] layout, default scale 1/sqrt(128); no mask:
    // the pipeline drops an all-true encoder_hidden_states_mask (batch 1, no text padding)
    %joint_attn = "dit.attention"(%joint_q, %joint_k, %joint_v) {scale = 0.0883883476 : f32, layout = "BSND", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x4352x24x128xbf16>, tensor<1x4352x24x128xbf16>, tensor<1x4352x24x128xbf16>) -> tensor<1x4352x24x128xbf16>
    // .flatten(2, 3); the following .to(joint_query.dtype) is bf16 -> bf16, a no-op
    %joint_attn_flat = "dit.reshape"(%joint_attn) : (tensor<1x4352x24x128xbf16>) -> tensor<1x4352x3072xbf16>
    // split back: txt = out[:, :256], img = out[:, 256:]
    %txt_attn = "dit.slice"(%joint_attn_flat) {dim = 1 : i64, start = 0 : i64, end = 256 : i64, step = 1 : i64} : (tensor<1x4352x3072xbf16>) -> tensor<1x256x3072xbf16>
    %img_attn = "dit.slice"(%joint_attn_flat) {dim = 1 : i64, start = 256 : i64, end = 4352 : i64, step = 1 : i64} : (tensor<1x4352x3072xbf16>) -> tensor<1x4096x3072xbf16>
    // attn.to_out[0] (to_out[1] is Dropout) and attn.to_add_out
    %img_attn_out = "dit.linear"(%img_attn, %attn_to_out_0_weight, %attn_to_out_0_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4096x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x4096x3072xbf16>
    %txt_attn_out = "dit.linear"(%txt_attn, %attn_to_add_out_weight, %attn_to_add_out_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x256x3072xbf16>, tensor<3072x3072xbf16>, tensor<3072xbf16>) -> tensor<1x256x3072xbf16>

    // ==== gated residuals after attention =====================================
    // hidden_states = hidden_states + img_gate1 * img_attn_output
    %img_attn_gated = "dit.mul"(%img_gate1_b, %img_attn_out) : (tensor<1x1x3072xbf16>, tensor<1x4096x3072xbf16>) -> tensor<1x4096x3072xbf16>
    %img_resid1 = "dit.add"(%hidden_states, %img_attn_gated) : (tensor<1x4096x3072xbf16>, tensor<1x4096x3072xbf16>) -> tensor<1x4096x3072xbf16>
    // encoder_hidden_states = encoder_hidden_states + txt_gate1 * txt_attn_output
    %txt_attn_gated = "dit.mul"(%txt_gate1_b, %txt_attn_out) : (tensor<1x1x3072xbf16>, tensor<1x256x3072xbf16>) -> tensor<1x256x3072xbf16>
    %txt_resid1 = "dit.add"(%encoder_hidden_states, %txt_attn_gated) : (tensor<1x256x3072xbf16>, tensor<1x256x3072xbf16>) -> tensor<1x256x3072xbf16>

    // ==== image stream: norm2 + MLP ===========================================
    // img_norm2 (LayerNorm, no affine, eps 1e-6); _modulate(x, img_mod2): shift, scale, gate = chunk(3, -1),
    // each .unsqueeze(1); x * (1 + scale) + shift (modulate_index is None: zero_cond_t=False)
    %img_normed2 = "dit.layer_norm"(%img_resid1) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x4096x3072xbf16>) -> tensor<1x4096x3072xbf16>
    %img_shift2, %img_scale2, %img_gate2 = "dit.split"(%img_mod2) {dim = 1 : i64, sizes = array<i64: 3072, 3072, 3072>} : (tensor<1x9216xbf16>) -> (tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>)
    %img_shift2_b = "dit.reshape"(%img_shift2) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_scale2_b = "dit.reshape"(%img_scale2) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_gate2_b = "dit.reshape"(%img_gate2) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_one_plus_scale2 = "dit.add"(%one, %img_scale2_b) : (tensor<bf16>, tensor<1x1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %img_scaled2 = "dit.mul"(%img_normed2, %img_one_plus_scale2) : (tensor<1x4096x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x4096x3072xbf16>
    %img_modulated2 = "dit.add"(%img_scaled2, %img_shift2_b) : (tensor<1x4096x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x4096x3072xbf16>
    // img_mlp = FeedForward(3072, 3072, activation_fn="gelu-approximate"): net.0 = GELU(proj 3072->12288, tanh),
    // net.1 = Dropout, net.2 = Linear 12288->3072
    %img_ff_proj = "dit.linear"(%img_modulated2, %img_mlp_net_0_proj_weight, %img_mlp_net_0_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4096x3072xbf16>, tensor<12288x3072xbf16>, tensor<12288xbf16>) -> tensor<1x4096x12288xbf16>
    %img_ff_gelu = "dit.gelu"(%img_ff_proj) {approximate = "tanh"} : (tensor<1x4096x12288xbf16>) -> tensor<1x4096x12288xbf16>
    %img_ff_out = "dit.linear"(%img_ff_gelu, %img_mlp_net_2_weight, %img_mlp_net_2_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x4096x12288xbf16>, tensor<3072x12288xbf16>, tensor<3072xbf16>) -> tensor<1x4096x3072xbf16>
    // hidden_states = hidden_states + img_gate2 * img_mlp_output
    %img_ff_gated = "dit.mul"(%img_gate2_b, %img_ff_out) : (tensor<1x1x3072xbf16>, tensor<1x4096x3072xbf16>) -> tensor<1x4096x3072xbf16>
    %img_out = "dit.add"(%img_resid1, %img_ff_gated) : (tensor<1x4096x3072xbf16>, tensor<1x4096x3072xbf16>) -> tensor<1x4096x3072xbf16>

    // ==== text stream: norm2 + MLP ============================================
    // txt_norm2 (LayerNorm, no affine, eps 1e-6); _modulate(x, txt_mod2): shift, scale, gate = chunk(3, -1),
    // each .unsqueeze(1); x * (1 + scale) + shift (modulate_index is None: zero_cond_t=False)
    %txt_normed2 = "dit.layer_norm"(%txt_resid1) {epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1x256x3072xbf16>) -> tensor<1x256x3072xbf16>
    %txt_shift2, %txt_scale2, %txt_gate2 = "dit.split"(%txt_mod2) {dim = 1 : i64, sizes = array<i64: 3072, 3072, 3072>} : (tensor<1x9216xbf16>) -> (tensor<1x3072xbf16>, tensor<1x3072xbf16>, tensor<1x3072xbf16>)
    %txt_shift2_b = "dit.reshape"(%txt_shift2) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_scale2_b = "dit.reshape"(%txt_scale2) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_gate2_b = "dit.reshape"(%txt_gate2) : (tensor<1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_one_plus_scale2 = "dit.add"(%one, %txt_scale2_b) : (tensor<bf16>, tensor<1x1x3072xbf16>) -> tensor<1x1x3072xbf16>
    %txt_scaled2 = "dit.mul"(%txt_normed2, %txt_one_plus_scale2) : (tensor<1x256x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x256x3072xbf16>
    %txt_modulated2 = "dit.add"(%txt_scaled2, %txt_shift2_b) : (tensor<1x256x3072xbf16>, tensor<1x1x3072xbf16>) -> tensor<1x256x3072xbf16>
    // txt_mlp = FeedForward(3072, 3072, activation_fn="gelu-approximate"): net.0 = GELU(proj 3072->12288, tanh),
    // net.1 = Dropout, net.2 = Linear 12288->3072
    %txt_ff_proj = "dit.linear"(%txt_modulated2, %txt_mlp_net_0_proj_weight, %txt_mlp_net_0_proj_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x256x3072xbf16>, tensor<12288x3072xbf16>, tensor<12288xbf16>) -> tensor<1x256x12288xbf16>
    %txt_ff_gelu = "dit.gelu"(%txt_ff_proj) {approximate = "tanh"} : (tensor<1x256x12288xbf16>) -> tensor<1x256x12288xbf16>
    %txt_ff_out = "dit.linear"(%txt_ff_gelu, %txt_mlp_net_2_weight, %txt_mlp_net_2_bias) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x256x12288xbf16>, tensor<3072x12288xbf16>, tensor<3072xbf16>) -> tensor<1x256x3072xbf16>
    // encoder_hidden_states = encoder_hidden_states + txt_gate2 * txt_mlp_output
    %txt_ff_gated = "dit.mul"(%txt_gate2_b, %txt_ff_out) : (tensor<1x1x3072xbf16>, tensor<1x256x3072xbf16>) -> tensor<1x256x3072xbf16>
    %txt_out = "dit.add"(%txt_resid1, %txt_ff_gated) : (tensor<1x256x3072xbf16>, tensor<1x256x3072xbf16>) -> tensor<1x256x3072xbf16>
    // (the fp16 clip(-65504, 65504) does not apply to bf16)

    // return encoder_hidden_states, hidden_states  (diffusers order)
    func.return %txt_out, %img_out : tensor<1x256x3072xbf16>, tensor<1x4096x3072xbf16>
  }
}
