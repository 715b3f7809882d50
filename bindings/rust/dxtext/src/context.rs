// SPDX-License-Identifier: Apache-2.0
//! `Context`: the random-number state of one thread, and the privatisation
//! calls.

use std::os::raw::c_char;
use std::ptr;
use std::sync::Arc;

use dxtext_sys as sys;

use crate::error::{check, Result};
use crate::model::{Model, ModelHandle};
use crate::options::Options;
use crate::report::{Calibration, LocalDiagnostics, ReleaseRecord};
use crate::{initialised, string};

/// Random-number state and scratch space for privatisation calls. Each call
/// takes `&mut self`, so one `Context` serves one thread at a time; it may
/// be moved to another thread (`Send`). Make one per thread from a shared
/// `Model`.
pub struct Context {
    pub(crate) ptr: *mut sys::dxt_context,
    model: Arc<ModelHandle>, // for the options of each call
}

// SAFETY: a dxt_context may be used from any thread, one at a time; &mut self
// on every call makes that so.
unsafe impl Send for Context {}

impl Drop for Context {
    fn drop(&mut self) {
        // SAFETY: ptr came from dxt_context_create and is destroyed once.
        unsafe { sys::dxt_context_destroy(self.ptr) }
    }
}

/// A library-owned string, freed with dxt_text_free.
pub(crate) struct OwnedText(pub(crate) *mut c_char, pub(crate) usize);

impl OwnedText {
    pub(crate) fn new() -> OwnedText {
        OwnedText(ptr::null_mut(), 0)
    }

    pub(crate) fn to_string(&self) -> Result<String> {
        // SAFETY: the library returned `self.1` bytes at `self.0`.
        string(unsafe { std::slice::from_raw_parts(self.0 as *const u8, self.1) }.to_vec())
    }
}

impl Drop for OwnedText {
    fn drop(&mut self) {
        // SAFETY: NULL or a string from the library, freed once.
        unsafe { sys::dxt_text_free(self.0) }
    }
}

/// A library-owned bag, freed with dxt_bag_free.
struct OwnedBag(*mut sys::dxt_bag);

impl OwnedBag {
    fn to_vec(&self) -> Result<Vec<(String, u64)>> {
        // SAFETY: a bag returned by the library: `size` entries of
        // `length`-byte words.
        unsafe {
            let bag = &*self.0;
            let entries = std::slice::from_raw_parts(bag.entries, bag.size);
            let word = |e: &sys::dxt_bag_entry| std::slice::from_raw_parts(e.word as *const u8, e.length).to_vec();
            entries.iter().map(|e| Ok((string(word(e))?, e.count))).collect()
        }
    }
}

impl Drop for OwnedBag {
    fn drop(&mut self) {
        // SAFETY: NULL or a bag from the library, freed once.
        unsafe { sys::dxt_bag_free(self.0) }
    }
}

impl Context {
    /// A context drawing noise from the operating system's CSPRNG (OpenSSL
    /// `RAND_priv_bytes`): the private mode.
    pub fn new(model: &Model) -> Result<Context> {
        Context::create(model, None)
    }

    /// A context whose noise is a keyed stream from `seed`: reproducible,
    /// and NOT private (release records say so). For tests and research only.
    pub fn seeded(model: &Model, seed: [u8; 32]) -> Result<Context> {
        Context::create(model, Some(seed))
    }

    fn create(model: &Model, seed: Option<[u8; 32]>) -> Result<Context> {
        let mut options = initialised(sys::dxt_context_options_init); // the system RNG
        if let Some(seed) = seed {
            options.rng_mode = sys::DXT_RNG_DETERMINISTIC;
            options.seed = seed;
        }
        let mut out = ptr::null_mut();
        // SAFETY: live model handle, initialised options, a writable out pointer.
        let status = unsafe { sys::dxt_context_create(model.handle.ptr, &options, &mut out) };
        // Do not leave the key on the stack (the context has its own copy).
        // SAFETY: a plain write to a live local.
        unsafe { ptr::write_volatile(&mut options.seed, [0; 32]) };
        check(status)?;
        Ok(Context { ptr: out, model: Arc::clone(&model.handle) })
    }

    /// `call` with this context and `options` resolved for its model.
    pub(crate) fn with_options(
        &mut self,
        options: &Options,
        call: impl FnOnce(*mut sys::dxt_context, *const sys::dxt_privatize_options) -> sys::dxt_status,
    ) -> Result<()> {
        let resolved = options.resolve(self.model.ptr)?;
        check(call(self.ptr, resolved.get()))
    }

    /// Privatise UTF-8 text: words are replaced, spacing and punctuation
    /// kept, each word's case shape restored.
    pub fn privatize_text(&mut self, text: &str, options: &Options) -> Result<String> {
        Ok(self.privatize_text_record(text, options, None)?.0)
    }

