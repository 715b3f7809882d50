# SPDX-License-Identifier: Apache-2.0
"""The pairs of a public context prior: for each common word, the vocabulary words that follow it
more often than chance (bigram lift), from public text. `dxtext context-prior` stores them in a
model, and the mechanisms weigh a replacement by how well it fits the word released before it.

    python3 bigram_prior.py [--contexts 10000] [--min-pair 3] [--min-lift 1.5] [--successors 16]
                            MODEL.dxe OUT.tsv TOKENS.txt...

TOKENS.txt are tokenised texts, one line per paragraph, sentence or gloss, tokens separated by
spaces, as `dxtext tokenize --lowercase` writes them (models/build-euclid.sh). MODEL.dxe gives the
vocabulary and its stored word counts (the frequencies section); nothing else of it is read.

- A bigram is two adjacent tokens of one line that are both vocabulary words: pairs never span
  two lines, nor a token that is not a vocabulary word. (The tokenizer drops punctuation, so a
  recipe that wants punctuation to break pairs splits lines at it before tokenising;
  build-euclid.sh does.)
- n(c, y) counts the bigram "c y"; n(c) counts c as the left word of any bigram, n(y) counts y as
  the right word, N counts all bigrams; lift(c, y) = n(c, y) * N / (n(c) * n(y)).
- The contexts are the CONTEXTS most frequent vocabulary words by the model's stored counts (ties:
  the lower vocabulary row). A context's successors are the words y with n(c, y) >= MIN_PAIR and
  lift >= MIN_LIFT, the SUCCESSORS largest n(c, y) kept (ties: larger lift, then lower row).

OUT.tsv: '#' comment lines (ASCII: the parameters, the inputs with their SHA-256 and the counts),
then `context<TAB>successor<TAB>lift` a line, lift to 6 significant digits, in the order of the
contexts' ranks and then of the pairs' ranks. Deterministic: the same inputs give the same bytes
(the model enters only through its vocabulary and counts, so any model with the same words and
counts gives the same file).
"""
import argparse, hashlib, os, struct, sys, time
from array import array

import numpy as np

MAGIC = b'\x89DXE\r\n\x1a\n'
KIND_OFFSETS, KIND_STRINGS, KIND_FREQUENCIES = 2, 3, 8
T0 = time.time()


def log(*a):
    print('[bigram_prior %5.0fs]' % (time.time() - T0), *a, file=sys.stderr, flush=True)


def read_vocabulary(path):
    """(words, counts, digest): the model's words by row, their stored counts (numpy u64) and a
    SHA-256 over the vocabulary strings and frequencies sections (docs/format.md §5, §7, §10)."""
    with open(path, 'rb') as f:
        b = f.read()
    if b[:8] != MAGIC:
        sys.exit(f'{path}: not a .dxe model')
    n_sections = struct.unpack_from('<I', b, 20)[0]
    V = struct.unpack_from('<I', b, 40)[0]
    sections = {}
    for i in range(n_sections):
        at = 128 + 64 * i
        kind, _, offset, size = struct.unpack_from('<IIQQ', b, at)
        sections[kind] = (offset, size, b[at + 24:at + 56])
    if KIND_FREQUENCIES not in sections:
        sys.exit(f'{path}: the model stores no word counts (frequencies section)')
    for kind in (KIND_OFFSETS, KIND_STRINGS, KIND_FREQUENCIES):
        off, size, digest = sections[kind]
        if hashlib.sha256(b[off:off + size]).digest() != digest:
            sys.exit(f'{path}: digest of section kind {kind} does not match')
    off = sections[KIND_OFFSETS][0]
    offsets = struct.unpack_from('<%dI' % (V + 1), b, off)
    s_off, s_size, _ = sections[KIND_STRINGS]
    strings = b[s_off:s_off + s_size]
    words = [strings[offsets[i]:offsets[i + 1] - 1].decode('utf-8') for i in range(V)]
    f_off, f_size, _ = sections[KIND_FREQUENCIES]
    counts = np.frombuffer(b, dtype='<u8', count=V, offset=f_off).astype(np.int64)
    h = hashlib.sha256()
    h.update(strings)
    h.update(b[f_off:f_off + f_size])
    return words, counts, h.hexdigest()


