"""Builders for the DiT families dit-import knows.

Every family builds its diffusers transformer blocks at the real widths of a released
checkpoint (the config is written out below, with where it comes from) on the meta device:
no weights are allocated and nothing is downloaded. A family's *stack* chains `double` blocks
then `single` blocks the way the diffusers model's forward does (same argument passing, same
per-block glue), and takes as arguments what the model computes before its first block
(hidden states after the patch/context embedders, temb, RoPE tables, masks). The parameter
names are the checkpoint's state-dict keys (`transformer_blocks.0.attn.to_q.weight`, ...).

What a family leaves out (embedders, final layer, timestep MLPs) is listed in its `notes`,
and ends up in the header of every generated file.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from typing import Callable

import torch
import torch.nn as nn

BF16 = torch.bfloat16
F32 = torch.float32


@dataclasses.dataclass
class Input:
    """One activation argument of a stack (the arguments before the weights).

    `fill` says how golden generation (dit_import/golden.py) fills it with valid values; the
    importer itself never reads it. None: standard normal values. Otherwise one of
      "rope_cos[:G]" / "rope_sin[:G]"  cos / sin of random angles, each angle repeated twice
                                       along the last dim (repeat_interleave(2): the layout of
                                       FLUX, Wan, Hunyuan, LTX and the real-form Qwen tables);
                                       inputs of one group G with the same shape share angles
      "rope_rot[:G]"                   HiDream's freqs_cis [..., D/2, 2, 2]: the rotation
                                       matrices [[cos, -sin], [sin, cos]] of random angles
      "rope_complex[:G]"               complex exp(i * angle) (Qwen's complex form)
      "key_mask:N"                     bool, True everywhere but the last N positions of the
                                       last dim (padded text keys, as the models build them)
      "key_bias:N"                     additive mask: 0, and -10000 on the last N positions
    """

    name: str
    shape: tuple
    dtype: torch.dtype
    doc: str
    fill: str | None = None


@dataclasses.dataclass
class Family:
    """A model family: how to build its block stack and what its arguments are.

    Fields a new family must also fill to get golden references (tools/dit-import/README.md,
    "Golden references"):
      widths   the module-level dict its builder and inputs function read (FLUX, SD35, ...),
               the very object, not a copy: `widths_of` changes it in place while a golden is
               generated, so the builder must read it at call time (`c = FLUX` inside build).
      reduced  overrides of `widths` for golden references: about dim 32, 2 heads, head_dim 16,
               ~16 image/video + ~8 text tokens, chosen so that the family's structure stays
               valid (head_dim vs RoPE width, qk-norm, experts and top-k, FFN dims, ...).
               A family with an empty `reduced` gets no goldens.
    Inputs that need valid values (RoPE tables, masks) say so with `Input.fill`; golden
    generation fills every other floating-point input with standard normal values.
    """

    name: str  # --model value
    title: str  # human name
    checkpoint: str  # the checkpoint whose config the widths come from
    config: dict  # the widths, for the file header
    classes: list  # diffusers classes used
    full_depth: tuple  # (double, single) of the real model
    default_depth: tuple  # (double, single) for `--blocks 1`
    double_kind: str  # what a "double" block is in this family
    single_kind: str | None
    build: Callable[..., nn.Module]  # (double, single, **options) -> stack module (meta device)
    inputs: Callable[..., list]  # (double, single, **options) -> [Input]
    outputs: list  # names of the stack's results
    notes: list  # what is left out / substituted
    last_block_variant: str | None = None  # what --full-depth does differently at the end
    widths: dict = dataclasses.field(default_factory=dict)  # the builder's config dict (see above)
    reduced: dict = dataclasses.field(default_factory=dict)  # overrides of widths for goldens


FAMILIES: dict[str, Family] = {}


def _register(f: Family) -> Family:
    FAMILIES[f.name] = f
    return f


@contextlib.contextmanager
def widths_of(family: Family, overrides: dict):
    """Temporarily apply `overrides` to `family.widths` (the dict its builder reads) and to the
    matching keys of `family.config` (the file header), restoring both on exit.

    Keys that `widths` lacks are refused: a misspelt override would otherwise be silently
    ignored and the golden built at the wrong widths.
    """
    unknown = sorted(set(overrides) - set(family.widths))
    if unknown:
        raise KeyError(f"{family.name}: no such width(s) {unknown}; known: {sorted(family.widths)}")
    saved_w, saved_c = dict(family.widths), dict(family.config)
    try:
        family.widths.update(overrides)
        family.config.update({k: v for k, v in overrides.items() if k in family.config})
        yield family.widths
    finally:
        family.widths.clear()
        family.widths.update(saved_w)
        family.config.clear()
        family.config.update(saved_c)


def _meta_build(fn):
    """Construct modules on the meta device in bf16: shapes only, no storage."""

    def wrapped(*a, **kw):
        prev = torch.get_default_dtype()
        try:
            torch.set_default_dtype(BF16)
            with torch.device("meta"):
                m = fn(*a, **kw)
        finally:
            torch.set_default_dtype(prev)
        return m.eval()

    return wrapped


# --------------------------------------------------------------------------------------------
# FLUX.1-dev
# --------------------------------------------------------------------------------------------

FLUX = dict(dim=3072, heads=24, head_dim=128, mlp_ratio=4.0, img_tokens=4096, txt_tokens=512)


class FluxStack(nn.Module):
    """FluxTransformer2DModel.forward between the embedders and norm_out (diffusers order)."""

    def __init__(self, n_double, n_single, **options):
        super().__init__()
        from diffusers.models.transformers.transformer_flux import (
            FluxSingleTransformerBlock,
            FluxTransformerBlock,
        )

        c = FLUX
        self.transformer_blocks = nn.ModuleList(
            [
                FluxTransformerBlock(dim=c["dim"], num_attention_heads=c["heads"], attention_head_dim=c["head_dim"])
                for _ in range(n_double)
            ]
        )
        self.single_transformer_blocks = nn.ModuleList(
            [
                FluxSingleTransformerBlock(
                    dim=c["dim"], num_attention_heads=c["heads"], attention_head_dim=c["head_dim"]
                )
                for _ in range(n_single)
            ]
        )

    def forward(self, hidden_states, encoder_hidden_states, temb, rope_cos, rope_sin):
        image_rotary_emb = (rope_cos, rope_sin)
        for block in self.transformer_blocks:
            encoder_hidden_states, hidden_states = block(
                hidden_states=hidden_states,
                encoder_hidden_states=encoder_hidden_states,
                temb=temb,
                image_rotary_emb=image_rotary_emb,
            )
        for block in self.single_transformer_blocks:
            encoder_hidden_states, hidden_states = block(
                hidden_states=hidden_states,
                encoder_hidden_states=encoder_hidden_states,
                temb=temb,
                image_rotary_emb=image_rotary_emb,
            )
        return encoder_hidden_states, hidden_states


def _flux_inputs(d, s, **options):
    c = FLUX
    joint = c["img_tokens"] + c["txt_tokens"]
    return [
        Input("hidden_states", (1, c["img_tokens"], c["dim"]), BF16, "image tokens after x_embedder"),
        Input("encoder_hidden_states", (1, c["txt_tokens"], c["dim"]), BF16, "T5 tokens after context_embedder"),
        Input("temb", (1, c["dim"]), BF16, "time + guidance + pooled-text embedding"),
        Input("rope_cos", (joint, c["head_dim"]), F32, "FluxPosEmbed cos, text positions first", "rope_cos"),
        Input("rope_sin", (joint, c["head_dim"]), F32, "FluxPosEmbed sin", "rope_sin"),
    ]


_register(
    Family(
        name="flux",
        title="FLUX.1-dev",
        checkpoint="black-forest-labs/FLUX.1-dev (transformer/config.json)",
        config=dict(FLUX, num_layers=19, num_single_layers=38, batch=1),
        classes=["FluxTransformerBlock", "FluxSingleTransformerBlock"],
        full_depth=(19, 38),
        default_depth=(1, 0),
        double_kind="FluxTransformerBlock (double-stream MMDiT block)",
        single_kind="FluxSingleTransformerBlock (single-stream block)",
        build=_meta_build(FluxStack),
        inputs=_flux_inputs,
        widths=FLUX,
        reduced=dict(dim=32, heads=2, head_dim=16, img_tokens=16, txt_tokens=8),
        outputs=["encoder_hidden_states", "hidden_states"],
        notes=[
            "1024x1024 image: 64x64 latent, 2x2 patches = 4096 image tokens; 512 T5 tokens",
            "left out: x_embedder, context_embedder, time_text_embed, pos_embed (FluxPosEmbed), "
            "norm_out, proj_out -- their results are the arguments",
        ],
    )
)


# --------------------------------------------------------------------------------------------
# Stable Diffusion 3.5 large
# --------------------------------------------------------------------------------------------

SD35 = dict(dim=2432, heads=38, head_dim=64, qk_norm="rms_norm", img_tokens=4096, txt_tokens=333)


class SD35Stack(nn.Module):
    """SD3Transformer2DModel.forward's block loop (SD3.5-large: no dual-attention layers)."""

    def __init__(self, n_double, n_single, full=False, **options):
        last_pre_only = full
        super().__init__()
        from diffusers.models.attention import JointTransformerBlock

        c = SD35
        self.transformer_blocks = nn.ModuleList(
            [
                JointTransformerBlock(
                    dim=c["dim"],
                    num_attention_heads=c["heads"],
                    attention_head_dim=c["head_dim"],
                    context_pre_only=last_pre_only and i == n_double - 1,
                    qk_norm=c["qk_norm"],
                    use_dual_attention=False,
                )
                for i in range(n_double)
            ]
        )

    def forward(self, hidden_states, encoder_hidden_states, temb):
        for block in self.transformer_blocks:
            encoder_hidden_states, hidden_states = block(
                hidden_states=hidden_states, encoder_hidden_states=encoder_hidden_states, temb=temb
            )
        if encoder_hidden_states is None:  # the last block is context_pre_only
            return hidden_states
        return encoder_hidden_states, hidden_states


def _sd35_inputs(d, s, **options):
    c = SD35
    return [
        Input("hidden_states", (1, c["img_tokens"], c["dim"]), BF16, "image tokens after pos_embed (PatchEmbed)"),
        Input(
            "encoder_hidden_states",
            (1, c["txt_tokens"], c["dim"]),
            BF16,
            "77 CLIP + 256 T5 tokens after context_embedder",
        ),
        Input("temb", (1, c["dim"]), BF16, "time_text_embed output"),
    ]


_register(
    Family(
        name="sd35",
        title="Stable Diffusion 3.5 large",
        checkpoint="stabilityai/stable-diffusion-3.5-large (transformer/config.json)",
        config=dict(SD35, num_layers=38, dual_attention_layers="()", batch=1),
        classes=["JointTransformerBlock"],
        full_depth=(38, 0),
        default_depth=(1, 0),
        double_kind="JointTransformerBlock (MMDiT block, context_pre_only=False)",
        single_kind=None,
        build=_meta_build(SD35Stack),
        inputs=_sd35_inputs,
        widths=SD35,
        reduced=dict(dim=32, heads=2, head_dim=16, img_tokens=16, txt_tokens=8),
        outputs=["encoder_hidden_states", "hidden_states"],
        notes=[
            "1024x1024 image: 128x128 latent, 2x2 patches = 4096 tokens; text 77 CLIP + 256 T5 = 333",
            "SD3 has no RoPE (positions come from PatchEmbed)",
            "left out: pos_embed, context_embedder, time_text_embed, norm_out, proj_out",
        ],
        last_block_variant="the last of the 38 blocks is context_pre_only (AdaLayerNormContinuous "
        "context norm, no context FFN) and the stack returns hidden_states only",
    )
)


# --------------------------------------------------------------------------------------------
# Wan2.1-T2V-14B
# --------------------------------------------------------------------------------------------

WAN = dict(
    dim=5120,
    heads=40,
    head_dim=128,
    ffn_dim=13824,
    qk_norm="rms_norm_across_heads",
    cross_attn_norm=True,
    eps=1e-6,
    video_tokens=1560,
    txt_tokens=512,
)


class WanStack(nn.Module):
    """WanTransformer3DModel.forward's block loop (T2V: no image branch)."""

    def __init__(self, n_double, n_single, **options):
        super().__init__()
        from diffusers.models.transformers.transformer_wan import WanTransformerBlock

        c = WAN
        self.blocks = nn.ModuleList(
            [
                WanTransformerBlock(
                    c["dim"], c["ffn_dim"], c["heads"], c["qk_norm"], c["cross_attn_norm"], c["eps"], None
                )
                for _ in range(n_double)
            ]
        )
        # WanTransformer3DModel._keep_in_fp32_modules: scale_shift_table and norm2 stay fp32.
        for b in self.blocks:
            b.scale_shift_table.data = b.scale_shift_table.data.float()
            if isinstance(b.norm2, nn.LayerNorm):
                b.norm2.float()

    def forward(self, hidden_states, encoder_hidden_states, timestep_proj, rope_cos, rope_sin):
        rotary_emb = (rope_cos, rope_sin)
        for block in self.blocks:
            hidden_states = block(hidden_states, encoder_hidden_states, timestep_proj, rotary_emb)
        return hidden_states


def _wan_inputs(d, s, **options):
    c = WAN
    return [
        Input("hidden_states", (1, c["video_tokens"], c["dim"]), BF16, "video tokens after patch_embedding"),
        Input("encoder_hidden_states", (1, c["txt_tokens"], c["dim"]), BF16, "UMT5 tokens after condition_embedder"),
        Input("timestep_proj", (1, 6, c["dim"]), BF16, "condition_embedder timestep_proj, unflattened to (6, dim)"),
        Input("rope_cos", (1, c["video_tokens"], 1, c["head_dim"]), F32, "WanRotaryPosEmbed cos", "rope_cos"),
        Input("rope_sin", (1, c["video_tokens"], 1, c["head_dim"]), F32, "WanRotaryPosEmbed sin", "rope_sin"),
    ]


_register(
    Family(
        name="wan21",
        title="Wan2.1-T2V-14B",
        checkpoint="Wan-AI/Wan2.1-T2V-14B-Diffusers (transformer/config.json)",
        config=dict(WAN, num_layers=40, batch=1),
        classes=["WanTransformerBlock"],
        full_depth=(40, 0),
        default_depth=(1, 0),
        double_kind="WanTransformerBlock (self-attention + cross-attention + FFN)",
        single_kind=None,
        build=_meta_build(WanStack),
        inputs=_wan_inputs,
        widths=WAN,
        reduced=dict(dim=32, heads=2, head_dim=16, ffn_dim=64, video_tokens=16, txt_tokens=8),
        outputs=["hidden_states"],
        notes=[
            "a small video: 1 latent frame x 30 x 52 = 1560 tokens (480x832; real runs have 21 frames, "
            "32760 tokens -- pass --tokens 32760); 512 UMT5 tokens",
            "fp32 where the model keeps fp32 (_keep_in_fp32_modules): scale_shift_table, norm2",
            "left out: rope, patch_embedding, condition_embedder, norm_out, proj_out",
        ],
    )
)


# --------------------------------------------------------------------------------------------
# HunyuanVideo
# --------------------------------------------------------------------------------------------

HUNYUAN = dict(dim=3072, heads=24, head_dim=128, mlp_ratio=4.0, qk_norm="rms_norm", video_tokens=2048, txt_tokens=256)


class HunyuanStack(nn.Module):
    """HunyuanVideoTransformer3DModel.forward's two block loops."""

    def __init__(self, n_double, n_single, **options):
        super().__init__()
        from diffusers.models.transformers.transformer_hunyuan_video import (
            HunyuanVideoSingleTransformerBlock,
            HunyuanVideoTransformerBlock,
        )

        c = HUNYUAN
        self.transformer_blocks = nn.ModuleList(
            [
                HunyuanVideoTransformerBlock(c["heads"], c["head_dim"], mlp_ratio=c["mlp_ratio"], qk_norm=c["qk_norm"])
                for _ in range(n_double)
            ]
        )
        self.single_transformer_blocks = nn.ModuleList(
            [
                HunyuanVideoSingleTransformerBlock(
                    c["heads"], c["head_dim"], mlp_ratio=c["mlp_ratio"], qk_norm=c["qk_norm"]
                )
                for _ in range(n_single)
            ]
        )

    def forward(self, hidden_states, encoder_hidden_states, temb, attention_mask, rope_cos, rope_sin):
        image_rotary_emb = (rope_cos, rope_sin)
        for block in self.transformer_blocks:
            hidden_states, encoder_hidden_states = block(
                hidden_states, encoder_hidden_states, temb, attention_mask, image_rotary_emb
            )
        for block in self.single_transformer_blocks:
            hidden_states, encoder_hidden_states = block(
                hidden_states, encoder_hidden_states, temb, attention_mask, image_rotary_emb
            )
        return hidden_states, encoder_hidden_states


def _hunyuan_inputs(d, s, **options):
    c = HUNYUAN
    joint = c["video_tokens"] + c["txt_tokens"]
    return [
        Input("hidden_states", (1, c["video_tokens"], c["dim"]), BF16, "video tokens after x_embedder"),
        Input(
            "encoder_hidden_states", (1, c["txt_tokens"], c["dim"]), BF16, "text tokens after context_embedder"
        ),
        Input("temb", (1, c["dim"]), BF16, "time_text_embed output"),
        Input(
            "attention_mask",
            (1, 1, 1, joint),
            torch.bool,
            "[B,1,1,N] mask the model builds, video first",
            f"key_mask:{max(1, c['txt_tokens'] // 4)}",
        ),
        Input("rope_cos", (c["video_tokens"], c["head_dim"]), F32, "HunyuanVideoRotaryPosEmbed cos", "rope_cos"),
        Input("rope_sin", (c["video_tokens"], c["head_dim"]), F32, "HunyuanVideoRotaryPosEmbed sin", "rope_sin"),
    ]


_register(
    Family(
        name="hunyuan",
        title="HunyuanVideo",
        checkpoint="hunyuanvideo-community/HunyuanVideo (transformer/config.json)",
        config=dict(HUNYUAN, num_layers=20, num_single_layers=40, batch=1),
        classes=["HunyuanVideoTransformerBlock", "HunyuanVideoSingleTransformerBlock"],
        full_depth=(20, 40),
        default_depth=(1, 0),
        double_kind="HunyuanVideoTransformerBlock (dual-stream block)",
        single_kind="HunyuanVideoSingleTransformerBlock (single-stream block)",
        build=_meta_build(HunyuanStack),
        inputs=_hunyuan_inputs,
        widths=HUNYUAN,
        reduced=dict(dim=32, heads=2, head_dim=16, video_tokens=16, txt_tokens=8),
        outputs=["hidden_states", "encoder_hidden_states"],
        notes=[
            "29 frames at 256x256: 8x32x32 latent, 1x2x2 patches = 2048 video tokens; 256 text tokens",
            "left out: x_embedder, context_embedder (token refiner), time_text_embed, rope, the mask "
            "computation, norm_out, proj_out; the TokenReplace (I2V) block variants",
        ],
    )
)


# --------------------------------------------------------------------------------------------
# Qwen-Image
# --------------------------------------------------------------------------------------------

QWEN = dict(dim=3072, heads=24, head_dim=128, qk_norm="rms_norm", eps=1e-6, img_tokens=4096, txt_tokens=256)


def _qwen_rope_real(x, freqs_cis, use_real=True, use_real_unbind_dim=-1):
    """apply_rotary_emb_qwen(use_real=False) in real arithmetic (see the family notes).

    diffusers multiplies view_as_complex(x.float().reshape(..., -1, 2)) by complex freqs
    [S, 1, D/2] and returns view_as_real(...).flatten(3).type_as(x). With cos/sin the real and
    imaginary parts of freqs repeat-interleaved to [S, 1, D], that product is exactly
    x * cos + rotate(x) * sin with rotate(x) = stack([-x_imag, x_real], -1).flatten(3) --
    the FLUX form of apply_rotary_emb(use_real=True, use_real_unbind_dim=-1), written here on
    diffusers' [B, S, H, D] layout.
    """
    cos, sin = freqs_cis
    x_real, x_imag = x.reshape(*x.shape[:-1], -1, 2).unbind(-1)
    x_rotated = torch.stack([-x_imag, x_real], dim=-1).flatten(3)
    return (x.float() * cos + x_rotated.float() * sin).to(x.dtype)


class QwenStack(nn.Module):
    """QwenImageTransformer2DModel.forward's block loop (zero_cond_t False, no modulate_index)."""

    def __init__(self, n_double, n_single, qwen_rope="real", **options):
        rope = qwen_rope
        super().__init__()
        from diffusers.models.transformers import transformer_qwenimage as q

        c = QWEN
        self.rope = rope
        if rope == "real":
            q.apply_rotary_emb_qwen = _qwen_rope_real
        self.transformer_blocks = nn.ModuleList(
            [
                q.QwenImageTransformerBlock(
                    dim=c["dim"],
                    num_attention_heads=c["heads"],
                    attention_head_dim=c["head_dim"],
                    qk_norm=c["qk_norm"],
                    eps=c["eps"],
                )
                for _ in range(n_double)
            ]
        )

    def forward(self, hidden_states, encoder_hidden_states, temb, *rope):
        if self.rope == "real":
            img_cos, img_sin, txt_cos, txt_sin = rope
            image_rotary_emb = ((img_cos, img_sin), (txt_cos, txt_sin))
        else:
            image_rotary_emb = tuple(rope)
        for block in self.transformer_blocks:
            encoder_hidden_states, hidden_states = block(
                hidden_states=hidden_states,
                encoder_hidden_states=encoder_hidden_states,
                encoder_hidden_states_mask=None,
                temb=temb,
                image_rotary_emb=image_rotary_emb,
            )
        return encoder_hidden_states, hidden_states


def _qwen_inputs(d, s, qwen_rope="real", **options):
    rope = qwen_rope
    c = QWEN
    hd = c["head_dim"]
    ins = [
        Input("hidden_states", (1, c["img_tokens"], c["dim"]), BF16, "image tokens after img_in"),
        Input("encoder_hidden_states", (1, c["txt_tokens"], c["dim"]), BF16, "text tokens after txt_norm + txt_in"),
        Input("temb", (1, c["dim"]), BF16, "time_text_embed output"),
    ]
    if rope == "real":
        ins += [
            Input(
                "img_rope_cos",
                (c["img_tokens"], 1, hd),
                F32,
                "real part of QwenEmbedRope img freqs, repeat_interleave(2)",
                "rope_cos:img",
            ),
            Input("img_rope_sin", (c["img_tokens"], 1, hd), F32, "imaginary part, repeat_interleave(2)", "rope_sin:img"),
            Input(
                "txt_rope_cos",
                (c["txt_tokens"], 1, hd),
                F32,
                "real part of QwenEmbedRope txt freqs, repeat_interleave(2)",
                "rope_cos:txt",
            ),
            Input("txt_rope_sin", (c["txt_tokens"], 1, hd), F32, "imaginary part, repeat_interleave(2)", "rope_sin:txt"),
        ]
    else:
        ins += [
            Input("img_freqs", (c["img_tokens"], hd // 2), torch.complex64, "QwenEmbedRope img freqs", "rope_complex:img"),
            Input("txt_freqs", (c["txt_tokens"], hd // 2), torch.complex64, "QwenEmbedRope txt freqs", "rope_complex:txt"),
        ]
    return ins


_register(
    Family(
        name="qwen_image",
        title="Qwen-Image",
        checkpoint="Qwen/Qwen-Image (transformer/config.json)",
        config=dict(QWEN, num_layers=60, batch=1),
        classes=["QwenImageTransformerBlock"],
        full_depth=(60, 0),
        default_depth=(1, 0),
        double_kind="QwenImageTransformerBlock (double-stream MMDiT block)",
        single_kind=None,
        build=_meta_build(QwenStack),
        inputs=_qwen_inputs,
        widths=QWEN,
        reduced=dict(dim=32, heads=2, head_dim=16, img_tokens=16, txt_tokens=8),
        outputs=["encoder_hidden_states", "hidden_states"],
        notes=[
            "1024x1024 image: 4096 image tokens; 256 text tokens; no text padding, so the pipeline "
            "passes encoder_hidden_states_mask=None",
            "--qwen-rope real (default): apply_rotary_emb_qwen's complex product is computed in real "
            "arithmetic (FLUX form, cos/sin = real/imaginary parts repeat-interleaved, [S,1,128] f32): "
            "the same values, no complex dtype; --qwen-rope complex keeps diffusers' view_as_complex form",
            "left out: img_in, txt_norm, txt_in, time_text_embed, pos_embed, norm_out, proj_out",
        ],
    )
)


# --------------------------------------------------------------------------------------------
# HiDream-I1
# --------------------------------------------------------------------------------------------

HIDREAM = dict(
    dim=2560,
    heads=20,
    head_dim=128,
    num_routed_experts=4,
    num_activated_experts=2,
    img_tokens=4096,
    t5_tokens=128,
    llama_tokens=128,
    # HiDreamImageFeedForwardSwiGLU's multiple_of (diffusers' default, which the model uses):
    # hidden = multiple_of * ceil(int(2/3 * 4 * dim) / multiple_of). Only golden references
    # change it, to keep their expert weights small.
    ffn_multiple_of=256,
)


@contextlib.contextmanager
def _swiglu_multiple_of(m):
    """Construct HiDreamImageFeedForwardSwiGLU with multiple_of=m: the blocks build their FFNs
    (routed experts, shared expert, ff_t) without passing it, so its default is swapped."""
    from diffusers.models.transformers.transformer_hidream_image import HiDreamImageFeedForwardSwiGLU as F

    saved = F.__init__.__defaults__
    try:
        F.__init__.__defaults__ = (m,) + saved[1:]
        yield
    finally:
        F.__init__.__defaults__ = saved


class GroupedMoE(nn.Module):
    """MOEFeedForwardSwiGLU's inference path (moe_infer) in grouped-GEMM form.

    moe_infer loops over the experts in Python with data-dependent slice bounds
    (bincount().cpu().numpy()), which torch.export cannot trace. This module computes the same
    function with static shapes, the rewrite seed 000 asks for ("per-expert loop, to be changed
    to grouped GEMM"): the same gate (MoEGate), the same argsort permutation of the
    (token, expert) pairs, the per-expert token counts (scatter_add instead of bincount), one
    torch._grouped_mm on the experts' stacked [w1 | w3] weights, silu(gate) * up, one
    torch._grouped_mm on the stacked w2, the routing weights, and the scatter-sum back to
    tokens (index_add). The shared expert is unchanged.
    Weights: experts_w13[e] = cat([experts[e].w1.weight, experts[e].w3.weight]).T ([K, 2N]),
    experts_w2[e] = experts[e].w2.weight.T ([N, K]).
    """

    def __init__(self, moe):
        super().__init__()
        self.gate = moe.gate
        self.shared_experts = moe.shared_experts
        self.top_k = moe.num_activated_experts
        e0 = moe.experts[0]
        n_exp = len(moe.experts)
        hidden, dim = e0.w1.weight.shape
        self.experts_w13 = nn.Parameter(torch.empty(n_exp, dim, 2 * hidden))
        self.experts_w2 = nn.Parameter(torch.empty(n_exp, hidden, dim))

    def forward(self, x):
        identity = x
        orig_shape = x.shape
        topk_idx, topk_weight, _ = self.gate(x)
        x = x.view(-1, x.shape[-1])
        flat_expert_indices = topk_idx.view(-1)
        flat_expert_weights = topk_weight.view(-1, 1)
        n_exp = self.experts_w13.shape[0]
        idxs = flat_expert_indices.argsort(stable=True)
        tokens_per_expert = torch.zeros(n_exp, dtype=torch.int64, device=x.device).scatter_add(
            0, flat_expert_indices, torch.ones_like(flat_expert_indices)
        )
        offsets = tokens_per_expert.cumsum(0).to(torch.int32)
        token_idxs = idxs // self.top_k
        expert_tokens = x.index_select(0, token_idxs)
        h = torch._grouped_mm(expert_tokens, self.experts_w13, offs=offsets)
        gate, up = h.chunk(2, dim=-1)
        h = torch.nn.functional.silu(gate) * up
        expert_out = torch._grouped_mm(h, self.experts_w2, offs=offsets)
        expert_out = expert_out * flat_expert_weights.index_select(0, idxs)
        y = torch.zeros_like(x).index_add(0, token_idxs, expert_out)
        y = y.view(*orig_shape)
        return y + self.shared_experts(identity)


def grouped_moe_vs_diffusers(gm: GroupedMoE, params: dict, x: torch.Tensor) -> float:
    """max |GroupedMoE(x) - MOEFeedForwardSwiGLU(x)|: the substitution checked on real values.

    `params` maps gm's parameter names (gate.weight, experts_w13, ...) to tensors; diffusers'
    module gets the same weights unstacked (experts[e].w1 = experts_w13[e][:, :N].T, w3 = the
    rest, w2 = experts_w2[e].T) and runs its own eval path, moe_infer.
    """
    from diffusers.models.transformers.transformer_hidream_image import MOEFeedForwardSwiGLU

    w13, w2 = params["experts_w13"], params["experts_w2"]
    n_exp, dim, hidden = w13.shape[0], w13.shape[1], w13.shape[2] // 2
    ref = {k: v for k, v in params.items() if not k.startswith("experts_")}
    for e in range(n_exp):
        ref[f"experts.{e}.w1.weight"] = w13[e][:, :hidden].T.contiguous()
        ref[f"experts.{e}.w3.weight"] = w13[e][:, hidden:].T.contiguous()
        ref[f"experts.{e}.w2.weight"] = w2[e].T.contiguous()
    with _swiglu_multiple_of(HIDREAM["ffn_multiple_of"]), torch.device("meta"):
        moe = MOEFeedForwardSwiGLU(dim, 4 * dim, n_exp, gm.top_k).eval()
    with torch.no_grad():
        want = torch.func.functional_call(moe, ref, (x,), strict=True)
        got = torch.func.functional_call(gm, params, (x,), strict=True)
    return float((want.double() - got.double()).abs().max())


class HiDreamStack(nn.Module):
    """HiDreamImageTransformer2DModel.forward's two block loops (square image: no masks)."""

    def __init__(self, n_double, n_single, **options):
        super().__init__()
        from diffusers.models.transformers.transformer_hidream_image import (
            HiDreamBlock,
            HiDreamImageSingleTransformerBlock,
            HiDreamImageTransformerBlock,
        )

        c = HIDREAM
        kw = dict(
            dim=c["dim"],
            num_attention_heads=c["heads"],
            attention_head_dim=c["head_dim"],
            num_routed_experts=c["num_routed_experts"],
            num_activated_experts=c["num_activated_experts"],
        )
        with _swiglu_multiple_of(c["ffn_multiple_of"]):
            self.double_stream_blocks = nn.ModuleList(
                [HiDreamBlock(HiDreamImageTransformerBlock(**kw)) for _ in range(n_double)]
            )
            self.single_stream_blocks = nn.ModuleList(
                [HiDreamBlock(HiDreamImageSingleTransformerBlock(**kw)) for _ in range(n_single)]
            )
        for b in list(self.double_stream_blocks) + list(self.single_stream_blocks):
            b.block.ff_i = GroupedMoE(b.block.ff_i)

    def forward(self, hidden_states, encoder_hidden_states, llama_hidden_states, temb, rope):
        initial_encoder_hidden_states = encoder_hidden_states
        initial_len = initial_encoder_hidden_states.shape[1]
        block_id = 0
        for block in self.double_stream_blocks:
            cur = torch.cat([initial_encoder_hidden_states, llama_hidden_states[block_id]], dim=1)
            hidden_states, initial_encoder_hidden_states = block(
                hidden_states=hidden_states,
                hidden_states_masks=None,
                encoder_hidden_states=cur,
                temb=temb,
                image_rotary_emb=rope,
            )
            initial_encoder_hidden_states = initial_encoder_hidden_states[:, :initial_len]
            block_id += 1
        if len(self.single_stream_blocks) == 0:
            return hidden_states, initial_encoder_hidden_states
        image_tokens = hidden_states.shape[1]
        hidden_states = torch.cat([hidden_states, initial_encoder_hidden_states], dim=1)
        hs_len = hidden_states.shape[1]
        for block in self.single_stream_blocks:
            hidden_states = torch.cat([hidden_states, llama_hidden_states[block_id]], dim=1)
            hidden_states = block(
                hidden_states=hidden_states,
                hidden_states_masks=None,
                encoder_hidden_states=None,
                temb=temb,
                image_rotary_emb=rope,
            )
            hidden_states = hidden_states[:, :hs_len]
            block_id += 1
        return hidden_states[:, :image_tokens]


def _hidream_inputs(d, s, **options):
    c = HIDREAM
    txt = c["t5_tokens"] + c["llama_tokens"]
    joint = c["img_tokens"] + txt + c["llama_tokens"]
    return [
        Input("hidden_states", (1, c["img_tokens"], c["dim"]), BF16, "image tokens after x_embedder"),
        Input(
            "encoder_hidden_states",
            (1, txt, c["dim"]),
            BF16,
            "cat(T5, last Llama layer) after caption_projection (initial_encoder_hidden_states)",
        ),
        Input(
            "llama_hidden_states",
            (max(d + s, 1), 1, c["llama_tokens"], c["dim"]),
            BF16,
            "the Llama layer each block appends (encoder_hidden_states[block_id]), stacked",
        ),
        Input("temb", (1, c["dim"]), BF16, "t_embedder + p_embedder"),
        Input("rope", (1, joint, 1, c["head_dim"] // 2, 2, 2), F32, "HiDreamImageEmbedND freqs_cis", "rope_rot"),
    ]


_register(
    Family(
        name="hidream",
        title="HiDream-I1-Full",
        checkpoint="HiDream-ai/HiDream-I1-Full (transformer/config.json)",
        config=dict(HIDREAM, num_layers=16, num_single_layers=32, batch=1),
        classes=["HiDreamImageTransformerBlock", "HiDreamImageSingleTransformerBlock", "MOEFeedForwardSwiGLU"],
        full_depth=(16, 32),
        default_depth=(1, 0),
        double_kind="HiDreamImageTransformerBlock (dual-stream block, MoE FFN on the image stream)",
        single_kind="HiDreamImageSingleTransformerBlock (single-stream block, MoE FFN)",
        build=_meta_build(HiDreamStack),
        inputs=_hidream_inputs,
        widths=HIDREAM,
        # The other families' width. 4 experts x 3 matrices x dim x hidden dominate the
        # golden's size (at dim 64 with multiple_of 256: 1.6 MB per dtype and block kind), so
        # multiple_of 16 keeps hidden = int(2/3 * 4 * dim) rounded up (96 here); 4 experts
        # with top-2 keep the routing real (each token picks 2 of 4).
        reduced=dict(
            dim=32, heads=2, head_dim=16, ffn_multiple_of=16, img_tokens=16, t5_tokens=4, llama_tokens=4
        ),
        outputs=["hidden_states", "encoder_hidden_states"],
        notes=[
            "1024x1024 image: 4096 image tokens; text 128 T5 + 128 Llama (last layer) tokens, plus "
            "128 tokens of one Llama layer appended per block",
            "substituted: MOEFeedForwardSwiGLU.moe_infer (a Python loop with data-dependent bounds) by "
            "the same computation in grouped-GEMM form (GroupedMoE: argsort permutation, "
            "torch._grouped_mm on stacked expert weights, index_add back)",
            "left out: t_embedder, p_embedder, x_embedder, pe_embedder, caption_projection, "
            "final_layer; image masks (square image)",
        ],
    )
)


# --------------------------------------------------------------------------------------------
# LTX-Video
# --------------------------------------------------------------------------------------------

LTX = dict(
    dim=2048,
    heads=32,
    head_dim=64,
    cross_attention_dim=2048,
    qk_norm="rms_norm_across_heads",
    video_tokens=6144,
    txt_tokens=128,
)


class LTXStack(nn.Module):
    """LTXVideoTransformer3DModel.forward's block loop."""

    def __init__(self, n_double, n_single, **options):
        super().__init__()
        from diffusers.models.transformers.transformer_ltx import LTXVideoTransformerBlock

        c = LTX
        self.transformer_blocks = nn.ModuleList(
            [
                LTXVideoTransformerBlock(
                    dim=c["dim"],
                    num_attention_heads=c["heads"],
                    attention_head_dim=c["head_dim"],
                    cross_attention_dim=c["cross_attention_dim"],
                    qk_norm=c["qk_norm"],
                    activation_fn="gelu-approximate",
                    attention_bias=True,
                    attention_out_bias=True,
                    eps=1e-6,
                    elementwise_affine=False,
                )
                for _ in range(n_double)
            ]
        )

    def forward(self, hidden_states, encoder_hidden_states, temb, rope_cos, rope_sin, encoder_attention_mask):
        image_rotary_emb = (rope_cos, rope_sin)
        for block in self.transformer_blocks:
            hidden_states = block(
                hidden_states=hidden_states,
                encoder_hidden_states=encoder_hidden_states,
                temb=temb,
                image_rotary_emb=image_rotary_emb,
                encoder_attention_mask=encoder_attention_mask,
            )
        return hidden_states


def _ltx_inputs(d, s, **options):
    c = LTX
    return [
        Input("hidden_states", (1, c["video_tokens"], c["dim"]), BF16, "video tokens after proj_in"),
        Input("encoder_hidden_states", (1, c["txt_tokens"], c["dim"]), BF16, "T5 tokens after caption_projection"),
        Input("temb", (1, 1, 6 * c["dim"]), BF16, "time_embed output viewed [B, 1, 6*dim]"),
        Input("rope_cos", (1, c["video_tokens"], c["dim"]), F32, "LTXVideoRotaryPosEmbed cos", "rope_cos"),
        Input("rope_sin", (1, c["video_tokens"], c["dim"]), F32, "LTXVideoRotaryPosEmbed sin", "rope_sin"),
        Input(
            "encoder_attention_mask",
            (1, 1, c["txt_tokens"]),
            BF16,
            "(1 - mask) * -10000 bias the model builds from the text mask",
            f"key_bias:{max(1, c['txt_tokens'] // 4)}",
        ),
    ]


_register(
    Family(
        name="ltx",
        title="LTX-Video 0.9 (2B)",
        checkpoint="Lightricks/LTX-Video (transformer/config.json)",
        config=dict(LTX, num_layers=28, batch=1),
        classes=["LTXVideoTransformerBlock"],
        full_depth=(28, 0),
        default_depth=(1, 0),
        double_kind="LTXVideoTransformerBlock (self-attention + cross-attention + FFN)",
        single_kind=None,
        build=_meta_build(LTXStack),
        inputs=_ltx_inputs,
        widths=LTX,
        reduced=dict(dim=32, heads=2, head_dim=16, cross_attention_dim=32, video_tokens=16, txt_tokens=8),
        outputs=["hidden_states"],
        notes=[
            "121 frames at 512x768: 16x16x24 latent, patch 1 = 6144 video tokens; 128 T5 tokens",
            "left out: proj_in, time_embed, caption_projection, rope, norm_out, proj_out",
        ],
    )
)


def depth_for(family: Family, blocks: int | None, single: int | None, full: bool):
    if full:
        return family.full_depth
    d = family.default_depth[0] if blocks is None else blocks
    s = 0 if single is None else single
    if s and family.single_kind is None:
        raise SystemExit(f"dit-import: {family.name} has no single-stream blocks")
    if d + s == 0:
        raise SystemExit("dit-import: nothing to build (0 blocks)")
    return d, s


def attention_scale(head_dim):
    return 1.0 / math.sqrt(head_dim)
from . import families_extra  # noqa: E402,F401  (more families: FLUX.2, Z-Image, ...; registers into FAMILIES)
