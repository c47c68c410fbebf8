#!/usr/bin/env bash
# Build the mcp-rust MCP server (rmcp) into OUT: `build.sh OUT` → OUT/bin/mcp-rust.
# Installs only from Cargo.lock (`cargo build --release --locked`). Cargo's target folder is
# $WIRECOST_CACHE when set (a persistent per-target cache), else OUT/target.
set -euo pipefail

if [[ $# -ne 1 || "$1" != /* ]]; then
  echo "usage: build.sh OUT (an absolute path)" >&2
  exit 2
fi
out="$1"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if ! command -v cargo >/dev/null 2>&1; then
  echo "mcp-rust build: cargo not found on PATH: install Rust 1.94 or newer (rustup)" >&2
  exit 1
fi

export CARGO_TARGET_DIR="${WIRECOST_CACHE:-$out/target}"
mkdir -p "$out/bin" "$CARGO_TARGET_DIR"
echo "mcp-rust: cargo build --release --locked (target dir $CARGO_TARGET_DIR)" >&2
if ! cargo build --release --locked --manifest-path "$here/Cargo.toml" >&2; then
  echo "mcp-rust build: cargo build failed: see the cargo output above (Cargo.lock out of date? run cargo generate-lockfile in targets/mcp-rust)" >&2
  exit 1
fi
cp "$CARGO_TARGET_DIR/release/mcp-rust" "$out/bin/mcp-rust"
echo "mcp-rust: built $out/bin/mcp-rust" >&2
