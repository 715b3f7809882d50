#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sets dxtext up on a fresh Debian 12 machine: installs the build
# dependencies, builds the library, the CLI, the tests and the demo model,
# then privatises a sentence with it.
set -euo pipefail
cd "$(dirname "$0")/.."

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends \
  g++ cmake ninja-build pkg-config binutils libssl-dev libeigen3-dev doctest-dev libbenchmark-dev \
  python3 python3-pytest python3-sklearn python3-venv python3-pip python3-setuptools python3-wheel unicode-data >/dev/null

# Debian's python3 (with python3-pytest, and python3-sklearn for the tests of
# dxtext.analysis) runs the Python binding's tests.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE=/usr/bin/python3
cmake --build build -j"$(nproc)"

# The main job: privatise a sentence with the default Euclidean model
# (models/dxtext-en-euclid-*.dxe, found without --model; README.md,
# "Models") and the features preset (README.md, "Presets", says why), then
# say what happened. The release record goes to a file.
text="The president spoke to the nation about the war and the economy."
./build/bin/dxtext privatize --preset features --format json "$text" >build/setup-release.json
./build/bin/dxtext presets --format json >build/setup-presets.json
python3 tools/setup_summary.py "$text" build/setup-release.json build/setup-presets.json
