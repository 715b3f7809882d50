// SPDX-License-Identifier: Apache-2.0
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

// The default Euclidean model compiled in (feature `bundled-model`; see build.rs).
#[cfg(feature = "bundled-model")]
include!(concat!(env!("OUT_DIR"), "/bundled_model.rs"));
/// The default Euclidean model compiled in: `None` without the
/// `bundled-model` feature.
#[cfg(not(feature = "bundled-model"))]
pub static BUNDLED_MODEL: Option<&[u8]> = None;
pub use std::os::raw::{c_char, c_void};

// Versions ---------------------------------------------------------------

pub const DXT_VERSION_MAJOR: u32 = 0;
pub const DXT_VERSION_MINOR: u32 = 1;
pub const DXT_VERSION_PATCH: u32 = 0;
pub const DXT_VERSION_NUMBER: u32 = DXT_VERSION_MAJOR * 10000 + DXT_VERSION_MINOR * 100 + DXT_VERSION_PATCH;
pub const DXT_ABI_VERSION: u32 = 0;
pub const DXT_FORMAT_VERSION_MAJOR: u32 = 1;
pub const DXT_FORMAT_VERSION_MINOR: u32 = 4;

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
pub const DXT_E_CONTEXT_BUSY: dxt_status = 17;
pub const DXT_E_BUDGET_EXCEEDED: dxt_status = 18;
pub const DXT_E_LEDGER_CORRUPT: dxt_status = 19;
pub const DXT_E_LEDGER_ROLLBACK: dxt_status = 20;

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
pub const DXT_MECHANISM_ORDERING: u32 = 8;

pub const DXT_METRIC_UNKNOWN: u32 = 0;
pub const DXT_METRIC_EUCLIDEAN: u32 = 1;
pub const DXT_METRIC_HYPERBOLIC: u32 = 2;
pub const DXT_METRIC_MAHALANOBIS: u32 = 3;
pub const DXT_METRIC_DISCRETE: u32 = 4;
pub const DXT_METRIC_ORDERING: u32 = 5;

pub const DXT_SAMPLER_DEFAULT: u32 = 0;
pub const DXT_SAMPLER_GUMBEL: u32 = 1;
pub const DXT_SAMPLER_PERMUTE_AND_FLIP: u32 = 2;

pub const DXT_SEARCH_EXACT: u32 = 0;
pub const DXT_SEARCH_IVF: u32 = 1;

pub const DXT_SHAPE_DEFAULT: u32 = 0;
pub const DXT_SHAPE_KEEP: u32 = 1;
pub const DXT_SHAPE_NORMALIZE: u32 = 2;
pub const DXT_SHAPE_STRICT: u32 = 3;

pub const DXT_PRESET_NONE: u32 = 0;
pub const DXT_PRESET_READABLE: u32 = 1;
pub const DXT_PRESET_FEATURES: u32 = 2;
pub const DXT_PRESET_STRONGEST: u32 = 3;

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
pub const DXT_TYPED_FAMILY_COUNT: usize = 6;

