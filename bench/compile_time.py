#!/usr/bin/env python3
"""Compile time of dit's fusions against the peer, in one run.

For each graph (FLUX.1-dev: 1, 8 and 64 double-stream blocks, and the full model, 19 double +
38 single blocks) this script

1. builds and exports the block stack once with tools/dit-import (torch.export, meta weights);
2. imports that ExportedProgram with torch-mlir into target/dit-import/<name>.mlir and times
   `dit-opt FILE --dit-convert-torch-to-dit --fuse-all -o /dev/null` as a whole process (parse,
   conversion, every fusion, print), plus one `--mlir-timing` run for the time inside the
   passes;
3. decomposes the same ExportedProgram to the ATen graph MindIE-SD's torch.compile backend sees
   (inductor's decomposition table) and times the peer, a torch._inductor PatternMatcherPass
   with register_replacement patterns for RMSNorm, RoPE, AdaLayerNorm, GELU(tanh), MulAdd and
   SwiGLU (bench/torch_peer/patterns.py), applied until it stops matching, as MindIE applies it;

times both sides alternately (dit-opt, peer, dit-opt, peer, ..., `--repeat` runs each), so
that the machine's load changing during the run reaches both alike, and prints both medians,
the ratio, the fusions each side made, and the scaling ratios
(64 vs 8 blocks: 8.0 is linear). Needs the importer's venv (tools/dit-import/README.md) and a
built dit-opt with the conversion pass. Usage:

    python3 bench/compile_time.py [--sizes 1,8,64,full] [--repeat 3] [--dit-opt PATH]
"""

from __future__ import annotations

import argparse
import copy
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from torch_peer import common  # noqa: E402


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="1,8,64,full", help="comma-separated: block counts and/or 'full'")
    p.add_argument("--repeat", type=int, default=3, help="timed runs per side, alternating dit-opt and peer (medians reported)")
    p.add_argument("--dit-opt", default=None, help="dit-opt binary (default target/release, else target/debug)")
    p.add_argument("--out", default=os.path.join(common.REPO, "target", "dit-import"), help="where graphs go")
    p.add_argument("--peer-only", action="store_true", help="skip dit-opt")
    return p.parse_args()


def main():
    args = parse_args()
    import torch  # fails early without the venv
    from dit_import import exporter, models
    from torch_peer import patterns

    dit_opt = common.find_dit_opt(args.dit_opt)
    run_dit = not args.peer_only and dit_opt is not None and common.has_convert_pass(dit_opt)
    if not run_dit and not args.peer_only:
        print(f"NOTE: {common.no_dit_message(dit_opt)}; timing the peer only.\n")
    family = models.FAMILIES["flux"]
    peer = patterns.PeerPass()
    print(
        f"peer: {len(peer.names)} register_replacement patterns in one PatternMatcherPass "
        f"(registration, once per process: {common.fmt_s(peer.register_s)})"
    )
    if run_dit:
        print(f"dit:  {dit_opt} FILE --dit-convert-torch-to-dit --fuse-all -o /dev/null")
    print()

    rows = []
    for size in args.sizes.split(","):
        if size == "full":
            depth, name = family.full_depth, "flux_full"
        else:
            depth, name = (int(size), 0), f"flux_{size}block"
        label = f"{depth[0]}+{depth[1]}" if depth[1] else f"{depth[0]}"
        t0 = time.perf_counter()
        exp = exporter.export(family, depth[0], depth[1], {"full": size == "full", "qwen_rope": "real"})
        export_s = time.perf_counter() - t0
        path = os.path.join(args.out, f"{name}.mlir")
        import_s = common.import_to_file(exp, path)
        aten_ops = sum(
            1
            for n in exp.program.graph.nodes
            if n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload)
        )

        row = dict(name=name, blocks=label, aten_ops=aten_ops, export_s=export_s, import_s=import_s)
        if run_dit:
            passes = common.dit_pass_times(dit_opt, path)
            row["dit_convert_s"] = passes.get(common.CONVERT_PASS, 0.0)
            row["dit_passes_s"] = sum(v for k, v in passes.items() if k not in ("Total", "Rest"))
            rep = common.dit_report(dit_opt, path)
            row["dit_kernels"] = (rep.get("kernels_before"), rep.get("kernels_after"))
            row["dit_counts"] = {
                k[len("enable_") :]: v.get("effect_times", 0)
                for k, v in rep.get("patterns", {}).items()
                if k.startswith("enable_") and v.get("effect_times", 0)
            }

        t0 = time.perf_counter()
        gm = patterns.decompose(exp.program)
        row["decompose_s"] = time.perf_counter() - t0
        row["peer_nodes_before"] = sum(1 for n in gm.graph.nodes if n.op == "call_function")
        # The two sides alternate (dit, peer, dit, peer, ...), so that a change in the machine's
        # load during the run reaches both medians alike.
        times, dit_times, dit_cpu, dit_faults, counts = [], [], [], [], None
        for _ in range(args.repeat):
            if run_dit:
                _, wall, cpu, faults = common.time_dit_opt(dit_opt, path, 1)
                dit_times += wall
                dit_cpu += cpu
                dit_faults += faults
            g = copy.deepcopy(gm)
            t0 = time.perf_counter()
            peer(g)
            times.append(time.perf_counter() - t0)
            counts = patterns.fused_counts(g)
            row["peer_nodes_after"] = sum(1 for n in g.graph.nodes if n.op == "call_function")
        row["peer_s"], row["peer_runs"], row["peer_counts"] = statistics.median(times), times, counts
        if run_dit:
            row["dit_s"], row["dit_runs"] = statistics.median(dit_times), dit_times
            row["dit_cpu_s"] = statistics.median(dit_cpu)
            row["dit_major_faults"] = dit_faults
        rows.append(row)
        report_row(row, run_dit)
        del gm, exp

    summary(rows, run_dit)


