#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CI job: the committed default Euclidean model still does what models/README.md says:
# synonyms nearer than antonyms on the held-out triples, everyday text inside its
# vocabulary, the words the card promises present, the excluded ones absent, a
# permissive licence in its metadata, and everyday sentences privatised at the README's
# epsilon. Runs models/eval-euclid.py (numpy, WordNet from Debian).
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/ci/lib/dxtext_library.sh

dxt_install_packages g++ cmake ninja-build pkg-config libssl-dev libeigen3-dev doctest-dev \
  python3 python3-numpy wordnet-base

dxtext=build/bin/dxtext
if [ ! -x "$dxtext" ]; then
  build=build-ci/model-quality
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDXT_BUILD_TESTS=OFF -DDXT_BUILD_BENCH=OFF >/dev/null
  cmake --build "$build" -j2 --target dxtext_cli
  dxtext=$build/bin/dxtext
fi
# The epsilon of README.md's laplace examples on the default model.
readme_epsilon=12
grep -q -- "--epsilon $readme_epsilon" README.md || { echo "README.md has no example at --epsilon $readme_epsilon"; exit 1; }
models=(models/dxtext-en-euclid-*.dxe)
[ ${#models[@]} -eq 1 ] || { echo "expected one default Euclidean model, found: ${models[*]}"; exit 1; }
model=${models[0]}
out=build-ci/model-quality
mkdir -p "$out"
"$dxtext" tokenize --lowercase <models/euclid/heldout-everyday.txt >"$out/everyday.tok"
"$dxtext" inspect "$model" >"$out/inspect.json"
"$dxtext" export "$model" >"$out/vectors.txt"
/usr/bin/python3 models/eval-euclid.py --dxtext "$dxtext" "$model" --vectors "$out/vectors.txt" \
  --text "$out/everyday.tok" --release-epsilon "$readme_epsilon" --json "$out/quality.json" |
  tee "$out/quality.txt"

/usr/bin/python3 - "$out" <<'PYEOF'
import json, re, sys
out = sys.argv[1]
q = json.load(open(out + '/quality.json'))
meta = json.load(open(out + '/inspect.json'))
words = set(line.split(' ', 1)[0] for line in list(open(out + '/vectors.txt', encoding='utf-8'))[1:])
failures = []
def check(ok, what):
    print(('ok   ' if ok else 'FAIL ') + what)
    if not ok:
        failures.append(what)
t = q['antonym_triples']
check(t['covered'] >= 600 and t['synonym_nearer'] >= 0.85,
      'held-out triples: synonym nearer than antonym in %.1f%% of %d (needs >= 85%% of >= 600)' % (100 * t['synonym_nearer'], t['covered']))
oov = q['oov']['everyday.tok']['oov']
check(oov <= 0.01, 'everyday sentences: %.2f%% of word tokens out of the vocabulary (needs <= 1%%)' % (100 * oov))
promised = 'linux xml rpm spam microsoft info email website app yeah okay dont im jennifer kevin michael sarah'.split()
missing = [w for w in promised if w not in words]
check(not missing, 'everyday and technical words in the vocabulary (missing: %s)' % (', '.join(missing) or 'none'))
archaic = "whate'er guncotton crambo caballus archegoniate mustelus verditer smalt".split()
present = [w for w in archaic if w in words]
check(not present, 'dictionary-only words of the former model absent (present: %s)' % (', '.join(present) or 'none'))
licence = meta['metadata'].get('dxtext.license', '')
check(licence != '' and not re.search(r'GPL|GFDL|CC-BY-SA|-NC\b|NonCommercial', licence),
      'dxtext.license names no copyleft or non-commercial licence: %s' % (licence or 'missing'))
r = q['release']
check(0.3 <= r['kept'] <= 0.9, 'laplace at the README epsilon keeps %.0f%% of the words (expected 30-90%%)' % (100 * r['kept']))
sys.exit(1 if failures else 0)
PYEOF
