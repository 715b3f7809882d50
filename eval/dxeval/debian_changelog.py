# SPDX-License-Identifier: Apache-2.0
"""Reading Debian changelogs and machine-readable copyright files.

- `entries(text)`: the entries of a debian/changelog (Debian Policy §4.4):
  a header line `package (version) distributions; urgency=...`, body lines,
  and a trailer ` -- Name <email>  date` naming the person who wrote and
  signed the entry.
- `debian_licence(text)`: the licence of the packaging (the `Files:`
  stanza that covers debian/*, else the `Files: *` stanza) of a copyright
  file in the DEP-5 format; None when the file is not in that format.
- `is_permissive(licence)`: whether a DEP-5 licence expression allows the
  text to be redistributed in a slice without copyleft terms.
"""
import fnmatch
import re
import unicodedata

HEADER = re.compile(r"^(\S+) \(([^()\s]+)\)[^;]*;")
TRAILER = re.compile(r"^ -- (.+?) <([^<>]*)>\s+(\S.*)$")
CONTRIBUTOR = re.compile(r"^\s+\[ ([^\]]+?) \]\s*$")

# Licences of the packaging that a corpus slice may carry (SPDX and DEP-5
# short names, compared case-insensitively without trailing "+" or "-only").
PERMISSIVE = {
    "expat", "mit", "mit-0", "x11", "bsd-2-clause", "bsd-3-clause", "bsd-2", "bsd-3", "bsd-0-clause", "0bsd",
    "isc", "apache-2.0", "apache-2", "apache", "zlib", "public-domain", "publicdomain", "cc0-1.0", "cc0",
    "unlicense", "psf-2", "psf-2.0", "bsl-1.0", "boost-1.0", "wtfpl", "fsfap", "fsfap-no-warranty-disclaimer",
    "fsful", "fsfullr", "permissive", "curl", "ncsa", "upl-1.0", "python-2.0", "x11-distribute-modifications-variant",
}


class Entry:
    __slots__ = ("package", "version", "body", "name", "email", "date")

    def __init__(self, package, version, body, name, email, date):
        self.package, self.version, self.body = package, version, body
        self.name, self.email, self.date = name, email, date

    def words(self):
        return len(self.text().split())

    def text(self):
        """The body lines between the header and the trailer, verbatim,
        without the blank lines around them."""
        lines = list(self.body)
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        return "\n".join(line.rstrip() for line in lines)

    def contributors(self):
        """Names in `[ Name ]` lines: parts of the entry written by others
        than the signer (team changelogs), or by the signer."""
        return [m.group(1).strip() for m in map(CONTRIBUTOR.match, self.body) if m]


def entries(text):
    """The entries of a Debian changelog, newest first. Lines outside an
    entry (old-format trailers, vim modelines, local variables) are skipped;
    an entry without its trailer is dropped."""
    out, current = [], None
    for line in text.splitlines():
        m = HEADER.match(line)
        if m and not line.startswith(" "):
            current = (m.group(1), m.group(2), [])
            continue
        if current is None:
            continue
        t = TRAILER.match(line)
        if t:
            out.append(Entry(current[0], current[1], current[2], t.group(1).strip(), t.group(2).strip(),
                             t.group(3).strip()))
            current = None
            continue
        current[2].append(line)
    return out


def name_key(name):
    """A signer's name folded for grouping: NFKD without marks, case-folded,
    quotes and spacing normalised (`Ondřej Nový` and `Ondrej Novy` are one)."""
    s = unicodedata.normalize("NFKD", name)
    s = "".join(c for c in s if not unicodedata.combining(c))
    s = re.sub(r"[\"'`]", "", s).casefold()
    return " ".join(s.replace(".", " ").split())


def _stanzas(text):
    stanzas, current, key = [], {}, None
    for line in text.splitlines():
        if not line.strip():
            if current:
                stanzas.append(current)
            current, key = {}, None
            continue
        if line[0] in " \t":
            if key is not None:
                current[key] += "\n" + line.strip()
            continue
        k, sep, v = line.partition(":")
        if not sep:
            continue
        key = k.strip().lower()
        current[key] = v.strip()
    if current:
        stanzas.append(current)
    return stanzas


