#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Detection precision per typed class on ordinary text (issue 35): a list
class (names, places, organisations, health terms) that fires on an ordinary
word replaces it with a member of the class, which changes the meaning as
surely as a miss leaks.

  sample: run eval/typed_classes/list_typed.cpp (built against a dxtext
  build) over texts, draw up to PER_CLASS detections per class (seeded; all
  of a class with fewer), and write them with a short context for labelling:

    python3 precision_sample.py sample LIST_TYPED MODEL OUT.tsv FILE... [--per-class 300] [--seed 1]

  FILEs are .jsonl (a "text" field and an "id" field; a message keeps its
  line breaks) or plain text (one text a line). OUT.tsv columns: source, id,
  class, token, context, label (empty: to be judged), note.

  score: precision per class of a labelled file, and, with LIST_TYPED and
  MODEL, of the detections that another build or model still makes among
  the labelled ones (the same texts run again: a labelled detection no longer
  made is gone; the labelled sample is a uniform sample of the detections
  before, so the ones left are a uniform sample of those after, where the
  rule only removes detections):

    python3 precision_sample.py score LABELLED.tsv [LIST_TYPED MODEL FILE...] [--json OUT.json]

  recall: per list family, the share of the labelled entities of the
  typed-class detection test (tests/data/typed_eval.txt, [[class:text]]
  marks) typed as a class of their family, so that a pruning that costs
  recall shows:

    python3 precision_sample.py recall LIST_TYPED MODEL tests/data/typed_eval.txt ... [--json OUT.json]

Labels: 1 = the token is a member of the class's family in its context (a
person's name, a place, an organisation, a health term: a first name taken
as a surname counts, as the family is what a preset replaces); 0 = an
ordinary word or something else (a program, a distribution, a package).
"""
import argparse
import csv
import json
import os
import random
import re
import subprocess
import sys
from collections import defaultdict

LIST_CLASSES = ["first_name", "surname", "city", "country", "region", "organization", "condition", "drug"]
CONTEXT_WORDS = 6
EMAIL = re.compile(r"\S*@\S+\.\S+")


def read_texts(path):
    """[(id, text)] of a file."""
    out = []
    with open(path, encoding="utf-8") as f:
        if path.endswith(".jsonl"):
            for i, line in enumerate(f):
                r = json.loads(line)
                out.append((str(r.get("id", i)), r["text"]))
        else:
            for i, line in enumerate(f):
                if line.strip():
                    out.append((str(i + 1), line.rstrip("\n")))
    return out


def detect(list_typed, model, texts):
    """{(text index, begin, end): (class, token)} for the texts."""
    data = "\0".join(t.replace("\0", " ") for _, t in texts).encode("utf-8")
    out = subprocess.run([list_typed, "--positions", model], input=data, capture_output=True, check=True).stdout
    found = {}
    for line in out.decode("utf-8").splitlines():
        n, b, e, cls, tok = line.split("\t")
        found[(int(n), int(b), int(e))] = (cls, tok)
    return found


def context(text, begin, end):
    """The token marked [[...]] with CONTEXT_WORDS words either side, on one line."""
    raw = text.encode("utf-8")
    left = raw[:begin].decode("utf-8", "replace").split()
    right = raw[end:].decode("utf-8", "replace").split()
    tok = raw[begin:end].decode("utf-8", "replace")
    # the token may sit inside a longer whitespace-separated word ("(Perl)")
    pre = "" if not left or raw[begin - 1:begin].isspace() or begin == 0 else left.pop()
    post = "" if not right or raw[end:end + 1].isspace() or end == len(raw) else right.pop(0)
    words = left[-CONTEXT_WORDS:] + [f"{pre}[[{tok}]]{post}"] + right[:CONTEXT_WORDS]
    # e-mail addresses are not needed to judge a word: masked
    return " ".join(EMAIL.sub("<e-mail>", w) if "[[" not in w else w for w in words)


def sample(args):
    rows = []
    for path in args.files:
        texts = read_texts(path)
        found = detect(args.list_typed, args.model, texts)
        by_class = defaultdict(list)
        for (n, b, e), (cls, tok) in sorted(found.items()):
            if cls in LIST_CLASSES:
                by_class[cls].append((n, b, e, tok))
        rng = random.Random(args.seed)
        src = os.path.basename(path)
        for cls in LIST_CLASSES:
            hits = by_class[cls]
            picked = sorted(rng.sample(hits, args.per_class)) if len(hits) > args.per_class else hits
            print(f"{src}: {cls}: {len(hits)} detections, {len(picked)} sampled", file=sys.stderr)
            for n, b, e, tok in picked:
                rows.append({"source": src, "id": texts[n][0], "begin": b, "end": e, "class": cls, "token": tok,
                             "context": context(texts[n][1], b, e), "label": "", "note": ""})
    with open(args.out, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), delimiter="\t", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def read_labelled(path):
    with open(path, encoding="utf-8") as f:
        return [r for r in csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")]


def precision(rows):
    """{class: (true, total)} and the families' totals."""
    out = defaultdict(lambda: [0, 0])
    for r in rows:
        out[r["class"]][0] += int(r["label"])
        out[r["class"]][1] += 1
    return {c: tuple(v) for c, v in out.items()}


