# SPDX-License-Identifier: Apache-2.0
"""The default Euclidean model's vectors: vocabulary, specialisation, scale.

    python3 build_vectors.py --vectors VECTORS.vec --counts COUNTS.txt --lm LM.bin
        --scowl DIR --names FILE... --exclude FILE --wordnet DIR --moby FILE
        --heldout-triples TSV --heldout-synsets TXT --out OUT.vec

1. Vocabulary: words with a distributional vector that are in the everyday lexicon
   (lexicon.everyday_lexicon), and the numbers 0-100 and 1900-2030 (other numbers would come
   out as replacements for words); the most frequent --vocab of them by corpus count.
2. Specialisation: attract-repel (attract_repel.py) with WordNet synonyms of top-ranked senses,
   mutual Moby thesaurus pairs among the --moby-top most frequent words whose distributional
   cosine is at least --moby-cos, and WordNet and negating-prefix antonyms; the held-out triples'
   and synsets' own pairs are left out of training.
3. Typed contractions without the apostrophe (dont, im, ...) get the vector of the contraction.
4. Scale: one factor for all vectors, so that the median distance from each of the 10 000 most
   frequent words to its nearest other word is --nn-distance.
Rows are written by decreasing count, then by word bytes."""
import argparse, json, os, re, sys, time
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attract_repel, lexicon, sphinx_lm

T0 = time.time()


def log(*a):
    print('[build_vectors %5.0fs]' % (time.time() - T0), *a, file=sys.stderr, flush=True)


# Contractions as people type them on phones and in chat, and the word each stands for. Only
# forms that are not themselves common words: "ill", "well", "were", "its", "lets", "id", "hell",
# "shell", "wed" keep their own vectors.
TYPED_CONTRACTIONS = {
    'dont': "don't", 'didnt': "didn't", 'doesnt': "doesn't", 'isnt': "isn't", 'wasnt': "wasn't",
    'arent': "aren't", 'werent': "weren't", 'cant': "can't", 'wont': "won't", 'couldnt': "couldn't",
    'wouldnt': "wouldn't", 'shouldnt': "shouldn't", 'havent': "haven't", 'hasnt': "hasn't",
    'hadnt': "hadn't", 'aint': "ain't", 'im': "i'm", 'ive': "i've", 'youre': "you're", 'youve': "you've",
    'youll': "you'll", 'theyre': "they're", 'theyve': "they've", 'theyll': "they'll", 'thats': "that's",
    'whats': "what's", 'theres': "there's", 'heres': "here's", 'hes': "he's", 'shes': "she's",
    'wheres': "where's", 'whos': "who's", 'weve': "we've", 'itll': "it'll", 'thatll': "that'll",
}


def read_vec(path):
    words, rows = [], []
    with open(path, encoding='utf-8') as f:
        dim = int(f.readline().split()[1])
        for line in f:
            parts = line.rstrip(' \n').split(' ')
            if len(parts) == dim + 1 and parts[0] != '</s>':
                words.append(parts[0])
                rows.append(np.array(parts[1:], dtype=np.float64))
    return words, np.vstack(rows)


