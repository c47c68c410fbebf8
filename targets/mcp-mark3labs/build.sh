#!/usr/bin/env bash
# Build mcp-mark3labs into OUT/bin/mcp-mark3labs: `bash targets/mcp-mark3labs/build.sh OUT` (OUT an
# absolute path). The Go targets share one build script, targets/common/build-go.sh
# (go build -mod=readonly -trimpath).
exec bash "$(dirname "${BASH_SOURCE[0]}")/../common/build-go.sh" mcp-mark3labs "$@"
