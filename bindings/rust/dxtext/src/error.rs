// SPDX-License-Identifier: Apache-2.0
//! `Error`: a failed call's status, as an `ErrorKind`, and its message.

use std::ffi::CStr;
use std::fmt;

use dxtext_sys as sys;

// generated: statuses
/// What went wrong: one variant per `dxt_status` of the C API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// `DXT_E_INVALID_ARGUMENT`: A NULL pointer, a bad option or value, or a bad
    /// struct_size.
    InvalidArgument,
    /// `DXT_E_INVALID_EPSILON`: Epsilon is not finite, outside [DXT_EPSILON_MIN,
    /// DXT_EPSILON_MAX], or below the mechanism's bound.
    InvalidEpsilon,
    /// `DXT_E_IO`: A file could not be opened, read or written.
    Io,
    /// `DXT_E_NOT_A_MODEL`: The bytes are not a .dxe model (bad magic).
    NotAModel,
    /// `DXT_E_UNSUPPORTED_VERSION`: The model's major format version is newer than this
    /// library.
    UnsupportedVersion,
    /// `DXT_E_CORRUPT_MODEL`: A field of the model fails validation.
    CorruptModel,
    /// `DXT_E_TRUNCATED_MODEL`: The model is shorter than its header says.
    TruncatedModel,
    /// `DXT_E_DIGEST_MISMATCH`: A stored SHA-256 digest does not match.
    DigestMismatch,
    /// `DXT_E_OUT_OF_MEMORY`: Memory ran out; nothing was released.
    OutOfMemory,
    /// `DXT_E_RNG_FAILURE`: The random generator failed; nothing was released.
    RngFailure,
    /// `DXT_E_INVALID_UTF8`: The input is not valid UTF-8.
    InvalidUtf8,
    /// `DXT_E_NOT_FOUND`: A word or index is not in the vocabulary, or there is no default
    /// model.
    NotFound,
    /// `DXT_E_UNSUPPORTED`: The mechanism, geometry or option is not supported here.
    Unsupported,
    /// `DXT_E_INPUT_TOO_LARGE`: A count or size exceeds a documented limit, or a buffer is
    /// too small.
    InputTooLarge,
    /// `DXT_E_PARSE`: Malformed input to a converter.
    Parse,
    /// `DXT_E_INTERNAL`: A bug in dxtext; please report it.
    Internal,
    /// `DXT_E_CONTEXT_BUSY`: Another thread is inside a call on the same context; nothing
    /// was done. A context is for one thread at a time: give each thread its own.
    ContextBusy,
    /// `DXT_E_BUDGET_EXCEEDED`: A ledger refused the release: it would pass the scope's
    /// cap. Nothing was drawn, released or spent (see "Privacy ledger").
    BudgetExceeded,
    /// `DXT_E_LEDGER_CORRUPT`: A ledger file fails its MAC or its format checks (damaged,
    /// truncated, edited, or opened with another app key); it is left as it is, never
    /// reset.
    LedgerCorrupt,
    /// `DXT_E_LEDGER_ROLLBACK`: A ledger is older than the anchor the app kept for it (an
    /// earlier copy of its file was put back, or the file was deleted or replaced): the
    /// call is refused, nothing is drawn or released (see "Rollback").
    LedgerRollback,
    /// A status this crate does not know (a newer library).
    Other(i32),
}

impl ErrorKind {
    pub(crate) fn from_status(status: sys::dxt_status) -> ErrorKind {
        match status {
            sys::DXT_E_INVALID_ARGUMENT => ErrorKind::InvalidArgument,
            sys::DXT_E_INVALID_EPSILON => ErrorKind::InvalidEpsilon,
            sys::DXT_E_IO => ErrorKind::Io,
            sys::DXT_E_NOT_A_MODEL => ErrorKind::NotAModel,
            sys::DXT_E_UNSUPPORTED_VERSION => ErrorKind::UnsupportedVersion,
            sys::DXT_E_CORRUPT_MODEL => ErrorKind::CorruptModel,
            sys::DXT_E_TRUNCATED_MODEL => ErrorKind::TruncatedModel,
            sys::DXT_E_DIGEST_MISMATCH => ErrorKind::DigestMismatch,
            sys::DXT_E_OUT_OF_MEMORY => ErrorKind::OutOfMemory,
            sys::DXT_E_RNG_FAILURE => ErrorKind::RngFailure,
            sys::DXT_E_INVALID_UTF8 => ErrorKind::InvalidUtf8,
            sys::DXT_E_NOT_FOUND => ErrorKind::NotFound,
            sys::DXT_E_UNSUPPORTED => ErrorKind::Unsupported,
            sys::DXT_E_INPUT_TOO_LARGE => ErrorKind::InputTooLarge,
            sys::DXT_E_PARSE => ErrorKind::Parse,
            sys::DXT_E_INTERNAL => ErrorKind::Internal,
            sys::DXT_E_CONTEXT_BUSY => ErrorKind::ContextBusy,
            sys::DXT_E_BUDGET_EXCEEDED => ErrorKind::BudgetExceeded,
            sys::DXT_E_LEDGER_CORRUPT => ErrorKind::LedgerCorrupt,
            sys::DXT_E_LEDGER_ROLLBACK => ErrorKind::LedgerRollback,
            other => ErrorKind::Other(other),
        }
    }

    /// True for the kinds that say a model file or buffer is unusable.
    pub fn is_model_error(self) -> bool {
        matches!(
            self,
            ErrorKind::NotAModel
                | ErrorKind::UnsupportedVersion
                | ErrorKind::CorruptModel
                | ErrorKind::TruncatedModel
                | ErrorKind::DigestMismatch
        )
    }
}
// generated: end statuses

/// A failed dxtext call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    status: i32,
    message: String,
}

impl Error {
    /// The error of a non-OK `status`, with the calling thread's last message.
    pub(crate) fn from_status(status: sys::dxt_status) -> Error {
        // SAFETY: a thread-local NUL-terminated string, copied before any
        // other dxtext call. After a failure it is the whole message, never
        // empty (nothing to add from dxt_status_string).
        let message = unsafe { CStr::from_ptr(sys::dxt_last_error_message()) }.to_string_lossy().into_owned();
        Error { kind: ErrorKind::from_status(status), status, message }
    }

    /// An error raised on the Rust side, before any C call.
    pub(crate) fn invalid_argument(message: impl Into<String>) -> Error {
        Error { kind: ErrorKind::InvalidArgument, status: sys::DXT_E_INVALID_ARGUMENT, message: message.into() }
    }

    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The numeric `dxt_status`.
    pub fn status(&self) -> i32 {
        self.status
    }

    /// The library's message, as it is (`dxt_last_error_message`), e.g.
    /// "not a dxtext model: bad magic bytes (in '...')".
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// `Result` with this crate's `Error`.
pub type Result<T> = std::result::Result<T, Error>;

pub(crate) fn check(status: sys::dxt_status) -> Result<()> {
    if status == sys::DXT_OK {
        Ok(())
    } else {
        Err(Error::from_status(status))
    }
}
