# SPDX-License-Identifier: Apache-2.0
"""Finding and loading libdxtext, and the ctypes declarations of its C API
(include/dxtext/dxtext.h). Nothing else in the package touches ctypes
signatures."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
import threading
from pathlib import Path
from typing import List, Optional, Tuple, Type, TypeVar

from .errors import LibraryNotFoundError, error_for

ABI_VERSION = 0  # DXT_ABI_VERSION these declarations describe

c_status = ctypes.c_int32
c_u32 = ctypes.c_uint32
c_u64 = ctypes.c_uint64
c_size = ctypes.c_size_t
c_double = ctypes.c_double
c_bool = ctypes.c_bool
c_ptr = ctypes.c_void_p


class ModelOpenOptions(ctypes.Structure):
    _fields_ = [("struct_size", c_u32), ("flags", c_u32)]


class ModelInfoStruct(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_u32),
        ("format_major", c_u32),
        ("format_minor", c_u32),
        ("dimension", c_u32),
        ("vocabulary_size", c_u32),
        ("geometry", c_u32),
        ("quantization", c_u32),
        ("lowercase", c_bool),
        ("has_frequencies", c_bool),
    ]


class ContextOptions(ctypes.Structure):
    _fields_ = [("struct_size", c_u32), ("rng_mode", c_u32), ("seed", ctypes.c_uint8 * 32)]


class ReleaseRecordStruct(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_u32),
        ("mechanism", c_u32),
        ("epsilon", c_double),
        ("metric", c_u32),
        ("rng_mode", c_u32),
        ("is_private", c_bool),
        ("fingerprint_valid", c_bool),
        ("model_fingerprint", ctypes.c_uint8 * 32),
        ("release", c_u32),
        ("bound", c_u32),
        ("reveals", c_u32),
        ("draws", c_u64),
        ("epsilon_total", c_double),
        ("epsilon_vocabulary", c_double),
        ("release_shape", c_u32),
        ("output_kind", c_u32),
        ("output_size", c_u32),
        ("output_digest", ctypes.c_uint8 * 32),
        ("preset", c_u32),
        ("typed_classes", c_u32),
        ("typed_flags", c_u32),
        ("uniform_floor", c_double),
        ("worst_case_per_word", c_double),
        ("typed_dropped", c_u32),
        ("context_prior", c_double),
    ]


class LocalDiagnosticsStruct(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_u32),
        ("counts", (c_u64 * 4) * 4),
        ("words_privatized", c_u64),
        ("words_leaked", c_u64),
    ]


class BagEntry(ctypes.Structure):
    _fields_ = [("word", c_ptr), ("length", c_size), ("count", c_u64)]


class BagStruct(ctypes.Structure):
    _fields_ = [("entries", ctypes.POINTER(BagEntry)), ("size", c_size)]


class CalibrationStruct(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_u32),
        ("words", c_u32),
        ("trials", c_u32),
        ("keep_mean", c_double),
        ("keep_median", c_double),
        ("keep_max", c_double),
        ("distinct_mean", c_double),
        ("distinct_median", c_double),
        ("distinct_max", c_double),
    ]


class LedgerAnchorStruct(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_u32),
        ("ledger_id", ctypes.c_uint8 * 16),
        ("commits", c_u64),
        ("spent", c_double),
    ]


class LedgerOptionsStruct(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_u32),
        ("cap", c_double),
        ("memo_capacity", c_u32),
        ("key", c_ptr),
        ("key_length", c_size),
        ("anchor", c_ptr),  # const dxt_ledger_anchor *
    ]


class LedgerTotalsStruct(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_u32),
        ("cap", c_double),
        ("spent", c_double),
        ("spent_any_inputs", c_double),
        ("releases", c_u64),
        ("memoised", c_u64),
        ("memo_capacity", c_u32),
        ("words", c_u64),
    ]


_P = ctypes.POINTER
_SIGNATURES = {
    "dxt_version_number": (c_u32, []),
    "dxt_version_string": (ctypes.c_char_p, []),
    "dxt_abi_version": (c_u32, []),
    "dxt_format_version": (c_u32, []),
    "dxt_status_string": (ctypes.c_char_p, [c_status]),
    "dxt_last_error_message": (ctypes.c_char_p, []),
    "dxt_model_open_options_init_sized": (None, [c_ptr, c_size]),
    "dxt_model_open_file": (c_status, [ctypes.c_char_p, _P(ModelOpenOptions), _P(c_ptr)]),
    "dxt_model_open_memory": (c_status, [c_ptr, c_size, _P(ModelOpenOptions), _P(c_ptr)]),
    "dxt_model_close": (None, [c_ptr]),
    "dxt_default_model_path": (c_status, [c_u32, ctypes.c_char_p, c_size, _P(c_size)]),
    "dxt_model_info_init_sized": (None, [c_ptr, c_size]),
    "dxt_model_get_info": (c_status, [c_ptr, _P(ModelInfoStruct)]),
    "dxt_model_fingerprint": (c_status, [c_ptr, _P(ctypes.c_uint8)]),
    "dxt_model_lookup": (c_status, [c_ptr, ctypes.c_char_p, c_size, _P(c_u32)]),
    "dxt_model_word": (c_status, [c_ptr, c_u32, _P(c_ptr), _P(c_size)]),
    "dxt_model_nearest": (c_status, [c_ptr, _P(ctypes.c_float), c_size, _P(c_u32)]),
    "dxt_model_ordering_count": (c_status, [c_ptr, _P(c_u32)]),
    "dxt_model_ordering_place": (c_status, [c_ptr, c_u32, c_u32, _P(c_u32), _P(c_u32)]),
    "dxt_context_options_init_sized": (None, [c_ptr, c_size]),
    "dxt_context_create": (c_status, [c_ptr, _P(ContextOptions), _P(c_ptr)]),
    "dxt_context_destroy": (None, [c_ptr]),
    "dxt_privatize_options_init_sized": (None, [c_ptr, c_size]),
    "dxt_options_create": (c_status, [c_ptr, _P(c_ptr)]),
    "dxt_options_destroy": (None, [c_ptr]),
    "dxt_options_set": (c_status, [c_ptr, ctypes.c_char_p, ctypes.c_char_p]),
    "dxt_options_set_words": (c_status, [c_ptr, ctypes.c_char_p, _P(ctypes.c_char_p), c_size]),
    "dxt_options_get": (c_ptr, [c_ptr]),
    "dxt_output_set_create": (c_status, [c_ptr, _P(ctypes.c_char_p), c_size, _P(c_ptr)]),
    "dxt_output_set_size": (c_u32, [c_ptr]),
    "dxt_output_set_free": (None, [c_ptr]),
    "dxt_release_record_init_sized": (None, [c_ptr, c_size]),
    "dxt_release_record_to_json": (c_status, [_P(ReleaseRecordStruct), ctypes.c_char_p, c_size, _P(c_size)]),
    "dxt_local_diagnostics_init_sized": (None, [c_ptr, c_size]),
    "dxt_local_diagnostics_to_json": (
        c_status,
        [_P(LocalDiagnosticsStruct), ctypes.c_char_p, c_size, _P(c_size)],
    ),
    "dxt_epsilon_min": (c_double, []),
    "dxt_epsilon_max": (c_double, []),
    "dxt_privatize_index": (
        c_status,
        [c_ptr, c_ptr, c_u32, _P(c_u32), _P(ReleaseRecordStruct), _P(LocalDiagnosticsStruct)],
    ),
    "dxt_privatize_word": (
        c_status,
        [c_ptr, c_ptr, ctypes.c_char_p, c_size, _P(c_ptr), _P(c_size), _P(ReleaseRecordStruct),
         _P(LocalDiagnosticsStruct)],
    ),
    "dxt_privatize_text": (
        c_status,
        [c_ptr, c_ptr, ctypes.c_char_p, c_size, _P(c_ptr), _P(c_size), _P(ReleaseRecordStruct),
         _P(LocalDiagnosticsStruct)],
    ),
    "dxt_text_free": (None, [c_ptr]),
    "dxt_privatize_bag": (
        c_status,
        [c_ptr, c_ptr, _P(BagEntry), c_size, _P(_P(BagStruct)), _P(ReleaseRecordStruct),
         _P(LocalDiagnosticsStruct)],
    ),
    "dxt_bag_free": (None, [_P(BagStruct)]),
    "dxt_syntf": (
        c_status,
        [c_ptr, c_ptr, _P(BagEntry), c_size, c_u32, _P(_P(BagStruct)), _P(ReleaseRecordStruct),
         _P(LocalDiagnosticsStruct)],
    ),
    "dxt_ledger_options_init_sized": (None, [c_ptr, c_size]),
    "dxt_ledger_open": (c_status, [ctypes.c_char_p, ctypes.c_char_p, _P(LedgerOptionsStruct), _P(c_ptr)]),
    "dxt_ledger_close": (None, [c_ptr]),
    "dxt_ledger_set_cap": (c_status, [c_ptr, c_double]),
    "dxt_ledger_privatize_text": (
        c_status,
        [c_ptr, c_ptr, c_ptr, ctypes.c_char_p, c_size, c_u32, _P(c_ptr), _P(c_size), _P(c_bool),
         _P(ReleaseRecordStruct), _P(LocalDiagnosticsStruct)],
    ),
    "dxt_ledger_totals_init_sized": (None, [c_ptr, c_size]),
    "dxt_ledger_get_totals": (c_status, [c_ptr, _P(LedgerTotalsStruct)]),
    "dxt_ledger_anchor_init_sized": (None, [c_ptr, c_size]),
    "dxt_ledger_get_anchor": (c_status, [c_ptr, _P(LedgerAnchorStruct)]),
    "dxt_ledger_to_json": (c_status, [c_ptr, ctypes.c_char_p, c_size, _P(c_size)]),
    "dxt_calibration_init_sized": (None, [c_ptr, c_size]),
    "dxt_calibrate": (c_status, [c_ptr, c_ptr, c_u32, c_u32, _P(CalibrationStruct)]),
}


def _library_file_names() -> Tuple[str, ...]:
    if sys.platform == "darwin":
        return ("libdxtext.dylib",)
    if sys.platform == "win32":
        return ("dxtext.dll",)
    return ("libdxtext.so", "libdxtext.so.0")


def candidates() -> List[Tuple[str, str]]:
    """Where the library is looked for, in order: (how, path or name)."""
    found: List[Tuple[str, str]] = []
    explicit = os.environ.get("DXTEXT_LIBRARY")
    if explicit:
        # An explicit choice is the only candidate: no silent fallback.
        return [("DXTEXT_LIBRARY", explicit)]
    package_dir = Path(__file__).resolve().parent
    for name in _library_file_names():
        if (package_dir / "_lib" / name).is_file():
            found.append(("bundled", str(package_dir / "_lib" / name)))
    # Run from a source checkout: <repo>/bindings/python/src/dxtext, with the
    # library built into <repo>/build.
    parents = package_dir.parents
    if len(parents) > 3 and parents[2].name == "bindings" and (parents[3] / "include" / "dxtext" / "dxtext.h").is_file():
        for name in _library_file_names():
            if (parents[3] / "build" / "lib" / name).exists():
                found.append(("build tree", str(parents[3] / "build" / "lib" / name)))
    system = ctypes.util.find_library("dxtext")
    if system:
        found.append(("system", system))
    return found


_lock = threading.Lock()
_loaded: Optional[Tuple[ctypes.CDLL, str]] = None


def _declare(lib: ctypes.CDLL) -> None:
    for name, (restype, argtypes) in _SIGNATURES.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes


def _load() -> Tuple[ctypes.CDLL, str]:
    tried = []
    for how, path in candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{how} {path}: {e}")
            if how == "DXTEXT_LIBRARY":
                break
            continue
        try:
            _declare(lib)
        except AttributeError as e:
            tried.append(f"{how} {path}: not a compatible libdxtext ({e})")
            continue
        abi = lib.dxt_abi_version()
        if abi != ABI_VERSION:
            tried.append(f"{how} {path}: ABI version {abi}, this package needs {ABI_VERSION}")
            continue
        return lib, path
    detail = "; ".join(tried) if tried else "no candidate found"
    raise LibraryNotFoundError(
        "cannot load libdxtext (" + detail + "). Build it (cmake --build build), install it, "
        "or set DXTEXT_LIBRARY to the path of libdxtext.so"
    )


def lib() -> ctypes.CDLL:
    """The loaded library (loaded on first use)."""
    global _loaded
    if _loaded is None:
        with _lock:
            if _loaded is None:
                _loaded = _load()
    return _loaded[0]


def library_path() -> str:
    """The path (or loader name) of the libdxtext in use; loads it if needed."""
    lib()
    assert _loaded is not None
    return _loaded[1]


def check(status: int) -> None:
    """Raise the DxtextError subclass for a non-zero status."""
    if status == 0:
        return
    library = lib()
    # Read the message first: it is valid until the next dxtext call.
    detail = (library.dxt_last_error_message() or b"").decode("utf-8", "replace")
    name = (library.dxt_status_string(status) or b"").decode("utf-8", "replace")
    raise error_for(status, name, detail)


S = TypeVar("S", bound=ctypes.Structure)


def initialised(struct_type: Type[S], init_name: str) -> S:
    """A `struct_type` filled by the library's `init_name` (a dxt_*_init_sized
    function) with the size declared here: a newer library fills only those
    bytes, and sets struct_size to that size.
    """
    value = struct_type()
    getattr(lib(), init_name)(ctypes.byref(value), ctypes.sizeof(struct_type))
    return value
