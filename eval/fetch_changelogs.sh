#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fetches the Debian packages pinned in eval/changelogs/packages.tsv
# (package, architecture, version, section, licence of the packaging, SHA-256
# of the .deb) with `apt-get download` into a cache directory outside the
# repository, checks each .deb's SHA-256, extracts from each only its
# /usr/share/doc/PACKAGE/changelog.Debian.gz (changelog.gz for a native
# package) and copyright with dpkg-deb, and prints the directory that holds
# them (PACKAGE/changelog.gz and PACKAGE/copyright).
#
#   bash eval/fetch_changelogs.sh [CACHE_DIR]
#
# CACHE_DIR defaults to $DXT_EVAL_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/dxtext-eval.
# Needs apt-get and dpkg-deb (Debian 12 "bookworm", main, with its updates and
# security suites in the sources) and an index that is up to date
# (apt-get update). A pinned version that the archive no longer offers is an
# error naming the package: nothing is substituted. Architecture-specific
# packages are pinned as amd64 builds. The raw corpus is not committed;
# eval/prepare_changelogs.py turns it into JSONL.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
manifest=$here/changelogs/packages.tsv
cache=${1:-${DXT_EVAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dxtext-eval}}
tag=$(sha256sum "$manifest" | cut -c1-16)
dest=$cache/debian-changelogs
out=$dest/extract-$tag
if [ -f "$out/.complete" ]; then
  echo "$out"
  exit 0
fi
for tool in apt-get dpkg-deb sha256sum; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "fetch_changelogs.sh: $tool is needed (a Debian system with apt)" >&2
    exit 1
  fi
done
mkdir -p "$dest/debs"

# The .deb file name apt-get download gives package=version (an epoch's
# colon is written %3a).
deb_of() { echo "$dest/debs/${1}_${3//:/%3a}_${2}.deb"; }

missing=()
while IFS=$'\t' read -r pkg arch version _section _licence sha; do
  case "$pkg" in ''|'#'*|package) continue ;; esac
  f=$(deb_of "$pkg" "$arch" "$version")
  if [ -f "$f" ] && [ "$(sha256sum "$f" | cut -d' ' -f1)" = "$sha" ]; then
    continue
  fi
  rm -f "$f"
  missing+=("$pkg:$arch=$version")
done < "$manifest"

# apt-get download stops at the first version it cannot find and names it;
# batches of 100 keep the command lines short.
if [ ${#missing[@]} -gt 0 ]; then
  echo "fetch_changelogs.sh: downloading ${#missing[@]} packages into $dest/debs" >&2
  for ((i = 0; i < ${#missing[@]}; i += 100)); do
    if ! (cd "$dest/debs" && apt-get download -qq "${missing[@]:i:100}" 2> >(grep -v 'unsandboxed' >&2)); then
      echo "fetch_changelogs.sh: apt-get download failed (see its message above for the package): a pinned" \
        "version may no longer be in the archive, or the index is stale (apt-get update)" >&2
      exit 1
    fi
  done
fi

rm -rf "$out"
mkdir -p "$out"
n=0
while IFS=$'\t' read -r pkg arch version _section _licence sha; do
  case "$pkg" in ''|'#'*|package) continue ;; esac
  f=$(deb_of "$pkg" "$arch" "$version")
  if [ ! -f "$f" ]; then
    echo "fetch_changelogs.sh: $pkg $version ($arch): not downloaded; is it still in the archive?" >&2
    exit 1
  fi
  got=$(sha256sum "$f" | cut -d' ' -f1)
  if [ "$got" != "$sha" ]; then
    echo "fetch_changelogs.sh: $pkg $version ($arch): SHA-256 $got, expected $sha" >&2
    exit 1
  fi
  tmp=$out/.tmp
  rm -rf "$tmp"
  mkdir -p "$tmp" "$out/$pkg"
  # Only the two files: the changelog (changelog.Debian.gz, or changelog.gz
  # for a native package) and the copyright file.
  dpkg-deb --fsys-tarfile "$f" | tar -x -C "$tmp" \
    "./usr/share/doc/$pkg/changelog.Debian.gz" "./usr/share/doc/$pkg/changelog.gz" \
    "./usr/share/doc/$pkg/copyright" 2>/dev/null || true
  doc=$tmp/usr/share/doc/$pkg
  if [ -f "$doc/changelog.Debian.gz" ]; then
    mv "$doc/changelog.Debian.gz" "$out/$pkg/changelog.gz"
  elif [ -f "$doc/changelog.gz" ] && [[ "$version" != *-* ]]; then
    mv "$doc/changelog.gz" "$out/$pkg/changelog.gz"
  else
    echo "fetch_changelogs.sh: $pkg $version: no Debian changelog in the package" >&2
    exit 1
  fi
  if [ ! -f "$doc/copyright" ]; then
    echo "fetch_changelogs.sh: $pkg $version: no copyright file in the package" >&2
    exit 1
  fi
  mv "$doc/copyright" "$out/$pkg/copyright"
  rm -rf "$tmp"
  n=$((n + 1))
done < "$manifest"
touch "$out/.complete"
echo "fetch_changelogs.sh: $n packages extracted" >&2
echo "$out"
