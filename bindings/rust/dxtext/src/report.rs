// SPDX-License-Identifier: Apache-2.0
//! `ReleaseRecord` (what a call released and its guarantee: safe to send),
//! `LocalDiagnostics` (what it did to the input's tokens: keep local),
//! `Calibration`.

use dxtext_sys as sys;

use crate::error::Result;
use crate::options::{Mechanism, Policy, Preset, ReleaseShape, TokenClass};
use crate::{initialised, string, written};

// generated: enums (tools/options/generate.py, from include/dxtext/dxtext.h)
/// The metric d of a release record's bound.
///
/// The C API's `dxt_metric`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Metric {
    /// `DXT_METRIC_EUCLIDEAN`: ||phi(w) - phi(w')||.
    Euclidean,
    /// `DXT_METRIC_HYPERBOLIC`: Poincare-ball distance.
    Hyperbolic,
    /// `DXT_METRIC_MAHALANOBIS`: ||Sigma_l^(-1/2)(phi(w) - phi(w'))||.
    Mahalanobis,
    /// `DXT_METRIC_DISCRETE`: 1 for any two distinct words: plain eps-DP.
    Discrete,
    /// `DXT_METRIC_ORDERING`: Max over the model's orderings of the number of places between w and
    /// w' along the cycle (DXT_MECHANISM_ORDERING).
    Ordering,
    /// `DXT_METRIC_UNKNOWN`, or a value this crate does not know (a newer library).
    Unknown,
}

impl Metric {
    pub(crate) fn from_raw(raw: sys::dxt_metric) -> Metric {
        match raw {
            sys::DXT_METRIC_EUCLIDEAN => Metric::Euclidean,
            sys::DXT_METRIC_HYPERBOLIC => Metric::Hyperbolic,
            sys::DXT_METRIC_MAHALANOBIS => Metric::Mahalanobis,
            sys::DXT_METRIC_DISCRETE => Metric::Discrete,
            sys::DXT_METRIC_ORDERING => Metric::Ordering,
            _ => Metric::Unknown,
        }
    }
}

/// Which call made a release (dxt_release_record.release).
///
/// The C API's `dxt_release_kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ReleaseKind {
    /// `DXT_RELEASE_WORD`: dxt_privatize_index, dxt_privatize_word.
    Word,
    /// `DXT_RELEASE_TEXT`: dxt_privatize_text: words in their order.
    Text,
    /// `DXT_RELEASE_BAG`: dxt_privatize_bag.
    Bag,
    /// `DXT_RELEASE_SYNTHETIC_BAG`: dxt_syntf.
    SyntheticBag,
    /// `DXT_RELEASE_UNKNOWN`, or a value this crate does not know (a newer library).
    Unknown,
}

impl ReleaseKind {
    pub(crate) fn from_raw(raw: sys::dxt_release_kind) -> ReleaseKind {
        match raw {
            sys::DXT_RELEASE_WORD => ReleaseKind::Word,
            sys::DXT_RELEASE_TEXT => ReleaseKind::Text,
            sys::DXT_RELEASE_BAG => ReleaseKind::Bag,
            sys::DXT_RELEASE_SYNTHETIC_BAG => ReleaseKind::SyntheticBag,
            _ => ReleaseKind::Unknown,
        }
    }
}

/// The form of a release's guarantee (dxt_release_record.bound): for two inputs x, x' the
/// probability of any set of outputs changes by at most the factor exp(B(x, x')), with d the
/// record's metric and epsilon its epsilon (docs/guarantees.md proves each).
///
/// The C API's `dxt_bound`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Bound {
    /// `DXT_BOUND_WORD`: One word: B = epsilon * d(w, w').
    Word,
    /// `DXT_BOUND_POSITIONWISE`: Ordered text: B = epsilon * sum_i d(x_i, x'_i), the privatised
    /// words of two texts paired position by position (so texts with the same number of them).
    /// Texts that differ only in word order are NOT close: the EMD bound of bags does not hold for
    /// ordered text.
    Positionwise,
    /// `DXT_BOUND_BAG_EMD`: Bags of equal size N: B = epsilon * N * EMD_d(b, b') = epsilon * (the
    /// least sum of d over pairings of the two bags' words) (Fernandes, Dras & McIver 2019; proved
    /// in docs/guarantees.md).
    BagEmd,
    /// `DXT_BOUND_ANY_INPUTS`: Plain DP with any two inputs adjacent: B = epsilon_total
    /// (dxt_syntf).
    AnyInputs,
    /// `DXT_BOUND_UNKNOWN`, or a value this crate does not know (a newer library).
    Unknown,
}

impl Bound {
    pub(crate) fn from_raw(raw: sys::dxt_bound) -> Bound {
        match raw {
            sys::DXT_BOUND_WORD => Bound::Word,
            sys::DXT_BOUND_POSITIONWISE => Bound::Positionwise,
            sys::DXT_BOUND_BAG_EMD => Bound::BagEmd,
            sys::DXT_BOUND_ANY_INPUTS => Bound::AnyInputs,
            _ => Bound::Unknown,
        }
    }
}

