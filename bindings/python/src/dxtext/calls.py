# SPDX-License-Identifier: Apache-2.0
"""The C calls that Model and Ledger share: encoding text, the record and
diagnostics of a call, and taking the library-owned text and bags it
returns. Neither model.py nor ledger.py imports the other's module for
these, so the two have no import cycle; Model.privatize(ledger=...) knows a
ledger only as LedgerLike."""

from __future__ import annotations

import ctypes
import os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Protocol, Tuple, Union

from . import _library as native
from .options import Options, SeedLike, invalid_argument, unsigned
from .reports import LocalDiagnostics, ReleaseRecord

BagLike = Union[Mapping[str, int], Iterable[Tuple[str, int]]]


class Released(Protocol):
    """What a ledger's release gives Model.privatize: the text and its record."""

    text: str
    record: ReleaseRecord


class LedgerLike(Protocol):
    """What Model.privatize(ledger=...) needs of a dxtext.Ledger."""

    def _release(
        self, model: Any, data: bytes, options: Options, seed: Optional[SeedLike],
        local_diagnostics: Optional[LocalDiagnostics], fresh: bool,
    ) -> Released: ...


def _encode(text: str, what: str) -> bytes:
    if not isinstance(text, str):
        raise TypeError(f"{what} must be str, not {type(text).__name__}")
    # Lone surrogates become invalid UTF-8, which the library rejects with
    # InvalidUtf8Error, like any other invalid input.
    return text.encode("utf-8", "surrogatepass")


def _path_bytes(path: Any) -> bytes:
    """A file's path as the C string the library opens."""
    name = os.fsencode(path)
    if b"\0" in name:
        raise invalid_argument("the path contains a NUL character")
    return name


def _outputs() -> Tuple[native.dxt_release_record, native.dxt_local_diagnostics]:
    """A fresh record and diagnostics for one call."""
    return (
        native.initialised(native.dxt_release_record, "dxt_release_record_init_sized"),
        native.initialised(native.dxt_local_diagnostics, "dxt_local_diagnostics_init_sized"),
    )


def _call_text(  # type: ignore[no-untyped-def]
    function, context: Any, options: Options, data: bytes, diagnostics: Optional[LocalDiagnostics]
) -> Tuple[str, ReleaseRecord]:
    """One dxt_privatize_text / dxt_privatize_word call."""
    record, raw = _outputs()
    out = ctypes.c_void_p()
    length = ctypes.c_size_t()
    status = function(
        context.ptr,
        options.pointer,
        data,
        len(data),
        ctypes.byref(out),
        ctypes.byref(length),
        ctypes.byref(record),
        ctypes.byref(raw),
    )
    text = _take_text(status, out, length)
    if diagnostics is not None:
        diagnostics._set(raw)
    return text, ReleaseRecord(record)


def _take_text(status: int, out: ctypes.c_void_p, length: ctypes.c_size_t) -> str:
    """The text a call returned in out/length (freed here), or its error."""
    try:
        native.check(status)
        return ctypes.string_at(out.value, length.value).decode("utf-8") if out.value else ""
    finally:
        native.lib().dxt_text_free(out)


def _bag_entries(bag: BagLike) -> Tuple[ctypes.Array, List[bytes]]:  # type: ignore[type-arg]
    """The C entries of a bag, and the encoded words they point into (keep
    the list alive for the call)."""
    items = list(bag.items()) if isinstance(bag, Mapping) else list(bag)
    entries = (native.dxt_bag_entry * len(items))()
    keep: List[bytes] = []
    for i, (word, count) in enumerate(items):
        data = _encode(word, "bag word")
        unsigned(count, f"the count of {word!r}", 64)
        keep.append(data)
        entries[i].word = ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p).value
        entries[i].length = len(data)
        entries[i].count = count
    return entries, keep


def _take_bag(status: int, out: "ctypes._Pointer[native.dxt_bag]") -> Dict[str, int]:
    """The Python dict of a library-owned bag, which is then freed."""
    library = native.lib()
    try:
        native.check(status)
        bag = out.contents
        result: Dict[str, int] = {}
        for i in range(bag.size):
            entry = bag.entries[i]
            word = ctypes.string_at(entry.word, entry.length).decode("utf-8")
            result[word] = result.get(word, 0) + int(entry.count)
        return result
    finally:
        library.dxt_bag_free(out)
