#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The last lines of tools/setup.sh: the input, the output, and one line on
what the preset did and what it is for. The release record (the guarantee,
safe to send with the text) is saved beside it.

    setup_summary.py TEXT RELEASE.json PRESETS.json

RELEASE.json is `dxtext privatize --format json` output ({"text", "record"});
PRESETS.json is `dxtext presets --format json`. Both are read, never edited,
so the summary follows the presets whatever their values."""
import json
import re
import sys


def words(text: str) -> list:
    return re.findall(r"[\w']+", text.lower())


def main() -> int:
    text, release_path, presets_path = sys.argv[1:4]
    with open(release_path, encoding="utf-8") as f:
        release = json.load(f)
    with open(presets_path, encoding="utf-8") as f:
        presets = {p["name"]: p for p in json.load(f)["presets"]}
    out, record = release["text"], release["record"]
    preset = presets.get(record.get("preset", ""), {})
    before, after = words(text), words(out)
    same = sum(a == b for a, b in zip(before, after)) if len(before) == len(after) else None
    kept = f"; {same} of {len(before)} came out as themselves" if same is not None else ""
    print(f"Input:  {text}")
    print(f"Output: {out}")
    print(f"What happened: the '{record.get('preset')}' preset ({record['mechanism']} mechanism, epsilon "
          f"{record['epsilon']:g}, {record['shape']} shape) drew each word's output at random from the default model, nearer words "
          f"more likely{kept}. Its use: {preset.get('use', 'see dxtext presets')}.")
    worst = record.get("worst_case_per_word")
    if worst is not None:
        print(f"Its guarantee on one scale: at most {worst:.1f} nats of privacy loss per word between any two words, "
              f"whatever they are (the record's worst_case_per_word; docs/guarantees.md).")
    print(f"The output with its release record (the guarantee, safe to send with the text) is in {release_path}; "
          "'dxtext presets' lists the presets, README.md \"Presets\" compares them.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
