# SPDX-License-Identifier: Apache-2.0
"""Tables, plots and the markdown report of one evaluation run.

A condition is (mechanism, variant, model, epsilon): a mechanism or a
preset ("preset:NAME"), a variant label telling apart entries of one
mechanism with other options (release shape, output vocabulary, policies),
the model and epsilon. Its numbers are means over the noise seeds, with 95%
intervals from a bootstrap that resamples the unknown texts (each drawn text
brings all its seeds along), so an interval covers both the noise and the
choice of the few test texts.
"""
import json
import os
from collections import defaultdict
from statistics import mean, pstdev

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ATTACKS = [("attack_koppel", "Koppel impostors (char 4-grams)"), ("attack_char_svm", "linear SVM (char 1-4-grams)"),
           ("attack_adaptive_char", "adaptive: char 1-4-gram SVM on released known texts"),
           ("attack_adaptive_word", "adaptive: word 1-2-gram SVM on released known texts"),
           ("attack_structure", "structure-aware: words + ordering buckets / mapping sets")]
UTILITIES = [("utility_nb", "tf-idf + naive Bayes"), ("utility_svm", "tf-idf + linear SVM"),
             ("utility_fasttext", "fastText")]
# The utility the target is stated in: the word SVM is the strongest and
# steadiest classifier on the unmodified text.
TARGET_UTILITY = "utility_svm"
COLOURS = ["tab:red", "tab:purple", "tab:brown", "tab:pink", "tab:olive", "tab:blue", "tab:green", "tab:orange"]
BOOTSTRAP = 2000


def flatten_calibration(stats):
    r = stats["result"]
    return {"words": r["words"], "trials": r["trials"], "nw_mean": r["keep"]["mean"], "nw_median": r["keep"]["median"],
            "nw_max": r["keep"]["max"], "sw_mean": r["distinct"]["mean"], "sw_median": r["distinct"]["median"],
            "sw_max": r["distinct"]["max"]}


def key_of(r):
    eps = r["epsilon"]
    return (r["mechanism"], r.get("variant", "") or "", r["model"] or "", None if eps in ("", None) else float(eps))


def label_of(key):
    mech, variant, model, eps = key
    name = mech + (f" [{variant}]" if variant else "")
    return name + (f" ({model})" if model else "") + ("" if eps is None else f" ε={eps:g}")


def read_hits(path):
    """{condition: {metric: array (seeds x texts) of 0/1}} from hits.jsonl."""
    out = defaultdict(lambda: defaultdict(list))
    if not os.path.isfile(path):
        return {}
    for line in open(path, encoding="utf-8"):
        h = json.loads(line)
        key = key_of(h)
        for k, _ in ATTACKS + UTILITIES:
            out[key][k].append(h[k])
    return {key: {k: np.array(v, dtype=float) for k, v in m.items()} for key, m in out.items()}


def summarise(rows, hits=None, seed=0):
    """{condition: {metric: (mean, low, high, n_seeds)}}; low/high are the 95%
    bootstrap interval when per-text hits are known, else mean -/+ the
    standard deviation over seeds. 'attack_max' is the strongest attacker."""
    groups = defaultdict(list)
    for r in rows:
        groups[key_of(r)].append(r)
    rng = np.random.default_rng(seed)
    out = {}
    for key, rs in groups.items():
        s = {}
        for k in [k for k, _ in ATTACKS + UTILITIES] + ["words_changed", "content_kept"]:
            values = [float(r[k]) for r in rs if r.get(k, "") != ""]
            if not values:
                continue
            m, sd = mean(values), pstdev(values)
            s[k] = (m, m - sd, m + sd, len(values))
        h = (hits or {}).get(key)
        if h:
            n_texts = h[ATTACKS[0][0]].shape[1]
            idx = rng.integers(0, n_texts, size=(BOOTSTRAP, n_texts))
            boot = {k: h[k][:, idx].mean(axis=(0, 2)) for k, _ in ATTACKS + UTILITIES}
            for k, _ in ATTACKS + UTILITIES:
                lo, hi = np.percentile(boot[k], [2.5, 97.5])
                s[k] = (float(h[k].mean()), float(lo), float(hi), h[k].shape[0])
            amax = np.max([boot[k] for k, _ in ATTACKS], axis=0)
            lo, hi = np.percentile(amax, [2.5, 97.5])
            s["attack_max"] = (max(s[k][0] for k, _ in ATTACKS), float(lo), float(hi), h[ATTACKS[0][0]].shape[0])
        else:
            a = max(s[k][0] for k, _ in ATTACKS)
            s["attack_max"] = (a, a, a, len(rs))
        out[key] = s
    return out


