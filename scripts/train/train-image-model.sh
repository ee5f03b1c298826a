#!/usr/bin/env bash
# npm run train-image-model [-- --minutes N | --resume | --steps N ...]: trains wisp-tiny-diffusion,
# the default image model, on procedural pictures (scripts/train/image/shapes.py) and writes
# models/wisp-tiny-diffusion (an SD-style ONNX folder) when onnxruntime-node gives what PyTorch gives.
#   1. setup: Debian's python3-torch and OpenBLAS, when missing and the machine allows it;
#   2. the tokenizer: a CLIP-layout BPE vocabulary trained on sample captions;
#   3. training (scripts/train/image/train_image.py): progress with loss, checkpointed;
#   4. the folder (scripts/train/image/assemble-model.ts), with the parity check.
# Reproducible: seeded, every step's pictures drawn from (seed, step). The defaults take about an
# hour on 2 shared CPU cores; the shipped model is the GPU recipe of models/wisp-tiny-diffusion.md
# (--device cuda --workers 14 --batch 1024 --ema 0.999 --steps 5800: 4.5 minutes on one H200).
# Work files live in .cache/train-image: --minutes N stops after N minutes, checkpointed, and
# --resume goes on from there; --init weights-STEP.pt (a kept run's weights, --keep) or --init
# models/wisp-tiny-diffusion (the shipped model's, read from its ONNX files) trains the denoiser
# further from those weights. Extra arguments go to train_image.py (see its --help).
# WISP_IMAGE_GUIDANCE and WISP_IMAGE_GUIDANCE_INTERVAL: the folder's default guidance scale and the
# noise levels it is applied at (6, and sigma above 0.8 and at most 5: chosen for the shipped model
# on the bench's dev prompts, npx tsx bench/image-prompts.bench.ts --prompts dev --seeds 5
# --guidance G --model a copy with another _wisp_guidance_interval; "" for every step).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
WORK="${WISP_TRAIN_DIR:-$ROOT/.cache/train-image}"
PYTHON="${WISP_PYTHON:-/usr/bin/python3}"
log() { printf '[train-image-model] %s\n' "$*" >&2; }

source scripts/train/python-torch.sh

mkdir -p "$WORK/run"
log "training the tokenizer on sample captions"
"$PYTHON" scripts/train/image/train_image.py --tokenizer "$WORK/tokenizer" --out "$WORK/run" --captions 3000 |
  npx tsx scripts/train/image/write-tokenizer.ts --out "$WORK/tokenizer"
log "training (progress below; the log is $WORK/train.log)"
"$PYTHON" -u scripts/train/image/train_image.py --tokenizer "$WORK/tokenizer" --out "$WORK/run" "$@" 2>&1 | tee "$WORK/train.log"
if [ ! -f "$WORK/run/parity.json" ] || [ "$WORK/run/parity.json" -ot "$WORK/run/checkpoint.pt" ]; then
  log "not finished: npm run train-image-model -- --resume goes on"
  exit 0
fi
INTERVAL="${WISP_IMAGE_GUIDANCE_INTERVAL-0.8,5}"
npx tsx scripts/train/image/assemble-model.ts --run "$WORK/run" --tokenizer "$WORK/tokenizer" --out models/wisp-tiny-diffusion \
  --guidance "${WISP_IMAGE_GUIDANCE:-6}" ${INTERVAL:+--guidance-interval "$INTERVAL"}
log "wrote models/wisp-tiny-diffusion; training time and data: $WORK/run/training.json (the card: models/wisp-tiny-diffusion.md)"
