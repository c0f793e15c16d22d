"""More DiT families for dit-import: the ones seed 000 §3.3 lists that diffusers 0.42.1 implements.

models.py holds the first seven (flux, sd35, wan21, hunyuan, qwen_image, hidream, ltx); this module
adds FLUX.2, Ovis-Image, LongCat-Image, Z-Image, HunyuanVideo-1.5, Helios, ERNIE-Image, GLM-Image,
Krea 2, MiniMax-H3 and Stable Audio Open, in the same form (models.py's module docstring): each
family builds one kind of diffusers block (or one of each kind) at the widths of a released
checkpoint on the meta device, and takes as arguments what the diffusers model computes before
its first block. The widths are the defaults of the diffusers model class's `__init__`, which
diffusers sets to the released checkpoint's `transformer/config.json` (the checkpoint is named in
each family); token counts are a typical resolution, said in the family's notes.

Each family's config dict is module-level and read at call time by its builder and its inputs
function (Family.widths), so models.widths_of can apply the family's `reduced` overrides for
golden references.
"""

from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F

from .models import BF16, F32, Family, Input, _meta_build, _register

BOOL = torch.bool

# Reduced widths for golden references (tools/dit-import/README.md, "Golden references"):
# width 32 = 2 heads x 16, ~16 image + ~8 text tokens.
_SMALL = dict(heads=2, head_dim=16, img_tokens=16, txt_tokens=8)


def _keep_fp32(module: nn.Module, names):
    """Cast the submodules / parameters whose dotted name has a component in `names` to f32, as
    diffusers' `_keep_in_fp32_modules` does when a checkpoint is loaded in bf16."""
    names = set(names)
    for mname, sub in module.named_modules():
        if names & set(mname.split(".")):
            sub.float()
    for pname, p in module.named_parameters():
        if names & set(pname.split(".")):
            p.data = p.data.float()


def _rope(name, tokens, width, doc, group=None, lead=()):
    fill = "rope_" + name + (f":{group}" if group else "")
    return Input(f"rope_{name}", (*lead, tokens, width), F32, doc, fill)


# --------------------------------------------------------------------------------------------
# FLUX.2-dev
# --------------------------------------------------------------------------------------------

FLUX2 = dict(heads=48, head_dim=128, mlp_ratio=3.0, eps=1e-6, img_tokens=4096, txt_tokens=512)


class Flux2Stack(nn.Module):
    """Flux2Transformer2DModel.forward between the embedders / modulations and norm_out."""

    def __init__(self, n_double, n_single, **options):
        super().__init__()
        from diffusers.models.transformers import transformer_flux2 as m

        c = FLUX2
        kw = dict(
            dim=c["heads"] * c["head_dim"],
            num_attention_heads=c["heads"],
            attention_head_dim=c["head_dim"],
            mlp_ratio=c["mlp_ratio"],
            eps=c["eps"],
            bias=False,
        )
        self.transformer_blocks = nn.ModuleList([m.Flux2TransformerBlock(**kw) for _ in range(n_double)])
        self.single_transformer_blocks = nn.ModuleList([m.Flux2SingleTransformerBlock(**kw) for _ in range(n_single)])

    def forward(self, hidden_states, encoder_hidden_states, *rest):
        rest = list(rest)
        mod_img = rest.pop(0) if len(self.transformer_blocks) else None
        mod_txt = rest.pop(0) if len(self.transformer_blocks) else None
        mod_single = rest.pop(0) if len(self.single_transformer_blocks) else None
        rope = (rest[0], rest[1])
        for block in self.transformer_blocks:
            encoder_hidden_states, hidden_states = block(
                hidden_states=hidden_states,
                encoder_hidden_states=encoder_hidden_states,
                temb_mod_img=mod_img,
                temb_mod_txt=mod_txt,
                image_rotary_emb=rope,
            )
        if not len(self.single_transformer_blocks):
            return encoder_hidden_states, hidden_states
        txt = encoder_hidden_states.shape[1]
        hidden_states = torch.cat([encoder_hidden_states, hidden_states], dim=1)
        for block in self.single_transformer_blocks:
            hidden_states = block(
                hidden_states=hidden_states, encoder_hidden_states=None, temb_mod=mod_single, image_rotary_emb=rope
            )
        # The model keeps only the image rows (hidden_states[:, txt:]); the text rows are returned
        # too, so that the stack has the same two results whatever blocks it holds.
        return hidden_states[:, :txt, ...], hidden_states[:, txt:, ...]


def _flux2_inputs(d, s, **options):
    c = FLUX2
    dim = c["heads"] * c["head_dim"]
    joint = c["img_tokens"] + c["txt_tokens"]
    ins = [
        Input("hidden_states", (1, c["img_tokens"], dim), BF16, "image tokens after x_embedder"),
        Input("encoder_hidden_states", (1, c["txt_tokens"], dim), BF16, "Mistral tokens after context_embedder"),
    ]
    if d:
        ins += [
            Input("double_stream_mod_img", (1, 6 * dim), BF16, "double_stream_modulation_img(temb)"),
            Input("double_stream_mod_txt", (1, 6 * dim), BF16, "double_stream_modulation_txt(temb)"),
        ]
    if s:
        ins.append(Input("single_stream_mod", (1, 3 * dim), BF16, "single_stream_modulation(temb)"))
    ins += [
        _rope("cos", joint, c["head_dim"], "Flux2PosEmbed cos, text positions first"),
        _rope("sin", joint, c["head_dim"], "Flux2PosEmbed sin"),
    ]
    return ins


_register(
    Family(
        name="flux2",
        title="FLUX.2-dev",
        checkpoint="black-forest-labs/FLUX.2-dev (transformer/config.json = Flux2Transformer2DModel defaults)",
        config=dict(FLUX2, num_layers=8, num_single_layers=48, batch=1),
        classes=["Flux2TransformerBlock", "Flux2SingleTransformerBlock"],
        full_depth=(8, 48),
        default_depth=(1, 0),
        double_kind="Flux2TransformerBlock (double-stream MMDiT block, SwiGLU FFN)",
        single_kind="Flux2SingleTransformerBlock (parallel single-stream block, fused QKV+MLP projection)",
        build=_meta_build(Flux2Stack),
        inputs=_flux2_inputs,
        outputs=["encoder_hidden_states", "hidden_states"],
        widths=FLUX2,
        reduced=dict(_SMALL, mlp_ratio=3.0),
        notes=[
            "1024x1024 image: 128x128x32 latent, 2x2 patches = 4096 image tokens; 512 Mistral text tokens",
            "modulations are shared by all blocks of a kind and computed once in the model, so they are "
            "arguments; with single blocks the stack concatenates text + image as the model does, and "
            "returns both row ranges (the model keeps the image rows)",
            "left out: x_embedder, context_embedder, time_guidance_embed, the three Flux2Modulation, "
            "pos_embed, norm_out, proj_out; the KV-cache (reference-image) modes",
        ],
    )
)


