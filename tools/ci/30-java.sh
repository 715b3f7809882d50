#!/usr/bin/env bash
# Java binding (bindings/java): builds libdxtext_jni, dxtext.jar and the
# JUnit 4 tests with CMake on Debian's JDK, and runs them (and the
# documented example) with ctest.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/ci/lib/dxtext_library.sh

if ! command -v javac >/dev/null || [ ! -f /usr/share/java/junit4.jar ]; then
  dxt_install_packages default-jdk-headless junit4
fi
javac -version

lib_dir=$(dxt_library_dir java)
command -v ninja >/dev/null && generator=(-G Ninja) || generator=()
cmake -S bindings/java -B build-ci/java "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DDXTEXT_LIB_DIR="$lib_dir" >/dev/null
cmake --build build-ci/java -j2
ctest --test-dir build-ci/java --output-on-failure
echo "java binding: ok"
