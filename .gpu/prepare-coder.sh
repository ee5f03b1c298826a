#!/usr/bin/env bash
# Prepares the GPU run of the next wisp-coder, here on the CPU: the corpus's repositories
# (scripts/train/fetch-repos.ts; WISP_TRAIN_REPOS_FROM=DIR reads local copies), the dataset
# (build-dataset.ts in 8 shards), the completion bench's dev half in its tokens (.gpu/dev-cases.ts),
# and the pack that travels (.gpu/pack.ts, checked against `run`'s 64 MiB): .cache/gpu/in. Hours
# on 2 shared cores for the full dataset (5.5M tokens of examples took 7.4 minutes at a load of 30):
# run it in the background under nice. Then `run` .gpu/train-coder.sh (its header has the call).
# Environment: WISP_GPU_DATASET_TOKENS (default 150e6), WISP_TRAIN_DATASET_SEED (1),
# WISP_TRAIN_TOKENIZER (an earlier dataset's tokenizer.json: the examples in its ids),
# WISP_GPU_SOURCES (npm,python,repos), WISP_GPU_CONTEXT (1024), WISP_GPU_DEV_LIMIT (every dev case),
# WISP_GPU_PARAMS (the shape's parameters, for the resume plan), WISP_GPU_DIR (.cache/gpu).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
GPU_DIR="${WISP_GPU_DIR:-.cache/gpu}"
SOURCES="${WISP_GPU_SOURCES:-npm,python,repos}"
log() { printf '[prepare-coder] %s\n' "$*" >&2; }
mkdir -p "$GPU_DIR"
if [[ ",$SOURCES," == *,repos,* ]]; then
  log "the corpus's repositories into .cache/train/repos"
  npx tsx scripts/train/fetch-repos.ts --dir .cache/train/repos ${WISP_TRAIN_REPOS_FROM:+--from "$WISP_TRAIN_REPOS_FROM"}
fi
log "the dataset in $GPU_DIR/data"
npx tsx scripts/train/build-dataset.ts --repos .cache/train/repos --out "$GPU_DIR/data" --sources "$SOURCES" --shards 8 \
  --tokens "${WISP_GPU_DATASET_TOKENS:-150e6}" --context "${WISP_GPU_CONTEXT:-1024}" --seed "${WISP_TRAIN_DATASET_SEED:-1}" \
  ${WISP_TRAIN_TOKENIZER:+--tokenizer "$WISP_TRAIN_TOKENIZER"}
log "the bench's dev half in the dataset's tokens"
npx tsx .gpu/dev-cases.ts --data "$GPU_DIR/data" --out "$GPU_DIR/dev-cases.json" --repos .cache/train/repos --sources "$SOURCES" \
  ${WISP_GPU_DEV_LIMIT:+--limit "$WISP_GPU_DEV_LIMIT"}
log "packing $GPU_DIR/in"
npx tsx .gpu/pack.ts --data "$GPU_DIR/data" --cases "$GPU_DIR/dev-cases.json" --out "$GPU_DIR/in" --checkpoint-params "${WISP_GPU_PARAMS:-25.4e6}"
