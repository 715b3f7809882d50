# SPDX-License-Identifier: Apache-2.0
"""Reading a labelled JSONL corpus and splitting it into known and unknown texts."""
import json
import random
from collections import defaultdict

REQUIRED = ("text", "author", "label")


class CorpusError(ValueError):
    pass


def read_jsonl(path):
    """Records of a JSONL file; each must be an object with string text,
    author and label fields. Empty lines are ignored."""
    records = []
    with open(path, encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError as e:
                raise CorpusError(f"{path}:{line_no}: not JSON: {e}") from None
            if not isinstance(r, dict):
                raise CorpusError(f"{path}:{line_no}: not a JSON object")
            for k in REQUIRED:
                if not isinstance(r.get(k), str) or not r[k]:
                    raise CorpusError(f"{path}:{line_no}: field '{k}' missing or not a non-empty string")
            records.append(r)
    if not records:
        raise CorpusError(f"{path}: no records")
    return records


def split(records, group_field=None, test_groups=1, test_fraction=0.2, seed=0):
    """Per author, known (training) and unknown (attacked) records.

    With group_field (e.g. the address a snippet comes from), whole groups
    are held out: test_groups groups per author become unknown, so no
    unknown snippet shares a document with a known one (Koppel et al.'s
    known texts vs anonymous snippets). Without it, test_fraction of each
    author's records are drawn at random. A record may also carry its own
    "split" field ("known" or "unknown"), which then decides."""
    rng = random.Random(seed)
    if all(r.get("split") in ("known", "unknown") for r in records):
        known = [r for r in records if r["split"] == "known"]
        unknown = [r for r in records if r["split"] == "unknown"]
    else:
        by_author = defaultdict(list)
        for r in records:
            by_author[r["author"]].append(r)
        known, unknown = [], []
        for author in sorted(by_author):
            rs = by_author[author]
            if group_field:
                missing = [r for r in rs if group_field not in r]
                if missing:
                    raise CorpusError(f"a record of {author!r} has no '{group_field}' field")
                groups = sorted({str(r[group_field]) for r in rs})
                if len(groups) <= test_groups:
                    raise CorpusError(f"{author!r} has {len(groups)} '{group_field}' groups; "
                                      f"holding out {test_groups} leaves nothing known")
                held = set(rng.sample(groups, test_groups))
                for r in rs:
                    (unknown if str(r[group_field]) in held else known).append(r)
            else:
                idx = list(range(len(rs)))
                rng.shuffle(idx)
                n_test = max(1, round(test_fraction * len(rs)))
                if n_test >= len(rs):
                    raise CorpusError(f"{author!r} has too few records to split")
                held = set(idx[:n_test])
                for i, r in enumerate(rs):
                    (unknown if i in held else known).append(r)
    if not known or not unknown:
        raise CorpusError("the split left no known or no unknown records")
    return known, unknown


def subsample(records, per_author, seed=0):
    """At most per_author records of each author, drawn at random, in input order."""
    if not per_author:
        return list(records)
    rng = random.Random(seed)
    by_author = defaultdict(list)
    for i, r in enumerate(records):
        by_author[r["author"]].append(i)
    keep = set()
    for author in sorted(by_author):
        idx = by_author[author]
        keep.update(idx if len(idx) <= per_author else rng.sample(idx, per_author))
    return [r for i, r in enumerate(records) if i in keep]
