#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every sample output and size figure in the docs, made by running dxtext.

The docs mark each generated part with a pair of comments:

    <!-- dxtext-samples: NAME -->
    ...generated text...
    <!-- /dxtext-samples -->

and this script makes the text of every NAME it knows (below), then either
writes it into the files (--write) or fails when a file differs (--check,
run by CI). Privatised text is made with a fixed --seed: reproducible, and
for that reason NOT private, which the generated text says. A line of a
Markdown file that is a preset's release record (`{"release":...}` with a
"preset") is made anew too, from `dxtext privatize --preset NAME --report`.

    python3 tools/docs/samples.py --write    # refresh every sample (after retuning the presets, say)
    python3 tools/docs/samples.py --check    # CI: the docs show what dxtext does today

--dxtext names the program (default build/bin/dxtext); it uses the default
models of the source tree. The WebAssembly size figures need the package's
build: --wasm-dir DIR (the directory holding dxtext_core.wasm); without it
the block `wasm-size` is left as it is (and --check says it skipped it).
"""
import argparse
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = "0" * 63 + "1"  # --seed 00...01: the docs' samples, NOT private
SENTENCE = "The president spoke to the nation about the war."
# The files that may hold generated blocks (every Markdown file of the docs
# is scanned; these are also checked to hold the blocks they must).
EXPECTED = {
    "docs/calibration.md": ["epsilon-table"],
    "docs/bindings/wasm.md": ["wasm-size"],
    "README.md": ["preset-losses", "typed-verbatim", "msg-presets"],
}
# The measurements of eval/typed_classes/verbatim.py behind the README's
# verbatim-leak figures: the labelled set and the held-out one.
TYPED_VERBATIM = ["docs/evaluation/typed-verbatim.json", "docs/evaluation/typed-verbatim-heldout.json"]
MARK = re.compile(r"(<!-- dxtext-samples: ([A-Za-z0-9:/._-]+) -->\n)(.*?)(<!-- /dxtext-samples -->)", re.S)
FENCE = {".js": "js", ".mjs": "js", ".rs": "rust", ".java": "java", ".c": "c", ".cpp": "cpp", ".py": "python",
         ".swift": "swift", ".sh": "sh", ".html": "html"}
# What the calibrate table shows: epsilons per mechanism around the values
# that matter on the default model (from replacing nearly every word to
# keeping nearly every one).
SWEEPS = [
    ("laplace", "4,8,10,12,14,16,20"),
    ("exponential", "1,2,2.5,3,3.7,4.3,5,6"),
]


class Dxtext:
    def __init__(self, program):
        self.program = program
        self.env = dict(os.environ)
        self.env.pop("DXTEXT_MODEL", None)

    def run(self, *args):
        p = subprocess.run([self.program, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env)
        if p.returncode != 0:
            sys.exit(f"samples.py: dxtext {' '.join(args)}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
        return p.stdout.decode()

    def presets(self):
        return json.loads(self.run("presets", "--format", "json"))["presets"]


def preset_sentences(dx):
    lines = [f"$ dxtext privatize --preset NAME --seed {SEED[:4]}…{SEED[-4:]} \"{SENTENCE}\"", ""]
    for p in dx.presets():
        out = dx.run("privatize", "--preset", p["name"], "--seed", SEED, SENTENCE).strip()
        lines.append(f"{p['name']:<10} {out}")
    return ("Seeded with `--seed` so that this page can be regenerated (seeded output is NOT private; "
            "real runs differ every time). Made by `tools/docs/samples.py`.\n\n```\n" + "\n".join(lines) + "\n```\n")


def pct(x):
    return f"{100 * x:.0f}%"


def epsilon_table(dx):
    rows = ["| mechanism | ε | words released as themselves (median N_w) | mean N_w | distinct outputs per word in 100 draws (median S_w) |",
            "|---|--:|--:|--:|--:|"]
    for p in dx.presets():
        r = json.loads(dx.run("calibrate", "--preset", p["name"], "--trials", "100", "--seed", SEED))["result"]
        rows.append(f"| preset `{p['name']}` ({p['mechanism']}) | {r['epsilon']:g} | {pct(r['keep']['median'])} | "
                    f"{pct(r['keep']['mean'])} | {r['distinct']['median']:g} |")
    for mechanism, epsilons in SWEEPS:
        d = json.loads(dx.run("calibrate", "--mechanism", mechanism, "--epsilons", epsilons, "--trials", "100",
                              "--seed", SEED))
        for r in d["results"]:
            rows.append(f"| {mechanism} | {r['epsilon']:g} | {pct(r['keep']['median'])} | {pct(r['keep']['mean'])} | "
                        f"{r['distinct']['median']:g} |")
    return ("Made by `tools/docs/samples.py` with `dxtext calibrate --trials 100 --seed …` on the default "
            "model (50 words sampled from each row's output vocabulary: the words it can release, so the only ones it can keep):\n\n" + "\n".join(rows) + "\n")


# The presets' privacy loss on one scale (docs/options.md, README): `dxtext
# loss` on the default model, kept in LOSSES for tools/options/generate.py.
LOSS_ARGS = ("loss", "--presets", "--pairs", os.path.join(REPO, "eval", "data", "antonym-pairs.tsv"))
LOSSES = os.path.join(REPO, "tools", "options", "preset_losses.json")


def preset_losses_json(dx):
    return json.loads(dx.run(*LOSS_ARGS, "--format", "json"))


def same_losses(a, b):
    """Equal up to the 6th significant digit (the docs show 2 decimals)."""
    def norm(x):
        if isinstance(x, float):
            return float(f"{x:.6g}")
        if isinstance(x, dict):
            return {k: norm(v) for k, v in x.items()}
        if isinstance(x, list):
            return [norm(v) for v in x]
        return x
    return norm(a) == norm(b)


def preset_losses_table(dx):
    table = dx.run(*LOSS_ARGS, "--format", "text").replace(os.path.join(REPO, ""), "")
    return ("Made by `dxtext loss --presets --pairs eval/data/antonym-pairs.tsv --format text` on the default model "
            "(`tools/docs/samples.py`):\n\n" + table)


# A preset's release record shown in the docs as a line of its own (the
# output of docs/dask.md's example, say): the record dxtext writes today.
RECORD_LINE = re.compile(r'^\{"release":.*\}$', re.M)


def preset_record(dx, preset):
    p = subprocess.run([dx.program, "privatize", "--preset", preset, "--report", "a"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=dx.env)
    if p.returncode != 0:
        sys.exit(f"samples.py: dxtext privatize --preset {preset} --report: exit {p.returncode}")
    return p.stderr.decode().splitlines()[0]


def shown_records(dx, text, cache):
    """`text` with every line that is a preset's release record made anew."""
    def fill(m):
        try:
            preset = json.loads(m.group(0)).get("preset")
        except ValueError:
            return m.group(0)
        if not preset:
            return m.group(0)
        if preset not in cache:
            cache[preset] = preset_record(dx, preset)
        return cache[preset]
    return RECORD_LINE.sub(fill, text)


