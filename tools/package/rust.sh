# SPDX-License-Identifier: Apache-2.0
# The crates: dxtext-sys with the core's sources in vendor/ and the default
# model in models/ (its build.rs compiles the core with CMake, offline, and
# links it statically; the model is compiled into the binary), and the safe
# dxtext crate. Written as .crate files (what `cargo package` makes) and as
# a cargo directory source, dist/rust/vendor/, with the checksums cargo
# verifies: point a project's .cargo/config.toml at it (see
# docs/bindings/rust.md) and depend on `dxtext = "0.1"`.
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