def read_counts(path):
    counts = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            w, c = line.rstrip('\n').rsplit(' ', 1)
            counts[w] = int(c)
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ('vectors', 'counts', 'lm', 'scowl', 'exclude', 'wordnet', 'moby', 'heldout-triples',
                 'heldout-synsets', 'out'):
        ap.add_argument('--' + name, required=True)
    ap.add_argument('--names', nargs='+', required=True)
    ap.add_argument('--summary', help='write the measured numbers as JSON here')
    ap.add_argument('--vocab', type=int, default=40000)
    ap.add_argument('--scowl-level', type=int, default=50)
    ap.add_argument('--sense-rank', type=int, default=2)
    ap.add_argument('--moby-top', type=int, default=20000)
    ap.add_argument('--moby-cos', type=float, default=0.35)
    ap.add_argument('--epochs', type=int, default=5)
    ap.add_argument('--lr', type=float, default=0.05)
    ap.add_argument('--reg', type=float, default=0.1)
    ap.add_argument('--nn-distance', type=float, default=2.6)
    a = ap.parse_args()
    summary = {}

    words, X = read_vec(a.vectors)
    counts = read_counts(a.counts)
    lm = sphinx_lm.read(a.lm)
    lex = lexicon.everyday_lexicon(a.scowl, a.scowl_level, lm['words'], a.names, lexicon.excluded_words(a.exclude))
    numbers = [i for i, w in enumerate(words)
               if re.fullmatch(r'0|[1-9][0-9]{0,3}', w) and (int(w) <= 100 or 1900 <= int(w) <= 2030)]
    keep = sorted(set(i for i, w in enumerate(words) if w in lex) | set(numbers),
                  key=lambda i: (-counts.get(words[i], 0), words[i].encode('utf-8')))
    log('%d words have vectors; %d of them are in the everyday lexicon (%d words) or numbers' % (
        len(words), len(keep), len(lex)))
    keep = keep[:a.vocab]
    vocab = [words[i] for i in keep]
    index = {w: i for i, w in enumerate(vocab)}
    vset = set(vocab)
    x0 = attract_repel.normalise(X[keep])
    summary['vocabulary'] = len(vocab)
    summary['least_frequent_count'] = counts.get(vocab[-1], 0)

    synsets = lexicon.read_wordnet(a.wordnet)
    ranks = lexicon.sense_ranks(a.wordnet)
    similar = lexicon.similar_to(synsets)
    adjectives = set(w for (pos, _), s in synsets.items() if pos in ('a', 'r') for w in s['words'])
    synonyms = {p for p in lexicon.wordnet_synonyms(synsets, ranks, similar, a.sense_rank) if p[0] in vset and p[1] in vset}
    antonyms = {p for p in lexicon.wordnet_antonyms(synsets, similar) | lexicon.prefix_antonyms(vset, adjectives)
                if p[0] in vset and p[1] in vset}
    top = set(vocab[:a.moby_top])
    moby = {p for p in lexicon.moby_mutual(a.moby, top)
            if p not in antonyms and float(x0[index[p[0]]] @ x0[index[p[1]]]) >= a.moby_cos}
    synonyms -= antonyms

    held_triples = [tuple(l.rstrip('\n').split('\t')) for l in open(a.heldout_triples, encoding='utf-8')]
    held_synsets = [l.split() for l in open(a.heldout_synsets, encoding='utf-8')]
    held = set()
    for anchor, syn, ant in held_triples:
        held |= {lexicon.pair(anchor, syn), lexicon.pair(anchor, ant)}
    for ws in held_synsets:
        held |= {lexicon.pair(u, v) for i, u in enumerate(ws) for v in ws[i + 1:]}
    attract = sorted((synonyms | moby) - held)
    repel = sorted(antonyms - held)
    log('training pairs: %d attract (WordNet %d, Moby %d), %d repel; %d held-out pairs left out' % (
        len(attract), len(synonyms), len(moby), len(repel), len(held)))
    summary.update(attract=len(attract), repel=len(repel), wordnet_synonyms=len(synonyms), moby_pairs=len(moby))

    A = np.array([(index[u], index[v]) for u, v in attract], dtype=np.int64).reshape(-1, 2)
    R = np.array([(index[u], index[v]) for u, v in repel], dtype=np.int64).reshape(-1, 2)
    y = attract_repel.specialise(x0, A, R, epochs=a.epochs, lr=a.lr, reg=a.reg, log=log)

    # typed contractions share the vector of the contraction they stand for
    rows, out_words = list(y), list(vocab)
    for typed, full in sorted(TYPED_CONTRACTIONS.items()):
        if full in index and typed not in index:
            rows.append(y[index[full]])
            out_words.append(typed)
    y = np.vstack(rows)
    summary['typed_contractions'] = len(out_words) - len(vocab)

    # one scale for all: the median nearest-neighbour distance of the frequent words
    n = min(10000, len(vocab))
    sims = y[:n] @ y[:len(vocab)].T
    sims[np.arange(n), np.arange(n)] = -np.inf
    nn = np.sqrt(np.maximum(0.0, 2.0 - 2.0 * sims.max(axis=1)))
    scale = a.nn_distance / float(np.median(nn))
    y *= scale
    summary['scale'] = scale
    log('scale %.4f: median nearest-neighbour distance of the %d most frequent words %.3f -> %.3f' % (
        scale, n, float(np.median(nn)), a.nn_distance))

    order = sorted(range(len(out_words)), key=lambda i: (-counts.get(out_words[i], 0), out_words[i].encode('utf-8')))
    with open(a.out + '.tmp', 'w', encoding='utf-8', newline='\n') as f:
        f.write('%d %d\n' % y.shape)
        for i in order:
            f.write(out_words[i] + ' ' + ' '.join('%.7g' % v for v in y[i]) + '\n')
    os.replace(a.out + '.tmp', a.out)
    if a.summary:
        with open(a.summary, 'w') as f:
            json.dump(summary, f, indent=1, sort_keys=True)
    log('wrote %d words to %s' % (len(out_words), a.out))


if __name__ == '__main__':
    main()
