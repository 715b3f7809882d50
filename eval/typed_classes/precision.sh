#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The typed tokens two builds of dxtext find on ordinary text, and those one
# finds and the other does not (a detection change must not type ordinary
# words). Each ROOT is a source tree whose build/ holds lib/libdxtext.a.
#
#   eval/typed_classes/precision.sh BEFORE_ROOT AFTER_ROOT [FILE...]
#
# FILEs are plain text (one text a line) or .jsonl with a "text" field;
# default: eval/data/everyday-sentences.txt, eval/data/sotu-slice.jsonl,
# eval/data/kjv-slice.jsonl, models/euclid/heldout-everyday.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
before=$1 after=$2
shift 2
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$here/eval/data/everyday-sentences.txt" "$here/eval/data/sotu-slice.jsonl"
                                   "$here/eval/data/kjv-slice.jsonl" "$here/models/euclid/heldout-everyday.txt")
model=$here/models/dxtext-en-euclid-100d-40k.dxe
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for side in before after; do
  root=${!side}
  c++ -std=c++17 -O1 -I"$root/src" -I"$root/include" -I"$root/build" "$here/eval/typed_classes/list_typed.cpp" \
    "$root/build/lib/libdxtext.a" -lcrypto -lpthread -o "$work/list_$side"
done
for f in "${files[@]}"; do
  if [[ $f == *.jsonl ]]; then
    python3 -c 'import json,sys
for l in open(sys.argv[1]): print(json.loads(l)["text"].replace("\n", " "))' "$f" >"$work/text"
  else
    cp "$f" "$work/text"
  fi
  "$work/list_before" "$model" <"$work/text" | sort >"$work/b"
  "$work/list_after" "$model" <"$work/text" | sort >"$work/a"
  echo "$(basename "$f"): $(wc -l <"$work/b") typed tokens before, $(wc -l <"$work/a") after"
  echo "  newly typed: $(comm -13 "$work/b" "$work/a" | sort | uniq -c | awk '{printf "%s %s(%s) ", $2, $3, $1}')"
  echo "  no longer typed: $(comm -23 "$work/b" "$work/a" | sort | uniq -c | awk '{printf "%s %s(%s) ", $2, $3, $1}')"
done
