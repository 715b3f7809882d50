#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CI job: the evaluation pipeline end to end on tiny committed slices of the
# State of the Union addresses (eval/data/sotu-slice.jsonl) and of the King
# James Version (eval/data/kjv-slice.jsonl), both public domain, and of the
# Debian changelog messages (eval/data/msg-slice.jsonl, permissive), with the
# 123-word demo model: privatize --jsonl, the peers written in Python
# (CusText, SanText, the ordering prototype), the static, adaptive and
# structure-aware attackers, the no-noise references, the utility
# classifiers (fastText included) and the structure-aware topic analyst,
# the CSV, the plots and the report; the fluency scorer's test and, on the
# message slice, its columns under Debian's pocketsphinx-en-us trigram model
# (eval/dxeval/fluency.py); and the changelog readers' test. Checks
# that the outputs exist and are sane. The full runs are eval/run_sotu.sh
# and eval/run_frontier.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/ci/lib/dxtext_library.sh

dxt_install_packages g++ cmake ninja-build pkg-config libssl-dev libeigen3-dev doctest-dev \
  python3 python3-sklearn python3-numpy python3-matplotlib fasttext pocketsphinx-en-us

# The build of tools/setup.sh when it is there (brought up to date, which
# costs nothing after setup), else a build of the two targets of its own.
build=build
if [ ! -f build/build.ninja ]; then
  build=build-ci/eval-smoke
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDXT_BUILD_TESTS=OFF -DDXT_BUILD_BENCH=OFF >/dev/null
fi
cmake --build "$build" -j2 --target dxtext_cli dxtext_demo_model

out=build-ci/eval-smoke/eval-out
mkdir -p build-ci/eval-smoke
rm -rf "$out"
# The demo model with public orderings, for the ordering mechanism.
demo=build-ci/eval-smoke/demo-ordered.dxe
"$build/bin/dxtext" order --orderings 4 --seed 1 "$build/models/demo.dxe" "$demo" >/dev/null
start=$(date +%s)
/usr/bin/python3 eval/run_eval.py --corpus eval/data/sotu-slice.jsonl --name smoke \
  --config eval/configs/smoke.json --model "demo=$demo" --group-field doc \
  --dxtext "$build/bin/dxtext" --fluency-lm none --out "$out"
echo "eval smoke run: $(($(date +%s) - start)) s"
/usr/bin/python3 eval/check_outputs.py "$out" smoke eval/configs/smoke.json
# A grid split over processes is joined by merge_runs.py: the run merged
# with itself must give the same rows and pass the same checks.
/usr/bin/python3 eval/merge_runs.py --config eval/configs/smoke.json --name smoke --out "$out-merged" "$out" "$out"
/usr/bin/python3 eval/check_outputs.py "$out-merged" smoke eval/configs/smoke.json
cmp -s "$out/results.csv" "$out-merged/results.csv" || { echo "merge_runs.py changed the rows" >&2; exit 1; }

# The second corpus, on fewer texts (the same config).
start=$(date +%s)
/usr/bin/python3 eval/run_eval.py --corpus eval/data/kjv-slice.jsonl --name smoke-kjv \
  --config eval/configs/smoke.json --model "demo=$demo" --group-field doc \
  --test-per-author 4 --train-per-author 6 --dxtext "$build/bin/dxtext" --fluency-lm none --out "$out-kjv"
echo "eval smoke run (kjv): $(($(date +%s) - start)) s"
/usr/bin/python3 eval/check_outputs.py "$out-kjv" smoke-kjv eval/configs/smoke.json

# The message corpus (Debian changelogs): its readers on hand-written files,
# then its slice with the ordering prototype alone: a config without a CLI
# mechanism, whose noiseless runs fall back to the exponential mechanism's
# geometry (about 10 s more).
/usr/bin/python3 eval/test_debian_changelog.py
/usr/bin/python3 eval/test_fluency.py
start=$(date +%s)
/usr/bin/python3 eval/run_eval.py --corpus eval/data/msg-slice.jsonl --name smoke-msg \
  --config eval/configs/smoke-msg.json --model "demo=$demo" --dxtext "$build/bin/dxtext" --out "$out-msg"
echo "eval smoke run (messages): $(($(date +%s) - start)) s"
/usr/bin/python3 eval/check_outputs.py "$out-msg" smoke-msg eval/configs/smoke-msg.json
if ! grep -q ',fluency_ratio,' "$out-msg/results.csv" || ! grep -q '^## Fluency' "$out-msg/report.md"; then
  echo "the message run has no fluency columns" >&2
  exit 1
fi
