#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turns the Debian changelogs fetched by eval/fetch_changelogs.sh into a
JSONL corpus for run_eval.py: short technical messages, each written and
signed by one person, with bug numbers, versions, URLs and thanked names.

Each change of a changelog is attributed to its writer: the person who
signed the entry (` -- Name <email>  date`), or the Name of a `[ Name ]`
part in a team changelog. A writer's consecutive changes in one package,
oldest first, are joined into texts of at least --words words, cut between
changes (dxeval/debian_changelog.py). The text is the body lines verbatim
(never the signature line). Writers are kept when they have at least
--min-texts texts in at least --min-packages packages; the --max-authors
with most texts are kept, each capped at --cap texts taken in turn from
their packages. Every record has: id, text, author (the writer's name as
they most often spell it), label (the package's Debian section, related
sections merged: LABELS), section, doc (the package,
for holding out whole packages per author) and licence (of the package's
debian/* files, which must be permissive).

  python3 eval/prepare_changelogs.py --data "$(bash eval/fetch_changelogs.sh)" \\
      --out changelogs.jsonl

Prints the SHA-256 of the output; eval/changelogs/README.md records it.
"""
import argparse
import gzip
import hashlib
import json
import os
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from dxeval import debian_changelog as dc  # noqa: E402

MANIFEST = os.path.join(HERE, "changelogs", "packages.tsv")

# The topic label of a package: its Debian section, with related sections
# merged so that each label has enough texts and none dominates (the other
# programming-language sections, desktop sections, administration tools).
# A section not listed here is an error, so a new package cannot slip into
# a label unnoticed.
LABELS = {
    "python": "python", "java": "java", "php": "php", "devel": "devel", "database": "database",
    "javascript": "web", "web": "web", "httpd": "web",
    "golang": "languages", "rust": "languages", "haskell": "languages", "lisp": "languages", "ruby": "languages",
    "gnu-r": "languages", "ocaml": "languages", "interpreters": "languages", "perl": "languages",
    "libs": "libs", "libdevel": "libs",
    "science": "science", "math": "science",
    "net": "net", "mail": "net",
    "utils": "utils", "admin": "utils", "shells": "utils", "vcs": "utils", "misc": "utils",
    "text": "text", "tex": "text", "editors": "text",
    "games": "desktop", "x11": "desktop", "sound": "desktop", "graphics": "desktop", "video": "desktop",
    "gnome": "desktop", "kde": "desktop", "xfce": "desktop",
}


def read_manifest(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            cells = line.rstrip("\n").split("\t")
            if cells[0] == "package":
                continue
            if len(cells) != 6:
                sys.exit(f"prepare_changelogs.py: {path}:{line_no}: expected 6 tab-separated fields")
            rows.append(dict(zip(("package", "arch", "version", "section", "licence", "sha256"), cells)))
    return rows


def people(entries):
    """A function from a writer's name to the person: names (folded by
    dc.name_key) that signed with one e-mail address are one person (a
    developer who changed how they sign, e.g. a nickname), and so are the
    addresses one name signed with."""
    parent = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for e in entries:
        a, b = find("name:" + dc.name_key(e.name)), find("mail:" + e.email.lower())
        if a != b:
            parent[max(a, b)] = min(a, b)
    return lambda name: find("name:" + dc.name_key(name))


def corpus(data, manifest, words, min_texts, min_packages, max_authors, cap):
    """The records, in a fixed order (a function of the files only)."""
    by_author = defaultdict(lambda: defaultdict(list))  # person -> package -> texts
    spellings = defaultdict(Counter)
    section = {}
    changelogs = {}
    for row in manifest:
        pkg = row["package"]
        base = os.path.join(data, pkg)
        try:
            copyright_text = open(os.path.join(base, "copyright"), encoding="utf-8", errors="replace").read()
            changelog = gzip.open(os.path.join(base, "changelog.gz"), "rt", encoding="utf-8",
                                  errors="replace").read()
        except OSError as e:
            sys.exit(f"prepare_changelogs.py: {pkg}: {e} (run eval/fetch_changelogs.sh)")
        licence = dc.debian_licence(copyright_text)
        if licence != row["licence"]:
            sys.exit(f"prepare_changelogs.py: {pkg}: the copyright file gives the packaging licence {licence!r}, "
                     f"the manifest {row['licence']!r}")
        if not dc.is_permissive(licence):
            sys.exit(f"prepare_changelogs.py: {pkg}: packaging licence {licence!r} is not permissive")
        if row["section"] not in LABELS:
            sys.exit(f"prepare_changelogs.py: {pkg}: section {row['section']!r} has no label (LABELS)")
        section[pkg] = row["section"]
        changelogs[pkg] = dc.entries(changelog)
    person = people(e for es in changelogs.values() for e in es)
    for pkg, es in changelogs.items():
        for who, text in dc.texts(es, words):
            key = person(who)
            by_author[key][pkg].append(text)
            spellings[key][who] += 1

    def total(key):
        return sum(len(v) for v in by_author[key].values())

    eligible = [k for k in by_author if total(k) >= min_texts and len(by_author[k]) >= min_packages]
    chosen = sorted(sorted(eligible), key=lambda k: -min(total(k), cap))[:max_authors]
    picked = {}
    for key in chosen:
        # In turn from each package (by name), so that a capped author keeps
        # texts from all their packages.
        queues = {p: list(enumerate(ts)) for p, ts in sorted(by_author[key].items())}
        take = []
        while len(take) < cap and any(queues.values()):
            for p in sorted(queues):
                if queues[p] and len(take) < cap:
                    i, t = queues[p].pop(0)
                    take.append((p, i, t))
        picked[key] = sorted(take)
    records = []
    licences = {row["package"]: row["licence"] for row in manifest}
    for key in sorted(picked, key=lambda k: spellings[k].most_common(1)[0][0]):
        name = sorted(spellings[key].items(), key=lambda x: (-x[1], x[0]))[0][0]
        for p, i, t in picked[key]:
            records.append({"id": f"{p}#{dc.name_key(name)}#{i}", "text": t, "author": name,
                            "label": LABELS[section[p]], "section": section[p],
                            "doc": p, "licence": licences[p]})
    return records


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="the directory printed by eval/fetch_changelogs.sh")
    ap.add_argument("--manifest", default=MANIFEST)
    ap.add_argument("--words", type=int, default=40, help="least words per text (default 40)")
    ap.add_argument("--min-texts", type=int, default=25, help="least texts per author (default 25)")
    ap.add_argument("--min-packages", type=int, default=3, help="least packages per author (default 3)")
    ap.add_argument("--max-authors", type=int, default=40, help="most authors (default 40)")
    ap.add_argument("--cap", type=int, default=40, help="most texts per author (default 40)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)

    manifest = read_manifest(args.manifest)
    records = corpus(args.data, manifest, args.words, args.min_texts, args.min_packages, args.max_authors, args.cap)
    if not records:
        sys.exit("prepare_changelogs.py: no author meets the thresholds")
    data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode("utf-8")
    with open(args.out, "wb") as f:
        f.write(data)
    authors = Counter(r["author"] for r in records)
    labels = Counter(r["label"] for r in records)
    print(f"{args.out}: {len(records)} texts of >= {args.words} words, {len(authors)} authors "
          f"({min(authors.values())}-{max(authors.values())} texts each), {len(labels)} labels "
          f"({', '.join(f'{k} {v}' for k, v in sorted(labels.items()))}), "
          f"{len({r['doc'] for r in records})} packages", file=sys.stderr)
    print(f"sha256 {hashlib.sha256(data).hexdigest()}")


if __name__ == "__main__":
    main()
