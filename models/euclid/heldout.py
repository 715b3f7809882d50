# SPDX-License-Identifier: Apache-2.0
"""The held-out evaluation sets of the default Euclidean model (committed beside this file):

    python3 heldout.py --lm LM.bin --scowl DIR --names FILE... --exclude FILE --wordnet DIR OUTDIR

- heldout-triples.tsv: (anchor, synonym, antonym) from WordNet (lexicon.sense_triples) over the
  everyday lexicon, synonyms preferred by the language model's unigram probability, two per
  antonym pointer at most; the triples of one anchor in five, chosen by a hash of the anchor;
- heldout-synsets.txt: one WordNet synset in ten (by a hash of its position in the database),
  its everyday single-word lemmas, when at least two.
build_vectors.py leaves every pair these contain out of its training constraints."""
import argparse, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lexicon, sphinx_lm


def main():
    ap = argparse.ArgumentParser()
    for name in ('lm', 'scowl', 'exclude', 'wordnet'):
        ap.add_argument('--' + name, required=True)
    ap.add_argument('--names', nargs='+', required=True)
    ap.add_argument('--scowl-level', type=int, default=60)
    ap.add_argument('outdir')
    a = ap.parse_args()
    lm = sphinx_lm.read(a.lm)
    lex = lexicon.everyday_lexicon(a.scowl, a.scowl_level, lm['words'], a.names, lexicon.excluded_words(a.exclude))
    order = sorted(range(len(lm['words'])), key=lambda i: (-lm['unigram_logprob'][i], lm['words'][i]))
    rank = {lm['words'][i]: r for r, i in enumerate(order)}
    synsets = lexicon.read_wordnet(a.wordnet)
    similar = lexicon.similar_to(synsets)
    antonyms = lexicon.wordnet_antonyms(synsets, similar)
    triples = [t for t in lexicon.sense_triples(synsets, similar, lex, rank)
               if lexicon.pair(t[0], t[1]) not in antonyms]
    held = [t for t in triples if lexicon.stable_fraction(t[0], 'heldout-triples') < 0.2]
    with open(os.path.join(a.outdir, 'heldout-triples.tsv'), 'w', encoding='utf-8', newline='\n') as f:
        f.writelines('\t'.join(t) + '\n' for t in held)
    sets = []
    for key in sorted(synsets):
        ws = sorted(set(w for w in synsets[key]['words'] if w in lex))
        if len(ws) >= 2 and lexicon.stable_fraction('%s%s' % key, 'heldout-synsets') < 0.1:
            sets.append(ws)
    with open(os.path.join(a.outdir, 'heldout-synsets.txt'), 'w', encoding='utf-8', newline='\n') as f:
        f.writelines(' '.join(ws) + '\n' for ws in sets)
    print('%d of %d triples, %d synsets held out' % (len(held), len(triples), len(sets)), file=sys.stderr)


if __name__ == '__main__':
    main()
