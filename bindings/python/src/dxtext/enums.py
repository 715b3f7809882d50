# SPDX-License-Identifier: Apache-2.0
"""Enumerations of the C API, with the same numbers. Functions that take one
also accept its name as a string, in any case ("laplace", "permute-and-flip")."""

from __future__ import annotations

import enum
from typing import Type, TypeVar, Union


# generated: enums


class Geometry(enum.IntEnum):
    """The geometry of a model's embedding space (dxt_model_info.geometry). (dxt_geometry)"""

    UNKNOWN = 0
    EUCLIDEAN = 1  # Euclidean space
    POINCARE = 2  # the Poincare ball: hyperbolic space


class Quantization(enum.IntEnum):
    """dxt_quantization (dxt_quantization)"""

    UNKNOWN = 0
    F32 = 1
    F16 = 2
    INT8 = 3  # int8 with one f32 scale per row


class Mechanism(enum.IntEnum):
    """The mechanisms; docs/guarantees.md states and proves each guarantee. (dxt_mechanism)"""

    UNKNOWN = 0
    LAPLACE = 1  # z = phi(w) + R*u, R ~ Gamma(n, 1/eps), u uniform on the sphere; output the nearest word ...
    HYPERBOLIC = 2  # Poincare models: noise of density ∝ exp(-eps*dH) w.r.t. hyperbolic volume, sampled e ...
    EXPONENTIAL = 3  # Pr[o|w] ∝ exp(-eps*d(w,o)/2) over the vocabulary, in the model's geometry (Euclidea ...
    SYNTF = 4  # Exponential mechanism with rating cos(v,w) - s*Dice(bigrams(v), bigrams(w)) of range 2+s: ...
    MAHALANOBIS = 5  # z = phi(w) + R * Sigma_l^(1/2) u, Sigma_l = l*Sigma + (1-l)*I: eps*||Sigma_l^(-1/2) ...
    VICKREY = 6  # laplace noise, then the 1st or 2nd nearest word of z with probability p = (1-t)d2/(t*d1 ...
    TEM = 7  # Truncated exponential mechanism: words within gamma of w compete with one "bottom" candidat ...
    ORDERING = 8  # One of the model's K public orderings of the vocabulary (cycles in which neighbours ar ...


class Metric(enum.IntEnum):
    """The metric d of a release record's bound. (dxt_metric)"""

    UNKNOWN = 0
    EUCLIDEAN = 1  # ||phi(w) - phi(w')||
    HYPERBOLIC = 2  # Poincare-ball distance
    MAHALANOBIS = 3  # ||Sigma_l^(-1/2)(phi(w) - phi(w'))||
    DISCRETE = 4  # 1 for any two distinct words: plain eps-DP
    ORDERING = 5  # max over the model's orderings of the number of places between w and w' along the cycl ...


class ReleaseKind(enum.IntEnum):
    """Which call made a release (dxt_release_record.release). (dxt_release_kind)"""

    UNKNOWN = 0
    WORD = 1  # dxt_privatize_index, dxt_privatize_word
    TEXT = 2  # dxt_privatize_text: words in their order
    BAG = 3  # dxt_privatize_bag
    SYNTHETIC_BAG = 4  # dxt_syntf


class Bound(enum.IntEnum):
    """The form of a release's guarantee (dxt_release_record.bound): for two inputs x, x' the
    probability of any set of outputs changes by at most the factor exp(B(x, x')), with d the
    record's metric and epsilon its epsilon (docs/guarantees.md proves each). (dxt_bound)"""

    UNKNOWN = 0
    WORD = 1  # one word: B = epsilon * d(w, w')
    POSITIONWISE = 2  # ordered text: B = epsilon * sum_i d(x_i, x'_i), the privatised words of two texts ...
    BAG_EMD = 3  # bags of equal size N: B = epsilon * N * EMD_d(b, b') = epsilon * (the least sum of d ov ...
    ANY_INPUTS = 4  # plain DP with any two inputs adjacent: B = epsilon_total (dxt_syntf).


class ReleaseShape(enum.IntEnum):
    """What of the input's form a text release copies (dxt_privatize_options.release_shape;
    docs/guarantees.md, "Release shapes"). 0 selects keep. (dxt_release_shape)"""

    DEFAULT = 0
    KEEP = 1  # the text between words verbatim and each word's case shape (lower, Title, UPPER) restored: ...
    NORMALIZE = 2  # words joined by one space; a sentence end between two words (or after the last) becom ...
    STRICT = 3  # words as the model spells them, joined by one space, nothing else: the text is a functio ...


