"""Privatising text, words and bags; SynTF; calibration; reports."""

from __future__ import annotations

import json
import math
import warnings

import pytest

import dxtext


def vocabulary(model: dxtext.Model) -> set:
    return {model.word(i) for i in range(len(model))}


def test_privatize_text_with_report(model: dxtext.Model, sentence: str) -> None:
    out, report = model.privatize(sentence, epsilon=5.0, with_report=True)
    assert isinstance(out, str)
    assert out.endswith(".")
    assert out[0].isupper()  # the case shape of the first word is kept
    n = len(sentence[:-1].split())
    assert len(out[:-1].split()) == n
    assert report.words_privatized == n
    assert report.words_leaked == 0
    assert report.is_private
    assert report.rng_mode is dxtext.RngMode.SYSTEM
    assert report.mechanism is dxtext.Mechanism.LAPLACE
    assert report.metric is dxtext.Metric.EUCLIDEAN
    assert report.epsilon == report.epsilon_per_unit_distance == 5.0
    assert report.epsilon_document == pytest.approx(5.0 * n)
    assert report.model_fingerprint == model.fingerprint()
    assert sum(report.counts[c]["privatized"] for c in report.counts) == n
    as_json = json.loads(report.to_json())
    assert as_json["mechanism"] == "laplace"
    assert as_json["private"] is True
    assert as_json["words_privatized"] == n
    assert as_json["model_sha256"] == model.fingerprint().hex()
    assert report.to_dict() == as_json
    # Without with_report, just the text.
    assert isinstance(model.privatize(sentence, epsilon=5.0), str)


def test_privatize_bag(model: dxtext.Model) -> None:
    a, b = model.word(0), model.word(1)
    bag = {a: 3, b: 2, "zzzunknownzzz": 1, model.word(2): 0}
    out, report = model.privatize_bag(bag, epsilon=2.0, with_report=True)
    assert sum(out.values()) == 6
    assert set(out) <= vocabulary(model)  # OOV words are privatised from the origin
    assert report.words_privatized == 6
    assert report.count(dxtext.TokenClass.OUT_OF_VOCABULARY, dxtext.Policy.PRIVATIZE) == 1
    assert report.epsilon_document == pytest.approx(12.0)
    # Pairs are accepted too, and a placeholder policy for OOV words.
    out = model.privatize_bag([(a, 1), ("zzzunknownzzz", 2)], epsilon=2.0, oov="placeholder", placeholder="<oov>")
    assert out.get("<oov>") == 2


def test_privatize_words(model: dxtext.Model) -> None:
    words = [model.word(0), "zzzunknownzzz", model.word(1)]
    out, report = model.privatize_words(words, epsilon=3.0, oov="drop", with_report=True)
    assert len(out) == 3
    assert out[1] == ""
    assert {out[0], out[2]} <= vocabulary(model)
    assert report.words_privatized == 2
    assert report.counts["out_of_vocabulary"]["dropped"] == 1
    assert report.epsilon_document == pytest.approx(6.0)
    out, report = model.privatize_words([], epsilon=3.0, with_report=True)
    assert out == [] and report.words_privatized == 0


def test_policies_and_placeholder(model: dxtext.Model) -> None:
    assert model.privatize("zzzunknownzzz", epsilon=1, oov="placeholder") == "[redacted]"
    assert model.privatize("zzzunknownzzz", epsilon=1, oov=dxtext.Policy.PLACEHOLDER, placeholder="█") == "█"
    out, report = model.privatize("zzzunknownzzz 42", epsilon=1, oov="keep", numbers="keep", with_report=True)
    assert out == "zzzunknownzzz 42"
    assert report.words_leaked == 2
    assert json.loads(report.to_json())["words_leaked"] == 2
    with pytest.raises(dxtext.InvalidArgumentError):
        model.privatize("x", epsilon=1, oov="hide")
    with pytest.raises(dxtext.InvalidArgumentError):
        model.privatize("x", epsilon=1, oov="placeholder", placeholder="a\0b")


def test_mechanisms_and_parameters(model: dxtext.Model, sentence: str) -> None:
    vocab = vocabulary(model)
    _, report = model.privatize(sentence, epsilon=4, mechanism="vickrey", vickrey_t=0.5, with_report=True)
    assert report.mechanism is dxtext.Mechanism.VICKREY
    word = model.privatize_words(
        [model.word(3)], epsilon=4, mechanism=dxtext.Mechanism.EXPONENTIAL, exponential_sampler="permute-and-flip"
    )[0]
    assert word in vocab
    _, report = model.privatize(sentence, epsilon=4, mechanism="TEM", tem_beta=0.01, with_report=True)
    assert report.mechanism is dxtext.Mechanism.TEM
    with pytest.raises(dxtext.InvalidArgumentError):
        model.privatize(sentence, epsilon=4, mechanism="vickrey", vickrey_t=7.0)
    with pytest.raises(dxtext.InvalidArgumentError):
        model.privatize(sentence, epsilon=4, mechanism="no-such-mechanism")
    with pytest.raises(TypeError):
        model.privatize(sentence, epsilon=4, vickrey=0.5)


