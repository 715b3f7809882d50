//! Raw declarations of the dxtext C ABI, written by hand from
//! `include/dxtext/dxtext.h` (the test `tests/header.rs` checks every
//! function signature, constant and struct layout here against the header
//! and a C compiler). Everything is `unsafe`; the `dxtext` crate is the safe
//! interface.
//!
//! The header's `dxt_*_init()` functions are `static inline` there and plain
//! Rust functions here: both pass the size of the struct as declared on the
//! caller's side to the exported `dxt_*_init_sized()`.
#![allow(non_camel_case_types)]
use std::mem::size_of;
pub use std::os::raw::{c_char, c_void};

// Versions ---------------------------------------------------------------

pub const DXT_VERSION_MAJOR: u32 = 0;
pub const DXT_VERSION_MINOR: u32 = 1;
pub const DXT_VERSION_PATCH: u32 = 0;
pub const DXT_VERSION_NUMBER: u32 = DXT_VERSION_MAJOR * 10000 + DXT_VERSION_MINOR * 100 + DXT_VERSION_PATCH;
pub const DXT_ABI_VERSION: u32 = 0;
pub const DXT_FORMAT_VERSION_MAJOR: u32 = 1;
pub const DXT_FORMAT_VERSION_MINOR: u32 = 2;

// Status codes -------------------------------------------------------------

pub type dxt_status = i32;
pub const DXT_OK: dxt_status = 0;
pub const DXT_E_INVALID_ARGUMENT: dxt_status = 1;
pub const DXT_E_INVALID_EPSILON: dxt_status = 2;
pub const DXT_E_IO: dxt_status = 3;
pub const DXT_E_NOT_A_MODEL: dxt_status = 4;
pub const DXT_E_UNSUPPORTED_VERSION: dxt_status = 5;
pub const DXT_E_CORRUPT_MODEL: dxt_status = 6;
pub const DXT_E_TRUNCATED_MODEL: dxt_status = 7;
pub const DXT_E_DIGEST_MISMATCH: dxt_status = 8;
pub const DXT_E_OUT_OF_MEMORY: dxt_status = 9;
pub const DXT_E_RNG_FAILURE: dxt_status = 10;
pub const DXT_E_INVALID_UTF8: dxt_status = 11;
pub const DXT_E_NOT_FOUND: dxt_status = 12;
pub const DXT_E_UNSUPPORTED: dxt_status = 13;
pub const DXT_E_INPUT_TOO_LARGE: dxt_status = 14;
pub const DXT_E_PARSE: dxt_status = 15;
pub const DXT_E_INTERNAL: dxt_status = 16;

// Enumerations (stored in uint32_t fields) ---------------------------------

pub const DXT_GEOMETRY_UNKNOWN: u32 = 0;
pub const DXT_GEOMETRY_EUCLIDEAN: u32 = 1;
pub const DXT_GEOMETRY_POINCARE: u32 = 2;

pub const DXT_QUANT_UNKNOWN: u32 = 0;
pub const DXT_QUANT_F32: u32 = 1;
pub const DXT_QUANT_F16: u32 = 2;
pub const DXT_QUANT_INT8: u32 = 3;

pub const DXT_MECHANISM_UNKNOWN: u32 = 0;
pub const DXT_MECHANISM_LAPLACE: u32 = 1;
pub const DXT_MECHANISM_HYPERBOLIC: u32 = 2;
pub const DXT_MECHANISM_EXPONENTIAL: u32 = 3;
pub const DXT_MECHANISM_SYNTF: u32 = 4;
pub const DXT_MECHANISM_MAHALANOBIS: u32 = 5;
pub const DXT_MECHANISM_VICKREY: u32 = 6;
pub const DXT_MECHANISM_TEM: u32 = 7;

pub const DXT_METRIC_UNKNOWN: u32 = 0;
pub const DXT_METRIC_EUCLIDEAN: u32 = 1;
pub const DXT_METRIC_HYPERBOLIC: u32 = 2;
pub const DXT_METRIC_MAHALANOBIS: u32 = 3;
pub const DXT_METRIC_DISCRETE: u32 = 4;

pub const DXT_SAMPLER_DEFAULT: u32 = 0;
pub const DXT_SAMPLER_GUMBEL: u32 = 1;
pub const DXT_SAMPLER_PERMUTE_AND_FLIP: u32 = 2;

pub const DXT_SEARCH_EXACT: u32 = 0;
pub const DXT_SEARCH_IVF: u32 = 1;

pub const DXT_RNG_UNKNOWN: u32 = 0;
pub const DXT_RNG_SYSTEM: u32 = 1;
pub const DXT_RNG_DETERMINISTIC: u32 = 2;

