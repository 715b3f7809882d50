#!/usr/bin/env bash
# Rust binding (bindings/rust): dxtext-sys checked against the header, the
# safe dxtext crate's tests, and the documented example; offline, no crates.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/ci/lib/dxtext_library.sh

if ! command -v cargo >/dev/null; then
  dxt_install_packages cargo rustc gcc libc6-dev
fi
cargo --version

lib_dir=$(dxt_library_dir rust)
export DXTEXT_LIB_DIR="$lib_dir"
export CARGO_TARGET_DIR="$PWD/build-ci/rust/target"
cd bindings/rust
cargo test --offline -j2
cargo run --offline -q -j2 -p dxtext --example privatize -- "The president spoke to the nation about the war."
echo "rust binding: ok"
