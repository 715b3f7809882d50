# SPDX-License-Identifier: Apache-2.0
"""The Preset enum and output word lists (output_words=, Model.output_set)
through the Python binding. What presets resolve to and refuse is the
library's, checked for every binding by the conformance suite
(test_conformance.py, tests/conformance/)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Dict

import pytest

import dxtext
from dxtext._options_table import OPTIONS, PRESETS

# Each enum option's names and numbers (tools/options/privatize_options.table).
VALUES: Dict[str, Dict[str, int]] = {o.name: o.values for o in OPTIONS if o.values}


def test_preset_enum_comes_from_the_table() -> None:
    assert [p.name for p in dxtext.Preset] == ["NONE"] + [p.name.upper() for p in PRESETS]
    for p in PRESETS:
        assert int(dxtext.Preset[p.name.upper()]) == p.number
    assert VALUES["preset"] == {"none": 0, **{p.name: p.number for p in PRESETS}}


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
    # An empty list, a word given twice, output_top beside a list: the C
    # tests' (tests/unit/test_output_sets.cpp); here the Python types.
    first = model.word(0)
    with pytest.raises(dxtext.InvalidArgumentError, match="notaword"):
        model.output_set([first, "notaword"])
    with pytest.raises(dxtext.InvalidArgumentError, match="at least one word"):
        model.privatize("x", epsilon=1, output_words=[])
    with pytest.raises(TypeError):
        model.output_set(first)  # one string, not a list
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
