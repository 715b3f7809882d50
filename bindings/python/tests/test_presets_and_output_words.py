# SPDX-License-Identifier: Apache-2.0
"""Presets (preset=) and output word lists (output_words=, Model.output_set)
through the Python binding: the library resolves presets and refuses what
conflicts; the binding passes names, sets and lists through."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest

import dxtext

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture()
def frequent() -> Iterator[dxtext.Model]:
    """The default Euclidean model: it has a frequencies section."""
    try:
        path = dxtext.Model.default_path()
    except dxtext.NotFoundError:
        pytest.skip("no default model")
    with dxtext.Model.open(path) as m:
        if not m.info.has_frequencies:
            pytest.skip("the default model has no frequencies section")
        yield m


def test_preset_enum_comes_from_the_table() -> None:
    assert [p.name for p in dxtext.Preset] == ["NONE", "READABLE", "FEATURES", "STRONGEST"]
    assert int(dxtext.Preset.READABLE) == 1 and int(dxtext.Preset.STRONGEST) == 3


def test_readable_preset_without_epsilon(frequent: dxtext.Model) -> None:
    text, record = frequent.privatize("The cat sat on the mat", preset="readable", seed=1, with_record=True)
    assert isinstance(text, str) and text
    assert record.preset == dxtext.Preset.READABLE
    assert record.mechanism == dxtext.Mechanism.EXPONENTIAL
    assert record.epsilon == 3.7
    assert record.release_shape == dxtext.ReleaseShape.NORMALIZE
    as_json = record.to_dict()
    assert as_json["preset"] == "readable"
    assert as_json["output_vocabulary"]["kind"] == "top"
    assert as_json["output_vocabulary"]["size"] == 20000


def test_preset_epsilon_override_and_enum_member(frequent: dxtext.Model) -> None:
    _, record = frequent.privatize(
        "the cat", preset=dxtext.Preset.STRONGEST, epsilon=1.5, seed=1, with_record=True
    )
    assert record.epsilon == 1.5
    assert record.preset == dxtext.Preset.STRONGEST
    with pytest.raises(dxtext.InvalidEpsilonError):
        frequent.privatize("the cat", preset="strongest", epsilon=-2)


def test_features_preset_drops_numbers_and_stopwords(model: dxtext.Model) -> None:
    # features releases from the whole vocabulary: no frequencies needed.
    # A word it does not drop (the model's first that is no stopword):
    word = next(w for w in (model.word(i) for i in range(len(model))) if model.privatize(w, preset="features"))
    diagnostics = dxtext.LocalDiagnostics()
    text, record = model.privatize(
        f"the {word} 42", preset="features", seed=3, with_record=True, local_diagnostics=diagnostics
    )
    assert len(text.split(" ") if text else []) == diagnostics.words_privatized
    assert record.mechanism == dxtext.Mechanism.LAPLACE
    assert record.release_shape == dxtext.ReleaseShape.STRICT
    assert record.epsilon == 11
    assert diagnostics.counts["number"]["dropped"] == 1
    assert diagnostics.counts["stopword"]["dropped"] >= 1  # "the" (and the word, if it is one)
    bag, record = model.privatize_bag({word: 3, "7": 2}, preset="features", seed=3, with_record=True)
    assert sum(bag.values()) == 3 and record.preset == dxtext.Preset.FEATURES
    synthetic, record = model.syntf({word: 3}, 4, preset="features", seed=3, with_record=True)
    assert sum(synthetic.values()) == 4
    assert record.mechanism == dxtext.Mechanism.SYNTF and record.epsilon == 11
    stats = model.calibrate(preset="features", words=3, trials=5, seed=3)
    assert stats.words == 3


def test_preset_conflicts_are_refused_by_the_library(model: dxtext.Model) -> None:
    with pytest.raises(dxtext.InvalidArgumentError, match=r"mechanism is tem, but the preset 'features'"):
        model.privatize("the cat", preset="features", mechanism="tem")
    with pytest.raises(dxtext.InvalidArgumentError, match=r"release_shape is normalize, but the preset .features."):
        model.privatize("the cat", preset="features", release_shape="normalize")
    with pytest.raises(dxtext.InvalidArgumentError, match=r"oov"):
        model.privatize("the cat", preset="features", oov="placeholder")
    with pytest.raises(dxtext.InvalidArgumentError, match=r"output_set is set, but the preset 'features'"):
        model.privatize("the cat", preset="features", output_words=[model.word(0)])
    # The defaults and the preset's own values are accepted.
    model.privatize("the cat", preset="features", mechanism="laplace", release_shape="strict", numbers="drop")
    with pytest.raises(dxtext.InvalidArgumentError, match=r"unknown preset 'tidy'"):
        model.privatize("the cat", preset="tidy")


def test_preset_needing_frequencies_is_refused_without_them(model: dxtext.Model) -> None:
    if model.info.has_frequencies:
        pytest.skip("this model has frequencies")
    with pytest.raises(dxtext.UnsupportedError, match=r"preset 'readable'.*no frequencies section"):
        model.privatize("the cat", preset="readable")


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
