"""Whole diffusers transformer models at reduced widths (`dit_import.py --whole-model`).

The block stacks of models.py start after the embedders; a *whole* model is the diffusers
model class itself, `FluxTransformer2DModel`, `Flux2Transformer2DModel`,
`SD3Transformer2DModel` or `WanTransformer3DModel`, built from a small config (width 24,
2 heads of 12, 2 blocks of each kind: at width 64 the eight golden directories of test/golden
would take about 10 MB, at width 32 3.2 MB) and exported with its whole `forward`: patch / context
embedders, the sinusoidal timestep embedding and its MLP (plus guidance and pooled text),
the positional embedding (RoPE tables from position ids, or SD3's sin-cos table), the blocks,
AdaLayerNormContinuous + proj_out, and the unpatchify where the model does it inside forward.

Unlike the stacks (meta device, fake tensors), the weights are real: seeded random values on
the CPU, so torch eager's outputs can be written next to the graph as a golden reference
(`--golden DIR`, the format of test/golden: in_<i>.npy, out_<j>.npy, reference.json).
Every parameter and buffer is a function argument (activations first), as for the stacks.
"""

from __future__ import annotations

import dataclasses
import json
import os
from typing import Callable

import numpy as np
import torch
import torch.nn as nn

F32 = torch.float32
BF16 = torch.bfloat16
SEED = 0


@dataclasses.dataclass
class WholeModel:
    name: str  # --model value
    title: str
    cls: str  # diffusers class
    config: dict  # constructor kwargs (reduced widths)
    build: Callable[[], nn.Module]
    inputs: Callable[[torch.Generator], list]  # -> [(name, tensor, doc)]
    call: Callable  # (model, *inputs) -> tuple of outputs
    outputs: list
    notes: list


WHOLE: dict[str, WholeModel] = {}

IMG, TXT = 16, 8  # image tokens (4x4 latent after patching), text tokens


def _reg(m: WholeModel) -> WholeModel:
    WHOLE[m.name] = m
    return m


# The sinusoidal embeddings see timestep·1000 (FLUX) or the timestep itself (SD3, Wan): values
# exact in bf16 (500, 4000; 625 would round to 624 there), so that a bf16 golden's noise floor is
# the model's arithmetic, not the rounding of its scalar inputs.
TIMESTEP_DOC = "sigma in [0, 1]; the model embeds 1000·sigma (500: exact in bf16)"
GUIDANCE_DOC = "guidance scale; the model embeds 1000·g (4000: exact in bf16)"


def _ids_2d(h, w):
    """FluxPipeline._prepare_latent_image_ids: (0, row, col) per latent token."""
    ids = torch.zeros(h, w, 3)
    ids[..., 1] = torch.arange(h)[:, None]
    ids[..., 2] = torch.arange(w)[None, :]
    return ids.reshape(h * w, 3)


# --------------------------------------------------------------------------------------------
# FLUX.1
# --------------------------------------------------------------------------------------------

FLUX_CFG = dict(
    patch_size=1,
    in_channels=8,
    num_layers=2,
    num_single_layers=2,
    attention_head_dim=12,
    num_attention_heads=2,
    joint_attention_dim=16,
    pooled_projection_dim=16,
    guidance_embeds=True,
    axes_dims_rope=(4, 4, 4),
)


def _flux_build():
    from diffusers import FluxTransformer2DModel

    return FluxTransformer2DModel(**FLUX_CFG)


def _flux_inputs(g):
    c = FLUX_CFG
    return [
        ("hidden_states", torch.randn(1, IMG, c["in_channels"], generator=g), "packed 2x2 latent patches"),
        ("encoder_hidden_states", torch.randn(1, TXT, c["joint_attention_dim"], generator=g), "T5 hidden states"),
        ("pooled_projections", torch.randn(1, c["pooled_projection_dim"], generator=g), "CLIP pooled"),
        ("timestep", torch.tensor([0.5]), TIMESTEP_DOC),
        ("img_ids", _ids_2d(4, 4), "latent position ids (0, row, col)"),
        ("txt_ids", torch.zeros(TXT, 3), "text position ids (zeros)"),
        ("guidance", torch.tensor([4.0]), GUIDANCE_DOC),
    ]


def _flux_call(m, hs, ehs, pooled, t, img_ids, txt_ids, guidance):
    out = m(
        hidden_states=hs,
        encoder_hidden_states=ehs,
        pooled_projections=pooled,
        timestep=t,
        img_ids=img_ids,
        txt_ids=txt_ids,
        guidance=guidance,
        return_dict=False,
    )
    return (out[0],)


