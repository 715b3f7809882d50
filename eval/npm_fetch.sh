# SPDX-License-Identifier: Apache-2.0
# Shared by eval/fetch_*.sh (sourced): fetch a pinned npm package into the
# evaluation cache, outside the repository.
#
#   npm_fetch NAME PACKAGE VERSION SHA256 [CACHE_DIR]
#
# Sets $dest to CACHE_DIR/NAME-VERSION (CACHE_DIR defaults to
# $DXT_EVAL_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/dxtext-eval) and returns
# 0 when an earlier fetch completed there (the caller then prints its path),
# 1 after packing, checking the SHA-256 and unpacking the tarball into
# $dest/package: the caller then checks the licence and contents and calls
# npm_fetch_done. Exits on any failure.
npm_fetch() {
  local name=$1 package=$2 version=$3 sha256=$4
  local cache=${5:-${DXT_EVAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dxtext-eval}}
  dest="$cache/$name-$version"
  [ -f "$dest/.complete" ] && return 0
  if ! command -v npm >/dev/null 2>&1; then
    echo "fetch $name: npm is needed (Debian: apt-get install npm)" >&2
    exit 1
  fi
  mkdir -p "$dest"
  local tarball
  tarball=$(find "$dest" -maxdepth 1 -name '*.tgz' | head -n 1)
  if [ -z "$tarball" ]; then
    (cd "$dest" && npm pack --silent "$package@$version" >/dev/null)
    tarball=$(find "$dest" -maxdepth 1 -name '*.tgz' | head -n 1)
  fi
  local got
  got=$(sha256sum "$tarball" | cut -d' ' -f1)
  if [ "$got" != "$sha256" ]; then
    echo "fetch $name: $tarball has SHA-256 $got, expected $sha256" >&2
    exit 1
  fi
  rm -rf "$dest/package"
  tar -xzf "$tarball" -C "$dest"
  return 1
}

# The caller's checks passed: later calls find the package at once.
npm_fetch_done() { touch "$dest/.complete"; }

