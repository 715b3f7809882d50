// SPDX-License-Identifier: Apache-2.0
//! `Model`: an opened `.dxe` embedding model, shared freely between threads.

use std::ffi::{CStr, CString};
use std::os::raw::c_char;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use dxtext_sys as sys;

use crate::error::{check, Error, Result};
use crate::options::{OutputSet, OutputSetHandle};

// generated: enums (tools/options/generate.py, from include/dxtext/dxtext.h)
/// The geometry of a model's embedding space (dxt_model_info.geometry).
///
/// The C API's `dxt_geometry`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Geometry {
    /// `DXT_GEOMETRY_EUCLIDEAN`: Euclidean space.
    Euclidean,
    /// `DXT_GEOMETRY_POINCARE`: The Poincare ball: hyperbolic space.
    Poincare,
    /// `DXT_GEOMETRY_UNKNOWN`, or a value this crate does not know (a newer library).
    Unknown,
}

impl Geometry {
    pub(crate) fn from_raw(raw: sys::dxt_geometry) -> Geometry {
        match raw {
            sys::DXT_GEOMETRY_EUCLIDEAN => Geometry::Euclidean,
            sys::DXT_GEOMETRY_POINCARE => Geometry::Poincare,
            _ => Geometry::Unknown,
        }
    }

    pub(crate) fn to_raw(self) -> Option<sys::dxt_geometry> {
        match self {
            Geometry::Euclidean => Some(sys::DXT_GEOMETRY_EUCLIDEAN),
            Geometry::Poincare => Some(sys::DXT_GEOMETRY_POINCARE),
            Geometry::Unknown => None,
        }
    }
}
// generated: end enums

/// Facts about a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelInfo {
    pub format_major: u32,
    pub format_minor: u32,
    pub dimension: u32,
    pub vocabulary_size: u32,
    pub geometry: Geometry,
    /// The vocabulary is lowercase; lookups fold case.
    pub lowercase: bool,
    pub has_frequencies: bool,
}

/// The C handle, and for models opened from bytes, the aligned copy of them
/// (it must outlive the handle and every context made from it).
pub(crate) struct ModelHandle {
    pub(crate) ptr: *mut sys::dxt_model,
    _buffer: Option<Vec<u64>>,
}

// SAFETY: a dxt_model is immutable after open and documented as safe to
// share between threads; the buffer is never written after open.
unsafe impl Send for ModelHandle {}
unsafe impl Sync for ModelHandle {}

impl Drop for ModelHandle {
    fn drop(&mut self) {
        // SAFETY: ptr came from a successful open and is closed once.
        unsafe { sys::dxt_model_close(self.ptr) }
    }
}

/// An opened model. Cloning is cheap (the handle is reference-counted) and a
/// `Model` may be used from any number of threads; each thread makes its own
/// `Context` from it.
#[derive(Clone)]
pub struct Model {
    pub(crate) handle: Arc<ModelHandle>,
    path: Option<PathBuf>,
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model").field("path", &self.path).finish()
    }
}

fn path_to_cstring(path: &Path) -> Result<CString> {
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = path.to_str().ok_or_else(|| Error::invalid_argument("the path is not valid UTF-8"))?.as_bytes().to_vec();
    CString::new(bytes).map_err(|_| Error::invalid_argument("the path contains a NUL byte"))
}

fn open_options(verify_digests: bool) -> sys::dxt_model_open_options {
    let mut o = std::mem::MaybeUninit::<sys::dxt_model_open_options>::uninit();
    // SAFETY: a writable struct of the declared size, filled by the call.
    let mut o = unsafe {
        sys::dxt_model_open_options_init(o.as_mut_ptr());
        o.assume_init()
    };
    o.flags = if verify_digests { sys::DXT_OPEN_VERIFY_DIGESTS } else { 0 };
    o
}

impl Model {
    /// Memory-map and validate the model file at `path`.
    pub fn open(path: impl AsRef<Path>) -> Result<Model> {
        Model::open_with(path, false)
    }

