#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the fluency scorer (eval/dxeval/fluency.py): Katz backoff on a
small ARPA model whose perplexities are worked out by hand below, the
tokenisation and unknown-word rules, and, when Debian's pocketsphinx-en-us
is installed, that the sphinx model's backoff weights make every history's
distribution sum to one and that English sentences score better than the
same words shuffled.

  python3 eval/test_fluency.py
"""
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from dxeval import fluency  # noqa: E402

ARPA = """\
\\data\\
ngram 1=4
ngram 2=2
ngram 3=1

\\1-grams:
-1.0 </s>
-99 <s> -0.5
-0.5 a -0.3
-0.7 b -0.2

\\2-grams:
-0.2 <s> a -0.1
-0.4 a b

\\3-grams:
-0.1 <s> a b

\\end\\
"""


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def close(x, y, what):
    check(abs(x - y) < 1e-9 * max(1.0, abs(y)), f"{what}: {x} != {y}")


def test_by_hand():
    m = fluency.ArpaModel(ARPA)
    # "a b": P(a|<s>) listed -0.2; P(b|<s> a) listed -0.1; P(</s>|a b): no
    # trigram, "a b" has no backoff (0), P(</s>|b) = bo(b) + P1(</s>) = -1.2.
    # log10 sum -1.5 over 3 tokens (a, b, </s>): perplexity 10^0.5.
    close(fluency.perplexity(m, "a b"), 10 ** 0.5, "a b")
    # "b a": P(b|<s>) = bo(<s>) + P1(b) = -1.2; P(a|<s> b) = P(a|b) =
    # bo(b) + P1(a) = -0.7; P(</s>|b a) = P(</s>|a) = bo(a) + P1(</s>) = -1.3.
    close(fluency.perplexity(m, "B, a!"), 10 ** (3.2 / 3), "b a")
    # "a x b": x unknown costs the least likely unigram (</s>, -1.0) and cuts
    # the history: b is scored alone (-0.7), then P(</s>|b) = -1.2.
    close(fluency.perplexity(m, "a x b"), 10 ** (3.1 / 4), "a x b")
    close(fluency.perplexity(m, "a x b", known_only=True), 10 ** (2.1 / 3), "a x b, known words")
    # a placeholder is one unknown word, like x
    close(fluency.perplexity(m, "a [redacted] b"), 10 ** (3.1 / 4), "placeholder")
    close(fluency.fluency_ratio(m, "b a", "a b"), 10 ** (3.2 / 3 - 0.5), "ratio")
    s = fluency.summary(m, ["b a", "a x b"], ["a b", "a b"])
    close(s["ratio"], (10 ** (3.2 / 3 - 0.5) + 10 ** (3.1 / 4 - 0.5)) / 2, "macro mean")
    close(s["ratio_known"], (10 ** (3.2 / 3 - 0.5) + 10 ** (2.1 / 3 - 0.5)) / 2, "macro mean, known words")
    close(s["oov"], 1 / 5, "unknown share")
    close(s["ppl"], 10 ** ((3.2 + 3.1) / 7), "pooled perplexity")


def test_words():
    m = fluency.ArpaModel(ARPA.replace("-0.7 b -0.2", "-0.7 b -0.2\n-0.9 don't\n-0.9 built-in\n-0.9 's"))
    check(fluency.words("Don't A-B built-in a's 4.3 [x]", m) == ["don't", "a", "b", "built-in", "a", "'s", None,
                                                              None, None], "tokens")


def test_sphinx():
    if not os.path.exists(fluency.SPHINX_LM):
        print(f"test_fluency.py: {fluency.SPHINX_LM} absent (apt-get install pocketsphinx-en-us), sphinx tests skipped")
        return
    m = fluency.SphinxModel()
    # Backoff weights as ARPA means them: for a history, the listed
    # successors' mass plus bo(h) times the rest of the lower order's mass
    # is one (up to the file's 16-bit quantisation).
    for h in ["the", "of", "<s>", "zebra"]:
        listed = [w for w in m.words if w != "<s>" and m.bigram(h, w) is not None]
        mass = sum(math.exp(m.bigram(h, w)[0]) for w in listed)
        rest = 1 - sum(math.exp(m.unigram(w)[0]) for w in listed)
        total = mass + math.exp(m.unigram(h)[1]) * rest
        check(abs(total - 1) < 1e-3, f"history {h!r}: {total}")
    sentences = ["i think we should go to the store tomorrow morning",
                 "the president said that the economy is growing faster than expected",
                 "please update the package to the new upstream release",
                 "she was born in a small town near the river",
                 "thank you very much for your help with this problem"]
    rng = random.Random(1)
    for s in sentences:
        w = s.split()
        shuffled = w[:]
        while shuffled == w:
            rng.shuffle(shuffled)
        check(fluency.perplexity(m, s) * 2 < fluency.perplexity(m, " ".join(shuffled)), f"shuffled {s!r}")


def main():
    tests = [test_by_hand, test_words, test_sphinx]
    for t in tests:
        t()
    print(f"test_fluency.py: {len(tests)} tests passed")


if __name__ == "__main__":
    main()
