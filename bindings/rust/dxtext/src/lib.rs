// SPDX-License-Identifier: Apache-2.0
//! dxtext: sanitise text on the device under metric differential privacy.
//!
//! Each word's embedding gets noise from a cryptographic generator and is
//! decoded to the nearest vocabulary word of a memory-mapped `.dxe` model.
//! This crate is a safe layer over the C ABI (`dxtext-sys`):
//!
//! - [`Model`]: an opened model; cheap to clone, `Send + Sync`, share it.
//! - [`Context`]: random state; one per thread (`Send`, calls take `&mut`).
//! - [`Options`]: epsilon, mechanism, token policies.
//! - [`ReleaseRecord`]: what a call released and the guarantee it carries;
//!   safe to send with the output.
//! - [`LocalDiagnostics`]: token counts of the input; they describe the
//!   input, so keep them on the device.
//! - [`Ledger`]: a privacy budget per user in a file the app owns:
//!   refuses releases past a cap, memoises repeats (docs/budgets.md).
//! - [`Error`] with an [`ErrorKind`] per status of the C API.
//!
//! ```no_run
//! use dxtext::{Context, Geometry, Model, Options};
//!
//! let model = Model::open_default(Geometry::Euclidean)?;
//! let mut context = Context::new(&model)?;
//! let (text, record) = context.privatize_text_record("The quick brown fox", &Options::new(20.0), None)?;
//! println!("{} {}", text, record.to_json()?);
//! # Ok::<(), dxtext::Error>(())
//! ```

use std::ffi::{CStr, CString};
use std::mem::MaybeUninit;
use std::os::raw::c_char;

use dxtext_sys as sys;

use crate::error::check;

mod context;
mod error;
mod ledger;
mod model;
mod options;
mod report;

pub use context::Context;
pub use error::{Error, ErrorKind, Result};
pub use ledger::{Ledger, LedgerAnchor, LedgerOptions, LedgerRelease, LedgerTotals};
pub use model::{default_model_path, Geometry, Model, ModelInfo, Quantization};
pub use options::{Mechanism, Options, OutputSet, Policy, Preset, ReleaseShape, Sampler, Search, TokenClass};
pub use report::{Bound, Calibration, LocalDiagnostics, Metric, OutputKind, ReleaseKind, ReleaseRecord, RngMode};

/// The smallest epsilon every call accepts (`DXT_EPSILON_MIN`); below it the
/// arithmetic of the mechanisms is not guaranteed to stay finite.
pub const EPSILON_MIN: f64 = sys::DXT_EPSILON_MIN;
/// The largest epsilon every call accepts (`DXT_EPSILON_MAX`).
pub const EPSILON_MAX: f64 = sys::DXT_EPSILON_MAX;

/// "major.minor.patch" of the libdxtext actually loaded.
pub fn library_version() -> String {
    // SAFETY: a static NUL-terminated string.
    unsafe { CStr::from_ptr(sys::dxt_version_string()) }.to_string_lossy().into_owned()
}

/// A struct of the C API as its `dxt_*_init` (from dxtext_sys, which `init`
/// must be) fills it: its defaults and its `struct_size`.
pub(crate) fn initialised<T>(init: unsafe fn(*mut T)) -> T {
    let mut raw = MaybeUninit::<T>::uninit();
    // SAFETY: a dxt_*_init writes the whole struct.
    unsafe {
        init(raw.as_mut_ptr());
        raw.assume_init()
    }
}

/// Text the library returned, which it promises to be UTF-8.
pub(crate) fn string(bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes).map_err(|_| Error::invalid_argument("dxtext returned text that is not UTF-8"))
}

/// `text` as a C string; a NUL byte in it is refused (`what` names it).
pub(crate) fn c_string(text: impl Into<Vec<u8>>, what: &str) -> Result<CString> {
    CString::new(text).map_err(|_| Error::invalid_argument(format!("{} contains a NUL byte", what)))
}

/// The words as C strings, and the array of pointers to them that a call
/// takes (valid while the strings are).
pub(crate) fn c_strings<S: AsRef<str>>(words: &[S]) -> Result<(Vec<CString>, Vec<*const c_char>)> {
    let words = words.iter().map(|w| c_string(w.as_ref(), "a word")).collect::<Result<Vec<_>>>()?;
    let pointers = words.iter().map(|w| w.as_ptr()).collect();
    Ok((words, pointers))
}

/// What `write(buffer, capacity, required)` writes into a buffer, without
/// its NUL: a call that gives `DXT_E_INPUT_TOO_LARGE`, and in `required` the
/// bytes it needs, when the buffer is too small.
pub(crate) fn written(mut write: impl FnMut(*mut c_char, usize, &mut usize) -> sys::dxt_status) -> Result<Vec<u8>> {
    let mut buffer = vec![0u8; 1024];
    loop {
        let mut required = 0;
        let status = write(buffer.as_mut_ptr() as *mut c_char, buffer.len(), &mut required);
        if status != sys::DXT_E_INPUT_TOO_LARGE || required <= buffer.len() {
            check(status)?;
            buffer.truncate(required.saturating_sub(1));
            return Ok(buffer);
        }
        buffer.resize(required, 0);
    }
}
