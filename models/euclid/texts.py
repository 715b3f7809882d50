# SPDX-License-Identifier: Apache-2.0
"""Plain English text, one paragraph, sentence or gloss per line, from the recipe's sources.

    python3 texts.py KIND SOURCE OUT.txt      (prints the number of lines written)

KIND is one of: wordnet, sotu, moby, austen, web (their own formats) or html (SOURCE is
"DIR REGEX": the prose paragraphs of every matching HTML page under DIR, code and navigation
skipped, each distinct paragraph once)."""
import html, html.parser, json, os, re, struct, sys, zlib


def write(lines, path):
    n = 0
    with open(path + '.tmp', 'w', encoding='utf-8', newline='\n') as f:
        for line in lines:
            # U+2019 and ' are both apostrophes to the tokenizer: count them as one word
            line = re.sub(r'\s+', ' ', line.replace('\u2019', "'")).strip()
            if line:
                f.write(line + '\n')
                n += 1
    os.replace(path + '.tmp', path)
    return n


def paragraphs(text):
    for para in re.split(r'\n\s*\n', text):
        yield ' '.join(para.split())


# WordNet: "lemma, lemma: gloss; "example""
def wordnet(d):
    for pos in ('noun', 'verb', 'adj', 'adv'):
        with open(os.path.join(d, 'data.' + pos), encoding='utf-8', errors='replace') as f:
            for line in f:
                if line.startswith('  '):
                    continue  # licence header
                fields, _, gloss = line.partition('|')
                fs = fields.split()
                n = int(fs[3], 16)
                words = [re.sub(r'\([a-z]+\)$', '', w).replace('_', ' ') for w in fs[4:4 + 2 * n:2]]
                yield ', '.join(words) + ': ' + gloss.strip()


def sotu(d):
    for name in sorted(os.listdir(d)):
        if name.endswith('.txt'):
            with open(os.path.join(d, name), encoding='utf-8') as f:
                for para in paragraphs(f.read()):  # a speech is one paragraph: split it into sentences
                    yield from re.split(r'(?<=[.!?])\s+(?=["\u201c(]?[A-Z])', para)


def moby(d):
    with open(os.path.join(d, 'file_list.json'), encoding='utf-8') as f:
        names = json.load(f)
    for name in names:
        if name != 'contents.txt':
            with open(os.path.join(d, name), encoding='utf-8') as f:
                yield from paragraphs(f.read())


def r_strings(blob):
    """The character vector in one serialised R object (XDR format 2 or 3)."""
    if blob[:2] != b'X\n':
        raise ValueError('not an XDR serialisation')
    p = 2
    version = struct.unpack('>i', blob[p:p + 4])[0]
    p += 12
    if version == 3:
        p += 4 + struct.unpack('>i', blob[p:p + 4])[0]
    flags, n = struct.unpack('>ii', blob[p:p + 8])
    if flags & 0xff != 16:
        raise ValueError('not a character vector')
    p += 8
    for _ in range(n):
        length = struct.unpack('>ii', blob[p:p + 8])[1]
        p += 8
        if length < 0:
            yield ''  # NA
            continue
        yield blob[p:p + length].decode('utf-8')
        p += length


def austen(rdb_path):
    """The six novels: an R lazy-load database, one zlib-compressed character vector each."""
    with open(rdb_path, 'rb') as f:
        rdb = f.read()
    pos = 0
    while pos < len(rdb):
        size = struct.unpack('>I', rdb[pos:pos + 4])[0]
        z = zlib.decompressobj()
        blob = z.decompress(rdb[pos + 4:]) + z.flush()
        if len(blob) != size:
            raise ValueError('bad block in ' + rdb_path)
        pos = len(rdb) - len(z.unused_data)
        yield from paragraphs('\n'.join(r_strings(blob)))


