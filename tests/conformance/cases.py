#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes or checks tests/conformance/cases.json, the conformance suite that
every binding runs (tests/conformance/README.md).

The cases' inputs are written below; their expected outcomes are never
typed: each case is run through the C ABI by conformance_case (built from
conformance_case.c beside this file) and its outcome written as it is.

    python3 tests/conformance/cases.py RUNNER            # rewrite cases.json
    python3 tests/conformance/cases.py --check RUNNER    # compare, exit 1 on a difference

RUNNER is the built conformance_case program (build/bin/conformance_case).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CASES = HERE / "cases.json"

# Paths are relative to the repository's root; every runner opens them there.
MODEL = "models/dxtext-en-euclid-100d-40k.dxe"
BALL = "models/dxtext-wordnet-poincare-10d.dxe"  # 10 dimensions: hyperbolic needs epsilon > 9
SEED_1 = "00" * 31 + "01"  # as --seed 00..01 and Python's seed=1
SEED_2 = "a5" * 32
SENTENCE = "The president spoke to the nation about the war."
TYPED = "Alice paid 42 dollars to a doctor in Paris on Monday."


def privatize(name: str, call: str, given: str, options: dict, seed: str = SEED_1, model: str | None = None) -> dict:
    case = {"name": name, "call": call, "input": given, "seed": seed, "options": options}
    return dict(case, model=model) if model else case


def opening(name: str, model: str) -> dict:
    return {"name": name, "call": "open", "model": model}


def bag(name: str, words: dict, options: dict, n_out: int | None = None, seed: str = SEED_1) -> dict:
    """A bag (or, with n_out, SynTF) of [word, count] pairs, in order: the
    draws follow it (a JSON object would not keep the order of keys such as
    "42" in JavaScript)."""
    pairs = [[word, count] for word, count in words.items()]
    case = {"name": name, "call": "syntf" if n_out else "bag", "bag": pairs, "seed": seed, "options": options}
    return dict(case, n_out=n_out) if n_out else case


def calibration(name: str, words: int, trials: int, options: dict, seed: str = SEED_1) -> dict:
    return {"name": name, "call": "calibrate", "words": words, "trials": trials, "seed": seed, "options": options}


def ledger(name: str, cap: float, key: str | None, releases: list) -> dict:
    """Releases, each with a fresh context of the seed, through a new ledger
    file of one scope; key: the app key in hex (memoisation needs one)."""
    return {"name": name, "call": "ledger", "seed": SEED_1, "scope": "user-1", "cap": cap, "key": key,
            "releases": [{"input": text, "options": options} for text, options in releases]}


