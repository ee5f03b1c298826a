#!/usr/bin/env bash
# Runs every benchmark in bench/, one after another (they compete for the same 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent build
status=0
for bench in bench/*.bench.ts; do
  echo "=== $bench"
  npx tsx --expose-gc "$bench" || status=$?
done
exit "$status"
