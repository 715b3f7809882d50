#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks dxtext's word folding (src/unicode/fold.cpp) against the Unicode
Character Database:

- Normalization Form C on every line of the UCD's NormalizationTest.txt
  (the conformance test of UAX #15): c2 == NFC(c1) == NFC(c2) == NFC(c3) and
  c4 == NFC(c4) == NFC(c5); code points outside its part 1 are unchanged;
- toNFKC_Casefold is blind to compatibility equivalence (fold(c1) == ... ==
  fold(c5) on each line) and idempotent (fold(fold(x)) == fold(x)) on every
  line and on every code point;
- on every code point Python's own Unicode data also knows (and whose age is
  at most that version), the folding equals one derived independently from
  Python's NFKC and str.casefold: repeat NFKC, full case folding and removal
  of Default_Ignorable_Code_Point until stable, then NFC.

    python3 tests/unicode/check_fold.py PROBE [--ucd DIR]

Exit 0 when all hold, 1 otherwise, 77 when the UCD is not installed.
"""

from __future__ import annotations

import argparse
import bz2
import subprocess
import sys
import unicodedata
from pathlib import Path


def hexs(cps):
    return " ".join(f"{c:04X}" for c in cps)


def parse(h):
    return [int(x, 16) for x in h.split()]


def run_probe(probe, lines):
    out = subprocess.run([probe], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True).stdout
    rows = out.split("\n")[:-1]
    if len(rows) != len(lines):
        sys.exit(f"the probe answered {len(rows)} lines to {len(lines)}")
    return [tuple(parse(p) for p in r.split(";")) for r in rows]


def ranges(path: Path, prop: str):
    for line in path.read_text(encoding="utf-8").splitlines():
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        fields = [x.strip() for x in data.split(";")]
        if fields[1] != prop:
            continue
        a, _, b = fields[0].partition("..")
        yield int(a, 16), int(b or a, 16)


def main(argv):
    p = argparse.ArgumentParser()
    p.add_argument("probe")
    p.add_argument("--ucd", type=Path, default=Path("/usr/share/unicode"))
    a = p.parse_args(argv)
    test = a.ucd / "NormalizationTest.txt.bz2"
    if not test.is_file():
        print(f"{test} is missing (Debian: unicode-data): not checked")
        return 77
    failures = []

    def fail(msg):
        if len(failures) < 20:
            print("FAIL", msg)
        failures.append(msg)

    cases, part1 = [], set()
    part = None
    for line in bz2.decompress(test.read_bytes()).decode("utf-8").splitlines():
        if line.startswith("@Part"):
            part = line.split()[0]
            continue
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        cols = [parse(c) for c in data.split(";")[:5]]
        cases.append(cols)
        if part == "@Part1":
            part1.add(cols[0][0])
    lines = [hexs(c) for cols in cases for c in cols]
    answers = run_probe(a.probe, lines)
    folds = []
    for k, cols in enumerate(cases):
        got = answers[5 * k: 5 * k + 5]
        c1, c2, c3, c4, c5 = cols
        for i, want in ((0, c2), (1, c2), (2, c2), (3, c4), (4, c4)):
            if got[i][0] != want:
                fail(f"NFC({hexs(cols[i])}) = {hexs(got[i][0])}, want {hexs(want)}")
        if any(g[1] != got[0][1] for g in got):
            fail(f"fold differs across the compatibility-equivalent forms of {hexs(c1)}")
        folds.append(got[0][1])
    surrogates = range(0xD800, 0xE000)
    every = [c for c in range(0x110000) if c not in surrogates]
    singles = run_probe(a.probe, [f"{c:04X}" for c in every])
    for c, (n, _) in zip(every, singles):
        if c not in part1 and n != [c]:
            fail(f"NFC(U+{c:04X}) = {hexs(n)}, but NormalizationTest part 1 does not list it")
    again = run_probe(a.probe, [hexs(f) for f in folds] + [hexs(f) for _, f in singles])
    for f, (_, ff) in zip(folds + [f for _, f in singles], again):
        if ff != f:
            fail(f"fold is not idempotent on {hexs(f)}: {hexs(ff)}")

    # An independent derivation on the code points Python's data also holds.
    ignorable = set()
    for x, y in ranges(a.ucd / "DerivedCoreProperties.txt", "Default_Ignorable_Code_Point"):
        ignorable.update(range(x, y + 1))
    py_version = tuple(int(x) for x in unicodedata.unidata_version.split(".")[:2])
    age = {}
    for line in (a.ucd / "DerivedAge.txt").read_text(encoding="utf-8").splitlines():
        data = line.split("#", 1)[0].strip()
        if data:
            r, v = [x.strip() for x in data.split(";")]
            x, _, y = r.partition("..")
            for c in range(int(x, 16), int(y or x, 16) + 1):
                age[c] = tuple(int(t) for t in v.split("."))

    def derived(s):
        while True:
            t = unicodedata.normalize("NFKC", s).casefold()
            t = "".join(ch for ch in unicodedata.normalize("NFKC", t) if ord(ch) not in ignorable)
            if t == s:
                return unicodedata.normalize("NFC", t)
            s = t

    compared = 0
    for c, (_, f) in zip(every, singles):
        if c not in age or age[c] > py_version:
            continue
        compared += 1
        want = [ord(ch) for ch in derived(chr(c))]
        if f != want:
            fail(f"fold(U+{c:04X}) = {hexs(f)}, derived {hexs(want)}")
    print(f"{len(cases)} NormalizationTest lines, {len(every)} code points "
          f"({compared} against Python's Unicode {unicodedata.unidata_version}): {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
