#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The State of the Union evaluation: fetches the corpus (eval/fetch_sotu.sh),
# builds the two corpora (eval/prepare_sotu.py) and runs eval/run_eval.py on
# each, at low CPU priority.
#
#   bash eval/run_sotu.sh OUT_DIR            # the sized-down run of docs/evaluation.md (about an hour of one core)
#   bash eval/run_sotu.sh --full OUT_DIR     # every mechanism, finer grids, all snippets (many hours)
#
# Needs a built dxtext (build/bin/dxtext, or $DXTEXT_BIN), npm, and Debian's
# python3-sklearn, python3-numpy, python3-matplotlib and fasttext.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
full=0
if [ "${1:-}" = "--full" ]; then
  full=1
  shift
fi
out=${1:?usage: run_sotu.sh [--full] OUT_DIR}
mkdir -p "$out"
py=/usr/bin/python3
[ -x "$py" ] || py=python3

data=$(bash "$here/fetch_sotu.sh")
for subset in same-era all-eras; do
  "$py" "$here/prepare_sotu.py" --data "$data" --subset "$subset" --words 150 --out "$out/sotu-$subset.jsonl"
done

if [ "$full" -eq 1 ]; then
  for subset in same-era all-eras; do
    nice -n 19 "$py" "$here/run_eval.py" --corpus "$out/sotu-$subset.jsonl" --name "sotu-$subset" \
      --config "$here/configs/sotu-full.json" --group-field doc --out "$out/sotu-$subset"
  done
else
  nice -n 19 "$py" "$here/run_eval.py" --corpus "$out/sotu-same-era.jsonl" --name sotu-same-era \
    --config "$here/configs/sotu.json" --group-field doc --test-per-author 5 --train-per-author 150 \
    --out "$out/sotu-same-era"
  nice -n 19 "$py" "$here/run_eval.py" --corpus "$out/sotu-all-eras.jsonl" --name sotu-all-eras \
    --config "$here/configs/sotu-all-eras.json" --group-field doc --test-per-author 4 --train-per-author 150 \
    --out "$out/sotu-all-eras"
fi
