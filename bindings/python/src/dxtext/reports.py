# SPDX-License-Identifier: Apache-2.0
"""Values returned by the library: release records, local diagnostics, model
facts and calibration statistics."""

from __future__ import annotations

import ctypes
import json
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, Optional

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


def _json_of(struct: ctypes.Structure, function_name: str) -> str:
    library = native.lib()
    function = getattr(library, function_name)
    required = ctypes.c_size_t(0)
    status = function(ctypes.byref(struct), None, 0, ctypes.byref(required))
    if status != 14:  # DXT_E_INPUT_TOO_LARGE is the expected answer to a size query
        native.check(status)
    buffer = ctypes.create_string_buffer(required.value)
    native.check(function(ctypes.byref(struct), buffer, len(buffer), None))
    return buffer.value.decode("utf-8")


@dataclass(frozen=True)
class ReleaseRecord:
    """What a call released and the guarantee it carries. Every field depends
    only on the options, the model and the generator mode (and n_out for
    syntf), never on the input: safe to send beside the output.

    Attributes:
        release: which call made it (WORD, TEXT, BAG, SYNTHETIC_BAG).
        mechanism: the mechanism that ran.
        epsilon: per word, per unit of the metric.
        metric: the distance d of the bound.
        rng_mode: SYSTEM (private) or DETERMINISTIC (seeded: NOT private).
        is_private: False when the noise came from a seed.
        model_fingerprint: SHA-256 of the model file (32 bytes), or None.
        bound: the form of the guarantee: WORD (epsilon * d(w, w')),
            POSITIONWISE (ordered text: epsilon * sum_i d(x_i, x'_i); not an
            EMD bound), BAG_EMD (bags of equal size N: epsilon * N * EMD),
            ANY_INPUTS (epsilon_total-DP between any two inputs).
        reveals: features of the input the output shows as they are.
        draws: ANY_INPUTS: the number of draws n_out; 0 otherwise.
        epsilon_total: ANY_INPUTS: epsilon * draws; 0 otherwise.
        epsilon_vocabulary: syntf only (0 otherwise): epsilon + ln eta(epsilon,
            V) <= epsilon, usable in place of epsilon in the bound.
        release_shape: what of the input's form a text release copied (KEEP,
            NORMALIZE, STRICT).
        preset: the preset of the call's options (Preset.NONE without one);
            the fields above are its resolved values.
        output_kind: which words the mechanism could release: the whole
            VOCABULARY, the TOP N most frequent, or a LIST (output_words).
        output_size: how many words that is.
        output_digest: SHA-256 of those words in vocabulary order, each
            followed by a newline (32 zero bytes for the whole vocabulary).
        floor: the uniform floor p of the options (0: none).
        worst_case_per_word: the largest privacy loss in nats for one word
            between any two inputs (inf when no bound is known); a text of N
            words loses at most N times it.
        typed_classes: bit (1 << class) of every typed class the options
            handled otherwise than as words.
        typed_flags: DXT_TYPED_FLAG_* bits (consistent replacement, number
            shape kept).
        typed_dropped: bit (1 << class) of every typed class whose tokens
            were dropped.
        context_prior: the context prior's strength B (0: none).
    """

    release: ReleaseKind
    mechanism: Mechanism
    epsilon: float
    metric: Metric
    rng_mode: RngMode
    is_private: bool
    model_fingerprint: Optional[bytes]
    bound: Bound
    reveals: Reveals
    draws: int = 0
    epsilon_total: float = 0.0
    epsilon_vocabulary: float = 0.0
    release_shape: ReleaseShape = ReleaseShape.KEEP
    preset: int = 0  # a Preset
    output_kind: OutputKind = OutputKind.VOCABULARY
    output_size: int = 0
    output_digest: bytes = bytes(32)
    floor: float = 0.0
    worst_case_per_word: float = 0.0
    typed_classes: int = 0
    typed_flags: int = 0
    typed_dropped: int = 0
    context_prior: float = 0.0

    def to_json(self) -> str:
        """The record as one line of JSON, as the C library writes it: the
        fields, the guarantee in words, and what the output reveals."""
        return _json_of(_record_struct(self), "dxt_release_record_to_json")

    def to_dict(self) -> Dict[str, Any]:
        """The JSON record parsed into a dict."""
        result: Dict[str, Any] = json.loads(self.to_json())
        return result

    @classmethod
    def _from_struct(cls, r: native.ReleaseRecordStruct) -> "ReleaseRecord":
        return cls(
            release=ReleaseKind(r.release),
            mechanism=Mechanism(r.mechanism),
            epsilon=r.epsilon,
            metric=Metric(r.metric),
            rng_mode=RngMode(r.rng_mode),
            is_private=bool(r.is_private),
            model_fingerprint=bytes(r.model_fingerprint) if r.fingerprint_valid else None,
            bound=Bound(r.bound),
            reveals=Reveals(r.reveals),
            draws=int(r.draws),
            epsilon_total=r.epsilon_total,
            epsilon_vocabulary=r.epsilon_vocabulary,
            release_shape=ReleaseShape(r.release_shape or ReleaseShape.KEEP),
            preset=Preset(r.preset),
            output_kind=OutputKind(r.output_kind),
            output_size=int(r.output_size),
            output_digest=bytes(r.output_digest),
            floor=r.uniform_floor,
            worst_case_per_word=r.worst_case_per_word,
            typed_classes=int(r.typed_classes),
            typed_flags=int(r.typed_flags),
            typed_dropped=int(r.typed_dropped),
            context_prior=r.context_prior,
        )

    @classmethod
    def _sequence(cls, records: Iterable["ReleaseRecord"]) -> Optional["ReleaseRecord"]:
        """The record of per-word releases made in order: the positionwise
        bound epsilon * sum_i d(x_i, x'_i) over the list."""
        items = list(records)
        if not items:
            return None
        first = items[0]
        reveals = Reveals.NOTHING
        for r in items:
            reveals |= r.reveals
        return cls(
            release=first.release,
            mechanism=first.mechanism,
            epsilon=first.epsilon,
            metric=first.metric,
            rng_mode=first.rng_mode,
            is_private=all(r.is_private for r in items),
            model_fingerprint=first.model_fingerprint,
            bound=Bound.POSITIONWISE,
            reveals=reveals,
            epsilon_vocabulary=first.epsilon_vocabulary,
            release_shape=first.release_shape,
            preset=first.preset,
            output_kind=first.output_kind,
            output_size=first.output_size,
            output_digest=first.output_digest,
            floor=first.floor,
            worst_case_per_word=first.worst_case_per_word,
            typed_classes=first.typed_classes,
            typed_flags=first.typed_flags,
            typed_dropped=first.typed_dropped,
            context_prior=first.context_prior,
        )


