#!/usr/bin/env bash
# Build the Go known-cost target into OUT/bin/known-cost-go: `bash targets/known-cost/go/build.sh OUT`
# (OUT an absolute path). The Go targets share one build script, targets/common/build-go.sh.
exec bash "$(dirname "${BASH_SOURCE[0]}")/../../common/build-go.sh" known-cost/go "$@"
