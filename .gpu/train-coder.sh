#!/usr/bin/env bash
# The next wisp-coder on a lent GPU machine: trains the chosen shape from the packed data, checkpoints
# into $OUT as it goes (so a cut run is not lost), evaluates on the completion bench's dev half and
# leaves the weights the GGUF is made of. Runs there, in the repository's root; torch only, no Node.
#
# Before (here, on the CPU): .gpu/prepare-coder.sh packs .cache/gpu/in (dataset shards, dev cases),
# about 50 MiB with the working tree, under `run`'s 64 MiB. Then, the exact call:
#
#   run  command:   OUT=$OUT bash .gpu/train-coder.sh
#        carry:     [".cache/gpu/in"]
#        timeout_s: 600
#
# It trains for WISP_GPU_MINUTES (default 8) of the 10 a command may take, the learning rate fitted
# to decay by then, and writes to $OUT (what comes back: 8 files of at most 16 MiB):
#   train.log       the training log (tokens/s, loss), then the dev half's scores
#   state.json      the schedule's state and the model's shape (train.py --compact-out)
#   weights-N.q8    the weights in q8_0, the GGUF's own blocks (train.py writes them every eighth
#                   of the run: a run cut at its limit still returns the last eighth's)
#   dev-eval.json   the dev half: exact first lines and edit similarity, as the server answers and
#                   the model alone, overall and per project, and every answer
# After (here): .gpu/finish-coder.sh DIR, DIR being where those files came back, makes the GGUF and
# runs the bench's dev half through the real server.
#
# Resuming. A second call on the same machine while it is still warm (within 30 s) goes on from the
# full checkpoint left in .cache/gpu/run (optimizer moments and all): the same command again, to
# the end of the fitted schedule, or further with WISP_GPU_TOKENS. On a fresh machine, put the
# returned state.json and weights-N.q8 in .cache/gpu/in/resume and carry them with the data (leave
# behind the shards .gpu/pack.ts names, so that both fit): the run goes on from those weights and
# that point of the schedule, its optimizer's moments afresh.
#
# Environment: WISP_GPU_MINUTES, WISP_GPU_TOKENS (the schedule's total; default: what fits the
# minutes), WISP_GPU_DEVICE (default cuda), WISP_PYTHON (default python3), WISP_GPU_DIR (default
# .cache/gpu: in/ carried, unpacked/ and run/ made there). Arguments after the
# script go to train.py (after the defaults below, so they win: a smaller shape for a rehearsal).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
: "${OUT:?OUT must name the folder for what comes back}"
PYTHON="${WISP_PYTHON:-python3}"
DEVICE="${WISP_GPU_DEVICE:-cuda}"
MINUTES="${WISP_GPU_MINUTES:-8}"
GPU_DIR="${WISP_GPU_DIR:-.cache/gpu}"
IN="$GPU_DIR/in"
DATA="$GPU_DIR/unpacked"  # not data/, which holds the dataset as built here
RUN="$GPU_DIR/run"
export PYTHONUNBUFFERED=1
mkdir -p "$OUT" "$RUN"
LOG="$OUT/train.log"
log() { printf '[train-coder] %s\n' "$*" | tee -a "$LOG" >&2; }

# The chosen shape (docs/default-model.md, "The next size: more code, and a larger model for a GPU"): 25M parameters, 8 layers of 512.
SHAPE=(--embedding 512 --layers 8 --heads 8 --feed-forward 1024)
SETTINGS=(--batch-tokens 131072 --lr 2e-3 --warmup 200 --middle-weight 3)

[ "$DEVICE" = cpu ] || nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv,noheader | tee -a "$LOG" || true
"$PYTHON" .gpu/unpack.py "$IN" "$DATA" 2>&1 | tee -a "$LOG"

# Where the run goes on from: the full checkpoint a warm machine kept, else the compact one carried.
RESUME=()
TOTAL="${WISP_GPU_TOKENS:-}"
if [ -f "$RUN/checkpoint.pt" ]; then
  RESUME=(--resume)
  [ -n "$TOTAL" ] || TOTAL=$("$PYTHON" -c 'import sys, torch; print(round(torch.load(sys.argv[1], map_location="cpu", weights_only=False)["state"]["tokens"]))' "$RUN/checkpoint.pt")
  log "going on from $RUN/checkpoint.pt to $TOTAL tokens"
elif [ -f "$IN/resume/state.json" ]; then
  RESUME=(--resume --resume-from "$IN/resume")
  [ -n "$TOTAL" ] || TOTAL=$("$PYTHON" -c 'import json, sys; print(round(json.load(open(sys.argv[1]))["state"]["tokens"]))' "$IN/resume/state.json")
  log "going on from $IN/resume (compact) to $TOTAL tokens"
fi
# A fresh run's total is what fits in the minutes (--fit-minutes measures its rate); a hard stop a
# little later leaves room for the evaluation within the command's 10 minutes.
STOP=$("$PYTHON" -c "print($MINUTES + 0.25)")
"$PYTHON" -u scripts/train/train.py --data "$DATA" --out "$RUN" --device "$DEVICE" "${SHAPE[@]}" "${SETTINGS[@]}" \
  --tokens "${TOTAL:-4e9}" --fit-minutes "$MINUTES" --minutes "$STOP" --compact-out "$OUT" "${RESUME[@]}" "$@" 2>&1 | tee -a "$LOG"
"$PYTHON" .gpu/eval_dev.py --cases "$IN/dev-cases.json.xz" --weights "$OUT" --device "$DEVICE" --out "$OUT/dev-eval.json" 2>&1 | tee -a "$LOG"
log "done: $(ls "$OUT" | tr '\n' ' ')"
