#!/usr/bin/env python3
"""DDR after fusion: which tensor round trips remain per imported block, and why.

For each block of test/models/imported/ this runs `dit-opt --dit-convert-torch-to-dit --fuse-all
--fusion-report=json --mlir-print-op-generic --mlir-print-debuginfo` and walks the fused IR with
the cost model's own rules (passes/src/analysis/cost.rs): a kernel is every top-level dit op that is not a
view (reshape, bitcast, broadcast, a split/slice whose outer dims are 1) and not a load-time
pre-pack (a layout op of function arguments read only as weights or rope tables); a dit.fused
region is one kernel. Each kernel's DDR bytes are its operands read plus its results written.
The report's lower bound is every function argument (inputs and weights) read once plus every
result written once, so the excess over it splits exactly into

- round trips: a kernel result written to DDR and read back by other kernels (its write, minus
  the one write the lower bound grants a returned value, plus every read);
- inputs and weights read by more than one kernel (reads beyond the one the bound grants);
- what this script cannot see: kernel-table temporaries (aclnnRmsNorm's rstd, ...) and the size
  change of pre-packed weights, taken as the difference to the report's `ddr_bytes_after`.

Each round trip is classified:

  cube      a Cube kernel (linear, matmul, attention, grouped_matmul, ...) writes or reads it:
            aclnn library kernels take DDR tensors. A second run with --target=ascend950 (the
            only target with aclnnFusedMatmul's activation / x3 epilogues) says which of them an
            epilogue removes (`950 epilogue`), and enable_linear_activation's skip reasons on
            that target at the round trip's ops say why the others stay;
  opaque    an op the vector fuser cannot take (MoE routing, topk, dit.opaque);
  layout    a layout op the lowering materializes as its own copy kernel (transpose, concat,
            cast, a strided split/slice) at either end;
  ub        two vector kernels that a second run with an unlimited UB (target file ub_bytes =
            2^40) merges: the dit-auto-fuse UB model split them;
  skip      a value that stays live across a Cube kernel: its consumer also depends on the
            producer through a Cube kernel (the residual stream around the FFN or the attention),
            so no vector group can hold both ends;
  view      the consumer reads it through a view (a reshape to heads): dit-auto-fuse groups
            ops on one shape and does not fuse across the reshape;
  multi     a value read by several kernels, which dit-auto-fuse does not duplicate;
  other     vector -> vector with none of the above (not attributed).

Stdlib only. Usage:

    python3 bench/ddr_roundtrips.py [--dit-opt PATH] [--models flux_double,...] [--top 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name -> file under test/models/imported (the ten blocks of bench/fusion_quality.py)
BLOCKS = {
    "flux_double": "flux_double_block.mlir",
    "flux_single": "flux_single_block.mlir",
    "sd35_joint": "sd35_joint_block.mlir",
    "wan21": "wan21_block.mlir",
    "hunyuan_double": "hunyuan_video_double_block.mlir",
    "hunyuan_single": "hunyuan_video_single_block.mlir",
    "qwen_image": "qwen_image_block.mlir",
    "hidream_double": "hidream_double_block.mlir",
    "hidream_single": "hidream_single_block.mlir",
    "ltx_video": "ltx_video_block.mlir",
}

CLASSES = ["cube", "opaque", "layout", "ub", "skip", "view", "multi", "other"]
# What today's kernels force (a Cube or opaque boundary, a value live across a Cube kernel);
# the rest is dit's own.
FORCED = ["cube", "opaque", "skip"]
VIEWS = {"dit.reshape", "dit.bitcast", "dit.broadcast", "dit.yield"}
LAYOUT = {"dit.transpose", "dit.concat", "dit.slice", "dit.split", "dit.reshape", "dit.broadcast", "dit.cast"}
CUBE = {"dit.linear", "dit.matmul", "dit.batch_matmul", "dit.attention", "dit.quant_matmul",
        "dit.grouped_matmul", "dit.fused_matmul"}
OPAQUE = {"dit.opaque", "dit.topk", "dit.moe_init_routing", "dit.moe_finalize_routing",
          "dit.argsort", "dit.scatter_add", "dit.index_add"}
# Operand slots a kernel reads as a load-time weight or table (cost.rs reads_as_weight_or_table).
WEIGHT_SLOTS = {"dit.linear": (1, 2), "dit.matmul": (1,), "dit.fused_matmul": (1, 2),
                "dit.quant_matmul": (1, 2), "dit.grouped_matmul": (1, 2), "dit.rope": (1, 2)}
# Element widths as dit_dialect::tensor::Elem::bits counts them (an unknown type counts 32).
ELEM_BITS = {"bf16": 16, "f16": 16, "f32": 32, "i64": 64, "i32": 32, "i8": 8, "f8E4M3FN": 8,
             "f8E5M2": 8, "f8E8M0FNU": 8, "i4": 4, "f4E2M1FN": 4, "i1": 1}


def find_dit_opt(given):
    """`--dit-opt` when given (and only it), else target/release, then target/debug."""
    if given:
        return given if os.access(given, os.X_OK) else None
    for p in [os.path.join(REPO, "target", "release", "dit-opt"),
              os.path.join(REPO, "target", "debug", "dit-opt")]:
        if p and os.access(p, os.X_OK):
            return p
    return None


def split_top(s):
    """Split at commas outside <>, (), [] and {}."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_type(t):
    """(shape, elem, bytes) of a tensor type; None for anything else."""
    m = re.match(r"tensor<(.*)>$", t.strip())
    if not m:
        return None
    parts = m.group(1).split(",")[0].split("x")
    elem, dims = parts[-1], [1 if d == "?" else int(d) for d in parts[:-1]]
    n = 1
    for d in dims:
        n *= d
    bits = ELEM_BITS.get(elem, 32)
    return dims, elem, (n * bits + 7) // 8