def case_inputs() -> list[dict]:
    cases = [
        privatize("word, laplace", "word", "house", {"epsilon": 10}),
        privatize("word, laplace, another seed", "word", "house", {"epsilon": 10}, SEED_2),
        privatize("word, exponential", "word", "river", {"epsilon": 5, "mechanism": "exponential"}),
        privatize("word, vickrey", "word", "river", {"epsilon": 10, "mechanism": "vickrey", "vickrey_t": 0.5}),
        privatize("word, out of vocabulary, placeholder", "word", "zzqxv",
                  {"epsilon": 10, "oov": "placeholder", "placeholder": "[gone]"}),
        privatize("word, laplace at a huge epsilon keeps the word", "word", "house", {"epsilon": 1000}),
        privatize("word, exponential, permute-and-flip", "word", "river",
                  {"epsilon": 5, "mechanism": "exponential", "sampler": "permute-and-flip"}),
        privatize("text, out of vocabulary and numbers kept", "text", "Call zzqxv at 5 about the war.",
                  {"epsilon": 20, "oov": "keep", "numbers": "keep"}),
        privatize("text, empty", "text", "", {"epsilon": 10}),
        privatize("text, non-ASCII and a character beyond U+FFFF kept", "text",
                  "Ünïcödé — “quoted” 😀 about the war.", {"epsilon": 20, "oov": "keep"}),
        privatize("text, out of vocabulary placeholder by default", "text", "Call zzqxv about the war.",
                  {"epsilon": 20, "oov": "placeholder"}),
        privatize("text, laplace", "text", SENTENCE, {"epsilon": 10}),
        privatize("text, laplace, another seed", "text", SENTENCE, {"epsilon": 10}, SEED_2),
        privatize("text, tem", "text", SENTENCE, {"epsilon": 5, "mechanism": "tem"}),
        privatize("text, strict shape", "text", SENTENCE, {"epsilon": 12, "release_shape": "strict"}),
        privatize("text, normalize shape, stopwords kept", "text", SENTENCE,
                  {"epsilon": 12, "release_shape": "normalize", "stopwords": "keep"}),
        privatize("text, output_top", "text", SENTENCE, {"epsilon": 20, "output_top": 1000}),
        privatize("text, negations kept", "text", "I did not see it and never will.",
                  {"epsilon": 10, "negations": "keep"}),
        privatize("error: negations kept with the strict shape", "text", SENTENCE,
                  {"epsilon": 10, "negations": "keep", "release_shape": "strict"}),
        privatize("text, typed classes placeholder", "text", TYPED,
                  {"epsilon": 20, "names": "placeholder", "places": "placeholder", "typed_numbers": "placeholder"}),
    ]
    for preset in ("readable", "features", "strongest"):
        for seed in (SEED_1, SEED_2):
            tag = "" if seed == SEED_1 else ", another seed"
            cases.append(privatize(f"text, preset {preset}{tag}", "text", SENTENCE, {"preset": preset}, seed))
        cases.append(privatize(f"text with typed words, preset {preset}", "text", TYPED, {"preset": preset}))
        cases.append(privatize(f"text, preset {preset}, epsilon overridden", "text", SENTENCE,
                               {"preset": preset, "epsilon": 7}))
    cases += [
        privatize("error: unknown option", "text", SENTENCE, {"epsilom": 20}),
        privatize("error: bad enum value", "text", SENTENCE, {"epsilon": 20, "mechanism": "laplaze"}),
        privatize("error: strict shape with a keep policy", "text", SENTENCE,
                  {"epsilon": 20, "release_shape": "strict", "stopwords": "keep"}),
        privatize("error: number out of range", "text", SENTENCE, {"epsilon": 20, "vickrey_t": 2}),
        privatize("error: unknown preset", "text", SENTENCE, {"preset": "fastest"}),
        privatize("error: preset and an option it fixes", "text", SENTENCE, {"preset": "features", "mechanism": "tem"}),
        privatize("error: epsilon unset", "text", SENTENCE, {}),
        privatize("error: epsilon zero", "text", SENTENCE, {"epsilon": 0}),
        privatize("error: epsilon negative", "word", "house", {"epsilon": -1}),
        privatize("error: epsilon above the range", "word", "house", {"epsilon": 10000000}),
        privatize("error: ivf search on a model without a search index", "text", SENTENCE,
                  {"epsilon": 4, "search": "ivf", "ivf_nprobe": 4}),
        privatize("error: ivf_nprobe without ivf search", "text", SENTENCE, {"epsilon": 4, "ivf_nprobe": 4}),
        privatize("error: hyperbolic on a euclidean model", "word", "house", {"epsilon": 50, "mechanism": "hyperbolic"}),
        bag("bag, laplace", {"war": 3, "peace": 2, "zzqxv": 1}, {"epsilon": 10}),
        bag("bag, out of vocabulary dropped", {"war": 3, "peace": 2, "zzqxv": 1}, {"epsilon": 10, "oov": "drop"}),
        bag("bag, out of vocabulary placeholder", {"war": 1, "zzqxv": 2},
            {"epsilon": 2, "oov": "placeholder", "placeholder": "<oov>"}),
        bag("error: bag, epsilon negative", {"war": 1}, {"epsilon": -3}),
        bag("bag, preset features", {"the": 1, "war": 3, "42": 2, "zzqxv": 1, "paris": 1}, {"preset": "features"}),
        bag("error: bag, a preset and an option it fixes", {"war": 1}, {"preset": "readable", "mechanism": "tem"}),
        bag("syntf", {"war": 2, "peace": 1}, {"epsilon": 2, "syntf_s": 0.5}, n_out=5),
        bag("error: syntf refuses a placeholder policy", {"war": 2, "peace": 1}, {"epsilon": 2, "oov": "placeholder"},
            n_out=3),
        calibration("calibrate, laplace", 20, 10, {"epsilon": 20}),
        calibration("calibrate, exponential", 10, 20, {"epsilon": 5, "mechanism": "exponential"}),
        calibration("error: calibrate no words", 0, 1, {"epsilon": 5}),
        ledger("ledger: spends epsilon and refuses past the cap", 25, None, [
            (SENTENCE, {"epsilon": 10}), ("The war is over.", {"epsilon": 10}), (SENTENCE, {"epsilon": 10})]),
        ledger("ledger: with an app key, the same release is memoised and costs nothing", 25, "0f" * 32, [
            (SENTENCE, {"epsilon": 10}), (SENTENCE, {"epsilon": 10}), ("The war is over.", {"epsilon": 10}),
            (SENTENCE, {"epsilon": 5}), (SENTENCE, {"epsilon": 10})]),
        ledger("ledger: a preset costs its epsilon", 3, "0f" * 32, [
            (SENTENCE, {"preset": "features"}), (SENTENCE, {"preset": "readable"}),
            (SENTENCE, {"preset": "features", "epsilon": 2})]),
        ledger("ledger: another shape, policy or mechanism of the same text draws fresh", 100, "0f" * 32, [
            ("The war is over.", {"epsilon": 1, **options}) for options in (
                {}, {"release_shape": "strict"}, {"release_shape": "strict"}, {"oov": "placeholder"},
                {"oov": "placeholder"}, {"oov": "placeholder", "placeholder": "*"},
                {"oov": "placeholder", "placeholder": "*"}, {"mechanism": "vickrey"}, {"mechanism": "vickrey"},
                {"mechanism": "vickrey", "vickrey_t": 0.5}, {"mechanism": "vickrey", "vickrey_t": 0.5},
                {"output_top": 50}, {"output_top": 50}, {})]),
        ledger("ledger: a refused option spends nothing", 5, None, [
            (SENTENCE, {"epsilon": 4, "mechanism": "laplaze"}), (SENTENCE, {"epsilon": 4})]),
        privatize("poincare: hyperbolic above n - 1", "text", "dog entity river",
                  {"epsilon": 12, "mechanism": "hyperbolic"}, model=BALL),
        privatize("error: poincare: hyperbolic at n - 1 names the route", "word", "dog",
                  {"epsilon": 9, "mechanism": "hyperbolic"}, model=BALL),
        privatize("poincare: exponential below n - 1", "text", "dog entity river",
                  {"epsilon": 0.5, "mechanism": "exponential"}, model=BALL),
        privatize("poincare: exponential, another seed", "text", "dog entity river",
                  {"epsilon": 5, "mechanism": "exponential"}, SEED_2, model=BALL),
        privatize("poincare: tem below n - 1", "text", "dog entity river", {"epsilon": 1, "mechanism": "tem"},
                  model=BALL),
        privatize("poincare: exponential at 1e6 keeps the synset", "word", "dog",
                  {"epsilon": 1000000, "mechanism": "exponential"}, model=BALL),
        opening("open: the default model", MODEL),
        opening("error: not a model file", "tests/conformance/data/not_a_model.txt"),
        opening("error: truncated model", "tests/conformance/data/truncated.dxe"),
        # tests/data/golden_v1.dxe with its reserved header byte 60 set: the header digest no longer matches.
        opening("error: damaged header", "tests/conformance/data/damaged_header.dxe"),
    ]
    return cases


