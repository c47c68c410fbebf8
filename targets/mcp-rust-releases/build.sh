#!/usr/bin/env bash
# Build the mcp-rust target at one rmcp release of the releases report (matrices/mcp-sdk-releases.yaml)
# into OUT/bin/mcp-rust: the target's crate put together for that release in OUT/src (crate.sh:
# targets/mcp-rust/src, its Cargo.toml with rmcp pinned to =VERSION) with the release's committed
# Cargo.lock (locks/<version>/), built by `cargo build --release --locked`. Cargo's target folder
# is $WIRECOST_CACHE when set (the runner's per-build cache, kept across rebuilds and clones: runner/paths.ts), else OUT/target.
#
#   bash targets/mcp-rust-releases/build.sh OUT VERSION      # e.g. VERSION 3.0.0
set -euo pipefail
fail() { echo "mcp-rust-releases build: $*" >&2; exit 1; }
[ $# -eq 2 ] || fail "usage: build.sh OUT VERSION (OUT an absolute path of an empty folder)"
out=$1 version=$2
case "$out" in /*) ;; *) fail "OUT must be an absolute path, got '$out'" ;; esac
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
lock="$here/locks/$version/Cargo.lock"
[ -f "$lock" ] || fail "no lock for $version in $here/locks/$version: write it with bash targets/mcp-rust-releases/lock.sh $version"
command -v cargo >/dev/null 2>&1 || fail "cargo not found on PATH: install Rust (cargo) 1.94 or later (rustup)"
src="$out/src"
bash "$here/crate.sh" "$src" "$version"
cp "$lock" "$src/Cargo.lock"
export CARGO_TARGET_DIR="${WIRECOST_CACHE:-$out/target}"
mkdir -p "$out/bin" "$CARGO_TARGET_DIR"
echo "mcp-rust@$version: cargo build --release --locked (target dir $CARGO_TARGET_DIR)" >&2
cargo build --release --locked --manifest-path "$src/Cargo.toml" >&2 || fail "cargo build failed at rmcp $version: see the cargo output above"
cp "$CARGO_TARGET_DIR/release/mcp-rust" "$out/bin/mcp-rust"
echo "mcp-rust@$version: built $out/bin/mcp-rust" >&2
