#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the outputs of a run_eval.py run: every condition of the config has
its rows, the numbers are accuracies, the unmodified text is attributed better
than chance, noise changes words, and the plots and the report exist.

  python3 eval/check_outputs.py OUT_DIR NAME CONFIG.json
"""
import csv
import json
import os
import sys


def main(out, name, config_path):
    config = json.load(open(config_path, encoding="utf-8"))
    problems = []
    rows = list(csv.DictReader(open(os.path.join(out, "results.csv"), encoding="utf-8")))
    models = {m["model"] for m in config["mechanisms"]}
    expected = 1 + len(models) + sum(len(m.get("epsilons", [None])) * int(m.get("seeds", config.get("seeds", 1)))
                                     for m in config["mechanisms"])
    if len(rows) != expected:
        problems.append(f"results.csv has {len(rows)} rows, expected {expected}")
    attacks = ["attack_koppel", "attack_char_svm", "attack_adaptive_char", "attack_adaptive_word", "attack_structure"]
    metrics = attacks + ["utility_nb", "utility_svm", "utility_fasttext"]
    nonoise = ["nonoise_" + k[len("attack_"):] for k in attacks]
    topic = ["topic_words", "topic_structure_static", "topic_structure_adaptive", "topic_structure", "topic_best"]
    for r in rows:
        noisy_row = r["mechanism"] not in ("original", "vectorised")
        shares = ["words_changed", "content_kept", "chance_attack", "chance_utility", "attack_strongest",
                  "nonoise_strongest", "topic_floor"] + nonoise + topic + (["common_share"] if noisy_row else [])
        for k in metrics + shares:
            if r.get(k, "") == "":
                problems.append(f"{r['mechanism']} {r['epsilon']}: no {k}")
                continue
            v = float(r[k])
            if not 0 <= v <= 1:
                problems.append(f"{r['mechanism']} {r['epsilon']}: {k} = {v} is not in [0, 1]")
        if r.get("attack_strongest", "") != "" and abs(float(r["attack_strongest"]) -
                                                       max(float(r[k]) for k in attacks)) > 1e-3:
            problems.append(f"{r['mechanism']} {r['epsilon']}: attack_strongest is not the best attacker")
        if r.get("nonoise_strongest", "") not in ("", None) and float(r["nonoise_strongest"]) > 0:
            want = float(r["attack_strongest"]) / float(r["nonoise_strongest"])
            if abs(float(r["strongest_ratio"]) - want) > 2e-3:
                problems.append(f"{r['mechanism']} {r['epsilon']}: strongest_ratio is not strongest / no-noise")
        if all(r.get(k, "") != "" for k in topic + ["utility_svm"]):
            t = {k: float(r[k]) for k in topic + ["utility_svm"]}
            if t["topic_words"] != t["utility_svm"]:
                problems.append(f"{r['mechanism']} {r['epsilon']}: topic_words is not the word SVM's accuracy")
            if abs(t["topic_structure"] - max(t["topic_structure_static"], t["topic_structure_adaptive"])) > 1e-3:
                problems.append(f"{r['mechanism']} {r['epsilon']}: topic_structure is not the better structure analyst")
            if abs(t["topic_best"] - max(t["topic_words"], t["topic_structure"])) > 1e-3:
                problems.append(f"{r['mechanism']} {r['epsilon']}: topic_best is not the better of words and structure")
        if r.get("topic_best_share", "") == "" or float(r["topic_best_share"]) < 0:
            problems.append(f"{r['mechanism']} {r['epsilon']}: no topic_best_share")
        if r.get("topic_share", "") == "" or float(r["topic_share"]) < 0:
            problems.append(f"{r['mechanism']} {r['epsilon']}: no topic_share")
        # fluency (when the run had its language model): positive ratios,
        # a share of unknown words, and the unmodified text's ratio is 1
        if r.get("fluency_ratio", "") not in ("", None):
            f = {k: float(r[k]) for k in ("fluency_ratio", "fluency_ratio_known", "fluency_ppl", "fluency_oov")}
            if not (f["fluency_ratio"] > 0 and f["fluency_ratio_known"] > 0 and f["fluency_ppl"] >= 1
                    and 0 <= f["fluency_oov"] <= 1):
                problems.append(f"{r['mechanism']} {r['epsilon']}: fluency columns out of range {f}")
            if r["mechanism"] == "original" and abs(f["fluency_ratio"] - 1) + abs(f["fluency_ratio_known"] - 1) > 1e-3:
                problems.append("original: fluency ratio is not 1")
    original = [r for r in rows if r["mechanism"] == "original"]
    if len(original) != 1:
        problems.append("no single 'original' row")
    else:
        o = original[0]
        if float(o["words_changed"]) != 0:
            problems.append("the unmodified text has changed words")
        if max(float(o["attack_koppel"]), float(o["attack_char_svm"])) <= float(o["chance_attack"]):
            problems.append("on the unmodified text no attacker beats chance: the pipeline is broken")
    noisy = [r for r in rows if r["mechanism"] not in ("original", "vectorised")]
    if noisy and max(float(r["words_changed"]) for r in noisy) < 0.1:
        problems.append("no privatised run changed even 10% of the words")
    if noisy and min(float(r["content_kept"]) for r in noisy) >= 1:
        problems.append("every privatised run kept every content word: the keep rate is not measured")
    hits = [json.loads(line) for line in open(os.path.join(out, "hits.jsonl"), encoding="utf-8")]
    if len(hits) != len(rows):
        problems.append(f"hits.jsonl has {len(hits)} lines for {len(rows)} rows")
    for h, r in zip(hits, rows):
        for k in metrics + ["topic_structure_static", "topic_structure_adaptive"]:
            got = sum(h[k]) / len(h[k]) if h[k] else -1
            if abs(got - float(r[k])) > 1e-3:
                problems.append(f"{r['mechanism']} {r['epsilon']}: {k} in results.csv ({r[k]}) is not the mean "
                                f"of its hits ({got:.4f})")
    for f in [f"{name}-accuracy.png", f"{name}-frontier.png"] + ([f"{name}-calibration.png"] if config.get("calibration") else []):
        path = os.path.join(out, f)
        if not os.path.isfile(path) or os.path.getsize(path) < 5000:
            problems.append(f"{f} missing or too small")
        elif open(path, "rb").read(8) != b"\x89PNG\r\n\x1a\n":
            problems.append(f"{f} is not a PNG")
    report = open(os.path.join(out, "report.md"), encoding="utf-8").read()
    for needle in [f"]({name}-accuracy.png)", f"]({name}-frontier.png)", "## Where utility stays within 10%",
                   "## Against the no-noise reference", "## Topic with the public structure", "## All numbers"]:
        if needle not in report:
            problems.append(f"report.md lacks {needle!r}")
    for m in config["mechanisms"]:
        label = "preset:" + m["preset"] if "preset" in m else m.get("peer") or m["name"]
        if f"**{label}**" not in report:
            problems.append(f"report.md has no conclusion for {label}")
    for p in problems:
        print(f"check_outputs.py: {p}", file=sys.stderr)
    print(f"check_outputs.py: {len(rows)} rows, {len(problems)} problems", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
