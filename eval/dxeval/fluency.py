# SPDX-License-Identifier: Apache-2.0
"""Fluency of released text under a public backoff trigram language model.

The model is CMU Sphinx's US English trigram model (Debian's
pocketsphinx-en-us, BSD-2-Clause, /usr/share/pocketsphinx/model/en-us/
en-us.lm.bin), read with models/euclid/sphinx_lm.py; a model in ARPA text
form is read too (the unit tests build one by hand). Scoring follows the
ARPA semantics (Katz backoff, as SRILM's `ngram -ppl` computes it):

    P(w | g h) = P3(g h w)                 if the trigram is listed
               = bo(g h) * P(w | h)        otherwise (bo = 1 if "g h" is not listed)
    P(w | h)   = P2(h w)                   if the bigram is listed
               = bo(h) * P1(w)             otherwise

How a text is scored (the same for the released and the unmodified text):

- words: lower-cased runs of letters and digits, with inner apostrophes and
  hyphens ("don't", "built-in"); a hyphenated or possessive token the model
  does not know is split at its hyphens and before "'s". A bracketed
  placeholder ("[redacted]") is one unknown word; punctuation is not scored.
- one sequence per text, <s> w1 ... wn </s>: dxtext's strict release shape
  (the features and strongest presets) keeps no sentence marks, so sentence
  boundaries are not used for either text, which keeps the two comparable.
- the model has no <UNK>: an unknown word costs a fixed penalty, the log
  probability of the model's least likely unigram (for en-us.lm.bin
  ln P = -21.8, log10 P = -9.47), and the word after it is scored without
  history (its unigram probability).
- per-word perplexity: exp(-sum of log P / (n + 1)), the n words and </s>.
  As that penalty makes a text that drops numbers and unknown words look
  more fluent, a second figure scores the known words only (SRILM's
  convention: unknown words are left out of the sum and the count, and
  still cut the history), next to the share of unknown words.

fluency_ratio(released, original) is the released text's per-word
perplexity divided by the unmodified text's (> 1: less fluent), averaged
over documents by eval/run_eval.py (macro average).
"""
import math
import os
import re
import sys
from bisect import bisect_left

import numpy as np

SPHINX_LM = "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin"
LN10 = math.log(10.0)

_TOKEN = re.compile(r"\[[^\]\s]*\]|[a-z0-9]+(?:['\-][a-z0-9]+)*|'[a-z]+")


class ArpaModel:
    """A backoff trigram model from ARPA text (log10 probabilities and backoffs)."""

    def __init__(self, text):
        self.uni, self.bi, self.tri = {}, {}, {}
        order = 0
        for line in text.splitlines():
            line = line.strip()
            m = re.match(r"^\\(\d)-grams:$", line)
            if m:
                order = int(m.group(1))
                continue
            if not line or line.startswith("\\") or order == 0 or line.startswith("ngram "):
                continue
            f = line.split()
            lp = float(f[0]) * LN10
            words = tuple(f[1:1 + order])
            bo = float(f[1 + order]) * LN10 if len(f) > 1 + order else 0.0
            (self.uni, self.bi, self.tri)[order - 1][words if order > 1 else words[0]] = (lp, bo)
        self.unknown_logprob = min(lp for lp, _ in self.uni.values() if lp > -90 * LN10)

    def known(self, w):
        return w in self.uni

    def unigram(self, w):
        return self.uni[w]

    def bigram(self, h, w):
        return self.bi.get((h, w))

    def trigram(self, g, h, w):
        t = self.tri.get((g, h, w))
        return None if t is None else t[0]


class SphinxModel:
    """The same lookups on a sphinx trie model (models/euclid/sphinx_lm.py)."""

    def __init__(self, path=SPHINX_LM):
        here = os.path.dirname(os.path.abspath(__file__))
        sys.path.insert(0, os.path.join(here, "..", "..", "models", "euclid"))
        import sphinx_lm  # noqa: E402
        lm = sphinx_lm.read(path)
        self.words = lm["words"]
        self.index = {w: i for i, w in enumerate(self.words)}
        self.V = len(self.words)
        self.u_lp = lm["unigram_logprob"].tolist()
        self.u_bo = lm["unigram_backoff"].tolist()
        nxt = lm["unigram_next"]
        # bigram "h w" is stored under w with word h; keys w * V + h are sorted
        self.b_key = (np.repeat(np.arange(self.V, dtype=np.int64), np.diff(nxt)) * self.V
                      + lm["bigram_word"]).tolist()
        self.b_lp = lm["bigram_logprob"].tolist()
        self.b_bo = lm["bigram_backoff"].tolist()
        # trigram "g h w" is stored under bigram "h w" with word g
        bn = lm["bigram_next"]
        self.t_key = (np.repeat(np.arange(len(self.b_lp), dtype=np.int64), np.diff(bn)) * self.V
                      + lm["trigram_word"]).tolist()
        self.t_lp = lm["trigram_logprob"].tolist()
        lps = [x for w, x in zip(self.words, self.u_lp) if w != "<s>"]
        self.unknown_logprob = min(lps)

    def known(self, w):
        return w in self.index

    def unigram(self, w):
        i = self.index[w]
        return self.u_lp[i], self.u_bo[i]

    def _bigram_at(self, h, w):
        key = self.index[w] * self.V + self.index[h]
        j = bisect_left(self.b_key, key)
        return j if j < len(self.b_key) and self.b_key[j] == key else None

    def bigram(self, h, w):
        j = self._bigram_at(h, w)
        return None if j is None else (self.b_lp[j], self.b_bo[j])

    def trigram(self, g, h, w):
        j = self._bigram_at(h, w)
        if j is None:
            return None
        key = j * self.V + self.index[g]
        k = bisect_left(self.t_key, key)
        return self.t_lp[k] if k < len(self.t_key) and self.t_key[k] == key else None


