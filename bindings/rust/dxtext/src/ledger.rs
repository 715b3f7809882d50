// SPDX-License-Identifier: Apache-2.0
//! `Ledger`: a privacy budget per scope, kept in a file the app owns
//! (docs/budgets.md).

use std::os::raw::c_char;
use std::path::Path;

use dxtext_sys as sys;

use crate::context::{Context, OwnedText};
use crate::error::{check, Result};
use crate::model::c_path;
use crate::options::Options;
use crate::report::ReleaseRecord;
use crate::{c_string, initialised, string, written};

/// A scope of a ledger file: adds up the epsilon of every release, refuses
/// (`ErrorKind::BudgetExceeded`) a release that would pass the cap before
/// any noise is drawn, and returns the memoised output, at no cost, when the
/// same text is privatised again. Calls take `&mut self`; any number of
/// `Ledger`s, in any number of processes, may share one file.
///
/// Store [`Ledger::anchor`]`()?.to_bytes()` outside the file after every
/// call and give it back in [`LedgerOptions::anchor`] at the next open: an
/// older copy of the file put back (or the file deleted) then fails with
/// `ErrorKind::LedgerRollback`. Without an anchor a rollback is not detected
/// (docs/budgets.md, "Rollback").
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

/// What the app keeps outside the ledger file to detect a rollback (an older
/// copy of the file put back, or the file deleted): take it with
/// [`Ledger::anchor`] after every call, store [`LedgerAnchor::to_bytes`]
/// where the file's writer cannot change it (a keystore, a server), and give
/// [`LedgerAnchor::from_bytes`] of it back in [`LedgerOptions::anchor`].
/// Without it a rollback is not detected (docs/budgets.md, "Rollback").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LedgerAnchor {
    /// Names the ledger: the same for every copy of its file.
    pub ledger_id: [u8; 16],
    /// Commits made to the ledger; only grows.
    pub commits: u64,
    /// Epsilon spent over all its scopes; only grows.
    pub spent: f64,
}

impl LedgerAnchor {
    /// The length of [`LedgerAnchor::to_bytes`].
    pub const BYTES: usize = 32;

    /// The 32 bytes to store: the id, then the commits and the spent total
    /// (little-endian), as `dxt_ledger_anchor_encode` writes them.
    pub fn to_bytes(&self) -> [u8; 32] {
        let raw = self.raw();
        let mut out = [0u8; 32];
        // SAFETY: a live, initialised struct; out holds 32 writable bytes.
        let status = unsafe { sys::dxt_ledger_anchor_encode(&raw, out.as_mut_ptr(), out.len()) };
        debug_assert_eq!(status, sys::DXT_OK);
        out
    }

    /// The anchor from the 32 bytes `to_bytes` gave (`dxt_ledger_anchor_decode`);
    /// `ErrorKind::InvalidArgument` for any other length or a spent total
    /// that is negative or not finite.
    pub fn from_bytes(bytes: &[u8]) -> Result<LedgerAnchor> {
        // SAFETY: bytes.len() readable bytes.
        LedgerAnchor::read(|raw| unsafe { sys::dxt_ledger_anchor_decode(bytes.as_ptr(), bytes.len(), raw) })
    }

    /// The anchor `read` writes into an initialised struct.
    fn read(read: impl FnOnce(&mut sys::dxt_ledger_anchor) -> sys::dxt_status) -> Result<LedgerAnchor> {
        let mut raw = initialised(sys::dxt_ledger_anchor_init);
        check(read(&mut raw))?;
        Ok(LedgerAnchor { ledger_id: raw.ledger_id, commits: raw.commits, spent: raw.spent })
    }

    fn raw(&self) -> sys::dxt_ledger_anchor {
        let anchor = initialised(sys::dxt_ledger_anchor_init);
        sys::dxt_ledger_anchor { ledger_id: self.ledger_id, commits: self.commits, spent: self.spent, ..anchor }
    }
}

/// How a ledger is opened: the cap and memo size of a new scope, an app key,
/// the anchor stored after the last call.
#[derive(Clone, Debug, Default)]
pub struct LedgerOptions {
    /// The cap of a new scope (epsilon summed over releases); default 0.
    pub cap: f64,
    /// Memoised outputs kept for a new scope; `None` = the default (64).
    pub memo_capacity: Option<u32>,
    /// 16 to 64 bytes (e.g. from the platform keystore): makes the file's
    /// MAC unforgeable without it.
    pub key: Option<Vec<u8>>,
    /// The anchor stored after the last call on this ledger: a file older
    /// than it fails with `ErrorKind::LedgerRollback`, and a missing file is
    /// not made anew. `None`: a rollback is not detected.
    pub anchor: Option<LedgerAnchor>,
}