_reg(
    WholeModel(
        name="flux",
        title="FLUX.1 (FluxTransformer2DModel)",
        cls="FluxTransformer2DModel",
        config=FLUX_CFG,
        build=_flux_build,
        inputs=_flux_inputs,
        call=_flux_call,
        outputs=["sample"],
        notes=["4x4 latent tokens (16) + 8 text tokens; x_embedder is a Linear on packed patches"],
    )
)


# --------------------------------------------------------------------------------------------
# FLUX.2
# --------------------------------------------------------------------------------------------

FLUX2_CFG = dict(
    patch_size=1,
    in_channels=8,
    num_layers=2,
    num_single_layers=2,
    attention_head_dim=12,
    num_attention_heads=2,
    joint_attention_dim=16,
    timestep_guidance_channels=16,
    mlp_ratio=2.0,
    axes_dims_rope=(2, 4, 4, 2),
    guidance_embeds=True,
)


def _flux2_build():
    from diffusers import Flux2Transformer2DModel

    return Flux2Transformer2DModel(**FLUX2_CFG)


def _flux2_inputs(g):
    c = FLUX2_CFG
    img = torch.zeros(IMG, 4)
    img[:, 1:3] = _ids_2d(4, 4)[:, 1:]
    txt = torch.zeros(TXT, 4)
    txt[:, 3] = torch.arange(TXT)
    return [
        ("hidden_states", torch.randn(1, IMG, c["in_channels"], generator=g), "packed latent tokens"),
        ("encoder_hidden_states", torch.randn(1, TXT, c["joint_attention_dim"], generator=g), "text hidden states"),
        ("timestep", torch.tensor([0.5]), TIMESTEP_DOC),
        ("img_ids", img, "latent position ids (t, h, w, l)"),
        ("txt_ids", txt, "text position ids (0, 0, 0, l)"),
        ("guidance", torch.tensor([4.0]), GUIDANCE_DOC),
    ]


def _flux2_call(m, hs, ehs, t, img_ids, txt_ids, guidance):
    out = m(
        hidden_states=hs,
        encoder_hidden_states=ehs,
        timestep=t,
        img_ids=img_ids,
        txt_ids=txt_ids,
        guidance=guidance,
        return_dict=False,
    )
    return (out[0],)


_reg(
    WholeModel(
        name="flux2",
        title="FLUX.2 (Flux2Transformer2DModel)",
        cls="Flux2Transformer2DModel",
        config=FLUX2_CFG,
        build=_flux2_build,
        inputs=_flux2_inputs,
        call=_flux2_call,
        outputs=["sample"],
        notes=["4x4 latent tokens (16) + 8 text tokens, 4-axis RoPE"],
    )
)


# --------------------------------------------------------------------------------------------
# SD3.5
# --------------------------------------------------------------------------------------------

SD35_CFG = dict(
    sample_size=8,
    patch_size=2,
    in_channels=4,
    num_layers=2,
    attention_head_dim=12,
    num_attention_heads=2,
    joint_attention_dim=16,
    caption_projection_dim=24,
    pooled_projection_dim=16,
    out_channels=4,
    pos_embed_max_size=8,
    qk_norm="rms_norm",
)


def _sd35_build():
    from diffusers import SD3Transformer2DModel

    return SD3Transformer2DModel(**SD35_CFG)


def _sd35_inputs(g):
    c = SD35_CFG
    s = c["sample_size"]
    return [
        ("hidden_states", torch.randn(1, c["in_channels"], s, s, generator=g), "latent image [B, C, H, W]"),
        ("encoder_hidden_states", torch.randn(1, TXT, c["joint_attention_dim"], generator=g), "CLIP + T5 states"),
        ("pooled_projections", torch.randn(1, c["pooled_projection_dim"], generator=g), "CLIP pooled"),
        ("timestep", torch.tensor([500.0]), "timestep in [0, 1000]; 500 is exact in bf16"),
    ]


def _sd35_call(m, hs, ehs, pooled, t):
    return (m(hidden_states=hs, encoder_hidden_states=ehs, pooled_projections=pooled, timestep=t, return_dict=False)[0],)


_reg(
    WholeModel(
        name="sd35",
        title="Stable Diffusion 3.5 (SD3Transformer2DModel)",
        cls="SD3Transformer2DModel",
        config=SD35_CFG,
        build=_sd35_build,
        inputs=_sd35_inputs,
        call=_sd35_call,
        outputs=["sample"],
        notes=[
            "8x8 latent, 2x2 conv patch embedding = 16 tokens; 8 text tokens; the last block is "
            "context_pre_only as in the model; unpatchify inside forward"
        ],
    )
)


