# SPDX-License-Identifier: Apache-2.0
"""Peer word-replacement mechanisms written in Python on the model's public
vectors, run as conditions of the same grid as dxtext's mechanisms so that
the frontier shows their points on the same texts.

- SanText: Yue, Du, Wang, Li, Zhang & Chow, "Differential Privacy for Text
  Analytics via Natural Text Sanitization", Findings of ACL-IJCNLP 2021,
  §3.2, Eq. (1): Pr[y | x] ∝ exp(-(1/2)·ε·d_euc(x, y)) over the whole output
  vocabulary (here the model's vocabulary).
- CusText: Chen, Huang, Lin, Wang, Yang & Liu, "A Customized Text
  Sanitization Mechanism with Differential Privacy", Findings of ACL 2023,
  §3: the vocabulary is partitioned once, from public data, into mapping
  sets of K words (§3.2: an unassigned word, by descending frequency, takes
  the K-1 unassigned words nearest to it); a word is replaced by a member
  of its own set drawn by the exponential mechanism, Eq. (2)-(3):
  Pr[y | x] ∝ exp(ε·u(x, y) / (2·Δu)), with the score u the similarity
  -d_euc(x, y) min-max normalised to [0, 1] within the set, so Δu = 1.
  The set is revealed by the output (DESIGN.md §6): the structure-aware
  attacker is given it.
- ordering (prototype of dxtext's `--mechanism ordering` until the CLI has
  it): K public cyclic orderings of the vocabulary; a word is released as
  the word k places away along one ordering drawn uniformly, with
  Pr[k] ∝ exp(-ε·|k|) (a two-sided geometric law: the difference of two
  geometric variables), after 1-Diffractor (Meisenbacher, Chevli, Vladika
  & Matthes, "1-Diffractor: Efficient and Utility-Preserving Text
  Obfuscation Leveraging Word-Level Metric Differential Privacy", 2024).
- hop: the exponential mechanism on the hop metric of the public symmetric
  k-nearest-neighbour graph of the vocabulary (an edge when either word is
  among the other's k nearest, Euclidean; k = 10 unless the peer is named
  `hop-kN`): Pr[o | w] ∝ exp(-ε·d_hop(w, o)/2), d_hop the number of hops
  of a shortest path, so the guarantee is ε·d_hop(w, w') (one hop has
  sensitivity 1) and the worst case per word ε·diameter. Sampled exactly: a
  breadth-first search from w gives n_c words at hop count c; c is drawn
  with probability ∝ n_c·exp(-ε·c/2), then a uniform word among those at c.
  A name ending in `-floorP` adds a uniform floor: with probability P the
  word is uniform over the vocabulary, which caps the worst case at
  ln(1 + (1 - P)·m·|S|/P) (DESIGN.md §6, m the largest probability of one
  output). The graph is public: the structure-aware attacker maps every
  released word to its hub (HopGraph._hubs).

Text handling, the same for every peer: words are runs of letters (with
inner apostrophes); a word of the model's vocabulary (case folded) is
replaced and the replacement takes the word's capitalisation; a word outside
the vocabulary and any token with a digit is released as the placeholder
UNK; spaces and punctuation are kept (release shape "keep"). The no-noise
reference of a peer is the same text with every vocabulary word kept.
"""
import os
import re

import numpy as np

WORD = re.compile(r"[A-Za-z0-9]+(?:['\u2019][A-Za-z]+)*")
PLACEHOLDER = "UNK"


def _recase(src, out):
    if src.isupper() and len(src) > 1:
        return out.upper()
    if src[:1].isupper():
        return out[:1].upper() + out[1:]
    return out


