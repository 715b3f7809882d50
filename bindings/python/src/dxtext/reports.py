"""Values returned by the library: privacy reports, model facts and
calibration statistics, as frozen dataclasses."""

from __future__ import annotations

import ctypes
import json
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, Optional

from . import _library as native
from .enums import Geometry, Mechanism, Metric, Policy, Quantization, RngMode, TokenClass

_CLASS_KEYS = ("in_vocabulary", "out_of_vocabulary", "number", "stopword")
_ACTION_KEYS = ("privatized", "placeholder", "dropped", "kept")


@dataclass(frozen=True)
class Report:
    """What a call did and the guarantee it gave.

    Attributes:
        mechanism: the mechanism that ran.
        epsilon: the epsilon it ran with.
        metric: the distance d of the per-word guarantee epsilon * d(w, w').
        rng_mode: SYSTEM (private) or DETERMINISTIC (seeded: NOT private).
        is_private: False when the noise came from a seed.
        model_fingerprint: SHA-256 of the model file (32 bytes), or None.
        counts: tokens of each class handled each way, as in the JSON report:
            counts["out_of_vocabulary"]["placeholder"].
        words_privatized: N, the number of noise draws made.
        words_leaked: tokens passed through verbatim by a "keep" policy.
        epsilon_per_unit_distance: per word, outputs for w and w' differ by at
            most this * d(w, w').
        epsilon_document: for the text or bag as a whole, this * EMD for bags
            of N words (syntf: plain DP between any two documents).
        epsilon_document_vocabulary: syntf only (0 otherwise): the tighter
            bound (epsilon + ln eta(epsilon, V)) * N from the vocabulary size V.
    """

    mechanism: Mechanism
    epsilon: float
    metric: Metric
    rng_mode: RngMode
    is_private: bool
    model_fingerprint: Optional[bytes]
    counts: Dict[str, Dict[str, int]] = field(repr=False)
    words_privatized: int
    words_leaked: int
    epsilon_per_unit_distance: float
    epsilon_document: float
    epsilon_document_vocabulary: float = 0.0

    def count(self, token_class: TokenClass, policy: Policy) -> int:
        """Tokens of `token_class` handled by `policy` (PRIVATIZE .. KEEP)."""
        if not 1 <= int(policy) <= 4:
            return 0
        return self.counts[_CLASS_KEYS[int(token_class)]][_ACTION_KEYS[int(policy) - 1]]

    def to_json(self) -> str:
        """The report as one line of JSON, as the C library writes it."""
        report = _to_struct(self)
        library = native.lib()
        required = ctypes.c_size_t(0)
        status = library.dxt_report_to_json(ctypes.byref(report), None, 0, ctypes.byref(required))
        if status != 14:  # DXT_E_INPUT_TOO_LARGE is the expected answer to a size query
            native.check(status)
        buffer = ctypes.create_string_buffer(required.value)
        native.check(library.dxt_report_to_json(ctypes.byref(report), buffer, len(buffer), None))
        return buffer.value.decode("utf-8")

    def to_dict(self) -> Dict[str, Any]:
        """The JSON report parsed into a dict."""
        result: Dict[str, Any] = json.loads(self.to_json())
        return result

    @classmethod
    def _from_struct(cls, r: native.ReportStruct) -> "Report":
        return cls(
            mechanism=Mechanism(r.mechanism),
            epsilon=r.epsilon,
            metric=Metric(r.metric),
            rng_mode=RngMode(r.rng_mode),
            is_private=bool(r.is_private),
            model_fingerprint=bytes(r.model_fingerprint) if r.fingerprint_valid else None,
            counts={
                _CLASS_KEYS[c]: {_ACTION_KEYS[a]: int(r.counts[c][a]) for a in range(4)} for c in range(4)
            },
            words_privatized=int(r.words_privatized),
            words_leaked=int(r.words_leaked),
            epsilon_per_unit_distance=r.epsilon_per_unit_distance,
            epsilon_document=r.epsilon_document,
            epsilon_document_vocabulary=r.epsilon_document_vocabulary,
        )

    @classmethod
    def _combine(cls, reports: Iterable["Report"]) -> Optional["Report"]:
        """Sequential composition of per-word reports of one mechanism and
        epsilon: counts, draws, leaks and the document epsilon add up."""
        items = list(reports)
        if not items:
            return None
        first = items[0]
        counts = {c: {a: sum(r.counts[c][a] for r in items) for a in _ACTION_KEYS} for c in _CLASS_KEYS}
        return cls(
            mechanism=first.mechanism,
            epsilon=first.epsilon,
            metric=first.metric,
            rng_mode=first.rng_mode,
            is_private=all(r.is_private for r in items),
            model_fingerprint=first.model_fingerprint,
            counts=counts,
            words_privatized=sum(r.words_privatized for r in items),
            words_leaked=sum(r.words_leaked for r in items),
            epsilon_per_unit_distance=max(r.epsilon_per_unit_distance for r in items),
            epsilon_document=sum(r.epsilon_document for r in items),
            epsilon_document_vocabulary=sum(r.epsilon_document_vocabulary for r in items),
        )


def _to_struct(report: Report) -> native.ReportStruct:
    r = native.initialised(native.ReportStruct, "dxt_report_init_sized")
    r.mechanism = int(report.mechanism)
    r.epsilon = report.epsilon
    r.metric = int(report.metric)
    r.rng_mode = int(report.rng_mode)
    r.is_private = report.is_private
    r.fingerprint_valid = report.model_fingerprint is not None
    if report.model_fingerprint is not None:
        ctypes.memmove(r.model_fingerprint, report.model_fingerprint, 32)
    for c, class_key in enumerate(_CLASS_KEYS):
        for a, action_key in enumerate(_ACTION_KEYS):
            r.counts[c][a] = report.counts[class_key][action_key]
    r.words_privatized = report.words_privatized
    r.words_leaked = report.words_leaked
    r.epsilon_per_unit_distance = report.epsilon_per_unit_distance
    r.epsilon_document = report.epsilon_document
    r.epsilon_document_vocabulary = report.epsilon_document_vocabulary
    return r


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
