# SPDX-License-Identifier: Apache-2.0
"""Reader for CMU Sphinx trie language models (the "Trie Language Model" binary format of
sphinxbase's lm_trie, as in Debian's pocketsphinx-en-us en-us.lm.bin), written from the format's
description: a header, 16-bit quantisation tables, the unigrams, then bit-packed bigram and
trigram arrays, then the word strings.

The trie is keyed by the predicted word first: the bigrams stored under unigram w are the
histories h of P(w | h), and the trigrams under bigram (h, w) are the earlier words g of
P(w | g h). forward_tables() turns that into successor lists. Probabilities are stored as
logarithms to base 1.0001 (sphinxbase's logmath)."""
import struct
import numpy as np

HEADER = b'Trie Language Model'
LOG_BASE = np.log(1.0001)


def _bits(v):
    return int(v).bit_length()


def _fields(mem, n, stride, spec):
    """Unsigned little-endian bit fields of n fixed-size records: spec is [(bit offset, width)]."""
    padded = np.concatenate([mem, np.zeros(16, np.uint8)])
    start = np.arange(n, dtype=np.int64) * stride
    out = []
    for shift, width in spec:
        off = start + shift
        byte = off >> 3
        val = np.zeros(n, dtype=np.uint64)
        for b in range(8):
            val |= padded[byte + b].astype(np.uint64) << np.uint64(8 * b)
        val = (val >> (off & 7).astype(np.uint64)) & np.uint64((1 << width) - 1)
        out.append(val.astype(np.int64))
    return out


def read(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:len(HEADER)] != HEADER:
        raise ValueError('%s: not a sphinx trie language model' % path)
    p = len(HEADER)
    order = data[p]
    p += 1
    if order != 3:
        raise ValueError('%s: order %d, only trigram models are read' % (path, order))
    counts = struct.unpack_from('<3I', data, p)
    p += 12 + 4                                   # counts, then an unused quantiser-type word
    tables = np.frombuffer(data, dtype='<f4', count=3 * 65536, offset=p)
    p += tables.nbytes
    bigram_prob_bins, bigram_backoff_bins, trigram_prob_bins = tables[:65536], tables[65536:131072], tables[131072:]
    uni = np.frombuffer(data, dtype=np.dtype([('prob', '<f4'), ('backoff', '<f4'), ('next', '<u4')]),
                        count=counts[0] + 1, offset=p)
    p += uni.nbytes
    word_bits = _bits(counts[0])
    bigram_stride = word_bits + 32 + _bits(counts[2])    # word, backoff code, probability code, pointer
    trigram_stride = word_bits + 16                      # word, probability code
    bigram_size = ((1 + counts[1]) * bigram_stride + 7) // 8 + 8
    trigram_size = ((1 + counts[2]) * trigram_stride + 7) // 8 + 8
    bigram_mem = np.frombuffer(data, dtype=np.uint8, count=bigram_size, offset=p)
    p += bigram_size
    trigram_mem = np.frombuffer(data, dtype=np.uint8, count=trigram_size, offset=p)
    p += trigram_size
    strings_size = struct.unpack_from('<i', data, p)[0]
    p += 4
    words = [w.decode('utf-8') for w in data[p:p + strings_size].split(b'\0')[:-1]]
    if len(words) != counts[0] or p + strings_size != len(data):
        raise ValueError('%s: word strings do not match the header' % path)
    # the header's counts may exceed what was stored: the pointers tell how many entries are real
    n_bigrams = int(uni['next'][counts[0]])
    b_word, b_backoff, b_prob, b_next = _fields(bigram_mem, n_bigrams + 1, bigram_stride,
                                                [(0, word_bits), (word_bits, 16), (word_bits + 16, 16),
                                                 (word_bits + 32, _bits(counts[2]))])
    n_trigrams = int(b_next[n_bigrams])
    if np.any(np.diff(b_next) < 0) or np.any(np.diff(uni['next'].astype(np.int64)) < 0):
        raise ValueError('%s: pointers out of order' % path)
    t_word, t_prob = _fields(trigram_mem, n_trigrams, trigram_stride, [(0, word_bits), (word_bits, 16)])
    # backoff weights (natural logs, as the probabilities): a unigram's is that of the history w,
    # a bigram's (stored under w with word h) that of the history "h w"
    return {'words': words, 'unigram_logprob': uni['prob'][:counts[0]].astype(np.float64) * LOG_BASE,
            'unigram_backoff': uni['backoff'][:counts[0]].astype(np.float64) * LOG_BASE,
            'unigram_next': uni['next'].astype(np.int64),
            'bigram_word': b_word[:n_bigrams], 'bigram_logprob': bigram_prob_bins[b_prob[:n_bigrams]].astype(np.float64) * LOG_BASE,
            'bigram_backoff': bigram_backoff_bins[b_backoff[:n_bigrams]].astype(np.float64) * LOG_BASE,
            'bigram_next': b_next, 'trigram_word': t_word,
            'trigram_logprob': trigram_prob_bins[t_prob].astype(np.float64) * LOG_BASE}


def forward_tables(lm):
    """Successors in reading order: unigram probabilities, bigrams (h, w, P(w|h)) and trigrams
    (g, h, w, P(w|g h)), all natural-log probabilities exponentiated."""
    V = len(lm['words'])
    w_of_bigram = np.repeat(np.arange(V, dtype=np.int64), np.diff(lm['unigram_next']))
    h_of_bigram = lm['bigram_word']
    bigram_of_trigram = np.repeat(np.arange(len(h_of_bigram), dtype=np.int64), np.diff(lm['bigram_next']))
    return {'unigram': np.exp(lm['unigram_logprob']),
            'bigram': (h_of_bigram, w_of_bigram, np.exp(lm['bigram_logprob'])),
            'trigram': (lm['trigram_word'], h_of_bigram[bigram_of_trigram], w_of_bigram[bigram_of_trigram],
                        np.exp(lm['trigram_logprob']))}
