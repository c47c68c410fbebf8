#!/usr/bin/env bash
# Build the mcp-go target at one go-sdk release of the releases report (matrices/mcp-sdk-releases.yaml)
# into OUT/bin/mcp-go: the target's sources (targets/mcp-go/*.go, tests left out) with that release's
# committed go.mod and go.sum (locks/<version>/) are put together in OUT/src beside a go.work naming
# targets/common/profilewindow, then built by targets/common/build-go.sh; the per-call harness
# (harness.go) is left out, harness_off.go in its place. Releases before v1.7.0 have
# no input-required results: they build with the tag gosdk_pre_1_7 (confirm_elicit.go in place of
# confirm.go; README.md here).
#
#   bash targets/mcp-go-releases/build.sh OUT VERSION      # e.g. VERSION v1.2.0
set -euo pipefail
fail() { echo "mcp-go-releases build: $*" >&2; exit 1; }
[ $# -eq 2 ] || fail "usage: build.sh OUT VERSION (OUT an absolute path of an empty folder)"
out=$1 version=$2
case "$out" in /*) ;; *) fail "OUT must be an absolute path, got '$out'" ;; esac
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
lock="$here/locks/$version"
[ -f "$lock/go.mod" ] && [ -f "$lock/go.sum" ] || fail "no lock for $version in $lock: write it with bash targets/mcp-go-releases/lock.sh $version"
src="$out/src"
mkdir -p "$src"
for f in "$root"/targets/mcp-go/*.go; do
  case "$f" in *_test.go | */harness.go) ;; *) cp "$f" "$src/" ;; esac
done
# The per-call harness uses go-sdk v1.8.0's client API: a release build gets harness_off.go in its
# place, whose --harness answers in one line that this build has no harness (exit 2).
cp "$here/harness_off.go" "$src/"
cp "$lock/go.mod" "$lock/go.sum" "$src/"
printf 'go 1.26.0\n\nuse (\n\t.\n\t%s\n)\n' "$root/targets/common/profilewindow" > "$src/go.work"
tags=""
if [ "$(printf '%s\n' "$version" v1.7.0 | sort -V | head -n1)" != v1.7.0 ]; then tags=gosdk_pre_1_7; fi
exec bash "$root/targets/common/build-go.sh" mcp-go "$out" "$src" "$tags"
