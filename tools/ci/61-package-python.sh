#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The wheel of tools/package.sh (libdxtext compiled by setup.py, the default
# model inside), used as a user would: installed with nothing but the wheel
# into a fresh virtual environment outside the source tree, then a program
# run from an empty directory privatises a sentence with the default model
# (no DXTEXT_LIBRARY, no DXTEXT_MODEL, no LD_LIBRARY_PATH), and the example
# of dxtext.analysis runs there, copied out of the tree. Then the binding's
# pytest suite runs against the installed package.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/package/common.sh
dxt_need_packages python3-venv python3-pytest python3-sklearn

bash tools/package.sh python
wheel=$(ls "$PWD"/dist/python/dxtext-*.whl)
echo "wheel: $(basename "$wheel"), $(stat -c %s "$wheel") bytes"
case "$(basename "$wheel")" in
  *-py3-none-manylinux_*_"$(uname -m)".whl) ;;
  *) echo "unexpected wheel tag: $(basename "$wheel")" >&2; exit 1 ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/dxtext-python.XXXXXX")
trap 'rm -rf "$work"' EXIT
# --system-site-packages: Debian's pytest and scikit-learn for the test suite
# and the example; dxtext itself is only in the wheel.
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install -q --no-index --no-deps "$wheel"
mkdir "$work/app"
(
  cd "$work/app"
  unset DXTEXT_LIBRARY DXTEXT_MODEL LD_LIBRARY_PATH
  "$work/venv/bin/python" - <<'PY'
import dxtext

print(dxtext.library_path())
assert "/site-packages/dxtext/_lib/" in dxtext.library_path(), dxtext.library_path()
with dxtext.Model.default() as model:
    diagnostics = dxtext.LocalDiagnostics()
    text, record = model.privatize(
        "The president spoke to the nation about the war.", epsilon=20, with_record=True, local_diagnostics=diagnostics
    )
    print(text)
    print(record.to_json())
    print(diagnostics.to_json())
    assert diagnostics.words_privatized == 9 and record.is_private, (record, diagnostics)
    assert model.default_path().startswith(dxtext.library_path().rsplit("/", 1)[0]), model.default_path()
import dxtext.dask  # the subpackage is in the wheel (it imports dask only when called)

assert "/site-packages/dxtext/dask/" in dxtext.dask.__file__, dxtext.dask.__file__
PY
)
# The analysis example as a user runs it: copied into the empty project.
cp bindings/python/examples/analyse_features.py "$work/app/"
(
  cd "$work/app"
  unset DXTEXT_LIBRARY DXTEXT_MODEL LD_LIBRARY_PATH
  "$work/venv/bin/python" analyse_features.py | tee "$work/analysis.txt"
)
grep -Eq "^words \+ ordering buckets \(B = 8\) +accuracy [01]\.[0-9]{2}$" "$work/analysis.txt"
(
  cd bindings/python
  DXTEXT_TEST_INSTALLED=1 PYTHONDONTWRITEBYTECODE=1 "$work/venv/bin/python" -m pytest -q -p no:cacheprovider tests
)
echo "python package: ok"