class Peer:
    """A mechanism on vocabulary indices; subclasses define release()."""
    reveals_set = False

    def __init__(self, model, epsilon):
        self.model = model
        self.epsilon = float(epsilon)

    def release(self, idx, rng):
        """Output indices for input indices (numpy int array)."""
        raise NotImplementedError

    def release_words(self, words, rng, noise=True):
        """Each word released alone (case folded); OOV words as UNK."""
        idx = np.array([self.model.lookup(w) for w in words], dtype=np.int64)
        out = idx.copy()
        ok = idx >= 0
        if noise and ok.any():
            out[ok] = self.release(idx[ok], rng)
        return [self.model.words[o] if o >= 0 else PLACEHOLDER for o in out]

    def privatize(self, texts, rng, noise=True):
        """The texts with every vocabulary word replaced (or, without noise,
        kept), OOV words and numbers as UNK, everything else as it was."""
        spans = [[(m.start(), m.end(), m.group()) for m in WORD.finditer(t)] for t in texts]
        words = [w for s in spans for _, _, w in s]
        released = self.release_words(words, rng, noise=noise)
        out, k = [], 0
        for t, s in zip(texts, spans):
            parts, last = [], 0
            for a, b, w in s:
                r = released[k]
                k += 1
                parts.append(t[last:a])
                parts.append(r if r == PLACEHOLDER else _recase(w, r))
                last = b
            parts.append(t[last:])
            out.append("".join(parts))
        return out

    def structure_of(self, word):
        """The public set a released word reveals (CusText), or None."""
        return None


def _sq_dist(model, rows):
    x = model.vectors
    sq = (x * x).sum(axis=1)
    d = sq[rows, None] - 2 * x[rows] @ x.T + sq[None, :]
    return np.maximum(d, 0)


class SanText(Peer):
    """Yue et al. 2021, Eq. (1): Pr[y|x] ∝ exp(-ε·d_euc(x,y)/2) over the vocabulary."""
    name = "santext"

    def release(self, idx, rng):
        out = np.empty_like(idx)
        distinct, inverse = np.unique(idx, return_inverse=True)
        # The tokens grouped by word: tokens of distinct word r are
        # by_word[first[r]:first[r + 1]].
        by_word = np.argsort(inverse, kind="stable")
        first = np.searchsorted(inverse[by_word], np.arange(len(distinct) + 1))
        for start in range(0, len(distinct), 256):
            rows = distinct[start:start + 256]
            logits = -0.5 * self.epsilon * np.sqrt(_sq_dist(self.model, rows))
            logits -= logits.max(axis=1, keepdims=True)
            cdf = np.cumsum(np.exp(logits), axis=1)
            for r in range(len(rows)):
                where = by_word[first[start + r]:first[start + r + 1]]
                u = rng.random(len(where)) * cdf[r, -1]
                out[where] = np.minimum(np.searchsorted(cdf[r], u, side="right"), self.model.V - 1)
        return out


_CUSTEXT_SETS = {}


def custext_sets(model, k=20):
    """CusText §3.2 mapping sets: by descending frequency, an unassigned word
    and its k-1 nearest unassigned words (Euclidean) form a set; the last set
    may be smaller. Returns set_of (V,) and the members of each set."""
    key = (model.path, k)
    if key in _CUSTEXT_SETS:
        return _CUSTEXT_SETS[key]
    x = model.vectors
    sq = (x * x).sum(axis=1)
    order = np.lexsort((np.arange(model.V), -model.freq))
    set_of = np.full(model.V, -1, dtype=np.int64)
    members = []
    free = np.ones(model.V, dtype=bool)
    for w in order:
        if not free[w]:
            continue
        cand = np.nonzero(free)[0]
        d = sq[cand] - 2 * x[cand] @ x[w] + sq[w]
        take = cand[np.argsort(d, kind="stable")[:k]]  # w itself is at distance 0
        if w not in take:
            take = np.concatenate(([w], take[:k - 1]))
        free[take] = False
        set_of[take] = len(members)
        members.append(take)
    _CUSTEXT_SETS[key] = (set_of, members)
    return set_of, members


