#!/usr/bin/env bash
# The one test command: type-check, build, then every suite the project has, in order of cost.
# Prints one closing line with the totals; exits non-zero on the first failing step.
set -euo pipefail
cd "$(dirname "$0")/.."

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
passed=0
failed=0
times=""

# Sum of mocha's "N passing" (or failing) lines in a log; 0 when there are none.
count() {
  awk -v word="$1" '$2 == word && $1 ~ /^[0-9]+$/ {s += $1} END {print s + 0}' "$2"
}

# Runs one step, echoing its output, and adds the mocha counts it prints to the totals.
step() {
  local name=$1; shift
  echo "=== $name: $*"
  local start=$SECONDS status=0
  "$@" 2>&1 | tee "$logs/$name.log" || status=$?
  local p f
  p=$(count passing "$logs/$name.log")
  f=$(count failing "$logs/$name.log")
  passed=$((passed + p)); failed=$((failed + f))
  echo "=== $name: exit $status, $p passing, $f failing, $((SECONDS - start)) s"
  times+=$(printf '  %-12s %5d s  %4d passing  %d failing' "$name" $((SECONDS - start)) "$p" "$f")$'\n'
  if [ "$status" -ne 0 ]; then
    printf 'Time per step:\n%s' "$times"
    echo "Tests: $passed passed, $((failed > 0 ? failed : 1)) failed"
    exit "$status"
  fi
}

step typecheck npm run --silent typecheck
step build npm run --silent build
step native npm run --silent build:native
step unit npm run --silent test:unit
step server npm run --silent test:server
# The short form of `npm run test:reliability` (fuzz, load, disconnects, limits, key store, secrets).
step reliability npm run --silent test:reliability:short
# Every platform's package and the universal one (npm run package -- --all), their contents checked.
step package npm run --silent test:package
step setup bash scripts/setup-vscode.sh
# The chat view's and the console's pages in headless Chromium (installed by setup): streamed
# Markdown against a reload, notices, the agent's steps, the playground.
step webview npm run --silent test:webview
# Replicas on PostgreSQL behind HAProxy (both installed by setup): consistency, drain, outages, faults.
step team npm run --silent test:team
step vscode npm run --silent test:vscode
# A workspace of two folders (.code-workspace): chat paths, Apply, the agent and Undo name one file each.
step multiroot npm run --silent test:vscode:multiroot
# A folder VS Code does not trust (Restricted Mode): Wisp runs, limited, and the folder's settings cannot point it elsewhere.
step restricted npm run --silent test:vscode:restricted
# The smoke suites again, in the oldest VS Code that package.json's engines.vscode accepts.
step vscode-oldest npm run --silent test:vscode:oldest
step e2e npm run --silent test:e2e
printf 'Time per step:\n%s  %-12s %5d s\n' "$times" total "$SECONDS"
echo "Tests: $passed passed, $failed failed"