def report_row(r, run_dit):
    print(f"== {r['name']} ({r['blocks']} blocks, {r['aten_ops']} aten ops in the exported graph)")
    print(
        f"   export {common.fmt_s(r['export_s'])}, torch-mlir import {common.fmt_s(r['import_s'])}, "
        f"inductor decomposition {common.fmt_s(r['decompose_s'])} (not timed below)"
    )
    if run_dit:
        kb, ka = r["dit_kernels"]
        print(
            f"   dit:  {common.fmt_s(r['dit_s'])} (dit-opt process, median of "
            f"{', '.join(common.fmt_s(t) for t in r['dit_runs'])}; CPU user + system, median: "
            f"{common.fmt_s(r['dit_cpu_s'])}; major page faults {r['dit_major_faults']}); in passes "
            f"{common.fmt_s(r['dit_passes_s'])} of which conversion {common.fmt_s(r['dit_convert_s'])}; "
            f"kernels {kb} -> {ka}"
        )
        fused = ", ".join(f"{k} {v}" for k, v in sorted(r["dit_counts"].items()))
        print(f"         pattern fusions: {fused}")
    fused = ", ".join(f"{k} {v}" for k, v in sorted(r["peer_counts"].items()))
    print(
        f"   peer: {common.fmt_s(r['peer_s'])} (PatternMatcherPass.apply loop, median of "
        f"{', '.join(common.fmt_s(t) for t in r['peer_runs'])}); ATen nodes "
        f"{r['peer_nodes_before']} -> {r['peer_nodes_after']}; fused: {fused}"
    )
    if run_dit:
        print(f"   ratio peer / dit-opt process: {r['peer_s'] / r['dit_s']:.1f}x")
    print()


def summary(rows, run_dit):
    print("| graph | blocks | aten ops | dit-opt (process) | dit passes | peer pattern pass | peer / dit |")
    print("|:--|--:|--:|--:|--:|--:|--:|")
    for r in rows:
        dit = common.fmt_s(r.get("dit_s")) if run_dit else "-"
        passes = common.fmt_s(r.get("dit_passes_s")) if run_dit else "-"
        ratio = f"{r['peer_s'] / r['dit_s']:.1f}x" if run_dit else "-"
        print(
            f"| {r['name']} | {r['blocks']} | {r['aten_ops']} | {dit} | {passes} | "
            f"{common.fmt_s(r['peer_s'])} | {ratio} |"
        )
    by = {r["name"]: r for r in rows}
    if "flux_8block" in by and "flux_64block" in by:
        a, b = by["flux_8block"], by["flux_64block"]
        line = f"\nscaling 64 vs 8 blocks (8.0 = linear): peer {b['peer_s'] / a['peer_s']:.2f}"
        if run_dit:
            line += f", dit-opt {b['dit_s'] / a['dit_s']:.2f}"
        print(line)
    if "flux_1block" in by and "flux_full" in by:
        a, b = by["flux_1block"], by["flux_full"]
        line = f"full model vs 1 block: peer {b['peer_s'] / a['peer_s']:.1f}x"
        if run_dit:
            line += f", dit-opt {b['dit_s'] / a['dit_s']:.1f}x"
        print(line)


if __name__ == "__main__":
    main()
