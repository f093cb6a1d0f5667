#!/usr/bin/env bash
# deploy/nginx-runs.conf checked: nginx (Debian's, installed when missing) in front of three
# `careem-mcp serve --stateful --admin` instances on free loopback ports, each with a project
# folder of its own, every control through `careem-mcp --server` pointed at nginx
# (tests/interop/runs-cluster.mjs says what is checked).
#
#   scripts/nginx-runs-check.sh
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
node tests/interop/runs-cluster.mjs "${CARGO_TARGET_DIR:-target}/debug/careem-mcp" .