// Typed classes (dxt_typed_class, dxt_typed_family, dxt_typed_policy, dxt_number_shape).
pub const DXT_TYPED_NONE: u32 = 0;
pub const DXT_TYPED_FIRST_NAME: u32 = 1;
pub const DXT_TYPED_SURNAME: u32 = 2;
pub const DXT_TYPED_CITY: u32 = 3;
pub const DXT_TYPED_REGION: u32 = 4;
pub const DXT_TYPED_COUNTRY: u32 = 5;
pub const DXT_TYPED_ORGANIZATION: u32 = 6;
pub const DXT_TYPED_CONDITION: u32 = 7;
pub const DXT_TYPED_DRUG: u32 = 8;
pub const DXT_TYPED_NUMBER: u32 = 9;
pub const DXT_TYPED_PHONE: u32 = 10;
pub const DXT_TYPED_EMAIL: u32 = 11;
pub const DXT_TYPED_URL: u32 = 12;
pub const DXT_TYPED_HANDLE: u32 = 13;
pub const DXT_TYPED_STREET: u32 = 14;
pub const DXT_TYPED_MONTH: u32 = 15;
pub const DXT_TYPED_CLASS_COUNT: usize = 16;
pub const DXT_FAMILY_NAMES: u32 = 0;
pub const DXT_FAMILY_PLACES: u32 = 1;
pub const DXT_FAMILY_ORGANIZATIONS: u32 = 2;
pub const DXT_FAMILY_NUMBERS: u32 = 3;
pub const DXT_FAMILY_ADDRESSES: u32 = 4;
pub const DXT_FAMILY_HEALTH: u32 = 5;
pub const DXT_TYPED_DEFAULT: u32 = 0;
pub const DXT_TYPED_PRIVATIZE: u32 = 1;
pub const DXT_TYPED_PLACEHOLDER: u32 = 2;
pub const DXT_TYPED_REPLACE: u32 = 3;
pub const DXT_TYPED_KEEP: u32 = 4;
pub const DXT_TYPED_DROP: u32 = 5;
pub const DXT_NUMBER_SHAPE_HIDE: u32 = 0;
pub const DXT_NUMBER_SHAPE_KEEP: u32 = 1;
pub const DXT_NEGATIONS_DEFAULT: u32 = 0;
pub const DXT_NEGATIONS_PRIVATIZE: u32 = 1;
pub const DXT_NEGATIONS_KEEP: u32 = 2;
pub const DXT_TYPED_FLAG_CONSISTENT: u32 = 1;
pub const DXT_TYPED_FLAG_NUMBER_SHAPE: u32 = 2;
pub const DXT_REVEALS_TYPED_CLASSES: u32 = 128;
pub const DXT_TOKEN_ACTION_COUNT: usize = 4;

pub const DXT_OPEN_VERIFY_DIGESTS: u32 = 0x1;
pub const DXT_OPEN_PRIVATE_COPY: u32 = 0x2;
pub const DXT_MAX_BAG_WORDS: u64 = 1 << 24;

pub const DXT_EPSILON_MIN: f64 = 1e-6;
pub const DXT_EPSILON_MAX: f64 = 1e6;

pub const DXT_RELEASE_UNKNOWN: u32 = 0;
pub const DXT_RELEASE_WORD: u32 = 1;
pub const DXT_RELEASE_TEXT: u32 = 2;
pub const DXT_RELEASE_BAG: u32 = 3;
pub const DXT_RELEASE_SYNTHETIC_BAG: u32 = 4;

pub const DXT_BOUND_UNKNOWN: u32 = 0;
pub const DXT_BOUND_WORD: u32 = 1;
pub const DXT_BOUND_POSITIONWISE: u32 = 2;
pub const DXT_BOUND_BAG_EMD: u32 = 3;
pub const DXT_BOUND_ANY_INPUTS: u32 = 4;

pub const DXT_REVEALS_WORD_COUNT: u32 = 0x1;
pub const DXT_REVEALS_LAYOUT: u32 = 0x2;
pub const DXT_REVEALS_CASE_SHAPE: u32 = 0x4;
pub const DXT_REVEALS_TOKEN_CLASSES: u32 = 0x8;
pub const DXT_REVEALS_KEPT_WORDS: u32 = 0x10;
pub const DXT_REVEALS_SENTENCE_BOUNDARIES: u32 = 0x20;
pub const DXT_REVEALS_CLAUSE_BOUNDARIES: u32 = 0x40;
pub const DXT_REVEALS_INPUT_WORDS: u32 = 0x100;
pub const DXT_REVEALS_NEGATIONS: u32 = 0x200;

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
    pub release_shape: u32,
    pub output_top: u32,
    /// An output word list (`dxt_output_set_create`); null = none.
    pub output_set: *const dxt_output_set,
    /// A `dxt_preset` (`DXT_PRESET_NONE` = none).
    pub preset: u32,
    pub typed: [u32; DXT_TYPED_FAMILY_COUNT],
    pub typed_consistent: u32,
    pub number_shape: u32,
    /// The uniform floor p in [0, 1); 0 = none.
    pub uniform_floor: f64,
    /// A `dxt_negation_policy` (0 = privatize).
    pub negations: u32,
}