class CusText(Peer):
    """Chen et al. 2023, Eq. (2)-(3): the exponential mechanism within the
    word's mapping set on the min-max normalised similarity (Δu = 1)."""
    name = "custext"
    reveals_set = True

    def __init__(self, model, epsilon, k=20):
        super().__init__(model, epsilon)
        self.set_of, self.members = custext_sets(model, k)
        self._cdf = {}

    def _cdf_of(self, w):
        if w not in self._cdf:
            m = self.members[self.set_of[w]]
            d = np.sqrt(np.maximum(((self.model.vectors[m] - self.model.vectors[w]) ** 2).sum(axis=1), 0))
            sim = -d
            span = sim.max() - sim.min()
            u = (sim - sim.min()) / span if span > 0 else np.ones_like(sim)
            p = np.exp(self.epsilon * u / 2)
            self._cdf[w] = (m, np.cumsum(p))
        return self._cdf[w]

    def release(self, idx, rng):
        out = np.empty_like(idx)
        for i, w in enumerate(idx):
            m, cdf = self._cdf_of(int(w))
            out[i] = m[min(np.searchsorted(cdf, rng.random() * cdf[-1], side="right"), len(m) - 1)]
        return out

    def structure_of(self, word):
        i = self.model.lookup(word)
        return None if i < 0 else int(self.set_of[i])


class OrderingPrototype(Peer):
    """The ordering mechanism's law on given public orderings (positions:
    (K, V)); stands in for `dxtext privatize --mechanism ordering` until
    the CLI has it."""
    name = "ordering-proto"

    def __init__(self, model, epsilon, positions):
        super().__init__(model, epsilon)
        self.positions = positions
        self.orders = np.argsort(positions, axis=1)

    def release(self, idx, rng):
        n = len(idx)
        j = rng.integers(self.positions.shape[0], size=n)
        p = 1 - np.exp(-self.epsilon)  # success probability of each geometric variable
        k = rng.geometric(p, size=n) - rng.geometric(p, size=n)
        pos = (self.positions[j, idx] + k) % self.model.V
        return self.orders[j, pos]


HOP_NAME = re.compile(r"hop(?:-k(\d+))?(?:-floor([0-9.]+))?")


