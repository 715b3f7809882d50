#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A straightforward numpy implementation of the laplace mechanism with
brute-force exact decoding, written the way published research code does it:
the whole matrix dequantised to float32 in memory, noise from numpy's
generator, and per word np.argmin of np.linalg.norm over every row.

It is the baseline `dxtext bench` compares against (docs/performance.md), not
a private implementation (numpy's generator is not a CSPRNG).

    numpy_reference.py --model M.dxe [--epsilon E] [--seconds S] [--batch B]

Prints one JSON line: words/s of single-word privatisation (and of batches
of B words decoded with one matrix product when --batch is given) and the
time to load the matrix.
"""

import argparse
import json
import struct
import sys
import time

import numpy as np

KIND_MATRIX, KIND_SCALES = 5, 6
DTYPES = {1: np.float32, 2: np.float16, 3: np.int8}


def load_matrix(path):
    """The dequantised float32 matrix of a .dxe file (docs/format.md)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89DXE\r\n\x1a\n":
        raise SystemExit(f"{path}: not a .dxe model")
    count, = struct.unpack_from("<I", data, 20)
    vocabulary, dimension, geometry, quantization = struct.unpack_from("<IIII", data, 40)
    if geometry != 1:
        raise SystemExit(f"{path}: the reference decodes Euclidean models only")
    sections = {}
    for i in range(count):
        kind, _, offset, size = struct.unpack_from("<IIQQ", data, 128 + 64 * i)
        sections[kind] = (offset, size)
    offset, _ = sections[KIND_MATRIX]
    matrix = np.frombuffer(data, DTYPES[quantization], vocabulary * dimension, offset)
    matrix = matrix.reshape(vocabulary, dimension).astype(np.float32)
    if quantization == 3:
        offset, _ = sections[KIND_SCALES]
        matrix *= np.frombuffer(data, np.float32, vocabulary, offset)[:, None]
    return matrix


def laplace_noise(rng, dimension, epsilon, size=None):
    """Noise with density proportional to exp(-epsilon ||x||): a Gamma(n, 1/eps)
    radius times a uniform direction."""
    shape = (dimension,) if size is None else (size, dimension)
    direction = rng.standard_normal(shape)
    direction /= np.linalg.norm(direction, axis=-1, keepdims=True)
    radius = rng.gamma(dimension, 1.0 / epsilon, size=None if size is None else (size, 1))
    return radius * direction


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--epsilon", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--batch", type=int, default=0)
    args = parser.parse_args()

    t0 = time.perf_counter()
    matrix = load_matrix(args.model)
    load_s = time.perf_counter() - t0
    vocabulary, dimension = matrix.shape
    rng = np.random.default_rng()

    words = 0
    start = time.perf_counter()
    while words < 3 or time.perf_counter() - start < args.seconds:
        w = rng.integers(vocabulary)
        z = matrix[w] + laplace_noise(rng, dimension, args.epsilon)
        np.argmin(np.linalg.norm(matrix - z, axis=1))
        words += 1
    single = words / (time.perf_counter() - start)

    out = {"implementation": "numpy " + np.__version__, "words_per_s": single, "load_s": load_s,
           "vocabulary_size": int(vocabulary), "dimension": int(dimension)}
    if args.batch > 0:
        norms = np.einsum("ij,ij->i", matrix, matrix)
        words = 0
        start = time.perf_counter()
        while words < 3 * args.batch or time.perf_counter() - start < args.seconds:
            w = rng.integers(vocabulary, size=args.batch)
            z = matrix[w] + laplace_noise(rng, dimension, args.epsilon, args.batch)
            np.argmin(norms[:, None] - 2.0 * (matrix @ z.T), axis=0)
            words += args.batch
        out["batch"] = args.batch
        out["batch_words_per_s"] = words / (time.perf_counter() - start)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
