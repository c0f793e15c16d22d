#!/usr/bin/env bash
# Regenerates test/models/imported/*.mlir (the checked-in torch-dialect graphs).
# Needs the importer's virtual environment (tools/dit-import/README.md): PYTHON defaults to
# /work/venv-import/bin/python if it exists, else python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-$( [ -x /work/venv-import/bin/python ] && echo /work/venv-import/bin/python || echo python3 )}
OUT=test/models/imported
imp() { "$PY" tools/dit-import/dit_import.py --lit "$@"; }
imp --model flux --blocks 1 -o $OUT/flux_double_block.mlir
imp --model flux --blocks 0 --single-blocks 1 -o $OUT/flux_single_block.mlir
imp --model sd35 --blocks 1 -o $OUT/sd35_joint_block.mlir
imp --model wan21 --blocks 1 -o $OUT/wan21_block.mlir
imp --model hunyuan --blocks 1 -o $OUT/hunyuan_video_double_block.mlir
imp --model hunyuan --blocks 0 --single-blocks 1 -o $OUT/hunyuan_video_single_block.mlir
imp --model qwen_image --blocks 1 -o $OUT/qwen_image_block.mlir
imp --model hidream --blocks 1 -o $OUT/hidream_double_block.mlir
imp --model hidream --blocks 0 --single-blocks 1 -o $OUT/hidream_single_block.mlir
imp --model ltx --blocks 1 -o $OUT/ltx_video_block.mlir
imp --model flux2 --blocks 1 -o $OUT/flux2_double_block.mlir
imp --model flux2 --blocks 0 --single-blocks 1 -o $OUT/flux2_single_block.mlir
imp --model ovis_image --blocks 1 -o $OUT/ovis_image_double_block.mlir
imp --model ovis_image --blocks 0 --single-blocks 1 -o $OUT/ovis_image_single_block.mlir
imp --model longcat_image --blocks 1 -o $OUT/longcat_image_double_block.mlir
imp --model longcat_image --blocks 0 --single-blocks 1 -o $OUT/longcat_image_single_block.mlir
imp --model z_image --blocks 1 -o $OUT/z_image_block.mlir
imp --model hunyuan15 --blocks 1 -o $OUT/hunyuan_video15_block.mlir
imp --model helios --blocks 1 -o $OUT/helios_block.mlir
imp --model ernie_image --blocks 1 -o $OUT/ernie_image_block.mlir
imp --model glm_image --blocks 1 -o $OUT/glm_image_block.mlir
imp --model krea2 --blocks 1 -o $OUT/krea2_block.mlir
imp --model minimax_h3 --blocks 1 -o $OUT/minimax_h3_block.mlir
imp --model stable_audio --blocks 1 -o $OUT/stable_audio_block.mlir
imp --model ltx2 --blocks 1 -o $OUT/ltx2_block.mlir
imp --model cosmos3 --blocks 1 -o $OUT/cosmos3_block.mlir
