#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Cross-builds dxtext for 64-bit ARM (aarch64) with Debian's cross toolchain
# and runs the unit tests, the NEON decoding kernels included, under
# qemu-user. The statistical suites are left to the native job (they take
# minutes natively and many times that emulated).
set -euo pipefail
cd "$(dirname "$0")/../.."

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  $sudo dpkg --add-architecture arm64
fi
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends \
  crossbuild-essential-arm64 qemu-user libssl-dev:arm64 libeigen3-dev doctest-dev cmake ninja-build unicode-data >/dev/null

build=build-ci/aarch64
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/toolchains/aarch64-linux-gnu.cmake" \
  -DDXT_BUILD_BENCH=OFF -DDXT_BUILD_BINDINGS=OFF
cmake --build "$build" -j"$(nproc)"

# The kernel set the emulated CPU gets must be NEON.
QEMU_LD_PREFIX=/usr/aarch64-linux-gnu qemu-aarch64 "$build/bin/test_kernels" --success=false |
  tail -n 3
# Unit tests whose command is a built executable run through the emulator
# (CMAKE_CROSSCOMPILING_EMULATOR). Skipped: scripts that call host tools, and
# the tests whose loops take seconds natively and many minutes emulated
# (test_rng draws ~10^8 uniforms, the Poincare trainer trains, test_bad_input
# streams 100 MB of text, the concurrency stress test runs eight threads,
# test_rng_failure runs every mechanism with a failing source,
# test_search_index builds k-means indexes and measures their recall);
# and the tests that start a second thread (test_context_busy,
# test_model_changes, test_example_privatize_cpp, whose example shares a
# model between four threads): Debian 12's qemu-user hangs for good in the clone of
# a new thread on this kernel (a three-line std::thread program does too);
# test_ledger runs below without its three cases that fork processes (the
# children spin forever under the same qemu-user);
# none has architecture-specific code paths (the kernels they call are
# test_kernels', which runs here), and the native, ASan and TSan jobs run them.
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" -L unit --timeout 600 \
  -E '^(test_cli|test_conformance_cases.*|test_readme_c_snippet|test_readme_ledger_example|test_options_table|test_binding_lines|test_default_models|test_package_consumer|test_python_binding|test_format_python_reader.*|test_unicode_fold|test_exported_symbols|test_rng|test_poincare_trainer|test_bad_input|test_concurrency_stress|test_context_busy|test_example_privatize_cpp|test_ledger|test_legacy_models|test_model_changes|test_rng_failure|test_search_index)$'
QEMU_LD_PREFIX=/usr/aarch64-linux-gnu timeout 180 qemu-aarch64 "$build/bin/test_ledger" \
  --test-case-exclude='*kill -9*,*processes sharing*,*a FIFO is no ledger*' | tail -n 3
