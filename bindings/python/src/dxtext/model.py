# SPDX-License-Identifier: Apache-2.0
"""Models, and privatisation with one dxt_context per thread.

A Model is immutable and may be used from any number of threads at once. The
C library's contexts (random-number state) are one per thread; Model keeps one
per thread in a threading.local, created on first use in that thread and
destroyed when the thread ends or the Model is closed.
"""

from __future__ import annotations

import ctypes
import functools
import os
import threading
from typing import (
    TYPE_CHECKING, Any, Dict, Iterable, List, Literal, Mapping, Optional, Sequence, Tuple, Union, overload,
)

from . import _library as native
from .calls import BagLike, _bag_entries, _call_bag, _call_text
from .enums import Geometry, Quantization, coerce
from .errors import error_for, invalid_argument
from .options import Options, SeedLike, seed_bytes, unsigned, warn_not_private
from .output_set import OutputSet
from .reports import Calibration, LocalDiagnostics, ModelInfo, ReleaseRecord, from_struct

if TYPE_CHECKING:  # pragma: no cover
    from typing_extensions import Unpack

    from ._options_table import OptionValues
    from .ledger import Ledger  # which imports this module

    class CallOptions(OptionValues, total=False):
        """The keyword arguments of every privatising call but with_record:
        the options of docs/options.md, seed= and local_diagnostics=."""

        seed: Optional[SeedLike]
        local_diagnostics: Optional[LocalDiagnostics]

PathLike = Union[str, "os.PathLike[str]"]


class _ModelHandle(native.Owned):
    """A dxt_model* and, for from_bytes(), the buffer under it. The model is
    closed when the last reference goes (the Model, its contexts, or a call
    in progress on another thread)."""

    __slots__ = ("buffer",)

    def __init__(self, buffer: Optional[ctypes.Array] = None) -> None:  # type: ignore[type-arg]
        super().__init__("dxt_model_close")
        self.buffer = buffer


class _Context(native.Owned):
    """A dxt_context*, for one thread at a time."""

    __slots__ = ("model",)

    def __init__(self, model: _ModelHandle, seed: Optional[bytes]) -> None:
        super().__init__("dxt_context_destroy")
        self.model = model  # the model (and its buffer) outlive the context
        options = None
        if seed is not None:
            options = native.initialised(native.dxt_context_options)
            options.rng_mode = 2  # DXT_RNG_DETERMINISTIC
            ctypes.memmove(options.seed, seed, 32)
        try:
            self.create(native.lib().dxt_context_create, model, options)  # ctypes passes &options (or NULL)
        finally:
            if options is not None:
                ctypes.memset(options.seed, 0, 32)