/// A scope's totals (`dxt_ledger_totals`).
#[derive(Clone, Copy, Debug, PartialEq)]
// generated: LedgerTotals (tools/options/generate.py, from include/dxtext/dxtext.h)
pub struct LedgerTotals {
    pub cap: f64,
    /// Sum of the costs of all releases.
    pub spent: f64,
    /// The part of spent from ANY_INPUTS releases.
    pub spent_any_inputs: f64,
    /// Releases counted (memoised repeats are not).
    pub releases: u64,
    /// Outputs in the memo now.
    pub memoised: u64,
    pub memo_capacity: u32,
    /// Words privatised over all releases.
    pub words: u64,
}

impl LedgerTotals {
    pub(crate) fn from_raw(raw: &sys::dxt_ledger_totals) -> LedgerTotals {
        LedgerTotals {
            cap: raw.cap,
            spent: raw.spent,
            spent_any_inputs: raw.spent_any_inputs,
            releases: raw.releases,
            memoised: raw.memoised,
            memo_capacity: raw.memo_capacity,
            words: raw.words,
        }
    }
}
// generated: end LedgerTotals

/// The result of `Ledger::privatize_text`.
#[derive(Clone, Debug)]
pub struct LedgerRelease {
    pub text: String,
    /// True when the output came from the memo: nothing drawn or spent.
    pub memoised: bool,
    pub record: ReleaseRecord,
}

impl Ledger {
    /// Open (or create) the ledger file at `path` and select `scope`.
    pub fn open(path: impl AsRef<Path>, scope: &str, options: &LedgerOptions) -> Result<Ledger> {
        let path = c_path(path.as_ref())?;
        let scope = c_string(scope, "the scope")?;
        let mut raw = initialised(sys::dxt_ledger_options_init);
        raw.cap = options.cap;
        raw.memo_capacity = options.memo_capacity.unwrap_or(raw.memo_capacity);
        if let Some(key) = &options.key {
            raw.key = key.as_ptr();
            raw.key_length = key.len();
        }
        let anchor = options.anchor.map(|a| a.raw());
        if let Some(a) = &anchor {
            raw.anchor = a;
        }
        let mut out = std::ptr::null_mut();
        // SAFETY: NUL-terminated strings, initialised options whose key and
        // anchor outlive the call, a writable out pointer.
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
        let mut raw = initialised(sys::dxt_ledger_totals_init);
        // SAFETY: a live handle and an initialised struct the call fills.
        check(unsafe { sys::dxt_ledger_get_totals(self.ptr, &mut raw) })?;
        Ok(LedgerTotals::from_raw(&raw))
    }

    /// The ledger's anchor now, read from the file: store its `to_bytes()`
    /// outside the file after every call, replacing the one before, and give
    /// it back in `LedgerOptions::anchor` next time. `ErrorKind::LedgerRollback`
    /// when the file is older than what this handle last saw.
    pub fn anchor(&mut self) -> Result<LedgerAnchor> {
        // SAFETY: a live ledger.
        LedgerAnchor::read(|raw| unsafe { sys::dxt_ledger_get_anchor(self.ptr, raw) })
    }

    /// The scope as one line of JSON (as `dxtext ledger` prints it).
    pub fn to_json(&mut self) -> Result<String> {
        // SAFETY: a live ledger; the buffer and its capacity from `written`.
        string(written(|buffer, capacity, required| unsafe {
            sys::dxt_ledger_to_json(self.ptr, buffer, capacity, required)
        })?)
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
        let flags = if fresh { sys::DXT_LEDGER_FRESH } else { 0 };
        let mut out = OwnedText::new();
        let mut memoised = false;
        let mut record = ReleaseRecord::empty();
        // SAFETY: live handles and options, the text with its length, writable outputs.
        context.with_options(options, |context, options| unsafe {
            sys::dxt_ledger_privatize_text(
                self.ptr,
                context,
                options,
                text.as_ptr() as *const c_char,
                text.len(),
                flags,
                &mut out.0,
                &mut out.1,
                &mut memoised,
                record.raw_mut(),
                std::ptr::null_mut(),
            )
        })?;
        Ok(LedgerRelease { text: out.to_string()?, memoised, record })
    }
}
