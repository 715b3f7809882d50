// SPDX-License-Identifier: Apache-2.0
//! `Options`: epsilon, mechanism, token policies and mechanism parameters.

use std::sync::Arc;

use dxtext_sys as sys;

use crate::error::{check, Error, Result};
use crate::{c_string, c_strings};

// generated: enums (tools/options/generate.py, from include/dxtext/dxtext.h)
/// The mechanisms; docs/guarantees.md states and proves each guarantee.
///
/// The C API's `dxt_mechanism`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mechanism {
    /// `DXT_MECHANISM_LAPLACE`: z = phi(w) + R*u, R ~ Gamma(n, 1/eps), u uniform on the sphere;
    /// output the nearest word. eps*d2(w,w') per word (Fernandes et al. 2019).
    Laplace,
    /// `DXT_MECHANISM_HYPERBOLIC`: Poincare models: noise of density ∝ exp(-eps*dH) w.r.t.
    /// hyperbolic volume, sampled exactly; nearest word in dH. eps*dH(w,w'); needs eps > n-1
    /// (Feyisetan, Diethe, Drake 2019). Below that, use DXT_MECHANISM_EXPONENTIAL or
    /// DXT_MECHANISM_TEM on the same model: eps*dH(w,w') for any eps.
    Hyperbolic,
    /// `DXT_MECHANISM_EXPONENTIAL`: Pr[o|w] ∝ exp(-eps*d(w,o)/2) over the vocabulary, in the
    /// model's geometry (Euclidean or dH). eps*d(w,w') for any eps (SanText, Yue et al. 2021).
    Exponential,
    /// `DXT_MECHANISM_SYNTF`: Exponential mechanism with rating cos(v,w) - s*Dice(bigrams(v),
    /// bigrams(w)) of range 2+s: eps-DP per word with all words adjacent (Weggenmann & Kerschbaum
    /// 2018); dxt_syntf builds synthetic bags.
    Syntf,
    /// `DXT_MECHANISM_MAHALANOBIS`: z = phi(w) + R * Sigma_l^(1/2) u, Sigma_l = l*Sigma + (1-l)*I:
    /// eps*||Sigma_l^(-1/2)(x-y)|| (Xu et al. 2020). Needs a covariance.
    Mahalanobis,
    /// `DXT_MECHANISM_VICKREY`: Laplace noise, then the 1st or 2nd nearest word of z with
    /// probability p = (1-t)d2/(t*d1+(1-t)d2) for the first: as laplace (Xu et al. 2021).
    Vickrey,
    /// `DXT_MECHANISM_TEM`: Truncated exponential mechanism: words within gamma of w compete with
    /// one "bottom" candidate standing for all others: eps*d (Carvalho et al. 2023).
    Tem,
    /// `DXT_MECHANISM_ORDERING`: One of the model's K public orderings of the vocabulary (cycles in
    /// which neighbours are near words; `dxtext order` adds them) is picked uniformly, and the word
    /// k places along it released, k two-sided geometric: Pr[k] ∝ exp(-eps*|k|), wrapped around the
    /// cycle. eps*d_ord(w,w') with d_ord the largest distance between w and w' along any of the
    /// orderings (after 1-Diffractor, Meisenbacher et al. 2024). Needs a model with an orderings
    /// section; eps is per place along an ordering, so its scale is not the Euclidean mechanisms'.
    Ordering,
}

impl Mechanism {
    pub(crate) fn from_raw(raw: sys::dxt_mechanism) -> Option<Mechanism> {
        Some(match raw {
            sys::DXT_MECHANISM_LAPLACE => Mechanism::Laplace,
            sys::DXT_MECHANISM_HYPERBOLIC => Mechanism::Hyperbolic,
            sys::DXT_MECHANISM_EXPONENTIAL => Mechanism::Exponential,
            sys::DXT_MECHANISM_SYNTF => Mechanism::Syntf,
            sys::DXT_MECHANISM_MAHALANOBIS => Mechanism::Mahalanobis,
            sys::DXT_MECHANISM_VICKREY => Mechanism::Vickrey,
            sys::DXT_MECHANISM_TEM => Mechanism::Tem,
            sys::DXT_MECHANISM_ORDERING => Mechanism::Ordering,
            _ => return None,
        })
    }
}

