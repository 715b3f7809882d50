#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How often each preset releases a labelled entity of tests/data/typed_eval.txt
verbatim (the same string, any case, as a whole token of the output), per
family: names, places, numbers (with phone numbers and times), e-mail addresses, health
terms. Runs `dxtext privatize --jsonl` RUNS times per preset (the system
generator: each run draws anew), plus the readable preset's options with every
typed family left to privatize ("readable-untyped": the readable preset before
typed classes) as the baseline. The baseline's options are read from
`dxtext presets --format json`, so it follows the preset when it is retuned.

    python3 verbatim.py DXTEXT MODEL EVAL.txt [RUNS] [--json FILE]

--json FILE writes the shares and what they were measured on (the presets'
values, the model's SHA-256, the labelled file's SHA-256): the README's
figures are made from that file by tools/docs/samples.py, which also fails
when the presets or the model have changed since (the measurement is stale:
run this again).
"""
import argparse
import hashlib
import json
import re
import subprocess
import sys
from collections import Counter

FAMILY = {"first_name": "names", "surname": "names", "city": "places", "country": "places", "region": "places",
          "number": "numbers", "time": "numbers", "phone": "numbers", "email": "e-mail", "url": "URLs", "handle": "handles",
          "condition": "health", "drug": "health"}
FAMILIES = ["names", "places", "numbers", "e-mail", "health"]
POLICIES = ["in_vocabulary", "oov", "numbers", "stopwords"]


def presets(dxtext):
    return json.loads(subprocess.run([dxtext, "presets", "--format", "json"], capture_output=True, text=True,
                                     check=True).stdout)["presets"]


def untyped_options(preset):
    """The options of `preset` written out as flags, the typed families left
    at their default (privatize): the preset before typed classes."""
    flags = ["--mechanism", preset["mechanism"], "--epsilon", repr(preset["epsilon"]),
             "--release-shape", preset["release_shape"]]
    if preset["output_top"]:
        flags += ["--output-top", str(preset["output_top"])]
    for policy in POLICIES:
        flags += ["--" + policy.replace("_", "-"), preset[policy]]
    for name, value in preset.get("parameters", {}).items():
        flags += ["--" + name.replace("_", "-"), str(value)]
    return flags


def sha256_of(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dxtext")
    ap.add_argument("model")
    ap.add_argument("eval")
    ap.add_argument("runs", nargs="?", type=int, default=3)
    ap.add_argument("--json", help="write the shares and what they were measured on to this file")
    args = ap.parse_args(argv[1:])

    texts, gold = [], []
    for line in open(args.eval, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        ents = re.findall(r"\[\[(\w+):(.*?)\]\]", line)
        texts.append(re.sub(r"\[\[\w+:(.*?)\]\]", r"\1", line))
        gold.append(ents)
    stdin = "".join(json.dumps({"text": t}) + "\n" for t in texts)
    all_presets = presets(args.dxtext)
    configs = {p["name"]: ["--preset", p["name"]] for p in all_presets}
    readable = next(p for p in all_presets if p["name"] == "readable")
    configs["readable-untyped"] = untyped_options(readable)

    shares = {}
    print(f"{'preset':18} " + " ".join(f"{f:>10}" for f in FAMILIES))
    for name, options in configs.items():
        kept, total = Counter(), Counter()
        for _ in range(args.runs):
            out = subprocess.run([args.dxtext, "privatize", "--jsonl", "--model", args.model, *options], input=stdin,
                                 capture_output=True, text=True, check=True).stdout.splitlines()
            for line, ents in zip(out, gold):
                released = json.loads(line)["text"].lower()
                for cls, ent in ents:
                    f = FAMILY[cls]
                    total[f] += 1
                    pattern = r"(?<![\w@.])" + re.escape(ent.lower()) + r"(?![\w@])"
                    kept[f] += re.search(pattern, released) is not None
        shares[name] = {f: kept[f] / total[f] for f in FAMILIES if total[f]}
        print(f"{name:18} " + " ".join(
            f"{100 * shares[name][f]:9.1f}%" if f in shares[name] else f"{'-':>10}" for f in FAMILIES))

    if args.json:
        inspect = json.loads(subprocess.run([args.dxtext, "inspect", args.model], capture_output=True, text=True,
                                            check=True).stdout)
        record = {
            "what": "share of labelled entities released verbatim, per preset and family (eval/typed_classes/verbatim.py)",
            "eval_file": args.eval,
            "eval_sha256": sha256_of(args.eval),
            "model_sha256": inspect["sha256"],
            "runs": args.runs,
            "baseline": {"name": "readable-untyped", "options": configs["readable-untyped"]},
            "presets": all_presets,
            "shares": shares,
        }
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(record, f, indent=1, sort_keys=True)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
