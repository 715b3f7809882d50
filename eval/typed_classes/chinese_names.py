#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How often each preset releases verbatim a romanised Chinese name that is
also an English word (issue 34: "I met Wei Long yesterday", "ask Dr. Fang",
"Sun Li wrote back"): every surname of SURNAMES in every sentence of
TEMPLATES (names in both orders, after titles, sign-offs and greetings, at a
sentence's start and inside it, Title-case and lower case), run RUNS times
per preset with `dxtext privatize --jsonl`; a name survives when the output
holds it, any case, as a whole token. Prints the share per preset and per
template.

    python3 chinese_names.py DXTEXT MODEL [RUNS]
"""
import json
import re
import subprocess
import sys
from collections import Counter

# Romanised surnames that are also English words, and given names (of the
# lists or not) to pair them with.
SURNAMES = ["Long", "Fang", "Sun", "Song", "Tang", "Pan", "Lei", "Yang", "Ding", "Dong", "Gong", "Fan", "Bing",
            "Tan", "Ma", "Li", "Hu"]
GIVEN = ["Wei", "Jing", "Xiuying", "Hui", "Tao", "Jun", "Min", "Lan"]
TEMPLATES = [
    "I met {g} {s} yesterday.",
    "Please ask Dr. {s} about the results.",
    "{s} {g} wrote back this morning.",
    "Yesterday {s} {g} called me twice.",
    "I had lunch with {s} today.",
    "Best regards,\n{g} {s}",
    "Thanks to Ms. {s} for the notes.",
    "My colleague {g} {s} is on leave.",
    "Can you send this to {s} {g}?",
    "{s} said the report is late.",
    "Hi {s}, the meeting moved to Friday.",
    "Mr. {s} and his wife arrived early.",
    "we talked to {g} {s} about the lease.",
    "Professor {s} will teach the course.",
    "The letter from {s} came on Monday.",
    "{g} {s} has a cold.",
]


def main(argv):
    dxtext, model = argv[1], argv[2]
    runs = int(argv[3]) if len(argv) > 3 else 5
    cases = []
    for t, template in enumerate(TEMPLATES):
        for i, s in enumerate(SURNAMES):
            g = GIVEN[i % len(GIVEN)]
            cases.append((t, s, template.format(s=s, g=g)))
    stdin = "".join(json.dumps({"text": text}) + "\n" for _, _, text in cases)
    print(f"{len(cases)} sentences, {runs} runs per preset")
    for preset in ("readable", "features", "strongest"):
        kept, per_template, per_name = 0, Counter(), Counter()
        for _ in range(runs):
            out = subprocess.run([dxtext, "privatize", "--jsonl", "--model", model, "--preset", preset], input=stdin,
                                 capture_output=True, text=True, check=True).stdout.splitlines()
            for (t, s, _), line in zip(cases, out):
                released = json.loads(line)["text"]
                hit = re.search(r"(?<!\w)" + re.escape(s) + r"(?!\w)", released, re.I) is not None
                kept += hit
                per_template[t] += hit
                per_name[s] += hit
        n = len(cases) * runs
        print(f"{preset:10} {100 * kept / n:5.1f}% released verbatim ({kept} of {n})")
        for t, template in enumerate(TEMPLATES):
            share = per_template[t] / (len(SURNAMES) * runs)
            if share:
                print(f"    {100 * share:5.1f}%  {template!r}")
        print("    by name: " + ", ".join(f"{s} {100 * per_name[s] / (len(TEMPLATES) * runs):.0f}%" for s in SURNAMES))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
