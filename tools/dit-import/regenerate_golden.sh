#!/usr/bin/env bash
# Regenerates test/golden/ (golden references: reduced-width graphs, seeded inputs, torch eager's
# outputs; test/golden/README.md). Same interpreter rule as regenerate.sh: PYTHON defaults to
# /work/venv-import/bin/python if it exists, else python3. GOLDEN=DIR writes elsewhere (the case
# names stay), SEED=N changes the seed (the checked-in files use 0).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-$( [ -x /work/venv-import/bin/python ] && echo /work/venv-import/bin/python || echo python3 )}
OUT=${GOLDEN:-test/golden}
SEED=${SEED:-0}
gold() { local case=$1; shift; "$PY" tools/dit-import/dit_import.py "$@" --seed "$SEED" --golden "$OUT/$case"; }
gold flux_double_block --model flux --blocks 1
gold flux_single_block --model flux --blocks 0 --single-blocks 1
gold sd35_joint_block --model sd35 --blocks 1
gold wan21_block --model wan21 --blocks 1
gold hunyuan_video_double_block --model hunyuan --blocks 1
gold hunyuan_video_single_block --model hunyuan --blocks 0 --single-blocks 1
gold qwen_image_block --model qwen_image --blocks 1
gold hidream_double_block --model hidream --blocks 1
gold hidream_single_block --model hidream --blocks 0 --single-blocks 1
gold ltx_video_block --model ltx --blocks 1
gold flux2_double_block --model flux2 --blocks 1
gold flux2_single_block --model flux2 --blocks 0 --single-blocks 1
gold ovis_image_double_block --model ovis_image --blocks 1
gold ovis_image_single_block --model ovis_image --blocks 0 --single-blocks 1
gold longcat_image_double_block --model longcat_image --blocks 1
gold longcat_image_single_block --model longcat_image --blocks 0 --single-blocks 1
gold z_image_block --model z_image --blocks 1
gold helios_block --model helios --blocks 1
gold glm_image_block --model glm_image --blocks 1
gold krea2_block --model krea2 --blocks 1
gold minimax_h3_block --model minimax_h3 --blocks 1
gold stable_audio_block --model stable_audio --blocks 1
gold ltx2_block --model ltx2 --blocks 1
gold hunyuan_video15_block --model hunyuan15 --blocks 1
gold ernie_image_block --model ernie_image --blocks 1
gold cosmos3_block --model cosmos3 --blocks 1
# Whole models (dit_import/whole.py): embedders, timestep/positional embeddings, 2 blocks of each kind, final layer.
gold flux_whole --whole-model --model flux
gold flux2_whole --whole-model --model flux2
gold sd35_whole --whole-model --model sd35
gold wan21_whole --whole-model --model wan21
echo "regenerate_golden.sh: $OUT: $(du -sb "$OUT" | cut -f1) bytes in $(find "$OUT" -type f | wc -l) files" \
  "($(find "$OUT" -name '*.npy' -print0 | du -cb --files0-from=- | tail -1 | cut -f1) bytes of .npy)"
