#!/usr/bin/env bash
# WebAssembly: builds the core with Debian's emscripten (DXT_CRYPTO=portable)
# into build-ci/wasm/, then runs the JavaScript wrapper's tests under Node's
# test runner. When the native CLI of build/ exists (tools/setup.sh builds
# it), seeded output is also compared with it: the portable AES-256-CTR must
# give the same text as OpenSSL.
set -euo pipefail
cd "$(dirname "$0")/../.."

sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
packages=(emscripten cmake ninja-build libeigen3-dev)
command -v node >/dev/null || packages+=(nodejs)
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null

# emscripten's JavaScript optimiser needs Debian's acorn (node-acorn), which
# only Debian's own node finds without help.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
# Debian ships emscripten's system libraries prebuilt in its read-only cache;
# this build needs no others, so no EM_CACHE is needed, as root or not.

emcmake cmake -S bindings/wasm -B build-ci/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-ci/wasm -j2

wasm=build-ci/wasm/package/dxtext_core.wasm
echo "dxtext_core.wasm: $(stat -c %s "$wasm") bytes ($(gzip -9 -c "$wasm" | wc -c) gzipped)"

export DXTEXT_WASM_PACKAGE="$PWD/build-ci/wasm/package"
if [ -x build/bin/dxtext ]; then
  export DXTEXT_CLI="$PWD/build/bin/dxtext"
else
  echo "build/bin/dxtext not found: the comparison with the native build is skipped" >&2
fi
node --test bindings/wasm/test/dxtext.test.js
# The example of docs/bindings/wasm.md.
node bindings/wasm/examples/privatize.js build-ci/wasm/package models/dxtext-en-euclid-100d-50k.dxe
