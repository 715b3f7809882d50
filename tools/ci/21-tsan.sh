#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CI job: the concurrency stress test (tests/unit/test_concurrency_stress.cpp)
# the thread test of the ABI and the detection of two threads on one context
# (tests/unit/test_context_busy.cpp) under ThreadSanitizer (g++, build-ci/tsan/).
# DXT_STRESS_SECONDS sets how long the threads run (default here 5).
set -euo pipefail
cd "$(dirname "$0")/../.."

sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends \
  g++ cmake ninja-build pkg-config binutils libssl-dev libeigen3-dev doctest-dev python3 util-linux >/dev/null

cmake -S . -B build-ci/tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DDXT_SANITIZE=thread -DDXT_BUILD_BENCH=OFF >/dev/null
cmake --build build-ci/tsan -j"$(nproc)" --target test_concurrency_stress test_abi test_context_busy

export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 history_size=4"
export DXT_STRESS_SECONDS="${DXT_STRESS_SECONDS:-5}"
# ThreadSanitizer cannot map its shadow memory under the highest ASLR
# entropy of some kernels; run without address randomisation where allowed.
run=()
if setarch "$(uname -m)" -R true 2>/dev/null; then run=(setarch "$(uname -m)" -R); fi
"${run[@]}" build-ci/tsan/bin/test_concurrency_stress
"${run[@]}" build-ci/tsan/bin/test_abi --test-case="*contexts*"
"${run[@]}" build-ci/tsan/bin/test_context_busy
