# SPDX-License-Identifier: Apache-2.0
"""Status codes become typed exceptions."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import dxtext
from dxtext.errors import error_for


# 0, -1 and out of range, in each call: the conformance suite; here the floats JSON cannot write.
@pytest.mark.parametrize("epsilon", [math.nan, math.inf, -math.inf])
def test_bad_epsilon(model: dxtext.Model, epsilon: float) -> None:
    with pytest.raises(dxtext.InvalidEpsilonError) as e:
        model.privatize("hello", epsilon=epsilon)
    assert e.value.status == 2
    assert e.value.status_name == "invalid epsilon"
    assert "epsilon" in str(e.value)
    assert isinstance(e.value, dxtext.DxtextError)
    assert isinstance(e.value, ValueError)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(dxtext.DxtextIOError) as e:
        dxtext.Model.open(tmp_path / "missing.dxe")
    assert e.value.status == 3
    assert isinstance(e.value, OSError)
    assert e.value.detail != ""


def test_corrupt_models(golden_bytes: bytes, tmp_path: Path) -> None:
    with pytest.raises(dxtext.TruncatedModelError) as truncated:
        dxtext.Model.from_bytes(golden_bytes[: len(golden_bytes) // 2])
    assert truncated.value.status == 7
    assert isinstance(truncated.value, dxtext.ModelError)

    # Files (truncated, not a model, a damaged header) with their messages: the conformance suite.
    with pytest.raises(dxtext.ModelError):
        dxtext.Model.from_bytes(b"")

    flipped = bytearray(golden_bytes)
    flipped[641] ^= 0x40  # in the matrix section, which starts at byte 640 of the golden file
    with dxtext.Model.from_bytes(flipped):  # structure is fine; digests are only checked on request
        pass
    with pytest.raises(dxtext.DigestMismatchError) as digest:
        dxtext.Model.from_bytes(flipped, verify_digests=True)
    assert digest.value.status == 8

    header = bytearray(golden_bytes)
    header[8] = 2  # version_major (docs/format.md §3)
    with pytest.raises(dxtext.UnsupportedVersionError):
        dxtext.Model.from_bytes(header)


def test_invalid_utf8(model: dxtext.Model) -> None:
    with pytest.raises(dxtext.InvalidUtf8Error) as e:
        model.privatize("caf\udce9", epsilon=1.0)
    assert e.value.status == 11
    with pytest.raises(dxtext.InvalidUtf8Error):
        model.privatize_bag({"\ud800": 1}, epsilon=1.0)
    assert "\ud800" not in model


def test_status_mapping() -> None:
    assert type(error_for(2, "invalid epsilon", "x")) is dxtext.InvalidEpsilonError
    assert type(error_for(6, "corrupt model", "")) is dxtext.CorruptModelError
    assert type(error_for(16, "internal error", "")) is dxtext.InternalError
    busy = error_for(17, "context in use by another thread", "")
    assert type(busy) is dxtext.ContextBusyError and isinstance(busy, RuntimeError)
    unknown = error_for(99, "unknown status", "from a newer library")
    assert type(unknown) is dxtext.DxtextError
    assert unknown.status == 99
    # The library's message is the whole message: no status text before it.
    assert str(unknown) == "from a newer library"
    assert str(error_for(4, "not a dxtext model", "")) == "not a dxtext model"


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.calibrate(epsilon=1.0, words=1, trials=2**32 + 3),  # ctypes kept the low bits: 3 trials
        lambda m: m.calibrate(epsilon=1.0, words=-1, trials=1),  # ctypes made it 2**32 - 1: every word
        lambda m: m.syntf({"the": 1}, epsilon=1.0, n_out=-1),
        lambda m: m.syntf({"the": 1}, epsilon=1.0, n_out=2**32),
        lambda m: m.privatize_bag({"the": -1}, epsilon=1.0),
        lambda m: m.privatize_bag({"the": 2**64}, epsilon=1.0),
        lambda m: m.privatize("the", epsilon=1.0, ivf_nprobe=2**32),  # options go as text: the library's range
        lambda m: m.privatize("the", epsilon=1.0, mechanism=2**32 + 1),
    ],
)
def test_integers_out_of_range_are_refused_not_truncated(model: dxtext.Model, call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(dxtext.InvalidArgumentError):
        call(model)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda m: m.calibrate(epsilon=1.0, words=1.5, trials=1), "words must be an int, not float"),
        (lambda m: m.calibrate(epsilon=1.0, words=1, trials=True), "trials must be an int, not bool"),
        (lambda m: m.syntf({"the": 1}, epsilon=1.0, n_out="3"), "n_out must be an int, not str"),
        (lambda m: m.privatize_bag({"the": 1.0}, epsilon=1.0), "must be an int, not float"),
        (lambda m: m.privatize("the", epsilon=1.0, placeholder=b"[x]"), "placeholder must be str, not bytes"),
        (lambda m: m.privatize("the", epsilon=1.0, search="ivf", ivf_nprobe=2.5), "ivf_nprobe must be an int"),
        (lambda m: m.word("3"), "index must be an int, not str"),
        (lambda m: m.privatize("hello", epsilon="5"), "epsilon must be a number, not str"),
        (lambda m: m.privatize(b"bytes", epsilon=1.0), "text must be str, not bytes"),
        (lambda m: dxtext.Model(None, None), "use Model.open()"),
    ],
)
def test_wrong_types_name_the_argument_and_the_type(model: dxtext.Model, call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError) as e:
        call(model)
    assert message in str(e.value)


def test_word_index_out_of_range(model: dxtext.Model) -> None:
    for index in (-1, 2**32, 2**64 + 1):
        with pytest.raises(dxtext.NotFoundError):
            model.word(index)
