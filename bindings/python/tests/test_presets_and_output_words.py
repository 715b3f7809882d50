# SPDX-License-Identifier: Apache-2.0
"""Presets (preset=) and output word lists (output_words=, Model.output_set)
through the Python binding: the library resolves presets and refuses what
conflicts; the binding passes names, sets and lists through.

The presets' values are read from the generated table (PRESETS of
dxtext._options_table, made from tools/options/presets.table), never
repeated here: the tests check the rules of resolution against whatever
values the table holds, so retuning a preset needs no edit of them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Dict, Iterator

import pytest

import dxtext
from dxtext._options_table import OPTIONS, PRESETS

REPO = Path(__file__).resolve().parents[3]

# Each enum option's names and numbers (tools/options/privatize_options.table).
VALUES: Dict[str, Dict[str, int]] = {o.name: o.values for o in OPTIONS if o.values}
# The policy options, the token class each governs (LocalDiagnostics.counts)
# and what a policy is counted as there.
CLASS_OF = {"in_vocabulary": "in_vocabulary", "oov": "out_of_vocabulary", "numbers": "number", "stopwords": "stopword"}
COUNTED_AS = {"privatize": "privatized", "placeholder": "placeholder", "drop": "dropped", "keep": "kept"}
# What dxt_privatize_options_init sets: a preset takes these as unset.
DEFAULTS = {"mechanism": "laplace", "release_shape": "keep", **{c: "privatize" for c in CLASS_OF}}


def other_than(option: str, *taken: Any) -> Any:
    """A value of the enum option that is none of `taken`, or None."""
    return next((name for name in VALUES[option] if name not in taken), None)


@pytest.fixture()
def frequent() -> Iterator[dxtext.Model]:
    """A model with a frequencies section, which a preset with a top-N output
    vocabulary needs: the default model, else (when DXTEXT_MODEL names one
    without) the source tree's default Euclidean model."""
    candidates = sorted(REPO.glob("models/dxtext-en-euclid-*.dxe"))[-1:]
    try:
        candidates.insert(0, Path(dxtext.Model.default_path()))
    except dxtext.NotFoundError:
        pass
    for path in candidates:
        with dxtext.Model.open(path) as m:
            if m.info.has_frequencies:
                yield m
                return
    pytest.skip("no model with a frequencies section")


def test_preset_enum_comes_from_the_table() -> None:
    assert [p.name for p in dxtext.Preset] == ["NONE"] + [p.name.upper() for p in PRESETS]
    for p in PRESETS:
        assert int(dxtext.Preset[p.name.upper()]) == p.number
    assert VALUES["preset"] == {"none": 0, **{p.name: p.number for p in PRESETS}}


def test_presets_resolve_to_their_table_values(frequent: dxtext.Model) -> None:
    text = "The cat sat on the mat"
    for p in PRESETS:
        o = p.options
        out, record = frequent.privatize(text, preset=p.name, seed=1, with_record=True)
        assert isinstance(out, str), p.name
        assert record.preset == dxtext.Preset[p.name.upper()]
        assert int(record.mechanism) == VALUES["mechanism"][o["mechanism"]], p.name
        assert record.epsilon == o["epsilon"], p.name
        assert int(record.release_shape) == VALUES["release_shape"][o["release_shape"]], p.name
        as_json = record.to_dict()
        assert as_json["preset"] == p.name
        assert (as_json["mechanism"], as_json["shape"]) == (o["mechanism"], o["release_shape"])
        if o.get("negations") == "keep":
            # The top words without negators: a list, no larger.
            assert record.output_kind == dxtext.OutputKind.LIST, p.name
            assert record.output_size <= min(o["output_top"] or len(frequent), len(frequent)), p.name
            assert dxtext.Reveals.NEGATIONS in record.reveals, p.name
        elif o["output_top"]:
            assert record.output_kind == dxtext.OutputKind.TOP, p.name
            assert record.output_size == min(o["output_top"], len(frequent)), p.name
        else:
            assert record.output_kind == dxtext.OutputKind.VOCABULARY, p.name
            assert record.output_size == len(frequent), p.name
        # A preset is its options written out: the same noise gives the same
        # text, and its own values beside it are accepted.
        assert frequent.privatize(text, seed=1, **o) == out, p.name
        assert frequent.privatize(text, preset=p.name, seed=1, **o) == out, p.name


def test_preset_epsilon_override_changes_only_epsilon(frequent: dxtext.Model) -> None:
    for p in PRESETS:
        epsilon = 2.5 if p.options["epsilon"] == 1.5 else 1.5  # not the preset's
        _, own = frequent.privatize("the cat", preset=p.name, seed=1, with_record=True)
        _, record = frequent.privatize(
            "the cat", preset=dxtext.Preset[p.name.upper()], epsilon=epsilon, seed=1, with_record=True
        )
        assert record.epsilon == epsilon
        assert (record.preset, record.mechanism, record.release_shape, record.output_kind, record.output_size) == (
            own.preset, own.mechanism, own.release_shape, own.output_kind, own.output_size
        ), p.name
        with pytest.raises(dxtext.InvalidEpsilonError):
            frequent.privatize("the cat", preset=p.name, epsilon=-2)


