#!/usr/bin/env bash
# Installs Huawei's AscendNPU-IR compiler (PyPI `ascendnpu-ir`, pinned) into a venv under
# target/bishengir/, with the stand-in hivmc beside it, for the tests that compile every fused
# group with bishengir-compile (issue 15; facts in shared/ASCENDNPU_IR.md). Cached: a second run
# with the same pin does nothing. Never fails the caller: when the wheel cannot be installed
# (offline, no venv module) it writes the reason to target/bishengir/status, and every bishengir
# test reports itself skipped with that reason instead of passing.
set -uo pipefail
cd "$(dirname "$0")/.."

PIN="ascendnpu-ir==1.2.0"
DIR="target/bishengir"
STATUS="$DIR/status"
mkdir -p "$DIR/bin"

if [ -f "$STATUS" ] && [ "$(head -n1 "$STATUS")" = "ok $PIN" ]; then
  echo "setup-bishengir: $PIN already installed in $DIR/venv"
  exit 0
fi

fail() {
  printf 'unavailable: %s\n' "$1" >"$STATUS"
  echo "setup-bishengir: $1 (the bishengir tests will report themselves skipped)" >&2
  exit 0
}

rm -rf "$DIR/venv"
python3 -m venv "$DIR/venv" >"$DIR/install.log" 2>&1 ||
  fail "python3 -m venv failed (see $DIR/install.log; Debian needs python3-venv)"
"$DIR/venv/bin/pip" install --quiet --disable-pip-version-check "$PIN" >>"$DIR/install.log" 2>&1 ||
  fail "pip install $PIN failed (offline? see $DIR/install.log)"

pkg=$("$DIR/venv/bin/python" -c 'import ascendnpuir, os; print(os.path.dirname(ascendnpuir.__file__))' 2>>"$DIR/install.log") ||
  fail "the ascendnpuir package does not import (see $DIR/install.log)"
for tool in bishengir-compile bishengir-compile-a5 bishengir-opt bishengir-opt-a5; do
  [ -f "$pkg/bin/$tool" ] || fail "$pkg/bin/$tool is missing from the wheel"
  # The wheel's bin files may lack the execute bit (shared/ASCENDNPU_IR.md).
  chmod +x "$pkg/bin/$tool"
  ln -sf "$(realpath --relative-to="$DIR/bin" "$pkg/bin/$tool")" "$DIR/bin/$tool"
done
install -m 755 tools/fake-hivmc/hivmc "$DIR/bin/hivmc"
ln -sf hivmc "$DIR/bin/hivmc-a5"
version=$("$DIR/bin/bishengir-compile" --version 2>&1 | head -n1) ||
  fail "bishengir-compile --version failed: $version"
printf 'ok %s\n%s\n' "$PIN" "$version" >"$STATUS"
echo "setup-bishengir: installed $PIN ($version) in $DIR"
