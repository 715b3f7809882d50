# SPDX-License-Identifier: Apache-2.0
"""Utility classifiers for the `label` field, trained on the known
(unprivatised) texts: tf-idf + multinomial naive Bayes, tf-idf + linear SVM,
and fastText supervised (Debian's `fasttext` command); and the topic analyst
that also reads the public structure (StructureTopic)."""
import os
import re
import shutil
import subprocess
import tempfile

from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.naive_bayes import MultinomialNB
from sklearn.svm import LinearSVC

from .attackers import StructureSVM


def _word_tfidf():
    return TfidfVectorizer(analyzer="word", ngram_range=(1, 2), sublinear_tf=True, lowercase=True, min_df=2)


class NaiveBayes:
    name = "utility_nb"

    def fit(self, texts, labels):
        self.vec = _word_tfidf()
        self.clf = MultinomialNB(alpha=0.1).fit(self.vec.fit_transform(texts), labels)
        return self

    def predict(self, texts):
        return list(self.clf.predict(self.vec.transform(texts)))


class WordSVM:
    name = "utility_svm"

    def fit(self, texts, labels):
        self.vec = _word_tfidf()
        self.clf = LinearSVC(C=1.0).fit(self.vec.fit_transform(texts), labels)
        return self

    def predict(self, texts):
        return list(self.clf.predict(self.vec.transform(texts)))


class StructureTopic(StructureSVM):
    """The topic analyst that uses the public structure: a linear SVM on
    tf-idf of the released words and, for each word, its structure tokens
    (its bucket floor(position / B) along each public ordering of the
    model, or its CusText mapping set) -- the features of the
    structure-aware attacker, with the label as the target. Mapping a
    released word to the public structure needs nothing but the release
    and the model, so it is free for the analyst (DESIGN.md, "Guarantees on
    one scale"): a replacement that stays near its word keeps the word's
    buckets, and with them some of its topic.

    Trained either on the unmodified known texts (static) or on the known
    texts released by the same condition (adaptive)."""
    name = "topic_structure"


class FastTextError(RuntimeError):
    pass


def _ft_line(text):
    # fastText reads one example per line, words split on whitespace.
    return " ".join(re.findall(r"\w+|[^\w\s]", text.lower()))


def _ft_label(label):
    return "__label__" + re.sub(r"\s+", "_", label)


class FastText:
    """fastText supervised through the `fasttext` command line (Debian
    package `fasttext`); one thread and a fixed seed, so runs repeat."""
    name = "utility_fasttext"

    def __init__(self, binary="fasttext", epoch=25, lr=0.5, word_ngrams=2, bucket=200000, seed=0):
        self.binary = shutil.which(binary) or binary
        # 200 000 hash buckets for the word bigrams instead of fastText's
        # 2 000 000: a corpus of a few hundred thousand words has far fewer
        # distinct bigrams, and the model file shrinks from 800 MB to 80 MB,
        # which every prediction (one process per condition) loads again.
        self.opts = ["-epoch", str(epoch), "-lr", str(lr), "-wordNgrams", str(word_ngrams), "-bucket", str(bucket),
                     "-thread", "1", "-seed", str(seed), "-verbose", "0"]
        self.dir = tempfile.mkdtemp(prefix="dxeval-fasttext-")

    def __del__(self):
        shutil.rmtree(getattr(self, "dir", ""), ignore_errors=True)

    def _run(self, args):
        try:
            p = subprocess.run([self.binary] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except OSError as e:
            raise FastTextError(f"cannot run {self.binary}: {e} (Debian: apt-get install fasttext)") from None
        if p.returncode != 0:
            raise FastTextError(f"{self.binary} {args[0]}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
        return p.stdout.decode()

    def fit(self, texts, labels):
        self.labels = {_ft_label(l): l for l in set(labels)}
        train = os.path.join(self.dir, "train.txt")
        with open(train, "w", encoding="utf-8") as f:
            for t, l in zip(texts, labels):
                f.write(f"{_ft_label(l)} {_ft_line(t)}\n")
        self.model = os.path.join(self.dir, "model")
        self._run(["supervised", "-input", train, "-output", self.model] + self.opts)
        return self

    def predict(self, texts):
        test = os.path.join(self.dir, "test.txt")
        with open(test, "w", encoding="utf-8") as f:
            for t in texts:
                f.write(_ft_line(t) + "\n")
        out = self._run(["predict", self.model + ".bin", test]).split("\n")
        out = [o for o in out if o]
        if len(out) != len(texts):
            raise FastTextError(f"fasttext predicted {len(out)} labels for {len(texts)} texts")
        return [self.labels.get(o.strip(), o.strip()) for o in out]
