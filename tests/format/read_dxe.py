#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An independent reader and checker of .dxe 1.x model files (1.0 to 1.2).

It is written from docs/format.md alone, with the Python standard library
only, and shares no code with the C++ reader. Run on the golden file it
checks that the specification describes the bytes the C++ writer produces.

    read_dxe.py MODEL.dxe [--expect SOURCE.txt] [--check-rejects]

It validates the file as docs/format.md section 12 says (header, section
table, every digest, metadata), then also checks what dxtext leaves to
writers (every word, the hash table, finite values, row norms, padding).
On success it prints a JSON summary and exits 0; on any violation it prints
the status and the reason to stderr and exits 1.

--expect SOURCE.txt   GloVe text ("word v1 .. vD" per line) the model was
                      built from: each dequantised value must lie within the
                      quantisation error of its source value (int8: scale/2).
--check-rejects       also damage copies of the file in memory and check each
                      gives the status docs/format.md section 12.1 prescribes.
"""

import argparse
import hashlib
import json
import math
import os
import struct
import sys
import unicodedata

# Statuses (docs/format.md section 12).
OK = "DXT_OK"
NOT_A_MODEL = "DXT_E_NOT_A_MODEL"
UNSUPPORTED_VERSION = "DXT_E_UNSUPPORTED_VERSION"
CORRUPT = "DXT_E_CORRUPT_MODEL"
TRUNCATED = "DXT_E_TRUNCATED_MODEL"
DIGEST_MISMATCH = "DXT_E_DIGEST_MISMATCH"
NOT_FOUND = "DXT_E_NOT_FOUND"

MAGIC = b"\x89DXE\r\n\x1a\n"
ENDIAN_TAG = 0x0A0B0C0D
FIXED_HEADER = 128
ENTRY_SIZE = 64
MAX_SECTIONS = 64
ALIGNMENT = 64
MAX_DIMENSION = 65536
MAX_METADATA = 1 << 20
U32_MAX = (1 << 32) - 1
U64_MASK = (1 << 64) - 1

KIND_NAMES = {
    1: "metadata",
    2: "vocabulary offsets",
    3: "vocabulary strings",
    4: "vocabulary hash table",
    5: "matrix",
    6: "row scales",
    7: "row norms",
    8: "frequencies",
    9: "covariance",
    10: "search index",
    11: "orderings",
}
GEOMETRIES = {1: "euclidean", 2: "poincare"}
QUANTIZATIONS = {1: ("f32", 4), 2: ("f16", 2), 3: ("int8", 1)}


class DxeError(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def fail(status, message):
    raise DxeError(status, message)


def u16(b, at):
    return struct.unpack_from("<H", b, at)[0]


def u32(b, at):
    return struct.unpack_from("<I", b, at)[0]


def u64(b, at):
    return struct.unpack_from("<Q", b, at)[0]


def f32_at(b, at):
    return struct.unpack_from("<f", b, at)[0]


def to_f32(x):
    """Rounds a Python float (binary64) to the nearest binary32 value."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def sha256(b):
    return hashlib.sha256(b).digest()


def fnv1a64(data):
    """FNV-1a, 64-bit (docs/format.md section 7.2)."""
    h = 0xCBF29CE484222325
    for byte in data:
        h ^= byte
        h = (h * 0x100000001B3) & U64_MASK
    return h


_NFKC_CF = None


def _nfkc_cf():
    """NFKC_Casefold of each code point, from the UCD's DerivedNormalizationProps.txt."""
    global _NFKC_CF
    if _NFKC_CF is None:
        path = os.path.join(os.environ.get("DXT_UCD", "/usr/share/unicode"), "DerivedNormalizationProps.txt")
        if not os.path.isfile(path):
            sys.exit("folding a non-ASCII word needs the Unicode Character Database (%s; Debian: unicode-data)" % path)
        _NFKC_CF = {}
        with open(path, encoding="utf-8") as f:
            for line in f:
                data = line.split("#", 1)[0].strip()
                fields = [x.strip() for x in data.split(";")]
                if len(fields) < 3 or fields[1] != "NFKC_CF":
                    continue
                a, _, b = fields[0].partition("..")
                value = "".join(chr(int(x, 16)) for x in fields[2].split())
                for c in range(int(a, 16), int(b or a, 16) + 1):
                    _NFKC_CF[c] = value
    return _NFKC_CF


