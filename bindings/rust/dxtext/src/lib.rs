//! dxtext: sanitise text on the device under metric differential privacy.
//!
//! Each word's embedding gets noise from a cryptographic generator and is
//! decoded to the nearest vocabulary word of a memory-mapped `.dxe` model.
//! This crate is a safe layer over the C ABI (`dxtext-sys`):
//!
//! - [`Model`]: an opened model; cheap to clone, `Send + Sync`, share it.
//! - [`Context`]: random state; one per thread (`Send`, calls take `&mut`).
//! - [`Options`]: epsilon, mechanism, token policies.
//! - [`Report`]: what a call did and the guarantee it gave.
//! - [`Error`] with an [`ErrorKind`] per status of the C API.
//!
//! ```no_run
//! use dxtext::{Context, Geometry, Model, Options};
//!
//! let model = Model::open_default(Geometry::Euclidean)?;
//! let mut context = Context::new(&model)?;
//! let (text, report) = context.privatize_text_report("The quick brown fox", &Options::new(20.0))?;
//! println!("{} ({} words privatised)", text, report.words_privatized());
//! # Ok::<(), dxtext::Error>(())
//! ```

mod context;
mod error;
mod model;
mod options;
mod report;

pub use context::Context;
pub use error::{Error, ErrorKind, Result};
pub use model::{default_model_path, Geometry, Model, ModelInfo};
pub use options::{Mechanism, Options, Policy, TokenClass};
pub use report::{Calibration, Metric, Report};

/// "major.minor.patch" of the libdxtext actually loaded.
pub fn library_version() -> String {
    // SAFETY: a static NUL-terminated string.
    unsafe { std::ffi::CStr::from_ptr(dxtext_sys::dxt_version_string()) }.to_string_lossy().into_owned()
}
