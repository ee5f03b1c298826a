# Sourced by the training scripts: Debian's python3-torch and OpenBLAS (without OpenBLAS, torch's
# generic BLAS is about 14 times slower here) for $PYTHON, installed when missing and the machine
# allows it. Needs log() and PYTHON.
missing=()
"$PYTHON" -c "import torch" 2>/dev/null || missing+=(python3-torch)
dpkg -s libopenblas0-pthread >/dev/null 2>&1 || missing+=(libopenblas0-pthread)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    log "missing Debian packages (${missing[*]}) and cannot apt-get here; install them yourself"
    exit 1
  fi
  log "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
