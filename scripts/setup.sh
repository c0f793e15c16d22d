#!/usr/bin/env bash
# Installs everything dit needs on Debian 12 and builds it. Idempotent: installed packages
# and an existing Rust toolchain are kept; a second run only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

# LLVM/MLIR 22 (mlir-opt, mlir-pdll, FileCheck, lit, not), the libraries mlir-sys, tblgen and
# inkwell link, the C/C++ toolchain for the cc crate and bindgen, and cmake for the project
# `dit-opt --emit=ascendc` writes (its tests configure and build it). python3-venv: the venv
# scripts/setup-bishengir.sh installs AscendNPU-IR into.
PACKAGES=(
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools libpolly-22-dev libclang-22-dev
  libzstd-dev libz3-dev libxml2-dev zlib1g-dev
  build-essential pkg-config python3 python3-venv curl ca-certificates git cmake
)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Rust: melior 0.27 needs Rust >= 1.85 (edition 2024), newer than Debian 12's cargo.
if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
  export PATH="$HOME/.cargo/bin:$PATH"
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: installing the Rust toolchain with rustup"
  curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
  export PATH="$HOME/.cargo/bin:$PATH"
fi
if command -v rustup >/dev/null 2>&1; then
  rustup component add rustfmt clippy >/dev/null 2>&1 || true
fi

# Every build script that asks `llvm-config` must get LLVM 22 (.cargo/config.toml sets the
# prefixes too).
export PATH="/usr/lib/llvm-22/bin:$PATH"
cargo build --workspace --quiet
echo "setup: done (dit-opt is target/debug/dit-opt)"
