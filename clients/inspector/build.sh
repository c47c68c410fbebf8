#!/usr/bin/env bash
# Build the MCP Inspector client into OUT: exactly the packages pinned in package-lock.json
# (npm ci, install scripts off), outside the project's own node_modules. Run its CLI as
# `node OUT/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js --cli ...`.
#
#   bash clients/inspector/build.sh OUT     # OUT: absolute path of an empty folder
#
# Env: WIRECOST_CACHE (optional): a folder kept between builds, used as npm's cache.
set -euo pipefail

fail() { echo "inspector build: $*" >&2; exit 1; }

[ $# -eq 1 ] || fail "usage: build.sh OUT (an absolute path of an empty folder)"
OUT=$1
case "$OUT" in /*) ;; *) fail "OUT must be an absolute path, got '$OUT'" ;; esac
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$OUT" || fail "cannot create $OUT"
command -v npm >/dev/null 2>&1 || fail "npm not found on PATH: install Node.js 20 with npm"

cp "$HERE/package.json" "$HERE/package-lock.json" "$OUT/"
cache=()
[ -n "${WIRECOST_CACHE:-}" ] && cache=(--cache "$WIRECOST_CACHE/npm")
echo "inspector build: npm ci in $OUT" >&2
(cd "$OUT" && npm ci --ignore-scripts --no-audit --no-fund "${cache[@]}" >&2) || fail "npm ci failed (see above)"
[ -f "$OUT/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js" ] || fail "the Inspector's CLI is missing after npm ci"
