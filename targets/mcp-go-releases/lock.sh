#!/usr/bin/env bash
# Write the committed lock of one Go SDK release of the releases report
# (matrices/mcp-sdk-releases.yaml): locks/<version>/go.mod and go.sum of the mcp-go target's module
# with github.com/modelcontextprotocol/go-sdk at that release (and modernc.org/sqlite at the pin of
# targets/mcp-go/go.mod), resolved by `go get` and `go mod tidy` from the Go module proxy; the other
# modules are what the release requires (minimal version selection). Nothing is built here.
#
#   bash targets/mcp-go-releases/lock.sh v1.2.0
set -euo pipefail
version=${1:?usage: lock.sh VERSION (a go-sdk release, e.g. v1.2.0)}
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
sqlite=$(awk '$1 == "modernc.org/sqlite" { print $2 }' "$root/targets/mcp-go/go.mod")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for f in "$root"/targets/mcp-go/*.go; do
  case "$f" in *_test.go) ;; *) cp "$f" "$work/" ;; esac
done
pw=wirecost.dev/targets/common/profilewindow
cd "$work"
printf 'module wirecost.dev/targets/mcp-go\n\ngo 1.26.0\n' > go.mod
# The shared profile window is a workspace module at build time (go.work); for resolving, a replace
# stands in for it and is dropped again, so the lock holds registry modules only.
go mod edit -require="$pw@v0.0.0" -replace="$pw=$root/targets/common/profilewindow"
GOWORK=off GOFLAGS=-mod=mod go get "github.com/modelcontextprotocol/go-sdk@$version" "modernc.org/sqlite@$sqlite"
GOWORK=off GOFLAGS=-mod=mod go mod tidy
go mod edit -droprequire="$pw" -dropreplace="$pw"
mkdir -p "$here/locks/$version"
cp go.mod go.sum "$here/locks/$version/"
echo "$here/locks/$version"