# The README's figures of the presets on message text: the presets run of
# eval/run_eval.py on the changelog corpus (docs/evaluation.md, "Fluency of
# the released text"), a range over its seeds, and each preset's worst case.
MSG_PRESETS = os.path.join(REPO, "docs", "evaluation", "msg-presets-fluency-results.csv")


def span(values, fmt, unit=""):
    lo, hi = fmt(min(values)), fmt(max(values))
    return (lo if lo == hi else f"{lo}–{hi}") + unit


def msg_presets(dx):
    import csv
    rows = list(csv.DictReader(open(MSG_PRESETS, encoding="utf-8")))
    losses = {p["name"]: p for p in json.load(open(LOSSES, encoding="utf-8"))["rows"]}
    seed = "0" * 63 + "1"
    sentence = "Thanks for the quick reply. I will review the contract tonight and call you tomorrow morning."
    two = lambda x: f"{x:.2f}"  # noqa: E731
    pct0 = lambda x: f"{100 * x:.0f}"  # noqa: E731
    out = ["| preset | worst case per word | content words kept | strongest attack (÷ no noise) | topic kept "
           "| fluency (÷ unmodified) | \"" + sentence + "\" (seeded) |", "|---|--:|--:|--:|--:|--:|---|"]
    for p in dx.presets():
        name = p["name"]
        rs = [r for r in rows if r["mechanism"] == "preset:" + name]
        if not rs:
            sys.exit(f"samples.py: {MSG_PRESETS} has no rows of preset {name}: rerun the presets evaluation")
        col = lambda k: [float(r[k]) for r in rs]  # noqa: E731
        released = dx.run("privatize", "--preset", name, "--seed", seed, sentence).strip()
        out.append(f"| `{name}` | {losses[name]['worst_case_per_word']:.1f} nats | {span(col('content_kept'), pct0, '%')} | "
                   f"{span(col('attack_strongest'), two)} ({span(col('strongest_ratio'), two)}) | "
                   f"{span(col('topic_best_share'), pct0, '%')} | {span(col('fluency_ratio_known'), lambda x: f'{x:.1f}')} | "
                   f"{released.replace('|', '/') or '(nothing)'} |")
    base = [r for r in rows if r["mechanism"] == "original"][0]
    return ("Made by `tools/docs/samples.py` from `docs/evaluation/msg-presets-fluency-results.csv` "
            f"({base['n_unknown']} unknown texts, {len(rs)} seeds; ranges over the seeds) and "
            "`tools/options/preset_losses.json`:\n\n" + "\n".join(out) + "\n")


