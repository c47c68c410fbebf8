#!/usr/bin/env bash
# Write the committed lock of one rmcp release of the releases report
# (matrices/mcp-sdk-releases.yaml): locks/<version>/Cargo.lock of the mcp-rust target's crate with
# rmcp at that release, made from targets/mcp-rust/Cargo.lock by `cargo update -p rmcp --precise
# VERSION` (the other crates stay at the target's own pins where the release allows; what the
# release requires beside them is resolved from crates.io). Nothing is built here.
#
#   bash targets/mcp-rust-releases/lock.sh 3.0.0
set -euo pipefail
version=${1:?usage: lock.sh VERSION (an rmcp release, e.g. 3.0.0)}
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$here/crate.sh" "$work" "$version"
cp "$root/targets/mcp-rust/Cargo.lock" "$work/Cargo.lock"
cargo update --manifest-path "$work/Cargo.toml" -p rmcp --precise "$version"
mkdir -p "$here/locks/$version"
cp "$work/Cargo.lock" "$here/locks/$version/"
echo "$here/locks/$version"
