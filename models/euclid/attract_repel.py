# SPDX-License-Identifier: Apache-2.0
"""Attract-repel specialisation of word vectors (Mrkšić et al. 2017, "Semantic Specialization of
Distributional Word Vector Spaces using Monolingual and Cross-Lingual Constraints", TACL 5,
section 3).

Vectors are unit length. In each mini-batch of synonym (attract) pairs (l, r), every word's
negative example is the most similar other word of the batch, t; the cost
  relu(d_att + l.t_l - l.r) + relu(d_att + r.t_r - l.r)
asks each synonym to be closer than its negative by a margin. Antonym (repel) batches take the
least similar word of the batch as the negative and ask the antonym to be further away than it:
  relu(d_rep + l.r - l.t_l) + relu(d_rep + l.r - r.t_r).
Every vector a batch touches is pulled back towards its distributional start by
reg * |x - x0|^2, which keeps the space around the constrained words (the paper's own
regulariser, with a weight large enough to matter). AdaGrad steps, then back onto the sphere.
Deterministic for a seed (float64 numpy; the batches' order comes from PCG64)."""
import numpy as np


def normalise(x):
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


def _batch_gradient(x, l, r, attract, d_att, d_rep):
    n = len(l)
    words = np.concatenate([l, r])
    xw = x[words]
    xl, xr = xw[:n], xw[n:]
    sim_l, sim_r = xl @ xw.T, xr @ xw.T
    # a word is never its own negative, nor its partner's
    mask = (words[None, :] == l[:, None]) | (words[None, :] == r[:, None])
    if attract:
        tl = np.argmax(np.where(mask, -np.inf, sim_l), axis=1)
        tr = np.argmax(np.where(mask, -np.inf, sim_r), axis=1)
    else:
        tl = np.argmin(np.where(mask, np.inf, sim_l), axis=1)
        tr = np.argmin(np.where(mask, np.inf, sim_r), axis=1)
    idx = np.arange(n)
    pos = np.einsum('ij,ij->i', xl, xr)
    neg_l, neg_r = sim_l[idx, tl], sim_r[idx, tr]
    grad = np.zeros_like(xw)
    if attract:
        hl, hr = d_att + neg_l - pos, d_att + neg_r - pos
        al, ar = (hl > 0)[:, None], (hr > 0)[:, None]
        grad[:n] += (xw[tl] - xr) * al - xr * ar
        grad[n:] += -xl * al + (xw[tr] - xl) * ar
        np.add.at(grad, tl, xl * al)
        np.add.at(grad, tr, xr * ar)
    else:
        hl, hr = d_rep + pos - neg_l, d_rep + pos - neg_r
        al, ar = (hl > 0)[:, None], (hr > 0)[:, None]
        grad[:n] += (xr - xw[tl]) * al + xr * ar
        grad[n:] += xl * al + (xl - xw[tr]) * ar
        np.add.at(grad, tl, -xl * al)
        np.add.at(grad, tr, -xr * ar)
    cost = np.maximum(hl, 0).sum() + np.maximum(hr, 0).sum()
    return words, grad, cost


def specialise(x0, attract, repel, epochs=5, batch=50, lr=0.05, d_att=0.6, d_rep=0.0, reg=0.1, seed=1, log=None):
    """x0: (V, D) unit rows (float64); attract, repel: (P, 2) arrays of row indices."""
    rng = np.random.Generator(np.random.PCG64(seed))
    x = x0.copy()
    g2 = np.full_like(x, 1e-8)
    for epoch in range(epochs):
        batches = []
        for attract_kind, pairs in ((True, attract), (False, repel)):
            order = rng.permutation(len(pairs))
            batches += [(attract_kind, pairs[order[s:s + batch]]) for s in range(0, len(pairs), batch)]
        total = 0.0
        for b in rng.permutation(len(batches)):
            attract_kind, pb = batches[b]
            words, grad, cost = _batch_gradient(x, pb[:, 0], pb[:, 1], attract_kind, d_att, d_rep)
            total += cost
            rows, inverse = np.unique(words, return_inverse=True)
            g = np.zeros((len(rows), x.shape[1]))
            np.add.at(g, inverse, grad)
            g += 2 * reg * (x[rows] - x0[rows])
            g2[rows] += g * g
            x[rows] = normalise(x[rows] - lr * g / np.sqrt(g2[rows]))
        if log:
            log('attract-repel epoch %d of %d: cost %.1f over %d batches' % (epoch + 1, epochs, total, len(batches)))
    return x