def example_file(rel):
    """`file:PATH`: the example program PATH as it is in the tree (without its
    licence line), so the docs show the code that CI runs."""
    lines = open(os.path.join(REPO, rel), encoding="utf-8").read().splitlines()
    if lines and "SPDX-License-Identifier" in lines[0]:
        lines = lines[1:]
    return f"```{FENCE.get(os.path.splitext(rel)[1], '')}\n" + "\n".join(lines) + "\n```\n"


def about_kb(n):
    """n bytes to the nearest 10 kB: a figure that a changed message does not move."""
    return f"{round(n / 10000) * 10:.0f} kB"


def wasm_size(wasm_dir):
    path = os.path.join(wasm_dir, "dxtext_core.wasm")
    data = open(path, "rb").read()
    zipped = len(gzip.compress(data, 6))  # gzip's default level, as a web server would send it
    return (f"`dxtext_core.wasm` is about {about_kb(len(data))} of WebAssembly ({about_kb(zipped)} gzipped), "
            "as built by `bash tools/package.sh wasm`; measured to the nearest 10 kB by `tools/docs/samples.py`, "
            "which the WebAssembly CI job runs.\n")


def percent_range(values):
    """Shares as whole percentages: "3%", or "1–3%" when they differ."""
    low, high = round(100 * min(values)), round(100 * max(values))
    return f"{low}%" if low == high else f"{low}–{high}%"