class Op:
    def __init__(self, name, results, operands, types_in, types_out, attrs, loc, parent):
        self.name, self.results, self.operands = name, results, operands
        self.types_in, self.types_out, self.attrs, self.loc = types_in, types_out, attrs, loc
        self.parent = parent  # the dit.fused Op, or None at function level
        self.body = []  # ops of a dit.fused region
        self.body_args = []


def human(b):
    for unit in ["B", "KiB", "MiB", "GiB"]:
        if b < 1024 or unit == "GiB":
            return f"{b:.0f} {unit}" if unit == "B" else f"{b:.1f} {unit}"
        b /= 1024


class Module:
    """The top-level function of a dit-opt generic, debuginfo print."""

    def __init__(self, text):
        self.locs = {}
        for line in text.splitlines():
            m = re.match(r"^#(loc\d*) = loc\((.*)\)$", line)
            if m:
                self.locs[m.group(1)] = m.group(2)
        self.types = {}  # value name -> type string
        self.defs = {}  # value name -> (Op, result index)
        self.users = {}  # value name -> [(Op, operand index)]
        self.ops = []  # function-level ops, in order
        self.args = []
        self.returns = []
        fused = None
        for line in text.splitlines():
            s = line.strip()
            if s.startswith("^bb0(") and fused is None and not self.args:
                self.args = self._block_args(s)
                continue
            if s.startswith("^bb0(") and fused is not None:
                fused.body_args = self._block_args(s)
                continue
            if fused is not None and s.startswith("})"):
                self._finish(fused, s[2:])
                fused = None
                continue
            if '"dit.fused"(' in s and s.endswith("({"):
                m = re.match(r"^(%[\w]+)(?::(\d+))? = \"dit.fused\"\((.*?)\) \(\{$", s)
                fused = Op("dit.fused", self._results(m.group(1), m.group(2)),
                           [o for o in m.group(3).split(", ") if o], [], [], "", "", None)
                continue
            m = re.match(r'^(?:(%[\w]+)(?::(\d+))? = )?"([\w.]+)"\((.*?)\)(.*)$', s)
            if not m:
                continue
            op = Op(m.group(3), self._results(m.group(1), m.group(2)),
                    [o for o in m.group(4).split(", ") if o], [], [], "", "", fused)
            if op.name == "func.return":
                self.returns = op.operands
                continue
            if op.name.startswith("func.") or op.name.startswith("builtin."):
                continue
            self._finish(op, m.group(5))

    def _resolve(self, loc):
        """A location with its aliases expanded, the buffer name dropped (`L:C`)."""
        for _ in range(8):
            expanded = re.sub(r"#(loc\d*)", lambda a: self.locs.get(a.group(1), a.group(0)), loc.strip())
            if expanded == loc:
                break
            loc = expanded
        return re.sub(r'"[^"]*":(\d+):(\d+)', r"\1:\2", loc)

    def _block_args(self, s):
        names = re.findall(r"(%arg\d+): (tensor<[^>]*>|[\w]+)", s)
        for n, t in names:
            self.types[n] = t
        return [n for n, _ in names]

    @staticmethod
    def _results(base, count):
        if base is None:
            return []
        if count is None:
            return [base]
        return [f"{base}#{i}" for i in range(int(count))]

    def _finish(self, op, rest):
        i = rest.rfind(" loc(")
        if i >= 0:
            op.loc = self._resolve(rest[i + 5:-1])
            rest = rest[:i]
        j = rest.rfind(" : (")
        op.attrs = rest[:j]
        sig = rest[j + 4:]
        ins, outs = sig.split(") -> ", 1)
        op.types_in = split_top(ins)
        outs = outs.strip()
        op.types_out = split_top(outs[1:-1]) if outs.startswith("(") else [outs]
        for r, t in zip(op.results, op.types_out):
            self.types[r] = t
            self.defs[r] = (op, op.results.index(r))
        for k, v in enumerate(op.operands):
            self.users.setdefault(v, []).append((op, k))
        if op.parent is not None:
            op.parent.body.append(op)
        else:
            self.ops.append(op)

    def bytes(self, v):
        t = parse_type(self.types.get(v, ""))
        return t[2] if t else 0

    def attr_int(self, op, key):
        m = re.search(rf"\b{key} = (-?\d+)", op.attrs)
        return int(m.group(1)) if m else None

    def is_view(self, op):
        if op.name in VIEWS:
            return True
        if op.name not in ("dit.split", "dit.slice"):
            return False
        t = parse_type(op.types_in[0]) if op.types_in else None
        dim = self.attr_int(op, "dim")
        if t is None or dim is None:
            return False
        dim = dim + len(t[0]) if dim < 0 else dim
        step_ok = op.name == "dit.split" or self.attr_int(op, "step") == 1
        return 0 <= dim < len(t[0]) and step_ok and all(d == 1 for d in t[0][:dim])

    def consumed_at_load(self, v, depth=0):
        if depth >= 8:
            return False
        for u, k in self.users.get(v, []):
            if u.name == "dit.fused":
                if not all(self.consumed_at_load(u.body_args[i], depth + 1)
                           for i, o in enumerate(u.operands) if o == v):
                    return False
            elif k in WEIGHT_SLOTS.get(u.name, ()):
                continue
            elif u.name in LAYOUT and all(self.consumed_at_load(r, depth + 1) for r in u.results):
                continue
            else:
                return False
        return True

    def is_prepack(self, op, depth=0):
        if depth >= 8 or op.name not in LAYOUT or not op.results or op.parent is not None:
            return False
        for v in op.operands:
            d = self.defs.get(v)
            if d is None:
                if v not in self.args:
                    return False
            elif not self.is_prepack(d[0], depth + 1):
                return False
        return all(self.consumed_at_load(r) for r in op.results)

    def inner_key(self, fused_or_op, index):
        """Identity of a kernel result across runs: the innermost op that computes it."""
        op = fused_or_op
        if op.name == "dit.fused":
            y = next(o for o in op.body if o.name == "dit.yield")
            v = y.operands[index]
            d = self.defs.get(v)
            if d is None:
                        return ("arg", "", self.types.get(v))
            op, index = d
        # No op name: a rewrite (a FusedMatmul epilogue) may keep the location, not the op.
        return (op.loc, index, op.types_out[index] if index < len(op.types_out) else "")


