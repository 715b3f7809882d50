// SPDX-License-Identifier: Apache-2.0
//! `Ledger`: a privacy budget per scope, kept in a file the app owns
//! (docs/budgets.md).

use std::ffi::CString;
use std::os::raw::c_char;
use std::path::Path;

use dxtext_sys as sys;

use crate::context::{Context, OwnedText};
use crate::error::{check, Error, Result};
use crate::options::Options;
use crate::report::ReleaseRecord;

/// A scope of a ledger file: adds up the epsilon of every release, refuses
/// (`ErrorKind::BudgetExceeded`) a release that would pass the cap before
/// any noise is drawn, and returns the memoised output, at no cost, when the
/// same text is privatised again. Calls take `&mut self`; any number of
/// `Ledger`s, in any number of processes, may share one file.
pub struct Ledger {
    ptr: *mut sys::dxt_ledger,
}

// SAFETY: a dxt_ledger may be used from any thread, one at a time; &mut self
// on every call makes that so.
unsafe impl Send for Ledger {}

impl Drop for Ledger {
    fn drop(&mut self) {
        // SAFETY: ptr came from dxt_ledger_open and is closed once.
        unsafe { sys::dxt_ledger_close(self.ptr) }
    }
}

/// How a ledger is opened: the cap and memo size of a new scope, an app key.
#[derive(Clone, Debug, Default)]
pub struct LedgerOptions {
    /// The cap of a new scope (epsilon summed over releases); default 0.
    pub cap: f64,
    /// Memoised outputs kept for a new scope; `None` = the default (64).
    pub memo_capacity: Option<u32>,
    /// 16 to 64 bytes (e.g. from the platform keystore): makes the file's
    /// MAC unforgeable without it.
    pub key: Option<Vec<u8>>,
}

/// A scope's totals (`dxt_ledger_totals`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LedgerTotals {
    pub cap: f64,
    pub spent: f64,
    pub spent_any_inputs: f64,
    pub releases: u64,
    pub memoised: u64,
    pub memo_capacity: u32,
    pub words: u64,
}

/// The result of `Ledger::privatize_text`.
#[derive(Clone, Debug)]
pub struct LedgerRelease {
    pub text: String,
    /// True when the output came from the memo: nothing drawn or spent.
    pub memoised: bool,
    pub record: ReleaseRecord,
}

fn c_string(s: &str, what: &str) -> Result<CString> {
    CString::new(s).map_err(|_| Error::invalid_argument(format!("the {} contains a NUL character", what)))
}

impl Ledger {
    /// Open (or create) the ledger file at `path` and select `scope`.
    pub fn open(path: impl AsRef<Path>, scope: &str, options: &LedgerOptions) -> Result<Ledger> {
        let path = path.as_ref().to_str().ok_or_else(|| Error::invalid_argument("the path is not UTF-8"))?;
        let path = c_string(path, "path")?;
        let scope = c_string(scope, "scope")?;
        let mut raw = std::mem::MaybeUninit::<sys::dxt_ledger_options>::uninit();
        // SAFETY: a writable struct of the declared size, filled by the call.
        let mut raw = unsafe {
            sys::dxt_ledger_options_init(raw.as_mut_ptr());
            raw.assume_init()
        };
        raw.cap = options.cap;
        if let Some(m) = options.memo_capacity {
            raw.memo_capacity = m;
        }
        if let Some(key) = &options.key {
            raw.key = key.as_ptr();
            raw.key_length = key.len();
        }
        let mut out: *mut sys::dxt_ledger = std::ptr::null_mut();
        // SAFETY: NUL-terminated strings, initialised options whose key
        // outlives the call, a writable out pointer.
        check(unsafe { sys::dxt_ledger_open(path.as_ptr(), scope.as_ptr(), &raw, &mut out) })?;
        Ok(Ledger { ptr: out })
    }

    /// Set the scope's cap (finite, >= 0).
    pub fn set_cap(&mut self, cap: f64) -> Result<()> {
        // SAFETY: live handle.
        check(unsafe { sys::dxt_ledger_set_cap(self.ptr, cap) })
    }

    /// The scope's totals, read from the file.
    pub fn totals(&mut self) -> Result<LedgerTotals> {
        let mut raw = std::mem::MaybeUninit::<sys::dxt_ledger_totals>::uninit();
        // SAFETY: a writable struct of the declared size, filled by init and the call.
        let raw = unsafe {
            sys::dxt_ledger_totals_init(raw.as_mut_ptr());
            check(sys::dxt_ledger_get_totals(self.ptr, raw.as_mut_ptr()))?;
            raw.assume_init()
        };
        Ok(LedgerTotals {
            cap: raw.cap,
            spent: raw.spent,
            spent_any_inputs: raw.spent_any_inputs,
            releases: raw.releases,
            memoised: raw.memoised,
            memo_capacity: raw.memo_capacity,
            words: raw.words,
        })
    }

    /// The scope as one line of JSON (as `dxtext ledger` prints it).
    pub fn to_json(&mut self) -> Result<String> {
        let mut required = 0usize;
        // SAFETY: a size query with no buffer.
        let status = unsafe { sys::dxt_ledger_to_json(self.ptr, std::ptr::null_mut(), 0, &mut required) };
        if status != sys::DXT_E_INPUT_TOO_LARGE {
            check(status)?;
        }
        let mut buffer = vec![0u8; required];
        // SAFETY: a writable buffer of `required` bytes.
        check(unsafe {
            sys::dxt_ledger_to_json(self.ptr, buffer.as_mut_ptr() as *mut c_char, buffer.len(), &mut required)
        })?;
        buffer.truncate(required.saturating_sub(1));
        String::from_utf8(buffer).map_err(|_| Error::invalid_argument("the ledger JSON is not UTF-8"))
    }

    /// `Context::privatize_text` through the ledger; `fresh` draws anew
    /// (and spends) even when the text is memoised.
    pub fn privatize_text(
        &mut self,
        context: &mut Context,
        text: &str,
        options: &Options,
        fresh: bool,
    ) -> Result<LedgerRelease> {
        let resolved = options.resolve(context.model_ptr())?;
        let mut record = ReleaseRecord::empty();
        let mut out: *mut c_char = std::ptr::null_mut();
        let mut length = 0usize;
        let mut memoised = false;
        // SAFETY: live handles, options valid while `options` is, text passed
        // with its length, writable outputs.
        let status = unsafe {
            sys::dxt_ledger_privatize_text(
                self.ptr,
                context.ptr,
                resolved.get(),
                text.as_ptr() as *const c_char,
                text.len(),
                if fresh { sys::DXT_LEDGER_FRESH } else { 0 },
                &mut out,
                &mut length,
                &mut memoised,
                record.raw_mut(),
                std::ptr::null_mut(),
            )
        };
        let owned = OwnedText(out, length);
        check(status)?;
        Ok(LedgerRelease { text: owned.to_string()?, memoised, record })
    }
}