def load(path=SPHINX_LM):
    """A model from a sphinx trie (.lm.bin) or ARPA text file."""
    if path.endswith(".bin"):
        return SphinxModel(path)
    with open(path, encoding="utf-8") as f:
        return ArpaModel(f.read())


def words(text, model):
    """The scored words of a text (see the module docstring); unknown words
    and placeholders come back as None."""
    out = []
    for t in _TOKEN.findall(text.lower()):
        if t.startswith("["):
            out.append(None)
            continue
        if model.known(t):
            out.append(t)
            continue
        parts = []
        for p in t.split("-"):
            if not p:
                continue
            if not model.known(p) and p.endswith("'s") and len(p) > 2:
                parts += [p[:-2], "'s"]
            else:
                parts.append(p)
        out += [p if model.known(p) else None for p in parts if p]
    return out


def logprob(model, w, h=None, g=None):
    """Natural log P(w | g h) with Katz backoff (h, g: the previous words, None when absent)."""
    if h is not None and g is not None:
        t = model.trigram(g, h, w)
        if t is not None:
            return t
        b = model.bigram(g, h)
        return (b[1] if b is not None else 0.0) + logprob(model, w, h)
    if h is not None:
        b = model.bigram(h, w)
        if b is not None:
            return b[0]
        return model.unigram(h)[1] + model.unigram(w)[0]
    return model.unigram(w)[0]


def score(model, text):
    """(sum of natural log probabilities, scored tokens, unknown words) of a
    text; the sum over the known words only is score_known."""
    total, n, unknown, _ = _score(model, text)
    return total, n, unknown


def _score(model, text):
    total, n, unknown, unknown_total = 0.0, 0, 0, 0.0
    g, h = None, "<s>"
    for w in words(text, model) + ["</s>"]:
        n += 1
        if w is None:
            total += model.unknown_logprob
            unknown_total += model.unknown_logprob
            unknown += 1
            g, h = None, None
            continue
        total += logprob(model, w, h, g if h is not None else None)
        g, h = h, w
    return total, n, unknown, unknown_total


def perplexity(model, text, known_only=False):
    """Per-word perplexity; known_only: over the known words and </s> only."""
    total, n, unknown, unknown_total = _score(model, text)
    if known_only:
        total, n = total - unknown_total, n - unknown
    return math.exp(-total / n)


def fluency_ratio(model, released, original, known_only=False):
    """Per-word perplexity of the released text over the unmodified text's."""
    return perplexity(model, released, known_only) / perplexity(model, original, known_only)


def summary(model, released_texts, original_texts):
    """Dict: ratio (macro mean over texts of the per-word perplexity ratio,
    unknown words at the fixed penalty), ratio_known (the same over known
    words only), ppl (per-word perplexity of all released texts together)
    and oov (share of the released words unknown to the model)."""
    ratios, ratios_known, tot, n, unk, nw = [], [], 0.0, 0, 0, 0
    for r, o in zip(released_texts, original_texts):
        s, k, u, su = _score(model, r)
        so, ko, uo, suo = _score(model, o)
        ratios.append(math.exp(-s / k) / math.exp(-so / ko))
        ratios_known.append(math.exp(-(s - su) / (k - u)) / math.exp(-(so - suo) / (ko - uo)))
        tot, n, unk, nw = tot + s, n + k, unk + u, nw + k - 1
    nan = float("nan")
    return {"ratio": sum(ratios) / len(ratios) if ratios else nan,
            "ratio_known": sum(ratios_known) / len(ratios_known) if ratios_known else nan,
            "ppl": math.exp(-tot / n) if n else nan, "oov": unk / nw if nw else nan}