impl OptionName for Mechanism {
    fn option_name(&self) -> String {
        match self {
            Mechanism::Laplace => "laplace",
            Mechanism::Hyperbolic => "hyperbolic",
            Mechanism::Exponential => "exponential",
            Mechanism::Syntf => "syntf",
            Mechanism::Mahalanobis => "mahalanobis",
            Mechanism::Vickrey => "vickrey",
            Mechanism::Tem => "tem",
            Mechanism::Ordering => "ordering",
        }
        .to_string()
    }
}

/// Token classes; also the row index of dxt_local_diagnostics.counts.
///
/// The C API's `dxt_token_class`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenClass {
    /// `DXT_CLASS_IN_VOCABULARY`: Words of the model's vocabulary.
    InVocabulary = 0,
    /// `DXT_CLASS_OUT_OF_VOCABULARY`: Words not in it.
    OutOfVocabulary = 1,
    /// `DXT_CLASS_NUMBER`: Numbers.
    Number = 2,
    /// `DXT_CLASS_STOPWORD`: Stopwords.
    Stopword = 3,
}

/// What to do with one class of token. 0 selects the class's default.
///
/// The C API's `dxt_token_policy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// `DXT_POLICY_PRIVATIZE`: Replace by the mechanism's output.
    Privatize = 1,
    /// `DXT_POLICY_PLACEHOLDER`: Replace by the placeholder string.
    Placeholder = 2,
    /// `DXT_POLICY_DROP`: Remove the token.
    Drop = 3,
    /// `DXT_POLICY_KEEP`: Pass through verbatim: a leak (DXT_REVEALS_KEPT_WORDS).
    Keep = 4,
}

impl OptionName for Policy {
    fn option_name(&self) -> String {
        match self {
            Policy::Privatize => "privatize",
            Policy::Placeholder => "placeholder",
            Policy::Drop => "drop",
            Policy::Keep => "keep",
        }
        .to_string()
    }
}

/// Samplers of the exponential mechanism.
///
/// The C API's `dxt_exponential_sampler`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sampler {
    /// `DXT_SAMPLER_GUMBEL`: Argmax of score + Gumbel noise.
    Gumbel,
    /// `DXT_SAMPLER_PERMUTE_AND_FLIP`: McKenna & Sheldon 2020.
    PermuteAndFlip,
}

impl OptionName for Sampler {
    fn option_name(&self) -> String {
        match self {
            Sampler::Gumbel => "gumbel",
            Sampler::PermuteAndFlip => "permute-and-flip",
        }
        .to_string()
    }
}

/// How laplace, vickrey and mahalanobis decode a noisy point to a word. Both are deterministic
/// functions of the noisy point alone (post-processing), so the privacy guarantee is the same; only
/// utility can differ.
///
/// The C API's `dxt_search`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Search {
    /// `DXT_SEARCH_EXACT`: The exact nearest word: a scan of the whole vocabulary (default).
    Exact,
    /// `DXT_SEARCH_IVF`: Approximate: the rows of the ivf_nprobe cells of the model's search index
    /// whose centroids are nearest the noisy point (docs/format.md §10.2; built by `dxtext index`).
    /// The word can differ from the exact one; `dxtext index` and `dxtext bench --search ivf` print
    /// the measured recall. Models without an index give DXT_E_UNSUPPORTED, and so do the other
    /// mechanisms (hyperbolic decodes exactly in hyperbolic distance; exponential, tem and syntf
    /// rate every word).
    Ivf,
}

impl OptionName for Search {
    fn option_name(&self) -> String {
        match self {
            Search::Exact => "exact",
            Search::Ivf => "ivf",
        }
        .to_string()
    }
}

/// What of the input's form a text release copies (dxt_privatize_options.release_shape;
/// docs/guarantees.md, "Release shapes"). 0 selects keep.
///
/// The C API's `dxt_release_shape`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReleaseShape {
    /// `DXT_SHAPE_KEEP`: The text between words verbatim and each word's case shape (lower, Title,
    /// UPPER) restored: DXT_REVEALS_LAYOUT, DXT_REVEALS_CASE_SHAPE.
    Keep,
    /// `DXT_SHAPE_NORMALIZE`: Words joined by one space; a sentence end between two words (or after
    /// the last) becomes ". ", any other punctuation ", "; everything else between words
    /// (whitespace, symbols, quotes, brackets) one space; words as the model spells them, the first
    /// of each sentence capitalised: DXT_REVEALS_SENTENCE_BOUNDARIES,
    /// DXT_REVEALS_CLAUSE_BOUNDARIES.
    Normalize,
    /// `DXT_SHAPE_STRICT`: Words as the model spells them, joined by one space, nothing else: the
    /// text is a function of the mechanism's draws and the number of tokens (and, with a
    /// placeholder or drop policy, of which tokens belong to that class). A keep policy is refused
    /// (DXT_E_INVALID_ARGUMENT).
    Strict,
}

