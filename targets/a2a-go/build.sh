#!/usr/bin/env bash
# Build the a2a-go echo agent into OUT/bin/a2a-go from the committed go.mod/go.sum only (-mod=readonly).
#   bash targets/a2a-go/build.sh OUT
# WIRECOST_CACHE, when set, holds Go's build cache (GOCACHE); the module cache stays at Go's default.
set -euo pipefail

if [ $# -ne 1 ] || [ -z "$1" ]; then
  echo "usage: build.sh OUT (an absolute path of an empty folder)" >&2
  exit 2
fi
out=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if ! command -v go >/dev/null 2>&1; then
  echo "a2a-go build: go not found on PATH: install Go 1.25 or newer (https://go.dev/dl/)" >&2
  exit 1
fi
if [ -n "${WIRECOST_CACHE:-}" ]; then
  mkdir -p "$WIRECOST_CACHE/gocache"
  export GOCACHE="$WIRECOST_CACHE/gocache"
fi
export GOFLAGS="-buildvcs=false"
export CGO_ENABLED=0 # the SDK and net/http are pure Go: no C toolchain needed

mkdir -p "$out/bin"
echo "a2a-go build: $(go version) -> $out/bin/a2a-go" >&2
cd "$here"
if ! go build -mod=readonly -trimpath -o "$out/bin/a2a-go" .; then
  echo "a2a-go build: go build failed (see above); if a module is missing, check the network to the Go module proxy" >&2
  exit 1
fi
echo "a2a-go build: done" >&2
