#!/usr/bin/env bash
# deploy/nginx.conf checked: nginx (Debian's, installed when missing) in front of three
# `careem-mcp serve` instances on free loopback ports sharing one project folder, with the
# TypeScript SDK client through it (tests/interop/cluster.mjs says what is checked).
#
#   scripts/nginx-check.sh [RUN...]     # each RUN also checked at /mcp/<run>
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v nginx >/dev/null; then
  as_root=""
  [ "$(id -u)" -eq 0 ] || as_root="sudo"
  $as_root apt-get update
  # Installing starts no nginx of its own here (no init system); the check starts its own.
  $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y nginx
fi

cargo build --quiet
(cd tests/interop && npm ci --no-audit --no-fund --silent)
node tests/interop/cluster.mjs "${CARGO_TARGET_DIR:-target}/debug/careem-mcp" . "$@"
