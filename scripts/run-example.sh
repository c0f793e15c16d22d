#!/usr/bin/env bash
# Sets everything up, then runs the main job on the bundled FLUX.1-dev double-stream block.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$HOME/.cargo/bin:/usr/lib/llvm-22/bin:$PATH"
target/debug/dit-opt --fuse-all --fusion-report=text examples/flux_double_block.mlir "$@"
