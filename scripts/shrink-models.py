#!/usr/bin/env python3
"""Generate shape-reduced copies of the model graphs for numerical execution.

    python3 scripts/shrink-models.py            # regenerate every file in test/models/exec/
    python3 scripts/shrink-models.py --check    # fail if a generated file is out of date
    python3 scripts/shrink-models.py --compare  # also verify each copy with dit-opt and compare
                                                # its --fuse-all report with the full-size graph

test/models/*.mlir and examples/flux_double_block.mlir are DiT blocks at their real widths
(4096 tokens, hidden 3072, ...). A reference interpreter that executes a graph before and after
fusion would take hours on them, so this script writes test/models/exec/<name>.mlir: the same
graph (same ops in the same order, same attributes, same dtypes) with every size replaced
through a per-model dim map (MODELS below), so that each tensor holds at most ~64K elements.

What is rewritten, and nothing else:
  * every dimension of every `tensor<AxBx...xT>` type (a `?` only if the map binds "?");
  * the size-valued attributes: `sizes = array<i64: ...>` (dit.split) and the i64 attributes
    named in SIZE_INT_ATTRS (dit.slice start/end, the experts count of the MoE opaques);
  * `scale` of dit.attention, recomputed as 1/sqrt(new head_dim) (the head dim is the last dim
    of q in both layouts); the script refuses a source whose scale is not 1/sqrt(head_dim).
Axis-valued attributes (dim, dims, perm, step, k) are kept, and so are operandSegmentSizes
(array<i32>), epsilons and every dense<> constant (all scalars here; an integer dense<> of
non-scalar type is refused, as it might be a shape).

The maps are strict: every integer met in a type or a size attribute must be a key of the
model's map or listed in its `keep` set, else the script stops. So a new number in a source
file (or a number that means two different things) cannot slip through unreviewed. Numbers
that mean two things in one graph would need a per-line override; none of the current graphs
has one (see test/models/exec/README.md for the per-model notes).

The source's leading comment block (model description, RUN and FileCheck lines) is replaced by
a generated header; comments inside the module are copied verbatim and still quote the real
widths. Python 3 standard library only.
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join("test", "models", "exec")
COMMAND = "python3 scripts/shrink-models.py"

# i64 attributes holding a size or an offset along a dim: remapped through the dim map.
SIZE_INT_ATTRS = {"start", "end", "num_experts"}
# i64 attributes holding an axis, a stride or a count that is not a dim: kept.
AXIS_INT_ATTRS = {"dim", "step", "k", "group_size"}
# array<i64> attributes holding sizes: remapped; axis lists: kept.
SIZE_ARRAY_ATTRS = {"sizes"}
AXIS_ARRAY_ATTRS = {"perm", "dims"}

DEFAULT_KEEP = {0, 1, 2}

# Per-model dim maps: (full-size value, reduced value, meaning). `keep` lists the small numbers
# that stay as they are (beyond 0, 1, 2). Keep shape relations: hidden = heads x head_dim,
# 6 x hidden modulation, joint = txt + img, head_dim even (RoPE pairs), 2 x ffn merged, ...
MODELS = [
    {
        "name": "flux_double_block",
        "source": "examples/flux_double_block.mlir",
        "dims": [
            (4096, 16, "image tokens"),
            (512, 8, "text tokens"),
            (4608, 24, "joint tokens = text + image (slice start/end too)"),
            (3072, 64, "hidden = heads x head_dim"),
            (24, 2, "heads"),
            (128, 32, "head_dim (RoPE table width)"),
            (64, 16, "head_dim / 2 (RoPE pairs)"),
            (18432, 384, "6 x hidden (AdaLayerNormZero modulation)"),
            (12288, 256, "FFN inner = 4 x hidden"),
        ],
        "keep": set(),
    },
    {
        "name": "flux_single_block",
        "source": "test/models/flux_single_block.mlir",
        "dims": [
            (4608, 24, "joint tokens"),
            (3072, 64, "hidden = heads x head_dim"),
            (24, 2, "heads"),
            (128, 32, "head_dim (RoPE table width)"),
            (64, 16, "head_dim / 2 (RoPE pairs)"),
            (9216, 192, "3 x hidden (AdaLayerNormZeroSingle modulation)"),
            (12288, 256, "MLP inner = 4 x hidden"),
            (15360, 320, "hidden + MLP inner (concat before proj_out)"),
        ],
        "keep": set(),
    },
    {
        "name": "ernie_gated_gelu_ffn",
        "source": "test/models/ernie_gated_gelu_ffn.mlir",
        "dims": [
            (4096, 16, "image tokens"),
            (3072, 32, "hidden"),
            (8192, 520, "FFN inner; 2 x 520 = 1040 stays > GeluMul's 1024 limit, so the "
                        "gelu_mul skips of the full-width functions are kept"),
            (16384, 1040, "merged gate|up = 2 x FFN inner"),
            (512, 64, "inner of @ernie_gated_gelu_ffn_small"),
            (1024, 128, "merged width of @ernie_gated_gelu_ffn_small = 2 x 64 (<= 1024: "
                        "gelu_mul still fires)"),
        ],
        "keep": set(),
    },
    {
        "name": "hidream_moe_block",
        "source": "test/models/hidream_moe_block.mlir",
        "dims": [
            (1024, 16, "image tokens"),
            (2048, 32, "routed rows = top-2 x tokens"),
            (2560, 64, "hidden"),
            (6912, 96, "routed expert inner"),
            (13824, 192, "stacked w1|w3 = 2 x expert inner"),
            (3584, 96, "shared expert inner"),
        ],
        # 4: routed experts (num_experts attribute, gate width, group_list [E]); 2: top-k
        "keep": {4},
    },
    {
        "name": "lingbot_video_moe_ffn",
        "source": "test/models/lingbot_video_moe_ffn.mlir",
        "dims": [
            (1560, 24, "tokens"),
            (12480, 192, "routed rows = top-8 x tokens"),
            (2048, 32, "hidden"),
            (768, 48, "expert inner = shared expert inner"),
            (128, 16, "routed experts (num_experts attribute, router width, group_list [E])"),
        ],
        # 8: top-k (gate weights [T, 8])
        "keep": {8},
    },
    {
        "name": "hunyuan_image3_moe",
        "source": "test/models/hunyuan_image3_moe.mlir",
        "dims": [
            (3840, 24, "image tokens"),
            (30720, 192, "routed rows = top-8 x tokens"),
            (4096, 32, "hidden"),
            (3072, 48, "expert inner = shared inner (split sizes too)"),
            (6144, 96, "gate_and_up = 2 x inner"),
            (64, 16, "routed experts (num_experts attribute, gate width, group_list [E])"),
        ],
        # 8: top-k (topk weights [T, 8])
        "keep": {8},
    },
    {
        "name": "hunyuan_video_double_block",
        "source": "test/models/hunyuan_video_double_block.mlir",
        "dims": [
            (2048, 16, "video tokens"),
            (256, 8, "text tokens"),
            (2304, 24, "joint tokens = video + text (slice start/end too)"),
            (3072, 64, "hidden = heads x head_dim"),
            (24, 2, "heads"),
            (128, 32, "head_dim (RoPE table width)"),
            (64, 16, "head_dim / 2 (RoPE pairs)"),
            (18432, 384, "6 x hidden (double-block modulation)"),
            (9216, 192, "3 x hidden (single-block modulation)"),
            (12288, 256, "MLP inner = 4 x hidden"),
            (15360, 320, "hidden + MLP inner (single block concat)"),
        ],
        "keep": set(),
    },
    {
        "name": "lumina_swiglu_ffn",
        "source": "test/models/lumina_swiglu_ffn.mlir",
        "dims": [
            (4352, 24, "joint tokens"),
            (2304, 64, "hidden"),
            (9216, 256, "FFN inner = 4 x hidden"),
        ],
        "keep": set(),
    },
    {
        "name": "qwen_image_block",
        "source": "test/models/qwen_image_block.mlir",
        "dims": [
            (4096, 16, "image tokens"),
            (256, 8, "text tokens"),
            (4352, 24, "joint tokens = text + image (slice start/end too)"),
            (3072, 64, "hidden = heads x head_dim"),
            (24, 2, "heads"),
            (128, 32, "head_dim"),
            (64, 16, "head_dim / 2 (complex RoPE table width, pairs)"),
            (18432, 384, "6 x hidden (img_mod / txt_mod)"),
            (9216, 192, "3 x hidden (each modulation half)"),
            (12288, 256, "FFN inner = 4 x hidden"),
        ],
        "keep": set(),
    },
    {
        "name": "sd35_joint_block",
        "source": "test/models/sd35_joint_block.mlir",
        "dims": [
            (4096, 16, "image tokens"),
            (333, 7, "text tokens (odd, like 77 + 256)"),
            (4429, 23, "joint tokens = image + text (slice start/end too)"),
            (2432, 64, "hidden = heads x head_dim"),
            (38, 2, "heads"),
            (64, 32, "head_dim (RMSNorm gamma)"),
            (14592, 384, "6 x hidden (AdaLayerNormZero modulation)"),
            (9728, 256, "FFN inner = 4 x hidden"),
        ],
        "keep": set(),
    },
    {
        "name": "wan21_block",
        "source": "test/models/wan21_block.mlir",
        "dims": [
            (1560, 24, "video tokens"),
            (512, 8, "text tokens (cross-attention keys)"),
            (5120, 64, "hidden = heads x head_dim"),
            (40, 2, "heads"),
            (128, 32, "head_dim (RoPE table width, slice end)"),
            (64, 16, "head_dim / 2 (RoPE pairs)"),
            (13824, 256, "FFN inner"),
        ],
        # 6: the modulation chunks of temb / scale_shift_table
        "keep": {6},
    },
]

TENSOR_RE = re.compile(r"tensor<((?:(?:\d+|\?)x)*)([A-Za-z]\w*)>")
ARRAY_I64_RE = re.compile(r"(\w+) = array<i64:([^>]*)>")
INT_ATTR_RE = re.compile(r"(\w+) = (-?\d+) : i64")
DENSE_RE = re.compile(r"dense<[^>]*> : (tensor<[^>]*>)")
SCALE_RE = re.compile(r"\bscale = ([-+0-9.eE]+) : f32")
# FileCheck-style directive: PREFIX[-SUFFIX]: at the start of a comment
DIRECTIVE_RE = re.compile(r"^\s*//\s*([A-Z][A-Z0-9_]*)(-[A-Z]+)?:")


class ShrinkError(Exception):
    pass


class Shrinker:
    def __init__(self, model):
        self.model = model
        self.map = {}
        for full, small, _ in model["dims"]:
            if full in self.map:
                raise ShrinkError(f"{model['name']}: {full} mapped twice")
            self.map[full] = small
        self.keep = DEFAULT_KEEP | set(model.get("keep", ()))
        overlap = self.keep & set(self.map)
        if overlap:
            raise ShrinkError(f"{model['name']}: {sorted(overlap)} both kept and mapped")
        self.used = set()

    def dim(self, value, where):
        if value == "?":
            if "?" in self.map:
                self.used.add("?")
                return str(self.map["?"])
            raise ShrinkError(f"{where}: dynamic dim with no '?' entry in the map")
        n = int(value)
        if n in self.map:
            self.used.add(n)
            return str(self.map[n])
        if n in self.keep:
            return str(n)
        raise ShrinkError(f"{where}: {n} is neither mapped nor kept")

    def tensor(self, m, where):
        dims = [d for d in m.group(1).split("x") if d]
        new = [self.dim(d, where) for d in dims]
        return "tensor<" + "".join(d + "x" for d in new) + m.group(2) + ">"

    def line(self, text, where):
        code, sep, comment = split_comment(text)
        if not code.strip():
            return text
        for m in DENSE_RE.finditer(code):
            ty = TENSOR_RE.fullmatch(m.group(1))
            if ty and ty.group(1) and ty.group(2).startswith("i"):
                raise ShrinkError(f"{where}: integer dense<> constant of shape {m.group(1)}"
                                  " (a shape?) needs manual handling")

        def array_attr(m):
            name, body = m.group(1), m.group(2)
            if name in AXIS_ARRAY_ATTRS:
                return m.group(0)
            if name not in SIZE_ARRAY_ATTRS:
                raise ShrinkError(f"{where}: unknown array<i64> attribute {name!r}")
            vals = [v.strip() for v in body.split(",")]
            return f"{name} = array<i64: " + ", ".join(self.dim(v, where) for v in vals) + ">"

        def int_attr(m):
            name, value = m.group(1), m.group(2)
            if name in AXIS_INT_ATTRS:
                return m.group(0)
            if name not in SIZE_INT_ATTRS:
                raise ShrinkError(f"{where}: unknown i64 attribute {name!r}")
            return f"{name} = {self.dim(value, where)} : i64"

        new = ARRAY_I64_RE.sub(array_attr, code)
        new = INT_ATTR_RE.sub(int_attr, new)
        new = TENSOR_RE.sub(lambda m: self.tensor(m, where), new)
        if SCALE_RE.search(code):
            if '"dit.attention"' not in code:
                raise ShrinkError(f"{where}: a scale attribute outside dit.attention")
            old_hd = head_dim(code, where)
            new_hd = head_dim(new, where)
            old_scale = float(SCALE_RE.search(code).group(1))
            if not math.isclose(old_scale, 1.0 / math.sqrt(old_hd), rel_tol=1e-6):
                raise ShrinkError(f"{where}: attention scale {old_scale} is not 1/sqrt({old_hd})")
            new_scale = 1.0 / math.sqrt(new_hd)
            new = SCALE_RE.sub(f"scale = {new_scale:.9g} : f32", new)
        if sep and len(new) < len(code) and code.endswith(" "):
            new = new.rstrip().ljust(len(code))  # keep trailing comments in their column
        return new + sep + comment


def split_comment(text):
    """(code, '//' or '', comment) -- no string in these graphs contains '//'."""
    i = text.find("//")
    if i < 0:
        return text, "", ""
    return text[:i], "//", text[i + 2:]


def head_dim(code, where):
    sig = code.split('"dit.attention"', 1)[1]
    m = TENSOR_RE.search(sig.split(":", 1)[1] if ":" in sig else "")
    if not m:
        raise ShrinkError(f"{where}: no q type on the dit.attention line")
    dims = [d for d in m.group(1).split("x") if d]
    return int(dims[-1])


def header(model, src_rel):
    lines = [
        f"// GENERATED by scripts/shrink-models.py from {src_rel} -- do not edit by hand.",
        f"// Regenerate every file in {OUT_DIR}/: {COMMAND}",
        "//",
        "// Shape-reduced copy for numerical execution (reference interpreter, before and after",
        "// fusion): the same ops in the same order, the same attributes and dtypes as the source;",
        "// only sizes differ. Dim map (full -> reduced):",
    ]
    for full, small, what in model["dims"]:
        lines.append(f"//   {full:>6} -> {small:<5} {what}")
    keep = sorted(DEFAULT_KEEP | set(model.get("keep", ())))
    lines += [
        f"// Kept as is: {', '.join(map(str, keep))}; axis attributes (dim, dims, perm, step, k).",
        "// dit.attention scale is recomputed as 1/sqrt(reduced head_dim).",
        f"// The model is described in {src_rel}; the comments below are",
        "// copied from it and still quote the real widths. See test/models/exec/README.md.",
        "//",
        "// RUN: dit-opt %s --dit-verify -o /dev/null",
        "// RUN: dit-opt %s --fuse-all | dit-opt --dit-verify -o /dev/null",
        "// Numerical check: every function before and after --fuse-all on the CPU reference runtime.",
        "// RUN: dit-run %s --compare-unfused | FileCheck %s --check-prefix=EXEC",
        "// RUN: dit-run %s --compare-unfused --target=ascend950 | FileCheck %s --check-prefix=EXEC",
        "// EXEC-NOT: FAIL",
        "// EXEC: fuse-all",
        "",
    ]
    return lines


def shrink(model):
    src_rel = model["source"]
    with open(os.path.join(REPO, src_rel), encoding="utf-8") as f:
        src = f.read().splitlines()
    # Drop the leading comment block (description, RUN and FileCheck lines).
    start = 0
    while start < len(src) and (not src[start].strip() or src[start].lstrip().startswith("//")):
        start += 1
    if start == len(src):
        raise ShrinkError(f"{src_rel}: no IR")
    prefixes = {"RUN", "CHECK"}
    for line in src[:start]:
        for m in re.finditer(r"--check-prefix(?:es)?=([\w,-]+)", line):
            prefixes.update(m.group(1).split(","))
    sh = Shrinker(model)
    out = header(model, src_rel)
    for i, line in enumerate(src[start:], start + 1):
        d = DIRECTIVE_RE.match(line)
        if d and d.group(1) in prefixes:
            raise ShrinkError(f"{src_rel}:{i}: FileCheck directive inside the IR")
        out.append(sh.line(line, f"{src_rel}:{i}"))
    unused = sorted(set(sh.map) - sh.used, key=str)
    if unused:
        raise ShrinkError(f"{src_rel}: map entries never used: {unused}")
    return "\n".join(out) + "\n"


def max_tensor(text):
    best, best_ty = 0, ""
    for line in text.splitlines():
        code = split_comment(line)[0]
        for m in TENSOR_RE.finditer(code):
            n = 1
            for d in (d for d in m.group(1).split("x") if d):
                n *= int(d)
            if n > best:
                best, best_ty = n, m.group(0)
    return best, best_ty


def shape(ty):
    return [int(d) for d in TENSOR_RE.fullmatch(ty).group(1).split("x") if d]


def matmul_flops(text):
    """2 x multiply-adds of the contraction ops (linear, matmuls, attention), for scale only."""
    total = 0
    for line in text.splitlines():
        code = split_comment(line)[0]
        m = re.search(r'"dit\.(linear|matmul|quant_matmul|grouped_matmul|attention)"', code)
        if not m or " : (" not in code:
            continue
        sig = code.rsplit(" : (", 1)[1]
        operands, result = sig.split(") -> ", 1)
        ins = [shape(t.group(0)) for t in TENSOR_RE.finditer(operands)]
        out = shape(TENSOR_RE.search(result).group(0))
        n_out = math.prod(out)
        if m.group(1) == "attention":
            k = ins[1]
            seq_k = k[-2] if 'layout = "BNSD"' in code else k[-3]
            total += 2 * 2 * n_out * seq_k  # q.k^T and p.v
        elif m.group(1) == "matmul" and "transpose_a = true" in code:
            total += 2 * n_out * ins[0][-2]
        elif m.group(1) == "quant_matmul" and "transpose_x1 = true" in code:
            total += 2 * n_out * ins[0][-2]
        else:
            total += 2 * n_out * ins[0][-1]
    return total


def fusion_report(dit_opt, path):
    r = subprocess.run([dit_opt, path, "--fuse-all", "--fusion-report=json", "-o", os.devnull],
                       cwd=REPO, capture_output=True, text=True)
    if r.returncode != 0:
        raise ShrinkError(f"dit-opt --fuse-all failed on {path}:\n{r.stderr}")
    rep = json.loads(r.stderr[r.stderr.index("{"):])
    counts = {name: (p["match_times"], p["effect_times"]) for name, p in rep["patterns"].items()}
    return counts, rep["kernels_before"], rep["kernels_after"]


def compare(dit_opt, model, out_rel):
    r = subprocess.run([dit_opt, out_rel, "--dit-verify", "-o", os.devnull],
                       cwd=REPO, capture_output=True, text=True)
    ok = r.returncode == 0
    print(f"  --dit-verify: {'ok' if ok else 'FAILED'}{'' if ok else chr(10) + r.stderr}")
    full, fk_b, fk_a = fusion_report(dit_opt, model["source"])
    small, sk_b, sk_a = fusion_report(dit_opt, out_rel)
    print(f"  kernels before/after: full {fk_b}/{fk_a}, reduced {sk_b}/{sk_a}"
          f"{'' if (fk_b, fk_a) == (sk_b, sk_a) else '   <-- differs'}")
    diffs = 0
    for name in sorted(set(full) | set(small)):
        f, s = full.get(name, (0, 0)), small.get(name, (0, 0))
        mark = "" if f[1] == s[1] else "   <-- effect_times differ"
        diffs += f[1] != s[1]
        print(f"  {name}: match/effect full {f[0]}/{f[1]}, reduced {s[0]}/{s[1]}{mark}")
    return ok and diffs == 0 and (fk_b, fk_a) == (sk_b, sk_a)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; fail if a generated file differs from the source")
    ap.add_argument("--compare", action="store_true",
                    help="run dit-opt: verify each copy, compare --fuse-all reports with the source")
    ap.add_argument("--dit-opt", default=os.path.join(REPO, "target", "debug", "dit-opt"))
    ap.add_argument("models", nargs="*", help="only these models (default: all)")
    args = ap.parse_args()

    selected = [m for m in MODELS if not args.models or m["name"] in args.models]
    unknown = set(args.models) - {m["name"] for m in MODELS}
    if unknown:
        sys.exit(f"unknown model(s): {', '.join(sorted(unknown))}")
    if not args.check:
        os.makedirs(os.path.join(REPO, OUT_DIR), exist_ok=True)
    stale, all_same = [], True
    for model in selected:
        out_rel = os.path.join(OUT_DIR, model["name"] + ".mlir")
        out_abs = os.path.join(REPO, out_rel)
        try:
            text = shrink(model)
        except ShrinkError as e:
            sys.exit(f"error: {e}")
        n, ty = max_tensor(text)
        if args.check:
            old = open(out_abs, encoding="utf-8").read() if os.path.exists(out_abs) else None
            if old != text:
                stale.append(out_rel)
        else:
            with open(out_abs, "w", encoding="utf-8") as f:
                f.write(text)
        print(f"{out_rel}: from {model['source']}, largest tensor {n} elements ({ty}), "
              f"{matmul_flops(text) / 1e6:.1f} MFLOP in contractions")
        if args.compare:
            try:
                all_same &= compare(args.dit_opt, model, out_rel)
            except ShrinkError as e:
                sys.exit(f"error: {e}")
    if stale:
        sys.exit("out of date (run " + COMMAND + "): " + ", ".join(stale))
    if args.compare and not all_same:
        print("note: some fusion counts differ from the full-size graphs "
              "(each difference is explained in test/models/exec/README.md)")


if __name__ == "__main__":
    main()
