#!/usr/bin/env bash
# Build mcp-rust into OUT/bin/mcp-rust: `bash targets/mcp-rust/build.sh OUT` (OUT an absolute path). The Rust
# targets share one build script, targets/common/build-cargo.sh (cargo build --release --locked).
exec bash "$(dirname "${BASH_SOURCE[0]}")/../common/build-cargo.sh" mcp-rust "$@"
