#!/usr/bin/env bash
# Sets everything up, then runs the main job on the bundled FLUX.1-dev double-stream block:
#   1. fuse it at real widths and print the fusion report (stderr);
#   2. lower it to an object file and its C header (aclnn calls through the runtime's C ABI):
#      an init entry (the load-time pre-pack of the weights) and a per-call entry, with the
#      launches of each counted in the lowered program;
#   3. check the fusion numerically: the block before and after --fuse-all on the CPU
#      reference runtime (at reduced widths: test/models/exec/flux_double_block.mlir is the
#      same graph; the reference runs plain loops);
#   4. link the compiled object into a C program (examples/c/run_model.c) and check that it
#      computes what the JIT computes, byte for byte;
#   5. generate the Ascend C kernels of the fused groups (--emit=ascendc), build them against
#      the CPU model of the Ascend C API, and run the fused graph through them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$HOME/.cargo/bin:/usr/lib/llvm-22/bin:$PATH"
cargo build --quiet -p dit-run -p dit-runtime
out=target/example
small=test/models/exec/flux_double_block.mlir
rm -rf "$out" && mkdir -p "$out"

echo "== 1. fuse examples/flux_double_block.mlir"
target/debug/dit-opt --fuse-all --fusion-report=text examples/flux_double_block.mlir -o "$out/flux_fused.mlir" "$@"

echo "== 2. lower it: $out/flux_double_block.o and $out/flux_double_block.h"
target/debug/dit-opt "$out/flux_fused.mlir" --emit=obj -o "$out/flux_double_block.o"
target/debug/dit-opt "$out/flux_fused.mlir" --emit=header -o "$out/flux_double_block.h"
target/debug/dit-opt "$out/flux_fused.mlir" --dit-lower-to-aclnn -o "$out/flux_lowered.mlir"
# What the lowered program launches, read off it (each aclnn symbol of a dit_rt_launch kernel).
python3 - "$out/flux_lowered.mlir" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
strings = dict(re.findall(r'llvm\.mlir\.global private constant @(\S+)\("([^"]*?)\\00"', text))
for m in re.finditer(r'func\.func @(\w+)\((.*?)\n  \}', text, re.S):
    name, body = m.group(1), m.group(2)
    addr = dict(re.findall(r'(%\S+) = llvm\.mlir\.addressof @(\S+)', body))
    kernels = [strings[addr[a]] for a in re.findall(r'call @dit_rt_launch\(%\S+, %\S+, (%\S+),', body)]
    n = sum(len(k.split('+')) for k in kernels)
    attrs = re.search(r'dit\.prepack_bytes = (\d+)', m.group(0).split('\n')[0])
    extra = f", {int(attrs.group(1)) / 2**20:.1f} MiB moved once" if attrs else ""
    print(f"   lowered @{name}: {n} launches{extra}")
PY

echo "== 3. numerical check of the fusions ($small)"
target/debug/dit-run "$small" --compare-unfused

echo "== 4. the compiled object in a C program"
target/debug/dit-opt "$small" --fuse-all -o "$out/small_fused.mlir"
target/debug/dit-opt "$out/small_fused.mlir" --emit=obj -o "$out/small.o"
target/debug/dit-opt "$out/small_fused.mlir" --emit=header -o "$out/model.h"
cc -std=c11 -Wall -I lowering/runtime/include -I "$out" -DMODEL_HEADER='"model.h"' \
  -DENTRY=flux_double_block -DPREFIX=FLUX_DOUBLE_BLOCK examples/c/run_model.c \
  "$out/small.o" target/debug/libdit_runtime.a -lpthread -ldl -lm -o "$out/run_model"
target/debug/dit-run "$out/small_fused.mlir" --save-inputs "$out/in" --output-dir "$out/jit" > /dev/null
mkdir -p "$out/c"
"$out/run_model" "$out/in" "$out/c"
for j in 0 1; do
  bytes=$(stat -c %s "$out/c/out_$j.bin")
  cmp <(tail -c "$bytes" "$out/jit/flux_double_block.output$j.npy") "$out/c/out_$j.bin"
done
echo "   the C program's outputs equal the JIT's, byte for byte"

echo "== 5. Ascend C kernels for the fused groups, built against the CPU model of the Ascend C API"
target/debug/dit-opt "$small" --fuse-all --emit=ascendc -o "$out/ascendc"
echo "   without CANN, cmake says so:"
cmake -S "$out/ascendc" -B "$out/ascendc/build-cann" 2>&1 | grep -m1 "CANN toolkit not found" || true
cmake -S "$out/ascendc" -B "$out/ascendc/build" -DDIT_CPU_MODEL=ON > /dev/null
cmake --build "$out/ascendc/build" > /dev/null
echo "   the fused graph again, its dit.fused ops run by the generated kernels:"
DIT_ASCENDC_KERNELS="$out/ascendc/build/libdit_kernels.so" target/debug/dit-run "$small" --compare-unfused
