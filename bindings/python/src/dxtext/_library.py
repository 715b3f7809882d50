# SPDX-License-Identifier: Apache-2.0
"""Finding and loading libdxtext, the ctypes declarations of its C API
(include/dxtext/dxtext.h), and what every call of the package goes through:
check() (a status as its exception), Owned (an object the library made),
and the conversions of Python values to what the library reads (utf8,
c_string, c_bytes, initialised structs). Nothing else in the package
touches ctypes signatures."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
import threading
from pathlib import Path
from typing import Any, Callable, List, Optional, Tuple, Type, TypeVar

from .errors import LibraryNotFoundError, error_for, invalid_argument

ABI_VERSION = 0  # DXT_ABI_VERSION these declarations describe

# generated: declarations


class dxt_model_open_options(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("flags", ctypes.c_uint32),
    ]


class dxt_model_info(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("format_major", ctypes.c_uint32),
        ("format_minor", ctypes.c_uint32),
        ("dimension", ctypes.c_uint32),
        ("vocabulary_size", ctypes.c_uint32),
        ("geometry", ctypes.c_uint32),
        ("quantization", ctypes.c_uint32),
        ("lowercase", ctypes.c_bool),
        ("has_frequencies", ctypes.c_bool),
    ]


class dxt_context_options(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("rng_mode", ctypes.c_uint32),
        ("seed", (ctypes.c_uint8 * 32)),
    ]


class dxt_privatize_options(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("mechanism", ctypes.c_uint32),
        ("epsilon", ctypes.c_double),
        ("policy", (ctypes.c_uint32 * 4)),
        ("placeholder", ctypes.c_void_p),
        ("tem_gamma", ctypes.c_double),
        ("tem_beta", ctypes.c_double),
        ("vickrey_t", ctypes.c_double),
        ("mahalanobis_lambda", ctypes.c_double),
        ("syntf_s", ctypes.c_double),
        ("exponential_sampler", ctypes.c_uint32),
        ("search", ctypes.c_uint32),
        ("ivf_nprobe", ctypes.c_uint32),
        ("release_shape", ctypes.c_uint32),
        ("output_top", ctypes.c_uint32),
        ("output_set", ctypes.c_void_p),
        ("preset", ctypes.c_uint32),
        ("typed", (ctypes.c_uint32 * 6)),
        ("typed_consistent", ctypes.c_uint32),
        ("number_shape", ctypes.c_uint32),
        ("uniform_floor", ctypes.c_double),
        ("negations", ctypes.c_uint32),
        ("context_prior", ctypes.c_double),
    ]


class dxt_option_info(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("kind", ctypes.c_uint32),
        ("name", ctypes.c_void_p),
        ("type_name", ctypes.c_void_p),
        ("default_value", ctypes.c_void_p),
        ("values", ctypes.c_void_p),
        ("meaning", ctypes.c_void_p),
    ]


class dxt_release_record(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("mechanism", ctypes.c_uint32),
        ("epsilon", ctypes.c_double),
        ("metric", ctypes.c_uint32),
        ("rng_mode", ctypes.c_uint32),
        ("is_private", ctypes.c_bool),
        ("fingerprint_valid", ctypes.c_bool),
        ("model_fingerprint", (ctypes.c_uint8 * 32)),
        ("release", ctypes.c_uint32),
        ("bound", ctypes.c_uint32),
        ("reveals", ctypes.c_uint32),
        ("draws", ctypes.c_uint64),
        ("epsilon_total", ctypes.c_double),
        ("epsilon_vocabulary", ctypes.c_double),
        ("release_shape", ctypes.c_uint32),
        ("output_kind", ctypes.c_uint32),
        ("output_size", ctypes.c_uint32),
        ("output_digest", (ctypes.c_uint8 * 32)),
        ("preset", ctypes.c_uint32),
        ("typed_classes", ctypes.c_uint32),
        ("typed_flags", ctypes.c_uint32),
        ("uniform_floor", ctypes.c_double),
        ("worst_case_per_word", ctypes.c_double),
        ("typed_dropped", ctypes.c_uint32),
        ("context_prior", ctypes.c_double),
    ]


class dxt_local_diagnostics(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("counts", ((ctypes.c_uint64 * 4) * 4)),
        ("words_privatized", ctypes.c_uint64),
        ("words_leaked", ctypes.c_uint64),
    ]


class dxt_bag_entry(ctypes.Structure):
    _fields_ = [
        ("word", ctypes.c_void_p),
        ("length", ctypes.c_size_t),
        ("count", ctypes.c_uint64),
    ]


class dxt_bag(ctypes.Structure):
    _fields_ = [
        ("entries", ctypes.POINTER(dxt_bag_entry)),
        ("size", ctypes.c_size_t),
    ]


class dxt_calibration(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("words", ctypes.c_uint32),
        ("trials", ctypes.c_uint32),
        ("keep_mean", ctypes.c_double),
        ("keep_median", ctypes.c_double),
        ("keep_max", ctypes.c_double),
        ("distinct_mean", ctypes.c_double),
        ("distinct_median", ctypes.c_double),
        ("distinct_max", ctypes.c_double),
    ]


class dxt_ledger_anchor(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("ledger_id", (ctypes.c_uint8 * 16)),
        ("commits", ctypes.c_uint64),
        ("spent", ctypes.c_double),
    ]


class dxt_ledger_options(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("cap", ctypes.c_double),
        ("memo_capacity", ctypes.c_uint32),
        ("key", ctypes.c_void_p),
        ("key_length", ctypes.c_size_t),
        ("anchor", ctypes.POINTER(dxt_ledger_anchor)),
    ]


class dxt_ledger_totals(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("cap", ctypes.c_double),
        ("spent", ctypes.c_double),
        ("spent_any_inputs", ctypes.c_double),
        ("releases", ctypes.c_uint64),
        ("memoised", ctypes.c_uint64),
        ("memo_capacity", ctypes.c_uint32),
        ("words", ctypes.c_uint64),
    ]


# name: (return type, parameter types), for every DXT_API function.
SIGNATURES = {
    "dxt_version_number": (ctypes.c_uint32, []),
    "dxt_version_string": (ctypes.c_char_p, []),
    "dxt_abi_version": (ctypes.c_uint32, []),
    "dxt_format_version": (ctypes.c_uint32, []),
    "dxt_status_string": (ctypes.c_char_p, [ctypes.c_int32]),
    "dxt_last_error_message": (ctypes.c_char_p, []),
    "dxt_model_open_options_init_sized": (
        None,
        [
            ctypes.POINTER(dxt_model_open_options),
            ctypes.c_size_t,
        ],
    ),
    "dxt_model_open_file": (
        ctypes.c_int32,
        [
            ctypes.c_char_p,
            ctypes.POINTER(dxt_model_open_options),
            ctypes.POINTER(ctypes.c_void_p),
        ],
    ),
    "dxt_model_open_memory": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.c_size_t,
            ctypes.POINTER(dxt_model_open_options),
            ctypes.POINTER(ctypes.c_void_p),
        ],
    ),
    "dxt_model_close": (None, [ctypes.c_void_p]),
    "dxt_default_model_path": (
        ctypes.c_int32,
        [
            ctypes.c_uint32,
            ctypes.c_void_p,
            ctypes.c_size_t,
            ctypes.POINTER(ctypes.c_size_t),
        ],
    ),
    "dxt_model_info_init_sized": (None, [ctypes.POINTER(dxt_model_info), ctypes.c_size_t]),
    "dxt_model_get_info": (ctypes.c_int32, [ctypes.c_void_p, ctypes.POINTER(dxt_model_info)]),
    "dxt_model_fingerprint": (ctypes.c_int32, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint8)]),
    "dxt_model_lookup": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.c_char_p,
            ctypes.c_size_t,
            ctypes.POINTER(ctypes.c_uint32),
        ],
    ),
    "dxt_model_word": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.c_uint32,
            ctypes.POINTER(ctypes.c_void_p),
            ctypes.POINTER(ctypes.c_size_t),
        ],
    ),
    "dxt_model_nearest": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.POINTER(ctypes.c_float),
            ctypes.c_size_t,
            ctypes.POINTER(ctypes.c_uint32),
        ],
    ),
    "dxt_model_ordering_count": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.POINTER(ctypes.c_uint32),
        ],
    ),
    "dxt_model_ordering_place": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.c_uint32,
            ctypes.c_uint32,
            ctypes.POINTER(ctypes.c_uint32),
            ctypes.POINTER(ctypes.c_uint32),
        ],
    ),
    "dxt_context_options_init_sized": (
        None,
        [
            ctypes.POINTER(dxt_context_options),
            ctypes.c_size_t,
        ],
    ),
    "dxt_context_create": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.POINTER(dxt_context_options),
            ctypes.POINTER(ctypes.c_void_p),
        ],
    ),
    "dxt_context_destroy": (None, [ctypes.c_void_p]),
    "dxt_epsilon_min": (ctypes.c_double, []),
    "dxt_epsilon_max": (ctypes.c_double, []),
    "dxt_output_set_create": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.POINTER(ctypes.c_char_p),
            ctypes.c_size_t,
            ctypes.POINTER(ctypes.c_void_p),
        ],
    ),
    "dxt_output_set_size": (ctypes.c_uint32, [ctypes.c_void_p]),
    "dxt_output_set_free": (None, [ctypes.c_void_p]),
    "dxt_privatize_options_init_sized": (None, [ctypes.c_void_p, ctypes.c_size_t]),
    "dxt_options_create": (ctypes.c_int32, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]),
    "dxt_options_destroy": (None, [ctypes.c_void_p]),
    "dxt_options_set": (ctypes.c_int32, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p]),
    "dxt_options_set_words": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_char_p),
            ctypes.c_size_t,
        ],
    ),
    "dxt_options_get": (ctypes.c_void_p, [ctypes.c_void_p]),
    "dxt_option_count": (ctypes.c_uint32, []),
    "dxt_option_describe": (ctypes.c_int32, [ctypes.c_uint32, ctypes.POINTER(dxt_option_info)]),
    "dxt_release_record_init_sized": (None, [ctypes.POINTER(dxt_release_record), ctypes.c_size_t]),
    "dxt_release_record_to_json": (
        ctypes.c_int32,
        [
            ctypes.POINTER(dxt_release_record),
            ctypes.c_void_p,
            ctypes.c_size_t,
            ctypes.POINTER(ctypes.c_size_t),
        ],
    ),
    "dxt_local_diagnostics_init_sized": (
        None,
        [
            ctypes.POINTER(dxt_local_diagnostics),
            ctypes.c_size_t,
        ],
    ),
    "dxt_local_diagnostics_to_json": (
        ctypes.c_int32,
        [
            ctypes.POINTER(dxt_local_diagnostics),
            ctypes.c_void_p,
            ctypes.c_size_t,
            ctypes.POINTER(ctypes.c_size_t),
        ],
    ),
    "dxt_privatize_index": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.c_void_p,
            ctypes.c_uint32,
            ctypes.POINTER(ctypes.c_uint32),
            ctypes.POINTER(dxt_release_record),
            ctypes.POINTER(dxt_local_diagnostics),
        ],
    ),
    "dxt_privatize_word": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.c_void_p,
            ctypes.c_char_p,
            ctypes.c_size_t,
            ctypes.POINTER(ctypes.c_void_p),
            ctypes.POINTER(ctypes.c_size_t),
            ctypes.POINTER(dxt_release_record),
            ctypes.POINTER(dxt_local_diagnostics),
        ],
    ),
    "dxt_privatize_text": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.c_void_p,
            ctypes.c_char_p,
            ctypes.c_size_t,
            ctypes.POINTER(ctypes.c_void_p),
            ctypes.POINTER(ctypes.c_size_t),
            ctypes.POINTER(dxt_release_record),
            ctypes.POINTER(dxt_local_diagnostics),
        ],
    ),
    "dxt_text_free": (None, [ctypes.c_void_p]),
    "dxt_privatize_bag": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.c_void_p,
            ctypes.POINTER(dxt_bag_entry),
            ctypes.c_size_t,
            ctypes.POINTER(ctypes.POINTER(dxt_bag)),
            ctypes.POINTER(dxt_release_record),
            ctypes.POINTER(dxt_local_diagnostics),
        ],
    ),
    "dxt_bag_free": (None, [ctypes.POINTER(dxt_bag)]),
    "dxt_syntf": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.c_void_p,
            ctypes.POINTER(dxt_bag_entry),
            ctypes.c_size_t,
            ctypes.c_uint32,
            ctypes.POINTER(ctypes.POINTER(dxt_bag)),
            ctypes.POINTER(dxt_release_record),
            ctypes.POINTER(dxt_local_diagnostics),
        ],
    ),
    "dxt_calibration_init_sized": (None, [ctypes.POINTER(dxt_calibration), ctypes.c_size_t]),
    "dxt_calibrate": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.c_void_p,
            ctypes.c_uint32,
            ctypes.c_uint32,
            ctypes.POINTER(dxt_calibration),
        ],
    ),
    "dxt_ledger_anchor_init_sized": (None, [ctypes.POINTER(dxt_ledger_anchor), ctypes.c_size_t]),
    "dxt_ledger_anchor_encode": (
        ctypes.c_int32,
        [
            ctypes.POINTER(dxt_ledger_anchor),
            ctypes.c_void_p,
            ctypes.c_size_t,
        ],
    ),
    "dxt_ledger_anchor_decode": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.c_size_t,
            ctypes.POINTER(dxt_ledger_anchor),
        ],
    ),
    "dxt_ledger_options_init_sized": (None, [ctypes.POINTER(dxt_ledger_options), ctypes.c_size_t]),
    "dxt_ledger_open": (
        ctypes.c_int32,
        [
            ctypes.c_char_p,
            ctypes.c_char_p,
            ctypes.POINTER(dxt_ledger_options),
            ctypes.POINTER(ctypes.c_void_p),
        ],
    ),
    "dxt_ledger_close": (None, [ctypes.c_void_p]),
    "dxt_ledger_open_memory": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.c_size_t,
            ctypes.c_char_p,
            ctypes.POINTER(dxt_ledger_options),
            ctypes.POINTER(ctypes.c_void_p),
        ],
    ),
    "dxt_ledger_save": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.c_void_p,
            ctypes.c_size_t,
            ctypes.POINTER(ctypes.c_size_t),
        ],
    ),
    "dxt_ledger_set_cap": (ctypes.c_int32, [ctypes.c_void_p, ctypes.c_double]),
    "dxt_ledger_privatize_text": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.c_void_p,
            ctypes.c_void_p,
            ctypes.c_char_p,
            ctypes.c_size_t,
            ctypes.c_uint32,
            ctypes.POINTER(ctypes.c_void_p),
            ctypes.POINTER(ctypes.c_size_t),
            ctypes.POINTER(ctypes.c_bool),
            ctypes.POINTER(dxt_release_record),
            ctypes.POINTER(dxt_local_diagnostics),
        ],
    ),
    "dxt_ledger_totals_init_sized": (None, [ctypes.POINTER(dxt_ledger_totals), ctypes.c_size_t]),
    "dxt_ledger_get_totals": (ctypes.c_int32, [ctypes.c_void_p, ctypes.POINTER(dxt_ledger_totals)]),
    "dxt_ledger_get_anchor": (ctypes.c_int32, [ctypes.c_void_p, ctypes.POINTER(dxt_ledger_anchor)]),
    "dxt_ledger_to_json": (
        ctypes.c_int32,
        [
            ctypes.c_void_p,
            ctypes.c_void_p,
            ctypes.c_size_t,
            ctypes.POINTER(ctypes.c_size_t),
        ],
    ),
}

# generated: end declarations


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
    for name, (restype, argtypes) in SIGNATURES.items():
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
    """The path (or loader name) of the libdxtext in use (loaded if it is not
    yet): $DXTEXT_LIBRARY, the copy bundled in the package, the source
    tree's build/lib, or the system's."""
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


class Owned:
    """An object the library made, `ptr` (0 until then): passed to C calls as
    that pointer (_as_parameter_), and released by its free function on
    close() or when the last reference goes."""

    __slots__ = ("ptr", "free")

    def __init__(self, free_name: str) -> None:
        self.ptr = 0
        self.free = getattr(lib(), free_name)  # kept: at exit this module may be gone before __del__ runs

    @property
    def _as_parameter_(self) -> int:
        return self.ptr

    def create(self, function: Any, *args: Any) -> None:
        """Own what function(*args, &out) made; raise its error."""
        out = ctypes.c_void_p()
        check(function(*args, ctypes.byref(out)))
        self.ptr = out.value or 0

    def close(self) -> None:
        if self.ptr:
            self.free(self.ptr)
            self.ptr = 0

    __del__ = close


def utf8(text: str, what: str) -> bytes:
    """`text` as UTF-8 for a call that takes its length too: a TypeError for a
    value that is no str. A lone surrogate becomes invalid UTF-8, which the
    library refuses (InvalidUtf8Error) like any other invalid input."""
    if not isinstance(text, str):
        raise TypeError(f"{what} must be str, not {type(text).__name__}")
    return text.encode("utf-8", "surrogatepass")


def c_string(text: str, what: str) -> bytes:
    """`text` as the NUL-terminated UTF-8 string a C call reads: a NUL inside,
    where the C string would end ("user\\0day1" and "user\\0day2" would both
    be "user"), is an InvalidArgumentError."""
    return c_bytes(utf8(text, what), what)


def c_bytes(data: bytes, what: str) -> bytes:
    """`data` as a C string: an InvalidArgumentError for a NUL inside."""
    if b"\0" in data:
        raise invalid_argument(f"{what} contains a NUL character")
    return data


def sized_string(call: Callable[[Any, int, Any], int]) -> bytes:
    """What call(buffer, size, &required) writes, asked first with no
    buffer: the library answers that size query with DXT_E_INPUT_TOO_LARGE
    (14) and the size it needs."""
    required = ctypes.c_size_t(0)
    status = call(None, 0, ctypes.byref(required))
    while status == 14:
        buffer = ctypes.create_string_buffer(required.value)
        status = call(buffer, len(buffer), ctypes.byref(required))
        if status == 0:
            return buffer.value
    check(status)
    raise AssertionError("unreachable")


S = TypeVar("S", bound=ctypes.Structure)


def initialised(struct_type: Type[S]) -> S:
    """A `struct_type` (dxt_NAME) filled by the library's dxt_NAME_init_sized
    with the size declared here: a newer library fills only those bytes, and
    sets struct_size to that size.
    """
    value = struct_type()
    getattr(lib(), struct_type.__name__ + "_init_sized")(ctypes.byref(value), ctypes.sizeof(struct_type))
    return value