def fold(word_bytes):
    """Word folding of docs/format.md Appendix B: toNFKC_Casefold after NFD."""
    try:
        text = word_bytes.decode("utf-8")
    except UnicodeDecodeError:
        return word_bytes  # invalid UTF-8 is left unchanged
    if text.isascii():
        return text.lower().encode("ascii")
    table = _nfkc_cf()
    mapped = "".join(table.get(ord(ch), ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFC", mapped).encode("utf-8")


def valid_utf8(b):
    # Python's strict decoder follows RFC 3629: no overlong forms, no
    # surrogates, nothing above U+10FFFF.
    try:
        b.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


class Model:
    """A .dxe file validated as docs/format.md section 12.1 says."""

    def __init__(self, data, verify_digests=True):
        self.data = bytes(data)
        self.checks = 0
        self._open(verify_digests)

    def _check(self, ok, status, message):
        self.checks += 1
        if not ok:
            fail(status, message)

    # -- section 12.1, in order -------------------------------------------
    def _open(self, verify_digests):
        b = self.data
        n = len(b)
        c = self._check
        c(n >= 8 and b[:8] == MAGIC, NOT_A_MODEL, "bad magic bytes")
        c(n >= FIXED_HEADER, TRUNCATED, "file shorter than the fixed header")
        self.version_major = u16(b, 8)
        self.version_minor = u16(b, 10)
        c(self.version_major == 1, UNSUPPORTED_VERSION, "major version %d" % self.version_major)
        c(u32(b, 12) == ENDIAN_TAG, CORRUPT, "endianness tag 0x%08x" % u32(b, 12))
        self.section_count = u32(b, 20)
        c(1 <= self.section_count <= MAX_SECTIONS, CORRUPT, "section count %d" % self.section_count)
        self.header_size = u32(b, 16)
        c(self.header_size == FIXED_HEADER + ENTRY_SIZE * self.section_count, CORRUPT,
          "header size %d does not match %d sections" % (self.header_size, self.section_count))
        self.file_size = u64(b, 24)
        c(self.file_size <= n, TRUNCATED, "file_size %d but the file has %d bytes" % (self.file_size, n))
        c(self.file_size >= n, CORRUPT, "file_size %d but the file has %d bytes" % (self.file_size, n))
        c(self.header_size <= n, TRUNCATED, "file ends inside the section table")

        header = bytearray(b[:self.header_size])
        header[96:128] = bytes(32)
        c(sha256(bytes(header)) == b[96:128], DIGEST_MISMATCH, "header digest does not match")

        self.flags = u64(b, 32)
        c(self.flags & ~1 == 0, CORRUPT, "unknown header flags 0x%x" % self.flags)
        c(b[56:96] == bytes(40), CORRUPT, "reserved header bytes are not zero")
        self.lowercase = bool(self.flags & 1)
        V = self.V = u32(b, 40)
        D = self.D = u32(b, 44)
        self.geometry = u32(b, 48)
        self.quantization = u32(b, 52)
        c(1 <= V <= U32_MAX - 1, CORRUPT, "vocabulary size %d" % V)
        c(1 <= D <= MAX_DIMENSION, CORRUPT, "dimension %d" % D)
        c(self.geometry in GEOMETRIES, CORRUPT, "geometry %d" % self.geometry)
        c(self.quantization in QUANTIZATIONS, CORRUPT, "quantisation %d" % self.quantization)
        e = QUANTIZATIONS[self.quantization][1]

        # Section table.
        self.entries = []
        self.sections = {}
        for i in range(self.section_count):
            at = FIXED_HEADER + ENTRY_SIZE * i
            kind, eflags, offset, size = struct.unpack_from("<IIQQ", b, at)
            digest = b[at + 24:at + 56]
            label = "section %d (kind %d)" % (i, kind)
            c(eflags == 0 and b[at + 56:at + 64] == bytes(8), CORRUPT, label + ": reserved bits set")
            c(kind != 0, CORRUPT, label + ": kind 0")
            c(offset % ALIGNMENT == 0, CORRUPT, label + ": not 64-byte aligned")
            c(offset >= self.header_size, CORRUPT, label + ": overlaps the header")
            c(offset + size <= U64_MASK, CORRUPT, label + ": offset + size overflows")
            c(offset + size <= self.file_size, TRUNCATED, label + ": runs past the end of the file")
            if kind in KIND_NAMES:
                c(kind not in self.sections, CORRUPT, label + ": kind appears twice")
                c(size != 0, CORRUPT, label + ": empty")
                self.sections[kind] = (offset, size, digest)
            self.entries.append((kind, offset, size, digest))
        for i, (_, a_off, a_size, _) in enumerate(self.entries):
            for j, (_, b_off, _, _) in enumerate(self.entries):
                c(i == j or not (a_off <= b_off < a_off + a_size), CORRUPT,
                  "sections %d and %d overlap" % (i, j))
        # Nothing outside the sections but zero padding of less than 64
        # bytes before each section and after the last one (section 2).
        cursor = self.header_size
        gaps = []
        for _, off, size, _ in sorted(self.entries, key=lambda e: (e[1], -e[2])):
            if off > cursor:
                gaps.append((cursor, off))
            cursor = max(cursor, off + size)
        gaps.append((cursor, n))
        for begin, end in gaps:
            c(end - begin < ALIGNMENT, CORRUPT, "bytes %d..%d belong to no section" % (begin, end))
            c(b[begin:end] == bytes(end - begin), CORRUPT, "padding at %d is not zero" % begin)

        def require(kind, expected):
            c(kind in self.sections, CORRUPT, "required section '%s' is missing" % KIND_NAMES[kind])
            if expected is not None:
                size = self.sections[kind][1]
                c(size == expected, CORRUPT, "section '%s' has %d bytes, expected %d"
                  % (KIND_NAMES[kind], size, expected))

        require(1, None)
        require(2, 4 * (V + 1))
        require(3, None)
        require(4, None)
        require(5, V * D * e)
        require(7, 4 * V)
        if self.quantization == 3:
            require(6, 4 * V)
        else:
            c(6 not in self.sections, CORRUPT, "row scales in a model that is not int8")
        if 8 in self.sections:
            c(self.sections[8][1] == 8 * V, CORRUPT, "section 'frequencies' has the wrong size")
        if 9 in self.sections:
            c(self.sections[9][1] == 8 * D * D, CORRUPT, "section 'covariance' has the wrong size")
        if 10 in self.sections:  # search index (format 1.2), section 10.2
            at, size, _ = self.sections[10]
            c(size >= 64, CORRUPT, "search index shorter than its header")
            method, K, iD, iV = struct.unpack_from("<IIII", b, at)
            c(method == 1, CORRUPT, "search index method %d" % method)
            c(self.geometry == 1, CORRUPT, "search index in a model that is not Euclidean")
            c(iD == D and iV == V, CORRUPT, "search index dimension or vocabulary size differs")
            c(1 <= K <= V, CORRUPT, "search index has %d cells" % K)
            c(b[at + 32:at + 64] == bytes(32), CORRUPT, "search index reserved bytes are set")
            c(size == 64 + 4 * (K * D + 2 * K + 1 + V), CORRUPT, "search index has the wrong size")
            self.index_cells = K
        if 11 in self.sections:  # orderings (format 1.3), section 10.3
            at, size, _ = self.sections[11]
            c(size >= 64, CORRUPT, "orderings shorter than their header")
            method, K, oV = struct.unpack_from("<III", b, at)
            c(method == 1, CORRUPT, "orderings method %d" % method)
            c(1 <= K <= 64, CORRUPT, "orderings count %d" % K)
            c(oV == V, CORRUPT, "orderings vocabulary size differs")
            c(b[at + 24:at + 64] == bytes(40), CORRUPT, "orderings reserved bytes are set")
            c(size == 64 + 4 * K * V, CORRUPT, "orderings have the wrong size")
            self.orderings = (at + 64, K)

        strings_size = self.sections[3][1]
        c(strings_size <= U32_MAX, CORRUPT, "vocabulary strings exceed 4 GiB")
        self.offsets_at = self.sections[2][0]
        self.strings_at = self.sections[3][0]
        self.strings_size = strings_size
        c(u32(b, self.offsets_at) == 0 and u32(b, self.offsets_at + 4 * V) == strings_size, CORRUPT,
          "vocabulary offsets do not span the string section")
        hash_at, hash_size, _ = self.sections[4]
        C = hash_size // 4
        c(hash_size % 4 == 0 and C > V and C & (C - 1) == 0, CORRUPT,
          "hash table capacity must be a power of two above V")
        c(C <= 4 * V, CORRUPT, "hash table has more than 4 slots per word")
        # Sections of unknown kinds: at most 1 MiB + 4 x the sections whose
        # sizes the counts fix (every known kind but metadata and strings).
        counted = sum(size for kind, _, size, _ in self.entries if kind in KIND_NAMES and kind not in (1, 3))
        unknown = sum(size for kind, _, size, _ in self.entries if kind not in KIND_NAMES)
        c(unknown <= (1 << 20) + 4 * counted, CORRUPT,
          "sections of unknown kinds hold %d bytes, more than 1 MiB + 4 x %d" % (unknown, counted))
        self.hash_at = hash_at
        self.capacity = C

        meta_at, meta_size, meta_digest = self.sections[1]
        c(meta_size <= MAX_METADATA, CORRUPT, "metadata exceeds 1 MiB")
        meta = b[meta_at:meta_at + meta_size]
        c(sha256(meta) == meta_digest, DIGEST_MISMATCH, "metadata digest does not match")
        self.metadata = self._parse_metadata(meta)

        if verify_digests:
            for kind in (2, 3, 4, 5, 6, 7, 8, 9, 10):
                if kind in self.sections:
                    off, size, digest = self.sections[kind]
                    c(sha256(b[off:off + size]) == digest, DIGEST_MISMATCH,
                      "digest of section '%s' does not match" % KIND_NAMES[kind])
            for kind, off, size, digest in self.entries:  # unknown kinds: a reader MAY check
                if kind not in KIND_NAMES:
                    c(sha256(b[off:off + size]) == digest, DIGEST_MISMATCH,
                      "digest of the section of kind %d does not match" % kind)

    def _parse_metadata(self, m):
        c = self._check
        at = 0

        def take_u32():
            nonlocal at
            c(len(m) - at >= 4, CORRUPT, "metadata is truncated")
            v = u32(m, at)
            at += 4
            return v

        def take_string():
            nonlocal at
            length = take_u32()
            c(len(m) - at >= length, CORRUPT, "metadata string runs past its section")
            s = m[at:at + length]
            at += length
            c(valid_utf8(s) and b"\0" not in s, CORRUPT, "metadata string is not valid UTF-8 without NUL")
            return s.decode("utf-8")

        result = {}
        count = take_u32()
        for _ in range(count):
            key = take_string()
            value = take_string()
            c(key != "", CORRUPT, "metadata has an empty key")
            c(key not in result, CORRUPT, "metadata has a duplicate key %r" % key)
            result[key] = value
        c(m[at:] == bytes(len(m) - at), CORRUPT, "metadata padding is not zero")
        return result

    # -- section 12.2: per access ----------------------------------------
    def word(self, i):
        if i >= self.V:
            fail(NOT_FOUND, "word index %d out of range" % i)
        begin = u32(self.data, self.offsets_at + 4 * i)
        end = u32(self.data, self.offsets_at + 4 * (i + 1))
        if not (begin < end <= self.strings_size and end - begin >= 2):
            fail(CORRUPT, "offsets of word %d are invalid" % i)
        w = self.data[self.strings_at + begin:self.strings_at + end]
        if w[-1] != 0 or b"\0" in w[:-1] or not valid_utf8(w[:-1]):
            fail(CORRUPT, "word %d is not a NUL-terminated UTF-8 string" % i)
        return w[:-1]

    def find_exact(self, q):
        C = self.capacity
        p = fnv1a64(q) & (C - 1)
        for _ in range(C):
            s = u32(self.data, self.hash_at + 4 * p)
            if s == 0:
                return None
            if s > self.V:
                fail(CORRUPT, "hash slot %d holds %d > V" % (p, s))
            if self.word(s - 1) == q:
                return s - 1
            p = (p + 1) & (C - 1)
        return None

    def lookup(self, q):
        """Lookup as docs/format.md section 7.3 describes."""
        if self.lowercase:
            return self.find_exact(fold(q))
        hit = self.find_exact(q)
        if hit is None and fold(q) != q:
            hit = self.find_exact(fold(q))
        return hit

    def scale(self, i):
        if self.quantization != 3:
            return None
        return f32_at(self.data, self.sections[6][0] + 4 * i)

    def row(self, i):
        if i >= self.V:
            fail(NOT_FOUND, "row index %d out of range" % i)
        D = self.D
        at = self.sections[5][0]
        if self.quantization == 1:
            return list(struct.unpack_from("<%df" % D, self.data, at + 4 * D * i))
        if self.quantization == 2:
            return list(struct.unpack_from("<%de" % D, self.data, at + 2 * D * i))
        scale = self.scale(i)
        return [to_f32(scale * q) for q in struct.unpack_from("<%db" % D, self.data, at + D * i)]

    def raw_int8(self, i):
        return struct.unpack_from("<%db" % self.D, self.data, self.sections[5][0] + self.D * i)

    def norm(self, i):
        return f32_at(self.data, self.sections[7][0] + 4 * i)

    def frequency(self, i):
        if 8 not in self.sections:
            return 0
        return u64(self.data, self.sections[8][0] + 8 * i)

    # -- section 12.3: what dxtext leaves to writers ---------------------
    def check_everything(self):
        """Checks the writer requirements dxtext does not verify. Returns the
        number of norms that differ from a binary64 recomputation in the last
        bits (allowed, but not what the reference writer produces)."""
        c = self._check
        V, C = self.V, self.capacity
        words = [self.word(i) for i in range(V)]
        self.checks += V
        c(len(set(words)) == V, CORRUPT, "words are not unique")
        if self.lowercase:
            for w in words:
                c(fold(w) == w, CORRUPT, "word %r is not in folded form" % w.decode())

        # Hash table: each 1..V exactly once, every word reachable.
        slots = struct.unpack_from("<%dI" % C, self.data, self.hash_at)
        used = sorted(s for s in slots if s != 0)
        c(used == list(range(1, V + 1)), CORRUPT, "hash table does not hold each index exactly once")
        for i, w in enumerate(words):
            c(self.find_exact(w) == i, CORRUPT, "word %d is not reachable through the hash table" % i)

        inexact_norms = 0
        for i in range(V):
            if self.quantization == 3:
                s = self.scale(i)
                c(math.isfinite(s) and s >= 0, CORRUPT, "scale of row %d is %r" % (i, s))
                c(min(self.raw_int8(i)) >= -127, CORRUPT, "row %d holds -128" % i)
            x = self.row(i)
            c(all(math.isfinite(v) for v in x), CORRUPT, "row %d is not finite" % i)
            total = 0.0
            for v in x:
                total += v * v  # exact products of binary32 values, summed in binary64
            recomputed = to_f32(total)
            stored = self.norm(i)
            c(math.isfinite(stored), CORRUPT, "norm of row %d is not finite" % i)
            c(abs(stored - recomputed) <= 1e-6 * max(recomputed, 1e-30), CORRUPT,
              "norm of row %d is %r, recomputed %r" % (i, stored, recomputed))
            if stored != recomputed:
                inexact_norms += 1
            c(total == 0 or 1e-30 <= total <= 1e30, CORRUPT,
              "row %d has a squared norm of %r, outside 0 or [1e-30, 1e30]" % (i, total))
            if self.geometry == 2:
                c(total < 1.0, CORRUPT, "row %d lies outside the Poincare ball" % i)

        # Covariance (format 1.1): D x D binary64, finite, exactly symmetric.
        if 9 in self.sections:
            D = self.D
            cov = struct.unpack_from("<%dd" % (D * D), self.data, self.sections[9][0])
            for i in range(D):
                for j in range(D):
                    c(math.isfinite(cov[i * D + j]), CORRUPT, "covariance (%d, %d) is not finite" % (i, j))
                    c(cov[i * D + j] == cov[j * D + i], CORRUPT, "covariance is not symmetric at (%d, %d)" % (i, j))

        # Orderings (format 1.3): each a permutation of the vocabulary
        # (checked by dxtext on first use).
        if 11 in self.sections:
            at, K = self.orderings
            for L in range(K):
                words = struct.unpack_from("<%dI" % self.V, self.data, at + 4 * L * self.V)
                c(sorted(words) == list(range(self.V)), CORRUPT, "ordering %d is not a permutation" % L)

        # Search index (format 1.2): the cells partition the rows (checked
        # by dxtext on first use), centroids and norms finite, each norm the
        # binary64 sum of squares rounded once.
        if 10 in self.sections:
            D, V, K = self.D, self.V, self.index_cells
            at = self.sections[10][0] + 64
            centroids = struct.unpack_from("<%df" % (K * D), self.data, at)
            norms = struct.unpack_from("<%df" % K, self.data, at + 4 * K * D)
            offsets = struct.unpack_from("<%dI" % (K + 1), self.data, at + 4 * K * D + 4 * K)
            rows = struct.unpack_from("<%dI" % V, self.data, at + 4 * K * D + 8 * K + 4)
            c(offsets[0] == 0 and offsets[K] == V, CORRUPT, "search index offsets do not span the rows")
            c(all(offsets[k] <= offsets[k + 1] for k in range(K)), CORRUPT, "search index offsets decrease")
            c(sorted(rows) == list(range(V)), CORRUPT, "search index cells do not hold each row exactly once")
            for k in range(K):
                x = centroids[k * D:(k + 1) * D]
                c(all(math.isfinite(v) for v in x), CORRUPT, "centroid %d is not finite" % k)
                c(norms[k] == to_f32(sum(v * v for v in x)), CORRUPT, "norm of centroid %d is not its sum of squares" % k)

        # Padding: every byte outside the header and the sections is zero.
        covered = sorted((off, off + size) for _, off, size, _ in self.entries)
        at = self.header_size
        for begin, end in covered + [(self.file_size, self.file_size)]:
            if begin > at:
                c(self.data[at:begin] == bytes(begin - at), CORRUPT,
                  "padding at [%d, %d) is not zero" % (at, begin))
            at = max(at, end)
        return inexact_norms


def check_expected(model, path):
    """Compares dequantised rows with the GloVe source they were built from."""
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    seen = set()
    worst = 0.0
    checked = 0
    for number, line in enumerate(lines, 1):
        line = line.rstrip(b"\r")
        fields = line.split()
        if not fields:
            continue
        word, values = fields[0], [float(v) for v in fields[1:]]
        if len(values) != model.D:
            fail(CORRUPT, "%s:%d: %d values, the model has dimension %d" % (path, number, len(values), model.D))
        key = fold(word) if model.lowercase else word
        if key in seen:
            continue  # a later spelling that folds to an earlier word is dropped by the converter
        seen.add(key)
        i = model.lookup(word)
        if i is None:
            fail(CORRUPT, "%s:%d: %r is not in the model" % (path, number, word.decode()))
        x = model.row(i)
        scale = model.scale(i)
        for j, (got, want) in enumerate(zip(x, values)):
            if model.quantization == 3:
                tolerance = scale / 2 + 1e-6
            elif model.quantization == 2:
                tolerance = abs(want) * 2.0 ** -11 + 2.0 ** -25
            else:
                tolerance = abs(want) * 2.0 ** -24
            error = abs(got - want)
            worst = max(worst, error)
            if error > tolerance:
                fail(CORRUPT, "%s:%d: %r[%d] is %r, source %r (tolerance %g)"
                     % (path, number, word.decode(), j, got, want, tolerance))
        checked += 1
    if checked != model.V:
        fail(CORRUPT, "the source has %d distinct words, the model %d" % (checked, model.V))
    return {"source": path, "words_checked": checked, "max_abs_error": worst}


def check_rejects(data):
    """Damages copies of a valid file and checks the status of each (the same
    damage as tests/unit/test_model_golden.cpp)."""
    base = Model(data)
    matrix_at = base.sections[5][0]
    metadata_at = base.sections[1][0]

    def rehash(b):
        h = bytearray(b[:u32(b, 16)])
        h[96:128] = bytes(32)
        b[96:128] = sha256(bytes(h))

    def patch(at, value):
        def f(b):
            b[at] = value
        return f

    def xor(at):
        def f(b):
            b[at] ^= 1
        return f

    def with_rehash(g):
        def f(b):
            g(b)
            rehash(b)
        return f

    def relabel_frequencies(kind):
        def f(b):
            for i in range(u32(b, 20)):
                if u32(b, 128 + 64 * i) == 8:
                    struct.pack_into("<I", b, 128 + 64 * i, kind)
        return f

    def cut(n):
        def f(b):
            del b[n:]
        return f

    def cut_end(b):
        del b[len(b) - 64:]

    def append(b):
        b.extend(bytes(64))

    def append_declared(b):  # a sparse tail the header admits to
        b.extend(bytes(64))
        struct.pack_into("<Q", b, 24, len(b))
        rehash(b)

    def set_padding(b):
        b[len(b) - 1] = 1  # the golden and demo files end in padding

    limit = (1 << 20) + 4 * sum(size for kind, _, size, _ in base.entries if kind in KIND_NAMES and kind not in (1, 3))

    def unknown_section(size):  # one more entry, kind 100 (unknown), after the last section
        def f(b):
            count, header_size = u32(b, 20), u32(b, 16)
            b[header_size:header_size] = bytes(64)
            for i in range(count):
                struct.pack_into("<Q", b, 128 + 64 * i + 8, u64(b, 128 + 64 * i + 8) + 64)
            struct.pack_into("<II", b, 16, header_size + 64, count + 1)
            b.extend(bytes(-len(b) % 64))
            offset = len(b)
            b.extend(bytes(size))
            struct.pack_into("<IIQQ", b, header_size, 100, 0, offset, size)
            b[header_size + 24:header_size + 56] = sha256(bytes(b[offset:offset + size]))
            b.extend(bytes(-len(b) % 64))
            struct.pack_into("<Q", b, 24, len(b))
            rehash(b)
        return f

    cases = [
        ("intact", lambda b: None, True, OK),
        ("bad magic", patch(1, ord("d")), False, NOT_A_MODEL),
        ("cut to 100 bytes", cut(100), False, TRUNCATED),
        ("major version 2", patch(8, 2), False, UNSUPPORTED_VERSION),
        ("last 64 bytes cut", cut_end, False, TRUNCATED),
        ("64 bytes appended", append, False, CORRUPT),
        ("64 zero bytes appended, file_size fixed", append_declared, False, CORRUPT),
        ("last padding byte set", set_padding, False, CORRUPT),
        ("reserved header byte set", patch(60, 1), False, DIGEST_MISMATCH),
        ("reserved header byte set, digest fixed", with_rehash(patch(60, 1)), False, CORRUPT),
        ("unknown flag bit, digest fixed", with_rehash(patch(32, 3)), False, CORRUPT),
        ("matrix byte flipped, not verified", xor(matrix_at), False, OK),
        ("matrix byte flipped, verified", xor(matrix_at), True, DIGEST_MISMATCH),
        ("metadata byte flipped", xor(metadata_at + 8), False, DIGEST_MISMATCH),
        ("unknown section kind, digest fixed", with_rehash(relabel_frequencies(100)), True, OK),
        ("covariance of the wrong size, digest fixed", with_rehash(relabel_frequencies(9)), False, CORRUPT),
        ("unknown section kind at the size limit", unknown_section(limit), True, OK),
        ("unknown section kind one byte over the limit", unknown_section(limit + 1), False, CORRUPT),
    ]
    results = []
    for name, damage, verify, expected in cases:
        b = bytearray(data)
        damage(b)
        try:
            Model(bytes(b), verify_digests=verify)
            got = OK
        except DxeError as e:
            got = e.status
        if got != expected:
            fail(got if got != OK else CORRUPT,
                 "damaged copy '%s' gave %s, expected %s" % (name, got, expected))
        results.append({"case": name, "status": got})
    return results


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("--expect", help="GloVe text the model was built from")
    parser.add_argument("--check-rejects", action="store_true")
    args = parser.parse_args(argv)
    try:
        with open(args.model, "rb") as f:
            data = f.read()
        model = Model(data, verify_digests=True)
        inexact_norms = model.check_everything()
        summary = {
            "file": args.model,
            "file_size": model.file_size,
            "fingerprint_sha256": hashlib.sha256(data).hexdigest(),
            "format_version": "%d.%d" % (model.version_major, model.version_minor),
            "vocabulary_size": model.V,
            "dimension": model.D,
            "geometry": GEOMETRIES[model.geometry],
            "quantization": QUANTIZATIONS[model.quantization][0],
            "lowercase": model.lowercase,
            "has_frequencies": 8 in model.sections,
            "has_covariance": 9 in model.sections,
            "search_index_cells": getattr(model, "index_cells", None),
            "hash_capacity": model.capacity,
            "sections": [{"kind": k, "name": KIND_NAMES.get(k, "unknown"), "offset": o, "size": s}
                         for k, o, s, _ in model.entries],
            "metadata": model.metadata,
            "words": [{"index": i, "word": model.word(i).decode("utf-8"),
                       "frequency": model.frequency(i), "scale": model.scale(i),
                       "norm": model.norm(i), "row": model.row(i)} for i in range(model.V)],
            "norms_bit_exact": inexact_norms == 0,
        }
        if args.expect:
            summary["expected"] = check_expected(model, args.expect)
        if args.check_rejects:
            summary["rejects"] = check_rejects(data)
        summary["checks"] = model.checks
    except DxeError as e:
        print("%s: %s: %s" % (args.model, e.status, e), file=sys.stderr)
        return 1
    except OSError as e:
        print("%s: DXT_E_IO: %s" % (args.model, e), file=sys.stderr)
        return 1
    print(json.dumps(summary, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