# --------------------------------------------------------------------------------------------
# FLUX.1-style two-stream families: Ovis-Image, LongCat-Image
# --------------------------------------------------------------------------------------------

OVIS = dict(heads=24, head_dim=128, img_tokens=4096, txt_tokens=256)
LONGCAT = dict(heads=24, head_dim=128, img_tokens=4096, txt_tokens=512)


def _flux_like(module, double_cls, single_cls, cfg):
    class Stack(nn.Module):
        def __init__(self, n_double, n_single, **options):
            super().__init__()
            import importlib

            m = importlib.import_module(f"diffusers.models.transformers.{module}")
            c = cfg
            kw = dict(dim=c["heads"] * c["head_dim"], num_attention_heads=c["heads"], attention_head_dim=c["head_dim"])
            self.transformer_blocks = nn.ModuleList([getattr(m, double_cls)(**kw) for _ in range(n_double)])
            self.single_transformer_blocks = nn.ModuleList([getattr(m, single_cls)(**kw) for _ in range(n_single)])

        def forward(self, hidden_states, encoder_hidden_states, temb, rope_cos, rope_sin):
            rope = (rope_cos, rope_sin)
            for block in list(self.transformer_blocks) + list(self.single_transformer_blocks):
                encoder_hidden_states, hidden_states = block(
                    hidden_states=hidden_states,
                    encoder_hidden_states=encoder_hidden_states,
                    temb=temb,
                    image_rotary_emb=rope,
                )
            return encoder_hidden_states, hidden_states

    Stack.__doc__ = f"{module}: the model's two block loops (FLUX.1 calling convention)."

    def inputs(d, s, **options):
        c = cfg
        dim = c["heads"] * c["head_dim"]
        joint = c["img_tokens"] + c["txt_tokens"]
        return [
            Input("hidden_states", (1, c["img_tokens"], dim), BF16, "image tokens after x_embedder"),
            Input("encoder_hidden_states", (1, c["txt_tokens"], dim), BF16, "text tokens after context_embedder"),
            Input("temb", (1, dim), BF16, "timestep embedding"),
            _rope("cos", joint, c["head_dim"], "FLUX-style 3-axis RoPE cos, text positions first"),
            _rope("sin", joint, c["head_dim"], "RoPE sin"),
        ]

    return _meta_build(Stack), inputs


_b, _i = _flux_like("transformer_ovis_image", "OvisImageTransformerBlock", "OvisImageSingleTransformerBlock", OVIS)
_register(
    Family(
        name="ovis_image",
        title="Ovis-Image-7B",
        checkpoint="AIDC-AI/Ovis-Image-7B (transformer/config.json = OvisImageTransformer2DModel defaults)",
        config=dict(OVIS, num_layers=6, num_single_layers=27, batch=1),
        classes=["OvisImageTransformerBlock", "OvisImageSingleTransformerBlock"],
        full_depth=(6, 27),
        default_depth=(1, 0),
        double_kind="OvisImageTransformerBlock (double-stream block, SwiGLU FFN)",
        single_kind="OvisImageSingleTransformerBlock (single-stream block, silu(gate)*x MLP)",
        build=_b,
        inputs=_i,
        outputs=["encoder_hidden_states", "hidden_states"],
        widths=OVIS,
        reduced=dict(_SMALL),
        notes=[
            "1024x1024 image: 4096 image tokens; 256 Ovis-2.5 text tokens",
            "left out: x_embedder, context_embedder_norm + context_embedder, time_proj + timestep_embedder, "
            "pos_embed, norm_out, proj_out",
        ],
    )
)

_b, _i = _flux_like(
    "transformer_longcat_image", "LongCatImageTransformerBlock", "LongCatImageSingleTransformerBlock", LONGCAT
)
_register(
    Family(
        name="longcat_image",
        title="LongCat-Image",
        checkpoint="meituan-longcat/LongCat-Image (transformer/config.json = LongCatImageTransformer2DModel defaults)",
        config=dict(LONGCAT, num_layers=19, num_single_layers=38, batch=1),
        classes=["LongCatImageTransformerBlock", "LongCatImageSingleTransformerBlock"],
        full_depth=(19, 38),
        default_depth=(1, 0),
        double_kind="LongCatImageTransformerBlock (double-stream MMDiT block, GELU-tanh FFN)",
        single_kind="LongCatImageSingleTransformerBlock (single-stream block)",
        build=_b,
        inputs=_i,
        outputs=["encoder_hidden_states", "hidden_states"],
        widths=LONGCAT,
        reduced=dict(_SMALL),
        notes=[
            "1024x1024 image: 4096 image tokens; 512 Qwen2.5-VL text tokens",
            "left out: x_embedder, context_embedder, time_embed, pos_embed, norm_out, proj_out",
        ],
    )
)


# --------------------------------------------------------------------------------------------
# Z-Image-Turbo
# --------------------------------------------------------------------------------------------

ZIMAGE = dict(dim=3840, heads=30, norm_eps=1e-5, adaln_dim=256, img_tokens=4096, txt_tokens=256)


