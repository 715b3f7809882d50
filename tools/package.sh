#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the self-contained artifact of each ecosystem into dist/:
#
#   bash tools/package.sh              # all of them
#   bash tools/package.sh python java  # only these (python node rust java wasm swift)
#
#   python  dist/python/dxtext-*.whl       wheel: libdxtext compiled by setup.py, the default model
#   node    dist/node/dxtext-*.tgz         npm tarball: the core's sources and a prebuilt addon
#   rust    dist/rust/                     dxtext-sys (vendored core, static) and dxtext .crate
#                                          files, and the same unpacked (a path dependency)
#   java    dist/java/dxtext-*.jar         jar with its natives and the default model inside;
#                                          dist/java/dxtext-*.aar too when ANDROID_NDK_HOME is set
#   wasm    dist/wasm/dxtext-wasm-*.tgz    ESM package: dxtext_core.wasm, its loader, the wrapper
#   swift   dist/swift/dxtext-swift-*.tar.gz  SwiftPM package with the core's sources and the default model
#
# Every native artifact uses the same core build settings: the portable
# crypto backend (noise from the kernel's CSPRNG through getentropy, i.e.
# getrandom(2); no OpenSSL, so nothing depends on the system's libcrypto
# version), no build-machine path compiled in (DXT_RELOCATABLE), and the
# C++ runtime linked in. The default model is the newest
# models/dxtext-en-euclid-*.dxe, found by that pattern; each artifact that
# carries it also carries models/README.md, which states its licence, and
# models/NOTICE-dxtext-en-euclid.md, the notices its sources ask for.
# Build directories are under build-package/ and are reused.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
source tools/package/common.sh

artifacts=("$@")
[ ${#artifacts[@]} -eq 0 ] && artifacts=(python node rust java wasm swift)
for artifact in "${artifacts[@]}"; do
  if [ ! -f "tools/package/$artifact.sh" ]; then
    echo "unknown artifact '$artifact' (python node rust java wasm swift)" >&2
    exit 2
  fi
done
for artifact in "${artifacts[@]}"; do
  start=$(date +%s)
  echo "=== package $artifact"
  rm -rf "dist/$artifact"
  mkdir -p "dist/$artifact"
  # shellcheck source=/dev/null
  (source "tools/package/$artifact.sh")
  echo "=== $artifact: $(($(date +%s) - start)) s"
  ls -l "dist/$artifact"
done
