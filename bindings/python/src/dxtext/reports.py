# SPDX-License-Identifier: Apache-2.0
"""Values returned by the library: release records, local diagnostics, model
facts and calibration statistics."""

from __future__ import annotations

import ctypes
import dataclasses
import functools
import json
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Tuple, Type, TypeVar

from . import _library as native
from .enums import (
    Bound,
    Geometry,
    Mechanism,
    OutputKind,
    Preset,
    Metric,
    Policy,
    Quantization,
    ReleaseKind,
    ReleaseShape,
    Reveals,
    RngMode,
    TokenClass,
)

_CLASS_KEYS = ("in_vocabulary", "out_of_vocabulary", "number", "stopword")
_ACTION_KEYS = ("privatized", "placeholder", "dropped", "kept")


T = TypeVar("T")


def from_struct(cls: Type[T], raw: ctypes.Structure, **convert: Any) -> T:
    """The dataclass `cls` with each field read from the C struct's field of
    its name, through `convert[name]` where given."""
    return cls(**{f.name: convert.get(f.name, lambda v: v)(getattr(raw, f.name)) for f in dataclasses.fields(cls)})


def _json_of(struct: ctypes.Structure, function_name: str) -> str:
    function = getattr(native.lib(), function_name)
    return native.sized_string(functools.partial(function, ctypes.byref(struct))).decode("utf-8")


class ReleaseRecord:
    """What a call released and the guarantee it carries. Every field depends
    only on the options, the model and the generator mode (and n_out for
    syntf), never on the input: safe to send beside the output.

    Its attributes are the fields of the C struct dxt_release_record
    (include/dxtext/dxtext.h documents each), read-only, with these types:
    release (ReleaseKind), mechanism, metric, rng_mode (RngMode), bound,
    reveals (Reveals flags), release_shape, preset and output_kind as their
    enumerations; model_fingerprint as 32 bytes or None; output_digest as
    bytes; floor as another name of uniform_floor; every other field as the
    number or bool it is. Among them:

        epsilon: per word, per unit of the metric.
        is_private: False when the noise came from a seed.
        bound: WORD (epsilon * d(w, w')), POSITIONWISE (ordered text: epsilon
            * sum_i d(x_i, x'_i); not an EMD bound), BAG_EMD (bags of equal
            size N: epsilon * N * EMD), ANY_INPUTS (epsilon_total-DP between
            any two inputs).
        worst_case_per_word: the largest privacy loss in nats for one word
            between any two inputs (inf when no bound is known).

    A field the library adds later is an attribute here too, with no change
    to this package.
    """

    __slots__ = ("_raw",)

    # generated: record (tools/options/generate.py, from include/dxtext/dxtext.h)
    _TYPES: Dict[str, Any] = {
        "mechanism": Mechanism,
        "metric": Metric,
        "rng_mode": RngMode,
        "release": ReleaseKind,
        "bound": Bound,
        "reveals": Reveals,
        "release_shape": ReleaseShape,
        "output_kind": OutputKind,
        "preset": Preset,
    }
    # generated: end record
    _ALIASES = {"floor": "uniform_floor"}
    # Fields that are an attribute of another form (model_fingerprint) or none.
    _HIDDEN = {"struct_size", "fingerprint_valid"}

    def __init__(self, struct: native.dxt_release_record) -> None:
        object.__setattr__(self, "_raw", bytes(struct))

    def _struct(self) -> native.dxt_release_record:
        return native.dxt_release_record.from_buffer_copy(self._raw)

    @classmethod
    def field_names(cls) -> Tuple[str, ...]:
        """The record's attributes, in the C struct's order."""
        names = [name for name, _ in native.dxt_release_record._fields_ if name not in cls._HIDDEN]
        return tuple("floor" if name == "uniform_floor" else name for name in names)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        r = self._struct()
        if name == "model_fingerprint":
            return bytes(r.model_fingerprint) if r.fingerprint_valid else None
        name = self._ALIASES.get(name, name)
        if name in self._HIDDEN or not hasattr(r, name):
            raise AttributeError(f"ReleaseRecord has no field {name!r}")
        value = getattr(r, name)
        if name in self._TYPES:
            return self._TYPES[name](value)
        return bytes(value) if isinstance(value, ctypes.Array) else value

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a ReleaseRecord is read-only")

    def _values(self) -> Tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.field_names())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ReleaseRecord) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return "ReleaseRecord(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self.field_names()) + ")"

    def __dir__(self) -> Iterable[str]:
        return sorted(set(super().__dir__()) | set(self.field_names()))

    def __reduce__(self) -> Tuple[Any, ...]:
        return (ReleaseRecord._from_bytes, (self._raw,))

    @classmethod
    def _from_bytes(cls, raw: bytes) -> "ReleaseRecord":
        return cls(native.dxt_release_record.from_buffer_copy(raw))

    def to_json(self) -> str:
        """The record as one line of JSON, as the C library writes it: the
        fields, the guarantee in words, and what the output reveals."""
        return _json_of(self._struct(), "dxt_release_record_to_json")

    def to_dict(self) -> Dict[str, Any]:
        """The JSON record parsed into a dict."""
        return dict(json.loads(self.to_json()))

    @classmethod
    def _sequence(cls, records: Iterable["ReleaseRecord"]) -> Optional["ReleaseRecord"]:
        """The record of per-word releases made in order: the positionwise
        bound epsilon * sum_i d(x_i, x'_i) over the list."""
        items = list(records)
        if not items:
            return None
        r = items[0]._struct()
        for other in items[1:]:
            o = other._struct()
            r.reveals |= o.reveals
            r.is_private = r.is_private and o.is_private
        r.bound = int(Bound.POSITIONWISE)
        r.draws = 0
        r.epsilon_total = 0.0
        return cls(r)