class OutputKind(enum.IntEnum):
    """Which words a mechanism may release (dxt_release_record.output_kind). (dxt_output_kind)"""

    VOCABULARY = 0  # the whole vocabulary
    TOP = 1  # the N most frequent words (output_top)
    LIST = 2  # a word list of the application (output_set)


class Sampler(enum.IntEnum):
    """Samplers of the exponential mechanism. (dxt_exponential_sampler)"""

    DEFAULT = 0  # Gumbel-max
    GUMBEL = 1  # argmax of score + Gumbel noise
    PERMUTE_AND_FLIP = 2  # McKenna & Sheldon 2020


class Search(enum.IntEnum):
    """How laplace, vickrey and mahalanobis decode a noisy point to a word. Both are deterministic
    functions of the noisy point alone (post-processing), so the privacy guarantee is the same;
    only utility can differ. (dxt_search)"""

    EXACT = 0  # the exact nearest word: a scan of the whole vocabulary (default)
    IVF = 1  # approximate: the rows of the ivf_nprobe cells of the model's search index whose centroids a ...


class RngMode(enum.IntEnum):
    """dxt_rng_mode (dxt_rng_mode)"""

    UNKNOWN = 0
    SYSTEM = 1  # OpenSSL RAND_priv_bytes: the private mode
    DETERMINISTIC = 2  # AES-256-CTR keyed by a 32-byte seed: NOT private, for tests and reproducible research


class Policy(enum.IntEnum):
    """What to do with one class of token. 0 selects the class's default. (dxt_token_policy)"""

    DEFAULT = 0
    PRIVATIZE = 1  # replace by the mechanism's output
    PLACEHOLDER = 2  # replace by the placeholder string
    DROP = 3  # remove the token
    KEEP = 4  # pass through verbatim: a leak (DXT_REVEALS_KEPT_WORDS)


class TokenClass(enum.IntEnum):
    """Token classes; also the row index of dxt_local_diagnostics.counts. (dxt_token_class)"""

    IN_VOCABULARY = 0  # words of the model's vocabulary
    OUT_OF_VOCABULARY = 1  # words not in it
    NUMBER = 2  # numbers
    STOPWORD = 3  # stopwords


class Reveals(enum.IntFlag):
    """The DXT_REVEALS_* bits of the C API: features of the input a release shows as they are."""

    NOTHING = 0
    WORD_COUNT = 0x1  # how many words (bag: occurrences) were not dropped
    LAYOUT = 0x2  # the text between words verbatim: whitespace, punctuation, line and sentence boundaries ...
    CASE_SHAPE = 0x4  # each word's case shape (lower, Title, UPPER)
    TOKEN_CLASSES = 0x8  # which words belong to a class whose policy is placeholder or drop
    KEPT_WORDS = 0x10  # the words of classes whose policy is keep, verbatim
    SENTENCE_BOUNDARIES = 0x20  # DXT_SHAPE_NORMALIZE: between which words a sentence ends (one of . ! ? a ...
    CLAUSE_BOUNDARIES = 0x40  # DXT_SHAPE_NORMALIZE: between which words, within a sentence, there was oth ...
    TYPED_CLASSES = 0x80  # which tokens belong to a typed class (dxt_release_record.typed_classes) whose ...
    INPUT_WORDS = 0x100  # the input's words themselves: the model's words are so far apart at this epsilo ...
    NEGATIONS = 0x200  # which words are negators, and which negator each is: they are released as written ...

# generated: end enums


def _preset_values() -> "dict[str, int]":
    from ._options_table import OPTIONS

    values = next(o.values for o in OPTIONS if o.name == "preset") or {}
    return {name.upper(): number for name, number in values.items()}


# The named presets (option preset; dxt_preset in C), with the names and
# numbers of tools/options/presets.table (through the generated
# _options_table.py): NONE, READABLE, FEATURES, STRONGEST. Their values are
# listed in docs/options.md, "Presets".
Preset = enum.IntEnum("Preset", _preset_values(), module=__name__)  # type: ignore[misc]


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
