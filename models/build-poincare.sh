#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the default hyperbolic model, models/dxtext-wordnet-poincare-<DIM>d.dxe:
# Poincaré embeddings (Nickel & Kiela 2017) of the transitive closure of the
# WordNet 3.0 noun hierarchy, trained by tools/poincare (dxtext-poincare-train),
# with one row per noun lemma. The recipe and the measured quality are in
# models/README.md.
#
# Usage (from anywhere):
#   bash models/build-poincare.sh
#
# Settings, all optional, from the environment:
#   DXTEXT     the dxtext program              (default: build/bin/dxtext)
#   TRAINER    the trainer                     (default: build/bin/dxtext-poincare-train)
#   WORK       scratch directory, kept          (default: a new temporary directory)
#   OUT        the model to write              (default: models/dxtext-wordnet-poincare-<DIM>d.dxe)
#   DIM EPOCHS BURNIN LR NEGATIVES BATCH SEED THREADS QUANT   training and conversion parameters
#   EVAL       0 skips the reconstruction evaluation (several minutes)
#   WORDNET    WordNet dict directory          (default: /usr/share/wordnet, from Debian's wordnet-base)
#
# Reproducible: the same WordNet files, seed and parameters give the same model
# bytes (same SHA-256). The trainer is deterministic whatever the number of
# threads, and its training arithmetic is +, -, *, / and sqrt in binary64
# without FMA contraction or reassociation (libm's pow only weights the
# burn-in negatives), so another build of it gives the same vectors: two
# builds of the default model from empty scratch directories, with different
# builds of the trainer and of dxtext, gave the same file.
set -euo pipefail

# Paths given in the environment are relative to where the script is called
# from; the defaults are relative to the repository root.
caller=$(pwd)
absolute() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$caller" "$1" ;; esac; }
for var in DXTEXT TRAINER WORK OUT WORDNET; do
  if [ -n "${!var:-}" ]; then printf -v "$var" '%s' "$(absolute "${!var}")"; fi
done
cd "$(dirname "$0")/.."

DXTEXT=${DXTEXT:-build/bin/dxtext}
TRAINER=${TRAINER:-build/bin/dxtext-poincare-train}
DIM=${DIM:-10}
EPOCHS=${EPOCHS:-240}
BURNIN=${BURNIN:-10}
LR=${LR:-8}
NEGATIVES=${NEGATIVES:-50}
BATCH=${BATCH:-50}
SEED=${SEED:-20171204}
THREADS=${THREADS:-2}
QUANT=${QUANT:-f32}
WORDNET=${WORDNET:-/usr/share/wordnet}
OUT=${OUT:-models/dxtext-wordnet-poincare-${DIM}d.dxe}

