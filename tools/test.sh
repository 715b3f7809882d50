#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs every test of dxtext: the ctest suite of build/ (made by
# tools/setup.sh), then each extra job in tools/ci/*.sh in name order
# (sanitizer builds, cross-builds, language bindings, ...). Each job installs
# what it needs itself and builds into its own directory under build-ci/.
#
#   bash tools/test.sh            # everything
#   bash tools/test.sh ctest      # the ctest suite only
#   bash tools/test.sh JOB...     # only the named jobs (file names without .sh)
set -euo pipefail
cd "$(dirname "$0")/.."

run_ctest() { ctest --test-dir build --output-on-failure -j"$(nproc)"; }

jobs=("$@")
if [ ${#jobs[@]} -eq 0 ]; then
  jobs=(ctest)
  for f in tools/ci/*.sh; do
    [ -e "$f" ] && jobs+=("$(basename "$f" .sh)")
  done
fi

failed=()
for job in "${jobs[@]}"; do
  start=$(date +%s)
  echo "=== dxtext test job: $job"
  if [ "$job" = ctest ]; then
    run_ctest || failed+=("$job")
  elif [ -f "tools/ci/$job.sh" ]; then
    bash "tools/ci/$job.sh" || failed+=("$job")
  else
    echo "unknown test job: $job (see tools/ci/)" >&2
    failed+=("$job")
  fi
  echo "=== $job: $(($(date +%s) - start)) s"
done

if [ ${#failed[@]} -ne 0 ]; then
  echo "FAILED jobs: ${failed[*]}" >&2
  exit 1
fi
echo "all test jobs passed"