    /// Like `open`; `verify_digests` also checks every section's SHA-256
    /// (reads the whole file).
    pub fn open_with(path: impl AsRef<Path>, verify_digests: bool) -> Result<Model> {
        let path = path.as_ref();
        let c_path = path_to_cstring(path)?;
        let options = open_options(verify_digests);
        let mut out: *mut sys::dxt_model = std::ptr::null_mut();
        // SAFETY: valid NUL-terminated path, options and out pointer.
        check(unsafe { sys::dxt_model_open_file(c_path.as_ptr(), &options, &mut out) })?;
        Ok(Model { handle: Arc::new(ModelHandle { ptr: out, _buffer: None }), path: Some(path.to_path_buf()) })
    }

    /// Open a model held in memory; the bytes are copied into an aligned
    /// buffer the model keeps.
    pub fn from_bytes(bytes: &[u8]) -> Result<Model> {
        let mut buffer: Vec<u64> = vec![0; (bytes.len() + 7) / 8];
        // SAFETY: the Vec<u64> holds at least bytes.len() bytes.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), buffer.as_mut_ptr() as *mut u8, bytes.len()) };
        let options = open_options(false);
        let mut out: *mut sys::dxt_model = std::ptr::null_mut();
        // SAFETY: the buffer is 8-byte aligned and kept (never written) for
        // as long as the handle, which the contexts keep alive too.
        check(unsafe { sys::dxt_model_open_memory(buffer.as_ptr() as *const _, bytes.len(), &options, &mut out) })?;
        Ok(Model { handle: Arc::new(ModelHandle { ptr: out, _buffer: Some(buffer) }), path: None })
    }

    /// The default model for `geometry`: the file `default_model_path`
    /// finds (`DXTEXT_MODEL`, or a model beside the library); else, for
    /// `Geometry::Euclidean` with the `bundled-model` feature (the default),
    /// the model compiled into the binary.
    pub fn open_default(geometry: Geometry) -> Result<Model> {
        match default_model_path(geometry) {
            Ok(path) => Model::open(path),
            Err(e) => match (geometry, sys::BUNDLED_MODEL) {
                (Geometry::Euclidean, Some(bytes)) if std::env::var_os("DXTEXT_MODEL").is_none() => {
                    Model::from_static(bytes)
                }
                _ => Err(e),
            },
        }
    }

    /// Open a model from bytes that live as long as the program and are
    /// 8-byte aligned (as `dxtext_sys::BUNDLED_MODEL` is), without copying
    /// them; unaligned bytes are copied as by `from_bytes`.
    pub fn from_static(bytes: &'static [u8]) -> Result<Model> {
        if bytes.as_ptr() as usize % 8 != 0 {
            return Model::from_bytes(bytes);
        }
        let options = open_options(false);
        let mut out: *mut sys::dxt_model = std::ptr::null_mut();
        // SAFETY: the bytes are aligned, never written and live forever.
        check(unsafe { sys::dxt_model_open_memory(bytes.as_ptr() as *const _, bytes.len(), &options, &mut out) })?;
        Ok(Model { handle: Arc::new(ModelHandle { ptr: out, _buffer: None }), path: None })
    }

