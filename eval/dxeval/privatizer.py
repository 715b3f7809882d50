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
    words kept, unknown words replaced by a placeholder."""
    args = [dxtext, "privatize", "--jsonl", "--on-error", "stop", "--model", model, "--mechanism", mechanism]
    if vectorised_only:
        args += ["--epsilon", "10", "--in-vocabulary", "keep", "--stopwords", "keep", "--numbers", "keep",
                 "--oov", "placeholder", "--placeholder", "UNK"]
    else:
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
