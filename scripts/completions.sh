#!/usr/bin/env bash
# Regenerates the checked-in shell completions from the current command line.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${CAREEM_MCP_BIN:-target/debug/careem-mcp}
cargo build --quiet
"$bin" completions bash > completions/careem-mcp.bash
"$bin" completions zsh > completions/_careem-mcp
"$bin" completions fish > completions/careem-mcp.fish
"$bin" completions powershell > completions/_careem-mcp.ps1
"$bin" completions elvish > completions/careem-mcp.elv