class Model:
    """An opened .dxe embedding model, and the privatisation calls on it.

    Open one with Model.open(path), Model.from_bytes(data) or
    Model.default(); use it as a context manager or call close(). Every
    privatisation method is safe to call from several threads at once.

    >>> with Model.open("build/models/demo.dxe") as model:   # doctest: +SKIP
    ...     model.privatize("The quick brown fox", epsilon=5)
    'The fast brown wolf'
    """

    def __init__(self, _handle: _ModelHandle, _path: Optional[str]) -> None:
        """Use Model.open(), Model.from_bytes() or Model.default()."""
        if not isinstance(_handle, _ModelHandle):
            raise TypeError("use Model.open(), Model.from_bytes() or Model.default()")
        self._handle: Optional[_ModelHandle] = _handle
        self._path = _path
        self._local = threading.local()
        self._info: Optional[ModelInfo] = None

    # -- opening and closing ------------------------------------------------

    @classmethod
    def _open(
        cls, function: Any, args: Tuple[Any, ...], verify_digests: bool, path: Optional[str], buffer: Any = None
    ) -> "Model":
        """The model function(*args, &options, &model) opens (from `buffer`, which it keeps)."""
        options = native.initialised(native.dxt_model_open_options)
        options.flags = 1 if verify_digests else 0  # DXT_OPEN_VERIFY_DIGESTS
        handle = _ModelHandle(buffer)
        handle.create(function, *args, ctypes.byref(options))
        return cls(handle, path)

    @classmethod
    def open(cls, path: PathLike, *, verify_digests: bool = False) -> "Model":
        """Memory-map and validate the model file at `path`.

        verify_digests also checks every section's SHA-256 (reads the whole
        file). Raises DxtextIOError when the file cannot be read, and a
        ModelError subclass when it is not a valid model.
        """
        name = native.c_bytes(os.fsencode(path), "the path")
        return cls._open(native.lib().dxt_model_open_file, (name,), verify_digests, os.fsdecode(name))

    @classmethod
    def from_bytes(cls, data: Union[bytes, bytearray, memoryview], *, verify_digests: bool = False) -> "Model":
        """Open a model held in memory. The bytes are copied into an 8-byte
        aligned buffer that the Model keeps alive, so `data` may be changed or
        freed afterwards."""
        view = memoryview(data).cast("B")
        size = view.nbytes
        buffer = (ctypes.c_uint64 * (size // 8 + 1))()  # 8-byte aligned, as the library requires
        if size:
            source = data if isinstance(data, bytes) else view.tobytes()  # one copy at most
            ctypes.memmove(buffer, source, size)
        return cls._open(native.lib().dxt_model_open_memory, (buffer, size), verify_digests, None, buffer)

    @staticmethod
    def default_path(geometry: Union[Geometry, str] = Geometry.EUCLIDEAN) -> str:
        """The default model's path for `geometry`: $DXTEXT_MODEL, then the
        model beside the library (the wheel's own, or the models directory
        of the tree the library is installed or built in).
        Raises NotFoundError when there is none."""
        g = int(coerce(Geometry, geometry, "geometry"))
        return os.fsdecode(native.sized_string(functools.partial(native.lib().dxt_default_model_path, g)))

    @classmethod
    def default(cls, geometry: Union[Geometry, str] = Geometry.EUCLIDEAN, *, verify_digests: bool = False) -> "Model":
        """Open the default model for `geometry` (see default_path())."""
        return cls.open(cls.default_path(geometry), verify_digests=verify_digests)

    def close(self) -> None:
        """Release the model. Calls still running in other threads finish
        first; later calls raise InvalidArgumentError. Closing twice is fine."""
        self._handle = None
        self._local = threading.local()

    @property
    def closed(self) -> bool:
        return self._handle is None

    def __enter__(self) -> "Model":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        if self._handle is None:
            return "<dxtext.Model closed>"
        where = repr(self._path) if self._path is not None else "in memory"
        i = self.info
        return f"<dxtext.Model {where} words={i.vocabulary_size} dimension={i.dimension} {i.geometry.name.lower()}>"

    def _require(self) -> _ModelHandle:
        handle = self._handle
        if handle is None:
            raise invalid_argument("the model is closed")
        return handle

    def _call_args(self, options: Mapping[str, object], seed: Optional[SeedLike]) -> Tuple[_Context, Options]:
        """The first two arguments of a privatising call: the context it draws
        from, and its options (made, and so checked, first)."""
        made = Options(self._require(), options)
        return self._context(seed), made

    def _context(self, seed: Optional[SeedLike]) -> _Context:
        handle = self._require()
        if seed is not None:
            warn_not_private()
            return _Context(handle, seed_bytes(seed))  # fresh per call: reproducible
        local = self._local
        context: Optional[_Context] = getattr(local, "context", None)
        if context is None or context.model is not handle:
            context = _Context(handle, None)
            local.context = context
        return context

    # -- facts about the model ----------------------------------------------

    @property
    def path(self) -> Optional[str]:
        """The file the model was opened from (None for from_bytes())."""
        return self._path

    @property
    def info(self) -> ModelInfo:
        """Format version, dimension, vocabulary size, geometry, quantisation."""
        if self._info is None:
            raw = native.initialised(native.dxt_model_info)
            native.check(native.lib().dxt_model_get_info(self._require(), ctypes.byref(raw)))
            self._info = from_struct(ModelInfo, raw, geometry=Geometry, quantization=Quantization, lowercase=bool,
                                     has_frequencies=bool)
        return self._info

    def __len__(self) -> int:
        return self.info.vocabulary_size

    def fingerprint(self) -> bytes:
        """SHA-256 of the whole model file (computed once, then cached)."""
        digest = (ctypes.c_uint8 * 32)()
        native.check(native.lib().dxt_model_fingerprint(self._require(), digest))
        return bytes(digest)

    def _lookup(self, word: str) -> Tuple[int, int]:
        """dxt_model_lookup's status and index."""
        handle = self._require()
        data = native.utf8(word, "word")
        index = ctypes.c_uint32()
        return native.lib().dxt_model_lookup(handle, data, len(data), ctypes.byref(index)), index.value

    def lookup(self, word: str) -> int:
        """The vocabulary index of `word`, looked up as the text functions do
        (case folded for lowercase models). Raises NotFoundError."""
        status, index = self._lookup(word)
        native.check(status)
        return index

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        status, _ = self._lookup(word)
        if status in (11, 12):  # invalid UTF-8, not found
            return False
        native.check(status)
        return True

    @staticmethod
    def _index(index: int) -> int:
        """A vocabulary index as the C calls take it (uint32_t)."""
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"index must be an int, not {type(index).__name__}")
        if not 0 <= index < 2**32:
            raise error_for(12, "not found", f"word index {index} is out of range")
        return index

    def word(self, index: int) -> str:
        """The word at vocabulary `index`. Raises NotFoundError when out of range."""
        handle = self._require()
        index = self._index(index)
        pointer = ctypes.c_void_p()
        length = ctypes.c_size_t()
        native.check(native.lib().dxt_model_word(handle, index, ctypes.byref(pointer), ctypes.byref(length)))
        return ctypes.string_at(pointer.value or 0, length.value).decode("utf-8")

    def nearest(self, vector: Sequence[float]) -> int:
        """The index of the exact nearest word to `vector` in the model's
        geometry (a point inside the unit ball for Poincare models)."""
        values = (ctypes.c_float * len(vector))(*vector)
        index = ctypes.c_uint32()
        native.check(native.lib().dxt_model_nearest(self._require(), values, len(vector), ctypes.byref(index)))
        return index.value

    @property
    def ordering_count(self) -> int:
        """The number K of public orderings of the vocabulary in the model
        (docs/format.md §10.3; `dxtext order` adds them): 0 without them.
        Raises CorruptModelError when the stored orderings are damaged."""
        count = ctypes.c_uint32()
        native.check(native.lib().dxt_model_ordering_count(self._require(), ctypes.byref(count)))
        return count.value

    def ordering_places(self, index: int) -> List[int]:
        """The places of the word at vocabulary `index` along each of the
        model's orderings, as `dxtext orderings` prints them. Each ordering
        is a cycle of len(model) places. Public data: reading them from a
        released word is post-processing and costs no privacy
        (dxtext.analysis turns them into features). Raises UnsupportedError
        for a model without orderings and NotFoundError for an index out
        of range."""
        handle = self._require()
        index = self._index(index)
        function = native.lib().dxt_model_ordering_place
        place = ctypes.c_uint32()
        places = []
        for ordering in range(max(self.ordering_count, 1)):  # without orderings, 0 raises naming `dxtext order`
            native.check(function(handle, ordering, index, ctypes.byref(place), None))
            places.append(place.value)
        return places

    def __copy__(self) -> "Model":
        return self  # immutable: a copy may share it (sklearn's clone() copies parameters)

    def __deepcopy__(self, memo: Dict[int, Any]) -> "Model":
        return self

    def output_set(self, words: Iterable[str]) -> OutputSet:
        """An output vocabulary of this model: a public list of its words
        that the mechanisms may release (output_words=), built once to be
        reused by many calls. The list must be fixed in advance and never
        made from the text being privatised (docs/guarantees.md, "Output
        vocabularies"). Raises InvalidArgumentError for an empty list, a
        word not in the model and a word given twice."""
        return OutputSet(self._require(), words)

    # -- privatisation -------------------------------------------------------
    #
    # Every call takes the options of docs/options.md as keyword arguments
    # (OptionValues in _options_table.py, generated from
    # tools/options/privatize_options.table), passed to the library by name:
    # epsilon, mechanism ("laplace", ..., or a Mechanism), the token policies
    # in_vocabulary, oov, numbers, stopwords ("privatize", "placeholder",
    # "drop", "keep"), placeholder, the mechanisms' parameters, search and
    # ivf_nprobe, release_shape, output_top or output_words (a list of the
    # model's words, or an OutputSet from output_set()), and preset
    # ("readable", "features", "strongest", or a Preset), which fixes the
    # options of docs/options.md, "Presets" (one it fixes may only be left
    # out, given its default or given the preset's value). epsilon may be left
    # out with a preset, which then gives it; a given epsilon overrides the
    # preset's. An unknown option is refused by the library
    # (InvalidArgumentError, "unknown option 'epsilom' (did you mean
    # 'epsilon'?)"), a value of the wrong Python type with TypeError.

    @overload
    def privatize(
        self,
        text: str,
        *,
        with_record: Literal[False] = ...,
        ledger: Optional[Ledger] = ...,
        **options: Unpack[CallOptions],
    ) -> str: ...

    @overload
    def privatize(
        self, text: str, *, with_record: Literal[True], ledger: Optional[Ledger] = ..., **options: Unpack[CallOptions]
    ) -> Tuple[str, ReleaseRecord]: ...

    def privatize(
        self,
        text: str,
        *,
        seed: Optional[SeedLike] = None,
        with_record: bool = False,
        local_diagnostics: Optional[LocalDiagnostics] = None,
        ledger: Optional[Ledger] = None,
        **options: Any,
    ) -> Union[str, Tuple[str, ReleaseRecord]]:
        """Privatise UTF-8 text: each word is replaced by the mechanism's
        output, spacing and punctuation are kept, and each word's case shape
        (lower, Title, UPPER) is restored.

        Args:
            text: the text.
            seed: 32 bytes, 64 hex digits or an int: reproducible noise that
                is NOT private (testing and research only; issues a
                NotPrivateWarning and the record says is_private=False).
            with_record: also return the ReleaseRecord: the guarantee (for
                text, epsilon * sum_i d(x_i, x'_i), position by position)
                and what the output still reveals; safe to send with the text.
            local_diagnostics: a LocalDiagnostics to fill with the token
                counts of the input. They describe the input: keep them local.
            ledger: a dxtext.Ledger: the release goes through it (docs/budgets.md):
                refused with BudgetExceededError, before any noise is drawn,
                past its cap; the same text with the same options gives
                the memoised output and spends nothing (Ledger.privatize
                also says whether it was memoised, and draws afresh on
                request).
            **options: the options of docs/options.md (see above); epsilon
                (finite, > 0) bounds, per word, the guarantee
                epsilon * d(w, w').

        Returns:
            the text, or (text, record) with with_record=True.
        """
        if ledger is not None:
            release = ledger.privatize(self, text, seed=seed, local_diagnostics=local_diagnostics, **options)
            return (release.text, release.record) if with_record else release.text
        data = native.utf8(text, "text")
        args = (*self._call_args(options, seed), data, len(data))
        out, record = _call_text(native.lib().dxt_privatize_text, args, local_diagnostics)
        return (out, record) if with_record else out

    @overload
    def privatize_words(
        self, words: Iterable[str], *, with_record: Literal[False] = ..., **options: Unpack[CallOptions]
    ) -> List[str]: ...

    @overload
    def privatize_words(
        self, words: Iterable[str], *, with_record: Literal[True], **options: Unpack[CallOptions]
    ) -> Tuple[List[str], ReleaseRecord]: ...

    def privatize_words(
        self,
        words: Iterable[str],
        *,
        seed: Optional[SeedLike] = None,
        with_record: bool = False,
        local_diagnostics: Optional[LocalDiagnostics] = None,
        **options: Any,
    ) -> Union[List[str], Tuple[List[str], ReleaseRecord]]:
        """Privatise each word of a list on its own (no tokenisation), in
        order. A word dropped by its policy becomes "". The record's bound is
        the positionwise one over the list, epsilon * sum_i d(x_i, x'_i); the
        diagnostics add up. Arguments as privatize()."""
        encoded = [native.utf8(w, "word") for w in words]
        first = self._call_args(options, seed)
        function = native.lib().dxt_privatize_word
        each = [LocalDiagnostics() if local_diagnostics is not None else None for _ in encoded]
        results = [_call_text(function, (*first, w, len(w)), d) for w, d in zip(encoded, each)]
        if local_diagnostics is not None:
            local_diagnostics._sum(each)  # type: ignore[arg-type]
        out = [text for text, _ in results]
        if not with_record:
            return out
        record = ReleaseRecord._sequence(r for _, r in results)
        if record is None:  # no words: the record of an empty text
            _, record = _call_text(native.lib().dxt_privatize_text, (*first, b"", 0), None)
        return out, record

    @overload
    def privatize_bag(
        self, bag: BagLike, *, with_record: Literal[False] = ..., **options: Unpack[CallOptions]
    ) -> Dict[str, int]: ...

    @overload
    def privatize_bag(
        self, bag: BagLike, *, with_record: Literal[True], **options: Unpack[CallOptions]
    ) -> Tuple[Dict[str, int], ReleaseRecord]: ...

    def privatize_bag(
        self,
        bag: BagLike,
        *,
        seed: Optional[SeedLike] = None,
        with_record: bool = False,
        local_diagnostics: Optional[LocalDiagnostics] = None,
        **options: Any,
    ) -> Union[Dict[str, int], Tuple[Dict[str, int], ReleaseRecord]]:
        """Privatise a bag of words {word: count}: every occurrence
        independently; the record's bound is epsilon * N * EMD(b, b') for bags
        of equal size N (Fernandes, Dras & McIver 2019).
        The result is ordered by vocabulary index. Arguments as privatize()."""
        entries, _words = _bag_entries(bag)  # the entries point into _words
        args = (*self._call_args(options, seed), entries, len(entries))
        out, record = _call_bag(native.lib().dxt_privatize_bag, args, local_diagnostics)
        return (out, record) if with_record else out

    @overload
    def syntf(
        self, bag: BagLike, n_out: int, *, with_record: Literal[False] = ..., **options: Unpack[CallOptions]
    ) -> Dict[str, int]: ...

    @overload
    def syntf(
        self, bag: BagLike, n_out: int, *, with_record: Literal[True], **options: Unpack[CallOptions]
    ) -> Tuple[Dict[str, int], ReleaseRecord]: ...

    def syntf(
        self,
        bag: BagLike,
        n_out: int,
        *,
        seed: Optional[SeedLike] = None,
        with_record: bool = False,
        local_diagnostics: Optional[LocalDiagnostics] = None,
        **options: Any,
    ) -> Union[Dict[str, int], Tuple[Dict[str, int], ReleaseRecord]]:
        """SynTF (Weggenmann & Kerschbaum 2018): a synthetic bag of exactly
        `n_out` words drawn from the term distribution of `bag`, each replaced
        by the SynTF exponential mechanism (parameter syntf_s, default 0.3;
        the option mechanism is not used). Policies may only be "privatize"
        or "drop". The record's bound is ANY_INPUTS: epsilon_total =
        epsilon * n_out (plain DP, all documents adjacent)."""
        unsigned(n_out, "n_out", 32)
        entries, _words = _bag_entries(bag)  # the entries point into _words
        args = (*self._call_args(options, seed), entries, len(entries), n_out)
        out, record = _call_bag(native.lib().dxt_syntf, args, local_diagnostics)
        return (out, record) if with_record else out

    def calibrate(
        self,
        *,
        words: int = 100,
        trials: int = 100,
        seed: Optional[SeedLike] = None,
        **options: Unpack[OptionValues],
    ) -> Calibration:
        """Plausible-deniability statistics of the options' mechanism at
        their epsilon: `words` vocabulary words sampled at random, each
        privatised `trials` times; N_w (how often the word survives) and S_w
        (distinct outputs)."""
        unsigned(words, "words", 32)
        unsigned(trials, "trials", 32)
        first = self._call_args(options, seed)
        raw = native.initialised(native.dxt_calibration)
        native.check(native.lib().dxt_calibrate(*first, words, trials, ctypes.byref(raw)))
        return from_struct(Calibration, raw)
