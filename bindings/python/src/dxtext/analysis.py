# SPDX-License-Identifier: Apache-2.0
"""Features of released texts for analysis, with scikit-learn.

The ordering mechanism (the `features` preset) moves each word a few places
along one of the model's public orderings of the vocabulary (docs/format.md
§10.3): the released word is usually not the written one, but it usually
lies near it along the orderings. An analyst who maps each released word to
its neighbourhood along every ordering, its bucket floor(place / B), sees
through much of the replacement. That reads only the release and the public
model, so it is post-processing and costs no privacy
(docs/guarantees.md, "`ordering`", "What it reveals").

ReleaseFeatures is a scikit-learn transformer that does this::

    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from dxtext.analysis import ReleaseFeatures

    classifier = make_pipeline(ReleaseFeatures(), LogisticRegression())
    classifier.fit(released_texts, labels)

scikit-learn is needed by this module only: `import dxtext` works without
it, and importing dxtext.analysis without it raises ImportError saying so.
"""

from __future__ import annotations

import os
import re
import unicodedata
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

try:
    import numpy as np
    from sklearn.base import BaseEstimator, TransformerMixin
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.utils.validation import check_is_fitted
except ImportError as error:  # pragma: no cover - tested in a subprocess
    raise ImportError(
        "dxtext.analysis needs scikit-learn (pip install scikit-learn, or Debian's python3-sklearn); "
        "the rest of dxtext does not"
    ) from error

from .errors import InvalidUtf8Error, NotFoundError
from .model import Model

__all__ = ["ReleaseFeatures", "release_tokens"]

ModelLike = Union[None, str, "os.PathLike[str]", Model]


def _kind(c: str) -> str:
    """The character as the tokenizer sees it: a letter ("L": letters with
    marks, private use and unassigned code points, as the library's
    src/text/tokenizer.hpp), a digit ("D"), an invisible joiner ("J": zero
    width joiners, soft hyphens), an apostrophe, "." for "." and ",", a
    bracket, a space, or anything else ("o")."""
    category = unicodedata.category(c)
    if category[0] in "LM" or category in ("Co", "Cn"):
        return "L"
    if category[0] == "N":
        return "D"
    if category == "Cf":
        return "J"
    if c in "'\u2019":
        return "'"
    if c in "[]":
        return c
    if c in ".,":
        return "."
    return " " if c.isspace() else "o"


# A bracketed token without spaces, or a word: letters and digits, across
# joiners followed by one, an apostrophe between two letters and a "." or
# "," between two digits. Matched on the kinds of the characters.
_TOKEN = re.compile(r"\[[^\[\] ]+\]|[LD](?:[LD]|J+(?=[LD])|(?<=L)'(?=L)|(?<=D)\.(?=D))*")


def release_tokens(text: str) -> List[str]:
    """The tokens of a released text, as the library splits text into words:
    a word is a run of letters and digits that continues across an
    apostrophe (' or U+2019) between two letters ("don't"), a '.' or ','
    between two digits (3.14) and invisible joiners between word
    characters; hyphens and everything else separate words. A bracketed
    token without spaces ("[name]", "[redacted]": the placeholders the
    library writes) is one token. Words keep their case here;
    ReleaseFeatures folds it."""
    if not isinstance(text, str):
        raise TypeError(f"a released text must be a str, not {type(text).__name__}")
    kinds = "".join(map(_kind, text))  # one per character: the spans are the text's
    return [text[m.start() : m.end()] for m in _TOKEN.finditer(kinds)]


def _ngrams(stream: Sequence[Optional[str]], low: int, high: int, join: str) -> Iterable[str]:
    """The n-grams (low <= n <= high) of a stream; those that span a gap
    (None) are left out."""
    for size in range(low, high + 1):
        for start in range(len(stream) - size + 1):
            window = stream[start : start + size]
            if None not in window:
                yield join.join(window)  # type: ignore[arg-type]


