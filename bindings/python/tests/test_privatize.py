# SPDX-License-Identifier: Apache-2.0
"""Privatising text, words and bags; SynTF; calibration; release records and
local diagnostics."""

from __future__ import annotations

import json
import pickle
import warnings

import pytest

import dxtext


def vocabulary(model: dxtext.Model) -> set:
    return {model.word(i) for i in range(len(model))}


def test_privatize_text_with_diagnostics(model: dxtext.Model, sentence: str) -> None:
    # The text and its record are the conformance suite's (test_conformance.py);
    # here what is the binding's: the types, and the local diagnostics.
    diagnostics = dxtext.LocalDiagnostics()
    out, record = model.privatize(sentence, epsilon=5.0, with_record=True, local_diagnostics=diagnostics)
    assert isinstance(out, str) and isinstance(record, dxtext.ReleaseRecord)
    assert record.rng_mode is dxtext.RngMode.SYSTEM and record.is_private
    assert record.model_fingerprint == model.fingerprint()
    n = len(sentence[:-1].split())
    assert diagnostics.words_privatized == n
    assert diagnostics.words_leaked == 0
    assert sum(diagnostics.counts[c]["privatized"] for c in diagnostics.counts) == n
    assert "words_privatized" not in record.to_dict()  # nothing about the input
    assert record.to_dict() == json.loads(record.to_json())
    assert json.loads(diagnostics.to_json())["words_privatized"] == n
    # Without with_record, just the text; diagnostics only when asked for.
    assert isinstance(model.privatize(sentence, epsilon=5.0), str)


def test_privatize_bag(model: dxtext.Model) -> None:
    a, b = model.word(0), model.word(1)
    bag = {a: 3, b: 2, "zzzunknownzzz": 1, model.word(2): 0}
    diagnostics = dxtext.LocalDiagnostics()
    out, record = model.privatize_bag(bag, epsilon=2.0, with_record=True, local_diagnostics=diagnostics)
    assert sum(out.values()) == 6
    assert set(out) <= vocabulary(model)  # OOV words are privatised from the origin
    assert diagnostics.words_privatized == 6
    assert diagnostics.count(dxtext.TokenClass.OUT_OF_VOCABULARY, dxtext.Policy.PRIVATIZE) == 1
    assert isinstance(record, dxtext.ReleaseRecord)
    # Pairs are accepted too (seeded bags, SynTF and their records: the conformance suite).
    assert sum(model.privatize_bag([(a, 1), ("zzzunknownzzz", 2)], epsilon=2.0).values()) == 3


def test_privatize_words(model: dxtext.Model) -> None:
    words = [model.word(0), "zzzunknownzzz", model.word(1)]
    diagnostics = dxtext.LocalDiagnostics()
    out, record = model.privatize_words(words, epsilon=3.0, oov="drop", with_record=True, local_diagnostics=diagnostics)
    assert len(out) == 3
    assert out[1] == ""
    assert {out[0], out[2]} <= vocabulary(model)
    assert diagnostics.words_privatized == 2
    assert diagnostics.counts["out_of_vocabulary"]["dropped"] == 1
    assert record.bound is dxtext.Bound.POSITIONWISE  # a list in order, like a text
    assert record.reveals & dxtext.Reveals.TOKEN_CLASSES
    out, record = model.privatize_words([], epsilon=3.0, with_record=True, local_diagnostics=diagnostics)
    assert out == [] and diagnostics.words_privatized == 0


def test_enum_members_and_policies(model: dxtext.Model, sentence: str) -> None:
    _, record = model.privatize(sentence, epsilon=4, mechanism=dxtext.Mechanism.VICKREY, with_record=True)
    assert record.mechanism is dxtext.Mechanism.VICKREY
    assert model.privatize("zzzunknownzzz", epsilon=1, oov=dxtext.Policy.PLACEHOLDER, placeholder="█") == "█"
    # The text and record of kept words: the conformance suite; here the local diagnostics.
    diagnostics = dxtext.LocalDiagnostics()
    model.privatize("zzzunknownzzz 42", epsilon=1, oov="keep", numbers="keep", local_diagnostics=diagnostics)
    assert diagnostics.words_leaked == 2


