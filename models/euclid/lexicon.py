# SPDX-License-Identifier: Apache-2.0
"""Word lists and lexical relations for the default Euclidean model.

- everyday_lexicon(): the words a reader knows (SCOWL up to a size level, the words of a
  modern language model, common first names), minus an exclusion list;
- WordNet 3.0 synonyms (lemmas sharing a synset that is a top-ranked sense of both, and
  similar-to satellites of adjectives), antonyms (antonym pointers, widened to the two
  synsets and their satellites), antonyms by negating prefix (able / unable), and mutual
  Moby thesaurus entries;
- held-out (anchor, synonym, antonym) triples and synsets, chosen by a hash of the words so
  that they do not depend on the vocabulary or on the order of the files."""
import glob, hashlib, json, os, re
from collections import defaultdict

WORD = re.compile(r"[a-z]+(?:'[a-z]+)*")


def stable_fraction(text, salt):
    """A number in [0, 1) fixed by the text: for held-out choices that never change."""
    return int.from_bytes(hashlib.sha256((salt + text).encode('utf-8')).digest()[:8], 'big') / 2.0 ** 64


def single(w):
    return WORD.fullmatch(w) is not None


# ---------------------------------------------------------------- word lists

def scowl_words(d, max_level):
    """Every word of the English SCOWL lists (words, upper-case words, proper names, contractions,
    abbreviations) up to a size level, lower-cased."""
    out = set()
    for p in sorted(glob.glob(os.path.join(d, '*'))):
        m = re.search(r'/(english|american|british|canadian)-(words|upper|proper-names|contractions|abbreviations)'
                      r'\.(\d+)$', p)
        if m and int(m.group(3)) <= max_level:
            with open(p, encoding='utf-8', errors='replace') as f:
                out.update(l.strip().lower().replace('\u2019', "'") for l in f if l.strip())
    return out


def read_lines(path):
    with open(path, encoding='utf-8') as f:
        return [l.strip().lower() for l in f if l.strip()]


def excluded_words(path):
    """Single-word entries of an offensive-word list (JSON array)."""
    with open(path, encoding='utf-8') as f:
        return set(w.lower() for w in json.load(f) if ' ' not in w)


def everyday_lexicon(scowl_dir, scowl_level, lm_words, name_files, excluded):
    lex = scowl_words(scowl_dir, scowl_level) | set(w for w in lm_words if not w.startswith('<'))
    for p in name_files:
        lex.update(read_lines(p))
    return set(w for w in lex if single(w) and w not in excluded and (len(w) > 1 or w in ('a', 'i')))


# ---------------------------------------------------------------- WordNet

POS_FILES = {'n': 'noun', 'v': 'verb', 'a': 'adj', 'r': 'adv'}


def read_wordnet(d):
    """{(pos, offset): {'words': [...], 'ptrs': [(symbol, (pos, offset), source, target)]}}"""
    synsets = {}
    for pos, name in POS_FILES.items():
        with open(os.path.join(d, 'data.' + name), encoding='utf-8', errors='replace') as f:
            for line in f:
                if line.startswith('  '):
                    continue   # licence header
                fields = line.split('|')[0].split()
                n = int(fields[3], 16)
                words = [re.sub(r'\([a-z]+\)$', '', fields[4 + 2 * i]).lower() for i in range(n)]
                p = 4 + 2 * n
                count = int(fields[p])
                p += 1
                ptrs = []
                for _ in range(count):
                    sym, off, tpos, st = fields[p:p + 4]
                    p += 4
                    ptrs.append((sym, ('a' if tpos == 's' else tpos, off), int(st[:2], 16), int(st[2:], 16)))
                synsets[(pos, fields[0])] = {'words': words, 'ptrs': ptrs}
    return synsets


def sense_ranks(d):
    """{(lemma, pos, offset): rank}, rank 1 for the lemma's most frequent sense (index.* order)."""
    out = {}
    for pos, name in POS_FILES.items():
        with open(os.path.join(d, 'index.' + name), encoding='utf-8', errors='replace') as f:
            for line in f:
                if line.startswith('  '):
                    continue
                fs = line.split()
                offsets = fs[4 + int(fs[3]) + 2:]
                for r, off in enumerate(offsets, 1):
                    out[(fs[0].lower(), pos, off)] = r
    return out


