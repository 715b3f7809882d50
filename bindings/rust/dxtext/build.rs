// SPDX-License-Identifier: Apache-2.0
//! Lets this crate's tests and examples find the shared libdxtext that
//! dxtext-sys linked (DEP_DXTEXT_LIBDIR, set only for a shared library)
//! without LD_LIBRARY_PATH.
fn main() {
    println!("cargo:rerun-if-env-changed=DEP_DXTEXT_LIBDIR");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if let Ok(dir) = std::env::var("DEP_DXTEXT_LIBDIR") {
        if os == "linux" || os == "macos" || os == "android" || os.ends_with("bsd") {
            println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
        }
    }
}