/// What a call released and the guarantee it carries: safe to transmit.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxt_release_record {
    pub struct_size: u32,
    pub mechanism: u32,
    pub epsilon: f64,
    pub metric: u32,
    pub rng_mode: u32,
    pub is_private: bool,
    pub fingerprint_valid: bool,
    pub model_fingerprint: [u8; 32],
    pub release: u32,
    pub bound: u32,
    pub reveals: u32,
    pub draws: u64,
    pub epsilon_total: f64,
    pub epsilon_vocabulary: f64,
    pub release_shape: u32,
    pub output_kind: u32,
    pub output_size: u32,
    pub output_digest: [u8; 32],
    pub preset: u32,
    pub typed_classes: u32,
    pub typed_flags: u32,
    pub uniform_floor: f64,
    /// The largest loss in nats for one word between any two inputs.
    pub worst_case_per_word: f64,
    pub typed_dropped: u32,
}

/// Token counts of a call's input: they describe the input; keep them local.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxt_local_diagnostics {
    pub struct_size: u32,
    pub counts: [[u64; DXT_TOKEN_ACTION_COUNT]; DXT_TOKEN_CLASS_COUNT],
    pub words_privatized: u64,
    pub words_leaked: u64,
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

/// The words a mechanism may release (`dxt_output_kind`).
pub const DXT_OUTPUT_VOCABULARY: u32 = 0;
pub const DXT_OUTPUT_TOP: u32 = 1;
pub const DXT_OUTPUT_LIST: u32 = 2;

/// Opaque handle of an application's output word list.
#[repr(C)]
pub struct dxt_output_set {
    _private: [u8; 0],
}

/// Opaque handle of options set by name (`dxt_options_create`).
#[repr(C)]
pub struct dxt_options {
    _private: [u8; 0],
}

/// The type of an option (`dxt_option_type`).
pub const DXT_OPTION_TYPE_UNKNOWN: u32 = 0;
pub const DXT_OPTION_TYPE_DOUBLE: u32 = 1;
pub const DXT_OPTION_TYPE_UINT32: u32 = 2;
pub const DXT_OPTION_TYPE_STRING: u32 = 3;
pub const DXT_OPTION_TYPE_ENUM: u32 = 4;
pub const DXT_OPTION_TYPE_WORDS: u32 = 5;

/// What the library says of one option (`dxt_option_describe`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxt_option_info {
    pub struct_size: u32,
    pub kind: u32,
    pub name: *const c_char,
    pub type_name: *const c_char,
    pub default_value: *const c_char,
    pub values: *const c_char,
    pub meaning: *const c_char,
}

/// Opaque handle of a privacy ledger.
#[repr(C)]
pub struct dxt_ledger {
    _private: [u8; 0],
}