def similar_to(synsets):
    similar = defaultdict(set)
    for key, s in synsets.items():
        for sym, target, _, _ in s['ptrs']:
            if sym == '&':
                similar[key].add(target)
                similar[target].add(key)
    return similar


def pair(u, v):
    return (u, v) if u < v else (v, u)


def wordnet_synonyms(synsets, ranks, similar, max_rank):
    """Lemmas sharing a synset that is among the first max_rank senses of both; and adjectives in
    a similar-to satellite of such a synset, under the same condition."""
    def top(key):
        return [w for w in synsets[key]['words'] if single(w) and ranks.get((w,) + key, 99) <= max_rank]
    out = set()
    for key in synsets:
        ws = top(key)
        for i in range(len(ws)):
            for j in range(i + 1, len(ws)):
                if ws[i] != ws[j]:
                    out.add(pair(ws[i], ws[j]))
        for t in similar.get(key, ()):
            for u in ws:
                for v in top(t):
                    if u != v:
                        out.add(pair(u, v))
    return out


def wordnet_antonyms(synsets, similar):
    """Antonym pointers, widened to every lemma pair of the two synsets and to the similar-to
    satellites of either side (indirect antonyms: hot / frigid)."""
    out = set()
    for key, s in synsets.items():
        for sym, target, src, tgt in s['ptrs']:
            if sym != '!' or target not in synsets:
                continue
            for x in [key] + sorted(similar.get(key, ())):
                for y in [target] + sorted(similar.get(target, ())):
                    if x != key and y != target:
                        continue   # satellite against satellite is too loose
                    for u in synsets[x]['words']:
                        for v in synsets[y]['words']:
                            if single(u) and single(v) and u != v:
                                out.add(pair(u, v))
    return out


NEGATING_PREFIXES = ('un', 'in', 'im', 'il', 'ir', 'dis', 'non')


def prefix_antonyms(words, adjectives):
    """(able, unable), (careful, careless): adjectives and adverbs only."""
    out = set()
    for w in words:
        if w not in adjectives:
            continue
        for p in NEGATING_PREFIXES:
            base = w[len(p):]
            if w.startswith(p) and len(base) > 3 and base in words and base in adjectives:
                out.add(pair(base, w))
        if w.endswith('ful') and len(w) > 6:
            less = w[:-3] + 'less'
            if less in words and less in adjectives:
                out.add(pair(w, less))
    return out


def moby_mutual(path, vocab):
    """Pairs each listed under the other's Moby thesaurus entry (its lists are broad, so a single
    listing is weak evidence of synonymy)."""
    listed = {}
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            parts = [p.lower() for p in line.rstrip('\n').split(',')]
            if len(parts) > 1 and parts[0] in vocab:
                listed[parts[0]] = {p for p in parts[1:] if p in vocab}
    return {pair(a, b) for a, rel in listed.items() for b in rel if a != b and a in listed.get(b, ())}


def sense_triples(synsets, similar, vocab, rank, per_anchor=2):
    """(anchor, synonym, antonym): anchor and antonym linked by an antonym pointer; the synonym
    shares the anchor's synset in that sense or sits in one of its similar-to satellites."""
    out = set()
    for key, s in sorted(synsets.items()):
        for sym, target, src, tgt in s['ptrs']:
            if sym != '!' or not src or not tgt or target not in synsets:
                continue
            a, b = s['words'][src - 1], synsets[target]['words'][tgt - 1]
            if a not in vocab or b not in vocab:
                continue
            cands = [w for w in s['words'] if w != a]
            for t in sorted(similar.get(key, ())):
                cands += synsets[t]['words']
            cands = sorted(set(w for w in cands if w in vocab and w not in (a, b)), key=lambda w: (rank.get(w, 1 << 30), w))
            for w in cands[:per_anchor]:
                out.add((a, w, b))
    return sorted(out)
