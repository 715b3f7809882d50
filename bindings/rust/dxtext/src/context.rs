// SPDX-License-Identifier: Apache-2.0
//! `Context`: the random-number state of one thread, and the privatisation
//! calls.

use std::os::raw::c_char;
use std::sync::Arc;

use dxtext_sys as sys;

use crate::error::{check, Error, Result};
use crate::model::{Model, ModelHandle};
use crate::options::Options;
use crate::report::{Calibration, LocalDiagnostics, ReleaseRecord};

/// Random-number state and scratch space for privatisation calls. Each call
/// takes `&mut self`, so one `Context` serves one thread at a time; it may
/// be moved to another thread (`Send`). Make one per thread from a shared
/// `Model`.
pub struct Context {
    pub(crate) ptr: *mut sys::dxt_context,
    model: Arc<ModelHandle>, // keeps a from_bytes buffer alive
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
    pub(crate) fn to_string(&self) -> Result<String> {
        // SAFETY: the library returned `self.1` bytes at `self.0`.
        let bytes = unsafe { std::slice::from_raw_parts(self.0 as *const u8, self.1) };
        String::from_utf8(bytes.to_vec()).map_err(|_| Error::invalid_argument("the result is not UTF-8"))
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
            entries
                .iter()
                .map(|e| {
                    let bytes = std::slice::from_raw_parts(e.word as *const u8, e.length);
                    let word = String::from_utf8(bytes.to_vec())
                        .map_err(|_| Error::invalid_argument("a result word is not UTF-8"))?;
                    Ok((word, e.count))
                })
                .collect()
        }
    }
}

impl Drop for OwnedBag {
    fn drop(&mut self) {
        // SAFETY: NULL or a bag from the library, freed once.
        unsafe { sys::dxt_bag_free(self.0) }
    }
}

/// `dxt_privatize_text` and `dxt_privatize_word`, which take the same arguments.
type TextCall = unsafe extern "C" fn(
    *mut sys::dxt_context,
    *const sys::dxt_privatize_options,
    *const c_char,
    usize,
    *mut *mut c_char,
    *mut usize,
    *mut sys::dxt_release_record,
    *mut sys::dxt_local_diagnostics,
) -> sys::dxt_status;

fn bag_entries(bag: &[(&str, u64)]) -> Vec<sys::dxt_bag_entry> {
    bag.iter()
        .map(|(w, c)| sys::dxt_bag_entry { word: w.as_ptr() as *const c_char, length: w.len(), count: *c })
        .collect()
}

