#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# dxtext.dask on a LocalCluster of 2 worker processes, with Debian's dask
# and distributed: Bags, DataFrame columns and JSON lines files, options
# passed through, independent noise, per-record seeds, shipped models and
# SHA-256 checks, resumed runs, and a worker killed in the middle of a run
# (bindings/python/tests_dask). Then the benchmark on a small corpus, so
# that it keeps working (the full run is in docs/performance.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/ci/lib/dxtext_library.sh

dxt_install_packages python3 python3-pytest python3-dask python3-distributed python3-pandas
libdir=$(dxt_library_dir dask)
export DXTEXT_LIBRARY="$libdir/libdxtext.so" PYTHONDONTWRITEBYTECODE=1
if [ -f build/models/demo.dxe ]; then export DXTEXT_MODEL="$PWD/build/models/demo.dxe"; fi
/usr/bin/python3 -c 'import dask, distributed; print("dask", dask.__version__, "distributed", distributed.__version__)'

(cd bindings/python && timeout 900 /usr/bin/python3 -m pytest -q -p no:cacheprovider tests_dask)

if [ -x build/bin/dxtext ]; then cli=(--cli build/bin/dxtext); else cli=(); fi
timeout 300 /usr/bin/python3 bench/dask_throughput.py --records 4000 --repeats 1 "${cli[@]}" --out build-ci/dask/bench.json
echo "dask: ok"