    /// `privatize_text` with the release record of the call (its bound is
    /// positionwise: eps·Σᵢ d(xᵢ, x'ᵢ)); `diagnostics`, when given, gets the
    /// token counts of the input, which must stay local.
    pub fn privatize_text_record(
        &mut self,
        text: &str,
        options: &Options,
        diagnostics: Option<&mut LocalDiagnostics>,
    ) -> Result<(String, ReleaseRecord)> {
        let mut record = ReleaseRecord::empty();
        let text = self.text_call(false, text, options, record.raw_mut(), diagnostics)?;
        Ok((text, record))
    }

    /// Privatise one word (out-of-vocabulary words follow their policy; a
    /// dropped word gives "").
    pub fn privatize_word(&mut self, word: &str, options: &Options) -> Result<String> {
        self.text_call(true, word, options, ptr::null_mut(), None)
    }

    /// `dxt_privatize_word` when `word`, else `dxt_privatize_text` (they take the same arguments).
    fn text_call(
        &mut self,
        word: bool,
        text: &str,
        options: &Options,
        record: *mut sys::dxt_release_record,
        diagnostics: Option<&mut LocalDiagnostics>,
    ) -> Result<String> {
        let call = if word { sys::dxt_privatize_word } else { sys::dxt_privatize_text };
        let diagnostics = diagnostics.map_or(ptr::null_mut(), |d| d.raw_mut());
        let mut out = OwnedText::new();
        // SAFETY: live context and options, the text with its length, writable outputs.
        self.with_options(options, |context, options| unsafe {
            call(
                context,
                options,
                text.as_ptr() as *const c_char,
                text.len(),
                &mut out.0,
                &mut out.1,
                record,
                diagnostics,
            )
        })?;
        out.to_string()
    }

    /// Privatise the vocabulary word at `index`; the released index.
    pub fn privatize_index(&mut self, index: u32, options: &Options) -> Result<u32> {
        let mut out = 0;
        // SAFETY: live context and options, a writable output.
        self.with_options(options, |context, options| unsafe {
            sys::dxt_privatize_index(context, options, index, &mut out, ptr::null_mut(), ptr::null_mut())
        })?;
        Ok(out)
    }

    /// Privatise a bag of (word, count): each of the N occurrences
    /// independently. The result is merged and sorted by vocabulary index;
    /// the record's bound is eps·N·EMD for bags of equal size N.
    /// `diagnostics`, when given, gets the token counts (keep them local).
    pub fn privatize_bag(
        &mut self,
        bag: &[(&str, u64)],
        options: &Options,
        diagnostics: Option<&mut LocalDiagnostics>,
    ) -> Result<(Vec<(String, u64)>, ReleaseRecord)> {
        self.bag_call(bag, None, options, diagnostics)
    }

    /// SynTF: a synthetic bag of exactly `n_out` words drawn from `bag`
    /// (`options.mechanism` is ignored). The record's bound is
    /// `Bound::AnyInputs` with `epsilon_total` = eps·n_out.
    pub fn syntf(
        &mut self,
        bag: &[(&str, u64)],
        n_out: u32,
        options: &Options,
        diagnostics: Option<&mut LocalDiagnostics>,
    ) -> Result<(Vec<(String, u64)>, ReleaseRecord)> {
        self.bag_call(bag, Some(n_out), options, diagnostics)
    }

    /// `dxt_syntf` with `n_out`, else `dxt_privatize_bag`.
    fn bag_call(
        &mut self,
        bag: &[(&str, u64)],
        n_out: Option<u32>,
        options: &Options,
        diagnostics: Option<&mut LocalDiagnostics>,
    ) -> Result<(Vec<(String, u64)>, ReleaseRecord)> {
        let entries: Vec<sys::dxt_bag_entry> = bag
            .iter()
            .map(|(w, c)| sys::dxt_bag_entry { word: w.as_ptr() as *const c_char, length: w.len(), count: *c })
            .collect();
        let diagnostics = diagnostics.map_or(ptr::null_mut(), |d| d.raw_mut());
        let mut record = ReleaseRecord::empty();
        let mut out = OwnedBag(ptr::null_mut());
        // SAFETY: live context and options, entries pointing into `bag`, writable outputs.
        self.with_options(options, |context, options| unsafe {
            let (entry, count, record) = (entries.as_ptr(), entries.len(), record.raw_mut());
            match n_out {
                Some(n) => sys::dxt_syntf(context, options, entry, count, n, &mut out.0, record, diagnostics),
                None => sys::dxt_privatize_bag(context, options, entry, count, &mut out.0, record, diagnostics),
            }
        })?;
        Ok((out.to_vec()?, record))
    }

    /// N_w and S_w over `words` random vocabulary words, `trials` each.
    pub fn calibrate(&mut self, options: &Options, words: u32, trials: u32) -> Result<Calibration> {
        let mut c = initialised(sys::dxt_calibration_init);
        // SAFETY: live context and options, an initialised output.
        self.with_options(options, |context, options| unsafe {
            sys::dxt_calibrate(context, options, words, trials, &mut c)
        })?;
        Ok(Calibration::from_raw(&c))
    }
}
