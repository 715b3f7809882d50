# SPDX-License-Identifier: Apache-2.0
"""The training corpus: tokenised lines of every source in a fixed pseudo-random order (by their
SHA-256, so that no source comes last in every pass), and the word counts.

    python3 corpus.py OUT_DIR TOKENISED.txt...      writes OUT_DIR/corpus.txt and OUT_DIR/counts.txt
"""
import collections, hashlib, os, sys


def main():
    out, sources = sys.argv[1], sys.argv[2:]
    lines = []
    for path in sources:
        with open(path, encoding='utf-8') as f:
            lines.extend(l.rstrip('\n') for l in f if l.strip())
    lines.sort(key=lambda l: (hashlib.sha256(l.encode('utf-8')).digest(), l))
    counts = collections.Counter(w for l in lines for w in l.split(' ') if w)
    with open(os.path.join(out, 'corpus.txt.tmp'), 'w', encoding='utf-8', newline='\n') as f:
        f.writelines(l + '\n' for l in lines)
    with open(os.path.join(out, 'counts.txt.tmp'), 'w', encoding='utf-8', newline='\n') as f:
        f.writelines(f'{w} {c}\n' for w, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].encode('utf-8'))))
    os.replace(os.path.join(out, 'corpus.txt.tmp'), os.path.join(out, 'corpus.txt'))
    os.replace(os.path.join(out, 'counts.txt.tmp'), os.path.join(out, 'counts.txt'))
    print(len(lines), sum(counts.values()), len(counts))


if __name__ == '__main__':
    main()
