// SPDX-License-Identifier: Apache-2.0
//! `Model`: an opened `.dxe` embedding model, shared freely between threads.

use std::ffi::CString;
use std::os::raw::c_char;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use dxtext_sys as sys;

use crate::error::{check, Error, Result};
use crate::options::OutputSet;
use crate::{c_string, c_strings, initialised, written};

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

/// The C API's `dxt_quantization`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantization {
    /// `DXT_QUANT_F32`.
    F32,
    /// `DXT_QUANT_F16`.
    F16,
    /// `DXT_QUANT_INT8`: int8 with one f32 scale per row.
    Int8,
    /// `DXT_QUANT_UNKNOWN`, or a value this crate does not know (a newer library).
    Unknown,
}

impl Quantization {
    pub(crate) fn from_raw(raw: sys::dxt_quantization) -> Quantization {
        match raw {
            sys::DXT_QUANT_F32 => Quantization::F32,
            sys::DXT_QUANT_F16 => Quantization::F16,
            sys::DXT_QUANT_INT8 => Quantization::Int8,
            _ => Quantization::Unknown,
        }
    }
}
// generated: end enums

/// Facts about a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// generated: ModelInfo (tools/options/generate.py, from include/dxtext/dxtext.h)
pub struct ModelInfo {
    pub format_major: u32,
    pub format_minor: u32,
    pub dimension: u32,
    pub vocabulary_size: u32,
    pub geometry: Geometry,
    pub quantization: Quantization,
    /// Vocabulary is lowercase; lookups fold case.
    pub lowercase: bool,
    pub has_frequencies: bool,
}

impl ModelInfo {
    pub(crate) fn from_raw(raw: &sys::dxt_model_info) -> ModelInfo {
        ModelInfo {
            format_major: raw.format_major,
            format_minor: raw.format_minor,
            dimension: raw.dimension,
            vocabulary_size: raw.vocabulary_size,
            geometry: Geometry::from_raw(raw.geometry),
            quantization: Quantization::from_raw(raw.quantization),
            lowercase: raw.lowercase,
            has_frequencies: raw.has_frequencies,
        }
    }
}
// generated: end ModelInfo

/// The C handle.
pub(crate) struct ModelHandle {
    pub(crate) ptr: *mut sys::dxt_model,
}

// SAFETY: a dxt_model is immutable after open and documented as safe to
// share between threads.
unsafe impl Send for ModelHandle {}
unsafe impl Sync for ModelHandle {}

impl Drop for ModelHandle {
    fn drop(&mut self) {
        // SAFETY: ptr came from a successful open and is closed once (the
        // library keeps the model for the contexts still using it).
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

/// A path as the C calls take it: its bytes on Unix, else its UTF-8.
pub(crate) fn c_path(path: &Path) -> Result<CString> {
    #[cfg(unix)]
    let bytes = std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str());
    #[cfg(not(unix))]
    let bytes = path.to_str().ok_or_else(|| Error::invalid_argument("the path is not valid UTF-8"))?.as_bytes();
    c_string(bytes, "the path")
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
        let c_path = c_path(path)?;
        let flags = if verify_digests { sys::DXT_OPEN_VERIFY_DIGESTS } else { 0 };
        // SAFETY: a NUL-terminated path.
        let mut model =
            Model::opened(flags, |options, out| unsafe { sys::dxt_model_open_file(c_path.as_ptr(), options, out) })?;
        model.path = Some(path.to_path_buf());
        Ok(model)
    }

    /// Open a model held in memory; the library copies the bytes
    /// (`DXT_OPEN_PRIVATE_COPY`).
    pub fn from_bytes(bytes: &[u8]) -> Result<Model> {
        // SAFETY: any bytes, copied by the call.
        Model::opened(sys::DXT_OPEN_PRIVATE_COPY, |options, out| unsafe {
            sys::dxt_model_open_memory(bytes.as_ptr() as *const _, bytes.len(), options, out)
        })
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
        let copy = if bytes.as_ptr().align_offset(8) == 0 { 0 } else { sys::DXT_OPEN_PRIVATE_COPY };
        // SAFETY: the bytes are never written and live forever; unless
        // copied, they are aligned.
        Model::opened(copy, |options, out| unsafe {
            sys::dxt_model_open_memory(bytes.as_ptr() as *const _, bytes.len(), options, out)
        })
    }

    /// The model `open(options, out)` opens with the `DXT_OPEN_*` `flags`.
    fn opened(
        flags: u32,
        open: impl FnOnce(*const sys::dxt_model_open_options, *mut *mut sys::dxt_model) -> sys::dxt_status,
    ) -> Result<Model> {
        let mut options = initialised(sys::dxt_model_open_options_init);
        options.flags = flags;
        let mut out = std::ptr::null_mut();
        check(open(&options, &mut out))?;
        Ok(Model { handle: Arc::new(ModelHandle { ptr: out }), path: None })
    }

    /// The file the model was opened from, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    pub fn info(&self) -> Result<ModelInfo> {
        let mut raw = initialised(sys::dxt_model_info_init);
        // SAFETY: live handle, initialised struct.
        check(unsafe { sys::dxt_model_get_info(self.handle.ptr, &mut raw) })?;
        Ok(ModelInfo::from_raw(&raw))
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
        check(unsafe {
            sys::dxt_model_lookup(self.handle.ptr, word.as_ptr() as *const c_char, word.len(), &mut index)
        })?;
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
        let (_strings, pointers) = c_strings(words)?;
        let mut set = std::ptr::null_mut();
        // SAFETY: `pointers` holds `len` NUL-terminated strings that outlive
        // the call; the set made to check them is freed at once.
        unsafe {
            check(sys::dxt_output_set_create(self.handle.ptr, pointers.as_ptr(), pointers.len(), &mut set))?;
            sys::dxt_output_set_free(set);
        }
        Ok(OutputSet { words: words.iter().map(|w| w.as_ref().to_owned()).collect() })
    }
}

/// The path of the default model for `geometry`: `$DXTEXT_MODEL` if set,
/// else the newest `dxtext-en-euclid-*.dxe` (Euclidean) or
/// `dxtext-wordnet-poincare-*.dxe` (Poincaré) of the installed models
/// directory, then of the source tree's `models/`.
pub fn default_model_path(geometry: Geometry) -> Result<PathBuf> {
    let raw = geometry.to_raw().ok_or_else(|| Error::invalid_argument("geometry must be Euclidean or Poincare"))?;
    // SAFETY: the buffer and its capacity from `written`.
    let bytes =
        written(|buffer, capacity, required| unsafe { sys::dxt_default_model_path(raw, buffer, capacity, required) })?;
    #[cfg(unix)]
    let path = <std::ffi::OsString as std::os::unix::ffi::OsStringExt>::from_vec(bytes);
    #[cfg(not(unix))]
    let path = crate::string(bytes)?;
    Ok(PathBuf::from(path))
}