def _cache_dir():
    """$DXT_EVAL_CACHE, else the cache directory run_eval.py uses."""
    return os.environ.get("DXT_EVAL_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "dxtext-eval")


def knn(model, k):
    """The k nearest other words of every word (Euclidean, model_vectors'
    neighbours()), cached in the evaluation cache like the orderings."""
    st = os.stat(model.path)
    cache = os.path.join(_cache_dir(), f"knn-{os.path.basename(model.path)}-{st.st_size}-{k}.npy")
    if os.path.isfile(cache):
        nn = np.load(cache)
        if nn.shape == (model.V, k):
            return nn
    nn = model.neighbours(k)
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    np.save(cache, nn)
    return nn


def _bridges(model, labels):
    """One edge per component but the largest: between its member and the
    word outside it that are nearest to each other (Euclidean)."""
    x = model.vectors
    sq = (x * x).sum(axis=1)
    big = np.bincount(labels).argmax()
    edges = []
    for c in np.unique(labels):
        if c == big:
            continue
        members = np.flatnonzero(labels == c)
        d = sq[members, None] - 2 * x[members] @ x.T + sq[None, :]
        d[:, members] = np.inf
        i, j = np.unravel_index(np.argmin(d), d.shape)
        edges.append(tuple(sorted((int(members[i]), int(j)))))
    return sorted(set(edges))  # two components may pick the same pair


class HopGraph:
    """The public symmetric k-nearest-neighbour graph of a model's
    vocabulary: an edge when either word is among the other's k nearest.
    If it is not connected, each component but the largest is joined to the
    rest by an edge between its nearest pair (a member and the nearest word
    outside it), repeated until it is; `bridges` lists those edges (none for
    the 40 000-word English model at k = 10 or 20, whose graph is connected).
    Hop counts from a word are computed by breadth-first search and kept."""

    def __init__(self, model, k=10):
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components
        self.model, self.k, self.V = model, k, model.V
        nn = knn(model, k)
        rows = np.repeat(np.arange(self.V), k)
        a = coo_matrix((np.ones(rows.size), (rows, nn.ravel())), shape=(self.V, self.V)).tocsr()
        a = a + a.T
        self.components = connected_components(a, directed=False)[0]
        self.bridges = []
        while True:
            n, labels = connected_components(a, directed=False)
            if n == 1:
                break
            edges = _bridges(model, labels)
            self.bridges += edges
            u, v = np.array(edges).T
            b = coo_matrix((np.ones(2 * len(u)), (np.concatenate([u, v]), np.concatenate([v, u]))),
                           shape=(self.V, self.V)).tocsr()
            a = a + b
        a.data[:] = 1.0
        self.adj = a
        self.degree = np.diff(a.indptr)
        self._rows = {}
        self.hub = self._hubs()

    def bfs(self, w):
        """Hop counts from word w to every word (uint8)."""
        from scipy.sparse.csgraph import breadth_first_order
        _, pred = breadth_first_order(self.adj, w, directed=True, return_predecessors=True)
        # Depths from the search tree by pointer doubling: d[v] is the
        # number of hops from v to anc[v], an ancestor of v.
        anc = pred.astype(np.int64)
        anc[w] = w
        d = np.ones(self.V, dtype=np.int32)
        d[w] = 0
        while True:
            if (anc == w).all():
                break
            d = d + d[anc]
            anc = anc[anc]
        if d.max() > 255:
            raise ValueError("hop counts above 255")
        return d.astype(np.uint8)

    def distances(self, w):
        row = self._rows.get(w)
        if row is None:
            row = self._rows[w] = self.bfs(w)
        return row

    def _hubs(self):
        """Hubs: by descending frequency, a word that is neither a hub nor a
        neighbour of one becomes a hub. Every word is a hub or next to one;
        hub[w] is w itself or its most frequent neighbouring hub."""
        order = np.lexsort((np.arange(self.V), -self.model.freq))
        hub = np.full(self.V, -1, dtype=np.int64)
        ptr, ind = self.adj.indptr, self.adj.indices
        for w in order:
            if hub[w] >= 0:
                continue
            hub[w] = w
            nb = ind[ptr[w]:ptr[w + 1]]
            hub[nb[hub[nb] < 0]] = w
        return hub

    def diameter(self, budget=3000):
        """(lower, upper) bounds on the diameter in hops, by iFUB (Crescenzi
        et al. 2013) from the middle of a double sweep: equal when it
        finishes within `budget` searches. Computed once per graph."""
        if getattr(self, "_diameter", None) is None:
            self._diameter = self._ifub(budget)
        return self._diameter

    def _ifub(self, budget):
        a = int(np.argmax(self.degree))
        b = int(np.argmax(self.bfs(a)))
        db = self.bfs(b)
        c = int(np.argmax(db))
        dc = self.bfs(c)
        ecc = int(db[c])
        mid = int(np.flatnonzero((db == ecc // 2) & (dc == ecc - ecc // 2))[0])
        du = self.bfs(mid)
        top = int(du.max())
        lb, ub, used = max(ecc, top), 2 * top, 0
        for i in range(top, 0, -1):
            for v in np.flatnonzero(du == i):
                lb = max(lb, int(self.bfs(int(v)).max()))
                used += 1
                if used >= budget:
                    return lb, ub
            if lb > 2 * (i - 1):
                return lb, lb
            ub = 2 * (i - 1)
            if lb >= ub:
                return lb, lb
        return lb, lb

    def largest_mode(self, epsilon):
        """An upper bound on m, the largest probability of one output under
        Pr[o | w] ∝ exp(-ε·d_hop(w, o)/2): the mode is w itself with 1/Z_w,
        and Z_w ≥ 1 + n_1·e^(-ε/2) + n_2·e^(-ε), n_1 and n_2 the words at one
        and at two hops."""
        a = self.adj
        two = (a @ a + a).tocsr()
        n2 = np.diff(two.indptr) - 1 - self.degree  # within two hops, minus w and its neighbours
        z = 1 + self.degree * np.exp(-epsilon / 2) + n2 * np.exp(-epsilon)
        return float(1 / z.min())


_HOP_GRAPHS = {}


def hop_graph(model, k=10):
    key = (model.path, k)
    if key not in _HOP_GRAPHS:
        _HOP_GRAPHS[key] = HopGraph(model, k)
    return _HOP_GRAPHS[key]


class HopPeer(Peer):
    """The exponential mechanism on the hop metric of the public symmetric
    k-nearest-neighbour graph: Pr[o | w] ∝ exp(-ε·d_hop(w, o)/2), guarantee
    ε·d_hop(w, w'); optionally with a uniform floor over the vocabulary."""
    name = "hop"
    # Not a confining set, but the graph is public: the harness's
    # structure-aware attacker takes structure_of() when this is set.
    reveals_set = True

    def __init__(self, model, epsilon, k=10, floor=0.0):
        super().__init__(model, epsilon)
        self.graph = hop_graph(model, k)
        self.floor = float(floor)

    def release(self, idx, rng):
        out = np.empty_like(idx)
        distinct, inverse = np.unique(idx, return_inverse=True)
        by_word = np.argsort(inverse, kind="stable")
        first = np.searchsorted(inverse[by_word], np.arange(len(distinct) + 1))
        for r, w in enumerate(distinct):
            where = by_word[first[r]:first[r + 1]]
            d = self.graph.distances(int(w))
            # n_c words at c hops; c drawn with probability ∝ n_c·exp(-ε·c/2).
            n_c = np.bincount(d)
            p = n_c * np.exp(-0.5 * self.epsilon * np.arange(len(n_c)))
            cdf = np.cumsum(p)
            c = np.minimum(np.searchsorted(cdf, rng.random(len(where)) * cdf[-1], side="right"), len(n_c) - 1)
            # Then a uniform word among those at c hops.
            for hops in np.unique(c):
                at = np.flatnonzero(d == hops)
                sel = where[c == hops]
                out[sel] = at[rng.integers(len(at), size=len(sel))]
        if self.floor > 0:
            uniform = rng.random(len(idx)) < self.floor
            out[uniform] = rng.integers(self.model.V, size=int(uniform.sum()))
        return out

    def structure_of(self, word):
        """The released word's hub in the public graph."""
        i = self.model.lookup(word)
        return None if i < 0 else int(self.graph.hub[i])

    def worst_case(self):
        """The worst case per word in nats: ε·diameter (the upper bound on
        the diameter), and with a floor p the smaller of that and
        ln(1 + (1 - p)·m·|S|/p), |S| the vocabulary, m from largest_mode()."""
        lb, ub = self.graph.diameter()
        bound = self.epsilon * ub
        out = {"k": self.graph.k, "epsilon": self.epsilon, "floor": self.floor, "diameter": [lb, ub],
               "components": int(self.graph.components), "bridges": len(self.graph.bridges),
               "largest_mode": self.graph.largest_mode(self.epsilon), "eps_diameter": bound}
        if self.floor > 0:
            p = self.floor
            bound = min(bound, float(np.log1p((1 - p) * out["largest_mode"] * self.model.V / p)))
        out["worst_case"] = bound
        return out


def make(spec, model, epsilon, positions=None):
    """A peer from a config entry's `peer` name."""
    if spec == "santext":
        return SanText(model, epsilon)
    if spec == "custext":
        return CusText(model, epsilon)
    if spec == "ordering-proto":
        return OrderingPrototype(model, epsilon, positions)
    hop = HOP_NAME.fullmatch(spec)
    if hop:
        return HopPeer(model, epsilon, k=int(hop.group(1) or 10), floor=float(hop.group(2) or 0))
    raise ValueError(f"unknown peer {spec!r} (santext, custext, ordering-proto, hop[-kN][-floorP])")


def main(argv=None):
    """The worst case per word of hop peers, one JSON line each:
    python3 -m dxeval.peers MODEL PEER EPSILON... (PEER e.g. hop, hop-k20,
    hop-floor0.05)."""
    import json
    import sys

    from . import model_vectors
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 3:
        sys.exit(main.__doc__)
    model = model_vectors.ModelVectors(argv[0])
    for eps in argv[2:]:
        peer = make(argv[1], model, float(eps))
        print(json.dumps({"peer": argv[1], **peer.worst_case()}))


if __name__ == "__main__":
    main()
