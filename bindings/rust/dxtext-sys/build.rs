// SPDX-License-Identifier: Apache-2.0
//! Builds or finds libdxtext and tells cargo to link it.
//!
//! * `DXTEXT_LIB_DIR` set: link the libdxtext in that directory (shared, or
//!   `libdxtext.a` and its dependencies with `DXTEXT_STATIC=1`).
//! * else, with the `vendored` feature (the default): compile the core from
//!   the sources this crate carries (`vendor/`, or the dxtext source tree the
//!   crate sits in) with CMake, offline, and link it statically: a binary
//!   needs no libdxtext at run time. The build uses the portable crypto
//!   backend (noise from the kernel's CSPRNG, getrandom; no OpenSSL) and
//!   compiles in no path of the build machine. Needs cmake, a C++17
//!   compiler and Eigen 3 (Debian: cmake g++ libeigen3-dev).
//! * else: `pkg-config --libs-only-L dxtext`, then the linker's default path.
//!
//! With the `bundled-model` feature (the default), the default Euclidean
//! model (the newest `dxtext-en-euclid-*.dxe` of `models/`) is compiled into
//! the binary (`dxtext_sys::BUNDLED_MODEL`), so `dxtext::Model::open_default`
//! works wherever the binary goes.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const NEEDS: &str = "building dxtext needs cmake, a C++17 compiler and Eigen 3 (Debian: cmake g++ libeigen3-dev)";

/// A directory cargo names in the environment variable `name`.
fn cargo_dir(name: &str) -> PathBuf {
    PathBuf::from(env::var_os(name).unwrap_or_else(|| panic!("cargo sets {}", name)))
}

fn pkg_config_lib_dir() -> Option<PathBuf> {
    let output = Command::new("pkg-config").args(["--libs-only-L", "dxtext"]).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
    text.split_whitespace().filter_map(|flag| flag.strip_prefix("-L")).map(PathBuf::from).find(|dir| dir.is_dir())
}

/// The dxtext sources: `vendor/` of a packaged crate, else the source tree
/// this crate is part of (`bindings/rust/dxtext-sys`).
fn source_root() -> Option<PathBuf> {
    let manifest = cargo_dir("CARGO_MANIFEST_DIR");
    [manifest.join("vendor"), manifest.join("../../..")]
        .into_iter()
        .find(|dir| dir.join("CMakeLists.txt").is_file() && dir.join("include/dxtext/dxtext.h").is_file())
        .map(|dir| dir.canonicalize().unwrap_or(dir))
}

fn run(command: &mut Command) {
    let status = command.status().unwrap_or_else(|e| panic!("cannot run {:?} ({}): {}", command, NEEDS, e));
    assert!(status.success(), "{:?} failed ({}); {}", command, status, NEEDS);
}

fn build_vendored(root: &Path) -> PathBuf {
    let build = cargo_dir("OUT_DIR").join("dxtext-core");
    run(Command::new("cmake").arg("-S").arg(root).arg("-B").arg(&build).args([
        "-DCMAKE_BUILD_TYPE=Release",
        "-DDXT_CRYPTO=portable",
        "-DDXT_RELOCATABLE=ON",
        "-DDXT_BUILD_TESTS=OFF",
        "-DDXT_BUILD_TOOLS=OFF",
        "-DDXT_BUILD_BENCH=OFF",
    ]));
    let jobs = env::var("NUM_JOBS").unwrap_or_else(|_| "2".to_string());
    run(Command::new("cmake").arg("--build").arg(&build).args(["--target", "dxtext_static", "-j", &jobs]));
    build.join("lib")
}

/// Links the static libdxtext in `dir` and what it needs (libcrypto too
/// for `crypto`: a build with the OpenSSL backend).
fn link_static(dir: &Path, crypto: bool) {
    println!("cargo:rustc-link-search=native={}", dir.display());
    println!("cargo:rustc-link-lib=static=dxtext");
    if crypto {
        println!("cargo:rustc-link-lib=dylib=crypto");
    }
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let runtime = if os == "macos" || os == "ios" || os.ends_with("bsd") { "c++" } else { "stdc++" };
    println!("cargo:rustc-link-lib=dylib={}", runtime);
    if os == "linux" || os == "android" {
        println!("cargo:rustc-link-lib=dylib=m");
        println!("cargo:rustc-link-lib=dylib=pthread");
        println!("cargo:rustc-link-lib=dylib=dl");
    }
    if os == "macos" || os == "ios" {
        println!("cargo:rustc-link-lib=framework=Security");
    }
}

