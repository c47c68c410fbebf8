#!/usr/bin/env bash
# Build the Rust known-cost target into OUT/bin/known-cost-rust: `bash targets/known-cost/rust/build.sh OUT`
# (OUT an absolute path). The Rust targets share one build script, targets/common/build-cargo.sh.
exec bash "$(dirname "${BASH_SOURCE[0]}")/../../common/build-cargo.sh" known-cost/rust "$@"