impl ReleaseShape {
    pub(crate) fn from_raw(raw: sys::dxt_release_shape) -> Option<ReleaseShape> {
        Some(match raw {
            sys::DXT_SHAPE_KEEP => ReleaseShape::Keep,
            sys::DXT_SHAPE_NORMALIZE => ReleaseShape::Normalize,
            sys::DXT_SHAPE_STRICT => ReleaseShape::Strict,
            _ => return None,
        })
    }
}

impl OptionName for ReleaseShape {
    fn option_name(&self) -> String {
        match self {
            ReleaseShape::Keep => "keep",
            ReleaseShape::Normalize => "normalize",
            ReleaseShape::Strict => "strict",
        }
        .to_string()
    }
}

/// Named presets (dxt_privatize_options.preset): each bundles a mechanism, epsilon, release shape,
/// output vocabulary and token policies for a common job. Their values are in
/// tools/options/presets.table (docs/options.md, "Presets", lists them; `dxtext presets` prints
/// them), chosen on the default model models/dxtext-en-euclid-100d-40k.dxe, and may be retuned in
/// later versions: the record of every release says which preset and which values were used. With a
/// preset, an option it fixes may only be left at its default or given the preset's value (anything
/// else is refused), and an epsilon, when given, overrides the preset's. The guarantee of a preset
/// is that of its mechanism and release shape (docs/guarantees.md, "Presets").
///
/// The C API's `dxt_preset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Preset {
    /// `DXT_PRESET_READABLE`: Text a person will read.
    Readable,
    /// `DXT_PRESET_FEATURES`: Features for analytics or model training.
    Features,
    /// `DXT_PRESET_STRONGEST`: The strongest privacy of the three.
    Strongest,
}

impl Preset {
    pub(crate) fn from_raw(raw: sys::dxt_preset) -> Option<Preset> {
        Some(match raw {
            sys::DXT_PRESET_READABLE => Preset::Readable,
            sys::DXT_PRESET_FEATURES => Preset::Features,
            sys::DXT_PRESET_STRONGEST => Preset::Strongest,
            _ => return None,
        })
    }
}

impl OptionName for Preset {
    fn option_name(&self) -> String {
        match self {
            Preset::Readable => "readable",
            Preset::Features => "features",
            Preset::Strongest => "strongest",
        }
        .to_string()
    }
}
// generated: end enums

/// An output vocabulary: a public list of a model's words that the
/// mechanisms may release (`Model::output_set`, which checks the words),
/// shared by any number of calls through `Options::output_words`. It must be
/// fixed in advance and never made from the text being privatised
/// (docs/guarantees.md, "Output vocabularies"). Cheap to clone.
#[derive(Clone, Debug)]
pub struct OutputSet {
    pub(crate) words: Arc<[String]>,
}

impl OutputSet {
    /// The words, as given.
    pub fn words(&self) -> &[String] {
        &self.words
    }