pub const DXT_POLICY_DEFAULT: u32 = 0;
pub const DXT_POLICY_PRIVATIZE: u32 = 1;
pub const DXT_POLICY_PLACEHOLDER: u32 = 2;
pub const DXT_POLICY_DROP: u32 = 3;
pub const DXT_POLICY_KEEP: u32 = 4;

pub const DXT_CLASS_IN_VOCABULARY: u32 = 0;
pub const DXT_CLASS_OUT_OF_VOCABULARY: u32 = 1;
pub const DXT_CLASS_NUMBER: u32 = 2;
pub const DXT_CLASS_STOPWORD: u32 = 3;
pub const DXT_TOKEN_CLASS_COUNT: usize = 4;
pub const DXT_TOKEN_ACTION_COUNT: usize = 4;

pub const DXT_OPEN_VERIFY_DIGESTS: u32 = 0x1;
pub const DXT_MAX_BAG_WORDS: u64 = 1 << 24;

// Handles and structs ------------------------------------------------------

/// Opaque model handle.
#[repr(C)]
pub struct dxt_model {
    _private: [u8; 0],
}

/// Opaque context handle.
#[repr(C)]
pub struct dxt_context {
    _private: [u8; 0],
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxt_model_open_options {
    pub struct_size: u32,
    pub flags: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxt_model_info {
    pub struct_size: u32,
    pub format_major: u32,
    pub format_minor: u32,
    pub dimension: u32,
    pub vocabulary_size: u32,
    pub geometry: u32,
    pub quantization: u32,
    pub lowercase: bool,
    pub has_frequencies: bool,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxt_context_options {
    pub struct_size: u32,
    pub rng_mode: u32,
    pub seed: [u8; 32],
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxt_privatize_options {
    pub struct_size: u32,
    pub mechanism: u32,
    pub epsilon: f64,
    pub policy: [u32; DXT_TOKEN_CLASS_COUNT],
    pub placeholder: *const c_char,
    pub tem_gamma: f64,
    pub tem_beta: f64,
    pub vickrey_t: f64,
    pub mahalanobis_lambda: f64,
    pub syntf_s: f64,
    pub exponential_sampler: u32,
    pub search: u32,
    pub ivf_nprobe: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxt_report {
    pub struct_size: u32,
    pub mechanism: u32,
    pub epsilon: f64,
    pub metric: u32,
    pub rng_mode: u32,
    pub is_private: bool,
    pub fingerprint_valid: bool,
    pub model_fingerprint: [u8; 32],
    pub counts: [[u64; DXT_TOKEN_ACTION_COUNT]; DXT_TOKEN_CLASS_COUNT],
    pub words_privatized: u64,
    pub words_leaked: u64,
    pub epsilon_per_unit_distance: f64,
    pub epsilon_document: f64,
    pub epsilon_document_vocabulary: f64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxt_bag_entry {
    pub word: *const c_char,
    pub length: usize,
    pub count: u64,
}

#[repr(C)]
#[derive(Debug)]
pub struct dxt_bag {
    pub entries: *mut dxt_bag_entry,
    pub size: usize,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxt_calibration {
    pub struct_size: u32,
    pub words: u32,
    pub trials: u32,
    pub keep_mean: f64,
    pub keep_median: f64,
    pub keep_max: f64,
    pub distinct_mean: f64,
    pub distinct_median: f64,
    pub distinct_max: f64,
}

// Functions ------------------------------------------------------------------

extern "C" {
    pub fn dxt_version_number() -> u32;
    pub fn dxt_version_string() -> *const c_char;
    pub fn dxt_abi_version() -> u32;
    pub fn dxt_format_version() -> u32;

    pub fn dxt_status_string(status: dxt_status) -> *const c_char;
    pub fn dxt_last_error_message() -> *const c_char;

    pub fn dxt_model_open_options_init_sized(options: *mut dxt_model_open_options, struct_size: usize);
    pub fn dxt_model_open_file(
        path: *const c_char,
        options: *const dxt_model_open_options,
        out: *mut *mut dxt_model,
    ) -> dxt_status;
    pub fn dxt_model_open_memory(
        data: *const c_void,
        size: usize,
        options: *const dxt_model_open_options,
        out: *mut *mut dxt_model,
    ) -> dxt_status;
    pub fn dxt_model_close(model: *mut dxt_model);
    pub fn dxt_default_model_path(
        geometry: u32,
        buffer: *mut c_char,
        capacity: usize,
        required: *mut usize,
    ) -> dxt_status;
    pub fn dxt_model_info_init_sized(info: *mut dxt_model_info, struct_size: usize);
    pub fn dxt_model_get_info(model: *const dxt_model, info: *mut dxt_model_info) -> dxt_status;
    pub fn dxt_model_fingerprint(model: *const dxt_model, out: *mut u8) -> dxt_status;
    pub fn dxt_model_lookup(model: *const dxt_model, word: *const c_char, length: usize, index: *mut u32)
        -> dxt_status;
    pub fn dxt_model_word(
        model: *const dxt_model,
        index: u32,
        word: *mut *const c_char,
        length: *mut usize,
    ) -> dxt_status;
    pub fn dxt_model_nearest(model: *const dxt_model, vector: *const f32, dimension: usize, index: *mut u32)
        -> dxt_status;

    pub fn dxt_context_options_init_sized(options: *mut dxt_context_options, struct_size: usize);
    pub fn dxt_context_create(
        model: *mut dxt_model,
        options: *const dxt_context_options,
        out: *mut *mut dxt_context,
    ) -> dxt_status;
    pub fn dxt_context_destroy(context: *mut dxt_context);

    pub fn dxt_privatize_options_init_sized(options: *mut dxt_privatize_options, struct_size: usize);
    pub fn dxt_report_init_sized(report: *mut dxt_report, struct_size: usize);
    pub fn dxt_report_to_json(
        report: *const dxt_report,
        buffer: *mut c_char,
        capacity: usize,
        required: *mut usize,
    ) -> dxt_status;
    pub fn dxt_privatize_index(
        context: *mut dxt_context,
        options: *const dxt_privatize_options,
        index: u32,
        out_index: *mut u32,
        report: *mut dxt_report,
    ) -> dxt_status;
    pub fn dxt_privatize_word(
        context: *mut dxt_context,
        options: *const dxt_privatize_options,
        word: *const c_char,
        length: usize,
        out: *mut *mut c_char,
        out_length: *mut usize,
        report: *mut dxt_report,
    ) -> dxt_status;
    pub fn dxt_privatize_text(
        context: *mut dxt_context,
        options: *const dxt_privatize_options,
        text: *const c_char,
        length: usize,
        out: *mut *mut c_char,
        out_length: *mut usize,
        report: *mut dxt_report,
    ) -> dxt_status;
    pub fn dxt_text_free(text: *mut c_char);
    pub fn dxt_privatize_bag(
        context: *mut dxt_context,
        options: *const dxt_privatize_options,
        entries: *const dxt_bag_entry,
        entry_count: usize,
        out: *mut *mut dxt_bag,
        report: *mut dxt_report,
    ) -> dxt_status;
    pub fn dxt_bag_free(bag: *mut dxt_bag);
    pub fn dxt_syntf(
        context: *mut dxt_context,
        options: *const dxt_privatize_options,
        entries: *const dxt_bag_entry,
        entry_count: usize,
        n_out: u32,
        out: *mut *mut dxt_bag,
        report: *mut dxt_report,
    ) -> dxt_status;
    pub fn dxt_calibration_init_sized(calibration: *mut dxt_calibration, struct_size: usize);
    pub fn dxt_calibrate(
        context: *mut dxt_context,
        options: *const dxt_privatize_options,
        words: u32,
        trials: u32,
        out: *mut dxt_calibration,
    ) -> dxt_status;
}

// The header's static inline initialisers ------------------------------------

/// # Safety
/// `options` is NULL or points to a writable `dxt_model_open_options`.
#[inline]
pub unsafe fn dxt_model_open_options_init(options: *mut dxt_model_open_options) {
    dxt_model_open_options_init_sized(options, size_of::<dxt_model_open_options>())
}

/// # Safety
/// `info` is NULL or points to a writable `dxt_model_info`.
#[inline]
pub unsafe fn dxt_model_info_init(info: *mut dxt_model_info) {
    dxt_model_info_init_sized(info, size_of::<dxt_model_info>())
}

/// # Safety
/// `options` is NULL or points to a writable `dxt_context_options`.
#[inline]
pub unsafe fn dxt_context_options_init(options: *mut dxt_context_options) {
    dxt_context_options_init_sized(options, size_of::<dxt_context_options>())
}

/// # Safety
/// `options` is NULL or points to a writable `dxt_privatize_options`.
#[inline]
pub unsafe fn dxt_privatize_options_init(options: *mut dxt_privatize_options) {
    dxt_privatize_options_init_sized(options, size_of::<dxt_privatize_options>())
}

/// # Safety
/// `report` is NULL or points to a writable `dxt_report`.
#[inline]
pub unsafe fn dxt_report_init(report: *mut dxt_report) {
    dxt_report_init_sized(report, size_of::<dxt_report>())
}

/// # Safety
/// `calibration` is NULL or points to a writable `dxt_calibration`.
#[inline]
pub unsafe fn dxt_calibration_init(calibration: *mut dxt_calibration) {
    dxt_calibration_init_sized(calibration, size_of::<dxt_calibration>())
}
