#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The fluency figures of docs/evaluation.md ("Fluency of the released
# text"): the presets configs on the three corpora (Debian changelog
# messages, the State of the Union same-era corpus, the King James Version
# frontier subset), each run with the fluency columns of eval/run_eval.py,
# then the table of eval/fluency_table.py.
#
#   bash eval/run_fluency.sh OUT_DIR [--dxtext PATH]
#
# Needs Debian's pocketsphinx-en-us (the language model) and what
# eval/README.md lists; downloads the corpora into $DXT_EVAL_CACHE. About
# 2 minutes per corpus on a busy two-core machine. Writes
# OUT_DIR/{msg,sotu,kjv}/ and copies each results.csv to
# docs/evaluation/{msg,sotu,kjv}-presets-fluency-results.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: run_fluency.sh OUT_DIR [--dxtext PATH]}
shift
if [ ! -f /usr/share/pocketsphinx/model/en-us/en-us.lm.bin ] && [ -z "${DXT_FLUENCY_LM:-}" ]; then
  echo "run_fluency.sh: no language model: apt-get install pocketsphinx-en-us (or set DXT_FLUENCY_LM)" >&2
  exit 1
fi
mkdir -p "$out"
data=$(bash eval/fetch_changelogs.sh)
/usr/bin/python3 eval/prepare_changelogs.py --data "$data" --out "$out/changelogs.jsonl"
data=$(bash eval/fetch_sotu.sh | tail -1)
/usr/bin/python3 eval/prepare_sotu.py --data "$data" --subset same-era --words 150 --out "$out/sotu-same-era.jsonl"
data=$(bash eval/fetch_kjv.sh | tail -1)
/usr/bin/python3 eval/prepare_kjv.py --data "$data" --subset frontier --out "$out/kjv-frontier.jsonl"

/usr/bin/python3 eval/run_eval.py --corpus "$out/changelogs.jsonl" --name msg-presets \
  --config eval/configs/msg-presets.json --group-field doc --test-groups 2 --test-per-author 8 \
  --train-per-author 30 --out "$out/msg" "$@"
/usr/bin/python3 eval/run_eval.py --corpus "$out/sotu-same-era.jsonl" --name sotu-presets \
  --config eval/configs/sotu-presets.json --group-field doc --test-per-author 10 --train-per-author 40 \
  --out "$out/sotu" "$@"
/usr/bin/python3 eval/run_eval.py --corpus "$out/kjv-frontier.jsonl" --name kjv-presets \
  --config eval/configs/kjv-presets.json --group-field doc --test-per-author 10 --train-per-author 40 \
  --out "$out/kjv" "$@"
for c in msg sotu kjv; do
  cp "$out/$c/results.csv" "docs/evaluation/$c-presets-fluency-results.csv"
done
/usr/bin/python3 eval/fluency_table.py docs/evaluation/{msg,sotu,kjv}-presets-fluency-results.csv