def web(d):
    """World English Bible: a SWORD zText module (zlib blocks of OSIS XML)."""
    for t in ('ot', 'nt'):
        with open(os.path.join(d, t + '.bzs'), 'rb') as f:
            bzs = f.read()
        with open(os.path.join(d, t + '.bzz'), 'rb') as f:
            bzz = f.read()
        for i in range(len(bzs) // 12):
            off, size, usize = struct.unpack('<III', bzs[12 * i:12 * i + 12])
            text = zlib.decompress(bzz[off:off + size]).decode('utf-8')
            if len(text.encode('utf-8')) != usize:
                raise ValueError('bad block in ' + d)
            text = re.sub(r'<note\b.*?</note>', ' ', text, flags=re.S)  # footnotes
            text = re.sub(r'<(?:div|chapter|title|/title|l|/l|lg|/lg)\b[^>]*>', '\n', text)
            text = re.sub(r'<[^>]*>', '', text)  # Strong's numbers live in attributes
            for line in text.split('\n'):
                yield html.unescape(line)




# ---------------------------------------------------------------- HTML documentation
BLOCK = {'p', 'li', 'dd', 'dt', 'td', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'div', 'section',
         'br', 'tr', 'table', 'ul', 'ol', 'dl', 'caption', 'figcaption', 'title', 'article', 'header', 'footer'}
SKIP = {'script', 'style', 'pre', 'code', 'tt', 'kbd', 'samp', 'var', 'nav', 'head', 'math', 'svg', 'noscript',
        'button', 'select', 'textarea'}
SKIP_CLASSES = ('highlight', 'sphinxsidebar', 'related', 'footer', 'navigation', 'toc', 'breadcrumb', 'header',
                'navheader', 'navfooter', 'synopsis', 'programlisting', 'screen', 'literal', 'headerlink',
                'sig', 'descname', 'descclassname', 'cmdsynopsis', 'funcsynopsis', 'nav', 'menu', 'sidebar',
                'copyright', 'searchbox', 'topnav', 'bottomnav', 'codehilite')
VOID = {'br', 'img', 'hr', 'meta', 'link', 'input', 'area', 'base', 'col', 'embed', 'source', 'track', 'wbr'}


class Extractor(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []      # (tag, skipping) for open non-void elements
        self.skip = 0
        self.buf = []
        self.out = []

    def flush(self):
        text = ' '.join(''.join(self.buf).split())
        if text:
            self.out.append(text)
        self.buf = []

    def handle_starttag(self, tag, attrs):
        if tag in BLOCK:
            self.flush()
        if tag in VOID:
            return
        cls = ' '.join(v or '' for k, v in attrs if k in ('class', 'role', 'id')).lower()
        skipping = tag in SKIP or any(c in cls for c in SKIP_CLASSES)
        self.stack.append((tag, skipping))
        if skipping:
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        # pop to the matching open tag (HTML in the wild is not always well nested)
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                for _, s in self.stack[i:]:
                    if s:
                        self.skip -= 1
                del self.stack[i:]
                break
        if tag in BLOCK:
            self.flush()

    def handle_data(self, data):
        if not self.skip:
            self.buf.append(data)


def html_paragraphs(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        doc = f.read()
    e = Extractor()
    e.feed(doc)
    e.close()
    e.flush()
    for line in e.out:
        words = line.split()
        # prose only: enough words, mostly alphabetic
        if len(words) < 4:
            continue
        alpha = sum(1 for w in words if re.fullmatch(r"[A-Za-z][a-z'’]*[,.;:!?]?", w))
        if alpha < 0.6 * len(words):
            continue
        yield line


def files(root, pattern):
    rx = re.compile(pattern)
    for d, dirs, names in os.walk(root):
        dirs.sort()
        for n in sorted(names):
            p = os.path.join(d, n)
            if rx.search(p):
                yield p




def html_pages(spec):
    root, pattern = spec.split(' ', 1)
    seen = set()
    for p in files(root, pattern):
        for line in html_paragraphs(p):
            if line not in seen:   # navigation text and boilerplate repeat across pages
                seen.add(line)
                yield line


KINDS = {'wordnet': wordnet, 'sotu': sotu, 'moby': moby, 'austen': austen, 'web': web, 'html': html_pages}

if __name__ == '__main__':
    kind, src, dst = sys.argv[1:4]
    print(write(KINDS[kind](src), dst))
