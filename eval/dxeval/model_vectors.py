# SPDX-License-Identifier: Apache-2.0
"""The public parts of a .dxe model read with numpy, for the peer mechanisms
and the structure-aware attacker written in Python: words, dequantised
vectors (docs/format.md §8), frequencies (§10) and the public orderings of
the vocabulary.

The reader trusts the file (dxtext validates it; tests/format/read_dxe.py
checks the format independently): it reads only the section table, the
vocabulary, the matrix, the row scales and the frequencies.
"""
import os
import struct
import subprocess

import numpy as np

MAGIC = b"\x89DXE\r\n\x1a\n"
KIND_OFFSETS, KIND_STRINGS, KIND_MATRIX, KIND_SCALES, KIND_FREQUENCIES = 2, 3, 5, 6, 8
DTYPES = {1: np.dtype("<f4"), 2: np.dtype("<f2"), 3: np.dtype("i1")}


class ModelVectors:
    def __init__(self, path):
        with open(path, "rb") as f:
            b = f.read()
        if b[:8] != MAGIC:
            raise ValueError(f"{path}: not a .dxe model")
        n_sections = struct.unpack_from("<I", b, 20)[0]
        self.V, self.D, self.geometry, quant = struct.unpack_from("<IIII", b, 40)
        sections = {}
        for i in range(n_sections):
            kind, _, offset, size = struct.unpack_from("<IIQQ", b, 128 + 64 * i)
            sections[kind] = (offset, size)
        off, _ = sections[KIND_OFFSETS]
        offsets = np.frombuffer(b, dtype="<u4", count=self.V + 1, offset=off)
        s_off, s_size = sections[KIND_STRINGS]
        strings = b[s_off:s_off + s_size]
        self.words = [strings[offsets[i]:offsets[i + 1] - 1].decode("utf-8") for i in range(self.V)]
        m_off, _ = sections[KIND_MATRIX]
        m = np.frombuffer(b, dtype=DTYPES[quant], count=self.V * self.D, offset=m_off).reshape(self.V, self.D)
        m = m.astype(np.float32)
        if quant == 3:
            sc_off, _ = sections[KIND_SCALES]
            m = m * np.frombuffer(b, dtype="<f4", count=self.V, offset=sc_off)[:, None]
        self.vectors = m
        if KIND_FREQUENCIES in sections:
            f_off, _ = sections[KIND_FREQUENCIES]
            self.freq = np.frombuffer(b, dtype="<u8", count=self.V, offset=f_off).astype(np.float64)
        else:
            self.freq = np.zeros(self.V)
        self.index = {w: i for i, w in enumerate(self.words)}
        self.path = path

    def lookup(self, word):
        """The index of a word (case and typographic apostrophes folded), or -1."""
        return self.index.get(word.replace("\u2019", "'").lower(), -1)

    def common_words(self, top=5000):
        """The `top` most frequent words of the model's frequencies section
        (ties and a model without frequencies: the lowest indices), the
        definition of a "common word" in the evaluation."""
        order = np.lexsort((np.arange(self.V), -self.freq))
        return {self.words[i] for i in order[:top]}

    def neighbours(self, k, block=2048):
        """The k nearest other words of every word (Euclidean), (V, k) ints."""
        x = self.vectors
        sq = (x * x).sum(axis=1)
        out = np.empty((self.V, k), dtype=np.int32)
        for start in range(0, self.V, block):
            d = sq[start:start + block, None] - 2 * x[start:start + block] @ x.T + sq[None, :]
            rows = np.arange(d.shape[0])
            d[rows, start + rows] = np.inf
            part = np.argpartition(d, k, axis=1)[:, :k]
            order = np.argsort(np.take_along_axis(d, part, axis=1), axis=1)
            out[start:start + block] = np.take_along_axis(part, order, axis=1)
        return out


def greedy_chain_orderings(model, count=3, candidates=32, seed=0):
    """A prototype of the public orderings of the vocabulary (1-Diffractor,
    Meisenbacher et al. 2024, builds them from several embedding models):
    `count` greedy nearest-neighbour chains through the vocabulary, each from
    its own start word and with a random quarter of its neighbour lists
    shifted by one place (a chain steps to the nearest unvisited word among its
    `candidates` nearest words, else to the unvisited word of lowest index).
    Returns positions, an int array (count, V): positions[j][w] is word w's
    place in ordering j. Used until the model file carries its orderings
    (`dxtext orderings MODEL`)."""
    rng = np.random.default_rng(seed)
    nn = model.neighbours(candidates)
    positions = np.empty((count, model.V), dtype=np.int64)
    for j in range(count):
        visited = np.zeros(model.V, dtype=bool)
        # Each chain sees the neighbour lists with a few entries swapped, so
        # the chains differ beyond their start word.
        nn_j = nn.copy()
        if j:
            swap = rng.random(nn_j.shape) < 0.25
            shifted = np.roll(nn_j, -1, axis=1)
            nn_j = np.where(swap, shifted, nn_j)
        order = np.empty(model.V, dtype=np.int64)
        cur = int(rng.integers(model.V))
        next_free = 0
        for p in range(model.V):
            order[p] = cur
            visited[cur] = True
            cand = nn_j[cur]
            free = cand[~visited[cand]]
            nxt = int(free[0]) if free.size else -1
            if nxt < 0:
                while next_free < model.V and visited[next_free]:
                    next_free += 1
                if next_free >= model.V:
                    break
                nxt = next_free
            cur = nxt
        positions[j][order] = np.arange(model.V)
    return positions


def cli_orderings(dxtext, model_path, model):
    """The model's own orderings from `dxtext orderings MODEL` (a TSV: a
    header `word<TAB>ordering0...`, then per vocabulary word its position in
    each ordering), as an int array (count, V); None when the command or the
    section is missing."""
    try:
        p = subprocess.run([dxtext, "orderings", model_path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError:
        return None
    if p.returncode != 0:
        return None
    lines = p.stdout.decode("utf-8").splitlines()
    if not lines or not lines[0].startswith("word\t"):
        return None
    count = len(lines[0].split("\t")) - 1
    positions = np.full((count, model.V), -1, dtype=np.int64)
    for line in lines[1:]:
        cells = line.split("\t")
        i = model.index.get(cells[0], -1)
        if i >= 0:
            positions[:, i] = [int(c) for c in cells[1:]]
    if (positions < 0).any():
        return None
    return positions


def orderings(model, dxtext=None, cache_dir=None, count=3):
    """The model's orderings from the CLI when it has them, else the greedy
    prototype (cached next to the run as .npy). Returns (positions, source)."""
    if dxtext:
        pos = cli_orderings(dxtext, model.path, model)
        if pos is not None:
            return pos, "model"
    cache = None
    if cache_dir:
        st = os.stat(model.path)
        cache = os.path.join(cache_dir, f"greedy-orderings-{os.path.basename(model.path)}-{st.st_size}-{count}.npy")
        if os.path.isfile(cache):
            return np.load(cache), "greedy-chain prototype"
    pos = greedy_chain_orderings(model, count)
    if cache:
        os.makedirs(cache_dir, exist_ok=True)
        np.save(cache, pos)
    return pos, "greedy-chain prototype"