say() { printf '[build-poincare %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

for prog in "$DXTEXT" "$TRAINER"; do
  if [ ! -x "$prog" ]; then
    say "missing $prog: build it first (cmake --build build), or set DXTEXT / TRAINER"
    exit 1
  fi
done
command -v python3 >/dev/null || { say "python3 is needed"; exit 1; }

# 1. WordNet 3.0 from Debian.
if [ ! -f "$WORDNET/data.noun" ] || [ ! -f "$WORDNET/index.noun" ]; then
  if [ "$WORDNET" != /usr/share/wordnet ]; then
    say "no WordNet noun files in $WORDNET"
    exit 1
  fi
  say "installing wordnet-base"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends wordnet-base >/dev/null
fi

if [ -z "${WORK:-}" ]; then
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/dxtext-poincare.XXXXXX")
fi
mkdir -p "$WORK"
say "scratch directory: $WORK"
say "WordNet files:"
(cd "$WORDNET" && sha256sum data.noun index.noun $(ls cntlist.rev 2>/dev/null)) | sed 's/^/    /' >&2

# 2. The noun hierarchy, its transitive closure, the lemmas and their counts.
say "extracting the noun hierarchy"
python3 - "$WORDNET" "$WORK" <<'PY'
import collections, os, sys

wn, work = sys.argv[1], sys.argv[2]

def records(name):
    with open(os.path.join(wn, name), encoding="ascii") as f:
        for line in f:
            if not line.startswith("  "):  # the licence header
                yield line.rstrip("\n")

# data.noun: offset lex_filenum ss_type w_cnt (word lex_id)* p_cnt (ptr)* | gloss
# ptr = symbol target_offset pos source/target. Hypernyms: '@' (class) and
# '@i' (instance), both kept, as in Nickel & Kiela's noun closure.
words, parents = {}, {}
pointer_counts = collections.Counter()
for line in records("data.noun"):
    f = line.split(" | ", 1)[0].split()
    off, w_cnt = f[0], int(f[3], 16)
    words[off] = [f[4 + 2 * i] for i in range(w_cnt)]
    i = 4 + 2 * w_cnt
    p_cnt = int(f[i]); i += 1
    ps = []
    for _ in range(p_cnt):
        sym, target, pos = f[i], f[i + 1], f[i + 2]
        i += 4
        if sym in ("@", "@i"):
            assert pos == "n", line
            ps.append(target)
            pointer_counts[sym] += 1
    parents[off] = sorted(set(ps))

# index.noun: lemma pos synset_cnt p_cnt (ptr_symbol)* sense_cnt tagsense_cnt (offset)*
# Offsets are in decreasing order of sense frequency: the first is the
# lemma's most frequent sense.
senses = {}
for line in records("index.noun"):
    f = line.split()
    lemma, synset_cnt, p_cnt = f[0], int(f[2]), int(f[3])
    senses[lemma] = f[4 + p_cnt + 2:]
    assert len(senses[lemma]) == synset_cnt, line

# Synset names as in NLTK: first word of the synset, lowercased, ".n.", and
# its sense number for that word.
name = {}
for off, ws in words.items():
    w = ws[0].lower()
    name[off] = "%s.n.%02d" % (w, senses[w].index(off) + 1)
assert len(set(name.values())) == len(name)

memo = {}
def ancestors(off):
    if off not in memo:
        acc = set()
        for p in parents[off]:
            acc.add(p)
            acc |= ancestors(p)
        memo[off] = frozenset(acc)
    return memo[off]

sys.setrecursionlimit(100000)
depth = {}
def min_depth(off):
    if off not in depth:
        depth[off] = 0 if not parents[off] else 1 + min(min_depth(p) for p in parents[off])
    return depth[off]

edges = sorted((name[o], name[a]) for o in words for a in ancestors(o))
with open(os.path.join(work, "closure.tsv"), "w") as out:
    for c, a in edges:
        out.write(f"{c}\t{a}\n")
with open(os.path.join(work, "synsets.tsv"), "w") as out:
    out.write("synset\toffset\tdepth\tancestors\tdescendants\n")
    desc = collections.Counter(a for _, a in edges)
    for off in sorted(words, key=lambda o: name[o]):
        out.write(f"{name[off]}\t{off}\t{min_depth(off)}\t{len(ancestors(off))}\t{desc[name[off]]}\n")

# Lemma counts: SemCor sense-tag counts of the lemma's noun senses
# (cntlist.rev: sense_key sense_number tag_cnt; noun keys have ss_type 1).
counts = collections.Counter()
cntlist = os.path.join(wn, "cntlist.rev")
if os.path.exists(cntlist):
    with open(cntlist, encoding="ascii") as f:
        for line in f:
            key, _, cnt = line.split()
            lemma, lex_sense = key.split("%", 1)
            if lex_sense.startswith("1:") and lemma in senses:
                counts[lemma] += int(cnt)

# One row per lemma: its most frequent synset. Rows by count, then lemma.
lemmas = sorted(senses, key=lambda l: (-counts[l], l))
assert all(l == l.lower() for l in lemmas)
with open(os.path.join(work, "lemmas.tsv"), "w") as out:
    for l in lemmas:
        out.write(f"{l}\t{name[senses[l][0]]}\n")
with open(os.path.join(work, "frequencies.txt"), "w") as out:
    for l in lemmas:
        if counts[l] > 0:
            out.write(f"{l} {counts[l]}\n")

roots = [name[o] for o in words if not parents[o]]
stats = {
    "synsets": len(words),
    "hypernym_pointers": pointer_counts["@"],
    "instance_hypernym_pointers": pointer_counts["@i"],
    "closure_edges": len(edges),
    "roots": " ".join(roots),
    "max_depth": max(min_depth(o) for o in words),
    "lemmas": len(lemmas),
    "multiword_lemmas": sum("_" in l for l in lemmas),
    "lemmas_with_count": sum(1 for l in lemmas if counts[l] > 0),
    "distinct_synsets_used_by_lemmas": len({senses[l][0] for l in lemmas}),
}
with open(os.path.join(work, "stats.txt"), "w") as out:
    for k, v in stats.items():
        out.write(f"{k} {v}\n")
PY
sed 's/^/    /' "$WORK/stats.txt" >&2

# 3. Training.
say "training: dim $DIM, $EPOCHS epochs (burn-in $BURNIN), lr $LR, $NEGATIVES negatives, batch $BATCH, seed $SEED"
start=$(date +%s)
"$TRAINER" train --edges "$WORK/closure.tsv" --output "$WORK/synsets-poincare.txt" \
  --dim "$DIM" --epochs "$EPOCHS" --burnin "$BURNIN" --lr "$LR" --negatives "$NEGATIVES" \
  --batch "$BATCH" --seed "$SEED" --threads "$THREADS" 2>&1 | tee "$WORK/train.log" >&2
say "training took $(($(date +%s) - start)) s"

# 4. Reconstruction (mean rank, MAP) of the synset embedding, as trained and
# as stored (coordinates rounded to the model's quantisation). EVAL=0 skips it.
if [ "${EVAL:-1}" != 0 ]; then
  say "evaluating the reconstruction"
  "$TRAINER" eval --edges "$WORK/closure.tsv" --embedding "$WORK/synsets-poincare.txt" \
    --threads "$THREADS" >"$WORK/eval.txt"
  sed 's/^/    /' "$WORK/eval.txt" >&2
  if [ "$QUANT" = f32 ] || [ "$QUANT" = f16 ]; then
    say "evaluating with coordinates rounded to $QUANT"
    "$TRAINER" eval --edges "$WORK/closure.tsv" --embedding "$WORK/synsets-poincare.txt" \
      --threads "$THREADS" --round "$QUANT" >"$WORK/eval-$QUANT.txt"
    sed 's/^/    /' "$WORK/eval-$QUANT.txt" >&2
  fi
fi

# 5. One row per lemma, in GloVe format, the vector of its most frequent synset.
say "writing the lemma vectors"
python3 - "$WORK" <<'PY'
import os, sys
work = sys.argv[1]
vec = {}
with open(os.path.join(work, "synsets-poincare.txt")) as f:
    for line in f:
        s, rest = line.rstrip("\n").split(" ", 1)
        vec[s] = rest
with open(os.path.join(work, "lemmas.tsv")) as f, open(os.path.join(work, "lemmas-poincare.txt"), "w") as out:
    for line in f:
        lemma, synset = line.rstrip("\n").split("\t")
        out.write(f"{lemma} {vec[synset]}\n")
PY

# 6. Conversion.
say "converting to $OUT ($QUANT)"
"$DXTEXT" convert --format glove --geometry poincare --quant "$QUANT" --lowercase \
  --frequencies "$WORK/frequencies.txt" \
  --source "WordNet 3.0 noun hierarchy (transitive closure of hypernyms and instance hypernyms), Poincare embeddings, ${DIM}d, seed $SEED, dxtext-poincare-train" \
  --license "LicenseRef-WordNet-3.0" \
  "$WORK/lemmas-poincare.txt" "$OUT"
"$DXTEXT" inspect "$OUT" >"$WORK/inspect.json"

# 7. Summary for models/README.md: norms by depth, a few concepts, the
# dequantised model against the trained vectors, nearest lemmas.
say "summary"
"$DXTEXT" export --output "$WORK/model-export.txt" "$OUT"
python3 - "$WORK" >"$WORK/summary.txt" <<'PY'
import collections, math, os, sys
work = sys.argv[1]
def norm(v): return math.sqrt(sum(x * x for x in v))
syn = {}
with open(os.path.join(work, "synsets-poincare.txt")) as f:
    for line in f:
        p = line.split()
        syn[p[0]] = [float(x) for x in p[1:]]
depth = {}
with open(os.path.join(work, "synsets.tsv")) as f:
    next(f)
    for line in f:
        s, _, d, _, desc = line.split("\t")
        depth[s] = (int(d), int(desc))
def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]
clip = 1.0001e-5  # the trainer keeps norms <= 1 - 1e-5
by_depth = collections.defaultdict(list)
for s, v in syn.items():
    by_depth[depth[s][0]].append(1 - norm(v))
