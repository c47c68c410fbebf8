#!/usr/bin/env bash
# Put the mcp-rust target's crate together for one rmcp release in DIR (lock.sh and build.sh use
# it): targets/mcp-rust/src, its build.rs and its Cargo.toml with rmcp pinned to =VERSION and the shared profile
# window's path made absolute. No Cargo.lock is written here.
#
#   bash targets/mcp-rust-releases/crate.sh DIR VERSION
set -euo pipefail
fail() { echo "mcp-rust-releases: $*" >&2; exit 1; }
[ $# -eq 2 ] || fail "usage: crate.sh DIR VERSION"
dir=$1 version=$2
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "VERSION must be a release number such as 3.0.0, got '$version'"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
mkdir -p "$dir"
cp -R "$root/targets/mcp-rust/src" "$dir/src"
# build.rs hands the per-call harness (src/harness.rs) the compiler's and rmcp's versions.
cp "$root/targets/mcp-rust/build.rs" "$dir/build.rs"
grep -q '^rmcp = { version = "=' "$root/targets/mcp-rust/Cargo.toml" || fail "targets/mcp-rust/Cargo.toml: no rmcp = { version = \"=…\" line to pin"
sed -e "s|^rmcp = { version = \"=[^\"]*\"|rmcp = { version = \"=$version\"|" \
  -e "s|path = \"../common/profile-window\"|path = \"$root/targets/common/profile-window\"|" \
  "$root/targets/mcp-rust/Cargo.toml" > "$dir/Cargo.toml"
