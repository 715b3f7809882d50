// SPDX-License-Identifier: Apache-2.0
//! `Error`: a failed call's status, as an `ErrorKind`, and its message.

use std::ffi::CStr;
use std::fmt;

use dxtext_sys as sys;

/// What went wrong: one variant per `dxt_status` of the C API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A bad argument or option (`DXT_E_INVALID_ARGUMENT`).
    InvalidArgument,
    /// Epsilon not finite, not positive, or below a mechanism's bound.
    InvalidEpsilon,
    /// A file could not be opened, read or written.
    Io,
    /// The bytes are not a `.dxe` model (bad magic).
    NotAModel,
    /// The model's major format version is unknown to this library.
    UnsupportedVersion,
    /// A field of the model fails validation.
    CorruptModel,
    /// The model is shorter than its header says.
    TruncatedModel,
    /// A stored SHA-256 digest does not match.
    DigestMismatch,
    OutOfMemory,
    /// The random generator failed; nothing was released.
    RngFailure,
    InvalidUtf8,
    /// A word or index is not in the vocabulary, or no default model exists.
    NotFound,
    /// The mechanism, geometry or option is not supported.
    Unsupported,
    /// A count or size exceeds a documented limit.
    InputTooLarge,
    Parse,
    /// A bug in dxtext.
    Internal,
    /// Another thread is inside a call on the same context; nothing was done.
    ContextBusy,
    /// A ledger refused the release: it would pass the scope's cap. Nothing
    /// was drawn, released or spent.
    BudgetExceeded,
    /// The ledger file fails its MAC or format checks (damaged, edited, or
    /// another app key); it is left as it is.
    LedgerCorrupt,
    /// The ledger file is older than the anchor the app kept for it (an
    /// earlier copy was put back, or the file was deleted or replaced);
    /// nothing was drawn or released. See `LedgerAnchor`.
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
        // SAFETY: both return static or thread-local NUL-terminated strings,
        // copied before any other dxtext call.
        let (name, detail) = unsafe {
            (
                CStr::from_ptr(sys::dxt_status_string(status)).to_string_lossy().into_owned(),
                CStr::from_ptr(sys::dxt_last_error_message()).to_string_lossy().into_owned(),
            )
        };
        // The library's message is the whole message (dxt_last_error_message):
        // prefixing the status's text would say it twice.
        let message = if detail.is_empty() { name } else { detail };
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