def utility_of(s):
    return mean(s[k][0] for k, _ in UTILITIES)


def attack_of(s):
    return max(s[k][0] for k, _ in ATTACKS)


def original_of(summary):
    return summary[("original", "", "", None)]


def relative_attack(s, base):
    """The largest share of its unmodified accuracy that any attacker keeps."""
    return max(s[k][0] / base[k][0] for k, _ in ATTACKS if base[k][0] > 0)


def meets_target(s, base):
    """The target of docs/evaluation.md: utility >= 90% of the unmodified
    text's, every attacker at most a third of its unmodified accuracy, and
    content words released as themselves at most half the time."""
    return (s[TARGET_UTILITY][0] >= 0.9 * base[TARGET_UTILITY][0] and relative_attack(s, base) <= 1 / 3
            and s.get("content_kept", (1,))[0] <= 0.5)


def groups_in(summary):
    """The (mechanism, variant, model) groups of the grid, in order."""
    seen = []
    for mech, variant, model, _ in sorted(k for k in summary if k[0] not in ("original", "vectorised")):
        if (mech, variant, model) not in seen:
            seen.append((mech, variant, model))
    return seen


def conclusion(summary, chance):
    """For each group: the epsilons whose utility is within 10% of the
    unmodified text's, and among them the one where the strongest attacker
    does worst."""
    base = original_of(summary)
    u0, a0 = base[TARGET_UTILITY][0], attack_of(base)
    lines = []
    if u0 - chance["utility"] < 0.05:
        lines.append(f"- Caution: on the unmodified text the utility classifier reaches {u0:.3f}, barely above "
                     f"the majority-class rate {chance['utility']:.3f}, so 'within 10%' says little here.")
    for mech, variant, model in groups_in(summary):
        keys = sorted((k for k in summary if k[:3] == (mech, variant, model)), key=lambda k: k[3] or 0)
        name = f"**{mech}**" + (f" [{variant}]" if variant else "") + f" ({model})"
        ok = [k for k in keys if summary[k][TARGET_UTILITY][0] >= 0.9 * u0]
        if not ok:
            best = max(keys, key=lambda k: summary[k][TARGET_UTILITY][0])
            s = summary[best]
            lines.append(f"- {name}: no ε of the grid keeps utility within 10% of the unmodified text "
                         f"({u0:.3f}); the best is {label_of(best)} with {s[TARGET_UTILITY][0]:.3f}, where the "
                         f"strongest attack is at {attack_of(s):.3f} (unmodified {a0:.3f}, chance "
                         f"{chance['attack']:.3f}).")
            continue
        best = min(ok, key=lambda k: attack_of(summary[k]))
        s = summary[best]
        eps = ", ".join("preset" if k[3] is None else f"{k[3]:g}" for k in ok)
        kept = s.get("content_kept", (float("nan"),))[0]
        lines.append(f"- {name}: utility stays within 10% for ε ∈ {{{eps}}}; the attack falls most at "
                     f"{label_of(best)}: strongest attack {attack_of(s):.3f} (unmodified {a0:.3f}, chance "
                     f"{chance['attack']:.3f}), utility {s[TARGET_UTILITY][0]:.3f} (unmodified {u0:.3f}), "
                     f"content words kept {kept:.2f}" + (" — **meets the target**" if meets_target(s, base) else
                                                          "") + ".")
    return lines


STRONGEST_RATIO = 0.55


def meets_reference_target(r):
    """The target of issue 25 (stated on the second corpus): content words
    released as themselves at most half the time, at least 60% of the
    replacements common words, topic accuracy at least 92% of the unmodified
    text's, and the strongest of the attackers at most 0.55x its accuracy on
    the same words released without noise."""
    return (r["content_kept"] <= 0.5 and r["common_share"] >= 0.6 and r["topic_share"] >= 0.92
            and r["strongest_ratio"] <= STRONGEST_RATIO)