def _zimage_processor():
    """ZSingleStreamAttnProcessor with its complex RoPE product computed in real arithmetic.

    diffusers' processor multiplies view_as_complex(x.float().reshape(..., -1, 2)) by complex freqs
    [B, S, D/2] (unsqueezed to [B, S, 1, D/2]) in a function nested in __call__, so it cannot be
    patched alone; this subclass is the same __call__ with that product written as
    x * cos + rotate(x) * sin, cos / sin the real / imaginary parts of freqs repeat-interleaved
    to [B, S, D] (Qwen-Image's real form, models._qwen_rope_real): the same values, no complex
    dtype. Everything else is copied unchanged.
    """
    from diffusers.models.attention_dispatch import dispatch_attention_fn
    from diffusers.models.transformers.transformer_z_image import ZSingleStreamAttnProcessor

    class RealRopeProcessor(ZSingleStreamAttnProcessor):
        def __call__(self, attn, hidden_states, encoder_hidden_states=None, attention_mask=None, freqs_cis=None):
            query = attn.to_q(hidden_states).unflatten(-1, (attn.heads, -1))
            key = attn.to_k(hidden_states).unflatten(-1, (attn.heads, -1))
            value = attn.to_v(hidden_states).unflatten(-1, (attn.heads, -1))
            if attn.norm_q is not None:
                query = attn.norm_q(query)
            if attn.norm_k is not None:
                key = attn.norm_k(key)

            def rope(x, cs):
                # models._qwen_rope_real's order: rotate in x's dtype, then the f32 product
                # (bf16 -> f32 is exact, so this is diffusers' x_in.float() product).
                cos, sin = cs[0].unsqueeze(2), cs[1].unsqueeze(2)
                x_real, x_imag = x.reshape(*x.shape[:-1], -1, 2).unbind(-1)
                x_rot = torch.stack([-x_imag, x_real], dim=-1).flatten(3)
                return (x.float() * cos + x_rot.float() * sin).type_as(x)

            if freqs_cis is not None:
                query, key = rope(query, freqs_cis), rope(key, freqs_cis)
            dtype = query.dtype
            if attention_mask is not None and attention_mask.ndim == 2:
                attention_mask = attention_mask[:, None, None, :]
            out = dispatch_attention_fn(
                query,
                key,
                value,
                attn_mask=attention_mask,
                dropout_p=0.0,
                is_causal=False,
                backend=self._attention_backend,
                parallel_config=self._parallel_config,
            )
            out = out.flatten(2, 3).to(dtype)
            return attn.to_out[0](out)

    return RealRopeProcessor()


class ZImageStack(nn.Module):
    """ZImageTransformer2DModel.forward's main loop over `layers` (text-to-image: no noise mask)."""

    def __init__(self, n_double, n_single, **options):
        super().__init__()
        from diffusers.models.transformers import transformer_z_image as m

        c = ZIMAGE
        saved = m.ADALN_EMBED_DIM
        m.ADALN_EMBED_DIM = c["adaln_dim"]  # the width of t_embedder's output (adaLN input)
        try:
            self.layers = nn.ModuleList(
                [
                    m.ZImageTransformerBlock(i, c["dim"], c["heads"], c["heads"], c["norm_eps"], True)
                    for i in range(n_double)
                ]
            )
        finally:
            m.ADALN_EMBED_DIM = saved
        for b in self.layers:
            b.attention.set_processor(_zimage_processor())

    def forward(self, unified, unified_mask, rope_cos, rope_sin, adaln_input):
        for layer in self.layers:
            unified = layer(unified, unified_mask, (rope_cos, rope_sin), adaln_input)
        return unified


def _zimage_inputs(d, s, **options):
    c = ZIMAGE
    seq = c["img_tokens"] + c["txt_tokens"]
    hd = c["dim"] // c["heads"]
    return [
        Input(
            "unified",
            (1, seq, c["dim"]),
            BF16,
            "image tokens (x_embedder + noise_refiner) then caption tokens (cap_embedder + context_refiner)",
        ),
        Input("unified_mask", (1, seq), BOOL, "attention mask of the padded unified sequence", "key_mask:2"),
        _rope("cos", seq, hd, "real part of the RopeEmbedder freqs, repeat_interleave(2)", lead=(1,)),
        _rope("sin", seq, hd, "imaginary part, repeat_interleave(2)", lead=(1,)),
        Input("adaln_input", (1, c["adaln_dim"]), BF16, "t_embedder output"),
    ]


_register(
    Family(
        name="z_image",
        title="Z-Image-Turbo",
        checkpoint="Tongyi-MAI/Z-Image-Turbo (transformer/config.json = ZImageTransformer2DModel defaults)",
        config=dict(ZIMAGE, num_layers=30, n_refiner_layers=2, batch=1),
        classes=["ZImageTransformerBlock"],
        full_depth=(30, 0),
        default_depth=(1, 0),
        double_kind="ZImageTransformerBlock (single-stream S3-DiT block, SwiGLU FFN)",
        single_kind=None,
        build=_meta_build(ZImageStack),
        inputs=_zimage_inputs,
        outputs=["unified"],
        widths=ZIMAGE,
        reduced=dict(dim=32, heads=2, adaln_dim=32, img_tokens=16, txt_tokens=8),
        notes=[
            "1024x1024 image: 4096 image tokens; 256 Qwen3 caption tokens, one unified sequence",
            "substituted: the complex RoPE product of ZSingleStreamAttnProcessor by the same product "
            "in real arithmetic (cos/sin arguments, Qwen-Image's real form)",
            "left out: all_x_embedder, cap_embedder, t_embedder, noise_refiner and context_refiner "
            "(2 blocks each, the same ZImageTransformerBlock), RopeEmbedder, all_final_layer",
        ],
    )
)


# --------------------------------------------------------------------------------------------
# HunyuanVideo-1.5
# --------------------------------------------------------------------------------------------

HUNYUAN15 = dict(heads=16, head_dim=128, mlp_ratio=4.0, qk_norm="rms_norm", video_tokens=1590, txt_tokens=256)


class Hunyuan15Stack(nn.Module):
    """HunyuanVideo15Transformer3DModel.forward's block loop."""

    def __init__(self, n_double, n_single, **options):
        super().__init__()
        from diffusers.models.transformers.transformer_hunyuan_video15 import HunyuanVideo15TransformerBlock

        c = HUNYUAN15
        self.transformer_blocks = nn.ModuleList(
            [
                HunyuanVideo15TransformerBlock(c["heads"], c["head_dim"], mlp_ratio=c["mlp_ratio"], qk_norm=c["qk_norm"])
                for _ in range(n_double)
            ]
        )

    def forward(self, hidden_states, encoder_hidden_states, temb, encoder_attention_mask, rope_cos, rope_sin):
        for block in self.transformer_blocks:
            hidden_states, encoder_hidden_states = block(
                hidden_states, encoder_hidden_states, temb, encoder_attention_mask, (rope_cos, rope_sin)
            )
        return hidden_states, encoder_hidden_states


def _hunyuan15_inputs(d, s, **options):
    c = HUNYUAN15
    dim = c["heads"] * c["head_dim"]
    return [
        Input("hidden_states", (1, c["video_tokens"], dim), BF16, "video tokens after x_embedder"),
        Input("encoder_hidden_states", (1, c["txt_tokens"], dim), BF16, "reordered image + ByT5 + MLLM tokens"),
        Input("temb", (1, dim), BF16, "time_embed output"),
        Input(
            "encoder_attention_mask",
            (1, c["txt_tokens"]),
            BOOL,
            "text mask, valid tokens first",
            f"key_mask:{max(1, c['txt_tokens'] // 4)}",
        ),
        _rope("cos", c["video_tokens"], c["head_dim"], "HunyuanVideo15RotaryPosEmbed cos"),
        _rope("sin", c["video_tokens"], c["head_dim"], "HunyuanVideo15RotaryPosEmbed sin"),
    ]


