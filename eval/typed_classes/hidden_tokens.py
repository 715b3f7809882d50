#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Verbatim survival of sensitive tokens that ordinary writing hides from the
detector (issue 34): an address or URL beside non-ASCII punctuation or
letters, URLs without a scheme or over 1 KiB, look-alike, encoded, spaced or
spelled-out '@', handles in curly quotes, numbers in words, street
addresses, names first in a sentence, in signatures and in compatibility
letters, and an address at the 64 KiB piece boundary.

For each probe and preset, runs `dxtext privatize --jsonl` once over DRAWS
copies of the probe (each line draws anew from the system generator) and
counts the draws whose output holds any of the probe's secrets verbatim
(compared after NFKC and case folding, as a whole word; for the probes at the
64 KiB cut, in the output's last 40 words, where the probe is). A secret that
a replacement's public pattern may draw ("Mill" in "77 Old Mill Lane") is
not a secret. Prints one row per class: the mean over its probes, per preset.

    python3 hidden_tokens.py DXTEXT MODEL [DRAWS [CLASS]]

(CLASS: only the classes whose name holds it.)
"""
import json
import re
import subprocess
import sys
import unicodedata
from collections import defaultdict

PRESETS = ["readable", "features", "strongest"]

FILLER = "we talked about the weather and the long walk home after lunch "


def boundary_probe(token):
    """`token` starting a few bytes before the 64 KiB mark, in text with no sentence end."""
    text = FILLER * (65536 // len(FILLER) + 1)
    return text[: 65536 - 6] + " " + token + " and then we went home. It was late"


PROBES = {
    "e-mail beside non-ASCII": [
        ("Please put it on sunny.garden@mail.de\u2019s desk.", ["sunny", "garden"]),
        ("Write to \u201criver.stone@posteo.de\u201d today.", ["river", "stone"]),
        ("Contact caf\u00e9.lover@correo.es for details.", ["caf\u00e9", "lover"]),
        ("Send it to quiet.harbor@example.org\u2026 thanks", ["quiet", "harbor"]),
    ],
    "URL (non-ASCII, long, no scheme)": [
        ("I found help at reddit.com/r/grief-support last night.", ["reddit", "grief"]),
        ("See \u201chttps://example.org/clinic/oncology-ward\u201d for hours.", ["oncology"]),
        ("The form is at https://forms.example.com/caf\u00e9/divorce-lawyers\u2026", ["divorce", "lawyers"]),
        ("Records: https://example.com/records/" + "x" * 1100 + "/cancer-notes today", ["cancer"]),
    ],
    "look-alike, encoded, spaced, spelled '@'": [
        (f"mail me at sunny.garden{at}mail.de please", ["sunny", "garden"])
        for at in ["\uff20", "\ufe6b", "&#64;", "%40", "\t@\t", "\u00a0@\u00a0", "\u200b@", "\n@"]
    ] + [("mail me at sunny dot garden at gmail dot com please", ["sunny", "garden"])],
    "handle in curly quotes": [
        ("follow \u201c@bridge\u201d for updates", ["bridge"]),
        ("ping \u2018@stormchaser\u2019 now", ["stormchaser"]),
    ],
    "phone in words (0s and 1s)": [
        ("my number is five five five, zero one one zero, two one", ["zero", "one"]),
        ("call oh one two one, nine nine zero", ["oh", "one", "zero"]),
    ],
    "magnitude words": [
        ("I owe them two hundred thousand dollars", ["hundred", "thousand"]),
        ("the house cost a million", ["million"]),
    ],
    "date of birth in ordinals": [
        ("I was born on the seventh of October", ["seventh"]),
        ("her birthday is the twenty-first of May", ["twenty", "first"]),
    ],
    "street address": [
        ("I live at 412 Spring Road, apartment 4.", ["412", "spring"]),
        ("Send it to 77 Old Mill Lane, Apt. 2B please", ["77", "old mill"]),
        ("we moved to 1600 Larkspur Avenue last year", ["1600", "larkspur"]),
    ],
    "name first in a sentence": [
        ("Rose has diabetes.", ["rose"]),
        ("Bill went to the clinic again.", ["bill"]),
    ],
    "name in a signature": [
        ("See you soon.\nThanks.\nRose", ["rose"]),
        ("Talk later.\nCheers,\nBILL", ["bill"]),
        ("see you soon\nlove,\nmark", ["mark"]),
        ("Thanks, Grace", ["grace"]),
    ],
    "name in compatibility letters": [
        ("I met \uff22\uff49\uff4c\uff4c yesterday", ["bill"]),
        ("I met \U0001d411\U0001d428\U0001d42c\U0001d41e yesterday", ["rose"]),
    ],
    "address at the 64 KiB cut": [
        (boundary_probe("sunny.garden @ mail . de"), ["sunny", "garden"]),
        (boundary_probe("412 Spring Road, apartment 4"), ["412", "spring"]),
    ],
}


def fold(s):
    return unicodedata.normalize("NFKC", s).casefold()


def survives(output, secrets):
    out = fold(output)
    return any(re.search(r"(?<![\w@.])" + re.escape(fold(s)) + r"(?![\w@])", out) for s in secrets)


def main(argv):
    dxtext, model = argv[1], argv[2]
    draws = int(argv[3]) if len(argv) > 3 else 1000
    print(f"{'class':42} " + " ".join(f"{p:>10}" for p in PRESETS))
    for cls, probes in PROBES.items():
        if len(argv) > 4 and argv[4] not in cls:
            continue
        rates = defaultdict(list)
        for text, secrets in probes:
            n = draws if len(text) < 4096 else max(1, draws // 20)  # the long probes: fewer draws
            stdin = (json.dumps({"text": text}) + "\n") * n
            for preset in PRESETS:
                out = subprocess.run([dxtext, "privatize", "--jsonl", "--model", model, "--preset", preset],
                                     input=stdin, capture_output=True, text=True, check=True).stdout.splitlines()
                released = [json.loads(line)["text"] for line in out]
                if len(text) > 60000:  # the cut probes: only the words after the filler
                    released = [" ".join(r.split()[-40:]) for r in released]
                kept = sum(survives(r, secrets) for r in released)
                rates[preset].append(kept / len(out))
        print(f"{cls:42} " + " ".join(f"{100 * sum(rates[p]) / len(rates[p]):9.1f}%" for p in PRESETS), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
