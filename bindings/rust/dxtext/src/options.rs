// SPDX-License-Identifier: Apache-2.0
//! `Options`: epsilon, mechanism, token policies and mechanism parameters.

use std::ffi::CString;
use std::sync::Arc;

use dxtext_sys as sys;

use crate::error::{Error, Result};

/// The mechanisms; `docs/guarantees.md` states and proves each guarantee.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mechanism {
    /// Multivariate Laplace noise, nearest word: eps·d2(w, w') per word.
    Laplace,
    /// The same in the Poincaré ball (needs a Poincaré model, eps > n-1).
    Hyperbolic,
    /// Pr[o|w] ∝ exp(-eps·d(w,o)/2) over the vocabulary.
    Exponential,
    /// Weggenmann & Kerschbaum's SynTF rating; plain eps-DP per word.
    Syntf,
    /// Laplace noise shaped by the embedding covariance (needs one).
    Mahalanobis,
    /// Laplace noise, then the 1st or 2nd nearest word.
    Vickrey,
    /// Truncated exponential mechanism.
    Tem,
}

impl Mechanism {
    pub(crate) fn to_raw(self) -> u32 {
        match self {
            Mechanism::Laplace => sys::DXT_MECHANISM_LAPLACE,
            Mechanism::Hyperbolic => sys::DXT_MECHANISM_HYPERBOLIC,
            Mechanism::Exponential => sys::DXT_MECHANISM_EXPONENTIAL,
            Mechanism::Syntf => sys::DXT_MECHANISM_SYNTF,
            Mechanism::Mahalanobis => sys::DXT_MECHANISM_MAHALANOBIS,
            Mechanism::Vickrey => sys::DXT_MECHANISM_VICKREY,
            Mechanism::Tem => sys::DXT_MECHANISM_TEM,
        }
    }

    pub(crate) fn from_raw(raw: u32) -> Option<Mechanism> {
        Some(match raw {
            sys::DXT_MECHANISM_LAPLACE => Mechanism::Laplace,
            sys::DXT_MECHANISM_HYPERBOLIC => Mechanism::Hyperbolic,
            sys::DXT_MECHANISM_EXPONENTIAL => Mechanism::Exponential,
            sys::DXT_MECHANISM_SYNTF => Mechanism::Syntf,
            sys::DXT_MECHANISM_MAHALANOBIS => Mechanism::Mahalanobis,
            sys::DXT_MECHANISM_VICKREY => Mechanism::Vickrey,
            sys::DXT_MECHANISM_TEM => Mechanism::Tem,
            _ => return None,
        })
    }
}

/// Classes of token, each with its own `Policy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenClass {
    InVocabulary = 0,
    OutOfVocabulary = 1,
    Number = 2,
    Stopword = 3,
}

/// What to do with one class of token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Replace by the mechanism's output (the default).
    Privatize = 1,
    /// Replace by the placeholder string.
    Placeholder = 2,
    /// Remove the token.
    Drop = 3,
    /// Pass through verbatim: a leak the release record names.
    Keep = 4,
}

/// The exponential mechanism's sampler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sampler {
    /// Gumbel-max (the default).
    Gumbel,
    /// Permute-and-flip (McKenna and Sheldon 2020).
    PermuteAndFlip,
}

/// How a noisy point is decoded to a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Search {
    /// The exact nearest word (the default).
    Exact,
    /// The model's search index: approximate.
    Ivf,
}

/// What of the input's form a text release copies (docs/guarantees.md,
/// "Release shapes").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReleaseShape {
    /// The text between words and each word's case shape, verbatim (the default).
    Keep,
    /// One canonical mark per gap ('.', ',' or a space), sentence capitals.
    Normalize,
    /// The words alone, one space apart; a keep policy is refused.
    Strict,
}

impl ReleaseShape {
    pub(crate) fn code(self) -> u32 {
        match self {
            ReleaseShape::Keep => sys::DXT_SHAPE_KEEP,
            ReleaseShape::Normalize => sys::DXT_SHAPE_NORMALIZE,
            ReleaseShape::Strict => sys::DXT_SHAPE_STRICT,
        }
    }
}

/// Named presets (docs/options.md, "Presets"; values in
/// tools/options/presets.table): each sets the mechanism, epsilon, release
/// shape, output vocabulary and token policies for a common job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Preset {
    /// Text a person will read.
    Readable,
    /// Features for analytics or model training.
    Features,
    /// The strongest privacy of the three.
    Strongest,
}