# --------------------------------------------------------------------------------------------
# Wan2.1
# --------------------------------------------------------------------------------------------

WAN_CFG = dict(
    patch_size=(1, 2, 2),
    num_attention_heads=2,
    attention_head_dim=12,
    in_channels=4,
    out_channels=4,
    text_dim=16,
    freq_dim=16,
    ffn_dim=64,
    num_layers=2,
    cross_attn_norm=True,
    qk_norm="rms_norm_across_heads",
    eps=1e-6,
    rope_max_seq_len=16,
)


def _wan_build():
    from diffusers import WanTransformer3DModel

    # The bf16 build keeps Wan's _keep_in_fp32_modules (rope, time_embedder, scale_shift_table,
    # norm1-3) in f32, as from_pretrained does (see _keeps_f32).
    return WanTransformer3DModel(**WAN_CFG)


def _wan_inputs(g):
    c = WAN_CFG
    return [
        ("hidden_states", torch.randn(1, c["in_channels"], 1, 8, 8, generator=g), "latent video [B, C, F, H, W]"),
        ("encoder_hidden_states", torch.randn(1, TXT, c["text_dim"], generator=g), "UMT5 hidden states"),
        ("timestep", torch.tensor([500.0]), "timestep in [0, 1000]; 500 is exact in bf16"),
    ]


def _wan_call(m, hs, ehs, t):
    return (m(hidden_states=hs, encoder_hidden_states=ehs, timestep=t, return_dict=False)[0],)


_reg(
    WholeModel(
        name="wan21",
        title="Wan2.1 (WanTransformer3DModel)",
        cls="WanTransformer3DModel",
        config=WAN_CFG,
        build=_wan_build,
        inputs=_wan_inputs,
        call=_wan_call,
        outputs=["sample"],
        notes=[
            "1 frame of 8x8 latent, (1, 2, 2) conv3d patch embedding = 16 tokens; 8 text tokens; "
            "T2V (no image branch); unpatchify inside forward"
        ],
    )
)


# --------------------------------------------------------------------------------------------
# Build, export, golden
# --------------------------------------------------------------------------------------------

DTYPES = {"f32": F32, "bf16": BF16}


def _functional(spec, model, weights, acts):
    """spec.call on `model` with its parameters and buffers replaced by `weights` (by name)."""
    from torch.nn.utils.stateless import _reparametrize_module

    with _reparametrize_module(model, weights, strict=True):
        return spec.call(model, *acts)


class _Call(nn.Module):
    """The model's forward with every weight a positional argument after the activations."""

    def __init__(self, spec, model, n_inputs, names):
        super().__init__()
        self.spec = spec
        self.model = model
        self.n_inputs = n_inputs
        self.names = names

    def forward(self, *args):
        weights = dict(zip(self.names, args[self.n_inputs :]))
        return _functional(self.spec, self.model, weights, args[: self.n_inputs])


def _keeps_f32(model, name):
    """Whether from_pretrained(torch_dtype=bf16) keeps this parameter or buffer in f32
    (`_keep_in_fp32_modules`, matched against the dotted name's components as diffusers does)."""
    keep = getattr(model, "_keep_in_fp32_modules", None) or []
    return any(m in name.split(".") for m in keep)


def build(name: str, dtype_name: str = "f32", seed: int = SEED):
    """-> (spec, model, [(name, tensor, doc)] activations, [(name, tensor)] weights) in the
    dtype's argument types, and the f32 master values (activations, weights) they round from.

    Values: one seeded generator draws the activations (spec.inputs) and then every parameter
    as golden.fill_weight does for the stacks (biases 0.1·N(0,1), gammas 1 + 0.1·N(0,1),
    matrices N(0,1)/sqrt(fan_in)): diffusers' own init zeroes proj_out and the AdaLN
    modulations, which would make the golden trivial. Buffers (SD3's sin-cos table, Wan's RoPE
    tables) keep the values the model computes. bf16: the master values rounded to bf16,
    except what the model keeps in f32."""
    from . import golden

    spec = WHOLE[name]
    torch.manual_seed(seed)
    model = spec.build().float().eval()
    g = torch.Generator().manual_seed(seed)
    acts = spec.inputs(g)
    with torch.no_grad():
        for pname, p in model.named_parameters():
            p.copy_(golden.fill_weight(pname, tuple(p.shape), g))
    master_w = [(n, t.detach().clone()) for n, t in list(model.named_parameters()) + list(model.named_buffers())]
    master_a = list(acts)
    if dtype_name == "bf16":
        model = model.to(BF16)
        with torch.no_grad():
            for n, t in list(model.named_parameters()) + list(model.named_buffers()):
                if _keeps_f32(model, n):
                    t.data = t.data.float()
        acts = [(n, t.to(BF16) if t.is_floating_point() else t, d) for n, t, d in acts]
    weights = [(n, t.detach()) for n, t in list(model.named_parameters()) + list(model.named_buffers())]
    return spec, model, acts, weights, (master_a, master_w)


