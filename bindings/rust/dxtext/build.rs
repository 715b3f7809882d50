// SPDX-License-Identifier: Apache-2.0
//! Lets this crate's tests and examples find the shared libdxtext that
//! dxtext-sys linked (DEP_DXTEXT_LIBDIR) without LD_LIBRARY_PATH.
fn main() {
    println!("cargo:rerun-if-env-changed=DEP_DXTEXT_LIBDIR");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let is_static = std::env::var("DXTEXT_STATIC").map(|v| v == "1").unwrap_or(false);
    if let Ok(dir) = std::env::var("DEP_DXTEXT_LIBDIR") {
        if !is_static && (os == "linux" || os == "macos" || os == "android" || os.ends_with("bsd")) {
            println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
        }
    }
}