def _is_content(model: dxtext.Model, word: str) -> bool:
    """Whether the word is a vocabulary word that is no stopword."""
    diagnostics = dxtext.LocalDiagnostics()
    model.privatize(word, epsilon=1, local_diagnostics=diagnostics)
    return diagnostics.counts["in_vocabulary"]["privatized"] == 1


def test_each_token_class_follows_the_presets_policy(frequent: dxtext.Model) -> None:
    model = frequent
    # A word of the vocabulary that is no stopword, a stopword, a number and
    # a word the model does not know: one token of each class.
    words = (model.word(i) for i in range(len(model)))
    word = next(w for w in words if w.isalpha() and w.islower() and _is_content(model, w))
    unknown = "zzqxvk"
    assert unknown not in model
    tokens = {"in_vocabulary": word, "stopwords": "the", "numbers": "42", "oov": unknown}
    text = " ".join(tokens[c] for c in ("stopwords", "in_vocabulary", "numbers", "oov"))
    for p in PRESETS:
        o = p.options
        diagnostics = dxtext.LocalDiagnostics()
        out, record = model.privatize(text, preset=p.name, seed=3, with_record=True, local_diagnostics=diagnostics)
        # A number is a typed token: its family's policy decides, unless it
        # is privatize (then the numbers policy does); a typed replacement
        # counts as privatized.
        effective = dict(o)
        typed = o.get("typed_numbers", "privatize")
        if typed != "privatize":
            effective["numbers"] = {"replace": "privatize", "placeholder": "placeholder", "keep": "keep", "drop": "drop"}[typed]
        for policy, cls in CLASS_OF.items():
            assert diagnostics.counts[cls][COUNTED_AS[effective[policy]]] == 1, (p.name, policy, diagnostics.counts)
        released = [c for c in CLASS_OF if effective[c] != "drop"]
        assert len(out.split()) == len(released), (p.name, out)
        drawn = [c for c in CLASS_OF if effective[c] == "privatize"]
        assert diagnostics.words_privatized == len(drawn), p.name
        assert record.preset == dxtext.Preset[p.name.upper()]

        # A bag: each entry's count released unless its class is dropped.
        counts = {"in_vocabulary": 3, "stopwords": 1, "numbers": 2, "oov": 1}
        bag, record = model.privatize_bag(
            {tokens[c]: n for c, n in counts.items()}, preset=p.name, seed=3, with_record=True
        )
        assert sum(bag.values()) == sum(n for c, n in counts.items() if o[c] != "drop"), (p.name, bag)
        assert record.preset == dxtext.Preset[p.name.upper()]

        # SynTF draws words or drops them: it refuses a placeholder or keep policy.
        if any(o[c] in ("placeholder", "keep") for c in CLASS_OF):
            with pytest.raises(dxtext.UnsupportedError, match="placeholder or keep"):
                model.syntf({word: 3}, 4, preset=p.name, seed=3)
        else:
            synthetic, record = model.syntf({word: 3}, 4, preset=p.name, seed=3, with_record=True)
            assert sum(synthetic.values()) == 4
            assert record.mechanism == dxtext.Mechanism.SYNTF and record.epsilon == o["epsilon"]
            assert record.preset == dxtext.Preset[p.name.upper()]
        stats = model.calibrate(preset=p.name, words=3, trials=5, seed=3)
        assert stats.words == 3


def test_preset_conflicts_are_refused_by_the_library(model: dxtext.Model) -> None:
    for p in PRESETS:
        o = p.options

        def refused(option: str, given: object) -> str:
            return re.escape(f"{option}: '{given}' conflicts with the preset '{p.name}'")

        mechanism = other_than("mechanism", DEFAULTS["mechanism"], o["mechanism"])
        with pytest.raises(dxtext.InvalidArgumentError, match=refused("mechanism", mechanism)):
            model.privatize("the cat", preset=p.name, mechanism=mechanism)
        shape = other_than("release_shape", DEFAULTS["release_shape"], o["release_shape"])
        if shape is not None:
            with pytest.raises(dxtext.InvalidArgumentError, match=refused("release_shape", shape)):
                model.privatize("the cat", preset=p.name, release_shape=shape)
        for policy in CLASS_OF:
            value = other_than(policy, DEFAULTS[policy], o[policy])
            with pytest.raises(dxtext.InvalidArgumentError, match=refused(policy, value)):
                model.privatize("the cat", preset=p.name, **{policy: value})
        top = next(n for n in (7, 8) if n not in (o["output_top"], min(o["output_top"], len(model))))
        with pytest.raises(dxtext.InvalidArgumentError, match=refused("output_top", top)):
            model.privatize("the cat", preset=p.name, output_top=top)
        with pytest.raises(dxtext.InvalidArgumentError, match=re.escape(f"output_words: the preset '{p.name}' fixes")):
            model.privatize("the cat", preset=p.name, output_words=[model.word(0)])
    with pytest.raises(dxtext.InvalidArgumentError, match=r"preset: 'tidy' is not one of none, readable"):
        model.privatize("the cat", preset="tidy")


