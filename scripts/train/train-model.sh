#!/usr/bin/env bash
# npm run train-model [-- --tokens N --threads N --device cuda ...]: trains Wisp's default code
# model and writes models/wisp-coder.gguf, its model card and its list of training files.
#   1. setup: Debian's python3-torch and OpenBLAS (without OpenBLAS, torch's generic BLAS is
#      about 14 times slower here), when missing and the machine allows it;
#   2. the application code of the corpus (scripts/train/fetch-repos.ts: pinned commits from GitHub;
#      WISP_TRAIN_REPOS_FROM=DIR reads local copies instead), then the dataset
#      (scripts/train/build-dataset.ts): corpus, tokenizer, examples;
#   3. training (scripts/train/train.py), progress with tokens/s, loss and ETA;
#   4. the GGUF (scripts/train/export-gguf.ts).
# Reproducible: seeded, and the corpus is what `npm ci` and Debian's python3.11 put on the machine
# plus the repositories at the commits training-repos.ts pins.
# About 70 minutes on 2 CPU cores with the defaults (an hour of it training). Extra arguments go to train.py (see its
# --help for going bigger on a GPU; WISP_TRAIN_DATASET_TOKENS=40e6 builds the larger dataset a GPU run wants). Work files live in .cache/train: with --minutes N a run stops
# after N minutes, checkpointed, and --resume goes on from the checkpoint (see train.py --help).
# WISP_TRAIN_TOKENIZER=FILE builds the examples with an earlier dataset's tokenizer.json, so that
# --init DIR can start from that dataset's model's weights; `npx tsx scripts/train/gguf-weights.ts
# --out DIR` writes both (DIR/tokenizer.json, DIR's weights) from the shipped models/wisp-coder.gguf.
# WISP_TRAIN_DATASET_SEED=N cuts other examples from the same files (a further round's new data).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
WORK="${WISP_TRAIN_DIR:-$ROOT/.cache/train}"
PYTHON="${WISP_PYTHON:-/usr/bin/python3}"
log() { printf '[train-model] %s\n' "$*" >&2; }

source scripts/train/python-torch.sh

mkdir -p "$WORK/data" "$WORK/run"
log "fetching the application code into $WORK/repos"
npx tsx scripts/train/fetch-repos.ts --dir "$WORK/repos" ${WISP_TRAIN_REPOS_FROM:+--from "$WISP_TRAIN_REPOS_FROM"}
log "building the dataset in $WORK/data"
npx tsx scripts/train/build-dataset.ts --repos "$WORK/repos" --out "$WORK/data" --tokens "${WISP_TRAIN_DATASET_TOKENS:-13e6}" \
  --seed "${WISP_TRAIN_DATASET_SEED:-1}" ${WISP_TRAIN_TOKENIZER:+--tokenizer "$WISP_TRAIN_TOKENIZER"}
log "training (progress below; the log is $WORK/train.log)"
"$PYTHON" -u scripts/train/train.py --data "$WORK/data" --out "$WORK/run" "$@" 2>&1 | tee "$WORK/train.log"
npx tsx scripts/train/export-gguf.ts --data "$WORK/data" --weights "$WORK/run" --out models/wisp-coder.gguf --log "$WORK/train.log"
