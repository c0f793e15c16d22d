"""Golden references: seeded weights and inputs, torch eager's outputs, and the exported graph.

For one family, depth and dtype, `generate` writes test/golden/<case>/<dtype>/ in the format
of test/golden/README.md (the contract dit-run --reference-npy reads):

  model.mlir       the importer's output for the family at its reduced widths (`Family.reduced`),
                   with the golden RUN lines instead of test/models/imported's
  in_<i>.npy       argument i of @forward (activations, then every weight, in the graph's order)
  out_<j>.npy      torch eager's result j
  out_<j>.f32.npy  (bf16 only) torch eager in f32 on the same values: the bf16 inputs and
                   weights upcast, the same module run in f32 -- the exact answer the bf16
                   noise floor is measured against
  reference.json   case, versions, seed, widths, and per output its scale and (bf16) noise floor

Values. One seeded generator (torch.Generator().manual_seed(seed)) draws, in argument order,
f32 "master" values for every argument, so f32 and bf16 goldens of one case share them:
activations standard normal (or what `Input.fill` asks for: cos/sin of random angles, masks);
weights by name and shape -- biases 0.1 * N(0, 1), other 1-D weights (norm gammas)
1 + 0.1 * N(0, 1), matrices [out, in] N(0, 1) / sqrt(in), stacked expert weights [E, in, out]
N(0, 1) / sqrt(in), modulation tables (scale_shift_table) N(0, 1) / sqrt(dim). The f32 graph
takes the master values; the bf16 graph takes them rounded (round to nearest even) to each
argument's dtype in the real model, so arguments the model keeps in f32 (RoPE tables, Wan's
scale_shift_table and norm2) stay f32.

Eager is the stack materialized on the CPU (to_empty, then the values copied in) and called
as the model calls it. The exported function (activations and weights as arguments, through
torch.func.functional_call) and `ExportedProgram.module()` then run on the same values and must
agree (`self_check_max_abs` in reference.json), so a golden is the meaning of the graph in
model.mlir, substitutions (Qwen's real-form RoPE, HiDream's grouped-GEMM MoE) included.
"""

from __future__ import annotations

import copy
import json
import math
import os
import types

import numpy as np
import torch

from . import exporter, models

F32, BF16 = torch.float32, torch.bfloat16
DTYPES = {"f32": F32, "bf16": BF16}
# The lit RUN lines of a golden model.mlir (test/golden/README.md).
GOLDEN_RUN_LINES = [
    "// RUN: dit-opt %s --dit-convert-torch-to-dit -o %t.mlir",
    "// RUN: dit-run %t.mlir --reference-npy %S",
    "// RUN: dit-run %t.mlir --reference-npy %S --compare-unfused",
]


# ----------------------------------------------------------------------------------------------
# values
# ----------------------------------------------------------------------------------------------


def _angles(cache, group, shape, gen):
    key = (group, tuple(shape))
    if key not in cache:
        cache[key] = (torch.rand(shape, generator=gen, dtype=torch.float64) * 2 - 1) * math.pi
    return cache[key]


