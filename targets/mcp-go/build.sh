#!/usr/bin/env bash
# Build mcp-go into OUT/bin/mcp-go: `bash targets/mcp-go/build.sh OUT` (OUT an absolute path). The Go
# targets share one build script, targets/common/build-go.sh (go build -mod=readonly -trimpath).
exec bash "$(dirname "${BASH_SOURCE[0]}")/../common/build-go.sh" mcp-go "$@"
