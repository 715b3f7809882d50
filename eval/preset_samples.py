#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Everyday sentences before and after each preset, as a markdown section.

Reads one sentence per line (default eval/data/everyday-sentences.txt: twenty
sentences written for this purpose, none from a real person's
correspondence), privatises each with every preset `dxtext presets` lists,
and prints one table per preset. Each sentence gets its own noise seed,
derived from --seed, the preset and the line, so the page can be
regenerated exactly; seeded output is NOT private (the same sampling code,
a known key), which is why it is fine to publish.

  python3 eval/preset_samples.py [--dxtext build/bin/dxtext] [--model M] [--seed 0] > samples.md
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from dxeval import privatizer  # noqa: E402


def run(args, text=None):
    p = subprocess.run(args, input=None if text is None else text.encode(), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit(f"preset_samples.py: {' '.join(args)}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
    return p.stdout.decode()


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ").strip() or "*(nothing)*"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dxtext", help="the dxtext binary (default build/bin/dxtext or $DXTEXT_BIN)")
    ap.add_argument("--model", help="a .dxe model (default: the default model)")
    ap.add_argument("--sentences", default=os.path.join(HERE, "data", "everyday-sentences.txt"))
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    dxtext = args.dxtext or privatizer.default_dxtext(REPO)
    sentences = [s.strip() for s in open(args.sentences, encoding="utf-8") if s.strip()]
    presets = json.loads(run([dxtext, "presets"]))["presets"]
    model = ["--model", args.model] if args.model else []
    out = []
    for p in presets:
        out += [f"**{p['name']}** ({p['use']}: {p['mechanism']}, ε = {p['epsilon']:g}, shape "
                f"{p['release_shape']}, output vocabulary "
                + (f"top {p['output_top']}" if p["output_top"] else "all words")
                + f"; stopwords {p['stopwords']}, numbers {p['numbers']}, out-of-vocabulary {p['oov']})", "",
                "| | original | released |", "|---|---|---|"]
        for i, s in enumerate(sentences):
            seed = hashlib.sha256(f"{args.seed}/{p['name']}/{i}".encode()).hexdigest()
            released = run([dxtext, "privatize", "--preset", p["name"], "--seed", seed] + model + [s])
            out.append(f"| {i + 1} | {cell(s)} | {cell(released)} |")
        out.append("")
    print("\n".join(out))


if __name__ == "__main__":
    main()
