#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The C snippet of README.md ("C API") compiles as written, with warnings as
# errors, and runs: it is taken from the README (the first ```c block),
# compiled as C99 against include/ and linked with the shared libdxtext,
# then run (it opens the default model, found from the library's build tree)
# and must print a privatised sentence.
#
#   check_c_snippet.sh CC SOURCE_ROOT LIBRARY WORKDIR
set -euo pipefail
cc=$1 root=$2 library=$3 work=$4
mkdir -p "$work"
awk '/^```c$/ { inside = 1; next } inside && /^```$/ { exit } inside { print }' "$root/README.md" >"$work/readme_snippet.c"
if [ ! -s "$work/readme_snippet.c" ]; then
  echo "README.md has no \`\`\`c block" >&2
  exit 1
fi
"$cc" -std=c99 -pedantic -Wall -Wextra -Werror -I "$root/include" "$work/readme_snippet.c" -o "$work/readme_snippet" \
  "$library" -Wl,-rpath,"$(dirname "$library")"
unset DXTEXT_MODEL
out=$("$work/readme_snippet")
echo "$out"
[ -n "$out" ]
