#!/usr/bin/env bash
# Build the Go target NAME (the module in targets/NAME) into OUT/bin/BIN from its committed
# go.mod/go.sum only (`go build -mod=readonly -trimpath`, CGO_ENABLED=0: the targets are pure Go);
# BIN is NAME with "/" as "-" (targets/known-cost/go builds bin/known-cost-go). A go.work beside
# go.mod (the module and targets/common/profilewindow) is Go's workspace mode: the module builds with
# the shared package from its folder, no replace directive; its go.work.sum is committed with it.
# WIRECOST_CACHE, when set, is this target's folder among the runner's build caches; Go's build
# cache (GOCACHE) is the folder _go-build beside it (no target is named so: names are slugs), one
# for every Go target: Go locks and writes its cache entries atomically, so builds running at once
# share it, and a second Go target does not compile the standard library and the shared modules
# again (about 30 s of CPU here). The module cache stays at Go's default.
# MODULE (an absolute folder) builds that module in place of targets/NAME, with the build tags TAGS
# (comma-separated) when given: one release's module assembled by targets/mcp-go-releases/build.sh.
#   bash targets/common/build-go.sh NAME OUT      # what targets/NAME/build.sh OUT runs
#   bash targets/common/build-go.sh NAME OUT MODULE [TAGS]
set -euo pipefail

if [[ $# -lt 2 || $# -gt 4 || -z "$2" ]]; then
  echo "usage: build-go.sh NAME OUT [MODULE [TAGS]] (OUT an absolute path of an empty folder)" >&2
  exit 2
fi
name="$1"
out="$2"
bin="${name//\//-}"
module="${3:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../$name" && pwd)}"
tags="${4:-}"

if ! command -v go >/dev/null 2>&1; then
  echo "$name build: go not found on PATH: install Go at the version targets/$name/go.mod names, or newer (https://go.dev/dl/)" >&2
  exit 1
fi
if [ -n "${WIRECOST_CACHE:-}" ]; then
  export GOCACHE="$(dirname "$WIRECOST_CACHE")/_go-build"
  mkdir -p "$GOCACHE"
fi
export GOFLAGS="-buildvcs=false"
export CGO_ENABLED=0

mkdir -p "$out/bin"
echo "$name build: $(go version) -> $out/bin/$bin" >&2
cd "$module"
if ! go build -mod=readonly -trimpath ${tags:+-tags "$tags"} -o "$out/bin/$bin" .; then
  echo "$name build: go build failed (see above); if a module is missing, check the network to the Go module proxy" >&2
  exit 1
fi
echo "$name build: done" >&2