def export(spec, model, acts, weights):
    """torch.export of the whole forward, weights lifted to arguments (exporter's recipe)."""
    from . import exporter

    names = [n for n, _ in weights]
    wrapper = _Call(spec, model, len(acts), names)
    args = tuple(t for _, t, _ in acts) + tuple(t for _, t in weights)
    with torch.no_grad():
        ep = torch.export.export(wrapper, args, strict=False)
    ep = ep.run_decompositions({})
    graph = ep.graph
    for node in list(graph.nodes):
        if node.op == "call_function" and node.target in exporter.DROP_TARGETS and not node.users:
            graph.erase_node(node)
    ep.graph_module.recompile()
    return ep, [n for n, _, _ in acts] + names, args


def _dtype_name(t):
    return {F32: "f32", BF16: "bf16", torch.float64: "f64", torch.int64: "si64"}.get(t.dtype, str(t.dtype))


def header(spec, dtype_name, argv, acts, weights, out_name, golden_seed=None):
    import diffusers
    import shlex

    from . import torch_mlir_backend as backend

    cmd = " ".join(shlex.quote(a) for a in ["python3", "tools/dit-import/dit_import.py"] + list(argv))
    cfg = ", ".join(f"{k}={v}" for k, v in spec.config.items())
    n_params = sum(t.numel() for _, t in weights)
    lines = [
        f"// {out_name} -- generated by tools/dit-import; do not edit.",
        f"// Regenerate: {cmd}",
        f"// Model: {spec.title}, the whole forward at REDUCED widths ({dtype_name}): embedders, "
        "timestep/guidance/pooled embeddings, positional embedding, blocks, norm_out, proj_out.",
        f"// Config: {cfg}.",
    ]
    lines += [f"// Note: {n}." for n in spec.notes]
    lines.append(
        f"// Versions: torch {torch.__version__.split('+')[0]}, diffusers {diffusers.__version__}, "
        f"torch-mlir {backend.version()} (FxImporter.import_program)."
    )
    if golden_seed is not None:
        lines.append(
            f"// Golden reference (seed {golden_seed}): in_<i>.npy next to this file holds argument i, "
            "out_<j>.npy torch eager's result j, reference.json the scales (and bf16 noise floor)."
        )
    lines.append(
        f"// @forward takes {len(acts)} inputs, then {len(weights)} weights ({n_params} parameters), "
        "each named by its dit.arg_name attribute:"
    )
    for i, (n, t, doc) in enumerate(acts):
        shape = "x".join(str(x) for x in t.shape)
        lines.append(f"//   %arg{i} {n}: {shape} {_dtype_name(t)} -- {doc}")
    lines.append(f"// Results: {', '.join(spec.outputs)}.")
    return lines


def import_text(ep, names):
    from . import torch_mlir_backend as backend

    native, plain = backend.import_program(ep, "forward", names)
    backend.roundtrip_check(native, plain)
    return plain


