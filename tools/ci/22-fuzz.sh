#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CI job: every libFuzzer target (tests/fuzz/) for a short fixed time each,
# with ASan + UBSan, starting from its committed seed corpus (clang 14 and
# libFuzzer from Debian: clang, libclang-rt-14-dev). New inputs go to a
# scratch directory under build-ci/fuzz/, not into the repository; a crash
# fails the job and leaves its reproducer in build-ci/fuzz/artifacts/.
# DXT_FUZZ_SECONDS sets the time per target (default 20).
set -euo pipefail
cd "$(dirname "$0")/../.."

sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends \
  clang libclang-rt-14-dev g++ cmake ninja-build pkg-config binutils libssl-dev libeigen3-dev doctest-dev \
  python3 >/dev/null

targets=(model_open privatize_text privatize_bag convert frequencies ledger_decode)
CC=clang CXX=clang++ cmake -S . -B build-ci/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DDXT_BUILD_FUZZERS=ON -DDXT_SANITIZE=address,undefined -DDXT_BUILD_BENCH=OFF >/dev/null
cmake --build build-ci/fuzz -j"$(nproc)" --target "${targets[@]/#/fuzz_}"

seconds="${DXT_FUZZ_SECONDS:-20}"
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
mkdir -p build-ci/fuzz/artifacts
for t in "${targets[@]}"; do
  scratch="build-ci/fuzz/corpus-$t"
  rm -rf "$scratch"
  mkdir -p "$scratch"
  echo "--- fuzz_$t for ${seconds} s"
  log="build-ci/fuzz/log-$t.txt"
  rc=0
  build-ci/fuzz/bin/fuzz_"$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix=build-ci/fuzz/artifacts/"$t"- "$scratch" tests/fuzz/corpus/"$t" >"$log" 2>&1 || rc=$?
  grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" || true
  if [ "$rc" -ne 0 ]; then
    tail -n 60 "$log" >&2
    echo "fuzz_$t failed (exit $rc); reproducer in build-ci/fuzz/artifacts/" >&2
    exit 1
  fi
done
