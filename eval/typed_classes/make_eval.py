#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the labelled text of the typed-class detection test
(tests/data/typed_eval.txt): everyday sentences with entities marked
[[class:text]], from templates filled with entities of public lists that are
NOT the lists the model ships wherever one exists:

- first names: faker's `first_name` (en), not the Moby lists the model uses
  (the two overlap: recall on them is partly in-list);
- surnames: faker's en_IN and en_AU `last_name` (the model has faker's en
  list and WordNet's): held out;
- cities: faker's en `city_name` (US cities) and en_IN `city_name`, one-word
  names only; countries: faker's en `country`, one-word names only;
- conditions and drugs: a short hand list of everyday ones (below);
- numbers, clock times, phone numbers, e-mail addresses, URLs and handles:
  formats written here (times are labelled `time` since the time class;
  the draws are the same, so only those labels changed).

Every entity is written lower case, Title-case or as the template has it, at
random, because capitalisation must not be required. Distractor sentences
hold common words that are also names or places ("will", "bill", "may",
"china", "turkey", "rose", "mark", "grace"): any typed detection there is a
false positive. Seeded: the same packages give the same file.

    python3 make_eval.py FAKER_DIST_DIR OUT.txt [--heldout]

--heldout writes the second labelled set (tests/data/typed_eval_heldout.txt)
with another seed, other templates and other distractors, written after
the name rules were chosen on the first set and not used to choose them:
names after titles, greetings and sign-offs in forms the first set lacks,
names inside sentences, pairs of names, and distractors that put ordinary
words where those rules look (Dear me, Hi all, Kind regards to..., Miss the
bus, a rank or a compass word before a name).
"""
import random
import re
import sys
from pathlib import Path

CONDITIONS = ["diabetes", "asthma", "flu", "cancer", "arthritis", "migraine", "pneumonia", "bronchitis", "malaria",
              "tuberculosis", "measles", "hepatitis", "leukemia", "epilepsy", "anemia", "influenza", "eczema",
              "psoriasis", "glaucoma", "hypertension", "alzheimer's", "schizophrenia", "autism", "obesity",
              "insomnia", "gout", "shingles", "chickenpox", "mumps", "cholera"]
DRUGS = ["aspirin", "ibuprofen", "metformin", "paracetamol", "amoxicillin", "penicillin", "prozac", "zoloft",
         "codeine", "morphine", "insulin", "warfarin", "valium", "tylenol", "advil", "lipitor", "ritalin",
         "xanax", "acetaminophen", "cortisone", "digoxin", "lithium", "methadone", "naproxen", "tetracycline"]
DISTRACTORS = [
    "I will pay the bill tomorrow.", "Mark the date in your calendar.", "She may come later.",
    "We ate turkey and drank from china cups.", "The rose garden is lovely.", "They gave us a grace period.",
    "I hope the weather holds.", "Please sign the will before you leave.", "The price went up again.",
    "He is a good guy.", "We need to chase the invoice.", "The bank will call you.", "It was a long march.",
    "I caught a cold last week.", "She had a bad fall.", "Frank opinions are welcome.", "Let's dash home.",
    "The storm hit the coast.", "I want to buy a new cabinet.", "The summer was hot.", "Add a pinch of salt.",
    "Pat the dough flat.", "Did you see the ice?", "Sandy beaches are nice.", "They won the cup.",
    "Our joy was short.", "That is just fine.", "She said the art class was full.", "We walked to the lake.",
    "Sue them if you must.", "I will drive.", "The ball rolled away.", "Take the lead.", "A crystal vase.",
]
TEMPLATES = [
    "I had lunch with {first_name} yesterday.",
    "{first_name} {surname} called about the meeting.",
    "Please ask {first_name} to send the report.",
    "Best regards, {first_name} {surname}",
    "Dr. {surname} will see you at {time}.",
    "We flew to {city} last week.",
    "My sister lives in {city} now.",
    "She moved here from {country} in {year}.",
    "The conference in {country} was great.",
    "Send it to {email} by {date}.",
    "You can reach me on {phone} after work.",
    "Call {phone} if you need anything.",
    "See {url} for the details.",
    "Thanks {handle} for the tip!",
    "My doctor changed my {drug} dose because of my {condition}.",
    "I was diagnosed with {condition} in {year}.",
    "Take {count} {drug} tablets after meals.",
    "It cost ${amount} in the end.",
    "We need {count} chairs for the party.",
    "The meeting moved to {date} at {time}.",
    "Version {version} fixed the crash.",
    "{first_name} said the train leaves {city} at {time}.",
    "Mail {email} or text {phone} please.",
]

# The held-out set's templates and distractors (--heldout).
HELDOUT_TEMPLATES = [
    "Hi {first_name}, are you free on {date}?",
    "Dear {first_name}, thank you for your letter.",
    "Mrs {surname} asked about the invoice.",
    "Ms. {surname} is out of the office until {date}.",
    "Prof {surname} moved the lecture to {time}.",
    "I met {first_name} {surname} at the station.",
    "{first_name} and {first_name} are coming to dinner.",
    "Can you forward this to {first_name}?",
    "Kind regards, {first_name}",
    "Yours sincerely, {first_name} {surname}",
    "Our new neighbour is called {first_name}.",
    "The package for {first_name} {surname} arrived in {city}.",
    "{first_name} told me the flight from {country} was late.",
    "My cousin {first_name} lives near {city}.",
    "According to {first_name}, the shop opens at {time}.",
    "The train to {city} was cancelled again.",
    "We spent {count} days in {country} last spring.",
    "Her number is {phone} if the office is closed.",
    "Write to {email} with any questions.",
    "Check {url} before {date}.",
    "Follow {handle} for updates.",
    "The pharmacy ran out of {drug} this week.",
    "He has had {condition} since {year}.",
]
HELDOUT_DISTRACTORS = [
    "Dear me, what a mess.", "Hi there, how are you?", "Hello everyone, welcome back.",
    "Best regards to your family.", "Dear Sir or Madam, please find the form attached.",
    "Hi all, the meeting is cancelled.", "Grant access to the shared folder.", "Bill me for the extra hours.",
    "Mark my words.", "I miss home.", "Miss the bus and you wait an hour.", "Brown rice is healthy.",
    "Young people said the park was dirty.", "Everyone said yes.", "The baker said the bread was late.",
    "We will mark the exams on Friday.", "Sergeant Major is a rank in the army.", "North winds are cold in winter.",
    "The rose bush died in the frost.", "My hope is that it works.", "Please lower the price a bit.",
    "The judge said the case was closed.", "Drew the curtains and went to bed.", "I will carry the box.",
    "Thanks, that helps a lot.", "Cheers, see you soon.", "The new guy said hello.",
    "A frank talk cleared the air.", "Sue for damages if you must.", "Summer said goodbye early this year.",
]


def faker_list(dist: Path, prefix: str, key: str):
    for f in sorted(dist.glob(prefix + "-*.js")):
        text = f.read_text(encoding="utf-8")
        m = re.search(key + r":\{generic:`([^`]*)`", text)
        if m:
            return [w for w in m.group(1).split(".") if w]
        m = re.search(key + r":`([^`]*)`", text)
        if m:
            return [w for w in m.group(1).split(",") if w]
        m = re.search(key + r":\[([^\]]*)\]", text)
        if m:
            return [w.strip().strip("'\"`") for w in m.group(1).split(",") if w.strip()]
    raise SystemExit(f"{key} not found in faker {prefix}")


def one_word(ws):
    return sorted({w for w in ws if re.fullmatch(r"[A-Za-z][a-z]+", w)})


def main(argv):
    dist, out = Path(argv[1]), Path(argv[2])
    heldout = "--heldout" in argv[3:]
    rng = random.Random(20270314 if heldout else 20261127)
    templates, distractors = (HELDOUT_TEMPLATES, HELDOUT_DISTRACTORS) if heldout else (TEMPLATES, DISTRACTORS)
    sentences, copies = (400, 2) if heldout else (600, 3)
    pools = {
        "first_name": one_word(faker_list(dist, "en", "first_name")),
        "surname": one_word(faker_list(dist, "en_IN", "last_name") + faker_list(dist, "en_AU", "last_name")),
        "city": one_word(faker_list(dist, "en", "city_name") + faker_list(dist, "en_IN", "city_name")),
        "country": one_word(faker_list(dist, "en", "country")),
        "condition": CONDITIONS,
        "drug": DRUGS,
    }

    def case(w):
        r = rng.random()
        return w.lower() if r < 0.4 else w[:1].upper() + w[1:].lower() if r < 0.9 else w.upper()

    def value(slot):
        if slot in pools:
            return case(rng.choice(pools[slot])), slot
        if slot == "year":
            return str(rng.randint(1950, 2025)), "number"
        if slot == "time":
            return rng.choice([f"{rng.randint(1, 12)}:{rng.randint(0, 59):02d}", f"{rng.randint(1, 12)}pm"]), "time"
        if slot == "date":
            d, m, y = rng.randint(1, 28), rng.randint(1, 12), rng.randint(2000, 2030)
            return rng.choice([f"{m}/{d}/{y}", f"{y}-{m:02d}-{d:02d}", f"{d}.{m}.{y}"]), "number"
        if slot == "amount":
            return rng.choice([f"{rng.randint(1, 999)}", f"{rng.randint(1, 99)},{rng.randint(0, 999):03d}",
                               f"{rng.randint(1, 999)}.{rng.randint(0, 99):02d}"]), "number"
        if slot == "count":
            return rng.choice([str(rng.randint(2, 60)), rng.choice(["two", "three", "twelve", "twenty", "forty"])]), "number"
        if slot == "version":
            return f"{rng.randint(0, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}", "number"
        if slot == "phone":
            a, b, c = rng.randint(200, 999), rng.randint(200, 999), rng.randint(0, 9999)
            return rng.choice([f"({a}) {b}-{c:04d}", f"{a}-{b}-{c:04d}", f"+44 20 {rng.randint(1000, 9999)} {c:04d}",
                               f"{a}.{b}.{c:04d}", f"+1 {a} {b} {c:04d}"]), "phone"
        if slot == "email":
            user = rng.choice(pools["first_name"]).lower() + rng.choice(["", ".", "_"]) + \
                rng.choice(pools["surname"]).lower() + rng.choice(["", str(rng.randint(1, 99))])
            return f"{user}@{rng.choice(['gmail.com', 'example.org', 'mail.co.uk', 'uni.edu'])}", "email"
        if slot == "url":
            return rng.choice(["https://", "http://", "www."]).replace("www.", "www.") + \
                rng.choice(["shop", "news", "docs", "blog"]) + "." + rng.choice(["com", "org", "io"]) + \
                rng.choice(["", "/a/b", "/page?id=" + str(rng.randint(1, 999))]), "url"
        if slot == "handle":
            return "@" + rng.choice(pools["first_name"]).lower() + str(rng.randint(1, 99)), "handle"
        raise SystemExit(slot)

    lines = []
    for _ in range(sentences):
        t = rng.choice(templates)
        line = re.sub(r"\{(\w+)\}", lambda m: "[[{1}:{0}]]".format(*value(m.group(1))), t)
        # A URL template needs no "www." twice
        lines.append(line)
    lines += distractors * copies
    rng.shuffle(lines)
    header = ("# Generated by eval/typed_classes/make_eval.py" + (" --heldout" if heldout else "") +
              ": do not edit. Entities from npm @faker-js/faker\n"
              "# 10.6.0 (MIT, Copyright (c) 2022-2025 Faker) and lists written in the script.\n")
    out.write_text(header + "\n".join(lines) + "\n",
                   encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
