#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The frontier of issue 25 on one corpus: the presets, the exponential
# mechanism, the ordering mechanism (strict and normalize shapes, with and
# without --output-top 5000) and the CusText and SanText peers, each against
# the static, adaptive and structure-aware attackers and its no-noise
# reference. Sized to run in about 20 minutes on one core: 8 authors (9 for
# the State of the Union's same-era subset), 10 unknown and 40 known
# snippets per author, 2 noise seeds, the grid split over two processes.
#
#   bash eval/run_frontier.sh kjv|sotu OUT_DIR [CONFIG]
#
# CONFIG defaults to eval/configs/kjv-frontier.json or
# eval/configs/sotu-ordering-frontier.json; the -proto configs run the
# ordering mechanism's law in Python (eval/dxeval/peers.py) on greedy
# nearest-neighbour orderings, for a dxtext without --mechanism ordering.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:?usage: run_frontier.sh kjv|sotu OUT_DIR [CONFIG]}
out=${2:?usage: run_frontier.sh kjv|sotu OUT_DIR [CONFIG]}
mkdir -p "$out"
case "$corpus" in
  kjv)
    config=${3:-eval/configs/kjv-frontier.json}
    data=$(bash eval/fetch_kjv.sh)
    /usr/bin/python3 eval/prepare_kjv.py --data "$data" --subset frontier --out "$out/kjv-frontier.jsonl" ;;
  sotu)
    config=${3:-eval/configs/sotu-ordering-frontier.json}
    data=$(bash eval/fetch_sotu.sh)
    /usr/bin/python3 eval/prepare_sotu.py --data "$data" --subset same-era --words 150 --out "$out/sotu-frontier.jsonl" ;;
  *) echo "run_frontier.sh: corpus kjv or sotu" >&2; exit 2 ;;
esac
# The ordering mechanism needs the model's public orderings: a copy of the
# model with them (dxtext order, 8 orderings, fixed seed) unless it has them.
dxtext=${DXTEXT_BIN:-build/bin/dxtext}
model=models/dxtext-en-euclid-100d-40k.dxe
if ! "$dxtext" orderings "$model" >/dev/null 2>&1; then
  ordered="$out/dxtext-en-euclid-100d-40k-ordered.dxe"
  [ -f "$ordered" ] || "$dxtext" order --orderings 8 --seed 1 "$model" "$ordered" >&2
  model=$ordered
fi
# Two processes, each on every other entry of the config, joined by merge_runs.py.
pids=()
for part in 0 1; do
  /usr/bin/python3 eval/run_eval.py --corpus "$out/$corpus-frontier.jsonl" --name "$corpus-frontier" \
    --config "$config" --part "$part/2" --model "this=$model" --dxtext "$dxtext" --group-field doc \
    --test-per-author 10 --train-per-author 40 --out "$out/part$part" 2> "$out/part$part.log" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
/usr/bin/python3 eval/merge_runs.py --config "$config" --name "$corpus-frontier" --out "$out/run" "$out/part0" "$out/part1"
/usr/bin/python3 eval/check_outputs.py "$out/run" "$corpus-frontier" "$config"