def kernel_label(m, op):
    if op.name == "dit.fused":
        kernel = re.search(r'kernel = "([^"]+)"', op.attrs)
        names = [o.name[4:] for o in op.body if o.name != "dit.yield"]
        return f"{kernel.group(1) if kernel else 'fused'}[{'+'.join(names)}]"
    return op.name[4:]


def readers_inside(m, fused, value):
    """The ops of a dit.fused body that read the body argument `value` arrives as."""
    out = []
    for i, o in enumerate(fused.operands):
        if o == value:
            out += [u for u, _ in m.users.get(fused.body_args[i], [])]
    return out


def trip_points(m, t):
    """`line:col` of the ops at both ends of a round trip (inner ops of a dit.fused)."""
    locs = [t["key"][0]]
    for c, v in t["consumers"]:
        locs += [u.loc for u in readers_inside(m, c, v)] if c.name == "dit.fused" else [c.loc]
    return {pt for loc in locs for pt in re.findall(r"\d+:\d+", loc or "")}


def analyse(text):
    m = Module(text)
    kinds = {}
    for op in m.ops:
        if m.is_view(op):
            kinds[id(op)] = "view"
        elif m.is_prepack(op):
            kinds[id(op)] = "prepack"
        else:
            kinds[id(op)] = "kernel"
    kernels = [op for op in m.ops if kinds[id(op)] == "kernel"]

    def source(v):
        """Follow views up to the kernel result, argument or pre-packed value behind `v`."""
        while True:
            d = m.defs.get(v)
            if d is None:
                return ("arg", v)
            op, _ = d
            if kinds[id(op)] == "view":
                v = op.operands[0]
                continue
            if kinds[id(op)] == "prepack":
                return ("prepack", v)
            return ("kernel", v)

    total = 0
    trips = {}  # kernel result -> dict
    input_reads = {}  # arg / pre-packed value -> [bytes per read]
    for k in kernels:
        for v in k.results:
            trips[v] = dict(value=v, producer=k, write=m.bytes(v), reads=[], consumers=[], returned=0)
            total += m.bytes(v)
    for k in kernels:
        for v in k.operands:
            b = m.bytes(v)
            total += b
            kind, s = source(v)
            if kind == "kernel":
                trips[s]["reads"].append(b)
                trips[s]["consumers"].append((k, v))
            else:
                input_reads.setdefault(s, []).append(b)
    returned = 0
    for v in m.returns:
        b = m.bytes(v)
        returned += b
        kind, s = source(v)
        if kind == "kernel":
            trips[s]["returned"] += b
    args = sum(m.bytes(a) for a in m.args)
    extra_inputs = sum(sum(r) for r in input_reads.values()) - args
    out = []
    for t in trips.values():
        t["traffic"] = t["write"] + sum(t["reads"]) - t["returned"]
        if t["traffic"] <= 0:
            continue
        t["key"] = m.inner_key(t["producer"], t["producer"].results.index(t["value"]))
        out.append(t)
    multi_inputs = sorted(((s, len(r), sum(r) - m.bytes(s) if s in m.args else sum(r))
                           for s, r in input_reads.items() if len(r) > 1), key=lambda x: -x[2])
    # Kernels each kernel depends on (transitively), and whether through a Cube kernel.
    after = {}
    for k in kernels:
        for v in k.operands:
            kind, s = source(v)
            if kind == "kernel":
                after.setdefault(id(m.defs[s][0]), set()).add(k)

    def reaches_via_cube(p, c):
        """Whether `c` depends on `p` through a path that passes a Cube kernel."""
        seen, stack = set(), [(n, n.name in CUBE) for n in after.get(id(p), ()) if n is not c]
        while stack:
            n, cube = stack.pop()
            if (id(n), cube) in seen:
                continue
            seen.add((id(n), cube))
            for nxt in after.get(id(n), ()):
                if nxt is c and cube:
                    return True
                stack.append((nxt, cube or nxt.name in CUBE))
        return False

    for t in out:
        t["skip"] = any(reaches_via_cube(t["producer"], c) for c, _ in t["consumers"])
        t["via_view"] = any(v != t["value"] for _, v in t["consumers"])
    return dict(module=m, trips=out, total=total, lower_bound=args + returned,
                extra_inputs=extra_inputs, multi_inputs=multi_inputs)