/// The C API's `dxt_rng_mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RngMode {
    /// `DXT_RNG_SYSTEM`: OpenSSL RAND_priv_bytes: the private mode.
    System,
    /// `DXT_RNG_DETERMINISTIC`: AES-256-CTR keyed by a 32-byte seed: NOT private, for tests and
    /// reproducible research.
    Deterministic,
    /// `DXT_RNG_UNKNOWN`, or a value this crate does not know (a newer library).
    Unknown,
}

impl RngMode {
    pub(crate) fn from_raw(raw: sys::dxt_rng_mode) -> RngMode {
        match raw {
            sys::DXT_RNG_SYSTEM => RngMode::System,
            sys::DXT_RNG_DETERMINISTIC => RngMode::Deterministic,
            _ => RngMode::Unknown,
        }
    }
}

/// Which words a mechanism may release (dxt_release_record.output_kind).
///
/// The C API's `dxt_output_kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OutputKind {
    /// `DXT_OUTPUT_VOCABULARY`: The whole vocabulary.
    Vocabulary,
    /// `DXT_OUTPUT_TOP`: The N most frequent words (output_top).
    Top,
    /// `DXT_OUTPUT_LIST`: A word list of the application (output_set).
    List,
    /// A value this crate does not know (a newer library).
    Unknown,
}

impl OutputKind {
    pub(crate) fn from_raw(raw: sys::dxt_output_kind) -> OutputKind {
        match raw {
            sys::DXT_OUTPUT_VOCABULARY => OutputKind::Vocabulary,
            sys::DXT_OUTPUT_TOP => OutputKind::Top,
            sys::DXT_OUTPUT_LIST => OutputKind::List,
            _ => OutputKind::Unknown,
        }
    }
}
// generated: end enums

/// What a call released and the guarantee it carries. Every field depends
/// only on the options, the model and the generator mode (and `n_out` for
/// SynTF), never on the input: safe to send beside the output.
#[derive(Clone, Debug)]
pub struct ReleaseRecord {
    raw: sys::dxt_release_record,
}

impl ReleaseRecord {
    pub(crate) fn empty() -> ReleaseRecord {
        ReleaseRecord { raw: initialised(sys::dxt_release_record_init) }
    }

    pub(crate) fn raw_mut(&mut self) -> *mut sys::dxt_release_record {
        &mut self.raw
    }

    /// The record as one line of JSON: its fields, the guarantee in words
    /// and what the output reveals.
    pub fn to_json(&self) -> Result<String> {
        // SAFETY: a live struct; the buffer and its capacity from `written`.
        string(written(|buffer, capacity, required| unsafe {
            sys::dxt_release_record_to_json(&self.raw, buffer, capacity, required)
        })?)
    }
}

// The fields of the record, as the C struct has them: every field but
// struct_size, with its enumeration's type where it holds one.
// generated: fields (tools/options/generate.py, from include/dxtext/dxtext.h)
impl ReleaseRecord {
    pub fn mechanism(&self) -> Option<Mechanism> {
        Mechanism::from_raw(self.raw.mechanism)
    }

    /// Per word, per unit of the metric.
    pub fn epsilon(&self) -> f64 {
        self.raw.epsilon
    }

    /// dxt_metric: the distance d of the bound.
    pub fn metric(&self) -> Metric {
        Metric::from_raw(self.raw.metric)
    }

    pub fn rng_mode(&self) -> RngMode {
        RngMode::from_raw(self.raw.rng_mode)
    }

    /// False when rng_mode is deterministic or DXT_REVEALS_INPUT_WORDS is set.
    pub fn is_private(&self) -> bool {
        self.raw.is_private
    }

    /// SHA-256 of the model file, when the record carries it.
    pub fn model_fingerprint(&self) -> Option<[u8; 32]> {
        self.raw.fingerprint_valid.then_some(self.raw.model_fingerprint)
    }

    pub fn release(&self) -> ReleaseKind {
        ReleaseKind::from_raw(self.raw.release)
    }

    pub fn bound(&self) -> Bound {
        Bound::from_raw(self.raw.bound)
    }

    pub fn reveals(&self) -> u32 {
        self.raw.reveals
    }

    /// DXT_BOUND_ANY_INPUTS: the number of draws n_out; 0 otherwise.
    pub fn draws(&self) -> u64 {
        self.raw.draws
    }

    /// DXT_BOUND_ANY_INPUTS: epsilon * draws; 0 otherwise.
    pub fn epsilon_total(&self) -> f64 {
        self.raw.epsilon_total
    }

    /// Syntf only (0 otherwise): epsilon + ln eta(epsilon, V) <= epsilon, from the vocabulary size
    /// V (docs/guarantees.md, syntf); it may replace epsilon in the bound.
    pub fn epsilon_vocabulary(&self) -> f64 {
        self.raw.epsilon_vocabulary
    }

