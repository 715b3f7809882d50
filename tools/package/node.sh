# SPDX-License-Identifier: Apache-2.0
# The npm tarball: lib/ (the JavaScript interface), the addon's C source and
# CMakeLists.txt, core/ (the core's sources), the default model in models/,
# and a prebuilt addon for this platform in prebuilds/<platform>-<arch>/
# (the core linked in statically, portable crypto, no RUNPATH). `npm
# install` uses the prebuilt addon when it matches and loads, else builds
# one from core/ (scripts/install.js).
dxt_need_node
dxt_need_packages cmake ninja-build g++ libeigen3-dev
model=$(dxt_default_model)
stage=build-package/node/package
rm -rf "$stage"
mkdir -p "$stage/models"
cp -r bindings/node/lib bindings/node/src bindings/node/scripts bindings/node/CMakeLists.txt \
  bindings/node/package.json LICENSE "$stage/"
cp docs/bindings/node.md "$stage/README.md"
dxt_stage_core_sources "$stage/core"
cp "$model" models/README.md models/NOTICE-dxtext-en-euclid.md "$stage/models/"

# node_api.h: next to the running node, else Debian's libnode-dev.
find_node_api() {
  local dir
  for dir in "${NODE_INCLUDE_DIR:-}" "$(dirname "$(command -v node)")/../include/node" /usr/include/node; do
    if [ -n "$dir" ] && [ -f "$dir/node_api.h" ]; then
      echo "$dir"
      return 0
    fi
  done
  return 1
}
node_include=$(find_node_api) || { dxt_need_packages libnode-dev && node_include=$(find_node_api); }
platform=$(node -p 'process.platform + "-" + process.arch')
# shellcheck disable=SC2046
cmake -S "$stage" -B build-package/node/addon -G Ninja -DDXTEXT_BUILD_CORE=ON -DNODE_INCLUDE_DIR="$node_include" \
  $(dxt_core_cmake_flags) >/dev/null
cmake --build build-package/node/addon -j"$(nproc)" --target dxtext_node
mkdir -p "$stage/prebuilds/$platform"
cp build-package/node/addon/dxtext.node "$stage/prebuilds/$platform/"
strip --strip-unneeded "$stage/prebuilds/$platform/dxtext.node"
(cd dist/node && npm pack --silent "$root/$stage" >/dev/null)
