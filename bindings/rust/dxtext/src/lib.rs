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

mod context;
mod error;
mod ledger;
mod model;
mod options;
mod report;

pub use context::Context;
pub use error::{Error, ErrorKind, Result};
pub use ledger::{Ledger, LedgerAnchor, LedgerOptions, LedgerRelease, LedgerTotals};
pub use model::{default_model_path, Geometry, Model, ModelInfo};
pub use options::{Mechanism, Options, OutputSet, Policy, Preset, ReleaseShape, Sampler, Search, TokenClass};
pub use report::{Bound, Calibration, LocalDiagnostics, Metric, OutputKind, ReleaseKind, ReleaseRecord, RngMode};

/// The smallest epsilon every call accepts (`DXT_EPSILON_MIN`); below it the
/// arithmetic of the mechanisms is not guaranteed to stay finite.
pub const EPSILON_MIN: f64 = dxtext_sys::DXT_EPSILON_MIN;
/// The largest epsilon every call accepts (`DXT_EPSILON_MAX`).
pub const EPSILON_MAX: f64 = dxtext_sys::DXT_EPSILON_MAX;

/// "major.minor.patch" of the libdxtext actually loaded.
pub fn library_version() -> String {
    // SAFETY: a static NUL-terminated string.
    unsafe { std::ffi::CStr::from_ptr(dxtext_sys::dxt_version_string()) }.to_string_lossy().into_owned()
}
