#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Merges run_eval.py runs of one corpus, split and seed into one report.

A long grid can be run as several processes (one per core), each on a part
of the config's entries, into its own directory; this joins their rows.
The runs must share the corpus, the split and --seed: the check is that
their unmodified-text rows agree to the last digit (the same known and
unknown texts, the same trained classifiers). A condition present in
several runs is taken from the first that has it.

  python3 eval/merge_runs.py --config CONFIG.json --name NAME --out OUT DIR1 DIR2 ...
"""
import argparse
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from dxeval import report  # noqa: E402

from run_eval import METRICS, condition_name  # noqa: E402


def read_run(path):
    rows = list(csv.DictReader(open(os.path.join(path, "results.csv"), encoding="utf-8")))
    hits = [json.loads(line) for line in open(os.path.join(path, "hits.jsonl"), encoding="utf-8")]
    if len(hits) < len(rows):
        rows = rows[:len(hits)]  # a run stopped between its two writes
    return rows, hits[:len(rows)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("runs", nargs="+")
    args = ap.parse_args(argv)
    config = json.load(open(args.config, encoding="utf-8"))
    wanted = {(condition_name(m), m.get("variant", ""), m["model"]) for m in config["mechanisms"]}
    os.makedirs(args.out, exist_ok=True)

    rows, hits, seen, original = [], [], set(), None
    for run in args.runs:
        run_rows, run_hits = read_run(run)
        for r, h in zip(run_rows, run_hits):
            if r["mechanism"] == "original":
                got = {k: r[k] for k in METRICS}
                if original is None:
                    original = got
                elif got != original:
                    sys.exit(f"merge_runs.py: {run}: its unmodified-text row differs from the first run's: "
                             "not the same corpus, split or seed")
            key = (r["mechanism"], r.get("variant", ""), r["model"], r["epsilon"], r["rep"])
            group = key[:3]
            if key in seen or (r["mechanism"] not in ("original", "vectorised") and group not in wanted):
                continue
            seen.add(key)
            rows.append(r)
            hits.append(h)
    if original is None:
        sys.exit("merge_runs.py: no run has the unmodified-text row")

    with open(os.path.join(args.out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(args.out, "hits.jsonl"), "w") as f:
        for h in hits:
            f.write(json.dumps(h) + "\n")
    cal_rows = []
    for run in args.runs:
        path = os.path.join(run, "calibration.csv")
        if os.path.isfile(path) and os.path.getsize(path):
            cal_rows += [dict(r) for r in csv.DictReader(open(path, encoding="utf-8"))]
    for r in cal_rows:
        for k in ("nw_mean", "nw_median", "nw_max", "sw_mean", "sw_median", "sw_max"):
            r[k] = float(r[k])
    finished = [r for r in args.runs if os.path.isfile(os.path.join(r, "sizes.json"))]
    if not finished:
        sys.exit("merge_runs.py: no run has a sizes.json (none has finished)")
    sizes = json.load(open(os.path.join(finished[0], "sizes.json")))
    sizes["seconds"] = round(sum(json.load(open(os.path.join(r, "sizes.json")))["seconds"] for r in finished), 1)
    sizes["merged_from"] = len(args.runs)
    with open(os.path.join(args.out, "sizes.json"), "w") as f:
        json.dump(sizes, f, indent=1)
    report.write(args.out, args.name, rows, cal_rows, sizes, config)
    print(f"merge_runs.py: {len(rows)} rows from {len(args.runs)} runs: {args.out}/report.md", file=sys.stderr)


if __name__ == "__main__":
    main()
