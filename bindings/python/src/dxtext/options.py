# SPDX-License-Identifier: Apache-2.0
"""Keyword options of the privatisation calls, passed to the library by
name (dxt_options_set): every option of tools/options/privatize_options.table
is accepted with no code of its own here. The library checks names and
values and words its errors; this module only turns Python values into text
by the option's type (from the generated _options_table.py) and raises
TypeError for a value of the wrong Python type."""

from __future__ import annotations

import enum
import os
import sys
import warnings
from typing import Any, Dict, Mapping, Optional, Union

from . import _library as native
from ._options_table import OPTIONS
from .errors import invalid_argument
from .output_set import OutputSet, word_array

SeedLike = Union[bytes, bytearray, int, str]
_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep

_TYPES: Dict[str, str] = {o.name: o.type for o in OPTIONS}


class NotPrivateWarning(UserWarning):
    """Issued when a call uses seed=: its noise is reproducible and gives no privacy."""


# The Python types of each option type's values, and how a TypeError says them.
_EXPECTED = {
    "enum": ((str, int), "a name (str) or a number"),
    "double": ((int, float), "a number"),
    "uint32": ((int,), "an int"),
    "string": ((str,), "str"),
}


def _check_type(value: object, kind: str, name: str) -> None:
    """A TypeError unless `value` is of a Python type for the option type
    `kind` (a bool is none, though Python counts it an int)."""
    types, expected = _EXPECTED[kind]
    if isinstance(value, bool) or not isinstance(value, types):
        raise TypeError(f"{name} must be {expected}, not {type(value).__name__}")


def unsigned(value: int, name: str, bits: int) -> int:
    """`value` as an int for a C uint{bits}_t: ctypes would silently keep the
    low bits (2**32 + 3 trials would run 3, -1 words all of them), so a
    value of another type is a TypeError and one out of range an
    InvalidArgumentError."""
    _check_type(value, "uint32", name)
    if not 0 <= value < 1 << bits:
        raise invalid_argument(f"{name} must be in [0, 2**{bits}), not {value}")
    return value


def number(value: float, name: str) -> float:
    """`value` as a float for a C double: a TypeError for a value that is no
    int or float."""
    _check_type(value, "double", name)
    return float(value)


def _text(name: str, kind: Optional[str], value: object) -> bytes:
    """The text dxt_options_set takes for `value`, by the option's type; an
    unknown option's value goes as it is, for the library to refuse the name.
    The library checks the text (a range, a name) as it checks the CLI's."""
    if kind == "enum" and isinstance(value, enum.Enum):
        value = value.value
    if kind in _EXPECTED:
        _check_type(value, kind, name)
    return native.c_string(repr(float(value)) if isinstance(value, float) else str(value), name)


class Options:
    """A dxt_options handle holding the options of one call on `model` (a
    model handle, or None), passed to a C call as its dxt_privatize_options
    (_as_parameter_). Names may be snake_case (as in docs/options.md) or
    camelCase; setting goes through the library."""

    __slots__ = ("_options", "_model", "_as_parameter_")

    def __init__(self, model: Any, given: Mapping[str, object]) -> None:
        library = native.lib()
        self._options = native.Owned("dxt_options_destroy")
        self._options.create(library.dxt_options_create, model)
        self._model = model  # the model outlives the options
        for name, value in given.items():
            if value is None:
                continue
            encoded = native.c_string(name, "an option's name")
            kind = _TYPES.get(name)
            if kind == "words":
                if isinstance(value, OutputSet) and value._model is not model:
                    raise invalid_argument(f"{name}: the OutputSet was built for another model than the call's")
                words = value.words if isinstance(value, OutputSet) else value
                listed, array = word_array(words, name)  # type: ignore[arg-type]
                native.check(library.dxt_options_set_words(self._options, encoded, array, len(listed)))
            else:
                native.check(library.dxt_options_set(self._options, encoded, _text(name, kind, value)))
        self._as_parameter_ = library.dxt_options_get(self._options)


def seed_bytes(seed: SeedLike) -> bytes:
    """A 32-byte seed from 32 bytes, 64 hex digits (as the CLI's --seed) or
    an int in [0, 2**256) (big-endian, so seed=1 equals --seed 00..01)."""
    if isinstance(seed, (bytes, bytearray)):
        if len(seed) != 32:
            raise invalid_argument(f"a seed of bytes must be 32 bytes long, not {len(seed)}")
        return bytes(seed)
    if isinstance(seed, str):
        try:
            value = bytes.fromhex(seed)
        except ValueError:
            value = b""
        if len(value) != 32:
            raise invalid_argument("a seed string must be 64 hexadecimal digits")
        return value
    if isinstance(seed, int) and not isinstance(seed, bool):
        if not 0 <= seed < 2**256:
            raise invalid_argument("an integer seed must be in [0, 2**256)")
        return seed.to_bytes(32, "big")
    raise TypeError(f"seed must be bytes, str or int, not {type(seed).__name__}")


def warn_not_private() -> None:
    """Warns, at the caller's line: the first frame outside this package."""
    level, frame = 1, sys._getframe(0)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        level, frame = level + 1, frame.f_back
    warnings.warn(
        "seed= makes the noise reproducible: the output is NOT private (testing and research only)",
        NotPrivateWarning,
        stacklevel=level,
    )