def _as_list(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


def generate_golden(name, out_dir, dtype_name, seed, argv):
    """test/golden/<name>_whole/<dtype>/ in the format of golden.py (test/golden/README.md)."""
    from . import golden

    spec, model, acts, weights, (master_a, master_w) = build(name, dtype_name, seed)
    ep, names, args = export(spec, model, acts, weights)
    with torch.no_grad():
        eager = [o.detach() for o in _as_list(_functional(spec, model, dict(weights), [t for _, t, _ in acts]))]
        graph = [o.detach() for o in _as_list(ep.module()(*args))]
        if dtype_name == "bf16":
            # The exact answer: the same (rounded) values upcast, the same model in f32.
            f32_model = spec.build().float().eval()
            up_w = {n: (t.float() if t.is_floating_point() else t) for n, t in weights}
            up_a = [t.float() if t.is_floating_point() else t for _, t, _ in acts]
            exact = [o.detach() for o in _as_list(_functional(spec, f32_model, up_w, up_a))]
        else:
            exact = eager
    case = os.path.basename(os.path.normpath(os.path.dirname(os.path.normpath(out_dir))))
    os.makedirs(out_dir, exist_ok=True)
    for f in os.listdir(out_dir):
        if f.endswith(".npy") or f in ("model.mlir", "reference.json"):
            os.remove(os.path.join(out_dir, f))
    lines = header(spec, dtype_name, argv, acts, weights, "model.mlir", golden_seed=seed)
    text = "\n".join(lines + golden.GOLDEN_RUN_LINES + [import_text(ep, names).rstrip("\n")]) + "\n"
    with open(os.path.join(out_dir, "model.mlir"), "w") as fh:
        fh.write(text)
    for i, v in enumerate(args):
        np.save(os.path.join(out_dir, f"in_{i}.npy"), golden.to_npy(v))
    outputs, self_check = [], 0.0
    for j, (oname, e, gr, x) in enumerate(zip(spec.outputs, eager, graph, exact)):
        scale = float(x.float().abs().max())
        diff = golden.max_abs(e, gr)
        limit = (1e-5 if dtype_name == "f32" else 1e-2) * scale
        if diff > limit:
            raise AssertionError(f"{case}/{dtype_name}: {oname}: the exported program differs from eager by {diff:g}")
        self_check = max(self_check, diff)
        np.save(os.path.join(out_dir, f"out_{j}.npy"), golden.to_npy(e))
        rec = {"name": oname, "shape": list(e.shape), "dtype": dtype_name, "scale": scale}
        if dtype_name == "bf16":
            np.save(os.path.join(out_dir, f"out_{j}.f32.npy"), golden.to_npy(x.float()))
            rec["noise_max_abs"] = golden.max_abs(e.float(), x)
            rec["noise_cosine"] = golden.cosine(e.float(), x)
        outputs.append(rec)
    import diffusers

    ref = {
        "case": case,
        "dtype": dtype_name,
        "family": name,
        "torch": torch.__version__.split("+")[0],
        "diffusers": diffusers.__version__,
        "seed": seed,
        "config": {k: (list(v) if isinstance(v, tuple) else v) for k, v in spec.config.items()},
        "whole_model": spec.cls,
        "inputs": [
            {"index": i, "name": n, "shape": list(v.shape), "dtype": str(golden.to_npy(v).dtype)}
            for i, (n, v) in enumerate(zip(names, args))
        ],
        "outputs": outputs,
        "self_check_max_abs": self_check,
    }
    with open(os.path.join(out_dir, "reference.json"), "w") as fh:
        json.dump(ref, fh, indent=1)
        fh.write("\n")
    return ref


def main(args, argv):
    """`dit_import.py --whole-model --model M [-o FILE | --golden DIR [--dtypes ...]]`."""
    import sys
    import time

    if args.model not in WHOLE:
        raise SystemExit(f"dit-import: --whole-model knows {', '.join(sorted(WHOLE))}, not {args.model}")
    if args.blocks is not None or args.single_blocks is not None or args.full_depth:
        raise SystemExit("dit-import: --whole-model has its own depth (2 blocks of each kind)")
    t0 = time.perf_counter()
    if args.golden:
        for dt in [d for d in args.dtypes.split(",") if d]:
            if dt not in DTYPES:
                raise SystemExit(f"dit-import: --dtypes: unknown dtype {dt!r} (known: {', '.join(DTYPES)})")
            r = generate_golden(args.model, os.path.join(args.golden, dt), dt, args.seed, argv)
            outs = "; ".join(
                f"{o['name']} {'x'.join(map(str, o['shape']))} scale {o['scale']:.3g}"
                + (f" noise {o['noise_max_abs']:.3g} cos {o['noise_cosine']:.6f}" if "noise_max_abs" in o else "")
                for o in r["outputs"]
            )
            print(f"dit-import: golden {r['case']}/{dt}: {outs}", file=sys.stderr)
        print(f"dit-import: golden {args.golden}: {time.perf_counter() - t0:.1f}s", file=sys.stderr)
        return 0
    dtype_name = (args.dtypes.split(",")[0] if args.dtypes else "f32") or "f32"
    spec, model, acts, weights, _ = build(args.model, dtype_name, args.seed)
    ep, names, _ = export(spec, model, acts, weights)
    body = import_text(ep, names)
    lines = [] if args.no_header else header(spec, dtype_name, argv, acts, weights, os.path.basename(args.output))
    text = "\n".join(lines + [body.rstrip("\n")]) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
        with open(args.output, "w") as f:
            f.write(text)
    if args.stats:
        print(f"dit-import: {args.model} whole model: {time.perf_counter() - t0:.2f}s, {len(text) / 1e6:.2f} MB", file=sys.stderr)
    return 0
