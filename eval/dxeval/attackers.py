# SPDX-License-Identifier: Apache-2.0
"""Authorship attackers, trained on an author's known (unprivatised) texts.

- KoppelImpostors: Koppel, Schler & Argamon, "Authorship attribution in the
  wild" (2011): character 4-grams within words, tf-idf; each of `rounds`
  rounds keeps a random `feature_share` of the features and votes for the
  candidate whose known texts (their centroid) are most cosine-similar to the snippet; the
  candidate with most votes is the answer (closed set: always answers).
- CharSVM: a linear SVM on tf-idf character 1-4-grams (WritePrints-style
  character features), trained on the known snippets.
"""
import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.svm import LinearSVC


class KoppelImpostors:
    name = "attack_koppel"

    def __init__(self, rounds=100, feature_share=0.4, seed=0):
        self.rounds = rounds
        self.feature_share = feature_share
        self.seed = seed

    def fit(self, texts, authors):
        # idf from the known texts (not from one profile per author: with a
        # handful of candidates that idf is nearly flat), and each author's
        # profile the centroid of their known texts.
        self.authors = sorted(set(authors))
        self.vec = TfidfVectorizer(analyzer="char_wb", ngram_range=(4, 4), sublinear_tf=True, lowercase=True,
                                   min_df=2)
        x = self.vec.fit_transform(texts)
        who = np.array(authors)
        self.profiles = np.vstack([np.asarray(x[who == a].mean(axis=0)) for a in self.authors])
        return self

    def predict(self, texts):
        x = self.vec.transform(texts).tocsc()
        rng = np.random.default_rng(self.seed)
        n_features = x.shape[1]
        k = max(1, int(self.feature_share * n_features))
        votes = np.zeros((x.shape[0], len(self.authors)))
        x_sq = x.multiply(x).tocsc()
        p_sq = self.profiles**2
        for _ in range(self.rounds):
            idx = np.sort(rng.choice(n_features, size=k, replace=False))
            dots = np.asarray(x[:, idx] @ self.profiles[:, idx].T)
            norms = np.sqrt(np.asarray(x_sq[:, idx].sum(axis=1))) * np.sqrt(p_sq[:, idx].sum(axis=1))[None, :]
            sims = np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)
            votes[np.arange(x.shape[0]), sims.argmax(axis=1)] += 1
        return [self.authors[i] for i in votes.argmax(axis=1)]


class CharSVM:
    name = "attack_char_svm"

    def fit(self, texts, authors):
        self.vec = TfidfVectorizer(analyzer="char", ngram_range=(1, 4), sublinear_tf=True, lowercase=False,
                                   min_df=2, max_features=200000)
        self.clf = LinearSVC(C=1.0).fit(self.vec.fit_transform(texts), authors)
        return self

    def predict(self, texts):
        return list(self.clf.predict(self.vec.transform(texts)))


class WordSVM:
    """A linear SVM on tf-idf word 1-2-grams (an adaptive attacker: trained on
    known texts privatised the same way as the unknown ones)."""
    name = "attack_word_svm"

    def fit(self, texts, authors):
        self.vec = TfidfVectorizer(analyzer="word", ngram_range=(1, 2), sublinear_tf=True, lowercase=True, min_df=2,
                                   max_features=200000)
        self.clf = LinearSVC(C=1.0, random_state=0).fit(self.vec.fit_transform(texts), authors)
        return self

    def predict(self, texts):
        return list(self.clf.predict(self.vec.transform(texts)))


class StructureSVM:
    """The structure-aware attacker: each released word is also mapped to
    its neighbourhood in the public structure the mechanism works on, and
    a linear SVM is trained on tf-idf of the words and these tokens.

    `structure(word)` returns the word's structure tokens, e.g. its bucket
    floor(position / B) in each public ordering, or its CusText mapping set
    (which the output reveals, DESIGN.md §6): a replacement that stays near
    its word keeps the word's bucket, so the attacker can see through it."""
    name = "attack_structure"

    def __init__(self, structure):
        self.structure = structure

    def _doc(self, text):
        import re
        out = []
        for w in re.findall(r"[A-Za-z0-9]+(?:['\u2019][A-Za-z]+)*", text):
            out.append(w.lower())
            out.extend(self.structure(w))
        return " ".join(out)

    def fit(self, texts, authors):
        self.vec = TfidfVectorizer(analyzer="word", token_pattern=r"\S+", ngram_range=(1, 1), sublinear_tf=True,
                                   lowercase=False, min_df=2, max_features=200000)
        self.clf = LinearSVC(C=1.0, random_state=0).fit(self.vec.fit_transform([self._doc(t) for t in texts]), authors)
        return self

    def predict(self, texts):
        return list(self.clf.predict(self.vec.transform([self._doc(t) for t in texts])))


def topic_floor(known_authors, known_labels, unknown_authors, unknown_labels):
    """The accuracy of an oracle that knows each unknown text's true label and
    answers the commonest author of that label among the known texts: what
    topic alone gives away about the author, which no word replacement that
    keeps the topic can take back."""
    from collections import Counter
    best = {}
    for label in set(known_labels):
        c = Counter(a for a, l in zip(known_authors, known_labels) if l == label)
        best[label] = sorted(c.items(), key=lambda x: (-x[1], x[0]))[0][0]
    hits = [best.get(l) == a for a, l in zip(unknown_authors, unknown_labels)]
    return sum(hits) / len(hits) if hits else 0.0
