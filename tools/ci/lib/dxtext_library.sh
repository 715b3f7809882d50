# SPDX-License-Identifier: Apache-2.0
# Sourced by the binding jobs in tools/ci/: finds the shared libdxtext.
#
#   dxt_install_packages PKG...   apt-get install (sudo only when not root)
#   dxt_library_dir JOB           prints the directory holding libdxtext.so:
#                                 build/lib of tools/setup.sh when it is
#                                 there, else a library-only build made in
#                                 build-ci/JOB/core.

dxt_install_packages() {
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

dxt_library_dir() {
  local job=$1
  if [ -f build/lib/libdxtext.so ]; then
    echo "$PWD/build/lib"
    return
  fi
  echo "no build/lib/libdxtext.so: building the library in build-ci/$job/core" >&2
  command -v cmake >/dev/null && command -v ninja >/dev/null && [ -f /usr/include/openssl/evp.h ] &&
    [ -d /usr/include/eigen3 ] || dxt_install_packages g++ cmake ninja-build libssl-dev libeigen3-dev >&2
  cmake -S . -B "build-ci/$job/core" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDXT_BUILD_TESTS=OFF \
    -DDXT_BUILD_TOOLS=OFF -DDXT_BUILD_BENCH=OFF >&2
  cmake --build "build-ci/$job/core" -j2 --target dxtext >&2
  echo "$PWD/build-ci/$job/core/lib"
}
