#!/usr/bin/env bash
# After a GPU run (.gpu/train-coder.sh): the weights it returned (state.json and weights-N.q8, in
# DIR) become a GGUF through the project's writer, with the dataset's tokenizer (.cache/gpu/data),
# and the completion bench's dev half runs through the real server on it. models/ is not touched:
# the candidate is .cache/gpu/wisp-coder-next.gguf, its card beside it.
#   bash .gpu/finish-coder.sh DIR [FIM_BENCH_SPLIT (default dev)]
# WISP_GPU_TYPE=q5_0 (or q4_0) writes the blocks' matrices in fewer bits (docs/default-model.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
DIR="${1:?the folder that the run returned its files in}"
GPU_DIR="${WISP_GPU_DIR:-.cache/gpu}"
MODEL="$GPU_DIR/wisp-coder-next.gguf"
npx tsx scripts/train/export-gguf.ts --data "$GPU_DIR/data" --weights "$DIR" --out "$MODEL" --name wisp-coder --type "${WISP_GPU_TYPE:-q8_0}" --notes /dev/null --log "$DIR/train.log"
[ "${WISP_GPU_BENCH:-1}" = 0 ] || FIM_BENCH_MODEL="$MODEL" FIM_BENCH_SPLIT="${2:-dev}" FIM_BENCH_BASELINES=0 npx tsx bench/fim-quality.bench.ts