    /// The number of words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether the set has no words (never: empty lists are refused).
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

/// The value of an enum option: its name in docs/options.md (`"vickrey"`,
/// `"permute-and-flip"`), or a variant of this crate's enum for it
/// (`Mechanism::Vickrey`, `Sampler::PermuteAndFlip`: the impls are generated
/// with the enums, from the C member's name).
pub trait OptionName {
    fn option_name(&self) -> String;
}

impl<S: AsRef<str>> OptionName for S {
    fn option_name(&self) -> String {
        self.as_ref().to_string()
    }
}

/// The value of a word-list option: an `OutputSet` of the model, or words
/// (a slice, an array, a `Vec`, any iterator of strings).
pub trait OptionWords {
    fn option_words(self) -> Vec<String>;
}

impl OptionWords for &OutputSet {
    fn option_words(self) -> Vec<String> {
        self.words.to_vec()
    }
}

impl<I: IntoIterator<Item = S>, S: AsRef<str>> OptionWords for I {
    fn option_words(self) -> Vec<String> {
        self.into_iter().map(|w| w.as_ref().to_string()).collect()
    }
}

#[derive(Clone, Debug)]
enum OptionValue {
    Text(String),
    Words(Vec<String>),
}

/// Options of a privatisation call, built by chaining (one method per option
/// of docs/options.md, named as there, generated from
/// tools/options/privatize_options.table; `set` sets any option by name):
/// `Options::new(8.0).mechanism(Mechanism::Vickrey).vickrey_t(0.5)`.
/// They reach the library by name (`dxt_options_set`), which checks names
/// and values when a call uses them: an unknown name or a bad value is an
/// `Error` with the library's message. Setting an option twice keeps the
/// last value.
#[derive(Clone, Debug, Default)]
pub struct Options {
    values: Vec<(String, OptionValue)>,
}

impl Options {
    /// The library's defaults (Laplace, privatise everything) with `epsilon`.
    pub fn new(epsilon: f64) -> Options {
        Options::default().epsilon(epsilon)
    }

    /// The options of a preset at its epsilon: `Options::from_preset(Preset::Readable)`;
    /// `.epsilon(e)` overrides the epsilon.
    pub fn from_preset(preset: Preset) -> Options {
        Options::default().preset(preset)
    }

    fn with(mut self, name: &str, value: OptionValue) -> Options {
        self.values.retain(|(n, _)| n != name);
        self.values.push((name.to_string(), value));
        self
    }

    /// Any option by its name in docs/options.md and its value as text: a
    /// number (`"0.75"`), an enum's name (`"permute-and-flip"`) or a string.
    pub fn set(self, name: &str, value: &str) -> Options {
        self.with(name, OptionValue::Text(value.to_string()))
    }

    /// A word-list option by its name.
    pub fn set_words(self, name: &str, words: impl OptionWords) -> Options {
        self.with(name, OptionValue::Words(words.option_words()))
    }

    // `{}` of an f64 is the shortest decimal that reads back exactly.
    fn number(self, name: &str, value: f64) -> Options {
        self.set(name, &format!("{}", value))
    }

    /// The policy of one class of token (the options in_vocabulary, oov,
    /// numbers, stopwords).
    pub fn policy(self, class: TokenClass, policy: Policy) -> Options {
        const NAMES: [&str; 4] = ["in_vocabulary", "oov", "numbers", "stopwords"];
        self.set(NAMES[class as usize], &policy.option_name())
    }

    /// A dxt_options handle of `model` holding these options (dropped after the call).
    pub(crate) fn resolve(&self, model: *mut sys::dxt_model) -> Result<ResolvedOptions> {
        let mut handle = ResolvedOptions { ptr: std::ptr::null_mut() };
        // SAFETY: a live model handle; `out` is writable.
        check(unsafe { sys::dxt_options_create(model, &mut handle.ptr) })?;
        for (name, value) in &self.values {
            let c_name = c_string(name.as_str(), "an option name")?;
            // SAFETY: live handle, NUL-terminated strings (`words.len()` of them).
            check(match value {
                OptionValue::Text(text) => {
                    let text = c_string(text.as_str(), name)?;
                    unsafe { sys::dxt_options_set(handle.ptr, c_name.as_ptr(), text.as_ptr()) }
                }
                OptionValue::Words(words) => {
                    let (_strings, words) = c_strings(words)?;
                    unsafe { sys::dxt_options_set_words(handle.ptr, c_name.as_ptr(), words.as_ptr(), words.len()) }
                }
            })?;
        }
        Ok(handle)
    }

    // generated: options (tools/options/generate.py, from tools/options/privatize_options.table)
    /// the privacy parameter: outputs for w and w' differ by at most epsilon * d(w, w') (default required).
    pub fn epsilon(self, value: f64) -> Options {
        self.number("epsilon", value)
    }

    /// the mechanism (docs/guarantees.md) (default laplace). One of laplace, hyperbolic, exponential, syntf, mahalanobis, vickrey, tem, ordering.
    pub fn mechanism(self, value: impl OptionName) -> Options {
        self.set("mechanism", &value.option_name())
    }

    /// words of the vocabulary (default privatize). One of privatize, placeholder, drop, keep.
    pub fn in_vocabulary(self, value: impl OptionName) -> Options {
        self.set("in_vocabulary", &value.option_name())
    }

