// SPDX-License-Identifier: Apache-2.0
//! Raw declarations of the dxtext C ABI: `src/ffi.rs`, generated from
//! `include/dxtext/dxtext.h` by bindgen (`bindgen.sh`; CI regenerates it and
//! fails when it is stale), and re-exported here. Everything is `unsafe`;
//! the `dxtext` crate is the safe interface.
//!
//! Written here by hand, as bindgen cannot: the status codes typed as
//! `dxt_status` (the header's anonymous enum has an unsigned type), and the
//! header's `static inline` `dxt_*_init()` functions, which pass the size of
//! the struct as declared on the caller's side to `dxt_*_init_sized()`.
#![allow(non_camel_case_types, non_upper_case_globals)]

// The default Euclidean model compiled in (feature `bundled-model`; see build.rs).
#[cfg(feature = "bundled-model")]
include!(concat!(env!("OUT_DIR"), "/bundled_model.rs"));
/// The default Euclidean model compiled in: `None` without the
/// `bundled-model` feature.
#[cfg(not(feature = "bundled-model"))]
pub static BUNDLED_MODEL: Option<&[u8]> = None;
pub use std::os::raw::{c_char, c_void};

mod ffi;
pub use ffi::*;

// The status codes, as dxt_status (int32_t) like the calls' results; these
// shadow ffi's constants of the same names and values.
macro_rules! statuses {
    ($($name:ident),* $(,)?) => {$(
        pub const $name: dxt_status = ffi::$name as dxt_status;
    )*};
}
statuses!(
    DXT_OK, DXT_E_INVALID_ARGUMENT, DXT_E_INVALID_EPSILON, DXT_E_IO, DXT_E_NOT_A_MODEL, DXT_E_UNSUPPORTED_VERSION,
    DXT_E_CORRUPT_MODEL, DXT_E_TRUNCATED_MODEL, DXT_E_DIGEST_MISMATCH, DXT_E_OUT_OF_MEMORY, DXT_E_RNG_FAILURE,
    DXT_E_INVALID_UTF8, DXT_E_NOT_FOUND, DXT_E_UNSUPPORTED, DXT_E_INPUT_TOO_LARGE, DXT_E_PARSE, DXT_E_INTERNAL,
    DXT_E_CONTEXT_BUSY, DXT_E_BUDGET_EXCEEDED, DXT_E_LEDGER_CORRUPT, DXT_E_LEDGER_ROLLBACK,
);

/// The most words of a bag (the header's `((uint64_t)1 << 24)`, a macro
/// bindgen cannot evaluate; tests/header.rs checks it against a C compiler).
pub const DXT_MAX_BAG_WORDS: u64 = 1 << 24;

// The header's static inline initialisers.
macro_rules! initialisers {
    ($($name:ident => $sized:ident($t:ty)),* $(,)?) => {$(
        /// # Safety
        /// The pointer is NULL or points to a writable struct of its type.
        #[inline]
        pub unsafe fn $name(p: *mut $t) {
            $sized(p, std::mem::size_of::<$t>())
        }
    )*};
}
initialisers!(
    dxt_model_open_options_init => dxt_model_open_options_init_sized(dxt_model_open_options),
    dxt_model_info_init => dxt_model_info_init_sized(dxt_model_info),
    dxt_context_options_init => dxt_context_options_init_sized(dxt_context_options),
    dxt_privatize_options_init => dxt_privatize_options_init_sized(dxt_privatize_options),
    dxt_release_record_init => dxt_release_record_init_sized(dxt_release_record),
    dxt_local_diagnostics_init => dxt_local_diagnostics_init_sized(dxt_local_diagnostics),
    dxt_calibration_init => dxt_calibration_init_sized(dxt_calibration),
    dxt_ledger_options_init => dxt_ledger_options_init_sized(dxt_ledger_options),
    dxt_ledger_totals_init => dxt_ledger_totals_init_sized(dxt_ledger_totals),
    dxt_ledger_anchor_init => dxt_ledger_anchor_init_sized(dxt_ledger_anchor),
);