def test_search_option_reaches_the_library(model: dxtext.Model, sentence: str) -> None:
    assert model.privatize(sentence, epsilon=4, search="exact") != ""
    # The test model has no search index: the library itself refuses IVF.
    with pytest.raises(dxtext.UnsupportedError):
        model.privatize(sentence, epsilon=4, search=dxtext.Search.IVF, ivf_nprobe=4)
    with pytest.raises(dxtext.InvalidArgumentError):
        model.privatize(sentence, epsilon=4, ivf_nprobe=4)  # nprobe without IVF
    with pytest.raises(dxtext.InvalidArgumentError):
        model.privatize(sentence, epsilon=4, search="nearest")
    with pytest.raises(TypeError):
        model.privatize(sentence, epsilon=4, search="ivf", ivf_nprobe=2.5)
    with pytest.raises(dxtext.UnsupportedError):
        model.privatize(sentence, epsilon=40, mechanism="hyperbolic")


def test_syntf(model: dxtext.Model) -> None:
    bag = {model.word(0): 2, model.word(1): 1}
    out, report = model.syntf(bag, 10, epsilon=1.0, syntf_s=0.5, with_report=True)
    assert sum(out.values()) == 10
    assert set(out) <= vocabulary(model)
    assert report.mechanism is dxtext.Mechanism.SYNTF
    assert report.metric is dxtext.Metric.DISCRETE
    assert report.epsilon_document == pytest.approx(10.0)
    assert 0 < report.epsilon_document_vocabulary < report.epsilon_document
    with pytest.raises(dxtext.InvalidArgumentError):
        model.syntf(bag, 0, epsilon=1.0)
    with pytest.raises(dxtext.UnsupportedError):
        model.syntf(bag, 3, epsilon=1.0, oov="placeholder")


def test_calibrate(model: dxtext.Model) -> None:
    c = model.calibrate(epsilon=5.0, words=min(5, len(model)), trials=20)
    assert c.words == min(5, len(model)) and c.trials == 20
    assert 0.0 <= c.keep_mean <= c.keep_max <= 1.0
    assert 1.0 <= c.distinct_max <= 20.0
    with pytest.raises(dxtext.InvalidArgumentError):
        model.calibrate(epsilon=5.0, words=0, trials=1)


def test_seeded_runs_reproduce_and_are_flagged(model: dxtext.Model, sentence: str) -> None:
    text = " ".join([sentence] * 4)
    with pytest.warns(dxtext.NotPrivateWarning):
        first, report = model.privatize(text, epsilon=0.5, seed=7, with_report=True)
    assert not report.is_private
    assert report.rng_mode is dxtext.RngMode.DETERMINISTIC
    assert "NOT private" in report.to_json()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dxtext.NotPrivateWarning)
        # Seeds as int, 64 hex digits and 32 bytes are the same seed.
        assert model.privatize(text, epsilon=0.5, seed=7) == first
        assert model.privatize(text, epsilon=0.5, seed="00" * 31 + "07") == first
        assert model.privatize(text, epsilon=0.5, seed=bytes(31) + b"\x07") == first
        # A different seed gives different noise (over 4 x 8 words at epsilon 0.5).
        assert model.privatize(text, epsilon=0.5, seed=8) != first
        bag = {model.word(0): 50}
        assert model.privatize_bag(bag, epsilon=0.5, seed=1) == model.privatize_bag(bag, epsilon=0.5, seed=1)
        assert model.syntf(bag, 20, epsilon=0.5, seed=1) == model.syntf(bag, 20, epsilon=0.5, seed=1)
        assert model.calibrate(epsilon=1, words=3, trials=10, seed=1) == model.calibrate(
            epsilon=1, words=3, trials=10, seed=1
        )
        with pytest.raises(dxtext.InvalidArgumentError):
            model.privatize(text, epsilon=0.5, seed="abc")
        with pytest.raises(dxtext.InvalidArgumentError):
            model.privatize(text, epsilon=0.5, seed=b"short")
        with pytest.raises(dxtext.InvalidArgumentError):
            model.privatize(text, epsilon=0.5, seed=-1)
    # Without a seed the report says private.
    _, report = model.privatize(text, epsilon=0.5, with_report=True)
    assert report.is_private


def test_nul_and_non_ascii_text(model: dxtext.Model) -> None:
    w0, w1 = model.word(0), model.word(1)
    out, report = model.privatize(f"{w0}\0{w1}", epsilon=1.0, with_report=True)
    assert "\0" in out
    assert report.words_privatized == 2
    out = model.privatize("Ünïcödé — “quoted” 😀", epsilon=1.0, oov="keep")
    assert out == "Ünïcödé — “quoted” 😀"
    assert model.privatize("", epsilon=1.0) == ""


def test_report_is_a_value(model: dxtext.Model) -> None:
    _, report = model.privatize(model.word(0), epsilon=1.0, with_report=True)
    with pytest.raises(AttributeError):
        report.epsilon = 3.0  # type: ignore[misc]
    assert not math.isnan(report.epsilon_document)
