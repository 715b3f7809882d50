// SPDX-License-Identifier: Apache-2.0
//! `ReleaseRecord` (what a call released and its guarantee: safe to send),
//! `LocalDiagnostics` (what it did to the input's tokens: keep local),
//! `Calibration`.

use std::os::raw::c_char;

use dxtext_sys as sys;

use crate::error::{check, Error, Result};
use crate::options::{Mechanism, Policy, Preset, ReleaseShape, TokenClass};

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
// generated: end enums

/// Calls `to_json(p, buffer, capacity, &required)` until the buffer fits.
fn json_of<T>(p: &T, to_json: unsafe extern "C" fn(*const T, *mut c_char, usize, *mut usize) -> i32) -> Result<String> {
    let mut buffer: Vec<u8> = vec![0; 1024];
    loop {
        let mut required = 0usize;
        // SAFETY: the buffer holds buffer.len() writable bytes; p is a live struct.
        let status = unsafe { to_json(p, buffer.as_mut_ptr() as *mut c_char, buffer.len(), &mut required) };
        if status == sys::DXT_E_INPUT_TOO_LARGE && required > buffer.len() {
            buffer.resize(required, 0);
            continue;
        }
        check(status)?;
        buffer.truncate(required.saturating_sub(1));
        return String::from_utf8(buffer).map_err(|_| Error::invalid_argument("the JSON is not UTF-8"));
    }
}

/// What a call released and the guarantee it carries. Every field depends
/// only on the options, the model and the generator mode (and `n_out` for
/// SynTF), never on the input: safe to send beside the output.
#[derive(Clone, Debug)]
pub struct ReleaseRecord {
    raw: sys::dxt_release_record,
}

impl ReleaseRecord {
    pub(crate) fn empty() -> ReleaseRecord {
        let mut raw = std::mem::MaybeUninit::<sys::dxt_release_record>::uninit();
        // SAFETY: a writable struct of the declared size, filled by the call.
        let raw = unsafe {
            sys::dxt_release_record_init(raw.as_mut_ptr());
            raw.assume_init()
        };
        ReleaseRecord { raw }
    }

    pub(crate) fn raw_mut(&mut self) -> *mut sys::dxt_release_record {
        &mut self.raw
    }

    pub fn release(&self) -> ReleaseKind {
        ReleaseKind::from_raw(self.raw.release)
    }

    pub fn mechanism(&self) -> Option<Mechanism> {
        Mechanism::from_raw(self.raw.mechanism)
    }

    /// Per word, per unit of the metric.
    pub fn epsilon(&self) -> f64 {
        self.raw.epsilon
    }

    /// The distance d of the bound.
    pub fn metric(&self) -> Metric {
        Metric::from_raw(self.raw.metric)
    }

    /// False when the noise came from a seeded (deterministic) context.
    pub fn is_private(&self) -> bool {
        self.raw.is_private
    }

    /// SHA-256 of the model file, when the record carries it.
    pub fn model_fingerprint(&self) -> Option<[u8; 32]> {
        if self.raw.fingerprint_valid {
            Some(self.raw.model_fingerprint)
        } else {
            None
        }
    }

    pub fn bound(&self) -> Bound {
        Bound::from_raw(self.raw.bound)
    }

    /// `DXT_REVEALS_*` bits: features of the input the output shows as they are.
    pub fn reveals(&self) -> u32 {
        self.raw.reveals
    }

    /// `Bound::AnyInputs`: the number of draws; 0 otherwise.
    pub fn draws(&self) -> u64 {
        self.raw.draws
    }

    /// `Bound::AnyInputs`: eps·draws; 0 otherwise.
    pub fn epsilon_total(&self) -> f64 {
        self.raw.epsilon_total
    }

    /// What of the input's form the release copied.
    /// The preset of the call's options, or None without one.
    pub fn preset(&self) -> Option<Preset> {
        Preset::from_raw(self.raw.preset)
    }

    pub fn release_shape(&self) -> ReleaseShape {
        // 0 (DXT_SHAPE_DEFAULT) is keep.
        ReleaseShape::from_raw(self.raw.release_shape).unwrap_or(ReleaseShape::Keep)
    }

    /// SynTF only (0 otherwise): eps + ln eta(eps, V) <= eps, usable in place of eps.
    pub fn epsilon_vocabulary(&self) -> f64 {
        self.raw.epsilon_vocabulary
    }

    /// The record as one line of JSON: its fields, the guarantee in words
    /// and what the output reveals.
    pub fn to_json(&self) -> Result<String> {
        json_of(&self.raw, sys::dxt_release_record_to_json)
    }
}

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
        let mut raw = std::mem::MaybeUninit::<sys::dxt_local_diagnostics>::uninit();
        // SAFETY: a writable struct of the declared size, filled by the call.
        let raw = unsafe {
            sys::dxt_local_diagnostics_init(raw.as_mut_ptr());
            raw.assume_init()
        };
        LocalDiagnostics { raw }
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
        json_of(&self.raw, sys::dxt_local_diagnostics_to_json)
    }
}

/// Plausible-deniability statistics of a mechanism at one epsilon
/// (Feyisetan et al. 2020): N_w (how often a word survives) and S_w (how
/// many distinct words it becomes) over a sample of vocabulary words.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    pub words: u32,
    pub trials: u32,
    pub keep_mean: f64,
    pub keep_median: f64,
    pub keep_max: f64,
    pub distinct_mean: f64,
    pub distinct_median: f64,
    pub distinct_max: f64,
}
