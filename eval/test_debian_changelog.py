#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the changelog and copyright readers behind the Debian changelog
corpus (eval/dxeval/debian_changelog.py, eval/prepare_changelogs.py) on
hand-written files: entries and their signers, `[ Name ]` parts, texts cut
at change boundaries, the packaging licence of DEP-5 copyright files, which
licences count as permissive, and signers joined by their e-mail address.

  python3 eval/test_debian_changelog.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from dxeval import debian_changelog as dc  # noqa: E402
from prepare_changelogs import people  # noqa: E402

CHANGELOG = """\
foo (1.2-1) unstable; urgency=medium

  [ Bob Builder ]
  * New upstream release (Closes: #1001).
    Thanks to Carol for the patch.

  [ Alice Example ]
  * d/control: bump Standards-Version, no changes needed.

 -- Alice Example <alice@example.org>  Mon, 02 Jan 2023 10:00:00 +0100

foo (1.1-2) unstable; urgency=low

  * Fix the watch file: https://example.org/foo/releases
  * Build with -O2 on every architecture, not only on amd64 and arm64; this
    had been broken since 1.0.
  * Drop an old patch.

 -- Alíce Exâmple <alice@example.org>  Sun, 01 Jan 2023 09:00:00 +0100

foo (1.1-1) unstable; urgency=low

  * Initial release.

 -- Debian Janitor <janitor@jelmer.uk>  Sat, 31 Dec 2022 08:00:00 +0000

Local variables:
mode: debian-changelog
End:
"""


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def test_entries():
    es = dc.entries(CHANGELOG)
    check(len(es) == 3, f"3 entries, got {len(es)}")
    check([e.version for e in es] == ["1.2-1", "1.1-2", "1.1-1"], "versions")
    check(es[0].name == "Alice Example" and es[0].email == "alice@example.org", "signer")
    check(es[0].contributors() == ["Bob Builder", "Alice Example"], "contributors")
    check(" -- " not in es[1].text() and "Alice" not in es[1].text(), "the signature line is not in the text")
    check(es[1].text().startswith("  * Fix the watch file: https://example.org/foo/releases"), "verbatim body")


def test_parts_and_texts():
    es = dc.entries(CHANGELOG)
    parts = dc.parts(es[0])
    check([who for who, _ in parts] == ["Bob Builder", "Alice Example"], "parts by writer")
    check("Thanks to Carol" in "\n".join(parts[0][1]), "Bob's part keeps the thanks")
    # Chronologically: the Janitor's entry (left out), Alice's 1.1-2 (6 +
    # 24 + 5 words), Bob's part of 1.2-1 (12 words), Alice's part (8 words),
    # which is a new run because Bob's change came between.
    texts = dc.texts(es, min_words=10)
    who = [dc.name_key(w) for w, _ in texts]
    check("Initial release" not in "".join(t for _, t in texts), "the bot's entry is in no text")
    check(who == ["alice example", "bob builder"], f"runs and cuts: {who}")
    first = texts[0][1]
    check(first.startswith("  * Fix the watch file") and first.endswith("  * Drop an old patch."),
          f"oldest first, the run's short remainder joined to its last text: {first!r}")
    check("Standards-Version" not in "".join(t for _, t in texts), "a run shorter than min_words is dropped")
    texts = dc.texts(es, min_words=5)
    check([dc.name_key(w) for w, _ in texts] == ["alice example"] * 3 + ["bob builder", "alice example"],
          f"cut at every change once min_words is reached: {texts}")
    check(texts[0][1] == "  * Fix the watch file: https://example.org/foo/releases", "a change verbatim")


def test_people():
    person = people(dc.entries(CHANGELOG))
    check(person("Alice Example") == person("Alíce Exâmple"), "names folded and joined")
    check(person("Alice Example") != person("Bob Builder"), "different people stay apart")
    es = dc.entries(CHANGELOG.replace("Alíce Exâmple", "Yadd"))
    person = people(es)
    check(person("Yadd") == person("Alice Example"), "one address, two names: one person")


COPYRIGHT = """\
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: foo

Files: *
Copyright: 2020 Upstream
License: GPL-3+

Files: debian/*
Copyright: 2022 Alice Example
License: {debian}
 Permission is hereby granted...

Files: debian/patches/*
Copyright: 2022 Bob
License: GPL-3+
"""


def test_licences():
    check(dc.debian_licence(COPYRIGHT.format(debian="Expat")) == "Expat", "debian/* stanza")
    no_debian = COPYRIGHT.split("Files: debian/*")[0]
    check(dc.debian_licence(no_debian) == "GPL-3+", "whole-package licence without a debian stanza")
    check(dc.debian_licence("This package was debianized by someone.\nGPL.\n") is None, "not DEP-5")
    for lic in ["Expat", "MIT", "BSD-3-clause", "Apache-2.0", "ISC", "public-domain", "CC0-1.0", "Zlib",
                "MIT or Apache-2.0", "GPL-2+ or Expat", "Apache-2.0 and BSD-3-Clause"]:
        check(dc.is_permissive(lic), f"{lic} is permissive")
    for lic in ["GPL-2+", "LGPL-2.1+", "Artistic or GPL-1+", "MPL-2.0", "Expat and GPL-3+", "", None]:
        check(not dc.is_permissive(lic), f"{lic} is not permissive")


def main():
    tests = [test_entries, test_parts_and_texts, test_people, test_licences]
    for t in tests:
        t()
    print(f"test_debian_changelog.py: {len(tests)} tests passed")


if __name__ == "__main__":
    main()
