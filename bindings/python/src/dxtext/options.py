"""Keyword options of the privatisation calls, turned into the C options
struct. Validation of values (epsilon, parameters) is the library's job; this
module only converts names and types."""

from __future__ import annotations

import warnings
from typing import Mapping, Optional, Union

from . import _library as native
from .enums import Mechanism, Policy, Sampler, Search, TokenClass, coerce
from .errors import error_for

MechanismLike = Union[Mechanism, str, int]
PolicyLike = Union[Policy, str, int]
SeedLike = Union[bytes, bytearray, int, str]

# Mechanism parameters accepted as keyword arguments (the C field names).
PARAMETERS = (
    "tem_gamma",
    "tem_beta",
    "vickrey_t",
    "mahalanobis_lambda",
    "syntf_s",
    "exponential_sampler",
    "search",
    "ivf_nprobe",
)


class NotPrivateWarning(UserWarning):
    """Issued when a call uses seed=: its noise is reproducible and gives no privacy."""


def invalid_argument(detail: str) -> Exception:
    return error_for(1, "invalid argument", detail)


def make_options(
    epsilon: float,
    mechanism: MechanismLike,
    in_vocabulary: Optional[PolicyLike],
    oov: Optional[PolicyLike],
    numbers: Optional[PolicyLike],
    stopwords: Optional[PolicyLike],
    placeholder: Optional[str],
    params: Mapping[str, object],
) -> native.PrivatizeOptions:
    """The C options for one call. Unknown keyword parameters raise TypeError."""
    o = native.initialised(native.PrivatizeOptions, "dxt_privatize_options_init_sized")
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)):
        raise TypeError(f"epsilon must be a number, not {type(epsilon).__name__}")
    o.epsilon = float(epsilon)
    o.mechanism = int(coerce(Mechanism, mechanism, "mechanism"))
    for token_class, policy in (
        (TokenClass.IN_VOCABULARY, in_vocabulary),
        (TokenClass.OUT_OF_VOCABULARY, oov),
        (TokenClass.NUMBER, numbers),
        (TokenClass.STOPWORD, stopwords),
    ):
        if policy is not None:
            o.policy[int(token_class)] = int(coerce(Policy, policy, "policy"))
    if placeholder is not None:
        if "\0" in placeholder:
            raise invalid_argument("the placeholder contains a NUL character")
        # ctypes keeps the encoded bytes alive as long as the struct.
        o.placeholder = placeholder.encode("utf-8", "surrogatepass")
    for name, value in params.items():
        if name not in PARAMETERS:
            raise TypeError(f"unknown option {name!r}; mechanism parameters are {', '.join(PARAMETERS)}")
        if name == "exponential_sampler":
            o.exponential_sampler = int(coerce(Sampler, value, "sampler"))  # type: ignore[arg-type]
        elif name == "search":
            o.search = int(coerce(Search, value, "search"))  # type: ignore[arg-type]
        elif name == "ivf_nprobe":
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**32:
                raise TypeError(f"ivf_nprobe must be an int in [0, 2**32), not {value!r}")
            o.ivf_nprobe = value
        else:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"{name} must be a number, not {type(value).__name__}")
            setattr(o, name, float(value))
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