    /// The file the model was opened from, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    pub fn info(&self) -> Result<ModelInfo> {
        let mut raw = std::mem::MaybeUninit::<sys::dxt_model_info>::uninit();
        // SAFETY: a writable struct of the declared size, filled by the call.
        let mut raw = unsafe {
            sys::dxt_model_info_init(raw.as_mut_ptr());
            raw.assume_init()
        };
        // SAFETY: live handle, initialised struct.
        check(unsafe { sys::dxt_model_get_info(self.handle.ptr, &mut raw) })?;
        Ok(ModelInfo {
            format_major: raw.format_major,
            format_minor: raw.format_minor,
            dimension: raw.dimension,
            vocabulary_size: raw.vocabulary_size,
            geometry: Geometry::from_raw(raw.geometry),
            lowercase: raw.lowercase,
            has_frequencies: raw.has_frequencies,
        })
    }

    /// SHA-256 of the model file: its fingerprint in release records.
    pub fn fingerprint(&self) -> Result<[u8; 32]> {
        let mut out = [0u8; 32];
        // SAFETY: live handle, 32 writable bytes.
        check(unsafe { sys::dxt_model_fingerprint(self.handle.ptr, out.as_mut_ptr()) })?;
        Ok(out)
    }

    /// The vocabulary index of `word` (case folded for lowercase models).
    pub fn lookup(&self, word: &str) -> Result<u32> {
        let mut index = 0u32;
        // SAFETY: word is passed with its length; index is writable.
        check(unsafe { sys::dxt_model_lookup(self.handle.ptr, word.as_ptr() as *const c_char, word.len(), &mut index) })?;
        Ok(index)
    }

    /// The word at `index`.
    pub fn word(&self, index: u32) -> Result<&str> {
        let mut word: *const c_char = std::ptr::null();
        let mut length = 0usize;
        // SAFETY: live handle, writable outputs.
        check(unsafe { sys::dxt_model_word(self.handle.ptr, index, &mut word, &mut length) })?;
        // SAFETY: the library returns `length` bytes of UTF-8 inside the
        // model, which lives as long as `self`.
        let bytes = unsafe { std::slice::from_raw_parts(word as *const u8, length) };
        std::str::from_utf8(bytes).map_err(|_| Error::invalid_argument("the model's word is not UTF-8"))
    }

    /// An output vocabulary of this model (`Options::output_words`): `words`,
    /// a public list fixed in advance. An empty list, a word not in the model
    /// and a word given twice are refused (`ErrorKind::InvalidArgument`).
    pub fn output_set<S: AsRef<str>>(&self, words: &[S]) -> Result<OutputSet> {
        let owned: Vec<String> = words.iter().map(|w| w.as_ref().to_owned()).collect();
        let c_words = owned
            .iter()
            .map(|w| CString::new(w.as_str()).map_err(|_| Error::invalid_argument("an output word contains a NUL byte")))
            .collect::<Result<Vec<CString>>>()?;
        let pointers: Vec<*const c_char> = c_words.iter().map(|c| c.as_ptr()).collect();
        let mut out: *mut sys::dxt_output_set = std::ptr::null_mut();
        // SAFETY: `pointers` holds `len` NUL-terminated strings that outlive the
        // call; the set keeps its own reference to the model.
        check(unsafe { sys::dxt_output_set_create(self.handle.ptr, pointers.as_ptr(), pointers.len(), &mut out) })?;
        Ok(OutputSet { inner: Arc::new(OutputSetHandle { ptr: out, words: owned }) })
    }
}

/// The path of the default model for `geometry`: `$DXTEXT_MODEL` if set,
/// else the newest `dxtext-en-euclid-*.dxe` (Euclidean) or
/// `dxtext-wordnet-poincare-*.dxe` (Poincaré) of the installed models
/// directory, then of the source tree's `models/`.
pub fn default_model_path(geometry: Geometry) -> Result<PathBuf> {
    let raw = geometry.to_raw().ok_or_else(|| Error::invalid_argument("geometry must be Euclidean or Poincare"))?;
    let mut buffer: Vec<u8> = vec![0; 512];
    loop {
        let mut required = 0usize;
        // SAFETY: buffer.len() writable bytes.
        let status = unsafe {
            sys::dxt_default_model_path(raw, buffer.as_mut_ptr() as *mut c_char, buffer.len(), &mut required)
        };
        if status == sys::DXT_E_INPUT_TOO_LARGE && required > buffer.len() {
            buffer.resize(required, 0);
            continue;
        }
        check(status)?;
        let c = CStr::from_bytes_with_nul(&buffer[..required]).map_err(|_| Error::invalid_argument("bad path"))?;
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            return Ok(PathBuf::from(std::ffi::OsStr::from_bytes(c.to_bytes())));
        }
        #[cfg(not(unix))]
        return Ok(PathBuf::from(c.to_string_lossy().into_owned()));
    }
}
