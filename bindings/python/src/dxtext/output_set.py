# SPDX-License-Identifier: Apache-2.0
"""Output vocabularies: a public list of a model's words that the mechanisms
may release (dxt_output_set_create). Build one with Model.output_set(words)
and pass it as output_words= to any number of calls, or pass the list of
words itself (built anew for that call)."""

from __future__ import annotations

import ctypes
from typing import Any, Iterable, Tuple

from . import _library as native


def word_array(words: Iterable[str], what: str) -> Tuple[Tuple[str, ...], "ctypes.Array[ctypes.c_char_p]"]:
    """The words as given, and the array of C strings the library takes for
    them (c_string: each a str without NUL); a TypeError for one string."""
    if isinstance(words, (str, bytes)) or not hasattr(words, "__iter__"):
        raise TypeError(f"{what} must be a list of str, not {type(words).__name__}")
    listed = tuple(words)
    encoded = [native.c_string(word, f"one of the {what}") for word in listed]
    return listed, (ctypes.c_char_p * max(len(encoded), 1))(*encoded)  # the array keeps the bytes alive


class OutputSet:
    """An output vocabulary of one model (Model.output_set). Immutable and
    safe to share between threads; it keeps its model open while it lives.
    The words must be public and fixed in advance: never made from the text
    being privatised (docs/guarantees.md, "Output vocabularies")."""

    __slots__ = ("_set", "_model", "_words")

    def __init__(self, _model: Any, words: Iterable[str]) -> None:
        """Use Model.output_set(words)."""
        listed, array = word_array(words, "output words")
        self._set = native.Owned("dxt_output_set_free")
        self._set.create(native.lib().dxt_output_set_create, _model, array, len(listed))
        self._model = _model  # the model outlives the set
        self._words: Tuple[str, ...] = listed

    @property
    def words(self) -> Tuple[str, ...]:
        """The words as they were given."""
        return self._words

    def __len__(self) -> int:
        return int(native.lib().dxt_output_set_size(self._set))

    def __repr__(self) -> str:
        return f"<dxtext.OutputSet of {len(self)} words>"
