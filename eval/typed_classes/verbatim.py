#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How often each preset releases a labelled entity of tests/data/typed_eval.txt
verbatim (the same string, any case, as a whole token of the output), per
family: names, places, numbers (with phone numbers), e-mail addresses, health
terms. Runs `dxtext privatize --jsonl` RUNS times per preset (the system
generator: each run draws anew), plus the readable preset's options before
typed classes ("readable-untyped") as the baseline.

    python3 verbatim.py DXTEXT MODEL EVAL.txt [RUNS]
"""
import json
import re
import subprocess
import sys
from collections import Counter

FAMILY = {"first_name": "names", "surname": "names", "city": "places", "country": "places", "region": "places",
          "number": "numbers", "phone": "numbers", "email": "e-mail", "url": "URLs", "handle": "handles",
          "condition": "health", "drug": "health"}
CONFIGS = {
    "readable": ["--preset", "readable"],
    "features": ["--preset", "features"],
    "strongest": ["--preset", "strongest"],
    # The readable preset's options with every typed family left to privatize.
    "readable-untyped": ["--mechanism", "exponential", "--epsilon", "4.3", "--release-shape", "normalize",
                         "--output-top", "20000", "--oov", "placeholder", "--numbers", "placeholder"],
}


def main(argv):
    dxtext, model, path = argv[1], argv[2], argv[3]
    runs = int(argv[4]) if len(argv) > 4 else 3
    texts, gold = [], []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        ents = re.findall(r"\[\[(\w+):(.*?)\]\]", line)
        texts.append(re.sub(r"\[\[\w+:(.*?)\]\]", r"\1", line))
        gold.append(ents)
    stdin = "".join(json.dumps({"text": t}) + "\n" for t in texts)
    print(f"{'preset':18} " + " ".join(f"{f:>10}" for f in ["names", "places", "numbers", "e-mail", "health"]))
    for name, options in CONFIGS.items():
        kept, total = Counter(), Counter()
        for _ in range(runs):
            out = subprocess.run([dxtext, "privatize", "--jsonl", "--model", model, *options], input=stdin,
                                 capture_output=True, text=True, check=True).stdout.splitlines()
            for line, ents in zip(out, gold):
                released = json.loads(line)["text"].lower()
                for cls, ent in ents:
                    f = FAMILY[cls]
                    total[f] += 1
                    pattern = r"(?<![\w@.])" + re.escape(ent.lower()) + r"(?![\w@])"
                    kept[f] += re.search(pattern, released) is not None
        print(f"{name:18} " + " ".join(
            f"{100 * kept[f] / total[f]:9.1f}%" if total[f] else f"{'-':>10}"
            for f in ["names", "places", "numbers", "e-mail", "health"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
