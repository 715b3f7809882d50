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

Text handling, the same for every peer: words are runs of letters (with
inner apostrophes); a word of the model's vocabulary (case folded) is
replaced and the replacement takes the word's capitalisation; a word outside
the vocabulary and any token with a digit is released as the placeholder
UNK; spaces and punctuation are kept (release shape "keep"). The no-noise
reference of a peer is the same text with every vocabulary word kept.
"""
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


def make(spec, model, epsilon, positions=None):
    """A peer from a config entry's `peer` name."""
    if spec == "santext":
        return SanText(model, epsilon)
    if spec == "custext":
        return CusText(model, epsilon)
    if spec == "ordering-proto":
        return OrderingPrototype(model, epsilon, positions)
    raise ValueError(f"unknown peer {spec!r} (santext, custext, ordering-proto)")