def test_seeded_runs_reproduce_and_are_flagged(model: dxtext.Model, sentence: str) -> None:
    text = " ".join([sentence] * 4)
    with pytest.warns(dxtext.NotPrivateWarning) as warned:
        first, record = model.privatize(text, epsilon=0.5, seed=7, with_record=True)
        model.privatize_bag({model.word(0): 1}, epsilon=1, seed=7)
        model.syntf({model.word(0): 1}, 2, epsilon=1, seed=7)
    assert [w.filename for w in warned] == [__file__] * 3  # the caller's line, not the package's
    assert not record.is_private
    assert record.rng_mode is dxtext.RngMode.DETERMINISTIC
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dxtext.NotPrivateWarning)
        # Seeds as int, 64 hex digits and 32 bytes are the same seed (what
        # each seed gives, in every call: the conformance suite).
        assert model.privatize(text, epsilon=0.5, seed=7) == first
        assert model.privatize(text, epsilon=0.5, seed="00" * 31 + "07") == first
        assert model.privatize(text, epsilon=0.5, seed=bytes(31) + b"\x07") == first
        with pytest.raises(dxtext.InvalidArgumentError):
            model.privatize(text, epsilon=0.5, seed="abc")
        with pytest.raises(dxtext.InvalidArgumentError):
            model.privatize(text, epsilon=0.5, seed=b"short")
        with pytest.raises(dxtext.InvalidArgumentError):
            model.privatize(text, epsilon=0.5, seed=-1)
    # Without a seed the record says private.
    _, record = model.privatize(text, epsilon=0.5, with_record=True)
    assert record.is_private


def test_nul_in_text_and_in_c_strings(model: dxtext.Model) -> None:
    # A text goes with its length, so a NUL is one more character (non-ASCII
    # and empty texts: the conformance suite).
    w0, w1 = model.word(0), model.word(1)
    diagnostics = dxtext.LocalDiagnostics()
    out = model.privatize(f"{w0}\0{w1}", epsilon=1.0, local_diagnostics=diagnostics)
    assert "\0" in out
    assert diagnostics.words_privatized == 2
    # Option names and values are C strings, which a NUL would cut short.
    for options in ({"placeholder": "a\0b"}, {"mechanism": "laplace\0x"}, {"epsilon\0x": 1}):
        with pytest.raises(dxtext.InvalidArgumentError, match="NUL"):
            model.privatize("x", epsilon=1, **options)


def test_epsilon_range_constants() -> None:
    assert dxtext.EPSILON_MIN == dxtext._library.lib().dxt_epsilon_min()
    assert dxtext.EPSILON_MAX == dxtext._library.lib().dxt_epsilon_max()


def test_record_attributes_are_the_json_fields(model: dxtext.Model) -> None:
    """Every field of the C record is an attribute, with the JSON's value:
    read from the struct by name, so a field the library adds needs no
    change here. The record is a read-only value, and pickles (Dask moves it
    between processes)."""
    _, record = model.privatize(model.word(0), epsilon=1.0, with_record=True)
    as_json = record.to_dict()
    names = record.field_names()
    assert {"epsilon", "mechanism", "worst_case_per_word", "context_prior", "floor"} <= set(names)
    numbers = [n for n in names if isinstance(as_json.get(n), (int, float)) and not isinstance(as_json[n], bool)]
    assert {"epsilon", "worst_case_per_word"} <= set(numbers)
    for name in numbers:
        assert getattr(record, name) == pytest.approx(as_json[name]), name
    assert record.mechanism.name.lower() == as_json["mechanism"]
    with pytest.raises(AttributeError):
        record.no_such_field  # noqa: B018
    with pytest.raises(AttributeError):
        record.epsilon = 3.0  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(record)) == record
    assert "worst_case_per_word=" in repr(record)
