# SPDX-License-Identifier: Apache-2.0
"""The privacy ledger (docs/budgets.md): a file the app owns that adds up,
per scope (a user, a user and a day, ...), the epsilon of every release, refuses
releases past a cap before any noise is drawn, and, when opened with an app
key, gives the same output again, at no cost, when the same text is
privatised again. Store ledger.anchor() outside the file after every call
and pass it back to open(), or a restored older copy of the file goes
unnoticed (docs/budgets.md, "Rollback").

    with dxtext.Ledger.open("privacy.dxl", scope="user-42", cap=200, key=app_key,
                            anchor=stored_anchor) as ledger:
        release = ledger.privatize(model, "see you at noon", epsilon=8)
        stored_anchor = ledger.anchor()
        print(release.text, release.memoised, ledger.totals().spent)
"""

from __future__ import annotations

import ctypes
import functools
import json
import os
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, Optional

from . import _library as native
from .calls import _call_text
from .errors import invalid_argument
from .model import Model, PathLike
from .options import SeedLike, number, unsigned
from .reports import LocalDiagnostics, ReleaseRecord, from_struct

if TYPE_CHECKING:  # pragma: no cover
    from typing_extensions import Unpack

    from ._options_table import OptionValues

MEMO_DEFAULT = 64  # DXT_LEDGER_MEMO_DEFAULT
MEMO_MAX = 4096  # DXT_LEDGER_MEMO_MAX
_FRESH = 0x1  # DXT_LEDGER_FRESH


@dataclass(frozen=True)
class LedgerTotals:
    """A scope's totals. The budget unit is epsilon summed over releases
    (epsilon_total for syntf's any-input releases)."""

    # generated: LedgerTotals (tools/options/generate.py, from include/dxtext/dxtext.h)
    cap: float
    spent: float  # sum of the costs of all releases
    spent_any_inputs: float  # the part of spent from ANY_INPUTS releases
    releases: int  # releases counted (memoised repeats are not)
    memoised: int  # outputs in the memo now
    memo_capacity: int
    words: int  # words privatised over all releases
    # generated: end LedgerTotals

    @property
    def remaining(self) -> float:
        return max(0.0, self.cap - self.spent)


@dataclass(frozen=True)
class LedgerAnchor:
    """What the app keeps outside the ledger file to detect a rollback (an
    older copy of the file put back, or the file deleted): take it with
    Ledger.anchor() after every call, store it where the file's writer cannot
    (a keystore, a server), and give it back to Ledger.open(anchor=...).
    Without it a rollback is not detected (docs/budgets.md, "Rollback")."""

    ledger_id: bytes
    commits: int
    spent: float

    def to_bytes(self) -> bytes:
        """32 bytes to store: the id, the commits and the spent total
        (dxt_ledger_anchor_encode: the same bytes in every binding)."""
        out = ctypes.create_string_buffer(32)
        native.check(native.lib().dxt_ledger_anchor_encode(ctypes.byref(self._struct()), out, len(out)))
        return out.raw

    @classmethod
    def from_bytes(cls, data: bytes) -> "LedgerAnchor":
        """The anchor of the 32 bytes to_bytes() gave; InvalidArgumentError
        for any other length or a spent total no ledger has."""
        raw = native.initialised(native.dxt_ledger_anchor)
        data = bytes(data)
        native.check(native.lib().dxt_ledger_anchor_decode(data, len(data), ctypes.byref(raw)))
        return from_struct(cls, raw, ledger_id=bytes)

    def _struct(self) -> native.dxt_ledger_anchor:
        if len(self.ledger_id) != 16:
            raise invalid_argument("anchor.ledger_id is 16 bytes")
        raw = native.initialised(native.dxt_ledger_anchor)
        raw.ledger_id[:] = list(self.ledger_id)
        raw.commits = unsigned(self.commits, "anchor.commits", 64)
        raw.spent = float(self.spent)
        return raw


@dataclass(frozen=True)
class LedgerRelease:
    """What Ledger.privatize returns: the text, whether it came from the memo
    (then nothing was drawn or spent), and the release record."""

    text: str
    memoised: bool
    record: ReleaseRecord


