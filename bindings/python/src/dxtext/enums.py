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


class Metric(enum.IntEnum):
    """The distance d of a report's guarantee epsilon * d."""

    UNKNOWN = 0
    EUCLIDEAN = 1
    HYPERBOLIC = 2
    MAHALANOBIS = 3
    DISCRETE = 4


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
