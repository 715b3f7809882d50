//! `Report`: what a call did and the guarantee it gave; `Calibration`.

use std::os::raw::c_char;

use dxtext_sys as sys;

use crate::error::{check, Error, Result};
use crate::options::{Mechanism, Policy, TokenClass};

/// The distance d of a guarantee eps·d.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Metric {
    Euclidean,
    Hyperbolic,
    Mahalanobis,
    /// 1 between any two distinct words: plain eps-DP.
    Discrete,
    Unknown,
}

/// What a privatisation call did and what it guarantees.
#[derive(Clone, Debug)]
pub struct Report {
    raw: sys::dxt_report,
}

impl Report {
    pub(crate) fn empty() -> Report {
        let mut raw = std::mem::MaybeUninit::<sys::dxt_report>::uninit();
        // SAFETY: a writable struct of the declared size, filled by the call.
        let raw = unsafe {
            sys::dxt_report_init(raw.as_mut_ptr());
            raw.assume_init()
        };
        Report { raw }
    }

    pub(crate) fn raw_mut(&mut self) -> *mut sys::dxt_report {
        &mut self.raw
    }

    pub fn mechanism(&self) -> Option<Mechanism> {
        Mechanism::from_raw(self.raw.mechanism)
    }

    pub fn epsilon(&self) -> f64 {
        self.raw.epsilon
    }

    pub fn metric(&self) -> Metric {
        match self.raw.metric {
            sys::DXT_METRIC_EUCLIDEAN => Metric::Euclidean,
            sys::DXT_METRIC_HYPERBOLIC => Metric::Hyperbolic,
            sys::DXT_METRIC_MAHALANOBIS => Metric::Mahalanobis,
            sys::DXT_METRIC_DISCRETE => Metric::Discrete,
            _ => Metric::Unknown,
        }
    }

    /// False when the noise came from a seeded (deterministic) context.
    pub fn is_private(&self) -> bool {
        self.raw.is_private
    }

    /// SHA-256 of the model file, when the report carries it.
    pub fn model_fingerprint(&self) -> Option<[u8; 32]> {
        if self.raw.fingerprint_valid {
            Some(self.raw.model_fingerprint)
        } else {
            None
        }
    }

    /// Tokens of `class` handled by `policy`.
    pub fn count(&self, class: TokenClass, policy: Policy) -> u64 {
        self.raw.counts[class as usize][policy as usize - 1]
    }

    /// N: the number of noise draws made.
    pub fn words_privatized(&self) -> u64 {
        self.raw.words_privatized
    }

    /// Tokens passed through verbatim by a `Keep` policy.
    pub fn words_leaked(&self) -> u64 {
        self.raw.words_leaked
    }

    /// Per word: outputs for w, w' differ by at most this · d(w, w').
    pub fn epsilon_per_unit_distance(&self) -> f64 {
        self.raw.epsilon_per_unit_distance
    }

    /// For the text or bag as a whole: this · EMD for bags of equal size N
    /// (for SynTF: eps · n_out, all documents adjacent).
    pub fn epsilon_document(&self) -> f64 {
        self.raw.epsilon_document
    }

    /// SynTF only (0 otherwise): the tighter bound (eps + ln eta(eps, V)) · n
    /// from the vocabulary size V.
    pub fn epsilon_document_vocabulary(&self) -> f64 {
        self.raw.epsilon_document_vocabulary
    }

    /// The report as one line of JSON.
    pub fn to_json(&self) -> Result<String> {
        let mut buffer: Vec<u8> = vec![0; 1024];
        loop {
            let mut required = 0usize;
            // SAFETY: the buffer holds buffer.len() writable bytes.
            let status = unsafe {
                sys::dxt_report_to_json(&self.raw, buffer.as_mut_ptr() as *mut c_char, buffer.len(), &mut required)
            };
            if status == sys::DXT_E_INPUT_TOO_LARGE && required > buffer.len() {
                buffer.resize(required, 0);
                continue;
            }
            check(status)?;
            buffer.truncate(required.saturating_sub(1));
            return String::from_utf8(buffer).map_err(|_| Error::invalid_argument("the report is not UTF-8"));
        }
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