_register(
    Family(
        name="hunyuan15",
        title="HunyuanVideo-1.5 (480p T2V)",
        checkpoint="hunyuanvideo-community/HunyuanVideo-1.5-Diffusers-480p_t2v (transformer/config.json = "
        "HunyuanVideo15Transformer3DModel defaults)",
        config=dict(HUNYUAN15, num_layers=54, batch=1),
        classes=["HunyuanVideo15TransformerBlock"],
        full_depth=(54, 0),
        default_depth=(1, 0),
        double_kind="HunyuanVideo15TransformerBlock (dual-stream MMDiT block)",
        single_kind=None,
        build=_meta_build(Hunyuan15Stack),
        inputs=_hunyuan15_inputs,
        outputs=["hidden_states", "encoder_hidden_states"],
        widths=HUNYUAN15,
        reduced=dict(heads=2, head_dim=16, video_tokens=16, txt_tokens=8),
        notes=[
            "one 480x848 latent frame: 30x53 = 1590 video tokens (121 frames: 31 x 1590 -- pass --tokens); "
            "256 text tokens",
            "the processor builds the [B,1,N,N] mask from the [B,T] text mask (F.pad + outer and)",
            "left out: x_embedder, context_embedder (token refiner), context_embedder_2 (ByT5), "
            "image_embedder, cond_type_embed, time_embed, rope, the text reordering, norm_out, proj_out",
        ],
    )
)


# --------------------------------------------------------------------------------------------
# Helios (Wan-style autoregressive video DiT)
# --------------------------------------------------------------------------------------------

HELIOS = dict(
    heads=40,
    head_dim=128,
    ffn_dim=13824,
    qk_norm="rms_norm_across_heads",
    cross_attn_norm=True,
    eps=1e-6,
    video_tokens=1560,
    txt_tokens=512,
)


class HeliosStack(nn.Module):
    """HeliosTransformer3DModel.forward's block loop, no history latents (first chunk)."""

    def __init__(self, n_double, n_single, **options):
        super().__init__()
        from diffusers.models.transformers.transformer_helios import HeliosTransformerBlock

        c = HELIOS
        dim = c["heads"] * c["head_dim"]
        self.blocks = nn.ModuleList(
            [
                HeliosTransformerBlock(
                    dim,
                    c["ffn_dim"],
                    c["heads"],
                    c["qk_norm"],
                    c["cross_attn_norm"],
                    c["eps"],
                    None,
                    guidance_cross_attn=True,
                    is_amplify_history=False,
                )
                for _ in range(n_double)
            ]
        )
        # HeliosTransformer3DModel._keep_in_fp32_modules (the ones a block has).
        _keep_fp32(self.blocks, ["scale_shift_table", "norm1", "norm2", "norm3"])

    def forward(self, hidden_states, encoder_hidden_states, timestep_proj, rotary_emb):
        b, n = hidden_states.shape[0], hidden_states.shape[1]
        # The model's glue: timestep_proj (B, 6*dim) -> (B, 6, N, dim) per token -> (B, N, 6, dim).
        tp = timestep_proj.unflatten(-1, (6, -1)).view(b, 6, 1, -1).expand(b, 6, n, -1).permute(0, 2, 1, 3)
        for block in self.blocks:
            hidden_states = block(hidden_states, encoder_hidden_states, tp, rotary_emb, n)
        return hidden_states


def _helios_inputs(d, s, **options):
    c = HELIOS
    dim = c["heads"] * c["head_dim"]
    return [
        Input("hidden_states", (1, c["video_tokens"], dim), BF16, "video tokens after patch_embedding"),
        Input("encoder_hidden_states", (1, c["txt_tokens"], dim), BF16, "UMT5 tokens after condition_embedder"),
        Input("timestep_proj", (1, 6 * dim), BF16, "condition_embedder timestep_proj"),
        Input("rotary_emb", (1, c["video_tokens"], 2 * c["head_dim"]), F32, "HeliosRotaryPosEmbed [cos | sin], flattened"),
    ]


_register(
    Family(
        name="helios",
        title="Helios-Base",
        checkpoint="BestWishYsh/Helios-Base (transformer/config.json = HeliosTransformer3DModel defaults)",
        config=dict(HELIOS, num_layers=40, batch=1),
        classes=["HeliosTransformerBlock"],
        full_depth=(40, 0),
        default_depth=(1, 0),
        double_kind="HeliosTransformerBlock (self-attention + guidance cross-attention + FFN)",
        single_kind=None,
        build=_meta_build(HeliosStack),
        inputs=_helios_inputs,
        outputs=["hidden_states"],
        widths=HELIOS,
        reduced=dict(heads=2, head_dim=16, ffn_dim=64, video_tokens=16, txt_tokens=8),
        notes=[
            "one 480x832 latent frame: 30x52 = 1560 video tokens, no history chunks "
            "(original_context_length = all tokens); 512 UMT5 tokens",
            "the per-token modulation glue of the model (timestep_proj expanded to [B, N, 6, dim]) is "
            "part of the stack",
            "fp32 where the model keeps fp32 (_keep_in_fp32_modules): scale_shift_table, norm1-3",
            "left out: patch_embedding, rope, the history patch embeddings, condition_embedder, norm_out, proj_out",
        ],
    )
)


# --------------------------------------------------------------------------------------------
# ERNIE-Image
# --------------------------------------------------------------------------------------------

ERNIE = dict(dim=3072, heads=24, ffn_dim=8192, eps=1e-6, img_tokens=4096, txt_tokens=256)


class ErnieStack(nn.Module):
    """ErnieImageTransformer2DModel.forward's layer loop (sequence-first [S, B, H] activations)."""

    def __init__(self, n_double, n_single, **options):
        super().__init__()
        from diffusers.models.transformers.transformer_ernie_image import ErnieImageSharedAdaLNBlock

        c = ERNIE
        self.layers = nn.ModuleList(
            [
                ErnieImageSharedAdaLNBlock(c["dim"], c["heads"], c["ffn_dim"], c["eps"], qk_layernorm=True)
                for _ in range(n_double)
            ]
        )

    def forward(self, x, rotary_pos_emb, adaln_modulation, attention_mask):
        s = x.shape[0]
        # The model's glue: adaLN_modulation(c) chunked into 6 and expanded over the sequence.
        temb = [t.unsqueeze(0).expand(s, -1, -1).contiguous() for t in adaln_modulation.chunk(6, dim=-1)]
        for layer in self.layers:
            x = layer(x, rotary_pos_emb, temb, attention_mask)
        return x


