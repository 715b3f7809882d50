#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Measures dxtext against an authorship attacker and a utility classifier.

Input: a JSONL corpus whose records have `text`, `author` and `label`
(string fields; anything else is ignored unless named by --group-field).
Per author, known texts train the attackers and the utility classifiers;
the unknown texts are privatised by every mechanism x epsilon x seed of the
config and then attributed (attack accuracy) and classified (utility
accuracy). The unmodified texts and the vectorised-only texts (vocabulary
words kept, unknown words replaced, no noise) are the baselines.

Output directory: results.csv (every number, with the fluency of the
released texts under a public trigram language model when Debian's
pocketsphinx-en-us is installed: dxeval/fluency.py), calibration.csv (N_w,
S_w), PNG plots and report.md.

  python3 eval/run_eval.py --corpus C.jsonl --config eval/configs/sotu.json \
      --group-field doc --out out/ [--dxtext build/bin/dxtext]
"""
import argparse
import csv
import json
import os
import sys
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

from dxeval import attackers, corpus, fluency, model_vectors, peers, privatizer, report, utility  # noqa: E402

# The static attackers (trained on the unmodified known texts), the
# adaptive ones (trained on the known texts released by the same condition
# with other noise seeds) and the structure-aware one (adaptive, with every
# word also mapped to its neighbourhood in the public structure).
STATIC = ["attack_koppel", "attack_char_svm"]
ADAPTIVE = ["attack_adaptive_char", "attack_adaptive_word", "attack_structure"]
ATTACKERS = STATIC + ADAPTIVE
UTILITY = ["utility_nb", "utility_svm", "utility_fasttext"]
METRICS = ATTACKERS + UTILITY
# The no-noise reference of a condition: the same release at an epsilon so
# large that every word is released as itself (same mechanism, release
# shape, output vocabulary and token policies; a peer keeps its words).
NO_NOISE_EPSILON = 1e4
# The topic analysts: the word SVM (topic_words, the same as utility_svm)
# and the analyst that also reads every released word's place in the public
# structure (utility.StructureTopic), trained on the unmodified known texts
# (static) and on the known texts released by the same condition (adaptive);
# topic_structure is the better of the two, topic_best the better of words
# and structure, topic_best_share its share of the unmodified text's.
TOPIC_STRUCTURE = ["topic_structure_static", "topic_structure_adaptive"]
TOPIC = ["topic_words"] + TOPIC_STRUCTURE + ["topic_structure", "topic_best", "topic_best_share"]
# Fluency under a public trigram language model (dxeval/fluency.py): the
# released texts' per-word perplexity over the unmodified texts', macro mean
# over texts (unknown words at a fixed penalty; and over known words only),
# the pooled perplexity and the share of words the model does not know.
FLUENCY = ["fluency_ratio", "fluency_ratio_known", "fluency_ppl", "fluency_oov"]
EXTRA = (["attack_strongest"] + ["nonoise_" + k[len("attack_"):] for k in ATTACKERS]
         + ["nonoise_strongest", "strongest_ratio", "common_share", "topic_share", "topic_floor"] + TOPIC)


def accuracy(pred, gold):
    return sum(p == g for p, g in zip(pred, gold)) / len(gold)


def words_changed(before, after):
    """Share of word positions whose lowercased word differs (texts with a
    different word count count every position as changed)."""
    changed = total = 0
    for b, a in zip(before, after):
        bw, aw = b.lower().split(), a.lower().split()
        total += len(bw)
        changed += sum(x != y for x, y in zip(bw, aw)) if len(bw) == len(aw) else len(bw)
    return changed / total if total else 0.0


def condition_name(entry):
    """A config entry's name in results: the mechanism, preset:NAME, or the
    peer's name (a mechanism written in eval/dxeval/peers.py)."""
    if "preset" in entry:
        return "preset:" + entry["preset"]
    if "peer" in entry:
        return entry["peer"]
    return entry["name"]


