# SPDX-License-Identifier: Apache-2.0
# The wheel: setup.py compiles libdxtext with CMake (portable crypto, C++
# runtime linked in) and bundles it with the default model; see
# bindings/python/setup.py. Debian's setuptools and wheel, no build isolation.
dxt_need_packages python3-pip python3-setuptools python3-wheel cmake ninja-build g++ libeigen3-dev binutils
DXTEXT_CMAKE_BUILD_DIR="$root/build-package/python-core" DXTEXT_BUILD_JOBS="${DXTEXT_BUILD_JOBS:-$(nproc)}" \
  /usr/bin/python3 -m pip wheel --no-build-isolation --no-deps --no-index -q -w dist/python bindings/python
rm -rf bindings/python/build bindings/python/src/*.egg-info
