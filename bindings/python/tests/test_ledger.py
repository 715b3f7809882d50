# SPDX-License-Identifier: Apache-2.0
"""The privacy ledger through the Python binding: totals, fresh=, set_cap,
its arguments, its errors' classes and the anchor."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import dxtext

TEXT = "the quick brown fox jumps over the lazy dog"
KEY = b"k" * 32  # an app key: without one a ledger memoises nothing


def test_totals_fresh_and_set_cap(model: dxtext.Model, tmp_path: Path) -> None:
    # Spending, refusal and the memo (with a key; without one, a repeat is
    # charged and refused past the cap like any other text) are the
    # conformance suite's; here the binding's totals, fresh= and set_cap.
    path = tmp_path / "l.dxl"
    with dxtext.Ledger.open(path, scope="alice", cap=10, key=KEY) as ledger:
        first = ledger.privatize(model, TEXT, epsilon=4)
        assert first.record.epsilon == 4
        assert ledger.privatize(model, TEXT, epsilon=4).memoised
        ledger.privatize(model, "hello world", epsilon=4)
        totals = ledger.totals()
        assert (totals.spent, totals.releases, totals.memoised, totals.cap) == (8, 2, 2, 10)
        assert totals.remaining == 2
        with pytest.raises(dxtext.BudgetExceededError):
            ledger.privatize(model, TEXT, epsilon=4, fresh=True)
        ledger.set_cap(20)
        assert not ledger.privatize(model, TEXT, epsilon=4, fresh=True).memoised
        assert ledger.totals().spent == 12
    with dxtext.Ledger.open(path, scope="bob", cap=1, key=KEY) as bob:
        assert bob.totals().spent == 0 and bob.totals().cap == 1


def test_model_privatize_through_a_ledger(model: dxtext.Model, tmp_path: Path) -> None:
    with dxtext.Ledger.open(tmp_path / "l.dxl", scope="alice", cap=10, key=KEY) as ledger:
        first = model.privatize(TEXT, epsilon=4, ledger=ledger)
        text, record = model.privatize(TEXT, epsilon=4, ledger=ledger, with_record=True)
        assert text == first and record.epsilon == 4
        assert ledger.totals().spent == 4 and ledger.totals().releases == 1
        assert ledger.privatize(model, TEXT, epsilon=4).memoised


def test_bad_arguments(model: dxtext.Model, tmp_path: Path) -> None:
    with pytest.raises(dxtext.InvalidArgumentError):
        dxtext.Ledger.open(tmp_path / "l.dxl", cap=math.nan)
    with pytest.raises(dxtext.InvalidArgumentError):
        dxtext.Ledger.open(tmp_path / "l.dxl", scope="")
    with pytest.raises(dxtext.InvalidArgumentError):
        dxtext.Ledger.open(tmp_path / "l.dxl", key=b"short")
    with pytest.raises(TypeError):
        dxtext.Ledger.open(tmp_path / "l.dxl", cap="5")  # type: ignore[arg-type]
    with pytest.raises(dxtext.DxtextIOError):
        dxtext.Ledger.open(tmp_path / "missing" / "l.dxl")
    ledger = dxtext.Ledger.open(tmp_path / "l.dxl", cap=1)
    with pytest.raises(TypeError):
        ledger.privatize("not a model", "hello", epsilon=1)  # type: ignore[arg-type]
    ledger.close()
    ledger.close()
    with pytest.raises(dxtext.InvalidArgumentError):
        ledger.totals()


def test_corrupt_and_keyed_files(tmp_path: Path) -> None:
    path = tmp_path / "l.dxl"
    dxtext.Ledger.open(path, cap=3).close()
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(dxtext.LedgerCorruptError) as e:
        dxtext.Ledger.open(path)
    assert e.value.status == 19
    assert path.read_bytes() == bytes(data)  # left as it was
    # Every damaged byte, links, FIFOs, other keys and processes sharing a
    # file: the C tests (tests/unit/test_ledger.cpp); here the key reaches the library.
    keyed = tmp_path / "k.dxl"
    dxtext.Ledger.open(keyed, cap=3, key=KEY).close()
    with pytest.raises(dxtext.LedgerCorruptError):
        dxtext.Ledger.open(keyed, key=b"x" * 32)


def test_a_scope_with_a_nul_is_refused(tmp_path: Path) -> None:
    # Issue 27, case 7: "user\0day1" and "user\0day2" must not both open "user".
    path = tmp_path / "l.dxl"
    for scope in ("user\0day1", "user\0day2", "\0"):
        with pytest.raises(dxtext.InvalidArgumentError, match="NUL"):
            dxtext.Ledger.open(path, scope=scope, cap=1)
    assert not path.exists()


def test_an_existing_scope_keeps_its_cap(tmp_path: Path) -> None:
    # Issue 27, case 4: a cap changes only through set_cap, in every interface.
    path = tmp_path / "l.dxl"
    dxtext.Ledger.open(path, scope="alice", cap=8).close()
    with dxtext.Ledger.open(path, scope="alice", cap=1000) as ledger:
        assert ledger.totals().cap == 8
        ledger.set_cap(12)
    with dxtext.Ledger.open(path, scope="alice") as ledger:
        assert ledger.totals().cap == 12


def test_a_rollback_is_refused_against_the_anchor(model: dxtext.Model, tmp_path: Path) -> None:
    # Issue 27, case 1, in every case: the C tests (tests/unit/test_ledger.cpp);
    # here the anchor's fields, its 32 bytes and its way back to the library.
    path = tmp_path / "l.dxl"
    with dxtext.Ledger.open(path, cap=8) as ledger:
        ledger.privatize(model, "hello", epsilon=4)
        saved = path.read_bytes()
        ledger.privatize(model, "world", epsilon=4)
        anchor = ledger.anchor()
    assert anchor.spent == 8 and len(anchor.ledger_id) == 16
    assert dxtext.LedgerAnchor.from_bytes(anchor.to_bytes()) == anchor
    path.write_bytes(saved)
    with pytest.raises(dxtext.LedgerRollbackError) as e:
        dxtext.Ledger.open(path, anchor=anchor)
    assert e.value.status == 20 and "rolled back" in str(e.value)