def score(args):
    rows = read_labelled(args.labelled)
    unlabelled = [r for r in rows if r["label"] not in ("0", "1")]
    if unlabelled:
        sys.exit(f"precision_sample.py: {len(unlabelled)} rows without a 0/1 label, e.g. {unlabelled[0]}")
    result = {"before": {}}
    sources = sorted({r["source"] for r in rows})
    for src in sources:
        result["before"][src] = precision([r for r in rows if r["source"] == src])
    if args.list_typed:
        result["after"] = {}
        for path in args.files:
            src = os.path.basename(path)
            texts = read_texts(path)
            index = {tid: n for n, (tid, _) in enumerate(texts)}
            found = detect(args.list_typed, args.model, texts)
            kept = []
            for r in rows:
                if r["source"] != src:
                    continue
                hit = found.get((index[r["id"]], int(r["begin"]), int(r["end"])))
                if hit is not None and hit[0] == r["class"]:
                    kept.append(r)
            result["after"][src] = precision(kept)
            result.setdefault("removed", {})[src] = sorted(
                {f"{r['class']}:{r['token'].lower()}" for r in rows if r["source"] == src and r not in kept})
    for phase in ("before", "after"):
        for src, per in result.get(phase, {}).items():
            cells = ", ".join(f"{c} {t}/{n} = {t / n:.2f}" for c, (t, n) in sorted(per.items()) if n)
            print(f"{phase} {src}: {cells}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1, sort_keys=True)
            f.write("\n")


FAMILY = {"first_name": "names", "surname": "names", "city": "places", "country": "places", "region": "places",
          "organization": "organisations", "condition": "health", "drug": "health"}
MARK = re.compile(r"\[\[([a-z_]+):(.*?)\]\]")


def recall(args):
    """Per list family, the share of the labelled entities of a
    tests/data/typed_eval*.txt file that are typed as a class of their
    family (every token of a multi-token entity; the lines are run one
    text each, as the detection test does)."""
    result = {}
    for path in args.files:
        texts, spans = [], []
        for line in open(path, encoding="utf-8"):
            if line.startswith("#") or not line.strip():
                continue
            plain, marks, at = "", [], 0
            for m in MARK.finditer(line.rstrip("\n")):
                plain += line[at:m.start()]
                begin = len(plain.encode("utf-8"))
                plain += m.group(2)
                marks.append((m.group(1), begin, len(plain.encode("utf-8"))))
                at = m.end()
            plain += line.rstrip("\n")[at:]
            spans.append(marks)
            texts.append((str(len(texts)), plain))
        found = detect(args.list_typed, args.model, texts)
        by_text = defaultdict(list)
        for (n, b, e), (cls, _) in found.items():
            by_text[n].append((b, e, cls))
        hit, total = defaultdict(int), defaultdict(int)
        for n, marks in enumerate(spans):
            for cls, b, e in marks:
                fam = FAMILY.get(cls)
                if fam is None:
                    continue
                total[fam] += 1
                inside = [c for (tb, te, c) in by_text[n] if tb < e and te > b]
                if inside and all(FAMILY.get(c) == fam for c in inside):
                    hit[fam] += 1
        result[os.path.basename(path)] = {f: (hit[f], total[f]) for f in sorted(total)}
        print(f"recall {os.path.basename(path)}: " + ", ".join(f"{f} {hit[f]}/{total[f]} = {hit[f] / total[f]:.3f}"
                                                            for f in sorted(total)))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1, sort_keys=True)
            f.write("\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample")
    s.add_argument("list_typed")
    s.add_argument("model")
    s.add_argument("out")
    s.add_argument("files", nargs="+")
    s.add_argument("--per-class", type=int, default=300)
    s.add_argument("--seed", type=int, default=1)
    c = sub.add_parser("score")
    c.add_argument("labelled")
    c.add_argument("list_typed", nargs="?")
    c.add_argument("model", nargs="?")
    c.add_argument("files", nargs="*")
    c.add_argument("--json")
    r = sub.add_parser("recall")
    r.add_argument("list_typed")
    r.add_argument("model")
    r.add_argument("files", nargs="+")
    r.add_argument("--json")
    args = ap.parse_args(argv)
    return {"sample": sample, "score": score, "recall": recall}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