def classify(a, t, no_ub_keys, epilogue_keys, epilogue_skips):
    m = a["module"]
    p = t["producer"]
    cons = [c for c, _ in t["consumers"]]
    ends = [p] + cons
    distinct = len({id(c) for c in cons})

    def names(op):
        return [o.name for o in op.body] if op.name == "dit.fused" else [op.name]

    if any(n in OPAQUE for e in ends for n in names(e)):
        return "opaque", ""
    if p.name in CUBE or any(c.name in CUBE for c in cons):
        why = []
        if p.name in CUBE:
            firsts = sorted({r.name[4:] for c, v in t["consumers"] if c.name not in CUBE
                             for r in (readers_inside(m, c, v) if c.name == "dit.fused" else [c])})
            why.append(f"{p.name[4:]} output" + (f" -> {','.join(firsts)}" if firsts else " -> cube"))
        else:
            why.append(f"{','.join(sorted({c.name[4:] for c in cons if c.name in CUBE}))} input")
        if t["key"] not in epilogue_keys:
            why.append("on ascend950 a FusedMatmul epilogue takes this end")
        else:
            why += sorted({epilogue_skips[pt] for pt in trip_points(m, t) if pt in epilogue_skips})
        return "cube", "; ".join(why)
    if p.name in LAYOUT or any(c.name in LAYOUT for c in cons):
        return "layout", ",".join(sorted({e.name[4:] for e in ends if e.name in LAYOUT}))
    if t["key"] not in no_ub_keys:
        return "ub", ""
    if t["skip"]:
        return "skip", ""
    if t["via_view"]:
        return "view", ""
    if distinct > 1:
        return "multi", f"{distinct} kernels"
    return "other", ""


