#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The docs show what dxtext does today: every sample output and generated
# table between <!-- dxtext-samples: NAME --> markers (the preset sentences,
# seeded and so NOT private; the calibrate table of docs/calibration.md; the
# example programs shown in the bindings' docs) is made again with
# build/bin/dxtext and compared with the files. After retuning the presets,
# `python3 tools/docs/samples.py --write` refreshes them all. (The
# WebAssembly size figure is checked by 64-package-wasm, which builds it.)
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -x build/bin/dxtext ]; then
  echo "build/bin/dxtext not found: run tools/setup.sh first" >&2
  exit 1
fi
python3 tools/docs/samples.py --check --dxtext build/bin/dxtext