impl Preset {
    pub(crate) fn code(self) -> u32 {
        match self {
            Preset::Readable => sys::DXT_PRESET_READABLE,
            Preset::Features => sys::DXT_PRESET_FEATURES,
            Preset::Strongest => sys::DXT_PRESET_STRONGEST,
        }
    }

    pub(crate) fn from_raw(raw: u32) -> Option<Preset> {
        Some(match raw {
            sys::DXT_PRESET_READABLE => Preset::Readable,
            sys::DXT_PRESET_FEATURES => Preset::Features,
            sys::DXT_PRESET_STRONGEST => Preset::Strongest,
            _ => return None,
        })
    }
}

/// An output vocabulary: a public list of a model's words that the
/// mechanisms may release (`Model::output_set`), shared by any number of
/// calls through `Options::output_words`. It must be fixed in advance and
/// never made from the text being privatised (docs/guarantees.md, "Output
/// vocabularies"). Cheap to clone; keeps its model alive.
#[derive(Clone, Debug)]
pub struct OutputSet {
    pub(crate) inner: Arc<OutputSetHandle>,
}

#[derive(Debug)]
pub(crate) struct OutputSetHandle {
    pub(crate) ptr: *mut sys::dxt_output_set,
    pub(crate) words: Vec<String>,
}

// SAFETY: a dxt_output_set is immutable and safe to share between threads
// (include/dxtext/dxtext.h); it is freed once, when the last clone goes.
unsafe impl Send for OutputSetHandle {}
unsafe impl Sync for OutputSetHandle {}

impl Drop for OutputSetHandle {
    fn drop(&mut self) {
        // SAFETY: ptr came from a successful dxt_output_set_create.
        unsafe { sys::dxt_output_set_free(self.ptr) }
    }
}

impl OutputSet {
    /// The words, as given.
    pub fn words(&self) -> &[String] {
        &self.inner.words
    }

    /// The number of words.
    pub fn len(&self) -> usize {
        // SAFETY: the set is alive while self is.
        unsafe { sys::dxt_output_set_size(self.inner.ptr) as usize }
    }

    /// Whether the set has no words (never: empty lists are refused).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Options of a privatisation call, built by chaining (one method per option
/// of docs/options.md, named as there):
/// `Options::new(8.0).mechanism(Mechanism::Vickrey).vickrey_t(0.5)`.
/// Values are checked by the library when a call uses them.
#[derive(Clone, Debug)]
pub struct Options {
    raw: sys::dxt_privatize_options,
    placeholder: Option<CString>,
    output_set: Option<OutputSet>,
}

// SAFETY: the pointers of `raw` are set by as_raw() only: `placeholder`
// points into the CString owned by the same value, `output_set` to the set
// it holds (or they are NULL).
unsafe impl Send for Options {}
unsafe impl Sync for Options {}

impl Options {
    /// The library's defaults (Laplace, privatise everything) with `epsilon`.
    pub fn new(epsilon: f64) -> Options {
        let mut raw = std::mem::MaybeUninit::<sys::dxt_privatize_options>::uninit();
        // SAFETY: the pointer is to a writable struct of the declared size,
        // which the call fills completely.
        let mut raw = unsafe {
            sys::dxt_privatize_options_init(raw.as_mut_ptr());
            raw.assume_init()
        };
        raw.epsilon = epsilon;
        Options { raw, placeholder: None, output_set: None }
    }

    /// The options of a preset at its epsilon: `Options::from_preset(Preset::Readable)`;
    /// `.epsilon(e)` overrides the epsilon.
    pub fn from_preset(preset: Preset) -> Options {
        Options::new(0.0).preset(preset)
    }

    pub fn epsilon(mut self, epsilon: f64) -> Options {
        self.raw.epsilon = epsilon;
        self
    }

    pub fn mechanism(mut self, mechanism: Mechanism) -> Options {
        self.raw.mechanism = mechanism.to_raw();
        self
    }

    pub fn policy(mut self, class: TokenClass, policy: Policy) -> Options {
        self.raw.policy[class as usize] = policy as u32;
        self
    }

    /// The policy of in-vocabulary words.
    pub fn in_vocabulary(self, policy: Policy) -> Options {
        self.policy(TokenClass::InVocabulary, policy)
    }