def reference_summary(rows):
    """Means over seeds of the no-noise-referenced columns, per condition."""
    cols = ["content_kept", "common_share", "topic_share", "attack_koppel", "attack_char_svm", "attack_adaptive_char",
            "attack_adaptive_word", "attack_structure", "attack_strongest", "nonoise_strongest", "strongest_ratio"]
    groups = defaultdict(list)
    for r in rows:
        if r["mechanism"] in ("original", "vectorised"):
            continue
        groups[key_of(r)].append(r)
    out = {}
    for key, rs in groups.items():
        s = {}
        for c in cols:
            vals = [float(r[c]) for r in rs if r.get(c, "") not in ("", None)]
            s[c] = mean(vals) if vals else float("nan")
        s["seeds"] = len(rs)
        out[key] = s
    return out


def target_section(rows, sizes):
    """Every condition against its no-noise reference (issue 25's target)."""
    summ = reference_summary(rows)
    if not summ:
        return []
    lines = ["## Against the no-noise reference", "",
             "Each condition's strongest attacker (the best of the static Koppel and character-SVM attackers, "
             "trained on the unmodified known texts; the adaptive character and word SVMs, trained on the known "
             "texts released by the same condition under other seeds; and the structure-aware SVM, which also "
             "sees every word's bucket in each public ordering, or its CusText mapping set) against the strongest "
             "attacker on the same words released without noise (same mechanism, release shape, output vocabulary "
             f"and token policies at ε = 10⁴; a peer keeping its words). Topic floor (an oracle that knows the "
             f"label and answers its commonest author): {sizes.get('topic_floor', float('nan')):.3f}. "
             "'common' is the share of replacements among the model's 5 000 most frequent words. Target: content "
             f"kept ≤ 0.5, common ≥ 0.6, topic ≥ 0.92 of the unmodified text's, strongest ≤ {STRONGEST_RATIO}× "
             "its no-noise accuracy.", "",
             "| condition | seeds | content kept | common | topic share | Koppel | char SVM | adaptive char | "
             "adaptive word | structure | strongest | no-noise strongest | ratio | target |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]

    def order(k):
        return (k[2], k[0], k[1], k[3] if k[3] is not None else 0)

    for key in sorted(summ, key=order):
        s = summ[key]
        ok = all(s[c] == s[c] for c in ("content_kept", "common_share", "topic_share", "strongest_ratio"))
        cells = [label_of(key), str(s["seeds"])] + [f"{s[c]:.3f}" for c in (
            "content_kept", "common_share", "topic_share", "attack_koppel", "attack_char_svm", "attack_adaptive_char",
            "attack_adaptive_word", "attack_structure", "attack_strongest", "nonoise_strongest", "strongest_ratio")]
        cells.append("**meets**" if ok and meets_reference_target(s) else "–")
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""]


TOPIC_COLUMNS = [("topic_words", "words (word SVM)"), ("topic_structure_static", "structure, static"),
                 ("topic_structure_adaptive", "structure, adaptive"), ("topic_structure", "structure (better)"),
                 ("topic_best", "best"), ("topic_best_share", "best / unmodified best")]


def topic_section(rows):
    """The topic analysts per condition (means over seeds): the word SVM and
    the analyst that also reads each released word's place in the public
    structure, trained on the unmodified known texts (static) or on the
    known texts released by the same condition (adaptive)."""
    if not rows or "topic_best" not in rows[0]:
        return []
    lines = ["## Topic with the public structure", "",
             "The analyst may map every released word to the public structure, as the structure-aware attacker "
             "does (its bucket ⌊place/B⌋ along each public ordering, or its CusText mapping set): that needs only "
             "the release and the model. 'structure' is a linear SVM on tf-idf of the released words and these "
             "tokens, trained on the unmodified known texts (static) or on the known texts released by the same "
             "condition (adaptive); 'best' is the better of words and structure.", ""]
    return lines + means_table(rows, TOPIC_COLUMNS)


