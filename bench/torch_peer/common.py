"""Shared helpers of the Python benchmarks (bench/compile_time.py, bench/fusion_quality.py)."""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "tools", "dit-import"))

CONVERT_PASS = "dit-convert-torch-to-dit"


def find_dit_opt(explicit=None):
    for cand in [explicit, os.path.join(REPO, "target", "release", "dit-opt"), os.path.join(REPO, "target", "debug", "dit-opt")]:
        if cand and os.path.exists(cand):
            return cand
    return None


def has_convert_pass(dit_opt):
    out = subprocess.run([dit_opt, "--list-passes"], capture_output=True, text=True).stdout
    return f"--{CONVERT_PASS}" in out


def dit_opt_args(path):
    return [path, f"--{CONVERT_PASS}", "--fuse-all"]


def time_dit_opt(dit_opt, path, repeat):
    """Median wall time of the whole dit-opt process (parse, convert, fuse, print to /dev/null),
    the wall times, each run's CPU time (user + system, from the child's rusage) and its major
    page faults: the wall time includes what the process waited for (the CPU, under load;
    pages of its binary read back from disk after the peer's run evicted them), the CPU time
    only what it did."""
    times, cpu, faults = [], [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        p = subprocess.Popen(
            [dit_opt] + dit_opt_args(path) + ["-o", os.devnull],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        stderr = p.stderr.read()
        _, status, usage = os.wait4(p.pid, 0)
        times.append(time.perf_counter() - t0)
        cpu.append(usage.ru_utime + usage.ru_stime)
        faults.append(usage.ru_majflt)
        p.returncode = os.waitstatus_to_exitcode(status)
        p.stderr.close()
        if p.returncode != 0:
            raise RuntimeError(f"dit-opt failed on {path}:\n{stderr.decode(errors='replace')[-3000:]}")
    return statistics.median(times), times, cpu, faults


def dit_pass_times(dit_opt, path):
    """MLIR's --mlir-timing report of one run: {pass name: seconds} (repeated passes summed)."""
    r = subprocess.run(
        [dit_opt] + dit_opt_args(path) + ["--mlir-timing", "-o", os.devnull], capture_output=True, text=True
    )
    if r.returncode != 0:
        raise RuntimeError(f"dit-opt --mlir-timing failed on {path}:\n{r.stderr[-3000:]}")
    times = {}
    for m in re.finditer(r"^\s+([0-9.]+) \(\s*[0-9.]+%\)\s+(\S.*?)\s*$", r.stderr, re.M):
        times[m.group(2)] = times.get(m.group(2), 0.0) + float(m.group(1))
    return times


def dit_report(dit_opt, path):
    r = subprocess.run(
        [dit_opt] + dit_opt_args(path) + ["--fusion-report=json", "-o", os.devnull], capture_output=True, text=True
    )
    if r.returncode != 0:
        raise RuntimeError(f"dit-opt --fusion-report failed on {path}:\n{r.stderr[-3000:]}")
    return json.loads(r.stderr[r.stderr.index("{") :])


def import_to_file(exp, path, func_name="forward"):
    """torch-mlir import of an already exported program (the same one the peer rewrites)."""
    from dit_import import torch_mlir_backend as backend

    t0 = time.perf_counter()
    _native, plain = backend.import_program(exp.program, func_name, exp.arg_names)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(plain)
    return time.perf_counter() - t0


def no_dit_message(dit_opt):
    if dit_opt is None:
        return "dit-opt not found: build it with `cargo build --release -p dit-opt`"
    return (
        f"{dit_opt} has no --{CONVERT_PASS} (see `dit-opt --list-passes`): the dit side needs the "
        "torch-to-dit conversion pass; rerun once it is built"
    )


def fmt_s(x):
    if x is None:
        return "-"
    return f"{x * 1000:.1f} ms" if x < 10 else f"{x:.1f} s"


def rm_tree(path):
    shutil.rmtree(path, ignore_errors=True)