def count_bigrams(paths, index, V):
    """Codes left * V + right of the distinct bigrams and their counts, and per-file statistics."""
    codes_all, stats = [], []
    for path in paths:
        h = hashlib.sha256()
        codes = array('q')
        lines = tokens = known = 0
        with open(path, 'rb') as f:
            for raw in f:
                h.update(raw)
                lines += 1
                prev = -1
                for w in raw.decode('utf-8').split():
                    tokens += 1
                    i = index.get(w, -1)
                    if i >= 0:
                        known += 1
                        if prev >= 0:
                            codes.append(prev * V + i)
                    prev = i
                if lines % 500000 == 0:
                    log(f'{os.path.basename(path)}: {lines} lines, {len(codes)} bigrams')
        log(f'{os.path.basename(path)}: {lines} lines, {tokens} tokens, {known} in the vocabulary,'
            f' {len(codes)} bigrams')
        stats.append((os.path.basename(path), lines, tokens, known, len(codes), h.hexdigest()))
        codes_all.append(np.frombuffer(codes, dtype=np.int64) if len(codes) else np.zeros(0, np.int64))
    codes = np.concatenate(codes_all)
    pairs, n = np.unique(codes, return_counts=True)
    return pairs, n.astype(np.int64), stats


def ascii_name(s):
    return s.encode('ascii', 'backslashreplace').decode('ascii')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--contexts', type=int, default=10000)
    ap.add_argument('--min-pair', type=int, default=3)
    ap.add_argument('--min-lift', type=float, default=1.5)
    ap.add_argument('--successors', type=int, default=16)
    ap.add_argument('model')
    ap.add_argument('out')
    ap.add_argument('tokens', nargs='+')
    args = ap.parse_args()

    words, counts, vocab_digest = read_vocabulary(args.model)
    V = len(words)
    index = {w: i for i, w in enumerate(words)}
    log(f'vocabulary: {V} words')

    pairs, n_pair, stats = count_bigrams(args.tokens, index, V)
    left, right = pairs // V, pairs % V
    n_left = np.bincount(left, weights=n_pair, minlength=V).astype(np.int64)
    n_right = np.bincount(right, weights=n_pair, minlength=V).astype(np.int64)
    N = int(n_pair.sum())
    log(f'{N} bigrams, {len(pairs)} distinct')

    # contexts: the most frequent words by stored count, ties by row
    order = np.lexsort((np.arange(V), -counts))
    contexts = order[:args.contexts]

    # candidate pairs: n >= MIN_PAIR and lift >= MIN_LIFT (float64, one formula for every pair)
    lift = (n_pair.astype(np.float64) * float(N)) / (n_left[left].astype(np.float64) * n_right[right].astype(np.float64))
    keep = (n_pair >= args.min_pair) & (lift >= args.min_lift)
    k_left, k_right, k_n, k_lift = left[keep], right[keep], n_pair[keep], lift[keep]
    # grouped by context row; within it n descending, lift descending, row ascending
    o = np.lexsort((k_right, -k_lift, -k_n, k_left))
    k_left, k_right, k_n, k_lift = k_left[o], k_right[o], k_n[o], k_lift[o]
    starts = np.searchsorted(k_left, np.arange(V + 1))

    body = []
    n_contexts = 0
    for c in contexts:
        a, z = starts[c], min(starts[c + 1], starts[c] + args.successors)
        if a == z:
            continue
        n_contexts += 1
        for j in range(a, z):
            body.append(f'{words[c]}\t{words[k_right[j]]}\t{float(k_lift[j]):.6g}\n')

    lines_total = sum(s[1] for s in stats)
    tokens_total = sum(s[2] for s in stats)
    known_total = sum(s[3] for s in stats)
    head = [
        '# dxtext context prior: context<TAB>successor<TAB>lift, lift = n(c,y) * N / (n(c) * n(y))'
        ' over adjacent vocabulary words of one line\n',
        f'# recipe: models/prior/bigram_prior.py --contexts {args.contexts} --min-pair {args.min_pair}'
        f' --min-lift {args.min_lift:g} --successors {args.successors}\n',
        f'# vocabulary: the model\'s {V} words and their stored counts (SHA-256 of its strings and'
        f' frequencies sections: {vocab_digest})\n',
    ]
    for name, lines, tokens, known, bigrams, digest in stats:
        head.append(f'# text: {ascii_name(name)}: {lines} lines, {tokens} tokens, {known} in the vocabulary,'
                    f' {bigrams} bigrams, SHA-256 {digest}\n')
    head.append(f'# counts: {lines_total} lines, {tokens_total} tokens, {known_total} in the vocabulary,'
                f' N = {N} bigrams, {len(pairs)} distinct, {int(keep.sum())} with n >= {args.min_pair}'
                f' and lift >= {args.min_lift:g}\n')
    head.append(f'# output: {n_contexts} contexts of the {len(contexts)} most frequent words, {len(body)} pairs\n')
    tmp = args.out + '.tmp'
    with open(tmp, 'w', encoding='utf-8', newline='\n') as f:
        f.writelines(head)
        f.writelines(body)
    os.replace(tmp, args.out)
    log(f'{args.out}: {n_contexts} contexts, {len(body)} pairs')
    print(n_contexts, len(body))


if __name__ == '__main__':
    main()