@dataclass
class LocalDiagnostics:
    """What a call did to the tokens of its input. These numbers DESCRIBE THE
    INPUT (for example its share of out-of-vocabulary words) and no guarantee
    covers them: keep them on the device. Pass one as local_diagnostics= to a
    privatising call; the call fills it in.

    Attributes:
        counts: tokens of each class handled each way, as in the JSON:
            counts["out_of_vocabulary"]["placeholder"].
        words_privatized: the number of noise draws made.
        words_leaked: tokens passed through verbatim by a "keep" policy.
    """

    counts: Dict[str, Dict[str, int]] = field(
        default_factory=lambda: {c: {a: 0 for a in _ACTION_KEYS} for c in _CLASS_KEYS}, repr=False
    )
    words_privatized: int = 0
    words_leaked: int = 0

    def count(self, token_class: TokenClass, policy: Policy) -> int:
        """Tokens of `token_class` handled by `policy` (PRIVATIZE .. KEEP)."""
        if not 1 <= int(policy) <= 4:
            return 0
        return self.counts[_CLASS_KEYS[int(token_class)]][_ACTION_KEYS[int(policy) - 1]]

    def to_json(self) -> str:
        """As one line of JSON, as the C library writes it."""
        d = native.initialised(native.dxt_local_diagnostics)
        for c, class_key in enumerate(_CLASS_KEYS):
            for a, action_key in enumerate(_ACTION_KEYS):
                d.counts[c][a] = self.counts[class_key][action_key]
        d.words_privatized = self.words_privatized
        d.words_leaked = self.words_leaked
        return _json_of(d, "dxt_local_diagnostics_to_json")

    def _set(self, d: native.dxt_local_diagnostics) -> None:
        self.counts = {
            _CLASS_KEYS[c]: {_ACTION_KEYS[a]: int(d.counts[c][a]) for a in range(4)} for c in range(4)
        }
        self.words_privatized = int(d.words_privatized)
        self.words_leaked = int(d.words_leaked)

    def _sum(self, parts: List["LocalDiagnostics"]) -> None:
        """Set to the sum of `parts` (those of each word of a list)."""
        self.counts = {c: {a: sum(p.counts[c][a] for p in parts) for a in _ACTION_KEYS} for c in _CLASS_KEYS}
        self.words_privatized = sum(p.words_privatized for p in parts)
        self.words_leaked = sum(p.words_leaked for p in parts)


@dataclass(frozen=True)
class ModelInfo:
    """Facts about an opened model."""

    # generated: ModelInfo (tools/options/generate.py, from include/dxtext/dxtext.h)
    format_major: int
    format_minor: int
    dimension: int
    vocabulary_size: int
    geometry: Geometry
    quantization: Quantization
    lowercase: bool  # vocabulary is lowercase; lookups fold case
    has_frequencies: bool
    # generated: end ModelInfo


@dataclass(frozen=True)
class Calibration:
    """Plausible-deniability statistics (Feyisetan et al. 2020) of a mechanism
    at one epsilon.

    keep_*: N_w, the fraction of trials in which a word came back unchanged.
    distinct_*: S_w, the number of distinct outputs over the trials.
    """

    # generated: Calibration (tools/options/generate.py, from include/dxtext/dxtext.h)
    words: int  # words sampled
    trials: int  # privatisations per word
    keep_mean: float  # N_w: fraction of trials in which w came back unchanged.
    keep_median: float
    keep_max: float
    distinct_mean: float  # S_w: number of distinct outputs in the trials.
    distinct_median: float
    distinct_max: float
    # generated: end Calibration
