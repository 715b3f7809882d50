#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every source file of dxtext written by hand or generated into the tree
# carries an SPDX-License-Identifier line in its first five lines (the
# README promises it). Runs over the files git tracks, so it needs the
# source tree to be a git checkout; outside one it checks the directory walk.
set -euo pipefail
root=${1:?usage: check_spdx.sh SOURCE_DIR}
cd "$root"
pattern='\.(c|h|cpp|hpp|inc|py|sh|js|mjs|cjs|rs|java|swift|cmake)$'
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files=$(git ls-files src include tools tests bench bindings cmake examples eval models | grep -E "$pattern" || true)
else
  files=$(find src include tools tests bench bindings cmake examples eval models -type f | grep -E "$pattern" || true)
fi
missing=0
count=0
for f in $files; do
  [ -f "$f" ] || continue
  count=$((count + 1))
  if ! head -n 5 "$f" | grep -q 'SPDX-License-Identifier:'; then
    echo "no SPDX-License-Identifier line: $f" >&2
    missing=$((missing + 1))
  fi
done
if [ "$count" -eq 0 ]; then
  echo "no source files found under $root" >&2
  exit 1
fi
if [ "$missing" -ne 0 ]; then
  echo "$missing of $count files lack an SPDX line" >&2
  exit 1
fi
echo "$count files, each with an SPDX line"
