# SPDX-License-Identifier: Apache-2.0
"""Tables, plots and the markdown report of one evaluation run."""
import os
from collections import defaultdict
from statistics import mean, pstdev

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ATTACKS = [("attack_koppel", "Koppel impostors (char 4-grams)"), ("attack_char_svm", "linear SVM (char 1-4-grams)")]
UTILITIES = [("utility_nb", "tf-idf + naive Bayes"), ("utility_svm", "tf-idf + linear SVM"),
             ("utility_fasttext", "fastText")]
COLOURS = ["tab:red", "tab:purple", "tab:blue", "tab:green", "tab:orange"]


def flatten_calibration(stats):
    r = stats["result"]
    return {"words": r["words"], "trials": r["trials"], "nw_mean": r["keep"]["mean"], "nw_median": r["keep"]["median"],
            "nw_max": r["keep"]["max"], "sw_mean": r["distinct"]["mean"], "sw_median": r["distinct"]["median"],
            "sw_max": r["distinct"]["max"]}


def summarise(rows):
    """{(mechanism, model, epsilon): {metric: (mean, std, n)}} over the repetitions."""
    groups = defaultdict(list)
    for r in rows:
        groups[(r["mechanism"], r["model"], r["epsilon"])].append(r)
    out = {}
    for key, rs in groups.items():
        out[key] = {}
        for k, _ in ATTACKS + UTILITIES + [("words_changed", "")]:
            values = [float(r[k]) for r in rs]
            out[key][k] = (mean(values), pstdev(values), len(values))
    return out


def utility_of(s):
    return mean(s[k][0] for k, _ in UTILITIES)


def attack_of(s):
    return max(s[k][0] for k, _ in ATTACKS)


def mechanisms_in(config):
    seen = []
    for m in config["mechanisms"]:
        if (m["name"], m["model"]) not in seen:
            seen.append((m["name"], m["model"]))
    return seen


def conclusion(summary, config, chance):
    """For each mechanism: the epsilons whose mean utility accuracy is within
    10% of the unmodified text's, and among them the one where the strongest
    attacker does worst."""
    base = summary[("original", "", None)]
    u0, a0 = utility_of(base), attack_of(base)
    lines = []
    if u0 - chance["utility"] < 0.05:
        lines.append(f"- Caution: on the unmodified text the utility classifiers reach {u0:.3f}, barely above "
                     f"the majority-class rate {chance['utility']:.3f}, so 'within 10%' says little here.")
    for mech, model in mechanisms_in(config):
        eps = sorted(e for (m, mo, e) in summary if m == mech and mo == model)
        ok = [e for e in eps if utility_of(summary[(mech, model, e)]) >= 0.9 * u0]
        if not ok:
            best_u = max(eps, key=lambda e: utility_of(summary[(mech, model, e)]))
            lines.append(f"- **{mech}** ({model}): no ε of the grid keeps utility within 10% of the unmodified "
                         f"text ({u0:.3f}); the best is ε = {best_u:g} with "
                         f"{utility_of(summary[(mech, model, best_u)]):.3f}, where the strongest attack is at "
                         f"{attack_of(summary[(mech, model, best_u)]):.3f} (unmodified {a0:.3f}, chance "
                         f"{chance['attack']:.3f}).")
            continue
        best = min(ok, key=lambda e: attack_of(summary[(mech, model, e)]))
        s = summary[(mech, model, best)]
        lines.append(f"- **{mech}** ({model}): utility stays within 10% for ε ∈ {{{', '.join(f'{e:g}' for e in ok)}}}; "
                     f"the attack falls most at ε = {best:g}: strongest attack {attack_of(s):.3f} "
                     f"(unmodified {a0:.3f}, chance {chance['attack']:.3f}), utility {utility_of(s):.3f} "
                     f"(unmodified {u0:.3f}).")
    return lines


def plot_accuracy(path, summary, config, chance, title):
    mechs = mechanisms_in(config)
    fig, axes = plt.subplots(len(mechs), 2, figsize=(10, 2.7 * len(mechs)), squeeze=False, sharey=True)
    base = summary[("original", "", None)]
    for row, (mech, model) in enumerate(mechs):
        eps = sorted(e for (m, mo, e) in summary if m == mech and mo == model)
        for col, (metrics, what) in enumerate([(ATTACKS, "attack (author)"), (UTILITIES, "utility (label)")]):
            ax = axes[row][col]
            for i, (k, label) in enumerate(metrics):
                c = COLOURS[i + (0 if col == 0 else 2)]
                ys = [summary[(mech, model, e)][k][0] for e in eps]
                sd = [summary[(mech, model, e)][k][1] for e in eps]
                ax.errorbar(eps, ys, yerr=sd, marker="o", ms=3, color=c, label=label, capsize=2)
                ax.axhline(base[k][0], color=c, ls="--", lw=0.8)
            ax.axhline(chance["attack" if col == 0 else "utility"], color="black", ls=":", lw=1, label="chance")
            ax.set_title(f"{mech} ({model}): {what}", fontsize=9)
            ax.set_ylim(0, 1.02)
            ax.set_xlabel("ε", fontsize=8)
            ax.tick_params(labelsize=7)
            if row == 0:
                ax.legend(fontsize=6, loc="lower right")
    axes[0][0].set_ylabel("accuracy", fontsize=8)
    fig.suptitle(f"{title}: accuracy vs ε (dashed: unmodified text; dotted: chance)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=72)
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
    head = ["mechanism", "model", "ε", "runs", "words changed"] + [k for k, _ in ATTACKS + UTILITIES]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def order(key):
        m, mo, e = key
        return (0 if m == "original" else 1 if m == "vectorised" else 2, m, mo, e if e is not None else 0)

    for key in sorted(summary, key=order):
        s = summary[key]
        mech, model, eps = key
        cells = [mech, model or "–", "–" if eps is None else f"{eps:g}", str(s["attack_koppel"][2]),
                 f"{s['words_changed'][0]:.2f}"]
        cells += [f"{s[k][0]:.3f} ± {s[k][1]:.3f}" if s[k][2] > 1 else f"{s[k][0]:.3f}" for k, _ in ATTACKS + UTILITIES]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def write(out, name, rows, cal_rows, sizes, config):
    for r in rows:
        r["epsilon"] = None if r["epsilon"] == "" else float(r["epsilon"])
    summary = summarise(rows)
    chance = {"attack": sizes["chance_attack"], "utility": sizes["chance_utility"]}
    acc_png = f"{name}-accuracy.png"
    plot_accuracy(os.path.join(out, acc_png), summary, config, chance, name)
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
             "privatised unknown texts. Numbers are mean ± standard deviation over noise seeds.", "",
             f"![accuracy vs epsilon]({acc_png})", ""]
    if cal_rows:
        lines += [f"![N_w and S_w vs epsilon]({cal_png})", ""]
    lines += ["## Where utility stays within 10% and the attack falls most", ""]
    lines += conclusion(summary, config, chance)
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
