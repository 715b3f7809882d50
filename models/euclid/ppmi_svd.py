# SPDX-License-Identifier: Apache-2.0
"""Distributional word vectors by positive PMI and a truncated SVD (Levy, Goldberg & Dagan 2015,
"Improving Distributional Similarity with Lessons Learned from Word Embeddings", TACL 3):

    python3 ppmi_svd.py CORPUS.txt COUNTS.txt MIN_COUNT DIM OUT.vec

- co-occurrences within a line, up to 5 words apart, weighted (6 - k) / 5 at distance k as
  word2vec's dynamic window weighs them in expectation, counted in both directions, over the
  words seen at least MIN_COUNT times (the others are removed first, as word2vec does);
- PMI with context distribution smoothing (context counts to the power 0.75), negatives cut to 0;
- a randomised SVD (Halko, Martinsson & Tropp 2011, with 4 power iterations) of that matrix,
  vectors U * S^0.5 (eigenvalue weighting p = 0.5), signs fixed per component.
Deterministic for the same input, numpy and BLAS: the random test matrix has a fixed seed.
Why not skip-gram (fastText)? On a shared 2-core machine one deterministic training thread over
this corpus takes hours; this takes minutes, and the specialisation step that follows decides
most of the neighbourhoods that matter (models/README.md compares)."""
import os, sys, time
import numpy as np
import scipy.sparse as sp

WINDOW = 5
ALPHA = 0.75
EIGEN_WEIGHT = 0.5
T0 = time.time()


def log(*a):
    print('[ppmi_svd %5.0fs]' % (time.time() - T0), *a, file=sys.stderr, flush=True)


def cooccurrences(corpus_path, index):
    ids = []
    with open(corpus_path, encoding='utf-8') as f:
        for line in f:
            ids.extend(index[w] for w in line.split() if w in index)
            ids.append(-1)   # line boundary
    x = np.array(ids, dtype=np.int64)
    del ids
    line = np.cumsum(x < 0)
    V = len(index)
    total = sp.csr_matrix((V, V))
    for k in range(1, WINDOW + 1):
        a, b = x[:-k], x[k:]
        ok = (a >= 0) & (b >= 0) & (line[:-k] == line[k:])
        m = sp.coo_matrix((np.full(int(ok.sum()), (WINDOW - k + 1) / WINDOW), (a[ok], b[ok])), shape=(V, V)).tocsr()
        total = total + m + m.T
    log('%d tokens, %d co-occurring pairs' % (int((x >= 0).sum()), total.nnz))
    return total


def ppmi(counts):
    c = counts.tocoo()
    row = np.asarray(counts.sum(axis=1)).ravel()
    col = np.asarray(counts.sum(axis=0)).ravel() ** ALPHA
    pmi = np.log(c.data * col.sum() / (row[c.row] * col[c.col]))
    keep = pmi > 0
    return sp.csr_matrix((pmi[keep], (c.row[keep], c.col[keep])), shape=counts.shape)


def randomized_svd(a, k, oversample=20, iterations=4, seed=1):
    rng = np.random.Generator(np.random.PCG64(seed))
    q, _ = np.linalg.qr(a @ rng.standard_normal((a.shape[1], k + oversample)))
    for _ in range(iterations):
        z, _ = np.linalg.qr(a.T @ q)
        q, _ = np.linalg.qr(a @ z)
    ub, s, _ = np.linalg.svd((a.T @ q).T, full_matrices=False)
    u = q @ ub[:, :k]
    signs = np.sign(u[np.argmax(np.abs(u), axis=0), np.arange(k)])   # independent of LAPACK's choice
    return u * signs, s[:k]


def main():
    corpus, counts_path, min_count, dim, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    words = []
    with open(counts_path, encoding='utf-8') as f:
        for line in f:
            w, c = line.rstrip('\n').rsplit(' ', 1)
            if int(c) >= min_count:
                words.append(w)
    m = ppmi(cooccurrences(corpus, {w: i for i, w in enumerate(words)}))
    log('PPMI matrix: %d words, %d positive entries' % (len(words), m.nnz))
    u, s = randomized_svd(m, dim)
    vectors = u * s ** EIGEN_WEIGHT
    log('singular values %.1f .. %.1f' % (s[0], s[-1]))
    with open(out + '.tmp', 'w', encoding='utf-8', newline='\n') as f:
        f.write('%d %d\n' % vectors.shape)
        for w, v in zip(words, vectors):
            f.write(w + ' ' + ' '.join('%.7g' % x for x in v) + '\n')
    os.replace(out + '.tmp', out)


if __name__ == '__main__':
    main()
