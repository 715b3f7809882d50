#!/usr/bin/env python3
"""Small quality check for a Euclidean dxtext model (python3 standard library only).

    python3 models/eval-euclid.py [--dxtext build/bin/dxtext] MODEL.dxe
    python3 models/eval-euclid.py --vectors EXPORTED.txt

Reads the vectors through `dxtext export` (word2vec text, dequantised), then
prints:

  * the geometry: vector norms and nearest-neighbour distances, the scale
    that the laplace mechanism's noise (mean norm D / epsilon) is measured
    against;
  * the 8 nearest neighbours of a few common words, by cosine similarity and
    by Euclidean distance (the metric the laplace mechanism uses);
  * a word-similarity check on a small hand-made list: Spearman correlation
    between the model's similarities and our own 0-10 relatedness ratings, and
    the fraction of (word, related, unrelated) triples in which the related
    word is the closer one.

The lists below are small and self-made: they catch a broken model and let
two models be compared, nothing more. They are not a benchmark.
"""
import argparse
import math
import subprocess
import sys

PROBES = ["house", "king", "water", "happy", "doctor", "money", "run", "city", "war", "computer", "monday", "blue"]

# (word, word, our relatedness rating 0-10)
PAIRS = [
    ("car", "automobile", 10), ("big", "large", 9), ("begin", "start", 9), ("doctor", "physician", 10),
    ("ship", "boat", 9), ("happy", "glad", 9), ("money", "cash", 9), ("king", "queen", 8),
    ("man", "woman", 8), ("cat", "dog", 7), ("river", "stream", 8), ("city", "town", 8),
    ("war", "battle", 8), ("house", "home", 8), ("father", "son", 7), ("tree", "forest", 7),
    ("winter", "summer", 7), ("doctor", "hospital", 7), ("bread", "butter", 6), ("teacher", "school", 7),
    ("monday", "tuesday", 8), ("red", "blue", 6), ("sea", "ocean", 9), ("horse", "cattle", 5),
    ("gold", "silver", 7), ("church", "priest", 6), ("law", "court", 6), ("eat", "food", 6),
    ("music", "song", 7), ("rain", "weather", 6), ("army", "navy", 6), ("tax", "revenue", 7),
    ("coffee", "tea", 7), ("letter", "mail", 6), ("computer", "keyboard", 5), ("president", "congress", 5),
    ("king", "cabbage", 0), ("doctor", "volcano", 0), ("car", "philosophy", 0), ("happy", "granite", 0),
    ("ship", "tuesday", 0), ("money", "butterfly", 1), ("river", "pencil", 0), ("winter", "democracy", 0),
    ("bread", "senator", 0), ("horse", "algebra", 0), ("music", "tax", 1), ("coffee", "army", 0),
    ("church", "engine", 1), ("cat", "treaty", 0), ("sea", "lawyer", 0), ("gold", "sleep", 1),
]

# (word, related, unrelated)
TRIPLES = [
    ("car", "truck", "poem"), ("doctor", "nurse", "harbor"), ("king", "throne", "carrot"),
    ("ship", "sailor", "violin"), ("money", "bank", "thunder"), ("happy", "cheerful", "iron"),
    ("house", "roof", "comet"), ("war", "soldier", "velvet"), ("city", "street", "lung"),
    ("rain", "cloud", "court"), ("bread", "flour", "senate"), ("horse", "saddle", "budget"),
    ("teacher", "student", "anchor"), ("church", "prayer", "tariff"), ("gold", "coin", "whisper"),
    ("winter", "snow", "treaty"), ("tree", "leaf", "election"), ("music", "melody", "cargo"),
    ("law", "judge", "feather"), ("fire", "smoke", "grammar"), ("eat", "dinner", "mountain"),
    ("president", "election", "pudding"), ("whale", "harpoon", "bishop"), ("mother", "daughter", "canal"),
    ("sick", "ill", "wooden"), ("quick", "fast", "purple"), ("speak", "talk", "boil"),
    ("ancient", "old", "electric"), ("wife", "husband", "tunnel"), ("computer", "software", "harvest"),
]


def load_vectors(args):
    if args.vectors:
        stream = open(args.vectors, encoding="utf-8")
    else:
        proc = subprocess.run([args.dxtext, "export", args.model], check=True, stdout=subprocess.PIPE)
        stream = proc.stdout.decode("utf-8").splitlines()
    words, vecs = [], []
    for i, line in enumerate(stream):
        parts = line.split()
        if i == 0 and len(parts) == 2:
            continue  # header
        words.append(parts[0])
        vecs.append([float(x) for x in parts[1:]])
    return words, vecs


