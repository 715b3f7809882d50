#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generates src/unicode/fold_table.inc, the data of dxtext's word folding
(toNFKC_Casefold), from the Unicode Character Database.

    python3 tools/unicode/generate_fold_table.py [--ucd DIR] [--check] [OUT]

DIR, OUT and --check work as in generate_char_classes.py (exit 77: DIR holds
another Unicode version than OUT was made from).

Word folding is toNFKC_Casefold (The Unicode Standard, section 3.13, "Default
Case Folding", definition of toNFKC_Casefold; UAX #31 uses it for identifier
matching): map every code point to its NFKC_Casefold value (the derived
property NFKC_CF of DerivedNormalizationProps.txt: NFKC, full case folding and
removal of Default_Ignorable_Code_Point, repeated until stable), then bring
the result to Normalization Form C (UAX #15). The tables:

  kFold/kFoldPool        NFKC_CF, in entries of two u32 (first, packed),
                         sorted by first, covering disjoint code points:
                         bit 31 of packed clear: every code point of
                           [first, first + span] maps to the `length` code
                           points at kFoldPool[offset] (0: removed); span is
                           bits 0-11, length 12-16, offset 17-30;
                         bit 31 set, a run: first, first + stride, ... up to
                           first + span each map to itself plus delta (one
                           code point); span is bits 0-10, stride 2 if bit
                           11 is set (else 1), delta bits 12-30 (19-bit two's
                           complement); the code points a stride of 2 skips
                           map to themselves.
                         Code points no entry covers map to themselves.
  kCombiningClasses      Canonical_Combining_Class (UnicodeData.txt field 3),
                         runs of one non-zero class; others are 0.
  kDecompositions/...    full canonical decompositions (field 5 without a
                         <tag>, applied recursively), (code point, u16 offset
                         into kDecompositionPool, length); Hangul syllables
                         are decomposed in code (section 3.12).
  kCompositions          the primary composites: pairs (first, second) whose
                         canonical decomposition is that pair and which are
                         not Full_Composition_Exclusion; Hangul in code.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_char_classes import generate  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "src" / "unicode" / "fold_table.inc"
HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3


def load(ucd: Path):
    ccc, canonical = {}, {}
    for line in (ucd / "UnicodeData.txt").read_text(encoding="utf-8").splitlines():
        f = line.split(";")
        cp = int(f[0], 16)
        if int(f[3]) != 0:
            ccc[cp] = int(f[3])  # ranges (<..., First>) all have class 0
        if f[5] and not f[5].startswith("<"):
            canonical[cp] = [int(x, 16) for x in f[5].split()]
    fold, excluded = [], set()
    for line in (ucd / "DerivedNormalizationProps.txt").read_text(encoding="utf-8").splitlines():
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        fields = [x.strip() for x in data.split(";")]
        first, _, last = fields[0].partition("..")
        a, b = int(first, 16), int(last or first, 16)
        if fields[1] == "NFKC_CF":
            fold.append((a, b, [int(x, 16) for x in fields[2].split()]))
        elif fields[1] == "Full_Composition_Exclusion":
            excluded.update(range(a, b + 1))
    return ccc, canonical, sorted(fold), excluded


def tables(ucd: Path):
    ccc, canonical, fold, excluded = load(ucd)

    def full(c):
        return [x for d in canonical[c] for x in full(d)] if c in canonical else [c]

    decompositions = {c: full(c) for c in sorted(canonical)}
    compositions = sorted(
        (d[0], d[1], c) for c, d in canonical.items() if len(d) == 2 and c not in excluded
    )
    runs = []  # (first, last, class) of equal non-zero classes
    for c in sorted(ccc):
        if runs and runs[-1][1] == c - 1 and runs[-1][2] == ccc[c]:
            runs[-1] = (runs[-1][0], c, ccc[c])
        else:
            runs.append((c, c, ccc[c]))
    return fold, runs, decompositions, compositions


def pooled(mappings):
    """Entries (key..., offset, length) into one pool, sharing equal values."""
    pool, at, entries = [], {}, []
    for key, value in mappings:
        t = tuple(value)
        if t not in at:
            at[t] = len(pool)
            pool.extend(value)
        entries.append((*key, at[t] if value else 0, len(value)))
    return entries, pool


def wrap(out, items):
    line = "   "
    for item in items:
        if len(line) + len(item) + 1 > 118:
            out.append(line)
            line = "   "
        line += " " + item
    out.append(line)


def fold_entries(fold):
    """kFold's (first, packed) entries and kFoldPool (see the docstring)."""
    single = {a: v[0] - a for a, b, v in fold if a == b and len(v) == 1}
    mapped = {c for a, b, _ in fold for c in range(a, b + 1)}
    entries = []
    ranges, pool = pooled(((a, b), v) for a, b, v in fold if not (a == b and len(v) == 1))
    for a, b, offset, length in ranges:
        assert b - a < 1 << 12 and length < 1 << 5 and offset < 1 << 14
        entries.append((a, (b - a) | length << 12 | offset << 17))
    keys = sorted(single)
    i = 0
    while i < len(keys):
        first, delta, stride, j = keys[i], single[keys[i]], 0, i
        while j + 1 < len(keys):
            step = keys[j + 1] - keys[j]
            if single[keys[j + 1]] != delta or keys[j + 1] - first >= 1 << 11:
                break
            if step not in (1, 2) or (stride and step != stride) or (step == 2 and keys[j] + 1 in mapped):
                break
            stride, j = step, j + 1
        assert -(1 << 18) <= delta < 1 << 18
        entries.append((first, 1 << 31 | (keys[j] - first) | (stride == 2) << 11 | (delta & ((1 << 19) - 1)) << 12))
        i = j + 1
    return sorted(entries), pool


def render(ucd: Path, version: str) -> str:
    fold, runs, decompositions, compositions = tables(ucd)
    fold_table, fold_pool = fold_entries(fold)
    dec_entries, dec_pool = pooled(((c,), v) for c, v in decompositions.items())
    assert len(dec_pool) < 1 << 16  # Decomposition::offset is a u16
    out = [
        "// SPDX-License-Identifier: Apache-2.0",
        "// Generated by tools/unicode/generate_fold_table.py from the Unicode",
        f"// Character Database {version} (Debian: unicode-data). Do not edit; run",
        "// the script again. Included by src/unicode/fold.cpp only; the script's",
        "// docstring says what each table holds.",
        f'inline constexpr char kFoldUnicodeVersion[] = "{version}";',
        "inline constexpr FoldEntry kFold[] = {",
    ]
    wrap(out, [f"{{0x{a:04X}, 0x{p:08X}}}," for a, p in fold_table])
    out += ["};", "inline constexpr uint32_t kFoldPool[] = {"]
    wrap(out, [f"0x{c:04X}," for c in fold_pool])
    out += ["};", "inline constexpr CombiningRun kCombiningClasses[] = {"]
    wrap(out, [f"{{0x{a:04X}, 0x{b:04X}, {k}}}," for a, b, k in runs])
    out += ["};", "inline constexpr Decomposition kDecompositions[] = {"]
    wrap(out, [f"{{0x{c:04X}, {o}, {n}}}," for c, o, n in dec_entries])
    out += ["};", "inline constexpr uint32_t kDecompositionPool[] = {"]
    wrap(out, [f"0x{c:04X}," for c in dec_pool])
    out += ["};", "inline constexpr Composition kCompositions[] = {"]
    wrap(out, [f"{{0x{a:04X}, 0x{b:04X}, 0x{c:04X}}}," for a, b, c in compositions])
    out.append("};")
    return "\n".join(out) + "\n"


def main(argv):
    return generate(argv, __doc__, DEFAULT_OUT,
                    ("UnicodeData.txt", "DerivedNormalizationProps.txt", "DerivedCoreProperties.txt"), render,
                    "kFoldUnicodeVersion")

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