def run(dit_opt, path, target=None):
    cmd = [dit_opt, "--dit-convert-torch-to-dit", "--fuse-all", "--fusion-report=json",
           "--mlir-print-op-generic", "--mlir-print-debuginfo", path]
    if target:
        cmd.insert(1, f"--target={target}")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{r.stderr[-2000:]}")
    i = r.stderr.find("{")
    return r.stdout, json.loads(r.stderr[i:])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dit-opt", default=None)
    p.add_argument("--models", default=",".join(BLOCKS))
    p.add_argument("--top", type=int, default=5)
    p.add_argument("--json", action="store_true", help="print the per-block data as JSON")
    args = p.parse_args()
    dit_opt = find_dit_opt(args.dit_opt)
    if dit_opt is None:
        print(f"no dit-opt at {args.dit_opt or 'target/{release,debug}'}: build it with "
              "`cargo build -p dit-opt`", file=sys.stderr)
        return 1
    scratch = tempfile.mkdtemp(prefix="dit-ddr-")
    big_ub = os.path.join(scratch, "big_ub.toml")
    with open(big_ub, "w") as f:
        f.write('name = "ascend910b-unlimited-ub"\nbase = "ascend910b"\nub_bytes = 1099511627776\n')
    rows = []
    try:
        for name in args.models.split(","):
            path = os.path.join(REPO, "test", "models", "imported", BLOCKS[name])
            text, report = run(dit_opt, path)
            a = analyse(text)
            ub_text, ub_report = run(dit_opt, path, big_ub)
            e_text, e_report = run(dit_opt, path, "ascend950")
            no_ub_keys = {x["key"] for x in analyse(ub_text)["trips"]}
            epilogue_keys = {x["key"] for x in analyse(e_text)["trips"]}
            # enable_linear_activation's reasons on ascend950, by `line:col` of the match.
            epilogue_skips = {
                e["location"].rsplit(":", 2)[-2] + ":" + e["location"].rsplit(":", 2)[-1]:
                e["detail"].split(" (aclnn error")[0]
                for e in e_report["patterns"].get("enable_linear_activation", {}).get("skipped", [])}
            by_class = {c: 0 for c in CLASSES}
            items = []
            for t in a["trips"]:
                cls, why = classify(a, t, no_ub_keys, epilogue_keys, epilogue_skips)
                by_class[cls] += t["traffic"]
                m = a["module"]
                items.append(dict(bytes=m.bytes(t["value"]), traffic=t["traffic"], cls=cls, why=why,
                                  producer=kernel_label(m, t["producer"]),
                                  consumers=sorted({kernel_label(m, c) for c, _ in t["consumers"]}),
                                  returned=t["returned"] > 0, loc=t["key"][0]))
            items.sort(key=lambda x: -x["traffic"])
            lb, after = report["lower_bound_bytes"], report["ddr_bytes_after"]
            if a["lower_bound"] != lb:
                print(f"{name}: lower bound {a['lower_bound']} here, {lb} in the report", file=sys.stderr)
            rows.append(dict(block=name, ratio=after / lb,
                             ratio_unlimited_ub=ub_report["ddr_bytes_after"] / ub_report["lower_bound_bytes"],
                             ratio_ascend950=e_report["ddr_bytes_after"] / e_report["lower_bound_bytes"], after=after, lower_bound=lb, counted=a["total"],
                             by_class=by_class, extra_inputs=a["extra_inputs"],
                             unseen=after - a["total"], round_trips=items,
                             floor=(lb + sum(by_class[c] for c in FORCED) + a["extra_inputs"]) / lb,
                             multi_inputs=[(s, n, b) for s, n, b in a["multi_inputs"]]))
    finally:
        for f in os.listdir(scratch):
            os.remove(os.path.join(scratch, f))
        os.rmdir(scratch)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    gib = lambda b: f"{b / 2**30:.2f}"
    print("DDR bytes in GiB: after fusion, lower bound, and the excess split by round-trip class;")
    print("`inputs`: inputs/weights read by several kernels; `unseen`: kernel temporaries and")
    print("pre-pack size changes (report total minus what the IR walk counts). `floor`: bound +")
    print("cube + opaque + skip + inputs over the bound, the ratio with every other class removed.\n")
    print("| block | after / bound | floor | unlimited UB | ascend950 | after | bound | " + " | ".join(CLASSES)
          + " | inputs | unseen |")
    print("|:--|--:|--:|--:|--:|--:|--:|" + "--:|" * (len(CLASSES) + 2))
    for r in rows:
        print(f"| {r['block']} | {r['ratio']:.2f}x | {r['floor']:.2f}x | {r['ratio_unlimited_ub']:.2f}x | {r['ratio_ascend950']:.2f}x | "
              f"{gib(r['after'])} | {gib(r['lower_bound'])} | "
              + " | ".join(gib(r["by_class"][c]) for c in CLASSES)
              + f" | {gib(r['extra_inputs'])} | {gib(r['unseen'])} |")
    for r in rows:
        print(f"\n{r['block']} ({r['ratio']:.2f}x): {len(r['round_trips'])} round trips; largest:")
        for t in r["round_trips"][: args.top]:
            why = f" ({t['why']})" if t["why"] else ""
            ret = ", also returned" if t["returned"] else ""
            print(f"  {human(t['traffic']):>10} {t['cls']:<6}{why}: {human(t['bytes'])} tensor{ret}, "
                  f"{t['producer']} -> {'; '.join(t['consumers'])}  @ {t['loc']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