class Ledger:
    """A scope of a ledger file. Calls on one Ledger are serialised; several
    Ledger objects, in any number of processes, may share a file."""

    def __init__(self, handle: native.Owned) -> None:
        self._handle = handle
        self._lock = threading.Lock()

    @classmethod
    def open(
        cls,
        path: PathLike,
        *,
        scope: str = "default",
        cap: float = 0.0,
        memo_capacity: int = MEMO_DEFAULT,
        key: Optional[bytes] = None,
        anchor: Optional[LedgerAnchor] = None,
    ) -> "Ledger":
        """Open (or create) the ledger file at `path` and select `scope`.

        cap and memo_capacity apply when the scope is new (an existing scope
        keeps its own; change the cap with set_cap). key (16 to 64 bytes,
        e.g. from the platform keystore) makes the file's MAC unforgeable
        without it; without a key nothing is memoised (the file would hold
        the memo secret). anchor, the one stored after the last call, makes
        an older copy of the file put back raise LedgerRollbackError.
        Raises LedgerCorruptError for a damaged or edited file.
        """
        name = native.c_bytes(os.fsencode(path), "the path")
        scope_name = native.c_string(scope, "scope")
        options = native.initialised(native.dxt_ledger_options)
        options.cap = number(cap, "cap")
        options.memo_capacity = unsigned(memo_capacity, "memo_capacity", 32)
        if anchor is not None:
            if not isinstance(anchor, LedgerAnchor):
                raise TypeError(f"anchor must be a LedgerAnchor, not {type(anchor).__name__}")
            options.anchor = ctypes.pointer(anchor._struct())  # kept alive by options
        key_buffer = None
        if key is not None:
            if not isinstance(key, (bytes, bytearray)):
                raise TypeError(f"key must be bytes, not {type(key).__name__}")
            key_buffer = ctypes.create_string_buffer(bytes(key), len(key))
            options.key = ctypes.cast(key_buffer, ctypes.c_void_p).value
            options.key_length = len(key)
        handle = native.Owned("dxt_ledger_close")
        try:
            handle.create(native.lib().dxt_ledger_open, name, scope_name, ctypes.byref(options))
        finally:
            if key_buffer is not None:
                ctypes.memset(key_buffer, 0, len(key_buffer))
        return cls(handle)

    def close(self) -> None:
        """Release the handle (the file stays). Closing twice is fine."""
        with self._lock:
            self._handle.close()

    def __enter__(self) -> "Ledger":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _require(self) -> native.Owned:
        if not self._handle.ptr:
            raise invalid_argument("the ledger is closed")
        return self._handle

    def set_cap(self, cap: float) -> None:
        """Set the scope's cap (finite, >= 0)."""
        cap = number(cap, "cap")
        with self._lock:
            native.check(native.lib().dxt_ledger_set_cap(self._require(), cap))

    def anchor(self) -> LedgerAnchor:
        """The ledger's anchor now: store it after every call (replacing the
        one before) and give it to Ledger.open(anchor=...) next time."""
        raw = native.initialised(native.dxt_ledger_anchor)
        with self._lock:
            native.check(native.lib().dxt_ledger_get_anchor(self._require(), ctypes.byref(raw)))
        return from_struct(LedgerAnchor, raw, ledger_id=bytes)

    def totals(self) -> LedgerTotals:
        """The scope's totals, read from the file."""
        raw = native.initialised(native.dxt_ledger_totals)
        with self._lock:
            native.check(native.lib().dxt_ledger_get_totals(self._require(), ctypes.byref(raw)))
        return from_struct(LedgerTotals, raw)

    def to_dict(self) -> Dict[str, Any]:
        """The scope as `dxtext ledger` prints it: totals, spent epsilon per
        metric, and the composed guarantee in words."""
        with self._lock:
            text = native.sized_string(functools.partial(native.lib().dxt_ledger_to_json, self._require()))
        return dict(json.loads(text.decode("utf-8")))

    def privatize(
        self,
        model: Model,
        text: str,
        *,
        fresh: bool = False,
        seed: Optional[SeedLike] = None,
        local_diagnostics: Optional[LocalDiagnostics] = None,
        **options: Unpack[OptionValues],
    ) -> LedgerRelease:
        """Model.privatize through the ledger (the same options, a preset
        included). With an app key, the same text with the same options,
        model and seed returns the memoised output and spends nothing,
        unless fresh=True. Raises
        BudgetExceededError, before any noise is drawn, when the release
        would pass the cap."""
        if not isinstance(model, Model):
            raise TypeError(f"model must be a dxtext.Model, not {type(model).__name__}")
        data = native.utf8(text, "text")
        first = model._call_args(options, seed)
        memoised = ctypes.c_bool(False)
        with self._lock:
            args = (self._require(), *first, data, len(data), _FRESH if fresh else 0)
            out, record = _call_text(native.lib().dxt_ledger_privatize_text, args, local_diagnostics,
                                     ctypes.byref(memoised))
        return LedgerRelease(out, bool(memoised.value), record)


__all__ = ["Ledger", "LedgerAnchor", "LedgerRelease", "LedgerTotals", "MEMO_DEFAULT", "MEMO_MAX"]
