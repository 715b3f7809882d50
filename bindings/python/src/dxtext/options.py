# SPDX-License-Identifier: Apache-2.0
"""Keyword options of the privatisation calls, turned into the C options
struct. Validation of values (epsilon, parameters) is the library's job; this
module only converts names and types."""

from __future__ import annotations

import warnings
from typing import Mapping, Optional, Union

from . import _library as native
from ._options_table import OPTIONS, Option
from .enums import Mechanism, Policy
from .errors import error_for
from .output_set import OutputSet

MechanismLike = Union[Mechanism, str, int]
PolicyLike = Union[Policy, str, int]
SeedLike = Union[bytes, bytearray, int, str]

# Every option has the name of tools/options/privatize_options.table
# (_options_table.py is generated from it); the calls take epsilon,
# mechanism, the four policies and placeholder as named parameters, and the
# others (the mechanism parameters) as keyword arguments.
_OPTIONS = {option.name: option for option in OPTIONS}
_NAMED = ("epsilon", "mechanism", "in_vocabulary", "oov", "numbers", "stopwords", "placeholder")
PARAMETERS = tuple(option.name for option in OPTIONS if option.name not in _NAMED)


class NotPrivateWarning(UserWarning):
    """Issued when a call uses seed=: its noise is reproducible and gives no privacy."""


def invalid_argument(detail: str) -> Exception:
    return error_for(1, "invalid argument", detail)


def unsigned(value: object, name: str, bits: int) -> int:
    """`value` as an int for a C uint{bits}_t: ctypes would silently keep the
    low bits (2**32 + 3 trials would run 3, -1 words all of them), so a
    value of another type is a TypeError and one out of range an
    InvalidArgumentError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not 0 <= value < 1 << bits:
        raise invalid_argument(f"{name} must be in [0, 2**{bits}), not {value}")
    return value


def _enum_number(option: Option, value: object) -> int:
    """The C number of an enum option's value: one of its names
    ("permute-and-flip", any case, '_' for '-'), or a member or number of
    the matching enum (Mechanism.VICKREY, 6)."""
    values = option.values or {}
    if isinstance(value, str):
        key = value.strip().lower().replace("_", "-")
        if key in values:
            return values[key]
    elif isinstance(value, int) and not isinstance(value, bool) and int(value) in values.values():
        return int(value)
    raise invalid_argument(f"unknown {option.name} {value!r} (one of {', '.join(values)})")


def _set(o: native.PrivatizeOptions, option: Option, value: object) -> None:
    if option.type == "enum":
        number: object = _enum_number(option, value)
    elif option.type == "uint32":
        number = unsigned(value, option.name, 32)
    elif option.type == "double":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"{option.name} must be a number, not {type(value).__name__}")
        number = float(value)
    elif option.type == "words":  # output_words: an OutputSet (make_options builds one from a list)
        if not isinstance(value, OutputSet):
            raise TypeError(f"{option.name} must be a list of str or an OutputSet, not {type(value).__name__}")
        o.output_set = value._ptr
        o._output_set = value  # alive as long as the struct
        return
    else:  # string: the placeholder
        if not isinstance(value, str):
            raise TypeError(f"{option.name} must be str, not {type(value).__name__}")
        if "\0" in value:
            raise invalid_argument(f"the {option.name} contains a NUL character")
        # ctypes keeps the encoded bytes alive as long as the struct.
        number = value.encode("utf-8", "surrogatepass")
    field, _, index = option.field.partition("[")
    if index:
        getattr(o, field)[int(index.rstrip("]"))] = number
    else:
        setattr(o, field, number)


def make_options(
    epsilon: Optional[float],
    mechanism: Optional[MechanismLike],
    in_vocabulary: Optional[PolicyLike],
    oov: Optional[PolicyLike],
    numbers: Optional[PolicyLike],
    stopwords: Optional[PolicyLike],
    placeholder: Optional[str],
    params: Mapping[str, object],
    model: Optional[object] = None,
) -> native.PrivatizeOptions:
    """The C options for one call. Unknown keyword parameters raise TypeError.
    An epsilon of None is left unset (0): a preset then gives it, and
    without one the library refuses it. output_words given as a list of
    words is made into an OutputSet of `model` (the model's handle)."""
    o = native.initialised(native.PrivatizeOptions, "dxt_privatize_options_init_sized")
    if epsilon is not None and (isinstance(epsilon, bool) or not isinstance(epsilon, (int, float))):
        raise TypeError(f"epsilon must be a number, not {type(epsilon).__name__}")
    given = {"epsilon": epsilon, "mechanism": mechanism, "in_vocabulary": in_vocabulary, "oov": oov,
             "numbers": numbers, "stopwords": stopwords, "placeholder": placeholder}
    for name in params:
        if name not in PARAMETERS:
            raise TypeError(f"unknown option {name!r}; mechanism parameters are {', '.join(PARAMETERS)}")
    given.update(params)
    words = given.get("output_words")
    if words is not None and not isinstance(words, OutputSet):
        if model is None:
            raise TypeError("output_words must be an OutputSet here (Model.output_set(words))")
        given["output_words"] = OutputSet(model, words)  # type: ignore[arg-type]
    for name, value in given.items():
        if value is not None:
            _set(o, _OPTIONS[name], value)
    return o


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


def warn_not_private(stacklevel: int = 3) -> None:
    warnings.warn(
        "seed= makes the noise reproducible: the output is NOT private (testing and research only)",
        NotPrivateWarning,
        stacklevel=stacklevel,
    )
