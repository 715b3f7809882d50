#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How often a release loses (or gains) a negation, per preset.

Privatises every sentence of a file (default eval/data/negation-sentences.txt:
forty everyday sentences with a negation each, written for this purpose,
none from a real person's correspondence) --releases times with each preset,
and with `readable` written out without `negations keep` (its options before
negations were kept), and counts the releases with fewer negators than the
sentence (a negation lost) and with more (one added). Negators are those of
src/text/negations.cpp (the list below must stay the same).

  python3 eval/negations.py [--dxtext build/bin/dxtext] [--releases 100] [--json OUT]
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from dxeval import privatizer  # noqa: E402

NEGATORS = {"cannot", "nah", "neither", "never", "no", "nobody", "none", "noone", "nope", "nor", "not", "nothing",
            "nowhere", "without"}
WORD = re.compile(r"[A-Za-z0-9'\u2019]+")


def negations(text):
    n = 0
    for w in WORD.findall(text):
        w = w.replace("\u2019", "'").lower()
        n += w in NEGATORS or w.endswith("n't")
    return n


def releases(dxtext, args, sentences, k):
    lines = "".join(json.dumps({"i": i, "text": s}) + "\n" for i, s in enumerate(sentences) for _ in range(k))
    p = subprocess.run([dxtext, "privatize", "--jsonl", *args], input=lines.encode(), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)
    if p.returncode != 0:
        sys.exit(f"negations.py: dxtext privatize {' '.join(args)}: {p.stderr.decode()}")
    return [json.loads(line) for line in p.stdout.decode().splitlines()]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dxtext", default=os.path.join(REPO, "build", "bin", "dxtext"))
    ap.add_argument("--sentences", default=os.path.join(HERE, "data", "negation-sentences.txt"))
    ap.add_argument("--releases", type=int, default=100, help="releases per sentence")
    ap.add_argument("--json", help="write the figures here too")
    args = ap.parse_args()
    sentences = [s.strip() for s in open(args.sentences, encoding="utf-8") if s.strip()]
    mechanism, flags = privatizer.preset_flags(args.dxtext, "readable", drop=("negations",))
    presets = json.loads(subprocess.run([args.dxtext, "presets", "--format", "json"], check=True,
                                        stdout=subprocess.PIPE).stdout)["presets"]
    configs = [(p["name"], ["--preset", p["name"]]) for p in presets]
    configs.append(("readable without negations keep",
                    ["--mechanism", mechanism, "--epsilon", str(next(p["epsilon"] for p in presets
                                                                     if p["name"] == "readable")), *flags]))
    out = []
    print(f"{len(sentences)} sentences x {args.releases} releases")
    print(f"{'release':36} {'negation lost':>14} {'negation added':>15}")
    for name, cli in configs:
        rel = releases(args.dxtext, cli, sentences, args.releases)
        lost = sum(negations(r["text"]) < negations(sentences[r["i"]]) for r in rel)
        added = sum(negations(r["text"]) > negations(sentences[r["i"]]) for r in rel)
        out.append({"release": name, "releases": len(rel), "lost": lost / len(rel), "added": added / len(rel)})
        print(f"{name:36} {100 * lost / len(rel):13.1f}% {100 * added / len(rel):14.1f}%")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"sentences": len(sentences), "releases_per_sentence": args.releases, "results": out}, f,
                      indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