    /// The policy of out-of-vocabulary words.
    pub fn oov(self, policy: Policy) -> Options {
        self.policy(TokenClass::OutOfVocabulary, policy)
    }

    /// The policy of numbers.
    pub fn numbers(self, policy: Policy) -> Options {
        self.policy(TokenClass::Number, policy)
    }

    /// The policy of stopwords.
    pub fn stopwords(self, policy: Policy) -> Options {
        self.policy(TokenClass::Stopword, policy)
    }

    /// The replacement of the `Placeholder` policy ("[redacted]" by default).
    /// Fails on an interior NUL byte.
    pub fn placeholder(mut self, text: &str) -> Result<Options> {
        let c = CString::new(text).map_err(|_| Error::invalid_argument("the placeholder contains a NUL byte"))?;
        self.placeholder = Some(c);
        Ok(self)
    }

    pub fn tem_gamma(mut self, gamma: f64) -> Options {
        self.raw.tem_gamma = gamma;
        self
    }

    pub fn tem_beta(mut self, beta: f64) -> Options {
        self.raw.tem_beta = beta;
        self
    }

    pub fn vickrey_t(mut self, t: f64) -> Options {
        self.raw.vickrey_t = t;
        self
    }

    pub fn mahalanobis_lambda(mut self, lambda: f64) -> Options {
        self.raw.mahalanobis_lambda = lambda;
        self
    }

    pub fn syntf_s(mut self, s: f64) -> Options {
        self.raw.syntf_s = s;
        self
    }

    /// The exponential mechanism's sampler (Gumbel-max by default).
    pub fn sampler(mut self, sampler: Sampler) -> Options {
        self.raw.exponential_sampler = match sampler {
            Sampler::Gumbel => sys::DXT_SAMPLER_GUMBEL,
            Sampler::PermuteAndFlip => sys::DXT_SAMPLER_PERMUTE_AND_FLIP,
        };
        self
    }

    /// How laplace, vickrey and mahalanobis decode: `Search::Exact` (the
    /// default) or `Search::Ivf`, through the model's search index (`dxtext
    /// index`): approximate, faster on large vocabularies. Privacy is
    /// unchanged; see docs/guarantees.md.
    pub fn search(mut self, search: Search) -> Options {
        self.raw.search = match search {
            Search::Exact => sys::DXT_SEARCH_EXACT,
            Search::Ivf => sys::DXT_SEARCH_IVF,
        };
        self
    }

    /// With `Search::Ivf`: the index cells scanned (0 = the library's
    /// default); the library refuses it with exact search.
    pub fn ivf_nprobe(mut self, nprobe: u32) -> Options {
        self.raw.ivf_nprobe = nprobe;
        self
    }

    /// What of the input's form a text shows: `ReleaseShape::Keep` (the
    /// default), `Normalize` or `Strict`.
    pub fn release_shape(mut self, shape: ReleaseShape) -> Options {
        self.raw.release_shape = shape.code();
        self
    }

    /// The output vocabulary: release only the model's `n` most frequent
    /// words (its frequencies section); 0 = the whole vocabulary.
    pub fn output_top(mut self, n: u32) -> Options {
        self.raw.output_top = n;
        self
    }

    /// The output vocabulary: release only words of `set`, a public list the
    /// application ships (`Model::output_set`); not with `output_top`.
    pub fn output_words(mut self, set: &OutputSet) -> Options {
        self.output_set = Some(set.clone());
        self
    }

    /// A preset (docs/options.md, "Presets"): its mechanism, release shape,
    /// output vocabulary and token policies, and its epsilon when this one is
    /// 0. An option the preset fixes may only be left at its default or set
    /// to the preset's value; the library refuses others.
    pub fn preset(mut self, preset: Preset) -> Options {
        self.raw.preset = preset.code();
        self
    }

    /// The C struct, with the placeholder and output set pointers set; valid
    /// while `self` is.
    pub(crate) fn as_raw(&self) -> sys::dxt_privatize_options {
        let mut raw = self.raw;
        raw.placeholder = self.placeholder.as_ref().map_or(std::ptr::null(), |c| c.as_ptr());
        raw.output_set = self.output_set.as_ref().map_or(std::ptr::null(), |s| s.inner.ptr as *const _);
        raw
    }
}