    /// out-of-vocabulary words (privatised from one fixed point shared by all of them) (default privatize). One of privatize, placeholder, drop, keep.
    pub fn oov(self, value: impl OptionName) -> Options {
        self.set("oov", &value.option_name())
    }

    /// numbers (default privatize). One of privatize, placeholder, drop, keep.
    pub fn numbers(self, value: impl OptionName) -> Options {
        self.set("numbers", &value.option_name())
    }

    /// stopwords (default privatize). One of privatize, placeholder, drop, keep.
    pub fn stopwords(self, value: impl OptionName) -> Options {
        self.set("stopwords", &value.option_name())
    }

    /// what the placeholder policy writes (default [redacted]). Fails on a NUL byte.
    pub fn placeholder(self, value: &str) -> Result<Options> {
        if value.contains('\0') {
            return Err(Error::invalid_argument("placeholder contains a NUL byte"));
        }
        Ok(self.set("placeholder", value))
    }

    /// tem: the truncation radius gamma (default 0).
    pub fn tem_gamma(self, value: f64) -> Options {
        self.number("tem_gamma", value)
    }

    /// tem: beta of Carvalho et al. 2023 (default 0.001).
    pub fn tem_beta(self, value: f64) -> Options {
        self.number("tem_beta", value)
    }

    /// vickrey: the weight t of the first neighbour (default 0.75).
    pub fn vickrey_t(self, value: f64) -> Options {
        self.number("vickrey_t", value)
    }

    /// mahalanobis: lambda of Sigma_lambda = lambda Sigma + (1 - lambda) I (default 0.75).
    pub fn mahalanobis_lambda(self, value: f64) -> Options {
        self.number("mahalanobis_lambda", value)
    }

    /// syntf: the weight s of the letter-bigram term (default 0.3).
    pub fn syntf_s(self, value: f64) -> Options {
        self.number("syntf_s", value)
    }

    /// exponential: the sampler (default gumbel). One of gumbel, permute-and-flip.
    pub fn sampler(self, value: impl OptionName) -> Options {
        self.set("sampler", &value.option_name())
    }

    /// decoding of laplace, vickrey, mahalanobis: exact, or the model's search index (default exact). One of exact, ivf.
    pub fn search(self, value: impl OptionName) -> Options {
        self.set("search", &value.option_name())
    }

    /// ivf: the index cells scanned (default 0).
    pub fn ivf_nprobe(self, value: u32) -> Options {
        self.set("ivf_nprobe", &value.to_string())
    }

    /// what of the input's form a text shows: keep (spans and case shape verbatim), normalize (one canonical separator per gap, sentence capitals), strict (words only, one space apart); docs/guarantees.md (default keep). One of keep, normalize, strict.
    pub fn release_shape(self, value: impl OptionName) -> Options {
        self.set("release_shape", &value.option_name())
    }

    /// the output vocabulary: release only the N most frequent words of the model (its frequencies section); docs/guarantees.md, "Output vocabularies" (default 0).
    pub fn output_top(self, value: u32) -> Options {
        self.set("output_top", &value.to_string())
    }

    /// the output vocabulary: release only words of a public list the application ships (never one made from the text being privatised); docs/guarantees.md, "Output vocabularies" (default none).
    pub fn output_words(self, words: impl OptionWords) -> Options {
        self.set_words("output_words", words)
    }

    /// a named bundle of mechanism, epsilon, release shape, output vocabulary and token policies (Presets, below): the options it fixes may only be left at their defaults or set to its values; epsilon, when given, overrides its epsilon (default none). One of none, readable, features, strongest.
    pub fn preset(self, value: impl OptionName) -> Options {
        self.set("preset", &value.option_name())
    }

    /// person names (first names, surnames; the model's typed classes section): replace = a name drawn uniformly from the same list, placeholder = [name], drop = nothing (only the word count shows it), privatize = an ordinary word, keep = a named leak; docs/guarantees.md, "Typed replacement" (default privatize). One of privatize, placeholder, replace, keep, drop.
    pub fn names(self, value: impl OptionName) -> Options {
        self.set("names", &value.option_name())
    }

    /// cities, regions, countries: replace = one of the same class drawn uniformly, placeholder = [city] [region] [country] (default privatize). One of privatize, placeholder, replace, keep, drop.
    pub fn places(self, value: impl OptionName) -> Options {
        self.set("places", &value.option_name())
    }

