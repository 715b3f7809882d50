# SPDX-License-Identifier: Apache-2.0
# The crates: dxtext-sys with the core's sources in vendor/ and the default
# model in models/ (its build.rs compiles the core with CMake, offline, and
# links it statically; the model is compiled into the binary), and the safe
# dxtext crate. Written as .crate files (what `cargo package` makes, for a
# private registry) and unpacked in dist/rust/vendor/, where dxtext names
# dxtext-sys beside it by path as well as by version: a project depends on
# `dxtext = { path = ".../dist/rust/vendor/dxtext-VERSION" }` and builds
# with no registry at all, offline (docs/bindings/rust.md).
dxt_need_packages python3
model=$(dxt_default_model)
vendor=dist/rust/vendor
mkdir -p "$vendor"
for crate in dxtext-sys dxtext; do
  version=$(sed -n 's/^version = "\(.*\)"/\1/p' "bindings/rust/$crate/Cargo.toml" | head -n 1)
  dir=$vendor/$crate-$version
  mkdir -p "$dir"
  cp -r "bindings/rust/$crate/src" "bindings/rust/$crate/build.rs" LICENSE "$dir/"
  [ -d "bindings/rust/$crate/examples" ] && cp -r "bindings/rust/$crate/examples" "$dir/"
  # A published manifest names its dependencies by version only.
  sed -e 's/{ path = "[^"]*", /{ /' "bindings/rust/$crate/Cargo.toml" >"$dir/Cargo.toml"
  if [ "$crate" = dxtext-sys ]; then
    dxt_stage_core_sources "$dir/vendor"
    mkdir -p "$dir/models"
    cp "$model" models/README.md models/NOTICE-dxtext-en-euclid.md "$dir/models/"
  fi
  python3 tools/package/cargo_checksums.py "$vendor" "$crate-$version" "dist/rust/$crate-$version.crate"
done
# The unpacked dxtext finds dxtext-sys beside it (the .crate keeps the
# version alone, as a published crate does). Without the path, cargo looks
# dxtext-sys up in the crates.io index even when it is patched, and a plain
# `cargo run` fails without a network.
sys_version=$(sed -n 's/^version = "\(.*\)"/\1/p' bindings/rust/dxtext-sys/Cargo.toml | head -n 1)
dxtext_version=$(sed -n 's/^version = "\(.*\)"/\1/p' bindings/rust/dxtext/Cargo.toml | head -n 1)
sed -i "s|^dxtext-sys = { |dxtext-sys = { path = \"../dxtext-sys-$sys_version\", |" "$vendor/dxtext-$dxtext_version/Cargo.toml"
grep -q "^dxtext-sys = { path = " "$vendor/dxtext-$dxtext_version/Cargo.toml"
# Not a directory source (the manifest differs from the .crate's): no checksums.
rm -f "$vendor"/*/.cargo-checksum.json
