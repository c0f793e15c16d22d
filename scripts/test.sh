#!/usr/bin/env bash
# Sets everything up, then runs every check: formatting, clippy, unit tests and the whole lit
# suite (cargo test runs lit through tools/dit-opt/tests/lit.rs), the bishengir checks, and the
# docs build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# Huawei's AscendNPU-IR compiler (pip, pinned, cached under target/bishengir/): the tests that
# compile every fused group with it report themselves skipped, with the reason, when it cannot
# be installed.
scripts/setup-bishengir.sh
export PATH="$HOME/.cargo/bin:/usr/lib/llvm-22/bin:$PATH"
cargo fmt --all --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
# --show-output: the counts the checkers print (launches table, commuted variants, mutation
# inputs) appear in the CI log, not only on failure.
cargo test --workspace -- --show-output
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