def test_preset_refuses_a_default_that_is_not_its_value(frequent: dxtext.Model) -> None:
    # preset="readable" with release_shape="keep" (the default) is refused as
    # on the command line, not silently read as unset; a default that is the
    # preset's own value is accepted.
    for p in PRESETS:
        own = frequent.privatize("The cat sat on the mat", preset=p.name, seed=2)
        same = {k: v for k, v in DEFAULTS.items() if p.options[k] == v}
        assert frequent.privatize("The cat sat on the mat", preset=p.name, seed=2, **same) == own, p.name
        for option, value in DEFAULTS.items():
            if p.options[option] == value:
                continue
            pattern = re.escape(f"{option}: '{value}' conflicts with the preset '{p.name}'")
            with pytest.raises(dxtext.InvalidArgumentError, match=pattern):
                frequent.privatize("The cat sat on the mat", preset=p.name, **{option: value})


def test_preset_needing_frequencies_is_refused_without_them(model: dxtext.Model) -> None:
    if model.info.has_frequencies:
        pytest.skip("this model has frequencies")
    for p in PRESETS:
        if p.options["output_top"]:
            with pytest.raises(dxtext.UnsupportedError, match=rf"preset '{p.name}'.*no frequencies section"):
                model.privatize("the cat", preset=p.name)
        else:  # the whole vocabulary: no frequencies needed
            _, record = model.privatize("the cat", preset=p.name, with_record=True)
            assert record.output_kind == dxtext.OutputKind.VOCABULARY and record.output_size == len(model)


def test_epsilon_is_required_without_a_preset(model: dxtext.Model) -> None:
    with pytest.raises(dxtext.InvalidEpsilonError, match=r"not set"):
        model.privatize("the cat")


def test_output_words_list_and_set(model: dxtext.Model) -> None:
    allowed = [model.word(i) for i in (3, 5, 8)]
    words = [model.word(i) for i in range(min(len(model), 30))]
    text = " ".join(words)
    out, record = model.privatize(
        text, epsilon=1, mechanism="exponential", output_words=allowed, seed=5, with_record=True
    )
    assert set(out.lower().split()) <= set(allowed)
    assert record.output_kind == dxtext.OutputKind.LIST and record.output_size == 3
    assert record.to_dict()["output_vocabulary"] == {"kind": "list", "size": 3, "sha256": record.output_digest.hex()}
    output_set = model.output_set(allowed)
    assert len(output_set) == 3 and output_set.words == tuple(allowed)
    for call in range(3):
        bag = model.privatize_bag({w: 2 for w in words}, epsilon=2, output_words=output_set, seed=call)
        assert set(bag) <= set(allowed)
    assert set(model.privatize_words(words, epsilon=1, output_words=output_set, seed=2)) <= set(allowed)


def test_output_words_refusals(model: dxtext.Model, golden: dxtext.Model) -> None:
    first = model.word(0)
    with pytest.raises(dxtext.InvalidArgumentError, match="at least one word"):
        model.output_set([])
    with pytest.raises(dxtext.InvalidArgumentError, match="notaword"):
        model.output_set([first, "notaword"])
    with pytest.raises(dxtext.InvalidArgumentError, match="once"):
        model.output_set([first, first])
    with pytest.raises(dxtext.InvalidArgumentError, match="at least one word"):
        model.privatize("x", epsilon=1, output_words=[])
    with pytest.raises(TypeError):
        model.output_set(first)  # one string, not a list
    with pytest.raises(dxtext.InvalidArgumentError, match="choose one"):
        model.privatize("x", epsilon=1, output_words=[first], output_top=2)
    # A set of another model is refused by the library.
    foreign = golden.output_set([golden.word(0)])
    with pytest.raises(dxtext.InvalidArgumentError, match="another model"):
        model.privatize("x", epsilon=1, output_words=foreign)


def test_output_set_keeps_its_model_alive(model_path: Path) -> None:
    m = dxtext.Model.open(model_path)
    word = m.word(1)
    output_set = m.output_set([word])
    assert m.privatize(m.word(2), epsilon=1, output_words=output_set) == word
    m.close()
    del m
    assert json.loads(json.dumps(output_set.words)) == [word]


def test_every_preset_bounds_its_worst_case_per_word(frequent: dxtext.Model) -> None:
    # The uniform floor caps the loss per word (docs/guarantees.md, "The
    # uniform floor and the worst case per word"); the record states it.
    for p in PRESETS:
        _, record = frequent.privatize("the cat sat", preset=p.name, seed=1, with_record=True)
        assert record.floor > 0, p.name
        assert 0 < record.worst_case_per_word <= 12, (p.name, record.worst_case_per_word)
        assert record.to_dict()["worst_case_per_word"] == pytest.approx(record.worst_case_per_word), p.name
