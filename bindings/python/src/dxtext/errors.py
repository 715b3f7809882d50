# SPDX-License-Identifier: Apache-2.0
"""Exceptions: one class per dxt_status code, all derived from DxtextError."""

from __future__ import annotations

from typing import Dict, Type


class DxtextError(Exception):
    """A dxtext call failed.

    Attributes:
        status: the dxt_status code of the C library (an int, never 0).
        status_name: the library's name for the status, e.g. "invalid epsilon".
        detail: the library's detailed message for this failure (may be "").
    """

    status: int = 0
    status_name: str
    detail: str

    def __init__(self, message: str, status: int | None = None, status_name: str = "", detail: str = "") -> None:
        super().__init__(message)
        if status is not None:
            self.status = status
        self.status_name = status_name
        self.detail = detail


class InvalidArgumentError(DxtextError, ValueError):
    """DXT_E_INVALID_ARGUMENT: a bad option, value or handle."""

    status = 1


class InvalidEpsilonError(DxtextError, ValueError):
    """DXT_E_INVALID_EPSILON: epsilon not finite, <= 0, or below a mechanism's bound."""

    status = 2


class DxtextIOError(DxtextError, OSError):
    """DXT_E_IO: a file could not be opened, read or written."""

    status = 3


class ModelError(DxtextError):
    """The bytes are not a usable model; the subclasses say why."""


class NotAModelError(ModelError):
    """DXT_E_NOT_A_MODEL: bad magic, not a .dxe file."""

    status = 4


class UnsupportedVersionError(ModelError):
    """DXT_E_UNSUPPORTED_VERSION: a newer major format version."""

    status = 5


class CorruptModelError(ModelError):
    """DXT_E_CORRUPT_MODEL: a field of the model fails validation."""

    status = 6


class TruncatedModelError(ModelError):
    """DXT_E_TRUNCATED_MODEL: the model is shorter than it says."""

    status = 7


class DigestMismatchError(ModelError):
    """DXT_E_DIGEST_MISMATCH: a stored SHA-256 digest does not match."""

    status = 8


class DxtextMemoryError(DxtextError, MemoryError):
    """DXT_E_OUT_OF_MEMORY."""

    status = 9


class RngFailureError(DxtextError):
    """DXT_E_RNG_FAILURE: the random generator failed; nothing was released."""

    status = 10


class InvalidUtf8Error(DxtextError, ValueError):
    """DXT_E_INVALID_UTF8: the input is not valid UTF-8 (e.g. a lone surrogate)."""

    status = 11


class NotFoundError(DxtextError, LookupError):
    """DXT_E_NOT_FOUND: a word or index is not in the vocabulary, or no default model."""

    status = 12


class UnsupportedError(DxtextError):
    """DXT_E_UNSUPPORTED: the mechanism, geometry or option is not supported here."""

    status = 13


class InputTooLargeError(DxtextError, ValueError):
    """DXT_E_INPUT_TOO_LARGE: a count or size exceeds a documented limit."""

    status = 14


class ParseError(DxtextError, ValueError):
    """DXT_E_PARSE: malformed input to a converter."""

    status = 15


class InternalError(DxtextError):
    """DXT_E_INTERNAL: a bug in dxtext; please report it."""

    status = 16


class ContextBusyError(DxtextError, RuntimeError):
    """DXT_E_CONTEXT_BUSY: another thread is inside a call on the same
    privatizer; nothing was done. Use one privatizer per thread."""

    status = 17


class BudgetExceededError(DxtextError):
    """DXT_E_BUDGET_EXCEEDED: a Ledger refused the release because it would
    pass the scope's cap. Nothing was drawn, released or spent."""

    status = 18


class LedgerCorruptError(DxtextError):
    """DXT_E_LEDGER_CORRUPT: the ledger file fails its MAC or its format
    checks (damaged, truncated, edited, or another app key). The file is
    left as it is, never reset."""

    status = 19


class LedgerRollbackError(DxtextError):
    """DXT_E_LEDGER_ROLLBACK: the ledger file is older than the anchor the app
    kept for it (an earlier copy was put back, or the file was deleted or
    replaced). Nothing was drawn or released."""

    status = 20


class LibraryNotFoundError(ImportError):
    """libdxtext could not be found or loaded (see dxtext.library_path())."""


_BY_STATUS: Dict[int, Type[DxtextError]] = {
    cls.status: cls
    for cls in (
        InvalidArgumentError,
        InvalidEpsilonError,
        DxtextIOError,
        NotAModelError,
        UnsupportedVersionError,
        CorruptModelError,
        TruncatedModelError,
        DigestMismatchError,
        DxtextMemoryError,
        RngFailureError,
        InvalidUtf8Error,
        NotFoundError,
        UnsupportedError,
        InputTooLargeError,
        ParseError,
        InternalError,
        ContextBusyError,
        BudgetExceededError,
        LedgerCorruptError,
        LedgerRollbackError,
    )
}


def error_for(status: int, status_name: str, detail: str) -> DxtextError:
    """The exception for a non-zero status; unknown (newer) codes give DxtextError."""
    # The library's message is the whole message (dxt_last_error_message):
    # the status's text is not put before it, which would say it twice.
    message = detail or status_name
    cls = _BY_STATUS.get(status, DxtextError)
    return cls(message, status=status, status_name=status_name, detail=detail)
