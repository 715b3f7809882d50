#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The fluency table of docs/evaluation.md from eval/run_eval.py results
files: per corpus and condition, means over seeds of the fluency columns
next to the strongest attack, its ratio to the no-noise reference and the
topic share.

    python3 eval/fluency_table.py docs/evaluation/{msg,sotu,kjv}-presets-fluency-results.csv
"""
import csv
import sys
from collections import defaultdict
from statistics import mean

COLUMNS = [("fluency_ratio_known", "fluency ratio, known words", 2), ("fluency_ratio", "fluency ratio", 2),
           ("fluency_oov", "unknown to the LM", 3), ("content_kept", "kept", 2),
           ("attack_strongest", "strongest attack", 2), ("strongest_ratio", "ratio to no noise", 2),
           ("topic_share", "topic share", 2)]
CORPUS = {"msg-presets": "changelogs", "sotu-presets": "SotU", "kjv-presets": "KJV"}


def label(r):
    m = r["mechanism"]
    if m.startswith("preset:"):
        return "`" + m[len("preset:"):] + "`"
    if m in ("original", "vectorised"):
        return m
    return f"{m} ε {float(r['epsilon']):g}"


def main(paths):
    print("| corpus | condition | seeds | " + " | ".join(t for _, t, _ in COLUMNS) + " |")
    print("|---|---|--:|" + "--:|" * len(COLUMNS))
    for path in paths:
        rows = list(csv.DictReader(open(path, encoding="utf-8")))
        groups = defaultdict(list)
        for r in rows:
            groups[label(r)].append(r)
        for name, rs in groups.items():
            cells = []
            for c, _, digits in COLUMNS:
                vals = [float(r[c]) for r in rs if r.get(c, "") not in ("", None)]
                cells.append(f"{mean(vals):.{digits}f}" if vals else "–")
            corpus = CORPUS.get(rs[0]["corpus"], rs[0]["corpus"])
            print(f"| {corpus} | {name} | {len(rs)} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
