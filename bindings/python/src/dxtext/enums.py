# SPDX-License-Identifier: Apache-2.0
"""Enumerations of the C API, with the same numbers. Functions that take one
also accept its name as a string, in any case ("laplace", "permute-and-flip")."""

from __future__ import annotations

import enum
from typing import Type, TypeVar, Union


class Geometry(enum.IntEnum):
    UNKNOWN = 0
    EUCLIDEAN = 1
    POINCARE = 2


class Quantization(enum.IntEnum):
    UNKNOWN = 0
    F32 = 1
    F16 = 2
    INT8 = 3


class Mechanism(enum.IntEnum):
    """The mechanisms; docs/guarantees.md states and proves each guarantee."""

    UNKNOWN = 0
    LAPLACE = 1
    HYPERBOLIC = 2
    EXPONENTIAL = 3
    SYNTF = 4
    MAHALANOBIS = 5
    VICKREY = 6
    TEM = 7
    ORDERING = 8  # a few places along one of the model's public orderings


class Metric(enum.IntEnum):
    """The distance d of a release record's bound."""

    UNKNOWN = 0
    EUCLIDEAN = 1
    HYPERBOLIC = 2
    MAHALANOBIS = 3
    DISCRETE = 4
    ORDERING = 5  # the most places between two words along the model's orderings


class ReleaseKind(enum.IntEnum):
    """Which call made a release."""

    UNKNOWN = 0
    WORD = 1
    TEXT = 2
    BAG = 3
    SYNTHETIC_BAG = 4


class Bound(enum.IntEnum):
    """The form of a release's guarantee (docs/guarantees.md)."""

    UNKNOWN = 0
    WORD = 1  # epsilon * d(w, w')
    POSITIONWISE = 2  # ordered text: epsilon * sum_i d(x_i, x'_i); not EMD
    BAG_EMD = 3  # bags of equal size N: epsilon * N * EMD(b, b')
    ANY_INPUTS = 4  # epsilon_total-DP between any two inputs (syntf)


class Reveals(enum.IntFlag):
    """Features of the input that a release shows as they are."""

    NOTHING = 0
    WORD_COUNT = 0x1
    LAYOUT = 0x2
    CASE_SHAPE = 0x4
    TOKEN_CLASSES = 0x8
    KEPT_WORDS = 0x10
    SENTENCE_BOUNDARIES = 0x20  # normalize: where sentences end
    CLAUSE_BOUNDARIES = 0x40  # normalize: where other punctuation stood
    TYPED_CLASSES = 0x80  # which tokens are of a typed class (names, places, ...), and which class
    INPUT_WORDS = 0x100  # the model's geometry makes the mechanism keep its input
    NEGATIONS = 0x200  # which words are negators, and which: released as written (negations keep)


class ReleaseShape(enum.IntEnum):
    """What of the input's form a text release copies (option release_shape)."""

    KEEP = 1  # spans between words and case shapes verbatim
    NORMALIZE = 2  # one canonical mark per gap ('.', ',' or ' '), sentence capitals
    STRICT = 3  # the words alone, one space apart


def _preset_values() -> "dict[str, int]":
    from ._options_table import OPTIONS

    values = next(o.values for o in OPTIONS if o.name == "preset") or {}
    return {name.upper(): number for name, number in values.items()}


# The named presets (option preset; dxt_preset in C), with the names and
# numbers of tools/options/presets.table (through the generated
# _options_table.py): NONE, READABLE, FEATURES, STRONGEST. Their values are
# listed in docs/options.md, "Presets".
Preset = enum.IntEnum("Preset", _preset_values(), module=__name__)  # type: ignore[misc]


class OutputKind(enum.IntEnum):
    """Which words a mechanism could release (the record's output_kind)."""

    VOCABULARY = 0  # the whole vocabulary
    TOP = 1  # the model's N most frequent words (output_top)
    LIST = 2  # a word list of the application (output_words)


class Sampler(enum.IntEnum):
    """Samplers of the exponential mechanism."""

    DEFAULT = 0
    GUMBEL = 1
    PERMUTE_AND_FLIP = 2


class Search(enum.IntEnum):
    """How laplace, vickrey and mahalanobis decode a noisy point: exactly
    (default), or through the model's search index (`dxtext index`)."""

    EXACT = 0
    IVF = 1


class RngMode(enum.IntEnum):
    UNKNOWN = 0
    SYSTEM = 1
    DETERMINISTIC = 2


class Policy(enum.IntEnum):
    """What to do with one class of token."""

    DEFAULT = 0
    PRIVATIZE = 1
    PLACEHOLDER = 2
    DROP = 3
    KEEP = 4


class TokenClass(enum.IntEnum):
    IN_VOCABULARY = 0
    OUT_OF_VOCABULARY = 1
    NUMBER = 2
    STOPWORD = 3


E = TypeVar("E", bound=enum.IntEnum)


def coerce(cls: Type[E], value: Union[E, str, int], what: str) -> E:
    """`value` as a member of `cls`: a member, its number, or its name."""
    from .errors import InvalidArgumentError

    if isinstance(value, cls):
        return value
    try:
        if isinstance(value, str):
            return cls[value.strip().upper().replace("-", "_")]
        if isinstance(value, int) and not isinstance(value, bool):
            return cls(value)
    except (KeyError, ValueError):
        pass
    names = ", ".join(m.name.lower() for m in cls)
    raise InvalidArgumentError(f"invalid argument: unknown {what} {value!r} (one of {names})", status=1)