def means_table(rows, columns, formats=None):
    """A table of each condition's means over seeds of `columns` ((column,
    title) pairs), originals first; `formats` maps a column to its format
    (default .3f)."""
    groups = defaultdict(list)
    for r in rows:
        groups[key_of(r)].append(r)

    def order(k):
        m, v, mo, e = k
        return (0 if m == "original" else 1 if m == "vectorised" else 2, mo, m, v, e if e is not None else 0)

    lines = ["| condition | seeds | " + " | ".join(t for _, t in columns) + " |",
             "|---|---|" + "---|" * len(columns)]
    for key in sorted(groups, key=order):
        rs = groups[key]
        cells = [label_of(key), str(len(rs))]
        for c, _ in columns:
            vals = [float(r[c]) for r in rs if r.get(c, "") not in ("", None)]
            cells.append(format(mean(vals), (formats or {}).get(c, ".3f")) if vals else "–")
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""]


FLUENCY_COLUMNS = [("fluency_ratio", "fluency ratio"), ("fluency_ratio_known", "ratio, known words"),
                   ("fluency_ppl", "perplexity"), ("fluency_oov", "unknown to the LM"),
                   ("attack_strongest", "strongest attack"), ("strongest_ratio", "its ratio to no noise"),
                   ("topic_share", "topic share")]


def fluency_section(rows):
    """Fluency under the public trigram language model (dxeval/fluency.py)
    per condition, means over seeds, next to the attack and the topic."""
    if not rows or not any(r.get("fluency_ratio", "") not in ("", None) for r in rows):
        return []
    lines = ["## Fluency", "",
             "Per-word perplexity of the released texts under a public trigram language model (CMU Sphinx's US "
             "English model, Katz backoff; eval/dxeval/fluency.py), over that of the unmodified texts, mean over "
             "texts (> 1: less fluent). Unknown words cost the model's least likely unigram; 'known words' leaves "
             "them out (SRILM's convention). Perplexity: all released texts together.", ""]
    return lines + means_table(rows, FLUENCY_COLUMNS, {"fluency_ppl": ".1f"})