print("synset vectors by depth (shortest hypernym path from entity.n.01): 1 - norm")
print("depth synsets median min max at_clip")
for d in sorted(by_depth):
    gs = by_depth[d]
    print(f"{d} {len(gs)} {median(gs):.3g} {min(gs):.3g} {max(gs):.3g} {sum(g <= clip for g in gs)}")
leaves = [1 - norm(syn[s]) for s in syn if depth[s][1] == 0]
inner = [1 - norm(syn[s]) for s in syn if depth[s][1] > 0]
print(f"leaves {len(leaves)}: median 1 - norm {median(leaves):.3g}, {sum(g <= clip for g in leaves)} at the clip; "
      f"inner nodes {len(inner)}: median 1 - norm {median(inner):.3g}, {sum(g <= clip for g in inner)} at the clip")
print(f"max norm {max(norm(v) for v in syn.values()):.9f}")
print("norms of some synsets:")
for s in ["entity.n.01", "physical_entity.n.01", "abstraction.n.06", "object.n.01", "organism.n.01",
          "animal.n.01", "mammal.n.01", "carnivore.n.01", "dog.n.01", "poodle.n.01", "toy_poodle.n.01",
          "artifact.n.01", "instrumentality.n.03", "device.n.01", "musical_instrument.n.01", "violin.n.01",
          "location.n.01", "city.n.01", "paris.n.01", "person.n.01", "scientist.n.01", "einstein.n.01"]:
    if s in syn:
        print(f"  {s} depth {depth[s][0]} descendants {depth[s][1]} norm {norm(syn[s]):.5f}")
