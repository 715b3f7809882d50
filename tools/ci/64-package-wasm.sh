#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# WebAssembly. tools/package.sh wasm builds the ES module package with
# Debian's emscripten (DXT_CRYPTO=portable) and packs it; its tests run under
# Node's test runner, the conformance suite of tests/conformance among them
# (seeded output equal to the native OpenSSL build's: the portable
# AES-256-CTR must give the same text). Then the tarball is installed with
# npm into a fresh directory outside the source tree, beside the browser recipe of docs/bindings/wasm.md
# (bindings/wasm/examples/browser/: index.html with its import map, app.js,
# the readable preset in a Web Worker), copied unchanged, and Debian's
# headless Chromium, driven by playwright-core from the npm registry
# (tools/ci/wasm-page/check.mjs), types a sentence there and checks that its
# privatised form appears; the screenshot is saved as
# build-ci/wasm/page.png and the page's timings as build-ci/wasm/timings.json.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/package/common.sh
dxt_need_node
dxt_need_packages chromium

bash tools/package.sh wasm
export DXTEXT_WASM_PACKAGE="$PWD/build-package/wasm/package"
# The native CLI of tools/setup.sh reads a ledger file the package wrote.
[ -x build/bin/dxtext ] && export DXTEXT_CLI="$PWD/build/bin/dxtext"
node --test bindings/wasm/test/
# The example of docs/bindings/wasm.md.
node bindings/wasm/examples/privatize.mjs "$DXTEXT_WASM_PACKAGE" "$(dxt_default_model)"
# The size figure of docs/bindings/wasm.md is this build's (to 10 kB).
python3 tools/docs/samples.py --check --only wasm-size --wasm-dir "$DXTEXT_WASM_PACKAGE" --dxtext /nonexistent

tarball=$(ls "$PWD"/dist/wasm/dxtext-wasm-*.tgz)
echo "tarball: $(stat -c %s "$tarball") bytes"
site=$(mktemp -d "${TMPDIR:-/tmp}/dxtext-wasm-page.XXXXXX")
trap 'rm -rf "$site"' EXIT
cp bindings/wasm/examples/browser/index.html bindings/wasm/examples/browser/app.js tools/ci/wasm-page/check.mjs "$site/"
echo '{ "name": "dxtext-page", "version": "1.0.0", "private": true, "type": "module" }' >"$site/package.json"
(cd "$site" && npm install --no-audit --no-fund --silent "$tarball" playwright-core)
mkdir -p build-ci/wasm
node "$site/check.mjs" "$site" "$PWD/build-ci/wasm/page.png" "$PWD/build-ci/wasm/timings.json"
echo "wasm package: ok (screenshot: build-ci/wasm/page.png)"
