# SPDX-License-Identifier: Apache-2.0
"""Privatising texts through the dxtext command line (`privatize --jsonl`)."""
import hashlib
import json
import os
import subprocess
import tempfile
import time


class PrivatizeError(RuntimeError):
    pass


def seed_hex(*parts):
    """A 64-hex-digit --seed derived from the run's parameters."""
    return hashlib.sha256("/".join(str(p) for p in parts).encode()).hexdigest()


def privatize(dxtext, texts, model, mechanism, epsilon=None, seed=None, extra=(), vectorised_only=False):
    """The texts privatised in one `dxtext privatize --jsonl` run; returns
    (texts, seconds). vectorised_only is the no-noise baseline: vocabulary
    words kept, unknown words replaced by a placeholder. mechanism or
    epsilon None leaves the flag out (a preset in `extra` then sets it)."""
    args = [dxtext, "privatize", "--jsonl", "--on-error", "stop", "--model", model]
    if mechanism is not None:
        args += ["--mechanism", mechanism]
    if vectorised_only:
        args += ["--epsilon", "10", "--in-vocabulary", "keep", "--stopwords", "keep", "--numbers", "keep",
                 "--oov", "placeholder", "--placeholder", "UNK"]
    elif epsilon is not None:
        args += ["--epsilon", repr(float(epsilon))]
    if seed is not None:
        args += ["--seed", seed]
    args += list(extra)
    with tempfile.TemporaryFile("w+b") as src:
        for i, t in enumerate(texts):
            src.write((json.dumps({"id": i, "text": t}, ensure_ascii=False) + "\n").encode())
        src.seek(0)
        start = time.monotonic()
        p = subprocess.run(args, stdin=src, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        seconds = time.monotonic() - start
    if p.returncode != 0:
        raise PrivatizeError(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.decode(errors='replace').strip()}")
    out = [json.loads(line) for line in p.stdout.decode().splitlines() if line.strip()]
    # The CLI promises one record out per record in, in order.
    if [r["id"] for r in out] != list(range(len(texts))):
        raise PrivatizeError(f"{' '.join(args)}: records lost or reordered")
    return [r["text"] for r in out], seconds


def preset_flags(dxtext, name, drop=("floor",)):
    """The options of the preset `name` written out as command-line flags
    (from `dxtext presets --format json`), leaving out the parameters in
    `drop` and its epsilon: a no-noise reference of a preset with a uniform
    floor must not draw the floor's uniform words, and a preset cannot be
    told floor 0 (its value would stand)."""
    presets = json.loads(subprocess.run([dxtext, "presets", "--format", "json"], check=True,
                                        stdout=subprocess.PIPE).stdout)["presets"]
    p = next(x for x in presets if x["name"] == name)
    flags = ["--release-shape", p["release_shape"], "--output-top", str(p["output_top"])]
    for option in ("in_vocabulary", "oov", "numbers", "stopwords", "names", "places", "organizations",
                   "typed_numbers", "addresses", "health"):
        flags += ["--" + option.replace("_", "-"), p[option]]
    for option, value in p["parameters"].items():
        if option not in drop:
            flags += ["--" + option.replace("_", "-"), value]
    return p["mechanism"], flags


def without_flags(args, drop=("--floor",)):
    """args without the flags of `drop` and their values."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in drop:
            skip = True
        else:
            out.append(a)
    return out


NOT_CONTENT = "@@not-a-content-word@@"


def _fold(word):
    # As the library looks words up: typographic apostrophes as ASCII ones.
    return word.replace("\u2019", "'").lower()


def tokens(dxtext, texts):
    """The words and numbers of each text, as `dxtext privatize` splits them."""
    lines = "\n".join(" ".join(t.splitlines()) for t in texts) + "\n"
    p = subprocess.run([dxtext, "tokenize", "--format", "json"], input=lines.encode(), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise PrivatizeError(f"dxtext tokenize: exit {p.returncode}: {p.stderr.decode(errors='replace').strip()}")
    out = [json.loads(line) for line in p.stdout.decode().splitlines()]
    if len(out) != len(texts):
        raise PrivatizeError(f"dxtext tokenize gave {len(out)} lines for {len(texts)} texts")
    return out


def content_words(dxtext, texts, model, mechanism):
    """The content-word tokens of the texts, in order: words of the model's
    vocabulary that are neither stopwords nor numbers, as the library itself
    classifies them (one run that keeps vocabulary words and replaces every
    other class by a marker)."""
    toks = [w for line in tokens(dxtext, texts) for w in line]
    distinct = sorted(set(toks))
    out, _ = privatize(dxtext, distinct, model, mechanism, 1.0, "00" * 32,
                       ["--in-vocabulary", "keep", "--stopwords", "placeholder", "--numbers", "placeholder",
                        "--oov", "placeholder", "--placeholder", NOT_CONTENT])
    content = {w for w, o in zip(distinct, out) if o.strip() == w}
    return [w for w in toks if w in content]


def content_keep_rate(dxtext, words, model, mechanism, epsilon, seed, extra=()):
    """The share of content-word tokens released as themselves (case and
    apostrophes folded) under one condition: each token privatised alone,
    which draws from the same per-word law as inside its text."""
    if not words:
        return 0.0
    out, _ = privatize(dxtext, words, model, mechanism, epsilon, seed, extra)
    return sum(_fold(o.strip()) == _fold(w) for w, o in zip(words, out)) / len(words)


def calibrate(dxtext, model, mechanism, epsilons, words, trials, seed, extra=()):
    """N_w and S_w statistics per epsilon from `dxtext calibrate`."""
    # N_w and S_w are about single words: a text's release shape does not
    # change them, and calibrate does not take it.
    extra = list(extra)
    if "--release-shape" in extra:
        i = extra.index("--release-shape")
        del extra[i:i + 2]
    rows = []
    for eps in epsilons:
        args = [dxtext, "calibrate", "--model", model, "--mechanism", mechanism, "--epsilon", repr(float(eps)),
                "--words", str(words), "--trials", str(trials), "--seed", seed] + extra
        p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0:
            raise PrivatizeError(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.decode(errors='replace').strip()}")
        rows.append((eps, json.loads(p.stdout)))
    return rows


def default_dxtext(repo):
    for candidate in (os.environ.get("DXTEXT_BIN"), os.path.join(repo, "build", "bin", "dxtext")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise PrivatizeError("no dxtext binary: build the project or pass --dxtext")