    /// organisations the model lists: replace = one drawn uniformly, placeholder = [organization] (default privatize). One of privatize, placeholder, replace, keep, drop.
    pub fn organizations(self, value: impl OptionName) -> Options {
        self.set("organizations", &value.option_name())
    }

    /// numbers of every shape (digits, amounts, dates, versions, ordinals, number words), phone numbers, month names and clock times: replace = a uniform number (number_shape), month or time of day (in the time's 12- or 24-hour shape), placeholder = [number] [phone] [month] [time]; privatize leaves them to the numbers policy (default privatize). One of privatize, placeholder, replace, keep, drop.
    pub fn typed_numbers(self, value: impl OptionName) -> Options {
        self.set("typed_numbers", &value.option_name())
    }

    /// e-mail addresses, URLs, user handles, street addresses (each one token): replace = one drawn uniformly from a public pattern (name00@example.com, https://example.com/xxxxxx, @name00, 123 Oak Street), placeholder = [email] [url] [handle] [street] (default privatize). One of privatize, placeholder, replace, keep, drop.
    pub fn addresses(self, value: impl OptionName) -> Options {
        self.set("addresses", &value.option_name())
    }

    /// health terms (conditions, drugs; WordNet): replace = one of the same class drawn uniformly, placeholder = [condition] [drug] (default privatize). One of privatize, placeholder, replace, keep, drop.
    pub fn health(self, value: impl OptionName) -> Options {
        self.set("health", &value.option_name())
    }

    /// on: within one call, equal typed tokens get the same replacement (the release then shows which typed tokens were the same entity) (default off). One of off, on.
    pub fn typed_consistent(self, value: impl OptionName) -> Options {
        self.set("typed_consistent", &value.option_name())
    }

    /// what a replaced number keeps: hide (a uniform 0..99; a phone a uniform NNN-NNN-NNNN) or keep (separators and digit count kept, every digit drawn: reveals the shape); a clock time keeps its 12- or 24-hour shape either way, except under the strict shape with hide (a uniform HH:MM) (default hide). One of hide, keep.
    pub fn number_shape(self, value: impl OptionName) -> Options {
        self.set("number_shape", &value.option_name())
    }

    /// the uniform floor p: each privatised word is released, with probability p, as a word drawn uniformly from the output vocabulary (n words), which caps the loss per word at ln(1 + (1 - p) m n / p) nats, m the largest probability of one output (the record's worst_case_per_word); docs/guarantees.md, "The uniform floor" (default 0).
    pub fn floor(self, value: f64) -> Options {
        self.number("floor", value)
    }

    /// negators (not, never, no, nothing, nobody, none, neither, nor, nowhere, without, cannot, nope, nah, words ending in n't): keep = released as written, and no other word is released as one (the output vocabulary leaves them out), so a release keeps exactly its input's negations; reveals which words are negators; not with the strict shape nor syntf; docs/guarantees.md, "Negations" (default privatize). One of privatize, keep.
    pub fn negations(self, value: impl OptionName) -> Options {
        self.set("negations", &value.option_name())
    }

    /// the context prior's strength B: after the release of a word c, each candidate y is weighted by min(1 + B, lift(c, y)), how much more often y follows c in the model's public text, and the law renormalised, so that replacements fit the word before them; c is the word released just before, when only spaces separate them; the loss per word becomes eps * d + min(eps * d, ln(1 + B)); docs/guarantees.md, "The context prior" (default 0).
    pub fn context_prior(self, value: f64) -> Options {
        self.number("context_prior", value)
    }
    // generated: end options
}

/// The options of one call in the library (a dxt_options handle).
pub(crate) struct ResolvedOptions {
    ptr: *mut sys::dxt_options,
}

impl ResolvedOptions {
    /// The struct to pass to the call; valid while `self` is.
    pub(crate) fn get(&self) -> *const sys::dxt_privatize_options {
        // SAFETY: a live handle.
        unsafe { sys::dxt_options_get(self.ptr) }
    }
}

impl Drop for ResolvedOptions {
    fn drop(&mut self) {
        // SAFETY: NULL or a handle of dxt_options_create, destroyed once.
        unsafe { sys::dxt_options_destroy(self.ptr) }
    }
}
