#!/usr/bin/env bash
# Runs test suites again and again to find flakes: `npm run test:repeat -- [--runs N] [--busy-core]
# SUITE...` where SUITE is unit, server, reliability, vscode, e2e, or `--grep PATTERN` for the VS Code
# tests whose title matches (WISP_VSCODE_GREP). Any other name is refused: a mistyped suite must not
# pass for a title pattern.
# --busy-core keeps one core spinning beside the suites, as a loaded CI machine would. Each run's
# log goes to test-results/repeat/; a line per run and a closing count per suite are printed.
set -uo pipefail
cd "$(dirname "$0")/.."

runs=5
busy=0
suites=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --busy-core) busy=1; shift ;;
    --grep) suites+=("grep:$2"); shift 2 ;;
    unit | server | reliability | vscode | e2e) suites+=("$1"); shift ;;
    *) echo "unknown suite: $1" >&2; suites=(); break ;;
  esac
done
[ ${#suites[@]} -gt 0 ] || { echo "usage: npm run test:repeat -- [--runs N] [--busy-core] [unit|server|reliability|vscode|e2e|--grep 'VS Code test title']..." >&2; exit 2; }

out=test-results/repeat
mkdir -p "$out"
spinner=
if [ "$busy" = 1 ]; then
  node -e "for (;;) {}" &
  spinner=$!
  trap 'kill $spinner 2>/dev/null' EXIT
fi
# The unit and server suites run from source; the others test the built extension.
for suite in "${suites[@]}"; do
  case $suite in
    unit | server) ;;
    *) npm run --silent build >"$out/build.log" 2>&1 && npm run --silent package >>"$out/build.log" 2>&1 || { echo "build failed: $out/build.log" >&2; exit 1; }
       break ;;
  esac
done

declare -A passed
for ((i = 1; i <= runs; i++)); do
  for suite in "${suites[@]}"; do
    name=$(printf '%s' "$suite" | tr -c 'a-zA-Z0-9\n' '-')
    log="$out/$name-$i.log"
    start=$SECONDS
    case $suite in
      unit) npm run --silent test:unit >"$log" 2>&1 ;;
      server) npm run --silent test:server >"$log" 2>&1 ;;
      reliability) npm run --silent test:reliability:short >"$log" 2>&1 ;;
      vscode) npm run --silent test:vscode >"$log" 2>&1 ;;
      e2e) npm run --silent test:e2e >"$log" 2>&1 ;;
      grep:*) WISP_VSCODE_GREP="${suite#grep:}" npm run --silent test:vscode >"$log" 2>&1 ;;
    esac
    status=$?
    # A title pattern that matches no test proves nothing.
    grep -Eq '^ *[1-9][0-9]* (passing|failing)' "$log" || status=1
    [ "$status" -eq 0 ] && passed[$name]=$(( ${passed[$name]:-0} + 1 ))
    tests=$(grep -Eo '^ *[0-9]+ (passing|failing)' "$log" | tr -s ' ' | paste -sd, -)
    echo "run $i $suite: exit $status,${tests:- no report} ($((SECONDS - start)) s) $log"
  done
done
for suite in "${suites[@]}"; do
  name=$(printf '%s' "$suite" | tr -c 'a-zA-Z0-9\n' '-')
  echo "$suite: ${passed[$name]:-0} of $runs runs passed"
done
