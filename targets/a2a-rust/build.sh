#!/usr/bin/env bash
# Build the a2a-rust echo agent into OUT: `build.sh OUT` → OUT/bin/a2a-rust.
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
  echo "cargo not found: install Rust (rustup)" >&2
  exit 1
fi

export CARGO_TARGET_DIR="${WIRECOST_CACHE:-$out/target}"
mkdir -p "$out/bin" "$CARGO_TARGET_DIR"
echo "a2a-rust: cargo build --release --locked (target dir $CARGO_TARGET_DIR)" >&2
if ! cargo build --release --locked --manifest-path "$here/Cargo.toml" >&2; then
  echo "cargo build failed: see the cargo output above (Cargo.lock out of date? run cargo generate-lockfile in targets/a2a-rust)" >&2
  exit 1
fi
cp "$CARGO_TARGET_DIR/release/a2a-rust" "$out/bin/a2a-rust"
echo "a2a-rust: built $out/bin/a2a-rust" >&2
