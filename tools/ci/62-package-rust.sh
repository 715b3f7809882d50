#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Rust. First dxtext-sys's declarations (src/ffi.rs) are regenerated from the
# header with Debian's bindgen and the job fails if they differ from the
# checked-in file; then the binding's own tests in bindings/rust (dxtext-sys's
# hand-written part checked against the C compiler, the safe crate's tests,
# the conformance suite of tests/conformance, and the documented example)
# against build/lib's libdxtext. Then the crates of tools/package.sh as a
# user gets them, with the recipe of docs/bindings/rust.md: a fresh project
# outside the source tree depends on dxtext by path (dist/rust/vendor, where
# dxtext finds dxtext-sys beside it) and on one other crate (a local path
# crate stands in for "any other dependency", since CI has no crates.io);
# a plain `cargo run`, without --offline, builds it with no network (the
# lock file must name no registry), dxtext-sys's build.rs compiling the
# core; the binary privatises a sentence with the model compiled into it and
# runs with no LD_LIBRARY_PATH, no DXTEXT_MODEL and no libdxtext on the
# system.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/ci/lib/dxtext_library.sh
source tools/package/common.sh

if ! command -v cargo >/dev/null; then
  dxt_install_packages cargo rustc gcc libc6-dev
fi
dxt_need_packages cmake ninja-build g++ libeigen3-dev
cargo --version

# bindgen reads the header with libclang (and clang's own headers); rustfmt
# lays out what it writes.
dxt_need_packages bindgen libclang1-14 libclang-common-14-dev libc6-dev
command -v rustfmt >/dev/null || dxt_need_packages rustfmt
bash bindings/rust/dxtext-sys/bindgen.sh --check

lib_dir=$(dxt_library_dir rust)
(
  export DXTEXT_LIB_DIR="$lib_dir"
  export CARGO_TARGET_DIR="$PWD/build-ci/rust/target"
  cd bindings/rust
  cargo test --offline -j2
  cargo run --offline -q -j2 -p dxtext --example privatize -- "The president spoke to the nation about the war."
)

bash tools/package.sh rust
ls -l dist/rust
vendor=$PWD/dist/rust/vendor
app=$(mktemp -d "${TMPDIR:-/tmp}/dxtext-rust-app.XXXXXX")
trap 'rm -rf "$app"' EXIT
mkdir -p "$app/src" "$app/greeting/src"
# The project's other dependency, beside dxtext (docs/bindings/rust.md).
cat >"$app/greeting/Cargo.toml" <<'TOML'
[package]
name = "greeting"
version = "0.1.0"
edition = "2021"
TOML
echo 'pub fn hello() -> &'"'"'static str { "hello from another crate" }' >"$app/greeting/src/lib.rs"
cat >"$app/Cargo.toml" <<TOML
[package]
name = "dxtext-app"
version = "0.1.0"
edition = "2021"

[dependencies]
dxtext = { path = "$vendor/dxtext-0.1.0" }
greeting = { path = "greeting" }
TOML
cat >"$app/src/main.rs" <<'RUST'
use dxtext::{Context, Geometry, LocalDiagnostics, Model, Options, Preset};

fn main() -> Result<(), dxtext::Error> {
    let text = std::env::args().nth(1).expect("a text");
    let model = Model::open_default(Geometry::Euclidean)?;
    let mut context = Context::new(&model)?;
    let mut diagnostics = LocalDiagnostics::new();
    let features = Options::from_preset(Preset::Features);
    let (private, record) = context.privatize_text_record(&text, &features, Some(&mut diagnostics))?;
    println!("{}: {}", greeting::hello(), private);
    println!("{}", record.to_json()?);
    println!("{}", diagnostics.to_json()?);
    assert!(diagnostics.words_privatized() == 9 && record.is_private(), "unexpected record");
    Ok(())
}
RUST
(
  cd "$app"
  unset DXTEXT_LIB_DIR DXTEXT_MODEL LD_LIBRARY_PATH CARGO_TARGET_DIR
  # As the docs say, without --offline: nothing may need a registry.
  cargo run -j2 --release -q -- "The president spoke to the nation about the war."
  if grep -q '^source = ' Cargo.lock; then
    echo "Cargo.lock names a registry: the recipe needs a network" >&2
    grep '^source = ' Cargo.lock >&2
    exit 1
  fi
  if ldd target/release/dxtext-app | grep -q dxtext; then
    echo "the binary links a shared libdxtext" >&2
    exit 1
  fi
)
echo "rust package: ok"
