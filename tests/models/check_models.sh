#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The committed models of a directory open, pass full digest verification, and match
# the SHA-256 recorded in its SHA256SUMS and README.md.
# Usage: check_models.sh DXTEXT_BINARY MODELS_DIR
set -euo pipefail
bin=$1
dir=$2
cd "$dir"
status=0
listed=$(awk '{print $2}' SHA256SUMS)
for f in dxtext-*.dxe; do
  if ! grep -qx "$f" <<<"$listed"; then
    echo "FAIL $f is not listed in SHA256SUMS"
    status=1
  fi
done
if ! sha256sum --quiet -c SHA256SUMS; then
  status=1
fi
while read -r sum file; do
  if ! grep -q "$sum" README.md; then
    echo "FAIL models/README.md does not record the SHA-256 of $file"
    status=1
  fi
  if "$bin" inspect "$file" >/dev/null; then
    echo "ok   $file opens and its digests verify"
  else
    echo "FAIL $file does not open"
    status=1
  fi
done <SHA256SUMS
exit $status