def _ernie_inputs(d, s, **options):
    c = ERNIE
    seq = c["img_tokens"] + c["txt_tokens"]
    hd = c["dim"] // c["heads"]
    return [
        Input("x", (seq, 1, c["dim"]), BF16, "image tokens (x_embedder) then text tokens (text_proj), [S, B, H]"),
        Input("rotary_pos_emb", (1, seq, 1, hd), F32, "ErnieImageEmbedND3 angles (cos/sin taken in the block)"),
        Input("adaln_modulation", (1, 6 * c["dim"]), BF16, "adaLN_modulation(time_embedding(t))"),
        Input(
            "attention_mask",
            (1, 1, 1, seq),
            BOOL,
            "image tokens then valid text",
            f"key_mask:{max(1, c['txt_tokens'] // 4)}",
        ),
    ]


_register(
    Family(
        name="ernie_image",
        title="ERNIE-Image",
        checkpoint="baidu/ERNIE-Image (transformer/config.json = ErnieImageTransformer2DModel defaults)",
        config=dict(ERNIE, num_layers=24, batch=1),
        classes=["ErnieImageSharedAdaLNBlock"],
        full_depth=(24, 0),
        default_depth=(1, 0),
        double_kind="ErnieImageSharedAdaLNBlock (single-stream block, gated GELU-erf FFN)",
        single_kind=None,
        build=_meta_build(ErnieStack),
        inputs=_ernie_inputs,
        outputs=["x"],
        widths=ERNIE,
        reduced=dict(dim=32, heads=2, ffn_dim=64, img_tokens=16, txt_tokens=8),
        notes=[
            "1024x1024 image: 4096 image tokens; 256 text tokens",
            "the model's AdaLN glue (6 chunks expanded over the sequence, shared by all layers) is part of the stack",
            "left out: x_embedder, text_proj, pos_embed, time_proj + time_embedding + adaLN_modulation, "
            "final_norm, final_linear",
        ],
    )
)


# --------------------------------------------------------------------------------------------
# GLM-Image (DiT decoder)
# --------------------------------------------------------------------------------------------

GLM = dict(heads=64, head_dim=40, time_embed_dim=512, img_tokens=4096, txt_tokens=128)


class GlmStack(nn.Module):
    """GlmImageTransformer2DModel.forward's block loop (no KV cache, no text mask)."""

    def __init__(self, n_double, n_single, **options):
        super().__init__()
        from diffusers.models.transformers.transformer_glm_image import GlmImageTransformerBlock

        c = GLM
        self.transformer_blocks = nn.ModuleList(
            [
                GlmImageTransformerBlock(c["heads"] * c["head_dim"], c["heads"], c["head_dim"], c["time_embed_dim"])
                for _ in range(n_double)
            ]
        )

    def forward(self, hidden_states, encoder_hidden_states, temb, rope_cos, rope_sin):
        for block in self.transformer_blocks:
            hidden_states, encoder_hidden_states = block(
                hidden_states, encoder_hidden_states, temb, (rope_cos, rope_sin), None, None
            )
        return hidden_states, encoder_hidden_states


def _glm_inputs(d, s, **options):
    c = GLM
    dim = c["heads"] * c["head_dim"]
    return [
        Input("hidden_states", (1, c["img_tokens"], dim), BF16, "image tokens after image_projector + prior_projector"),
        Input("encoder_hidden_states", (1, c["txt_tokens"], dim), BF16, "glyph tokens after glyph_projector"),
        Input("temb", (1, c["time_embed_dim"]), BF16, "time_condition_embed output"),
        _rope("cos", c["img_tokens"], c["head_dim"], "GlmImageRotaryPosEmbed cos (image tokens only)"),
        _rope("sin", c["img_tokens"], c["head_dim"], "GlmImageRotaryPosEmbed sin"),
    ]


_register(
    Family(
        name="glm_image",
        title="GLM-Image (DiT decoder)",
        checkpoint="zai-org/GLM-Image (transformer/config.json = GlmImageTransformer2DModel defaults)",
        config=dict(GLM, num_layers=30, batch=1),
        classes=["GlmImageTransformerBlock"],
        full_depth=(30, 0),
        default_depth=(1, 0),
        double_kind="GlmImageTransformerBlock (joint-attention block, one FFN shared by both streams)",
        single_kind=None,
        build=_meta_build(GlmStack),
        inputs=_glm_inputs,
        outputs=["hidden_states", "encoder_hidden_states"],
        widths=GLM,
        reduced=dict(heads=2, head_dim=16, time_embed_dim=32, img_tokens=16, txt_tokens=8),
        notes=[
            "1024x1024 image: 128x128 latent, 2x2 patches = 4096 image tokens; 128 glyph (ByT5) tokens",
            "RoPE is written into the image rows of q/k in place (query[:, T:] = ...), as the model does",
            "left out: image_projector, glyph_projector, prior_token_embedding + prior_projector, "
            "time_condition_embed, rope, norm_out, proj_out; the KV cache of the AR prior",
        ],
    )
)


# --------------------------------------------------------------------------------------------
# Krea 2
# --------------------------------------------------------------------------------------------

KREA2 = dict(heads=48, kv_heads=12, head_dim=128, ffn_dim=16384, norm_eps=1e-5, img_tokens=4096, txt_tokens=256)


class Krea2Stack(nn.Module):
    """Krea2Transformer2DModel.forward's block loop over the joint text + image sequence."""

    def __init__(self, n_double, n_single, **options):
        super().__init__()
        from diffusers.models.transformers.transformer_krea2 import Krea2TransformerBlock

        c = KREA2
        self.transformer_blocks = nn.ModuleList(
            [
                Krea2TransformerBlock(c["heads"] * c["head_dim"], c["ffn_dim"], c["heads"], c["kv_heads"], c["norm_eps"])
                for _ in range(n_double)
            ]
        )
        # Krea2Transformer2DModel._keep_in_fp32_modules.
        _keep_fp32(self.transformer_blocks, ["norm", "norm1", "norm2", "norm_q", "norm_k"])

    def forward(self, hidden_states, temb_mod, rope_cos, rope_sin, attention_mask):
        for block in self.transformer_blocks:
            hidden_states = block(hidden_states, temb_mod, (rope_cos, rope_sin), attention_mask)
        return hidden_states


