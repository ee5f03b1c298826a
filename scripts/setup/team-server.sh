#!/usr/bin/env bash
# Installs what the team-server suites (npm run test:team) and the team benchmark need from
# Debian's packages, when missing and the machine allows it: PostgreSQL (its server binaries in
# /usr/lib/postgresql/N/bin: the tests start throwaway clusters with them) and HAProxy (the load
# balancer in front of the replicas), and openssl (the TLS suite makes the database's certificate
# with it). Idempotent: when all are there it only checks.
set -euo pipefail

log() { printf '[setup-team] %s\n' "$*" >&2; }

missing=()
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
command -v openssl >/dev/null || missing+=(openssl)
if [ ${#missing[@]} -eq 0 ]; then
  log "PostgreSQL, HAProxy and openssl are installed"
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  log "missing Debian packages (${missing[*]}) and cannot apt-get here; install them yourself"
  exit 1
fi
log "apt-get install ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt_log=$(mktemp)
trap 'rm -f "$apt_log"' EXIT
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$apt_log" 2>&1; then
  tail -20 "$apt_log" >&2
  log "apt-get failed"
  exit 1
fi
log "installed ${missing[*]}"