def resolve(path):
    return path if os.path.isabs(path) else os.path.join(REPO, path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--config", required=True, help="JSON: models, mechanisms x epsilons, seeds (eval/configs/)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--name", help="corpus name in the report (default: the file name)")
    ap.add_argument("--group-field", help="hold out whole groups (e.g. doc) per author")
    ap.add_argument("--test-groups", type=int, default=1, help="groups held out per author (default 1)")
    ap.add_argument("--test-fraction", type=float, default=0.2, help="without --group-field (default 0.2)")
    ap.add_argument("--test-per-author", type=int, default=0, help="subsample unknown texts (0 = all)")
    ap.add_argument("--train-per-author", type=int, default=0, help="subsample known texts (0 = all)")
    ap.add_argument("--seed", type=int, default=0, help="split, subsample and noise seeds derive from it")
    ap.add_argument("--dxtext", help="the dxtext binary (default build/bin/dxtext or $DXTEXT_BIN)")
    ap.add_argument("--fasttext", default="fasttext")
    ap.add_argument("--model", action="append", default=[], metavar="NAME=PATH",
                    help="use PATH for the config's model NAME (repeatable)")
    ap.add_argument("--fluency-lm", metavar="PATH", default=os.environ.get("DXT_FLUENCY_LM", fluency.SPHINX_LM),
                    help="the language model of the fluency columns: a sphinx .lm.bin or ARPA text (default "
                    "$DXT_FLUENCY_LM, else Debian's pocketsphinx-en-us model; 'none': no fluency columns)")
    ap.add_argument("--part", metavar="K/N", help="run only the config's entries i with i %% N == K (join the N "
                    "parts with merge_runs.py)")
    args = ap.parse_args(argv)

    config = json.load(open(args.config, encoding="utf-8"))
    if args.part:
        k, n = (int(x) for x in args.part.split("/"))
        config["mechanisms"] = [m for i, m in enumerate(config["mechanisms"]) if i % n == k]
    dxtext = args.dxtext or privatizer.default_dxtext(REPO)
    name = args.name or os.path.splitext(os.path.basename(args.corpus))[0]
    os.makedirs(args.out, exist_ok=True)
    models = {k: resolve(v) for k, v in config["models"].items()}
    for override in args.model:
        k, sep, path = override.partition("=")
        if not sep or k not in models:
            sys.exit(f"run_eval.py: --model {override}: expected NAME=PATH with NAME in {sorted(models)}")
        models[k] = os.path.abspath(path)
    for k, path in models.items():
        if not os.path.isfile(path):
            sys.exit(f"run_eval.py: model {k}: no file {path}")

    records = corpus.read_jsonl(args.corpus)
    known, unknown = corpus.split(records, args.group_field, args.test_groups, args.test_fraction, args.seed)
    known = corpus.subsample(known, args.train_per_author, args.seed)
    unknown = corpus.subsample(unknown, args.test_per_author, args.seed + 1)
    k_text = [r["text"] for r in known]
    u_text = [r["text"] for r in unknown]
    u_author = [r["author"] for r in unknown]
    u_label = [r["label"] for r in unknown]
    authors = sorted({r["author"] for r in known})
    if set(u_author) - set(authors):
        sys.exit("run_eval.py: an unknown text's author has no known texts")
    chance = {
        "attack": max(Counter(u_author).values()) / len(u_author),
        "utility": max(Counter(u_label).values()) / len(u_label),
    }
    sizes = {
        "corpus": name, "authors": len(authors), "labels": sorted(set(u_label)), "known_texts": len(known),
        "unknown_texts": len(unknown), "unknown_words": sum(len(t.split()) for t in u_text),
        "known_words": sum(len(t.split()) for t in k_text), "chance_attack": chance["attack"],
        "chance_utility": chance["utility"], "group_field": args.group_field, "seed": args.seed,
    }
    print(f"[{name}] {len(authors)} authors, {len(known)} known / {len(unknown)} unknown texts "
          f"({sizes['unknown_words']} words to privatise per run)", file=sys.stderr)

    lm = None
    if args.fluency_lm != "none":
        if os.path.isfile(args.fluency_lm):
            lm = fluency.load(args.fluency_lm)
        else:
            print(f"[{name}] no language model at {args.fluency_lm} (apt-get install pocketsphinx-en-us): "
                  "fluency columns left empty", file=sys.stderr)

    start = time.monotonic()
    classifiers = [
        (attackers.KoppelImpostors(seed=args.seed), [r["author"] for r in known]),
        (attackers.CharSVM(), [r["author"] for r in known]),
        (utility.NaiveBayes(), [r["label"] for r in known]),
        (utility.WordSVM(), [r["label"] for r in known]),
        (utility.FastText(args.fasttext, seed=args.seed), [r["label"] for r in known]),
    ]
    for clf, y in classifiers:
        clf.fit(k_text, y)
    print(f"[{name}] classifiers trained in {time.monotonic() - start:.1f} s", file=sys.stderr)
    k_author = [r["author"] for r in known]
    k_label = [r["label"] for r in known]
    floor = attackers.topic_floor(k_author, [r["label"] for r in known], u_author, u_label)
    sizes["topic_floor"] = floor

    # The public structure of each model, read with numpy: its vectors, its
    # "common words" (the 5 000 most frequent words of its frequencies
    # section) and its orderings (the model's own from `dxtext orderings`,
    # else greedy nearest-neighbour chains computed here and cached).
    structure_cfg = config.get("structure", {})
    bucket = int(structure_cfg.get("bucket", 8))
    common_top = int(structure_cfg.get("common_top", 5000))
    cache_dir = os.environ.get("DXT_EVAL_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "dxtext-eval")
    publics = {}

    def public(model):
        if model not in publics:
            mv = model_vectors.ModelVectors(models[model])
            pos, source = model_vectors.orderings(mv, dxtext, cache_dir, int(structure_cfg.get("orderings", 3)))
            publics[model] = {"vectors": mv, "positions": pos, "orderings": source,
                              "common": mv.common_words(common_top)}
            sizes.setdefault("orderings", {})[model] = f"{pos.shape[0]} orderings, {source}"
            print(f"[{name}] model {model}: {mv.V} words, {pos.shape[0]} orderings ({source})", file=sys.stderr)
        return publics[model]

    def structure_of(model, peer=None):
        """Structure tokens of a released word: its CusText mapping set when
        the condition reveals one, else its bucket in each public ordering."""
        pub = public(model)
        mv, pos = pub["vectors"], pub["positions"]
        if peer is not None and peer.reveals_set:
            def tokens_of(w):
                s = peer.structure_of(w)
                return [] if s is None else [f"set{s}"]
        else:
            def tokens_of(w):
                i = mv.lookup(w)
                return [] if i < 0 else [f"o{j}b{pos[j, i] // bucket}" for j in range(pos.shape[0])]
        return tokens_of

    def adaptive_scores(known_texts, texts, model, peer=None):
        """Accuracy and hits of the adaptive attackers trained on the known
        texts as released (by the same condition, other seeds)."""
        row, hits = {}, {}
        for key, clf in [("attack_adaptive_char", attackers.CharSVM()), ("attack_adaptive_word", attackers.WordSVM()),
                         ("attack_structure", attackers.StructureSVM(structure_of(model, peer)))]:
            clf.fit(known_texts, k_author)
            pred = clf.predict(texts)
            row[key] = accuracy(pred, u_author)
            hits[key] = [int(p == g) for p, g in zip(pred, u_author)]
        return row, hits

    static_topic = {}

    def topic_scores(known_texts, texts, model, peer=None):
        """Accuracy and hits of the structure-aware topic analyst, trained on
        the unmodified known texts and on the known texts as released."""
        structure = structure_of(model, peer)
        # The static analyst depends only on the structure: the model's
        # orderings, or a peer's own mapping sets.
        key = (model, id(peer) if peer is not None and peer.reveals_set else None)
        if key not in static_topic:
            static_topic[key] = utility.StructureTopic(structure).fit(k_text, k_label)
        static = static_topic[key].predict(texts)
        adaptive = static if known_texts is k_text else (
            utility.StructureTopic(structure).fit(known_texts, k_label).predict(texts))
        row, hits = {}, {}
        for key, pred in [("topic_structure_static", static), ("topic_structure_adaptive", adaptive)]:
            row[key] = accuracy(pred, u_label)
            hits[key] = [int(p == g) for p, g in zip(pred, u_label)]
        return row, hits

    def evaluate(texts):
        """Accuracy per classifier, and which texts each got right."""
        row, hits = {}, {}
        for clf, _ in classifiers:
            gold = u_author if clf.name.startswith("attack") else u_label
            pred = clf.predict(texts)
            row[clf.name] = accuracy(pred, gold)
            hits[clf.name] = [int(p == g) for p, g in zip(pred, gold)]
        return row, hits

    # The conditions: baselines, then the grid. A config entry is a
    # mechanism (name, model, epsilons, optional args and a variant label
    # telling entries of one mechanism apart) or a preset (preset, model,
    # optional epsilons: without them the preset's own).
    def geometry_mechanism(model):
        """The mechanism the noiseless CLI runs on the model name (the
        vectorised baseline, the content words): the first mechanism of the
        config on it, else the exponential mechanism, which takes any of a
        model's metrics (a config of presets or peers only)."""
        return next((m["name"] for m in config["mechanisms"] if m["model"] == model and "name" in m), "exponential")

    runs = [("original", "", "", None, 0, None)]
    for model in sorted({m["model"] for m in config["mechanisms"]}):
        runs.append(("vectorised", "", model, None, 0, {"name": geometry_mechanism(model), "model": model}))
    for m in config["mechanisms"]:
        label = condition_name(m)
        for eps in m.get("epsilons", [None]):
            for rep in range(int(m.get("seeds", config.get("seeds", 1)))):
                runs.append((label, m.get("variant", ""), m["model"], eps, rep, m))

    # Content words of the unknown texts (vocabulary words, not stopwords or
    # numbers), per model: how often each condition releases them as they are.
    content = {}
    for _, _, model, _, _, m in runs[1:]:
        if model not in content:
            content[model] = privatizer.content_words(dxtext, u_text, models[model], geometry_mechanism(model))

    peer_cache = {}

    def peer_of(m, model, eps):
        key = (m["peer"], model, eps)
        if key not in peer_cache:
            pub = public(model)
            peer_cache[key] = peers.make(m["peer"], pub["vectors"], eps if eps is not None else 1.0,
                                         pub["positions"])
        return peer_cache[key]

    def release(m, model, eps, seed, texts, no_noise=False):
        """The texts released by the condition (config entry m) with the seed;
        no_noise: its no-noise reference. Returns (texts, seconds)."""
        if "peer" in m:
            peer = peer_of(m, model, eps)
            rng = np.random.default_rng(int(seed[:16], 16))
            t0 = time.monotonic()
            return peer.privatize(texts, rng, noise=not no_noise), time.monotonic() - t0
        cli_mech, extra = m.get("name"), list(m.get("args", []))
        if no_noise:
            # The same words without noise: no uniform floor either, so a
            # preset is written out as its options without its floor.
            extra = privatizer.without_flags(extra)
            if "preset" in m:
                cli_mech, flags = privatizer.preset_flags(dxtext, m["preset"])
                extra = flags + extra
        elif "preset" in m:
            extra = ["--preset", m["preset"]] + extra
        return privatizer.privatize(dxtext, texts, models[model], cli_mech, NO_NOISE_EPSILON if no_noise else eps,
                                    seed, extra)

    def single_words(m, model, eps, seed):
        """Each content-word token released alone: (share kept, share of the
        replacements that are common words)."""
        words = content[model]
        if not words:
            return 0.0, 0.0
        if "peer" in m:
            out = peer_of(m, model, eps).release_words(words, np.random.default_rng(int(seed[:16], 16)))
        else:
            extra = list(m.get("args", []))
            if "preset" in m:
                extra = ["--preset", m["preset"]] + extra
            out, _ = privatizer.privatize(dxtext, words, models[model], m.get("name"), eps, seed, extra)
        fold = privatizer._fold
        pairs = [(fold(w), fold(o.strip())) for w, o in zip(words, out)]
        kept = sum(a == b for a, b in pairs) / len(pairs)
        replaced = [b for a, b in pairs if a != b]
        common = public(model)["common"]
        share = sum(b in common for b in replaced) / len(replaced) if replaced else 0.0
        return kept, share

    no_noise_cache = {}

    def no_noise_reference(m, model, mech, variant):
        """Every attacker on the condition's no-noise release (one per
        mechanism, variant and model: the reference does not depend on ε)."""
        key = (mech, variant, model)
        if key not in no_noise_cache:
            seed = privatizer.seed_hex(args.seed, name, mech, variant, model, "no-noise")
            texts, _ = release(m, model, None if "preset" in m else 1.0, seed, u_text, no_noise=True)
            ktexts, _ = release(m, model, None if "preset" in m else 1.0, privatizer.seed_hex(seed, "known"), k_text,
                                no_noise=True)
            acc, _ = evaluate(texts)
            ad, _ = adaptive_scores(ktexts, texts, model, peer_of(m, model, 1.0) if "peer" in m else None)
            ref = {k: acc[k] for k in STATIC}
            ref.update(ad)
            no_noise_cache[key] = ref
        return no_noise_cache[key]

    fields = ["corpus", "mechanism", "variant", "model", "epsilon", "rep", "n_unknown", "words_changed",
              "content_kept", "privatize_seconds", "ms_per_word"] + METRICS + EXTRA + FLUENCY + ["chance_attack",
                                                                                                  "chance_utility"]
    rows = []
    u0 = None
    hits_path = os.path.join(args.out, "hits.jsonl")
    with open(os.path.join(args.out, "results.csv"), "w", newline="") as f, open(hits_path, "w") as hits_file:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for mech, variant, model, eps, rep, m in runs:
            kept, common_share = 1.0, float("nan")
            ref = None
            if mech == "original":
                texts, secs, ktexts = u_text, 0.0, k_text
            elif mech == "vectorised":
                texts, secs = privatizer.privatize(dxtext, u_text, models[model], m["name"], vectorised_only=True)
                ktexts, _ = privatizer.privatize(dxtext, k_text, models[model], m["name"], vectorised_only=True)
            else:
                seed = privatizer.seed_hex(args.seed, name, mech, variant, model, eps, rep)
                texts, secs = release(m, model, eps, seed, u_text)
                # The adaptive attackers' training texts: the known texts
                # released by the same condition under another seed.
                ktexts, _ = release(m, model, eps, privatizer.seed_hex(seed, "known"), k_text)
                kept, common_share = single_words(m, model, eps, privatizer.seed_hex(seed, "content"))
                ref = no_noise_reference(m, model, mech, variant)
            row = {"corpus": name, "mechanism": mech, "variant": variant, "model": model,
                   "epsilon": "" if eps is None else eps, "rep": rep, "n_unknown": len(texts),
                   "words_changed": round(words_changed(u_text, texts), 4), "content_kept": round(kept, 4),
                   "privatize_seconds": round(secs, 2),
                   "ms_per_word": round(1000 * secs / max(1, sizes["unknown_words"]), 3),
                   "chance_attack": round(chance["attack"], 4), "chance_utility": round(chance["utility"], 4)}
            accuracies, hits = evaluate(texts)
            ad, ad_hits = adaptive_scores(ktexts, texts, model or sorted(models)[0],
                                          peer_of(m, model, eps) if m is not None and "peer" in m else None)
            accuracies.update(ad)
            hits.update(ad_hits)
            topic, topic_hits = topic_scores(ktexts, texts, model or sorted(models)[0],
                                             peer_of(m, model, eps) if m is not None and "peer" in m else None)
            accuracies.update(topic)
            hits.update(topic_hits)
            row.update({k: round(v, 4) for k, v in accuracies.items()})
            strongest = max(accuracies[k] for k in ATTACKERS)
            if ref is None:  # the baselines are their own no-noise reference
                ref = {k: accuracies[k] for k in ATTACKERS}
            ref_strongest = max(ref.values())
            t_structure = max(accuracies[k] for k in TOPIC_STRUCTURE)
            t_best = max(accuracies["utility_svm"], t_structure)
            if u0 is None:
                u0, t0 = accuracies["utility_svm"], t_best
            row.update({"attack_strongest": round(strongest, 4),
                        **{"nonoise_" + k[len("attack_"):]: round(ref[k], 4) for k in ATTACKERS},
                        "nonoise_strongest": round(ref_strongest, 4),
                        "strongest_ratio": round(strongest / ref_strongest, 4) if ref_strongest > 0 else "",
                        "common_share": "" if common_share != common_share else round(common_share, 4),
                        "topic_share": round(accuracies["utility_svm"] / u0, 4) if u0 else "",
                        "topic_floor": round(floor, 4), "topic_words": round(accuracies["utility_svm"], 4),
                        "topic_structure": round(t_structure, 4), "topic_best": round(t_best, 4),
                        "topic_best_share": round(t_best / t0, 4) if t0 else ""})
            flu = fluency.summary(lm, texts, u_text) if lm is not None else {}
            row.update({"fluency_" + k: round(v, 4) for k, v in flu.items()})
            row.update({k: "" for k in FLUENCY if k not in row})
            w.writerow(row)
            f.flush()
            hits_file.write(json.dumps({"mechanism": mech, "variant": variant, "model": model,
                                        "epsilon": row["epsilon"], "rep": rep, **hits}) + "\n")
            hits_file.flush()  # merge_runs.py keeps a stopped run's rows up to its last hits line
            rows.append(row)
            print(f"[{name}] {mech:12s} {variant:14s} {model:9s} eps={row['epsilon']!s:6s} rep={rep} "
                  + " ".join(f"{k[7:] if k.startswith('attack_') else k}={row[k]:.3f}" for k in METRICS)
                  + f" topic_structure={t_structure:.3f}"
                  + f" kept={kept:.3f} common={common_share:.2f} ratio={row['strongest_ratio']}"
                  + (f" fluency={flu['ratio']:.2f}" if flu else "") + f" ({secs:.0f} s)",
                  file=sys.stderr)
            if mech not in ("original", "vectorised") and rep == 0:
                tag = "-".join(x for x in (mech.replace(":", "-"), variant, model, f"{eps}") if x)
                with open(os.path.join(args.out, f"sample-{tag}.txt"), "w", encoding="utf-8") as s:
                    s.write(f"original:\n{u_text[0]}\n\n{mech} {variant}, epsilon {eps}:\n{texts[0]}\n")

    cal_rows = []
    cal = config.get("calibration")
    if cal:
        # Per-word statistics: once per mechanism and model, not per variant
        # or preset (calibrate takes no text options).
        for m in config["mechanisms"]:
            if "name" not in m or m.get("variant") or "epsilons" not in m:
                continue
            seed = privatizer.seed_hex(args.seed, "calibration", m["name"], m["model"])
            for eps, stats in privatizer.calibrate(dxtext, models[m["model"]], m["name"], m["epsilons"],
                                                   cal["words"], cal["trials"], seed, m.get("args", [])):
                cal_rows.append({"mechanism": m["name"], "model": m["model"], "epsilon": eps,
                                 **report.flatten_calibration(stats)})
        with open(os.path.join(args.out, "calibration.csv"), "w", newline="") as f:
            if cal_rows:
                w = csv.DictWriter(f, fieldnames=list(cal_rows[0].keys()))
                w.writeheader()
                w.writerows(cal_rows)

    sizes["seconds"] = round(time.monotonic() - start, 1)
    with open(os.path.join(args.out, "sizes.json"), "w") as f:
        json.dump(sizes, f, indent=1)
    report.write(args.out, name, rows, cal_rows, sizes, config)
    print(f"[{name}] done in {sizes['seconds']} s: {args.out}/report.md", file=sys.stderr)


if __name__ == "__main__":
    main()