pub const DXT_LEDGER_MEMO_DEFAULT: u32 = 64;
pub const DXT_LEDGER_MEMO_MAX: u32 = 4096;
pub const DXT_LEDGER_FRESH: u32 = 0x1;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxt_ledger_anchor {
    pub struct_size: u32,
    pub ledger_id: [u8; 16],
    pub commits: u64,
    pub spent: f64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxt_ledger_options {
    pub struct_size: u32,
    pub cap: f64,
    pub memo_capacity: u32,
    pub key: *const u8,
    pub key_length: usize,
    pub anchor: *const dxt_ledger_anchor,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxt_ledger_totals {
    pub struct_size: u32,
    pub cap: f64,
    pub spent: f64,
    pub spent_any_inputs: f64,
    pub releases: u64,
    pub memoised: u64,
    pub memo_capacity: u32,
    pub words: u64,
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
    pub fn dxt_model_ordering_count(model: *const dxt_model, count: *mut u32) -> dxt_status;
    pub fn dxt_model_ordering_place(
        model: *const dxt_model,
        ordering: u32,
        index: u32,
        place: *mut u32,
        cycle_length: *mut u32,
    ) -> dxt_status;

    pub fn dxt_context_options_init_sized(options: *mut dxt_context_options, struct_size: usize);
    pub fn dxt_context_create(
        model: *mut dxt_model,
        options: *const dxt_context_options,
        out: *mut *mut dxt_context,
    ) -> dxt_status;
    pub fn dxt_context_destroy(context: *mut dxt_context);

    pub fn dxt_privatize_options_init_sized(options: *mut dxt_privatize_options, struct_size: usize);
    pub fn dxt_epsilon_min() -> f64;
    pub fn dxt_epsilon_max() -> f64;
    pub fn dxt_release_record_init_sized(record: *mut dxt_release_record, struct_size: usize);
    pub fn dxt_release_record_to_json(
        record: *const dxt_release_record,
        buffer: *mut c_char,
        capacity: usize,
        required: *mut usize,
    ) -> dxt_status;
    pub fn dxt_local_diagnostics_init_sized(diagnostics: *mut dxt_local_diagnostics, struct_size: usize);
    pub fn dxt_local_diagnostics_to_json(
        diagnostics: *const dxt_local_diagnostics,
        buffer: *mut c_char,
        capacity: usize,
        required: *mut usize,
    ) -> dxt_status;
    pub fn dxt_privatize_index(
        context: *mut dxt_context,
        options: *const dxt_privatize_options,
        index: u32,
        out_index: *mut u32,
        record: *mut dxt_release_record,
        diagnostics: *mut dxt_local_diagnostics,
    ) -> dxt_status;
    pub fn dxt_privatize_word(
        context: *mut dxt_context,
        options: *const dxt_privatize_options,
        word: *const c_char,
        length: usize,
        out: *mut *mut c_char,
        out_length: *mut usize,
        record: *mut dxt_release_record,
        diagnostics: *mut dxt_local_diagnostics,
    ) -> dxt_status;
    pub fn dxt_privatize_text(
        context: *mut dxt_context,
        options: *const dxt_privatize_options,
        text: *const c_char,
        length: usize,
        out: *mut *mut c_char,
        out_length: *mut usize,
        record: *mut dxt_release_record,
        diagnostics: *mut dxt_local_diagnostics,
    ) -> dxt_status;
    pub fn dxt_text_free(text: *mut c_char);
    pub fn dxt_privatize_bag(
        context: *mut dxt_context,
        options: *const dxt_privatize_options,
        entries: *const dxt_bag_entry,
        entry_count: usize,
        out: *mut *mut dxt_bag,
        record: *mut dxt_release_record,
        diagnostics: *mut dxt_local_diagnostics,
    ) -> dxt_status;
    pub fn dxt_bag_free(bag: *mut dxt_bag);
    pub fn dxt_syntf(
        context: *mut dxt_context,
        options: *const dxt_privatize_options,
        entries: *const dxt_bag_entry,
        entry_count: usize,
        n_out: u32,
        out: *mut *mut dxt_bag,
        record: *mut dxt_release_record,
        diagnostics: *mut dxt_local_diagnostics,
    ) -> dxt_status;
    pub fn dxt_output_set_create(
        model: *const dxt_model,
        words: *const *const c_char,
        count: usize,
        out: *mut *mut dxt_output_set,
    ) -> dxt_status;
    pub fn dxt_output_set_size(set: *const dxt_output_set) -> u32;
    pub fn dxt_output_set_free(set: *mut dxt_output_set);
    pub fn dxt_options_create(model: *const dxt_model, out: *mut *mut dxt_options) -> dxt_status;
    pub fn dxt_options_destroy(options: *mut dxt_options);
    pub fn dxt_options_set(options: *mut dxt_options, name: *const c_char, value: *const c_char) -> dxt_status;
    pub fn dxt_options_set_words(
        options: *mut dxt_options,
        name: *const c_char,
        words: *const *const c_char,
        count: usize,
    ) -> dxt_status;
    pub fn dxt_options_get(options: *const dxt_options) -> *const dxt_privatize_options;
    pub fn dxt_option_count() -> u32;
    pub fn dxt_option_describe(index: u32, info: *mut dxt_option_info) -> dxt_status;
    pub fn dxt_ledger_options_init_sized(options: *mut dxt_ledger_options, struct_size: usize);
    pub fn dxt_ledger_open(
        path: *const c_char,
        scope: *const c_char,
        options: *const dxt_ledger_options,
        out: *mut *mut dxt_ledger,
    ) -> dxt_status;
    pub fn dxt_ledger_close(ledger: *mut dxt_ledger);
    pub fn dxt_ledger_open_memory(
        bytes: *const u8,
        length: usize,
        scope: *const c_char,
        options: *const dxt_ledger_options,
        out: *mut *mut dxt_ledger,
    ) -> dxt_status;
    pub fn dxt_ledger_save(
        ledger: *mut dxt_ledger,
        buffer: *mut u8,
        capacity: usize,
        required: *mut usize,
    ) -> dxt_status;
    pub fn dxt_ledger_set_cap(ledger: *mut dxt_ledger, cap: f64) -> dxt_status;
    pub fn dxt_ledger_privatize_text(
        ledger: *mut dxt_ledger,
        context: *mut dxt_context,
        options: *const dxt_privatize_options,
        text: *const c_char,
        length: usize,
        flags: u32,
        out: *mut *mut c_char,
        out_length: *mut usize,
        memoised: *mut bool,
        record: *mut dxt_release_record,
        diagnostics: *mut dxt_local_diagnostics,
    ) -> dxt_status;
    pub fn dxt_ledger_totals_init_sized(totals: *mut dxt_ledger_totals, struct_size: usize);
    pub fn dxt_ledger_get_totals(ledger: *mut dxt_ledger, totals: *mut dxt_ledger_totals) -> dxt_status;
    pub fn dxt_ledger_anchor_init_sized(anchor: *mut dxt_ledger_anchor, struct_size: usize);
    pub fn dxt_ledger_get_anchor(ledger: *mut dxt_ledger, anchor: *mut dxt_ledger_anchor) -> dxt_status;
    pub fn dxt_ledger_to_json(ledger: *mut dxt_ledger, buffer: *mut c_char, capacity: usize, required: *mut usize)
        -> dxt_status;
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
/// `record` is NULL or points to a writable `dxt_release_record`.
#[inline]
pub unsafe fn dxt_release_record_init(record: *mut dxt_release_record) {
    dxt_release_record_init_sized(record, size_of::<dxt_release_record>())
}

/// # Safety
/// `diagnostics` is NULL or points to a writable `dxt_local_diagnostics`.
#[inline]
pub unsafe fn dxt_local_diagnostics_init(diagnostics: *mut dxt_local_diagnostics) {
    dxt_local_diagnostics_init_sized(diagnostics, size_of::<dxt_local_diagnostics>())
}

/// # Safety
/// `calibration` is NULL or points to a writable `dxt_calibration`.
#[inline]
pub unsafe fn dxt_calibration_init(calibration: *mut dxt_calibration) {
    dxt_calibration_init_sized(calibration, size_of::<dxt_calibration>())
}

/// # Safety
/// `options` is NULL or points to a writable `dxt_ledger_options`.
#[inline]
pub unsafe fn dxt_ledger_options_init(options: *mut dxt_ledger_options) {
    dxt_ledger_options_init_sized(options, size_of::<dxt_ledger_options>())
}

/// # Safety
/// `totals` is NULL or points to a writable `dxt_ledger_totals`.
#[inline]
pub unsafe fn dxt_ledger_totals_init(totals: *mut dxt_ledger_totals) {
    dxt_ledger_totals_init_sized(totals, size_of::<dxt_ledger_totals>())
}

/// # Safety
/// `anchor` is NULL or points to a writable `dxt_ledger_anchor`.
#[inline]
pub unsafe fn dxt_ledger_anchor_init(anchor: *mut dxt_ledger_anchor) {
    dxt_ledger_anchor_init_sized(anchor, size_of::<dxt_ledger_anchor>())
}
