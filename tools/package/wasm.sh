# SPDX-License-Identifier: Apache-2.0
# The WebAssembly package: an ES module package (dxtext.js with `exports`,
# worker.js for Web Workers, the emscripten core dxtext_core.js/.wasm, the
# default model in models/), built with Debian's emscripten
# (DXT_CRYPTO=portable: noise from Web Crypto) and packed by npm.
dxt_need_node
dxt_need_packages emscripten cmake ninja-build libeigen3-dev
# emscripten's JavaScript optimiser needs Debian's acorn (node-acorn).
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
emcmake cmake -S bindings/wasm -B build-package/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-package/wasm -j"$(nproc)"
wasm=build-package/wasm/package/dxtext_core.wasm
echo "dxtext_core.wasm: $(stat -c %s "$wasm") bytes ($(gzip -9 -c "$wasm" | wc -c) gzipped)"
(cd dist/wasm && npm pack --silent "$root/build-package/wasm/package" >/dev/null)