def _krea2_inputs(d, s, **options):
    c = KREA2
    dim = c["heads"] * c["head_dim"]
    joint = c["txt_tokens"] + c["img_tokens"]
    return [
        Input("hidden_states", (1, joint, dim), BF16, "text tokens (text_fusion + txt_in) then image tokens (img_in)"),
        Input("temb_mod", (1, 1, 6 * dim), BF16, "time_mod_proj(gelu_tanh(time_embed(t)))"),
        _rope("cos", joint, c["head_dim"], "Krea2RotaryPosEmbed cos"),
        _rope("sin", joint, c["head_dim"], "Krea2RotaryPosEmbed sin"),
        Input("attention_mask", (1, 1, 1, joint), BOOL, "text mask then ones", "key_mask:2"),
    ]


_register(
    Family(
        name="krea2",
        title="Krea 2",
        checkpoint="krea/krea-2 (transformer/config.json = Krea2Transformer2DModel defaults)",
        config=dict(KREA2, num_layers=28, batch=1),
        classes=["Krea2TransformerBlock"],
        full_depth=(28, 0),
        default_depth=(1, 0),
        double_kind="Krea2TransformerBlock (single-stream block, GQA + sigmoid-gated attention, SwiGLU FFN)",
        single_kind=None,
        build=_meta_build(Krea2Stack),
        inputs=_krea2_inputs,
        outputs=["hidden_states"],
        widths=KREA2,
        reduced=dict(heads=2, kv_heads=1, head_dim=16, ffn_dim=64, img_tokens=16, txt_tokens=8),
        notes=[
            "1024x1024 image: 4096 image tokens; 256 text tokens (padded; the mask excludes the padding keys)",
            "fp32 where the model keeps fp32 (_keep_in_fp32_modules): the Krea2RMSNorm weights",
            "left out: text_fusion (layerwise + refiner text blocks), txt_in, img_in, time_embed, "
            "time_mod_proj, rotary_emb, final_layer",
        ],
    )
)


# --------------------------------------------------------------------------------------------
# MiniMax-H3 (audio-video)
# --------------------------------------------------------------------------------------------

MINIMAX = dict(
    hidden=5376,
    heads=56,
    head_dim=128,
    ffn_dim=14336,
    time_embed_dim=2688,
    rope_dim=96,
    eps=1e-5,
    txt_tokens=256,
    video_tokens=1560,
    audio_tokens=232,
)



class MiniMaxStack(nn.Module):
    """MiniMaxH3Transformer3DModel.forward's block loop over the packed text/video/audio sequence."""

    def __init__(self, n_double, n_single, **options):
        super().__init__()
        from diffusers.models.transformers.transformer_minimax_h3 import MiniMaxH3TransformerBlock

        c = MINIMAX
        self.transformer_blocks = nn.ModuleList(
            [
                MiniMaxH3TransformerBlock(
                    c["hidden"], c["heads"], c["head_dim"], c["ffn_dim"], c["time_embed_dim"], c["eps"], c["eps"]
                )
                for _ in range(n_double)
            ]
        )

    def forward(self, hidden_states, temb, rope_cos, rope_sin):
        # The model's `timestep_indices * 3 + token_tags` for one noise level (timestep_indices = 0)
        # and the packing [text | video | audio]: a constant of the graph, not an argument.
        c = MINIMAX
        rows = [c["txt_tokens"], c["video_tokens"], c["audio_tokens"]]
        dev = hidden_states.device
        adaln_indices = torch.cat([torch.full((n,), tag, dtype=torch.int64, device=dev) for tag, n in enumerate(rows)])
        for block in self.transformer_blocks:
            hidden_states = block(hidden_states, temb, adaln_indices, (rope_cos, rope_sin))
        return hidden_states


def _minimax_inputs(d, s, **options):
    c = MINIMAX
    n = c["txt_tokens"] + c["video_tokens"] + c["audio_tokens"]
    return [
        Input("hidden_states", (1, n, c["hidden"]), BF16, "packed rows: text (token refiner), video, audio"),
        Input("temb", (1, c["time_embed_dim"]), F32, "time_embedder output (f32, one noise level)"),
        _rope("cos", n, c["rope_dim"], "MiniMaxH3RotaryPosEmbed cos (3 x 16 freqs, twice)"),
        _rope("sin", n, c["rope_dim"], "MiniMaxH3RotaryPosEmbed sin"),
    ]


_register(
    Family(
        name="minimax_h3",
        title="MiniMax-H3",
        checkpoint="MiniMaxAI/MiniMax-H3 (transformer/config.json = MiniMaxH3Transformer3DModel defaults)",
        config=dict(MINIMAX, num_layers=50, batch=1),
        classes=["MiniMaxH3TransformerBlock"],
        full_depth=(50, 0),
        default_depth=(1, 0),
        double_kind="MiniMaxH3TransformerBlock (packed single-stream block, per-row AdaLN, SwiGLU FFN)",
        single_kind=None,
        build=_meta_build(MiniMaxStack),
        inputs=_minimax_inputs,
        outputs=["hidden_states"],
        widths=MINIMAX,
        reduced=dict(
            hidden=32,
            heads=2,
            head_dim=16,
            ffn_dim=64,
            time_embed_dim=32,
            rope_dim=12,  # 2 x 3 axes x 2 freqs: partial rotation (12 of 16 channels), as 96 of 128
            txt_tokens=8,
            video_tokens=12,
            audio_tokens=4,
        ),
        notes=[
            "one request packed as 256 text + 1560 video (one 480x832 latent frame) + 232 audio rows",
            "one noise level: the AdaLN table has 3 rows (x 3 modalities) and adaln_indices (a constant "
            "of the packing here) picks one per row with index_select",
            "left out: proj_in, audio_proj_in, context_embedder, token_refiner, the index_copy packing, "
            "time_proj + time_embedder, rope, norm_out, proj_out, audio_proj_out",
        ],
    )
)


# --------------------------------------------------------------------------------------------
# Stable Audio Open 1.0
# --------------------------------------------------------------------------------------------

STABLE_AUDIO = dict(
    heads=24, kv_heads=12, head_dim=64, cross_attention_dim=768, audio_tokens=1025, txt_tokens=130
)


class StableAudioStack(nn.Module):
    """StableAudioDiTModel.forward's block loop (no attention masks: the pipeline passes none)."""

    def __init__(self, n_double, n_single, **options):
        super().__init__()
        from diffusers.models.transformers.stable_audio_transformer import StableAudioDiTBlock

        c = STABLE_AUDIO
        self.transformer_blocks = nn.ModuleList(
            [
                StableAudioDiTBlock(
                    dim=c["heads"] * c["head_dim"],
                    num_attention_heads=c["heads"],
                    num_key_value_attention_heads=c["kv_heads"],
                    attention_head_dim=c["head_dim"],
                    cross_attention_dim=c["cross_attention_dim"],
                )
                for _ in range(n_double)
            ]
        )

    def forward(self, hidden_states, cross_attention_hidden_states, rope_cos, rope_sin):
        for block in self.transformer_blocks:
            hidden_states = block(
                hidden_states=hidden_states,
                attention_mask=None,
                encoder_hidden_states=cross_attention_hidden_states,
                encoder_attention_mask=None,
                rotary_embedding=(rope_cos, rope_sin),
            )
        return hidden_states