def dot(a, b):
    return math.fsum(x * y for x, y in zip(a, b))


class Space:
    def __init__(self, words, vecs):
        self.words, self.vecs = words, vecs
        self.index = {w: i for i, w in enumerate(words)}
        self.sq = [dot(v, v) for v in vecs]

    def has(self, *ws):
        return all(w in self.index for w in ws)

    def cos(self, a, b):
        i, j = self.index[a], self.index[b]
        return dot(self.vecs[i], self.vecs[j]) / math.sqrt(self.sq[i] * self.sq[j])

    def dist(self, a, b):
        i, j = self.index[a], self.index[b]
        return math.sqrt(max(0.0, self.sq[i] + self.sq[j] - 2 * dot(self.vecs[i], self.vecs[j])))

    def neighbours(self, word, k):
        i = self.index[word]
        v, n = self.vecs[i], math.sqrt(self.sq[i])
        cos, euc = [], []
        for j, u in enumerate(self.vecs):
            if j == i:
                continue
            d = sum(x * y for x, y in zip(v, u))
            cos.append((-d / (n * math.sqrt(self.sq[j])), j))
            euc.append((self.sq[i] + self.sq[j] - 2 * d, j))
        cos.sort()
        euc.sort()
        return ([(self.words[j], -c) for c, j in cos[:k]], [(self.words[j], math.sqrt(max(0.0, e))) for e, j in euc[:k]])


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(xs, ys):
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    return cov / math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))


def median(xs):
    s = sorted(xs)
    return s[len(s) // 2]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("model", nargs="?", help="a .dxe model (read through dxtext export)")
    p.add_argument("--dxtext", default="build/bin/dxtext", help="the dxtext program (default build/bin/dxtext)")
    p.add_argument("--vectors", help="read an already exported word2vec text file instead of MODEL")
    p.add_argument("-k", type=int, default=8, help="neighbours to list (default 8)")
    args = p.parse_args()
    if not args.model and not args.vectors:
        p.error("give MODEL or --vectors")
    words, vecs = load_vectors(args)
    s = Space(words, vecs)
    dim = len(vecs[0])
    print(f"vocabulary {len(words)}, dimension {dim}")

    norms = sorted(math.sqrt(q) for q in s.sq)
    print(f"vector norm: median {median(norms):.3f}, 10th percentile {norms[len(norms) // 10]:.3f}, "
          f"90th percentile {norms[9 * len(norms) // 10]:.3f}")

    nn = []
    for w in PROBES:
        if not s.has(w):
            print(f"\n{w}: not in the vocabulary")
            continue
        by_cos, by_euc = s.neighbours(w, args.k)
        nn.append(by_euc[0][1])
        print(f"\n{w}")
        print("  cosine:    " + ", ".join(f"{x} {c:.2f}" for x, c in by_cos))
        print("  Euclidean: " + ", ".join(f"{x} {d:.2f}" for x, d in by_euc))
    if nn:
        print(f"\nEuclidean distance to the nearest other word, median over the probe words: {median(nn):.3f} "
              f"(the laplace noise has mean norm {dim}/epsilon)")

    pairs = [(a, b, r) for a, b, r in PAIRS if s.has(a, b)]
    missing = [f"{a}-{b}" for a, b, _ in PAIRS if not s.has(a, b)]
    human = [r for _, _, r in pairs]
    rho_cos = spearman(human, [s.cos(a, b) for a, b, _ in pairs])
    rho_euc = spearman(human, [-s.dist(a, b) for a, b, _ in pairs])
    print(f"\npairs: {len(pairs)} of {len(PAIRS)} in the vocabulary" + (f" (missing: {', '.join(missing)})" if missing else ""))
    print(f"  Spearman vs our ratings: cosine {rho_cos:.3f}, Euclidean {rho_euc:.3f}")

    triples = [t for t in TRIPLES if s.has(*t)]
    c_ok = sum(s.cos(w, r) > s.cos(w, u) for w, r, u in triples)
    e_ok = sum(s.dist(w, r) < s.dist(w, u) for w, r, u in triples)
    print(f"triples: {len(triples)} of {len(TRIPLES)} in the vocabulary")
    print(f"  related word closer: cosine {c_ok}/{len(triples)}, Euclidean {e_ok}/{len(triples)}")
    wrong = [f"{w}: {r} vs {u}" for w, r, u in triples if not s.dist(w, r) < s.dist(w, u)]
    if wrong:
        print("  Euclidean misses: " + "; ".join(wrong))
    return 0


if __name__ == "__main__":
    sys.exit(main())