/// Links the shared libdxtext in `dir`, which becomes the run-time search
/// path of this crate's tests and, through `DEP_DXTEXT_LIBDIR`, of the
/// dxtext crate's (see its build.rs).
fn link_shared(dir: &Path) {
    println!("cargo:rustc-link-search=native={}", dir.display());
    println!("cargo:rustc-link-lib=dylib=dxtext");
    println!("cargo:libdir={}", dir.display());
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" || os == "macos" || os == "android" || os.ends_with("bsd") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
    }
}

/// The newest `dxtext-en-euclid-*.dxe` of the first of `dirs` that has one.
fn default_model(dirs: &[PathBuf]) -> Option<PathBuf> {
    dirs.iter().find_map(|dir| {
        let names = fs::read_dir(dir).ok()?.filter_map(|e| e.ok()?.file_name().into_string().ok());
        let name = names.filter(|n| n.starts_with("dxtext-en-euclid-") && n.ends_with(".dxe")).max()?;
        Some(dir.join(name))
    })
}

fn bundle_model(root: Option<&Path>) {
    let mut dirs = vec![cargo_dir("CARGO_MANIFEST_DIR").join("models")];
    dirs.extend(root.map(|root| root.join("models")));
    let model = default_model(&dirs).unwrap_or_else(|| {
        panic!("the bundled-model feature needs a models/dxtext-en-euclid-*.dxe (looked in {:?})", dirs)
    });
    println!("cargo:rerun-if-changed={}", model.display());
    let code = format!(
        "#[repr(C)]\nstruct Aligned<B: ?Sized> {{ _align: [u64; 0], bytes: B }}\n\
         static MODEL: &Aligned<[u8]> = &Aligned {{ _align: [], bytes: *include_bytes!({:?}) }};\n\
         /// The default Euclidean model ({}), 8-byte aligned for `dxt_model_open_memory`.\n\
         pub static BUNDLED_MODEL: Option<&[u8]> = Some(&MODEL.bytes);\n",
        model.display().to_string(),
        model.file_name().and_then(|n| n.to_str()).unwrap_or("")
    );
    fs::write(cargo_dir("OUT_DIR").join("bundled_model.rs"), code).expect("write bundled_model.rs");
}

fn main() {
    println!("cargo:rerun-if-env-changed=DXTEXT_LIB_DIR");
    println!("cargo:rerun-if-env-changed=DXTEXT_STATIC");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    println!("cargo:rerun-if-changed=build.rs");

    let root = source_root();
    if env::var_os("CARGO_FEATURE_BUNDLED_MODEL").is_some() {
        bundle_model(root.as_deref());
    }

    if let Some(dir) = env::var_os("DXTEXT_LIB_DIR").map(PathBuf::from) {
        if env::var("DXTEXT_STATIC").as_deref() == Ok("1") {
            link_static(&dir, true);
        } else {
            link_shared(&dir);
        }
    } else if env::var_os("CARGO_FEATURE_VENDORED").is_some() {
        let root = root.unwrap_or_else(|| {
            panic!("the vendored feature needs the dxtext sources (vendor/ of the packaged crate); set DXTEXT_LIB_DIR to use a built libdxtext instead")
        });
        println!("cargo:rerun-if-changed={}", root.join("src").display());
        println!("cargo:rerun-if-changed={}", root.join("include").display());
        link_static(&build_vendored(&root), false);
    } else if let Some(dir) = pkg_config_lib_dir() {
        link_shared(&dir);
    } else {
        println!("cargo:warning=libdxtext not found by pkg-config: set DXTEXT_LIB_DIR, or enable the vendored feature");
        println!("cargo:rustc-link-lib=dylib=dxtext");
    }
}
