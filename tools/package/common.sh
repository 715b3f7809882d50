# SPDX-License-Identifier: Apache-2.0
# Sourced by tools/package.sh and the packaging jobs of tools/ci/.
#
#   dxt_default_model        prints the path of the default Euclidean model
#                            (the newest models/dxtext-en-euclid-*.dxe)
#   dxt_core_cmake_flags     the CMake flags of every packaged core build
#   dxt_stage_core_sources D copies what building the core needs (CMake files,
#                            include/, src/, cmake/, LICENSE) into directory D
#   dxt_need_packages PKG... apt-get installs those of PKG that are missing
#   dxt_need_node            node and npm: Debian's nodejs and npm unless a node
#                            and npm are already on the PATH (e.g. NodeSource's)

dxt_default_model() {
  local models=(models/dxtext-en-euclid-*.dxe)
  if [ ! -f "${models[0]}" ]; then
    echo "no default model: models/ has no dxtext-en-euclid-*.dxe" >&2
    return 1
  fi
  printf '%s\n' "${models[@]}" | LC_ALL=C sort | tail -n 1
}

dxt_core_cmake_flags() {
  echo -DCMAKE_BUILD_TYPE=Release -DDXT_CRYPTO=portable -DDXT_RELOCATABLE=ON -DDXT_STATIC_RUNTIME=ON \
    -DDXT_BUILD_TESTS=OFF -DDXT_BUILD_TOOLS=OFF -DDXT_BUILD_BENCH=OFF
}

dxt_stage_core_sources() {
  local dest=$1
  mkdir -p "$dest"
  cp -r CMakeLists.txt LICENSE include src "$dest/"
  mkdir -p "$dest/cmake"
  cp cmake/*.cmake cmake/*.in cmake/dxtext.map "$dest/cmake/"
}

dxt_need_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

dxt_need_node() {
  command -v node >/dev/null || dxt_need_packages nodejs
  command -v npm >/dev/null || dxt_need_packages npm
}