def debian_licence(text):
    """The short licence name of the packaging in a DEP-5 copyright file:
    the last `Files:` stanza matching debian/changelog (DEP-5: the last
    match wins), else None if the file is not machine-readable."""
    stanzas = _stanzas(text)
    fmt = stanzas[0].get("format", "").lower() if stanzas else ""
    if "dep5" not in fmt and "copyright-format" not in fmt:
        return None
    licence = None
    for s in stanzas[1:]:
        if "files" not in s or "license" not in s:
            continue
        patterns = s["files"].split()
        if any(fnmatch.fnmatchcase("debian/changelog", p) for p in patterns):
            licence = s["license"].split("\n", 1)[0].strip()
    return licence


def is_permissive(licence):
    """True when every alternative joined by `and` (or `,`) has a permissive
    option among those joined by `or`."""
    if not licence:
        return False
    expr = licence.lower().replace("(", " ").replace(")", " ")
    for conjunct in re.split(r"\band\b|,", expr):
        options = [o.strip() for o in re.split(r"\bor\b", conjunct) if o.strip()]
        if not options:
            return False
        if not any(re.sub(r"(\+|-only|-or-later)$", "", o.split()[0]) in PERMISSIVE for o in options):
            return False
    return True


BULLET = re.compile(r"^\s{2,4}[*+-] ")


def parts(entry):
    """(author, lines) parts of an entry: in team changelogs a `[ Name ]`
    line starts the changes that Name wrote (the convention of dch and
    git-buildpackage); lines before any such line are the signer's."""
    out = [(entry.name, [])]
    for line in entry.text().split("\n"):
        m = CONTRIBUTOR.match(line)
        if m:
            out.append((m.group(1).strip(), []))
        else:
            out[-1][1].append(line)
    return [(who, lines) for who, lines in out if " ".join(lines).strip()]


def blocks(lines):
    """Lines cut before each top-level change (`  * ...`), each block with
    its continuation and sub-item lines, verbatim."""
    out = []
    for line in lines:
        if not line.strip() and not out:
            continue
        if not out or (BULLET.match(line) and not line.startswith("     ")):
            out.append([line])
        else:
            out[-1].append(line)
    return ["\n".join(b).rstrip() for b in out if " ".join(b).strip()]


def texts(entries_newest_first, min_words=60):
    """(author, text) pairs of one changelog. Each change is attributed to
    its writer (the signer, or the Name of a `[ Name ]` part); runs of
    consecutive changes by one writer, oldest entry first, are cut into
    texts of at least min_words words at change boundaries (a run's
    remainder is joined to its last text, or dropped when the run has none).
    Entries whose signer is not a person (BOTS) are left out and break a
    run, as does a change by someone else."""
    runs = []
    for e in reversed(entries_newest_first):
        if name_key(e.name) in BOTS:
            runs.append(None)
            continue
        for who, lines in parts(e):
            if name_key(who) in BOTS:
                runs.append(None)
                continue
            bs = blocks(lines)
            if not bs:
                continue
            if runs and runs[-1] is not None and name_key(runs[-1][0]) == name_key(who):
                runs[-1][1].append(bs)
            else:
                runs.append((who, [bs]))
    out = []
    for run in runs:
        if run is None:
            continue
        who, groups = run
        pieces, current, n = [], [], 0
        for bs in groups:
            for i, b in enumerate(bs):
                # A blank line between entries, none between an entry's changes.
                current.append(("\n\n" if current and i == 0 else "\n" if current else "") + b)
                n += len(b.split())
                if n >= min_words:
                    pieces.append("".join(current))
                    current, n = [], 0
        if current and pieces:
            pieces[-1] += "\n\n" + "".join(current).lstrip("\n")
        out.extend((who, p) for p in pieces)
    return out


# Trailers and parts that are not a person writing (tools that commit on
# their own).
BOTS = {"debian janitor"}
