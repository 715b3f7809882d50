#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Quality check of a Euclidean dxtext model, the measurements of models/README.md.

    python3 models/eval-euclid.py [--dxtext build/bin/dxtext] MODEL.dxe [--json OUT.json]
    python3 models/eval-euclid.py --vectors EXPORTED.txt

Reads the vectors through `dxtext export` (word2vec text, dequantised) and prints:

  * the geometry: vector norms and nearest-neighbour distances, the scale that the laplace
    mechanism's noise (mean norm D / epsilon) is measured against;
  * synonyms against antonyms, on the held-out sets of models/euclid/ (never used to train the
    default model): the share of (anchor, synonym, antonym) triples in which the synonym is
    nearer the anchor in Euclidean distance, the metric of the mechanisms; and the share of
    WordNet synonyms (same synset, or an adjective's similar-to satellite) among the 10 nearest
    words of each word of a held-out synset;
  * the 10 nearest words (Euclidean) of 30 common words;
  * our small self-made similarity lists: Spearman correlation with our 0-10 ratings, and
    (word, related, unrelated) triples. They catch a broken model and compare two builds;
    they are no benchmark;
  * with --text FILE (one tokenised line per line, as `dxtext tokenize --lowercase` writes),
    the share of word tokens that are out of the vocabulary;
  * with --release-epsilon E (and --sentences, --reference): the laplace mechanism at E on
    every sentence of --sentences, 10 times each with a fixed seed: the share of words released
    as themselves, and the share of the replacement words that occur at least 3 times in the
    tokenised --reference text (are they words people use?).

Needs python3-numpy and WordNet 3.0 (Debian's wordnet-base, /usr/share/wordnet).
"""
import argparse
import json
import os
import re
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'euclid'))
import lexicon  # noqa: E402

PROBES = ["hot", "buy", "happy", "good", "big", "smart", "begin", "house", "doctor", "money", "computer",
          "phone", "email", "linux", "car", "coffee", "movie", "love", "sick", "fast", "yeah", "city",
          "war", "water", "king", "monday", "blue", "run", "president", "jennifer"]

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
        with open(args.vectors, encoding="utf-8") as f:
            lines = f.read().splitlines()
    else:
        out = subprocess.run([args.dxtext, "export", args.model], check=True, stdout=subprocess.PIPE).stdout
        lines = out.decode("utf-8").splitlines()
    words, rows = [], []
    for i, line in enumerate(lines):
        parts = line.split()
        if i == 0 and len(parts) == 2:
            continue  # header
        words.append(parts[0])
        rows.append(np.array(parts[1:], dtype=np.float64))
    return words, np.vstack(rows)


class Space:
    def __init__(self, words, vecs):
        self.words, self.x = words, vecs
        self.index = {w: i for i, w in enumerate(words)}
        self.sq = np.einsum("ij,ij->i", vecs, vecs)
        self.unit = vecs / np.sqrt(self.sq)[:, None]

    def has(self, *ws):
        return all(w in self.index for w in ws)

    def dist(self, a, b):
        return float(np.linalg.norm(self.x[self.index[a]] - self.x[self.index[b]]))

    def cos(self, a, b):
        return float(self.unit[self.index[a]] @ self.unit[self.index[b]])

    def sqdist_rows(self, rows):
        """Squared Euclidean distances from the given rows to every word, own row at infinity."""
        d = self.sq[rows][:, None] + self.sq[None, :] - 2.0 * (self.x[rows] @ self.x.T)
        d[np.arange(len(rows)), rows] = np.inf
        return d

    def nearest(self, word, k):
        d = self.sqdist_rows(np.array([self.index[word]]))[0]
        top = np.argsort(d, kind="stable")[:k]
        return [(self.words[j], float(np.sqrt(max(0.0, d[j])))) for j in top]


def spearman(xs, ys):
    def ranks(v):
        v = np.asarray(v, dtype=np.float64)
        order = np.argsort(v, kind="stable")
        r = np.empty(len(v))
        i = 0
        while i < len(v):
            j = i
            while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
                j += 1
            r[order[i:j + 1]] = (i + j) / 2 + 1
            i = j + 1
        return r
    return float(np.corrcoef(ranks(xs), ranks(ys))[0, 1])


def wordnet_synonym_sets(wordnet):
    synsets = lexicon.read_wordnet(wordnet)
    similar = lexicon.similar_to(synsets)
    syn = {}
    for key, s in synsets.items():
        group = set(s["words"])
        for t in similar.get(key, ()):
            group |= set(synsets[t]["words"])
        for w in s["words"]:
            syn.setdefault(w, set()).update(group - {w})
    return syn


def release_check(args, space):
    """Laplace releases of everyday sentences: how many words stay, and what replaces the others."""
    sentences = [l.strip() for l in open(args.sentences, encoding="utf-8") if l.strip()] * 10
    records = "".join(json.dumps({"text": t}) + "\n" for t in sentences).encode("utf-8")
    seed = "00" * 31 + "07"   # reproducible, and so not private: a measurement, not a release
    released = subprocess.run([args.dxtext, "privatize", "--model", args.model, "--epsilon", str(args.release_epsilon),
                               "--jsonl", "--seed", seed], input=records, check=True, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL).stdout.decode("utf-8")
    def tokens(texts):
        out = subprocess.run([args.dxtext, "tokenize", "--lowercase"], input=("\n".join(texts) + "\n").encode("utf-8"),
                             check=True, stdout=subprocess.PIPE).stdout.decode("utf-8")
        return [line.split() for line in out.split("\n")[:len(texts)]]
    before = tokens(sentences)
    after = tokens([json.loads(l)["text"] for l in released.splitlines()])
    same = total = 0
    replacements = []
    for a, b in zip(before, after):
        if len(a) != len(b):
            continue
        for x, y in zip(a, b):
            total += 1
            same += x == y
            if x != y:
                replacements.append(y)
    result = {"epsilon": args.release_epsilon, "tokens": total, "kept": same / max(1, total),
              "replacements": len(replacements), "distinct_replacements": len(set(replacements))}
    print(f"\nlaplace at epsilon {args.release_epsilon} on {len(sentences)} sentences: {100.0 * result['kept']:.1f}% of "
          f"{total} words released as themselves; {len(replacements)} replacements ({len(set(replacements))} distinct)")
    if args.reference:
        counts = {}
        for line in open(args.reference, encoding="utf-8"):
            for w in line.split():
                counts[w] = counts.get(w, 0) + 1
        used = sum(counts.get(w, 0) >= 3 for w in replacements) / max(1, len(replacements))
        result["replacements_in_use"] = used
        print(f"  {100.0 * used:.1f}% of the replacements occur 3 or more times in {args.reference}")
    return result


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("model", nargs="?", help="a .dxe model (read through dxtext export)")
    p.add_argument("--dxtext", default="build/bin/dxtext", help="the dxtext program (default build/bin/dxtext)")
    p.add_argument("--vectors", help="read an already exported word2vec text file instead of MODEL")
    p.add_argument("--wordnet", default="/usr/share/wordnet", help="WordNet 3.0 dict directory")
    p.add_argument("--heldout", default=os.path.join(HERE, "euclid"), help="directory of the held-out sets")
    p.add_argument("--text", action="append", default=[], help="tokenised text for the out-of-vocabulary rate")
    p.add_argument("--json", help="also write the numbers to this file")
    p.add_argument("--release-epsilon", type=float, help="epsilon of the release check (needs MODEL)")
    p.add_argument("--sentences", default=os.path.join(HERE, "euclid", "heldout-everyday.txt"),
                   help="sentences of the release check (default: models/euclid/heldout-everyday.txt)")
    p.add_argument("--reference", help="tokenised text whose words count as in use (release check)")
    p.add_argument("-k", type=int, default=10, help="neighbours to list (default 10)")
    args = p.parse_args()
    if not args.model and not args.vectors:
        p.error("give MODEL or --vectors")
    words, vecs = load_vectors(args)
    s = Space(words, vecs)
    out = {"vocabulary": len(words), "dimension": vecs.shape[1]}
    print(f"vocabulary {len(words)}, dimension {vecs.shape[1]}")

    norms = np.sqrt(s.sq)
    n = min(10000, len(words))
    nn = np.sqrt(np.maximum(0.0, np.concatenate([s.sqdist_rows(np.arange(i, min(i + 1000, n))).min(axis=1)
                                                 for i in range(0, n, 1000)])))
    out["norm_median"] = float(np.median(norms))
    out["nn_distance_median"] = float(np.median(nn))
    print(f"vector norm: median {np.median(norms):.3f}, 10th-90th percentile {np.percentile(norms, 10):.3f}-"
          f"{np.percentile(norms, 90):.3f}; distance to the nearest other word, median over the {n} first "
          f"words: {np.median(nn):.3f} (the laplace noise has mean norm {vecs.shape[1]}/epsilon)")

    triples = [tuple(l.rstrip("\n").split("\t")) for l in open(os.path.join(args.heldout, "heldout-triples.tsv"),
                                                                 encoding="utf-8")]
    covered = [t for t in triples if s.has(*t)]
    ok = sum(s.dist(a, b) < s.dist(a, c) for a, b, c in covered)
    out["antonym_triples"] = {"covered": len(covered), "of": len(triples), "synonym_nearer": ok / max(1, len(covered))}
    print(f"\nheld-out (anchor, synonym, antonym) triples: {len(covered)} of {len(triples)} in the vocabulary; "
          f"synonym nearer (Euclidean) in {ok} = {100.0 * ok / max(1, len(covered)):.1f}%")

    syn = wordnet_synonym_sets(args.wordnet)
    members = sorted(set(w for l in open(os.path.join(args.heldout, "heldout-synsets.txt"), encoding="utf-8")
                         for w in l.split() if w in s.index))
    precisions = []
    for i in range(0, len(members), 500):
        chunk = members[i:i + 500]
        d = s.sqdist_rows(np.array([s.index[w] for w in chunk]))
        top = np.argpartition(d, 10, axis=1)[:, :10]
        precisions += [len(set(s.words[j] for j in top[k]) & syn.get(w, set())) / 10 for k, w in enumerate(chunk)]
    out["synonym_precision_at_10"] = {"words": len(members), "precision": float(np.mean(precisions))}
    print(f"held-out synsets: {len(members)} words in the vocabulary; share of WordNet synonyms among their 10 "
          f"nearest words: {np.mean(precisions):.3f}")

    print(f"\n{args.k} nearest words (Euclidean distance)")
    out["neighbours"] = {}
    for w in PROBES:
        if not s.has(w):
            print(f"  {w}: not in the vocabulary")
            continue
        near = s.nearest(w, args.k)
        out["neighbours"][w] = [x for x, _ in near]
        print(f"  {w}: " + ", ".join(f"{x} {d:.2f}" for x, d in near))

    pairs = [(a, b, r) for a, b, r in PAIRS if s.has(a, b)]
    rho_cos = spearman([r for _, _, r in pairs], [s.cos(a, b) for a, b, _ in pairs])
    rho_euc = spearman([r for _, _, r in pairs], [-s.dist(a, b) for a, b, _ in pairs])
    trip = [t for t in TRIPLES if s.has(*t)]
    e_ok = sum(s.dist(w, r) < s.dist(w, u) for w, r, u in trip)
    out["similarity"] = {"pairs": len(pairs), "spearman_cosine": rho_cos, "spearman_euclidean": rho_euc,
                         "triples": len(trip), "triples_related_nearer": e_ok}
    print(f"\nour {len(pairs)} rated pairs: Spearman cosine {rho_cos:.3f}, Euclidean {rho_euc:.3f}; "
          f"our {len(trip)} relatedness triples: related word nearer (Euclidean) in {e_ok}")

    for path in args.text:
        toks = [t for line in open(path, encoding="utf-8") for t in line.split() if re.search(r"[^\W\d_]", t)]
        oov = sum(t not in s.index for t in toks)
        out.setdefault("oov", {})[os.path.basename(path)] = {"tokens": len(toks), "oov": oov / max(1, len(toks))}
        print(f"{path}: {len(toks)} word tokens, {100.0 * oov / max(1, len(toks)):.2f}% out of the vocabulary")
    if args.release_epsilon:
        out["release"] = release_check(args, s)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
