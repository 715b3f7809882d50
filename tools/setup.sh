#!/usr/bin/env bash
# Sets dxtext up on a fresh Debian 12 machine: installs the build
# dependencies, builds the library, the CLI, the tests and the demo model,
# then privatises a sentence with it.
set -euo pipefail
cd "$(dirname "$0")/.."

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends \
  g++ cmake ninja-build pkg-config binutils libssl-dev libeigen3-dev doctest-dev python3 >/dev/null

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"

echo "The quick brown fox jumps over the lazy dog in Paris." |
  ./build/bin/dxtext privatize --model build/models/demo.dxe --epsilon 5 --report
