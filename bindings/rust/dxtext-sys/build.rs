//! Finds libdxtext and tells cargo to link it.
//!
//! Search order: the directory in `DXTEXT_LIB_DIR`; `pkg-config --libs-only-L
//! dxtext` (an installed tree; set `PKG_CONFIG_PATH` for a non-standard
//! prefix); the `build/lib` directory of the source tree this crate sits in
//! (made by `tools/setup.sh`); else the linker's default search path.
//! `DXTEXT_STATIC=1` links `libdxtext.a` and its dependencies instead.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn pkg_config_lib_dir() -> Option<PathBuf> {
    let output = Command::new("pkg-config").args(["--libs-only-L", "dxtext"]).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
    text.split_whitespace()
        .filter_map(|flag| flag.strip_prefix("-L"))
        .map(PathBuf::from)
        .find(|dir| dir.is_dir())
}

fn source_tree_lib_dir() -> Option<PathBuf> {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR")?);
    let dir = manifest.join("../../../build/lib");
    let has_library = ["libdxtext.so", "libdxtext.dylib", "libdxtext.a"]
        .iter()
        .any(|name| dir.join(name).exists());
    if has_library {
        Some(dir.canonicalize().unwrap_or(dir))
    } else {
        None
    }
}

fn main() {
    println!("cargo:rerun-if-env-changed=DXTEXT_LIB_DIR");
    println!("cargo:rerun-if-env-changed=DXTEXT_STATIC");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    println!("cargo:rerun-if-changed=build.rs");

    let dir = env::var_os("DXTEXT_LIB_DIR")
        .map(PathBuf::from)
        .or_else(pkg_config_lib_dir)
        .or_else(source_tree_lib_dir);
    let is_static = env::var("DXTEXT_STATIC").map(|v| v == "1").unwrap_or(false);

    if let Some(dir) = &dir {
        println!("cargo:rustc-link-search=native={}", dir.display());
        // Dependent crates read this as DEP_DXTEXT_LIBDIR.
        println!("cargo:libdir={}", dir.display());
    } else {
        println!("cargo:warning=libdxtext not found: set DXTEXT_LIB_DIR to the directory holding it");
    }

    if is_static {
        println!("cargo:rustc-link-lib=static=dxtext");
        for lib in ["crypto", "stdc++", "m", "pthread"] {
            println!("cargo:rustc-link-lib=dylib={}", lib);
        }
    } else {
        println!("cargo:rustc-link-lib=dylib=dxtext");
        if let Some(dir) = &dir {
            add_rpath(dir);
        }
    }
}

/// Lets this crate's own tests find the shared library without
/// `LD_LIBRARY_PATH`.
fn add_rpath(dir: &Path) {
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" || os == "macos" || os == "android" || os.ends_with("bsd") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
    }
}
