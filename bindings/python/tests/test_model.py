# SPDX-License-Identifier: Apache-2.0
"""Opening models and asking them questions."""

from __future__ import annotations

from pathlib import Path

import pytest

import dxtext


def test_open_and_info(model: dxtext.Model, model_path: Path) -> None:
    info = model.info
    assert info.vocabulary_size == len(model) > 0
    assert info.dimension > 0
    assert info.geometry is dxtext.Geometry.EUCLIDEAN
    assert info.format_major == 1
    assert model.path == str(model_path)
    assert str(len(model)) in repr(model)
    assert not model.closed


def test_lookup_word_contains(model: dxtext.Model) -> None:
    for i in range(len(model)):
        word = model.word(i)
        assert model.lookup(word) == i
        assert word in model
    if model.info.lowercase:
        assert model.lookup(model.word(0).upper()) == 0
    assert "no-such-word-here" not in model
    assert 42 not in model  # type: ignore[operator]
    with pytest.raises(dxtext.NotFoundError) as e:
        model.lookup("no-such-word-here")
    assert e.value.status == 12
    assert isinstance(e.value, LookupError)
    with pytest.raises(dxtext.NotFoundError):  # beyond the vocabulary; -1, 2**32: test_errors.py
        model.word(len(model))


def test_nearest(golden: dxtext.Model) -> None:
    assert golden.word(golden.nearest([0.1, 0.2, -0.3, 0.4])) == "gamma"
    with pytest.raises(dxtext.InvalidArgumentError):
        golden.nearest([0.1, 0.2])


def test_fingerprint_and_from_bytes(model: dxtext.Model, model_path: Path) -> None:
    digest = model.fingerprint()
    assert len(digest) == 32
    data = bytearray(model_path.read_bytes())
    with dxtext.Model.from_bytes(data, verify_digests=True) as copy:
        data[:] = bytes(len(data))  # the Model keeps its own aligned copy
        assert copy.fingerprint() == digest
        assert copy.path is None
        assert copy.privatize(copy.word(0), epsilon=1.0) in {copy.word(i) for i in range(len(copy))}
    with dxtext.Model.from_bytes(memoryview(model_path.read_bytes())) as view:
        assert len(view) == len(model)


def test_close_and_context_manager(model_path: Path) -> None:
    with dxtext.Model.open(model_path) as m:
        m.privatize("x", epsilon=1)
    assert m.closed
    assert "closed" in repr(m)
    with pytest.raises(dxtext.InvalidArgumentError):
        m.privatize("x", epsilon=1)
    with pytest.raises(dxtext.InvalidArgumentError):
        _ = m.info
    m.close()  # twice is fine


def test_default_model(model_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DXTEXT_MODEL", str(model_path))
    assert dxtext.Model.default_path() == str(model_path)
    assert dxtext.Model.default_path("euclidean") == str(model_path)
    with dxtext.Model.default() as m:
        assert m.path == str(model_path)
    long_path = str(model_path.parent) + "/." * 200 + "/" + model_path.name  # longer than any first buffer
    monkeypatch.setenv("DXTEXT_MODEL", long_path)
    assert dxtext.Model.default_path() == long_path
    monkeypatch.setenv("DXTEXT_MODEL", str(model_path) + ".missing")
    with pytest.raises(dxtext.NotFoundError):
        dxtext.Model.default_path()
    with pytest.raises(dxtext.InvalidArgumentError):
        dxtext.Model.default_path("flat")