def _record_struct(record: ReleaseRecord) -> native.ReleaseRecordStruct:
    r = native.initialised(native.ReleaseRecordStruct, "dxt_release_record_init_sized")
    r.release = int(record.release)
    r.mechanism = int(record.mechanism)
    r.epsilon = record.epsilon
    r.metric = int(record.metric)
    r.rng_mode = int(record.rng_mode)
    r.is_private = record.is_private
    r.fingerprint_valid = record.model_fingerprint is not None
    if record.model_fingerprint is not None:
        ctypes.memmove(r.model_fingerprint, record.model_fingerprint, 32)
    r.bound = int(record.bound)
    r.reveals = int(record.reveals)
    r.draws = record.draws
    r.epsilon_total = record.epsilon_total
    r.epsilon_vocabulary = record.epsilon_vocabulary
    r.release_shape = int(record.release_shape)
    r.preset = int(record.preset)
    r.output_kind = int(record.output_kind)
    r.output_size = record.output_size
    ctypes.memmove(r.output_digest, record.output_digest, 32)
    r.uniform_floor = record.floor
    r.worst_case_per_word = record.worst_case_per_word
    r.typed_classes = record.typed_classes
    r.typed_flags = record.typed_flags
    r.typed_dropped = record.typed_dropped
    r.context_prior = record.context_prior
    return r


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
        d = native.initialised(native.LocalDiagnosticsStruct, "dxt_local_diagnostics_init_sized")
        for c, class_key in enumerate(_CLASS_KEYS):
            for a, action_key in enumerate(_ACTION_KEYS):
                d.counts[c][a] = self.counts[class_key][action_key]
        d.words_privatized = self.words_privatized
        d.words_leaked = self.words_leaked
        return _json_of(d, "dxt_local_diagnostics_to_json")

    def _set(self, d: native.LocalDiagnosticsStruct) -> None:
        self.counts = {
            _CLASS_KEYS[c]: {_ACTION_KEYS[a]: int(d.counts[c][a]) for a in range(4)} for c in range(4)
        }
        self.words_privatized = int(d.words_privatized)
        self.words_leaked = int(d.words_leaked)

    def _add(self, other: "LocalDiagnostics") -> None:
        for c in _CLASS_KEYS:
            for a in _ACTION_KEYS:
                self.counts[c][a] += other.counts[c][a]
        self.words_privatized += other.words_privatized
        self.words_leaked += other.words_leaked


@dataclass(frozen=True)
class ModelInfo:
    """Facts about an opened model."""

    format_major: int
    format_minor: int
    dimension: int
    vocabulary_size: int
    geometry: Geometry
    quantization: Quantization
    lowercase: bool  # the vocabulary is lowercase; lookups fold case
    has_frequencies: bool


@dataclass(frozen=True)
class Calibration:
    """Plausible-deniability statistics (Feyisetan et al. 2020) of a mechanism
    at one epsilon.

    keep_*: N_w, the fraction of trials in which a word came back unchanged.
    distinct_*: S_w, the number of distinct outputs over the trials.
    """

    words: int
    trials: int
    keep_mean: float
    keep_median: float
    keep_max: float
    distinct_mean: float
    distinct_median: float
    distinct_max: float