def typed_verbatim(dx):
    """The README's sentence on what `readable` still releases verbatim, from
    the measurements' files; fails when a measurement was made on other
    presets, another model or another labelled file than today's (re-run
    eval/typed_classes/verbatim.py with --json)."""
    presets = dx.presets()
    runs = []
    for rel in TYPED_VERBATIM:
        path = os.path.join(REPO, rel)
        if not os.path.exists(path):
            sys.exit(f"samples.py: {rel} is missing: run eval/typed_classes/verbatim.py with --json {rel}")
        m = json.load(open(path, encoding="utf-8"))
        model = json.loads(dx.run("inspect", os.path.join(REPO, "models", "dxtext-en-euclid-100d-40k.dxe")))
        with open(os.path.join(REPO, m["eval_file"]), "rb") as f:
            eval_sha = hashlib.sha256(f.read()).hexdigest()
        stale = [what for what, same in (("the presets", m["presets"] == presets),
                                          ("the default model", m["model_sha256"] == model["sha256"]),
                                          (m["eval_file"], m["eval_sha256"] == eval_sha)) if not same]
        if stale:
            sys.exit(f"samples.py: {rel} is stale ({', '.join(stale)} changed since it was measured): run "
                     f"python3 eval/typed_classes/verbatim.py build/bin/dxtext "
                     f"models/dxtext-en-euclid-100d-40k.dxe {m['eval_file']} 5 --json {rel}")
        runs.append(m)
    now = [m["shares"]["readable"] for m in runs]
    before = [m["shares"]["readable-untyped"] for m in runs]
    fig = lambda shares, family: percent_range([s[family] for s in shares])
    sets = " and ".join(f"`{m['eval_file']}`" for m in runs)
    return (f"On labelled text, `readable` still releases about {fig(now, 'names')} of person names, "
            f"{fig(now, 'places')} of places and {fig(now, 'health')} of health terms verbatim (with the same "
            f"options before typed classes: {fig(before, 'names')}, {fig(before, 'places')} and "
            f"{fig(before, 'health')}), and {fig(now, 'e-mail')} of e-mail addresses and {fig(now, 'numbers')} "
            f"of numbers (docs/evaluation/typed-classes.md). Measured by `eval/typed_classes/verbatim.py` on "
            f"{sets} ({runs[0]['runs']} runs each); `tools/docs/samples.py` makes this sentence from its output "
            f"files and fails when the presets or the model have changed since.\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="update the docs")
    mode.add_argument("--check", action="store_true", help="fail when a doc differs")
    ap.add_argument("--dxtext", default=os.path.join(REPO, "build", "bin", "dxtext"))
    ap.add_argument("--wasm-dir", help="the directory holding dxtext_core.wasm (for wasm-size)")
    ap.add_argument("--only", action="append", help="only these blocks (repeatable)")
    args = ap.parse_args()

    dx = Dxtext(args.dxtext)
    makers = {
        "preset-sentences": lambda: preset_sentences(dx),
        "epsilon-table": lambda: epsilon_table(dx),
        "wasm-size": (lambda: wasm_size(args.wasm_dir)) if args.wasm_dir else None,
        "preset-losses": lambda: preset_losses_table(dx),
        "typed-verbatim": lambda: typed_verbatim(dx),
        "msg-presets": lambda: msg_presets(dx),
    }
    made = {}
    problems, skipped = [], set()
    if not args.only or "preset-losses" in args.only:
        losses = preset_losses_json(dx)
        old = json.load(open(LOSSES, encoding="utf-8")) if os.path.exists(LOSSES) else None
        if old is None or not same_losses(old, losses):
            if args.write:
                with open(LOSSES, "w", encoding="utf-8") as f:
                    json.dump(losses, f, indent=1)
                    f.write("\n")
                print("updated tools/options/preset_losses.json: run python3 tools/options/generate.py and rebuild")
            else:
                problems.append("tools/options/preset_losses.json differs from what dxtext loss computes now "
                                "(run python3 tools/docs/samples.py --write, then tools/options/generate.py)")
    files, records = [], {}
    for root, dirs, names in os.walk(REPO):
        dirs[:] = [d for d in dirs if not d.startswith((".", "build", "dist", "node_modules", "target"))]
        files += [os.path.relpath(os.path.join(root, n), REPO) for n in names if n.endswith(".md")]
    for rel in sorted(files):
        path = os.path.join(REPO, rel)
        text = open(path, encoding="utf-8").read()
        found = [m.group(2) for m in MARK.finditer(text)]
        for name in EXPECTED.get(rel, []):
            if name not in found:
                problems.append(f"{rel}: no block '{name}'")
        if not found and not (RECORD_LINE.search(text) and not args.only):
            continue

        def fill(m):
            name = m.group(2)
            if name.startswith("file:") and name not in makers:
                makers[name] = lambda path=name[5:]: example_file(path)
            if name not in makers:
                problems.append(f"{rel}: unknown block '{name}'")
                return m.group(0)
            if (args.only and name not in args.only) or makers[name] is None:
                skipped.add(name)
                return m.group(0)
            if name not in made:
                made[name] = makers[name]()
            return m.group(1) + made[name] + m.group(4)

        new = MARK.sub(fill, text)
        if not args.only:
            new = shown_records(dx, new, records)
        if new != text:
            if args.write:
                open(path, "w", encoding="utf-8").write(new)
                print(f"updated {rel}")
            else:
                problems.append(f"{rel}: differs from what dxtext does now (run python3 tools/docs/samples.py --write)")
    for name in sorted(skipped):
        print(f"skipped {name}" + (" (needs --wasm-dir)" if name == "wasm-size" and not args.wasm_dir else ""))
    for p in problems:
        print(f"samples.py: {p}", file=sys.stderr)
    if not problems:
        print("docs samples: " + ("written" if args.write else "up to date") + f" ({', '.join(sorted(made)) or 'none'})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