def _stable_audio_inputs(d, s, **options):
    c = STABLE_AUDIO
    dim = c["heads"] * c["head_dim"]
    return [
        Input("hidden_states", (1, c["audio_tokens"], dim), BF16, "global token + audio latents after proj_in"),
        Input(
            "cross_attention_hidden_states",
            (1, c["txt_tokens"], c["cross_attention_dim"]),
            BF16,
            "T5 tokens + seconds_start + seconds_end after the projection model",
        ),
        _rope("cos", c["audio_tokens"], c["head_dim"] // 2, "get_1d_rotary_pos_embed(head_dim // 2) cos (partial RoPE)"),
        _rope("sin", c["audio_tokens"], c["head_dim"] // 2, "sin"),
    ]


_register(
    Family(
        name="stable_audio",
        title="Stable Audio Open 1.0",
        checkpoint="stabilityai/stable-audio-open-1.0 (transformer/config.json = StableAudioDiTModel defaults)",
        config=dict(STABLE_AUDIO, num_layers=24, batch=1),
        classes=["StableAudioDiTBlock"],
        full_depth=(24, 0),
        default_depth=(1, 0),
        double_kind="StableAudioDiTBlock (self-attention + GQA cross-attention + SwiGLU FFN)",
        single_kind=None,
        build=_meta_build(StableAudioStack),
        inputs=_stable_audio_inputs,
        outputs=["hidden_states"],
        widths=STABLE_AUDIO,
        reduced=dict(heads=2, kv_heads=1, head_dim=16, cross_attention_dim=24, audio_tokens=17, txt_tokens=8),
        notes=[
            "sample_size 1024 latent frames + 1 prepended global token = 1025 rows; 128 T5 tokens + 2 "
            "seconds tokens = 130 cross-attention rows",
            "left out: time_proj + timestep_proj, global_proj, preprocess_conv, proj_in, proj_out, postprocess_conv",
        ],
    )
)


# --------------------------------------------------------------------------------------------
# LTX-2 (audio + video)
# --------------------------------------------------------------------------------------------

LTX2 = dict(
    heads=32,
    head_dim=128,
    cross_attention_dim=4096,
    audio_heads=32,
    audio_head_dim=64,
    audio_cross_attention_dim=2048,
    video_tokens=6144,
    audio_tokens=126,
    txt_tokens=256,
)


class LTX2Stack(nn.Module):
    """LTX2VideoTransformer3DModel.forward's block loop (defaults: no gated attention, no
    cross-attention AdaLN, no perturbed attention, no masks: an unpadded prompt)."""

    def __init__(self, n_double, n_single, **options):
        super().__init__()
        from diffusers.models.transformers.transformer_ltx2 import LTX2VideoTransformerBlock

        c = LTX2
        self.transformer_blocks = nn.ModuleList(
            [
                LTX2VideoTransformerBlock(
                    dim=c["heads"] * c["head_dim"],
                    num_attention_heads=c["heads"],
                    attention_head_dim=c["head_dim"],
                    cross_attention_dim=c["cross_attention_dim"],
                    audio_dim=c["audio_heads"] * c["audio_head_dim"],
                    audio_num_attention_heads=c["audio_heads"],
                    audio_attention_head_dim=c["audio_head_dim"],
                    audio_cross_attention_dim=c["audio_cross_attention_dim"],
                    qk_norm="rms_norm_across_heads",
                    activation_fn="gelu-approximate",
                    eps=1e-6,
                    elementwise_affine=False,
                    rope_type="interleaved",
                )
                for _ in range(n_double)
            ]
        )

    def forward(
        self,
        hidden_states,
        audio_hidden_states,
        encoder_hidden_states,
        audio_encoder_hidden_states,
        temb,
        temb_audio,
        temb_ca_scale_shift,
        temb_ca_audio_scale_shift,
        temb_ca_gate,
        temb_ca_audio_gate,
        video_rope_cos,
        video_rope_sin,
        audio_rope_cos,
        audio_rope_sin,
        ca_video_rope_cos,
        ca_video_rope_sin,
        ca_audio_rope_cos,
        ca_audio_rope_sin,
    ):
        for block in self.transformer_blocks:
            hidden_states, audio_hidden_states = block(
                hidden_states=hidden_states,
                audio_hidden_states=audio_hidden_states,
                encoder_hidden_states=encoder_hidden_states,
                audio_encoder_hidden_states=audio_encoder_hidden_states,
                temb=temb,
                temb_audio=temb_audio,
                temb_ca_scale_shift=temb_ca_scale_shift,
                temb_ca_audio_scale_shift=temb_ca_audio_scale_shift,
                temb_ca_gate=temb_ca_gate,
                temb_ca_audio_gate=temb_ca_audio_gate,
                video_rotary_emb=(video_rope_cos, video_rope_sin),
                audio_rotary_emb=(audio_rope_cos, audio_rope_sin),
                ca_video_rotary_emb=(ca_video_rope_cos, ca_video_rope_sin),
                ca_audio_rotary_emb=(ca_audio_rope_cos, ca_audio_rope_sin),
            )
        return hidden_states, audio_hidden_states


def _ltx2_inputs(d, s, **options):
    c = LTX2
    dim, adim = c["heads"] * c["head_dim"], c["audio_heads"] * c["audio_head_dim"]
    nv, na, nt = c["video_tokens"], c["audio_tokens"], c["txt_tokens"]
    ca = c["audio_cross_attention_dim"]
    return [
        Input("hidden_states", (1, nv, dim), BF16, "video tokens after proj_in"),
        Input("audio_hidden_states", (1, na, adim), BF16, "audio tokens after audio_proj_in"),
        Input("encoder_hidden_states", (1, nt, dim), BF16, "Gemma-3 tokens after caption_projection"),
        Input("audio_encoder_hidden_states", (1, nt, adim), BF16, "after audio_caption_projection"),
        Input("temb", (1, 1, 6 * dim), BF16, "time_embed output"),
        Input("temb_audio", (1, 1, 6 * adim), BF16, "audio_time_embed output"),
        Input("temb_ca_scale_shift", (1, 1, 4 * dim), BF16, "av_cross_attn_video_scale_shift output"),
        Input("temb_ca_audio_scale_shift", (1, 1, 4 * adim), BF16, "av_cross_attn_audio_scale_shift output"),
        Input("temb_ca_gate", (1, 1, dim), BF16, "av_cross_attn_video_a2v_gate output"),
        Input("temb_ca_audio_gate", (1, 1, adim), BF16, "av_cross_attn_audio_v2a_gate output"),
        Input("video_rope_cos", (1, nv, dim), F32, "rope cos (interleaved)", "rope_cos:v"),
        Input("video_rope_sin", (1, nv, dim), F32, "rope sin", "rope_sin:v"),
        Input("audio_rope_cos", (1, na, adim), F32, "audio_rope cos", "rope_cos:a"),
        Input("audio_rope_sin", (1, na, adim), F32, "audio_rope sin", "rope_sin:a"),
        Input("ca_video_rope_cos", (1, nv, ca), F32, "cross_attn_rope cos (time axis)", "rope_cos:cv"),
        Input("ca_video_rope_sin", (1, nv, ca), F32, "cross_attn_rope sin", "rope_sin:cv"),
        Input("ca_audio_rope_cos", (1, na, ca), F32, "cross_attn_audio_rope cos", "rope_cos:ca"),
        Input("ca_audio_rope_sin", (1, na, ca), F32, "cross_attn_audio_rope sin", "rope_sin:ca"),
    ]


_register(
    Family(
        name="ltx2",
        title="LTX-2 (19B audio-video)",
        checkpoint="Lightricks/LTX-2 (transformer/config.json = LTX2VideoTransformer3DModel defaults)",
        config=dict(LTX2, num_layers=48, batch=1),
        classes=["LTX2VideoTransformerBlock"],
        full_depth=(48, 0),
        default_depth=(1, 0),
        double_kind="LTX2VideoTransformerBlock (video + audio self-attn, text cross-attn, a2v / v2a cross-attn, FFNs)",
        single_kind=None,
        build=_meta_build(LTX2Stack),
        inputs=_ltx2_inputs,
        outputs=["hidden_states", "audio_hidden_states"],
        widths=LTX2,
        reduced=dict(
            heads=2,
            head_dim=16,
            cross_attention_dim=32,
            audio_heads=2,
            audio_head_dim=8,
            # the a2v / v2a cross-attention RoPE width: the audio inner dim (2 x 8), as 2048 = 32 x 64
            audio_cross_attention_dim=16,
            video_tokens=16,
            audio_tokens=8,
            txt_tokens=8,
        ),
        notes=[
            "121 frames at 512x768: 16x16x24 latent = 6144 video tokens; ~5 s of audio = 126 audio tokens; "
            "256 Gemma-3 text tokens, unpadded (no masks)",
            "left out: proj_in, audio_proj_in, caption projections, the time / cross-attention AdaLN "
            "embeddings, the four rope modules, norm_out, proj_out, audio_norm_out, audio_proj_out",
        ],
    )
)


# --------------------------------------------------------------------------------------------
# Cosmos3 (Qwen3-style MoT: understanding + generation pathways)
# --------------------------------------------------------------------------------------------

COSMOS3 = dict(hidden=4096, heads=32, kv_heads=8, head_dim=128, ffn_dim=12288, eps=1e-6, und_tokens=256, gen_tokens=2048)


class Cosmos3Stack(nn.Module):
    """Cosmos3OmniTransformer.forward's decoder-layer loop (packed [N, H] sequences, no batch dim)."""

    def __init__(self, n_double, n_single, **options):
        super().__init__()
        from diffusers.models.transformers.transformer_cosmos3 import Cosmos3VLTextMoTDecoderLayer

        c = COSMOS3
        self.layers = nn.ModuleList(
            [
                Cosmos3VLTextMoTDecoderLayer(
                    c["hidden"], c["head_dim"], c["heads"], c["kv_heads"], c["ffn_dim"], False, c["eps"], "silu"
                )
                for _ in range(n_double)
            ]
        )

    def forward(self, und_seq, gen_seq, und_rope_cos, und_rope_sin, gen_rope_cos, gen_rope_sin):
        rotary_emb = (und_rope_cos, und_rope_sin, gen_rope_cos, gen_rope_sin)
        for layer in self.layers:
            und_seq, gen_seq = layer(und_seq, gen_seq, rotary_emb)
        return und_seq, gen_seq


def _cosmos3_inputs(d, s, **options):
    c = COSMOS3
    nu, ng, hd = c["und_tokens"], c["gen_tokens"], c["head_dim"]
    return [
        Input("und_seq", (nu, c["hidden"]), BF16, "understanding (text) rows of the packed sequence"),
        Input("gen_seq", (ng, c["hidden"]), BF16, "generation (latent patch) rows"),
        Input("und_rope_cos", (nu, hd), BF16, "Cosmos3VLTextRotaryEmbedding cos (3D mRoPE), und rows", "rope_cos:u"),
        Input("und_rope_sin", (nu, hd), BF16, "sin, und rows", "rope_sin:u"),
        Input("gen_rope_cos", (ng, hd), BF16, "cos, gen rows", "rope_cos:g"),
        Input("gen_rope_sin", (ng, hd), BF16, "sin, gen rows", "rope_sin:g"),
    ]


_register(
    Family(
        name="cosmos3",
        title="Cosmos3 (Qwen3 backbone)",
        checkpoint="nvidia/Cosmos3 (transformer/config.json = Cosmos3OmniTransformer defaults)",
        config=dict(COSMOS3, num_layers=36, batch=1),
        classes=["Cosmos3VLTextMoTDecoderLayer"],
        full_depth=(36, 0),
        default_depth=(1, 0),
        double_kind="Cosmos3VLTextMoTDecoderLayer (MoT layer: causal und attention, full gen attention, two SwiGLU MLPs)",
        single_kind=None,
        build=_meta_build(Cosmos3Stack),
        inputs=_cosmos3_inputs,
        outputs=["und_seq", "gen_seq"],
        widths=COSMOS3,
        reduced=dict(hidden=32, heads=2, kv_heads=1, head_dim=16, ffn_dim=64, und_tokens=8, gen_tokens=16),
        notes=[
            "256 understanding (text) rows + 2048 generation rows, one packed request",
            "the RoPE tables are in the activations' dtype (Cosmos3VLTextRotaryEmbedding casts them)",
            "the main-model MLP (hidden_act silu); the Edge variant's ReLU^2 MLP (hidden_act relu2) is not built",
            "left out: embed_tokens, the latent patch embedder, time / fps embedders, rotary_emb, norm, the heads",
        ],
    )
)