class ReleaseFeatures(TransformerMixin, BaseEstimator):  # type: ignore[misc]
    """Released texts -> a sparse matrix of counts of their words and of
    each word's bucket along the model's public orderings.

    A released word that the model knows gives its vocabulary spelling (the
    library's lookup: case folded for a lowercase model) and, for each
    ordering L, the feature "o{L}:b{floor(place / bucket_size)}" with its
    place along L (Model.ordering_places, `dxtext orderings`). A word the
    model does not know and a placeholder ("[name]") give their case-folded
    text and no bucket. With ngram_range (1, n) the word n-grams are counted
    too, and along each ordering the n-grams of consecutive buckets
    ("o0:b12 b40"); n-grams across a word without buckets are left out.

    Parameters:
        model: the model the texts were released with: a path, a dxtext
            Model, or None for the default Euclidean model (the wheel's
            own). It must have orderings (`dxtext order` adds them) unless
            structure=False; without them fit() raises ValueError.
        bucket_size: B, places per bucket (8, as the evaluation's
            structure-aware attacker in eval/).
        words: count the released words themselves.
        structure: count the buckets.
        orderings: the indices of the orderings to use; None for all.
        ngram_range: (low, high), 1 <= low <= high.
        min_df, max_df, max_features, binary, dtype: as CountVectorizer's.

    Fitted attributes: model_ (the opened Model), orderings_ (the indices
    used), vocabulary_ (feature -> column), n_features_out_.

    Pickling: pass the model as a path (or None); the model is reopened on
    unpickling and must have the same fingerprint as at fit().
    """

    def __init__(
        self,
        model: ModelLike = None,
        *,
        bucket_size: int = 8,
        words: bool = True,
        structure: bool = True,
        orderings: Optional[Sequence[int]] = None,
        ngram_range: Tuple[int, int] = (1, 1),
        min_df: Union[int, float] = 1,
        max_df: Union[int, float] = 1.0,
        max_features: Optional[int] = None,
        binary: bool = False,
        dtype: Any = np.float64,
    ) -> None:
        self.model = model
        self.bucket_size = bucket_size
        self.words = words
        self.structure = structure
        self.orderings = orderings
        self.ngram_range = ngram_range
        self.min_df = min_df
        self.max_df = max_df
        self.max_features = max_features
        self.binary = binary
        self.dtype = dtype

    # -- scikit-learn interface ----------------------------------------------

    def fit(self, X: Iterable[str], y: Any = None) -> "ReleaseFeatures":
        """Learn the features of the texts `X` (y is ignored)."""
        self.fit_transform(X)  # as CountVectorizer.fit does
        return self

    def fit_transform(self, X: Iterable[str], y: Any = None, **fit_params: Any) -> Any:
        """fit(X) then transform(X), in one pass over the texts."""
        self._prepare()
        matrix = self.vectorizer_.fit_transform(X)
        self.n_features_out_ = len(self.vectorizer_.vocabulary_)
        return matrix

    def transform(self, X: Iterable[str]) -> Any:
        """The count matrix (scipy.sparse CSR, one row per text) of `X`."""
        check_is_fitted(self, "vectorizer_")
        return self.vectorizer_.transform(X)

    def get_feature_names_out(self, input_features: Any = None) -> Any:
        """The name of each column: a word, a word n-gram, or "o{L}:b{bucket}"
        (and "o{L}:b{b1} b{b2}" for bucket n-grams)."""
        check_is_fitted(self, "vectorizer_")
        return self.vectorizer_.get_feature_names_out()

    @property
    def vocabulary_(self) -> Dict[str, int]:
        check_is_fitted(self, "vectorizer_")
        return self.vectorizer_.vocabulary_  # type: ignore[no-any-return]

    def _more_tags(self) -> Dict[str, Any]:
        return {"X_types": ["string"], "preserves_dtype": []}

    # -- pickling --------------------------------------------------------------

    def __getstate__(self) -> Dict[str, Any]:
        state = dict(super().__getstate__())  # with scikit-learn's version
        if isinstance(state.get("model"), Model):
            raise TypeError(
                "a ReleaseFeatures made with a dxtext.Model cannot be pickled: "
                "pass the model's path (or None for the default model) instead"
            )
        state.pop("model_", None)
        state.pop("_cache", None)
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        super().__setstate__(state)  # warns when scikit-learn's version differs
        self._cache = {}
        if "model_fingerprint_" in state:
            model = self._open_model()
            if model.fingerprint() != state["model_fingerprint_"]:
                raise ValueError(
                    "the model file differs from the one these features were fitted with "
                    "(its fingerprint changed): the buckets would not be the same"
                )
            self.model_ = model

    # -- the features -----------------------------------------------------------

    def _open_model(self) -> Model:
        if self.model is None:
            return Model.default()
        if isinstance(self.model, Model):
            return self.model
        if isinstance(self.model, (str, bytes, os.PathLike)):
            return Model.open(os.fsdecode(self.model))
        raise TypeError(f"model must be a path, a dxtext.Model or None, not {type(self.model).__name__}")

    def _check_parameters(self) -> Tuple[int, int]:
        b = self.bucket_size
        if isinstance(b, bool) or not isinstance(b, (int, np.integer)) or b < 1:
            raise ValueError(f"bucket_size must be an integer >= 1, not {b!r}")
        try:
            low, high = (int(v) for v in self.ngram_range)
        except (TypeError, ValueError):
            raise ValueError(f"ngram_range must be a pair (low, high), not {self.ngram_range!r}") from None
        if not 1 <= low <= high:
            raise ValueError(f"ngram_range must satisfy 1 <= low <= high, not {self.ngram_range!r}")
        if not self.words and not self.structure:
            raise ValueError("words and structure are both False: there would be no features")
        return low, high

    def _prepare(self) -> None:
        self._ngram = self._check_parameters()
        model = self._open_model()
        count = model.ordering_count
        if self.structure:
            if count == 0:
                where = repr(model.path) if model.path is not None else "the model"
                raise ValueError(
                    f"{where} has no orderings, so its words have no buckets: add them with "
                    "`dxtext order MODEL.dxe OUT.dxe`, or use structure=False for the words alone"
                )
            chosen = list(range(count)) if self.orderings is None else list(self.orderings)
            if not chosen:
                raise ValueError("orderings is empty: give None for all of the model's orderings")
            for L in chosen:
                if isinstance(L, bool) or not isinstance(L, (int, np.integer)) or not 0 <= L < count:
                    raise ValueError(f"orderings: {L!r} is not an ordering of the model (it has {count})")
            if len(set(chosen)) != len(chosen):
                raise ValueError(f"orderings lists an ordering twice: {list(self.orderings or [])}")
        else:
            chosen = []
        self.model_ = model
        self.model_fingerprint_ = model.fingerprint()
        self.orderings_ = [int(L) for L in chosen]
        self._cache: Dict[str, Tuple[str, Optional[Tuple[int, ...]]]] = {}
        self.vectorizer_ = CountVectorizer(
            analyzer=self._analyze,
            min_df=self.min_df,
            max_df=self.max_df,
            max_features=self.max_features,
            binary=self.binary,
            dtype=self.dtype,
        )

    def _entry(self, token: str) -> Tuple[str, Optional[Tuple[int, ...]]]:
        """A token's feature word and its buckets (None without them)."""
        hit = self._cache.get(token)
        if hit is not None:
            return hit
        model = self.model_
        entry: Tuple[str, Optional[Tuple[int, ...]]]
        index = None
        if not (token.startswith("[") and token.endswith("]")):
            try:
                index = model.lookup(token)
            except (NotFoundError, InvalidUtf8Error, UnicodeError):
                index = None
        if index is None:
            entry = (token.casefold() if model.info.lowercase or token.startswith("[") else token, None)
        else:
            places = model.ordering_places(index) if self.orderings_ else []
            entry = (model.word(index), tuple(places[L] // self.bucket_size for L in self.orderings_))
        self._cache[token] = entry
        return entry

    def _analyze(self, text: str) -> List[str]:
        entries = [self._entry(t) for t in release_tokens(text)]
        low, high = self._ngram
        features: List[str] = []
        if self.words:
            features.extend(_ngrams([word for word, _ in entries], low, high, " "))
        for j, L in enumerate(self.orderings_):
            stream = [None if buckets is None else f"b{buckets[j]}" for _, buckets in entries]
            features.extend(f"o{L}:{gram}" for gram in _ngrams(stream, low, high, " "))
        return features
