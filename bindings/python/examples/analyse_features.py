# SPDX-License-Identifier: Apache-2.0
"""Analyse `features` releases: privatise a small labelled corpus of messages
with the features preset, then train a topic classifier on the released
texts, once on their words alone and once on the words and their buckets
along the model's public orderings (dxtext.analysis.ReleaseFeatures).
Mapping released words to the public orderings is post-processing of the
release: it costs no privacy.

Needs the dxtext wheel (which carries the default model) and scikit-learn:
    python -m pip install dxtext-*.whl scikit-learn    # or Debian's python3-sklearn
    python analyse_features.py
The releases are drawn afresh on every run, so the accuracies vary a little.
"""

import random

from sklearn.feature_extraction.text import TfidfTransformer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

import dxtext
from dxtext.analysis import ReleaseFeatures

# Messages on four topics: the same sentence patterns, filled with each
# topic's words, so that only those words tell the topics apart.
TOPICS = {
    "sport": "match team goal coach players season game score league football training stadium fans referee "
    "tennis race champion cup final tickets".split(),
    "food": "dinner recipe soup bread cheese chicken salad kitchen restaurant lunch breakfast pasta sauce oven "
    "vegetables fruit coffee cake rice menu".split(),
    "health": "doctor hospital pain medicine appointment nurse fever treatment clinic surgery symptoms flu "
    "headache pills recovery blood patient injury vaccine sleep".split(),
    "money": "bank payment invoice salary budget tax loan account price contract office manager client "
    "deadline report project bill insurance rent mortgage".split(),
}
PATTERNS = [
    "Hi, the {0} was great and the {1} too, see you at the {2}.",
    "Did you check the {0}? I think the {1} is late again.",
    "Can we talk about the {0} and the {2} tomorrow?",
    "Thanks for the {0}! The {1} and the {3} were really good.",
    "Sorry, I missed the {0}, was the {1} ok?",
    "The {0} is on Friday, don't forget the {1} and the {2}.",
    "My {0} was bad today, I need a new {1} before the {2}.",
    "Love the {0}, but the {1} and the {3} need some work.",
]


def corpus(count, rng):
    """`count` messages per topic, with their labels."""
    texts, labels = [], []
    for _ in range(count):
        for topic, words in TOPICS.items():
            texts.append(rng.choice(PATTERNS).format(*rng.sample(words, 4)))
            labels.append(topic)
    return texts, labels


def accuracy(pipeline, train, test):
    pipeline.fit(*train)
    predicted = pipeline.predict(test[0])
    return sum(p == g for p, g in zip(predicted, test[1])) / len(predicted)


def main():
    rng = random.Random(1)
    train_texts, train_labels = corpus(60, rng)
    test_texts, test_labels = corpus(60, rng)
    with dxtext.Model.default() as model:
        # The writers' side: each message privatised on its own device.
        released_train = [model.privatize(t, preset="features") for t in train_texts]
        released_test = [model.privatize(t, preset="features") for t in test_texts]
        print("written: ", test_texts[0])
        print("released:", released_test[0])
        print()
        # The analyst's side: the releases and the public model only.
        for name, features in [
            ("words only", ReleaseFeatures(model, structure=False)),
            ("words + ordering buckets (B = 8)", ReleaseFeatures(model)),
            ("words + ordering buckets (B = 64)", ReleaseFeatures(model, bucket_size=64)),
        ]:
            pipeline = make_pipeline(features, TfidfTransformer(sublinear_tf=True), LogisticRegression(max_iter=2000))
            score = accuracy(pipeline, (released_train, train_labels), (released_test, test_labels))
            print(f"{name:36s} accuracy {score:.2f}")
        raw = make_pipeline(ReleaseFeatures(model, structure=False), LogisticRegression(max_iter=2000))
        print(f"{'(the written texts, words only)':36s} accuracy "
              f"{accuracy(raw, (train_texts, train_labels), (test_texts, test_labels)):.2f}")
        print(f"(chance: {1 / len(TOPICS):.2f})")


if __name__ == "__main__":
    main()
