# SPDX-License-Identifier: Apache-2.0
"""The C calls that Model and Ledger share: the privatising calls, with
their records and diagnostics and the library-owned text and bags they
return, and the bags they take."""

from __future__ import annotations

import ctypes
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple, Union

from . import _library as native
from .options import unsigned
from .reports import LocalDiagnostics, ReleaseRecord

BagLike = Union[Mapping[str, int], Iterable[Tuple[str, int]]]


def _call(function: Any, args: Tuple[Any, ...], diagnostics: Optional[LocalDiagnostics], *out: Any) -> ReleaseRecord:
    """function(*args, *out, &record, &diagnostics), as every privatising
    call is: its record, after filling `diagnostics`. Raises the call's
    error; the library then leaves nothing in `out` to free."""
    record = native.initialised(native.dxt_release_record)
    raw = native.initialised(native.dxt_local_diagnostics)
    native.check(function(*args, *out, ctypes.byref(record), ctypes.byref(raw)))
    if diagnostics is not None:
        diagnostics._set(raw)
    return ReleaseRecord(record)


def _call_text(
    function: Any, args: Tuple[Any, ...], diagnostics: Optional[LocalDiagnostics], *more: Any
) -> Tuple[str, ReleaseRecord]:
    """A dxt_privatize_text, dxt_privatize_word or dxt_ledger_privatize_text
    call (`more`: its outputs between the text and the record): the text it
    returned, freed here, and its record."""
    out = ctypes.c_void_p()
    length = ctypes.c_size_t()
    record = _call(function, args, diagnostics, ctypes.byref(out), ctypes.byref(length), *more)
    try:
        return (ctypes.string_at(out.value, length.value).decode("utf-8") if out.value else ""), record
    finally:
        native.lib().dxt_text_free(out)


def _bag_entries(bag: BagLike) -> Tuple[ctypes.Array, List[bytes]]:  # type: ignore[type-arg]
    """The C entries of a bag, and the encoded words they point into (keep
    the list alive for the call)."""
    items = list(bag.items()) if isinstance(bag, Mapping) else list(bag)
    entries = (native.dxt_bag_entry * len(items))()
    keep: List[bytes] = []
    for i, (word, count) in enumerate(items):
        data = native.utf8(word, "bag word")
        unsigned(count, f"the count of {word!r}", 64)
        keep.append(data)
        entries[i].word = ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p).value
        entries[i].length = len(data)
        entries[i].count = count
    return entries, keep


def _call_bag(
    function: Any, args: Tuple[Any, ...], diagnostics: Optional[LocalDiagnostics]
) -> Tuple[Dict[str, int], ReleaseRecord]:
    """A dxt_privatize_bag or dxt_syntf call: the Python dict of the bag it
    returned, which is then freed, and its record."""
    out = ctypes.POINTER(native.dxt_bag)()
    record = _call(function, args, diagnostics, ctypes.byref(out))
    try:
        bag = out.contents
        result: Dict[str, int] = {}
        for i in range(bag.size):
            entry = bag.entries[i]
            word = ctypes.string_at(entry.word, entry.length).decode("utf-8")
            result[word] = result.get(word, 0) + int(entry.count)
        return result, record
    finally:
        native.lib().dxt_bag_free(out)
