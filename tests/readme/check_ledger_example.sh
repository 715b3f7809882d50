#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The ledger example of README.md ("Command line") does what its comment
# promises: taken from the README (from "# A privacy budget per user" to
# its `dxtext ledger` line), run as written in an empty directory whose
# build/bin/dxtext is the program under test, the repeated text gives the
# same output and the ledger shows one release spent, one memoised entry.
#
#   check_ledger_example.sh README.md DXTEXT WORKDIR
set -euo pipefail
readme=$1 program=$2 work=$3
rm -rf "$work"
mkdir -p "$work/build/bin" "$work/state"
ln -s "$program" "$work/build/bin/dxtext"
awk '/^# A privacy budget per user/ { on = 1 }
     on && /^\.\/build\/bin\/dxtext ledger / { print; exit }
     on && !/^#/ { print }' "$readme" >"$work/example.sh"
if ! grep -q -- "--ledger " "$work/example.sh" || ! grep -q "dxtext ledger " "$work/example.sh"; then
  echo "README.md has no ledger example (from '# A privacy budget per user' to 'dxtext ledger')" >&2
  exit 1
fi
cat "$work/example.sh"
# The ledger's anchor goes under $XDG_STATE_HOME: keep it in the work dir.
(cd "$work" && unset DXTEXT_MODEL && XDG_STATE_HOME="$work/state" bash -e example.sh) >"$work/out.txt"
cat "$work/out.txt"
first=$(sed -n 1p "$work/out.txt") second=$(sed -n 2p "$work/out.txt")
if [ -z "$first" ] || [ "$first" != "$second" ]; then
  echo "the repeated text did not give the same output: '$first' then '$second'" >&2
  exit 1
fi
python3 - "$work/out.txt" <<'PY'
import json, sys
ledger = json.loads(open(sys.argv[1]).read().splitlines()[2])
assert ledger["releases"] == 1 and ledger["memoised"] == 1, f"the repeat was charged: {ledger}"
print(f"ledger: {ledger['releases']} release, spent {ledger['spent']}: the repeat cost nothing")
PY
