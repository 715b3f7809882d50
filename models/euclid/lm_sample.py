# SPDX-License-Identifier: Apache-2.0
"""Sentences drawn from a backoff trigram language model (sphinx_lm), deterministic for a seed.

    python3 lm_sample.py MODEL.lm.bin SEED TOKENS OUT.txt

Each sentence starts after <s> and ends at </s> (or after 50 words). A word is drawn from the
trigram successors of the last two words with their listed probability mass; with the remaining
mass the model backs off, and the word is drawn from the bigram successors of the last word
(then the unigrams), excluding the words the higher order listed, as in Katz back-off."""
import os, sys
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sphinx_lm


def _grouped(keys, words, probs):
    """CSR-like groups: sorted unique keys, start offsets, successor words, cumulative probabilities."""
    order = np.lexsort((words, keys))
    keys, words, probs = keys[order], words[order], probs[order]
    uniq, start = np.unique(keys, return_index=True)
    start = np.append(start, len(keys))
    cs = np.cumsum(probs)
    base = np.concatenate([[0.0], cs])[start[:-1]]
    return uniq, start, words, cs - np.repeat(base, np.diff(start))


class Sampler:
    def __init__(self, lm, seed, max_len=50):
        t = sphinx_lm.forward_tables(lm)
        self.words = lm['words']
        self.V = V = len(self.words)
        self.start_id = self.words.index('<s>')
        self.end_id = self.words.index('</s>')
        h, w, p = t['bigram']
        keys, start, self.bw, self.bcum = _grouped(h, w, p)
        self.bstart = np.zeros(V + 1, dtype=np.int64)          # dense: every history has a slot
        self.bstart[keys] = start[:-1]
        self.bend = np.zeros(V, dtype=np.int64)
        self.bend[keys] = start[1:]
        g, h, w, p = t['trigram']
        keys, self.tstart, self.tw, self.tcum = _grouped(g * V + h, w, p)
        self.tindex = {int(k): i for i, k in enumerate(keys)}
        self.ucum = np.cumsum(t['unigram'])
        self.rng = np.random.Generator(np.random.PCG64(seed))
        self.buf = []
        self.max_len = max_len

    def uniform(self):
        if not self.buf:
            self.buf = self.rng.random(4096).tolist()[::-1]
        return self.buf.pop()

    @staticmethod
    def _pick(cum, lo, hi, r):
        return min(lo + int(np.searchsorted(cum[lo:hi], r, side='right')), hi - 1)

    @staticmethod
    def _listed(arr, lo, hi, x):
        i = lo + int(np.searchsorted(arr[lo:hi], x))
        return i < hi and arr[i] == x

    def _from_bigram(self, b, exclude):
        lo, hi = self.bstart[b], self.bend[b]
        mass = self.bcum[hi - 1] if hi > lo else 0.0
        while True:
            r = self.uniform()
            if r < mass:
                x = int(self.bw[self._pick(self.bcum, lo, hi, r)])
            else:
                while True:   # back off to the unigrams, outside the listed bigrams
                    x = min(int(np.searchsorted(self.ucum, self.uniform() * self.ucum[-1], side='right')), self.V - 1)
                    if x != self.start_id and not (hi > lo and self._listed(self.bw, lo, hi, x)):
                        break
            if x != self.start_id and (exclude is None or not self._listed(self.tw, exclude[0], exclude[1], x)):
                return x

    def _next(self, a, b):
        ti = self.tindex.get(a * self.V + b) if a is not None else None
        if ti is None:
            return self._from_bigram(b, None)
        lo, hi = self.tstart[ti], self.tstart[ti + 1]
        r = self.uniform()
        if r < self.tcum[hi - 1]:
            return int(self.tw[self._pick(self.tcum, lo, hi, r)])
        return self._from_bigram(b, (lo, hi))

    def sentences(self):
        while True:
            a, b = None, self.start_id
            sentence = []
            for _ in range(self.max_len):
                x = self._next(a, b)
                if x == self.end_id:
                    break
                sentence.append(self.words[x])
                a, b = b, x
            if sentence:
                yield sentence


if __name__ == '__main__':
    path, seed, tokens, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    sampler = Sampler(sphinx_lm.read(path), seed)
    n = 0
    with open(out + '.tmp', 'w', encoding='utf-8', newline='\n') as f:
        for sentence in sampler.sentences():
            f.write(' '.join(sentence) + '\n')
            n += len(sentence)
            if n >= tokens:
                break
    os.replace(out + '.tmp', out)
    print(n)