    /// dxt_release_shape of the call (DXT_SHAPE_KEEP by default).
    pub fn release_shape(&self) -> ReleaseShape {
        ReleaseShape::from_raw(self.raw.release_shape).unwrap_or(ReleaseShape::Keep)
    }

    /// dxt_output_kind: the words the mechanism could release.
    pub fn output_kind(&self) -> OutputKind {
        OutputKind::from_raw(self.raw.output_kind)
    }

    /// How many words those are.
    pub fn output_size(&self) -> u32 {
        self.raw.output_size
    }

    /// SHA-256 of those words (all zero for the whole vocabulary).
    pub fn output_digest(&self) -> [u8; 32] {
        self.raw.output_digest
    }

    /// The dxt_preset the options named (DXT_PRESET_NONE when none).
    pub fn preset(&self) -> Option<Preset> {
        Preset::from_raw(self.raw.preset)
    }

    /// Bit (1u << dxt_typed_class) of each class whose tokens become a member or its placeholder.
    pub fn typed_classes(&self) -> u32 {
        self.raw.typed_classes
    }

    pub fn typed_flags(&self) -> u32 {
        self.raw.typed_flags
    }

    /// The floor p of the options (0: none).
    pub fn uniform_floor(&self) -> f64 {
        self.raw.uniform_floor
    }

    /// The largest loss in nats of one privatised word (infinity: none known).
    pub fn worst_case_per_word(&self) -> f64 {
        self.raw.worst_case_per_word
    }

    /// Bit (1u << dxt_typed_class) of each class whose tokens are dropped.
    pub fn typed_dropped(&self) -> u32 {
        self.raw.typed_dropped
    }

    /// The strength B of the context prior (0: none).
    pub fn context_prior(&self) -> f64 {
        self.raw.context_prior
    }
}
// generated: end fields

/// What a call did to the tokens of its input. It DESCRIBES THE INPUT (for
/// example its share of out-of-vocabulary words) and no guarantee covers it:
/// keep it on the device.
#[derive(Clone, Debug)]
pub struct LocalDiagnostics {
    raw: sys::dxt_local_diagnostics,
}

impl Default for LocalDiagnostics {
    fn default() -> Self {
        LocalDiagnostics::new()
    }
}

impl LocalDiagnostics {
    pub fn new() -> LocalDiagnostics {
        LocalDiagnostics { raw: initialised(sys::dxt_local_diagnostics_init) }
    }

    pub(crate) fn raw_mut(&mut self) -> *mut sys::dxt_local_diagnostics {
        &mut self.raw
    }

    /// Tokens of `class` handled by `policy`.
    pub fn count(&self, class: TokenClass, policy: Policy) -> u64 {
        self.raw.counts[class as usize][policy as usize - 1]
    }

    /// The number of noise draws made.
    pub fn words_privatized(&self) -> u64 {
        self.raw.words_privatized
    }

    /// Tokens passed through verbatim by a `Keep` policy.
    pub fn words_leaked(&self) -> u64 {
        self.raw.words_leaked
    }

    /// As one line of JSON.
    pub fn to_json(&self) -> Result<String> {
        // SAFETY: a live struct; the buffer and its capacity from `written`.
        string(written(|buffer, capacity, required| unsafe {
            sys::dxt_local_diagnostics_to_json(&self.raw, buffer, capacity, required)
        })?)
    }
}

/// Plausible-deniability statistics of a mechanism at one epsilon
/// (Feyisetan et al. 2020): N_w (how often a word survives) and S_w (how
/// many distinct words it becomes) over a sample of vocabulary words.
#[derive(Clone, Copy, Debug, PartialEq)]
// generated: Calibration (tools/options/generate.py, from include/dxtext/dxtext.h)
pub struct Calibration {
    /// Words sampled.
    pub words: u32,
    /// Privatisations per word.
    pub trials: u32,
    /// N_w: fraction of trials in which w came back unchanged.
    pub keep_mean: f64,
    /// N_w: fraction of trials in which w came back unchanged.
    pub keep_median: f64,
    /// N_w: fraction of trials in which w came back unchanged.
    pub keep_max: f64,
    /// S_w: number of distinct outputs in the trials.
    pub distinct_mean: f64,
    /// S_w: number of distinct outputs in the trials.
    pub distinct_median: f64,
    /// S_w: number of distinct outputs in the trials.
    pub distinct_max: f64,
}

impl Calibration {
    pub(crate) fn from_raw(raw: &sys::dxt_calibration) -> Calibration {
        Calibration {
            words: raw.words,
            trials: raw.trials,
            keep_mean: raw.keep_mean,
            keep_median: raw.keep_median,
            keep_max: raw.keep_max,
            distinct_mean: raw.distinct_mean,
            distinct_median: raw.distinct_median,
            distinct_max: raw.distinct_max,
        }
    }
}
// generated: end Calibration