lemma_syn = {}
with open(os.path.join(work, "lemmas.tsv")) as f:
    for line in f:
        l, s = line.rstrip("\n").split("\t")
        lemma_syn[l] = s
worst = 0.0
worst_rel_alpha = 0.0
rows = 0
with open(os.path.join(work, "model-export.txt")) as f:
    next(f)
    for line in f:
        p = line.split()
        v = [float(x) for x in p[1:]]
        t = syn[lemma_syn[p[0]]]
        worst = max(worst, max(abs(a - b) for a, b in zip(v, t)))
        at, av = 1 - sum(x * x for x in t), 1 - sum(x * x for x in v)
        worst_rel_alpha = max(worst_rel_alpha, abs(av - at) / at)
        rows += 1
print(f"model rows {rows}; largest coordinate change from quantisation {worst:.3g}; "
      f"largest relative change of 1 - |x|^2 {worst_rel_alpha:.3g}")
PY
"$TRAINER" nearest --embedding "$WORK/lemmas-poincare.txt" --k 8 \
  entity animal dog poodle violin oak paris einstein doctor money democracy happiness >>"$WORK/summary.txt"
sed 's/^/    /' "$WORK/summary.txt" >&2

say "model: $OUT, $(stat -c %s "$OUT") bytes"
say "sha256: $(sha256sum "$OUT" | cut -d' ' -f1)"
say "done; intermediate files in $WORK"