def option_text(value: object) -> str:
    """An option's value as dxt_options_set reads it (JSON's spelling; every
    binding spells these numbers so, which the cases keep to)."""
    return value if isinstance(value, str) else json.dumps(value)


def run(runner: Path, args: list[str], name: str) -> dict:
    done = subprocess.run([str(runner), *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{runner} failed on case '{name}': {done.stderr.strip()}")
    return json.loads(done.stdout)


def open_outcome(runner: Path, case: dict) -> dict:
    """A file's error names the path it was given, which a runner gives as it
    finds the repository: the expected message says {path} there. Opened
    from memory (as the WebAssembly package opens a file), the message is
    the same without " (in '{path}')"; checked here, so that a runner may
    rely on it."""
    path = str(REPO / case["model"])
    from_file = run(runner, ["open", path], case["name"])
    from_memory = run(runner, ["open-memory", path], case["name"])
    if "error" in from_file:
        from_file["error"]["message"] = from_file["error"]["message"].replace(path, "{path}")
    without_path = json.loads(json.dumps(from_file).replace(" (in '{path}')", ""))
    if from_memory != without_path:
        sys.exit(f"case '{case['name']}': from memory {from_memory}, from the file {from_file}")
    return from_file


def ledger_outcome(runner: Path, case: dict) -> dict:
    with tempfile.TemporaryDirectory() as directory:
        args = ["ledger", str(REPO / MODEL), case["seed"], str(Path(directory) / "ledger.dxl"), case["scope"],
                json.dumps(case["cap"]), case["key"] or "-"]
        for release in case["releases"]:
            args += ["--text", release["input"]]
            args += [f"{name}={option_text(value)}" for name, value in release["options"].items()]
        return run(runner, args, case["name"])


def outcome(runner: Path, case: dict) -> dict:
    model = str(REPO / case.get("model", MODEL))
    options = [f"{name}={option_text(value)}" for name, value in case.get("options", {}).items()]
    if case["call"] in ("bag", "syntf"):
        words = [f"{word}={count}" for word, count in case["bag"]]
        n_out = [str(case["n_out"])] if case["call"] == "syntf" else []
        return run(runner, [case["call"], model, case["seed"], *n_out, *words, "--", *options], case["name"])
    if case["call"] == "calibrate":
        args = ["calibrate", model, case["seed"], str(case["words"]), str(case["trials"]), *options]
        return run(runner, args, case["name"])
    if case["call"] == "open":
        return open_outcome(runner, case)
    if case["call"] == "ledger":
        return ledger_outcome(runner, case)
    return run(runner, [case["call"], model, case["seed"], case["input"], *options], case["name"])


def suite(runner: Path) -> dict:
    cases = []
    for case in case_inputs():
        case = dict(case, expect=outcome(runner, case))
        cases.append(case)
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), "case names must be unique"
    return {
        "about": "Generated by tests/conformance/cases.py from the C ABI: do not edit (README.md beside it).",
        "model": MODEL,
        "cases": cases,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with cases.json instead of writing it")
    parser.add_argument("runner", type=Path, help="the built conformance_case program")
    args = parser.parse_args()
    text = json.dumps(suite(args.runner), indent=1, ensure_ascii=False) + "\n"
    if not args.check:
        CASES.write_text(text, encoding="utf-8")
        print(f"wrote {CASES.relative_to(REPO)}")
        return 0
    if CASES.read_text(encoding="utf-8") != text:
        expected = json.loads(CASES.read_text(encoding="utf-8"))["cases"]
        actual = json.loads(text)["cases"]
        for old, new in zip(expected, actual):
            if old != new:
                print(f"case '{new['name']}': cases.json has {json.dumps(old['expect'])}", file=sys.stderr)
                print(f"  the library gives {json.dumps(new['expect'])}", file=sys.stderr)
        if len(expected) != len(actual):
            print(f"cases.json has {len(expected)} cases, cases.py {len(actual)}", file=sys.stderr)
        print("tests/conformance/cases.json is stale: run python3 tests/conformance/cases.py RUNNER", file=sys.stderr)
        return 1
    print(f"conformance: {len(json.loads(text)['cases'])} cases agree with the C ABI")
    return 0


if __name__ == "__main__":
    sys.exit(main())
