#!/usr/bin/env bash
# Build one package-version environment of a TypeScript target (README "Package versions as an
# axis"): install the committed lock LOCKDIR (package.json + package-lock.json) into BUILD with
# `npm ci`, then copy the target's compiled files (each DIST folder's *.js, e.g.
# dist/targets/mcp-ts-v1 and dist/targets/common) to BUILD/dist/targets/<folder>, so the
# server's bare imports (ESM ignores NODE_PATH) resolve in BUILD/node_modules: that version,
# never the project's own node_modules.
#
#   bash targets/common/build-npm.sh BUILD LOCKDIR DIST...
set -euo pipefail
build=${1:?build folder} lock=${2:?lock folder}
shift 2
[ -f "$lock/package-lock.json" ] || { echo "build-npm: no package-lock.json in $lock — write it with targets/mcp-ts-releases/lock.sh" >&2; exit 1; }
cp "$lock/package.json" "$lock/package-lock.json" "$build/"
# The lock is the whole dependency set: no scripts, no audit; npm's own cache makes a second build quick.
(cd "$build" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
for dist in "$@"; do
  [ -d "$dist" ] || { echo "build-npm: $dist not found — compile the project first: npm run build" >&2; exit 1; }
  mkdir -p "$build/dist/targets/$(basename "$dist")"
  cp "$dist"/*.js "$build/dist/targets/$(basename "$dist")/"
done
