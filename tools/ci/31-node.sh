#!/usr/bin/env bash
# Node.js binding (bindings/node): builds the N-API addon with CMake against
# Node's C headers (no download from nodejs.org) and runs its tests with
# Node's own test runner, then the documented example.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/ci/lib/dxtext_library.sh

if ! command -v node >/dev/null; then
  dxt_install_packages nodejs libnode-dev
fi
node --version

# node_api.h: next to the running node, else Debian's libnode-dev, else the
# node-api-headers package from the npm registry.
node_include=""
find_node_api() {
  for dir in "${NODE_INCLUDE_DIR:-}" "$(dirname "$(command -v node)")/../include/node" /usr/include/node; do
    if [ -n "$dir" ] && [ -f "$dir/node_api.h" ]; then
      node_include=$dir
      return 0
    fi
  done
  return 1
}
mkdir -p build-ci/node
if ! find_node_api; then
  dxt_install_packages libnode-dev || true
fi
if ! find_node_api; then
  (cd build-ci/node && npm pack --silent node-api-headers >/dev/null && tar xzf node-api-headers-*.tgz)
  node_include=$PWD/build-ci/node/package/include
fi
echo "node_api.h from $node_include"

lib_dir=$(dxt_library_dir node)
command -v ninja >/dev/null && generator=(-G Ninja) || generator=()
cmake -S bindings/node -B build-ci/node/addon "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DNODE_INCLUDE_DIR="$node_include" -DDXTEXT_LIB_DIR="$lib_dir" >/dev/null
cmake --build build-ci/node/addon -j2

export DXTEXT_NODE_ADDON=$PWD/build-ci/node/addon/dxtext.node
(cd bindings/node && node --test test/ && node examples/privatize.js)
echo "node binding: ok"