impl Context {
    /// The model's handle, for the options of a call.
    pub(crate) fn model_ptr(&self) -> *mut sys::dxt_model {
        self.model.ptr
    }

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
        let mut out: *mut sys::dxt_context = std::ptr::null_mut();
        let status = match seed {
            None => {
                // SAFETY: live model handle; NULL options select the system RNG.
                unsafe { sys::dxt_context_create(model.handle.ptr, std::ptr::null(), &mut out) }
            }
            Some(seed) => {
                let mut o = std::mem::MaybeUninit::<sys::dxt_context_options>::uninit();
                // SAFETY: a writable struct of the declared size, filled by the call.
                let mut o = unsafe {
                    sys::dxt_context_options_init(o.as_mut_ptr());
                    o.assume_init()
                };
                o.rng_mode = sys::DXT_RNG_DETERMINISTIC;
                o.seed = seed;
                // SAFETY: live model handle, initialised options.
                let status = unsafe { sys::dxt_context_create(model.handle.ptr, &o, &mut out) };
                // Do not leave the key on the stack (the context has its own copy).
                // SAFETY: a plain write to a live local.
                unsafe { std::ptr::write_volatile(&mut o.seed, [0; 32]) };
                status
            }
        };
        check(status)?;
        Ok(Context { ptr: out, model: Arc::clone(&model.handle) })
    }

    /// Privatise UTF-8 text: words are replaced, spacing and punctuation
    /// kept, each word's case shape restored.
    pub fn privatize_text(&mut self, text: &str, options: &Options) -> Result<String> {
        self.text_call(sys::dxt_privatize_text, text, options, None, None)
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
        let out = self.text_call(sys::dxt_privatize_text, text, options, Some(&mut record), diagnostics)?;
        Ok((out, record))
    }

    fn text_call(
        &mut self,
        call: TextCall,
        text: &str,
        options: &Options,
        record: Option<&mut ReleaseRecord>,
        diagnostics: Option<&mut LocalDiagnostics>,
    ) -> Result<String> {
        let resolved = options.resolve(self.model.ptr)?;
        let mut out: *mut c_char = std::ptr::null_mut();
        let mut length = 0usize;
        let record_ptr = record.map_or(std::ptr::null_mut(), |r| r.raw_mut());
        let diagnostics_ptr = diagnostics.map_or(std::ptr::null_mut(), |d| d.raw_mut());
        // SAFETY: live context, options valid while `options` is, text
        // passed with its length, writable outputs.
        let status = unsafe {
            call(
                self.ptr,
                resolved.get(),
                text.as_ptr() as *const c_char,
                text.len(),
                &mut out,
                &mut length,
                record_ptr,
                diagnostics_ptr,
            )
        };
        let owned = OwnedText(out, length);
        check(status)?;
        owned.to_string()
    }

    /// Privatise one word (out-of-vocabulary words follow their policy; a
    /// dropped word gives "").
    pub fn privatize_word(&mut self, word: &str, options: &Options) -> Result<String> {
        self.text_call(sys::dxt_privatize_word, word, options, None, None)
    }

    /// Privatise the vocabulary word at `index`; the released index.
    pub fn privatize_index(&mut self, index: u32, options: &Options) -> Result<u32> {
        let resolved = options.resolve(self.model.ptr)?;
        let mut out = 0u32;
        // SAFETY: live context, valid options, writable output.
        check(unsafe { sys::dxt_privatize_index(self.ptr, resolved.get(), index, &mut out, std::ptr::null_mut(), std::ptr::null_mut()) })?;
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
        let resolved = options.resolve(self.model.ptr)?;
        let entries = bag_entries(bag);
        let mut record = ReleaseRecord::empty();
        let diagnostics_ptr = diagnostics.map_or(std::ptr::null_mut(), |d| d.raw_mut());
        let mut out: *mut sys::dxt_bag = std::ptr::null_mut();
        // SAFETY: entries point into `bag`, alive for the call.
        let status = unsafe {
            sys::dxt_privatize_bag(
                self.ptr,
                resolved.get(),
                entries.as_ptr(),
                entries.len(),
                &mut out,
                record.raw_mut(),
                diagnostics_ptr,
            )
        };
        let owned = OwnedBag(out);
        check(status)?;
        Ok((owned.to_vec()?, record))
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
        let resolved = options.resolve(self.model.ptr)?;
        let entries = bag_entries(bag);
        let mut record = ReleaseRecord::empty();
        let diagnostics_ptr = diagnostics.map_or(std::ptr::null_mut(), |d| d.raw_mut());
        let mut out: *mut sys::dxt_bag = std::ptr::null_mut();
        // SAFETY: as in privatize_bag.
        let status = unsafe {
            sys::dxt_syntf(
                self.ptr,
                resolved.get(),
                entries.as_ptr(),
                entries.len(),
                n_out,
                &mut out,
                record.raw_mut(),
                diagnostics_ptr,
            )
        };
        let owned = OwnedBag(out);
        check(status)?;
        Ok((owned.to_vec()?, record))
    }

    /// N_w and S_w over `words` random vocabulary words, `trials` each.
    pub fn calibrate(&mut self, options: &Options, words: u32, trials: u32) -> Result<Calibration> {
        let resolved = options.resolve(self.model.ptr)?;
        let mut c = std::mem::MaybeUninit::<sys::dxt_calibration>::uninit();
        // SAFETY: a writable struct of the declared size, filled by the call.
        let mut c = unsafe {
            sys::dxt_calibration_init(c.as_mut_ptr());
            c.assume_init()
        };
        // SAFETY: live context, valid options, initialised output.
        check(unsafe { sys::dxt_calibrate(self.ptr, resolved.get(), words, trials, &mut c) })?;
        Ok(Calibration {
            words: c.words,
            trials: c.trials,
            keep_mean: c.keep_mean,
            keep_median: c.keep_median,
            keep_max: c.keep_max,
            distinct_mean: c.distinct_mean,
            distinct_median: c.distinct_median,
            distinct_max: c.distinct_max,
        })
    }
}
