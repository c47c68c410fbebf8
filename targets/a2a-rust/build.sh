#!/usr/bin/env bash
# Build a2a-rust into OUT/bin/a2a-rust: `bash targets/a2a-rust/build.sh OUT` (OUT an absolute path). The Rust
# targets share one build script, targets/common/build-cargo.sh (cargo build --release --locked).
exec bash "$(dirname "${BASH_SOURCE[0]}")/../common/build-cargo.sh" a2a-rust "$@"
