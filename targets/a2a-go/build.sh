#!/usr/bin/env bash
# Build a2a-go into OUT/bin/a2a-go: `bash targets/a2a-go/build.sh OUT` (OUT an absolute path). The Go
# targets share one build script, targets/common/build-go.sh (go build -mod=readonly -trimpath).
exec bash "$(dirname "${BASH_SOURCE[0]}")/../common/build-go.sh" a2a-go "$@"
