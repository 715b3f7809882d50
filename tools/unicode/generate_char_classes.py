#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generates src/unicode/char_class_table.inc, the tokenizer's character
classes, from the Unicode Character Database.

    python3 tools/unicode/generate_char_classes.py [--ucd DIR] [--check] [OUT]

DIR defaults to /usr/share/unicode, where Debian's package `unicode-data`
puts the UCD (apt-get install unicode-data). OUT defaults to the table in the
source tree. With --check nothing is written: the exit status is 0 when OUT
is what this script would write, 1 when it differs, and 77 when DIR holds a
Unicode version other than the one OUT was made from (regenerate on purpose,
then review the diff).

The classes (docs/limitations.md, "Text", states them for users):

  invisible  Default_Ignorable_Code_Point (DerivedCoreProperties.txt): zero
             width joiners and spaces, bidi controls, variation selectors,
             tag characters, soft hyphen, fillers... Between two word
             characters they are part of the word; anywhere else the text
             functions drop them, since a run of them can carry a hidden
             message that no reader of the output would see.
  digit      General_Category N* (Nd, Nl, No): a run of them is a number.
  letter     General_Category L* and M*; Co (private use) and Cn (unassigned,
             noncharacters), whose meaning is unknown, so that a letter of a
             script newer than this table or of a private font is never
             copied verbatim; and the letter-like symbols: S* code points
             whose compatibility decomposition holds a letter or digit
             (circled, parenthesized and squared letters, letterlike symbols,
             CJK compatibility squares), S* code points of a script other
             than Common and Inherited (Braille, SignWriting, radicals, the
             symbols of one script), and S* code points named as a letter or
             digit without a decomposition (regional indicators, negative
             circled and squared letters, turned digits, keycap ten).
  other      everything else: spaces, punctuation, other symbols, controls.
             Copied verbatim between words.

Code points below U+0080 are not in the table: the tokenizer classifies ASCII
itself (letters and digits; everything else is other).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "src" / "unicode" / "char_class_table.inc"
OTHER, LETTER, DIGIT, INVISIBLE = "kOther", "kLetter", "kDigit", "kInvisible"
MAX_CODE_POINT = 0x10FFFF


def ranges_of(path: Path):
    """(first, last, value) for each data line of a UCD property file."""
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = [f.strip() for f in line.split(";")]
        first, _, last = fields[0].partition("..")
        yield int(first, 16), int(last or first, 16), fields[1]


def unicode_version(ucd: Path) -> str:
    first = (ucd / "DerivedCoreProperties.txt").read_text(encoding="utf-8").splitlines()[0]
    m = re.match(r"# DerivedCoreProperties-(\d+\.\d+\.\d+)\.txt", first)
    if not m:
        sys.exit(f"cannot read the Unicode version from {ucd / 'DerivedCoreProperties.txt'}")
    return m.group(1)


def load(ucd: Path):
    category, name, decomposition = {}, {}, {}
    first = None
    for line in (ucd / "UnicodeData.txt").read_text(encoding="utf-8").splitlines():
        f = line.split(";")
        cp, n, gc = int(f[0], 16), f[1], f[2]
        if n.endswith(", First>"):
            first = cp
            continue
        if n.endswith(", Last>"):
            for c in range(first, cp + 1):
                category[c], name[c] = gc, n
            continue
        category[cp], name[cp] = gc, n
        if f[5]:
            decomposition[cp] = [int(x, 16) for x in f[5].split() if not x.startswith("<")]
    script = {}
    for a, b, s in ranges_of(ucd / "Scripts.txt"):
        for c in range(a, b + 1):
            script[c] = s
    ignorable = set()
    for a, b, p in ranges_of(ucd / "DerivedCoreProperties.txt"):
        if p == "Default_Ignorable_Code_Point":
            ignorable.update(range(a, b + 1))
    return category, name, decomposition, script, ignorable


def classify(ucd: Path):
    category, name, decomposition, script, ignorable = load(ucd)

    def full_decomposition(c):
        if c not in decomposition:
            return [c]
        return [x for d in decomposition[c] for x in full_decomposition(d)]

    named_letter = re.compile(r"\b(LETTER|DIGIT) \S+$|^KEYCAP ")
    classes = []
    for c in range(MAX_CODE_POINT + 1):
        gc = category.get(c, "Cn")
        if c in ignorable:
            cls = INVISIBLE
        elif gc[0] in "LM" or gc in ("Co", "Cn"):
            cls = LETTER
        elif gc[0] == "N":
            cls = DIGIT
        elif gc[0] == "S" and (
            any(category.get(x, "Cn")[0] in "LN" for x in full_decomposition(c) if x != c)
            or script.get(c, "Unknown") not in ("Common", "Inherited", "Unknown")
            or named_letter.search(name[c])
        ):
            cls = LETTER
        else:
            cls = OTHER  # Cs (surrogates) too: never in valid UTF-8
        classes.append(cls)
    return classes


def render(classes, version: str) -> str:
    out = [
        "// SPDX-License-Identifier: Apache-2.0",
        "// Generated by tools/unicode/generate_char_classes.py from the Unicode",
        f"// Character Database {version} (Debian: unicode-data). Do not edit; run",
        "// the script again. Each entry starts a run of code points of one class",
        "// that lasts until the next entry; U+0000..U+007F are classified in code.",
        "// Included by src/unicode/char_class.cpp only.",
        f'inline constexpr char kCharClassUnicodeVersion[] = "{version}";',
        "inline constexpr CharClassRun kCharClassRuns[] = {",
    ]
    line = "   "
    previous = None
    for c in range(0x80, MAX_CODE_POINT + 1):
        if classes[c] == previous:
            continue
        previous = classes[c]
        entry = f" {{0x{c:04X}, CharClass::{classes[c]}}},"
        if len(line) + len(entry) > 118:
            out.append(line)
            line = "   "
        line += entry
    out.append(line)
    out.append("};")
    return "\n".join(out) + "\n"


def generate(argv, doc, default_out, needed, make, version_constant):
    """The command line both generators share: parse argv, check that the UCD
    files in `needed` are there, build the table text with make(ucd, version),
    then write it to OUT or, with --check, compare it (0 equal, 1 differs, 77
    made from another Unicode version: the name `version_constant` in OUT)."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=default_out)
    parser.add_argument("--ucd", type=Path, default=Path("/usr/share/unicode"))
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    for f in needed:
        if not (args.ucd / f).is_file():
            sys.exit(f"{args.ucd / f} is missing: install Debian's unicode-data package, or pass --ucd DIR")
    version = unicode_version(args.ucd)
    text = make(args.ucd, version)
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.is_file() else ""
        m = re.search(version_constant + r'\[\] = "([^"]+)"', current)
        if m and m.group(1) != version:
            print(f"{args.out} is made from Unicode {m.group(1)}, {args.ucd} holds {version}: not compared")
            return 77
        if current != text:
            print(f"{args.out} differs from what {Path(sys.argv[0]).name} makes from {args.ucd}")
            return 1
        print(f"{args.out} is up to date (Unicode {version})")
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} (Unicode {version}, {len(text)} bytes)")
    return 0


def main(argv):
    return generate(argv, __doc__, DEFAULT_OUT, ("UnicodeData.txt", "DerivedCoreProperties.txt", "Scripts.txt"),
                    lambda ucd, version: render(classify(ucd), version), "kCharClassUnicodeVersion")

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
