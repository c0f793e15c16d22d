#!/usr/bin/env python3
"""Fusion quality: kernels per block, dit against torch.compile (inductor, CPU) and the peer.

For each block (the graphs of test/models/imported/, rebuilt from the same diffusers code):

- dit: the block's torch-dialect import through `dit-opt --dit-convert-torch-to-dit --fuse-all
  --fusion-report=json`: kernels before -> after (the report's count: every dit op that is not
  a view is one kernel, a dit.fused region is one);
- inductor: `torch._inductor.compile_fx` on the same exported graph, with fake inputs (nothing
  runs; the C++ kernels are generated and compiled): the kernel launches in the generated
  wrapper's `call()` -- generated `cpp_fused_*` kernels plus extern kernels (mm/addmm, SDPA,
  fallbacks);
- peer: the MindIE-style pattern pass (bench/torch_peer/patterns.py) on the decomposed ATen
  graph, which the backend then runs op by op: the ATen compute ops left (views, getitem and
  other metadata-only ops not counted).

Needs the importer's venv and a C++ compiler (inductor's CPU backend). Usage:

    python3 bench/fusion_quality.py [--models flux_double,flux_single,...] [--dit-opt PATH]
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from torch_peer import common  # noqa: E402

# name -> (family, double, single); the same set as tools/dit-import/regenerate.sh
BLOCKS = {
    "flux_double": ("flux", 1, 0),
    "flux_single": ("flux", 0, 1),
    "sd35_joint": ("sd35", 1, 0),
    "wan21": ("wan21", 1, 0),
    "hunyuan_double": ("hunyuan", 1, 0),
    "hunyuan_single": ("hunyuan", 0, 1),
    "qwen_image": ("qwen_image", 1, 0),
    "hidream_double": ("hidream", 1, 0),
    "hidream_single": ("hidream", 0, 1),
    "ltx_video": ("ltx", 1, 0),
}

VIEW_OPS = {
    "view",
    "_unsafe_view",
    "reshape",
    "permute",
    "transpose",
    "t",
    "unsqueeze",
    "squeeze",
    "expand",
    "slice",
    "select",
    "split",
    "split_with_sizes",
    "unbind",
    "alias",
    "detach",
    "as_strided",
    "getitem",
    "_assert_tensor_metadata",
}


def inductor_kernels(program):
    """Compile with inductor (CPU) on fake inputs; count kernel launches in the wrapper."""
    from torch._guards import detect_fake_mode
    from torch._inductor import config
    from torch._inductor.compile_fx import compile_fx

    cache = tempfile.mkdtemp(prefix="dit-bench-inductor-")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache
    config.fx_graph_cache = False
    gm = program.graph_module
    inputs = [n.meta["val"] for n in program.graph.nodes if n.op == "placeholder"]
    t0 = time.perf_counter()
    with detect_fake_mode(inputs):
        compile_fx(gm, inputs)
    compile_s = time.perf_counter() - t0
    wrappers = [p for p in glob.glob(os.path.join(cache, "**", "*.py"), recursive=True) if "def call(" in open(p).read()]
    if len(wrappers) != 1:
        raise RuntimeError(f"expected one inductor wrapper in {cache}, found {len(wrappers)}")
    code = open(wrappers[0]).read()
    body = code[code.index("def call(") :]
    generated = len(re.findall(r"^\s+cpp_fused_\w+\(", body, re.M))
    extern = len(re.findall(r"^\s+extern_kernels\.\w+\(", body, re.M))
    fallback = len(re.findall(r"^\s+\w+ = torch\.ops\.\w+\.\w+\.\w+\(", body, re.M))
    common.rm_tree(cache)
    return dict(generated=generated, extern=extern + fallback, total=generated + extern + fallback, compile_s=compile_s)


def peer_kernels(program, peer):
    from torch_peer import patterns

    gm = patterns.decompose(program)

    def count(g):
        n = 0
        for node in g.graph.nodes:
            if node.op != "call_function":
                continue
            name = getattr(node.target, "__name__", str(node.target)).split(".")[0]
            if name not in VIEW_OPS:
                n += 1
        return n

    before = count(gm)
    peer(gm)
    return dict(before=before, after=count(gm), fused=patterns.fused_counts(gm))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models", default=",".join(BLOCKS), help="comma-separated, from: " + ", ".join(BLOCKS))
    p.add_argument("--dit-opt", default=None)
    p.add_argument("--no-inductor", action="store_true", help="skip torch.compile (slow: a C++ build per block)")
    p.add_argument("--out", default=os.path.join(common.REPO, "target", "dit-import", "quality"))
    args = p.parse_args()

    from dit_import import exporter, models
    from torch_peer import patterns

    dit_opt = common.find_dit_opt(args.dit_opt)
    run_dit = dit_opt is not None and common.has_convert_pass(dit_opt)
    if not run_dit:
        print(f"NOTE: {common.no_dit_message(dit_opt)}; dit columns left empty.\n")
    peer = patterns.PeerPass()
    rows = []
    for name in args.models.split(","):
        fam, d, s = BLOCKS[name]
        exp = exporter.export(models.FAMILIES[fam], d, s, {"full": False, "qwen_rope": "real"})
        row = {"name": name}
        if run_dit:
            path = os.path.join(args.out, f"{name}.mlir")
            common.import_to_file(exp, path)
            rep = common.dit_report(dit_opt, path)
            row["dit"] = (rep["kernels_before"], rep["kernels_after"])
        row["peer"] = peer_kernels(exp.program, peer)
        if not args.no_inductor:
            row["inductor"] = inductor_kernels(exp.program)
        rows.append(row)
        print(f"{name}: {row}", file=sys.stderr)

    print("| block | dit kernels (before -> after) | torch.compile inductor CPU (generated + extern) | peer: ATen ops after the pattern pass |")
    print("|:--|--:|--:|--:|")
    for r in rows:
        dit = f"{r['dit'][0]} -> **{r['dit'][1]}**" if "dit" in r else "-"
        ind = r.get("inductor")
        ind = f"**{ind['total']}** ({ind['generated']} + {ind['extern']})" if ind else "-"
        pr = r["peer"]
        print(f"| {r['name']} | {dit} | {ind} | {pr['before']} -> **{pr['after']}** |")


if __name__ == "__main__":
    main()