def fill_input(inp: models.Input, gen: torch.Generator, cache: dict) -> torch.Tensor:
    """Master value of one activation (f32, or bool / complex64), as `inp.fill` says."""
    shape = tuple(inp.shape)
    kind, _, arg = (inp.fill or "").partition(":")
    if not kind:
        if not (inp.dtype.is_floating_point or inp.dtype.is_complex):
            raise ValueError(f"input {inp.name} ({inp.dtype}) needs an Input.fill")
        if inp.dtype.is_complex:
            return torch.complex(torch.randn(shape, generator=gen), torch.randn(shape, generator=gen))
        return torch.randn(shape, generator=gen)
    if kind in ("rope_cos", "rope_sin"):
        if shape[-1] % 2:
            raise ValueError(f"{inp.name}: {kind} needs an even last dim, got {shape}")
        a = _angles(cache, arg, shape[:-1] + (shape[-1] // 2,), gen)
        t = torch.cos(a) if kind == "rope_cos" else torch.sin(a)
        return t.repeat_interleave(2, dim=-1).to(F32)
    if kind == "rope_rot":
        if shape[-2:] != (2, 2):
            raise ValueError(f"{inp.name}: rope_rot needs [..., 2, 2], got {shape}")
        a = _angles(cache, arg, shape[:-2], gen)
        c, s = torch.cos(a), torch.sin(a)
        return torch.stack([c, -s, s, c], dim=-1).view(shape).to(F32)
    if kind == "rope_complex":
        a = _angles(cache, arg, shape, gen)
        return torch.polar(torch.ones_like(a), a).to(torch.complex64)
    if kind in ("key_mask", "key_bias"):
        n = int(arg)
        if not 0 < n < shape[-1]:
            raise ValueError(f"{inp.name}: {kind}:{n} must leave some of {shape[-1]} positions")
        keep = torch.ones(shape, dtype=torch.bool)
        keep[..., shape[-1] - n :] = False
        if kind == "key_mask":
            return keep
        return torch.where(keep, 0.0, -10000.0).to(F32)
    raise ValueError(f"input {inp.name}: unknown fill {inp.fill!r}")


def fill_weight(name: str, shape: tuple, gen: torch.Generator) -> torch.Tensor:
    """Master value of one parameter or buffer (f32), by its name and shape."""
    n = torch.randn(shape, generator=gen)
    leaf = name.rsplit(".", 1)[-1]
    if leaf == "bias":
        return 0.1 * n
    if "scale_shift_table" in leaf:
        return n / math.sqrt(shape[-1])
    if len(shape) == 1:
        return 1 + 0.1 * n
    if len(shape) == 2:  # nn.Linear [out, in], MoE gate [E, in]
        return n / math.sqrt(shape[1])
    if len(shape) == 3:  # stacked expert weights [E, in, out]
        return n / math.sqrt(shape[1])
    return n / math.sqrt(math.prod(shape[1:]))


def master_values(inputs, weights, seed):
    """Seeded f32 master values: inputs (models.Input) then weights ((name, tensor))."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    cache = {}
    acts = [fill_input(i, gen, cache) for i in inputs]
    ws = []
    for name, t in weights:
        if not (t.dtype.is_floating_point):
            raise ValueError(f"weight {name}: {t.dtype} is not floating point")
        ws.append(fill_weight(name, tuple(t.shape), gen))
    return acts, ws


def to_npy(t: torch.Tensor) -> np.ndarray:
    """The format's encoding: f32 '<f4', bf16 raw bits '<u2', others as numpy has them."""
    t = t.detach().contiguous().cpu()
    if t.dtype == BF16:
        return t.view(torch.int16).numpy().view("<u2")
    return t.numpy()


# ----------------------------------------------------------------------------------------------
# comparison
# ----------------------------------------------------------------------------------------------


def max_abs(a, b):
    return float((a.double() - b.double()).abs().max()) if a.numel() else 0.0


def cosine(a, b):
    a, b = a.double().flatten(), b.double().flatten()
    den = float(a.norm() * b.norm())
    return float(a @ b) / den if den else 1.0


def _as_list(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


# ----------------------------------------------------------------------------------------------
# one golden directory
# ----------------------------------------------------------------------------------------------


def _model_text(family, depth, exp, argv, func_name, seed, dtype_name):
    from . import cli
    from . import torch_mlir_backend as backend

    native, plain = backend.import_program(exp.program, func_name, exp.arg_names)
    backend.roundtrip_check(native, plain)
    args = types.SimpleNamespace(output="model.mlir", full_depth=False, func_name=func_name)
    importer_desc = f"torch-mlir {backend.version()} (FxImporter.import_program)"
    lines = cli._header(args, family, depth, exp, argv, importer_desc, golden=(seed, dtype_name))
    return "\n".join(lines + GOLDEN_RUN_LINES + [plain.rstrip("\n")]) + "\n"


def generate_one(family, depth, options, out_dir, dtype_name, seed, argv, case, func_name="forward"):
    """Write out_dir (= test/golden/<case>/<dtype>) for the family at its current widths."""
    d, s = depth
    graph_dtype = F32 if dtype_name == "f32" else None  # bf16: the model's own dtypes
    exp = exporter.export(family, d, s, options, dtype=graph_dtype)
    weights = list(exp.stack.named_parameters()) + list(exp.stack.named_buffers())
    acts_m, ws_m = master_values(exp.inputs, weights, seed)
    arg_dtypes = [i.dtype for i in exp.inputs] + [t.dtype for _, t in weights]
    values = [m.to(dt) for m, dt in zip(acts_m + ws_m, arg_dtypes)]
    lifted = exporter._Lifted(exp.stack, exp.n_inputs, [n for n, _ in weights])
    # torch eager: the stack materialized on the CPU with these weights, called as the model
    # calls it. The lifted function (what was exported) and the exported program itself must
    # give the same results on the same values.
    cpu = copy.deepcopy(exp.stack).to_empty(device="cpu")
    with torch.no_grad():
        for (name, t), v in zip(list(cpu.named_parameters()) + list(cpu.named_buffers()), values[exp.n_inputs :]):
            if t.shape != v.shape or t.dtype != v.dtype:
                raise AssertionError(f"{name}: {tuple(v.shape)} {v.dtype} for a {tuple(t.shape)} {t.dtype} weight")
            t.copy_(v)
        eager = [o.detach() for o in _as_list(cpu(*values[: exp.n_inputs]))]
        via_lifted = [o.detach() for o in _as_list(lifted(*values))]
        graph = [o.detach() for o in _as_list(exp.program.module()(*values))]
        if dtype_name == "bf16":  # the same module in f32 (in place: cpu is done) on the upcast inputs
            up = [v.float() if v.dtype.is_floating_point else v for v in values[: exp.n_inputs]]
            exact = [o.detach() for o in _as_list(cpu.float()(*up))]
        else:
            exact = eager
    if len(graph) != len(eager) or len(via_lifted) != len(eager):
        raise AssertionError(f"{case}/{dtype_name}: exported program gives {len(graph)} results, eager {len(eager)}")
    names = list(family.outputs[: len(eager)])
    names += [f"out_{j}" for j in range(len(names), len(eager))]

    os.makedirs(out_dir, exist_ok=True)
    for f in os.listdir(out_dir):  # a regenerated directory holds only what this run writes
        if f.endswith(".npy") or f in ("model.mlir", "reference.json"):
            os.remove(os.path.join(out_dir, f))
    text = _model_text(family, depth, exp, argv, func_name, seed, dtype_name)
    with open(os.path.join(out_dir, "model.mlir"), "w") as fh:
        fh.write(text)
    for i, v in enumerate(values):
        np.save(os.path.join(out_dir, f"in_{i}.npy"), to_npy(v))
    outputs = []
    self_check = 0.0
    for j, (name, e, g, lf, x) in enumerate(zip(names, eager, graph, via_lifted, exact)):
        scale = float(x.float().abs().max())
        diff = max(max_abs(e, g), max_abs(e, lf))
        # The exported graph must compute what eager does: identical kernels on the CPU, so
        # anything beyond rounding-level noise means the export changed the function.
        limit = (1e-5 if dtype_name == "f32" else 1e-2) * scale
        if diff > limit:
            raise AssertionError(f"{case}/{dtype_name}: {name}: exported program differs from eager by {diff:g}")
        self_check = max(self_check, diff)
        np.save(os.path.join(out_dir, f"out_{j}.npy"), to_npy(e))
        rec = {"name": name, "shape": list(e.shape), "dtype": dtype_name, "scale": scale}
        if dtype_name == "bf16":
            np.save(os.path.join(out_dir, f"out_{j}.f32.npy"), to_npy(x.float()))
            rec["noise_max_abs"] = max_abs(e.float(), x)
            rec["noise_cosine"] = cosine(e.float(), x)
        outputs.append(rec)
    substitutions = check_substitutions(exp.stack, dict(zip((n for n, _ in weights), values[exp.n_inputs :])), seed)
    import diffusers

    ref = {
        "case": case,
        "dtype": dtype_name,
        "family": family.name,
        "torch": torch.__version__.split("+")[0],
        "diffusers": diffusers.__version__,
        "seed": seed,
        "config": dict(family.widths),
        "blocks": {"double": d, "single": s},
        "inputs": [
            {"index": i, "name": n, "shape": list(v.shape), "dtype": _dtype_name(v.dtype), "npy": to_npy(v).dtype.str}
            for i, (n, v) in enumerate(zip(exp.arg_names, values))
        ],
        "outputs": outputs,
        "self_check_max_abs": self_check,
    }
    if substitutions:
        ref["substitution_check_max_abs"] = substitutions
    with open(os.path.join(out_dir, "reference.json"), "w") as fh:
        fh.write(dump_json(ref))
    return ref


def check_substitutions(stack, values: dict, seed: int) -> dict:
    """Each module the importer substitutes for diffusers' own (HiDream's GroupedMoE), run
    against the original on these weights and seeded normal tokens: {module: max abs diff}.
    Refuses a difference over 1e-5 x scale (f32) or 2e-2 x scale (bf16)."""
    out = {}
    gen = torch.Generator().manual_seed(seed + 1)
    for name, mod in stack.named_modules():
        if not isinstance(mod, models.GroupedMoE):
            continue
        params = {k[len(name) + 1 :]: v for k, v in values.items() if k.startswith(name + ".")}
        dt = params["experts_w13"].dtype
        x = torch.randn((1, 16, params["experts_w13"].shape[1]), generator=gen).to(dt)
        diff = models.grouped_moe_vs_diffusers(mod, params, x)
        with torch.no_grad():
            scale = float(torch.func.functional_call(mod, params, (x,)).float().abs().max())
        if diff > (1e-5 if dt == F32 else 2e-2) * scale:
            raise AssertionError(f"{name}: GroupedMoE differs from MOEFeedForwardSwiGLU by {diff:g} (scale {scale:g})")
        out[f"{name} (GroupedMoE vs MOEFeedForwardSwiGLU.moe_infer)"] = diff
    return out


def _dtype_name(dt):
    from . import cli

    return cli._dtype_name(dt)


def dump_json(ref: dict) -> str:
    """JSON with one line per top-level key and per list item (diffable, still plain JSON)."""
    parts = []
    for k, v in ref.items():
        if isinstance(v, list):
            items = ",\n".join("  " + json.dumps(x) for x in v)
            parts.append(f" {json.dumps(k)}: [\n{items}\n ]")
        else:
            parts.append(f" {json.dumps(k)}: {json.dumps(v)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def generate(family, depth, options, golden_dir, dtypes, seed, argv, func_name="forward"):
    """All dtypes of one case at the family's reduced widths; returns the reference dicts."""
    if not family.reduced:
        raise SystemExit(f"dit-import: {family.name} has no reduced widths (Family.reduced) for goldens")
    case = os.path.basename(os.path.normpath(golden_dir))
    refs = []
    with models.widths_of(family, family.reduced):
        for dt in dtypes:
            if dt not in DTYPES:
                raise SystemExit(f"dit-import: --dtypes: unknown dtype {dt!r} (known: {', '.join(DTYPES)})")
            refs.append(generate_one(family, depth, options, os.path.join(golden_dir, dt), dt, seed, argv, case, func_name))
    return refs