def plot_accuracy(path, summary, chance, title):
    groups = groups_in(summary)
    fig, axes = plt.subplots(len(groups), 2, figsize=(10, 2.7 * len(groups)), squeeze=False, sharey=True)
    base = original_of(summary)
    for row, group in enumerate(groups):
        keys = sorted((k for k in summary if k[:3] == group), key=lambda k: k[3] or 0)
        eps = [k[3] if k[3] is not None else 0 for k in keys]
        for col, (metrics, what) in enumerate([(ATTACKS, "attack (author)"), (UTILITIES, "utility (label)")]):
            ax = axes[row][col]
            for i, (k, label) in enumerate(metrics):
                c = COLOURS[i + (0 if col == 0 else len(ATTACKS))]
                ys = [summary[x][k][0] for x in keys]
                err = [[y - summary[x][k][1] for x, y in zip(keys, ys)], [summary[x][k][2] - y for x, y in zip(keys, ys)]]
                ax.errorbar(eps, ys, yerr=err, marker="o", ms=3, color=c, label=label, capsize=2)
                ax.axhline(base[k][0], color=c, ls="--", lw=0.8)
            ax.axhline(chance["attack" if col == 0 else "utility"], color="black", ls=":", lw=1, label="chance")
            mech, variant, model = group
            ax.set_title(f"{mech}{' [' + variant + ']' if variant else ''} ({model}): {what}", fontsize=9)
            ax.set_ylim(0, 1.02)
            ax.set_xlabel("ε", fontsize=8)
            ax.tick_params(labelsize=7)
            if row == 0:
                ax.legend(fontsize=6, loc="lower right")
    axes[0][0].set_ylabel("accuracy", fontsize=8)
    fig.suptitle(f"{title}: accuracy vs ε, 95% intervals (dashed: unmodified text; dotted: chance)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=72)
    plt.close(fig)


def shape_of(config_entry):
    args = list(config_entry.get("args", []))
    if "--release-shape" in args:
        return args[args.index("--release-shape") + 1]
    return "keep"


def pareto(points):
    """The points no other point beats on both axes (lower x, higher y)."""
    front = []
    for x, y in sorted(points, key=lambda p: (p[0], -p[1])):
        if not front or y > front[-1][1]:
            front.append((x, y))
    return front


def plot_frontier(path, summary, config, title):
    """Strongest attack (share of its unmodified accuracy kept) against
    utility (share of the unmodified text's), one point per condition, the
    frontier of each model drawn through its undominated points, the target
    region shaded."""
    base = original_of(summary)
    shapes = {}
    for m in config["mechanisms"]:
        name = "preset:" + m["preset"] if "preset" in m else m.get("peer") or m["name"]
        shapes[(name, m.get("variant", ""), m["model"])] = "preset" if "preset" in m else shape_of(m)
    markers = {"keep": "o", "normalize": "s", "strict": "^", "preset": "*"}
    present = {k[2] for k in summary if k[0] not in ("original", "vectorised")}
    models = [m for m in config["models"] if m in present]  # the config's first model is drawn filled
    mechs = sorted({k[0] for k in summary if k[0] not in ("original", "vectorised")})
    cmap = plt.get_cmap("tab10")
    colour = {m: cmap(i % 10) for i, m in enumerate(mechs)}
    fig, ax = plt.subplots(figsize=(9, 6.5))
    ax.axvspan(0, 1 / 3, ymin=0, ymax=1, color="tab:green", alpha=0.06)
    ax.axhline(0.9, color="tab:green", lw=0.8, ls="--")
    ax.axvline(1 / 3, color="tab:green", lw=0.8, ls="--")
    ax.text(0.01, 0.905, "target: utility ≥ 90%, every attack ≤ 1/3", fontsize=7, color="tab:green")
    u0 = base[TARGET_UTILITY][0]
    for mi, model in enumerate(models):
        pts = []
        for key, s in summary.items():
            mech, variant, mo, eps = key
            if mo != model or mech in ("original", "vectorised"):
                continue
            x, y = relative_attack(s, base), s[TARGET_UTILITY][0] / u0
            pts.append((x, y))
            shape = shapes.get((mech, variant, mo), "keep")
            filled = mi == 0
            ax.errorbar(x, y, yerr=[[y - s[TARGET_UTILITY][1] / u0], [s[TARGET_UTILITY][2] / u0 - y]],
                        fmt=markers[shape], ms=11 if shape == "preset" else 5, capsize=0, lw=0.5,
                        color=colour[mech], mfc=colour[mech] if filled else "white", alpha=0.9)
            if shape == "preset":
                ax.annotate(f"{mech[7:]} ({model})", (x, y), fontsize=7, xytext=(5, 4), textcoords="offset points")
        front = pareto(pts)
        ax.plot([p[0] for p in front], [p[1] for p in front], color="black", lw=1.2 if mi == 0 else 0.8,
                ls="-" if mi == 0 else ":", label=f"frontier: {model}")
    for m in mechs:
        ax.plot([], [], "o", color=colour[m], label=m)
    for sh, mk in markers.items():
        ax.plot([], [], mk, color="grey", label=f"shape: {sh}")
    ax.set_xlabel("strongest attack: largest share of its unmodified accuracy kept by any attacker (lower: more private)")
    ax.set_ylabel(f"utility: {TARGET_UTILITY} as a share of the unmodified text's")
    ax.set_xlim(0, 1.05)
    ax.set_ylim(0.5, 1.08)
    ax.legend(fontsize=7, loc="lower right", ncol=2)
    ax.set_title(f"{title}: attack–utility frontier (filled: {models[0] if models else ''}; hollow: other models)",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_calibration(path, cal_rows):
    fig, axes = plt.subplots(1, 2, figsize=(10, 3))
    by = defaultdict(list)
    for r in cal_rows:
        by[(r["mechanism"], r["model"])].append(r)
    for (mech, model), rs in by.items():
        rs.sort(key=lambda r: float(r["epsilon"]))
        eps = [float(r["epsilon"]) for r in rs]
        line, = axes[0].plot(eps, [r["nw_median"] for r in rs], marker="o", ms=3, label=f"{mech} ({model})")
        axes[0].plot(eps, [r["nw_mean"] for r in rs], ls="--", color=line.get_color(), lw=0.8)
        axes[1].plot(eps, [r["sw_mean"] for r in rs], marker="o", ms=3, color=line.get_color())
    trials = cal_rows[0]["trials"] if cal_rows else 0
    axes[0].set_title("N_w: share of outputs equal to the word (median solid, mean dashed)", fontsize=9)
    axes[1].set_title(f"S_w: distinct outputs in {trials} trials (mean)", fontsize=9)
    for ax in axes:
        ax.set_xscale("log")  # the mechanisms' useful epsilons span from about 1 to about 1000
        ax.set_xlabel("ε (log scale)", fontsize=8)
        ax.tick_params(labelsize=7)
    axes[0].legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=72)
    plt.close(fig)


def table(summary):
    metrics = [k for k, _ in ATTACKS + UTILITIES]
    head = ["mechanism", "variant", "model", "ε", "seeds", "words changed", "content kept"] + metrics
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def order(key):
        m, v, mo, e = key
        return (0 if m == "original" else 1 if m == "vectorised" else 2, mo, m, v, e if e is not None else 0)

    for key in sorted(summary, key=order):
        s = summary[key]
        mech, variant, model, eps = key
        kept = s.get("content_kept")
        cells = [mech, variant or "–", model or "–", "preset" if eps is None and mech.startswith("preset:") else
                 "–" if eps is None else f"{eps:g}", str(s["attack_koppel"][3]), f"{s['words_changed'][0]:.2f}",
                 "–" if kept is None else f"{kept[0]:.2f}"]
        cells += [f"{s[k][0]:.2f} [{s[k][1]:.2f}, {s[k][2]:.2f}]" if s[k][2] > s[k][1] else f"{s[k][0]:.3f}"
                  for k in metrics]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def write(out, name, rows, cal_rows, sizes, config):
    for r in rows:
        r["epsilon"] = None if r["epsilon"] in ("", None) else float(r["epsilon"])
    summary = summarise(rows, read_hits(os.path.join(out, "hits.jsonl")), sizes.get("seed", 0))
    chance = {"attack": sizes["chance_attack"], "utility": sizes["chance_utility"]}
    acc_png = f"{name}-accuracy.png"
    plot_accuracy(os.path.join(out, acc_png), summary, chance, name)
    frontier_png = f"{name}-frontier.png"
    plot_frontier(os.path.join(out, frontier_png), summary, config, name)
    cal_png = f"{name}-calibration.png"
    if cal_rows:
        plot_calibration(os.path.join(out, cal_png), cal_rows)
    lines = [f"# dxtext evaluation: {name}", "",
             f"{sizes['authors']} authors; labels {', '.join(sizes['labels'])}. Known (training) texts: "
             f"{sizes['known_texts']} ({sizes['known_words']} words); unknown (privatised, attacked) texts: "
             f"{sizes['unknown_texts']} ({sizes['unknown_words']} words). Split: "
             + (f"whole '{sizes['group_field']}' groups held out per author" if sizes["group_field"]
                else "random per author") + f", seed {sizes['seed']}. Chance: attack {chance['attack']:.3f}, "
             f"utility {chance['utility']:.3f} (majority class of the unknown texts). Run time {sizes['seconds']} s.",
             "", "Attackers and classifiers are trained on the unmodified known texts and applied to the "
             "privatised unknown texts. Numbers are means over noise seeds with 95% intervals from a bootstrap "
             "over the unknown texts. 'content kept' is the share of content-word tokens (vocabulary words, "
             "not stopwords or numbers) released as themselves.", "",
             f"![attack-utility frontier]({frontier_png})", "", f"![accuracy vs epsilon]({acc_png})", ""]
    if cal_rows:
        lines += [f"![N_w and S_w vs epsilon]({cal_png})", ""]
    lines += target_section(rows, sizes)
    lines += topic_section(rows)
    lines += fluency_section(rows)
    lines += ["## Where utility stays within 10% and the attack falls most", ""]
    lines += conclusion(summary, chance)
    lines += ["", "## All numbers", ""] + table(summary) + [""]
    if cal_rows:
        lines += ["## Calibration (dxtext calibrate)", "", "| mechanism | model | ε | N_w median | N_w mean | N_w max | "
                  "S_w mean |", "|---|---|---|---|---|---|---|"]
        for r in cal_rows:
            lines.append(f"| {r['mechanism']} | {r['model']} | {float(r['epsilon']):g} | {r['nw_median']:.3f} | "
                         f"{r['nw_mean']:.3f} | {r['nw_max']:.3f} | {r['sw_mean']:.1f} |")
        lines.append("")
    with open(os.path.join(out, "report.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
