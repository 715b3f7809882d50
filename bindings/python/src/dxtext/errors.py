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


class ModelError(DxtextError):
    """The bytes are not a usable model; the subclasses say why."""


class LibraryNotFoundError(ImportError):
    """libdxtext could not be found or loaded (see dxtext.library_path())."""


# generated: statuses


class InvalidArgumentError(DxtextError, ValueError):
    """DXT_E_INVALID_ARGUMENT: A NULL pointer, a bad option or value, or a bad struct_size."""

    status = 1


class InvalidEpsilonError(DxtextError, ValueError):
    """DXT_E_INVALID_EPSILON: Epsilon is not finite, outside [DXT_EPSILON_MIN, DXT_EPSILON_MAX], or
    below the mechanism's bound."""

    status = 2


class DxtextIOError(DxtextError, OSError):
    """DXT_E_IO: A file could not be opened, read or written."""

    status = 3


class NotAModelError(ModelError):
    """DXT_E_NOT_A_MODEL: The bytes are not a .dxe model (bad magic)."""

    status = 4


class UnsupportedVersionError(ModelError):
    """DXT_E_UNSUPPORTED_VERSION: The model's major format version is newer than this library."""

    status = 5


class CorruptModelError(ModelError):
    """DXT_E_CORRUPT_MODEL: A field of the model fails validation."""

    status = 6


class TruncatedModelError(ModelError):
    """DXT_E_TRUNCATED_MODEL: The model is shorter than its header says."""

    status = 7


class DigestMismatchError(ModelError):
    """DXT_E_DIGEST_MISMATCH: A stored SHA-256 digest does not match."""

    status = 8


class DxtextMemoryError(DxtextError, MemoryError):
    """DXT_E_OUT_OF_MEMORY: Memory ran out; nothing was released."""

    status = 9


class RngFailureError(DxtextError):
    """DXT_E_RNG_FAILURE: The random generator failed; nothing was released."""

    status = 10


class InvalidUtf8Error(DxtextError, ValueError):
    """DXT_E_INVALID_UTF8: The input is not valid UTF-8."""

    status = 11


class NotFoundError(DxtextError, LookupError):
    """DXT_E_NOT_FOUND: A word or index is not in the vocabulary, or there is no default model."""

    status = 12


class UnsupportedError(DxtextError):
    """DXT_E_UNSUPPORTED: The mechanism, geometry or option is not supported here."""

    status = 13


class InputTooLargeError(DxtextError, ValueError):
    """DXT_E_INPUT_TOO_LARGE: A count or size exceeds a documented limit, or a buffer is too small.
    """

    status = 14


class ParseError(DxtextError, ValueError):
    """DXT_E_PARSE: Malformed input to a converter."""

    status = 15


class InternalError(DxtextError):
    """DXT_E_INTERNAL: A bug in dxtext; please report it."""

    status = 16


class ContextBusyError(DxtextError, RuntimeError):
    """DXT_E_CONTEXT_BUSY: Another thread is inside a call on the same context; nothing was done. A
    context is for one thread at a time: give each thread its own."""

    status = 17


class BudgetExceededError(DxtextError):
    """DXT_E_BUDGET_EXCEEDED: A ledger refused the release: it would pass the scope's cap. Nothing
    was drawn, released or spent (see "Privacy ledger")."""

    status = 18


class LedgerCorruptError(DxtextError):
    """DXT_E_LEDGER_CORRUPT: A ledger file fails its MAC or its format checks (damaged, truncated,
    edited, or opened with another app key); it is left as it is, never reset."""

    status = 19


class LedgerRollbackError(DxtextError):
    """DXT_E_LEDGER_ROLLBACK: A ledger is older than the anchor the app kept for it (an earlier
    copy of its file was put back, or the file was deleted or replaced): the call is refused,
    nothing is drawn or released (see "Rollback")."""

    status = 20


__all__ = [
    "BudgetExceededError",
    "ContextBusyError",
    "CorruptModelError",
    "DigestMismatchError",
    "DxtextError",
    "DxtextIOError",
    "DxtextMemoryError",
    "InputTooLargeError",
    "InternalError",
    "InvalidArgumentError",
    "InvalidEpsilonError",
    "InvalidUtf8Error",
    "LedgerCorruptError",
    "LedgerRollbackError",
    "LibraryNotFoundError",
    "ModelError",
    "NotAModelError",
    "NotFoundError",
    "ParseError",
    "RngFailureError",
    "TruncatedModelError",
    "UnsupportedError",
    "UnsupportedVersionError",
]


_BY_STATUS: Dict[int, Type[DxtextError]] = {
    1: InvalidArgumentError,
    2: InvalidEpsilonError,
    3: DxtextIOError,
    4: NotAModelError,
    5: UnsupportedVersionError,
    6: CorruptModelError,
    7: TruncatedModelError,
    8: DigestMismatchError,
    9: DxtextMemoryError,
    10: RngFailureError,
    11: InvalidUtf8Error,
    12: NotFoundError,
    13: UnsupportedError,
    14: InputTooLargeError,
    15: ParseError,
    16: InternalError,
    17: ContextBusyError,
    18: BudgetExceededError,
    19: LedgerCorruptError,
    20: LedgerRollbackError,
}

# generated: end statuses


def error_for(status: int, status_name: str, detail: str) -> DxtextError:
    """The exception for a non-zero status; unknown (newer) codes give DxtextError."""
    # The library's message is the whole message (dxt_last_error_message):
    # the status's text is not put before it, which would say it twice.
    message = detail or status_name
    cls = _BY_STATUS.get(status, DxtextError)
    return cls(message, status=status, status_name=status_name, detail=detail)


def invalid_argument(detail: str) -> DxtextError:
    """The InvalidArgumentError of a value the binding refuses itself."""
    return error_for(1, "invalid argument", detail)
