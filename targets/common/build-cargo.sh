#!/usr/bin/env bash
# Build the Rust target NAME (the crate in targets/NAME, its binary BIN: NAME with "/" as "-",
# targets/known-cost/rust builds known-cost-rust) into OUT/bin/BIN from its
# committed Cargo.lock only (`cargo build --release --locked`). Cargo's target folder is
# $WIRECOST_CACHE when set (the runner's per-target cache, kept across rebuilds and clones: runner/paths.ts), else OUT/target.
#   bash targets/common/build-cargo.sh NAME OUT      # what targets/NAME/build.sh OUT runs
set -euo pipefail

if [[ $# -ne 2 || "$2" != /* ]]; then
  echo "usage: build-cargo.sh NAME OUT (OUT an absolute path)" >&2
  exit 2
fi
name="$1"
out="$2"
bin="${name//\//-}"
crate="$(cd "$(dirname "${BASH_SOURCE[0]}")/../$name" && pwd)"

if ! command -v cargo >/dev/null 2>&1; then
  echo "$name build: cargo not found on PATH: install Rust (cargo) at the version targets/$name/Cargo.toml names as rust-version, or newer (rustup)" >&2
  exit 1
fi

export CARGO_TARGET_DIR="${WIRECOST_CACHE:-$out/target}"
mkdir -p "$out/bin" "$CARGO_TARGET_DIR"
echo "$name: cargo build --release --locked (target dir $CARGO_TARGET_DIR)" >&2
if ! cargo build --release --locked --manifest-path "$crate/Cargo.toml" >&2; then
  echo "$name build: cargo build failed: see the cargo output above (Cargo.lock out of date? run cargo generate-lockfile in targets/$name)" >&2
  exit 1
fi
cp "$CARGO_TARGET_DIR/release/$bin" "$out/bin/$bin"
echo "$name: built $out/bin/$bin" >&2
