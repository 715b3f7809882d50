// SPDX-License-Identifier: Apache-2.0
//! The declarations of `src/ffi.rs` are bindgen's reading of the header
//! (bindgen.sh; CI checks they are not stale). Checked here: what is written
//! by hand in `src/lib.rs`, and that the structs as clang laid them out for
//! bindgen have the sizes the C compiler (`$CC`, else `cc`) gives them.

use std::mem::size_of;
use std::path::PathBuf;
use std::process::Command;

use dxtext_sys::*;

/// What the C compiler says of `expressions` (each a size_t), in order.
fn c_values(expressions: &[String]) -> Vec<u64> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let (source, program) = (dir.join("dxtext_values.c"), dir.join("dxtext_values"));
    let mut c = String::from("#include <stdio.h>\n#include \"dxtext/dxtext.h\"\nint main(void) {\n");
    for e in expressions {
        c += &format!("  printf(\"%llu\\n\", (unsigned long long)({}));\n", e);
    }
    std::fs::write(&source, c + "  return 0;\n}\n").unwrap();
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let include = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../include");
    let status = Command::new(&cc).arg("-std=c11").arg("-I").arg(include).arg(&source).arg("-o").arg(&program).status();
    assert!(status.unwrap_or_else(|e| panic!("cannot run the C compiler {:?}: {}", cc, e)).success());
    let output = Command::new(&program).output().unwrap();
    String::from_utf8(output.stdout).unwrap().lines().map(|l| l.parse().unwrap()).collect()
}

macro_rules! sizes {
    ($($t:ident),* $(,)?) => {
        (vec![$(format!("sizeof({})", stringify!($t))),*], vec![$(size_of::<$t>() as u64),*])
    };
}

#[test]
fn hand_written_values_and_struct_sizes_match_the_c_compiler() {
    let (mut expressions, mut values) = sizes!(
        dxt_model_open_options, dxt_model_info, dxt_context_options, dxt_privatize_options, dxt_release_record,
        dxt_local_diagnostics, dxt_bag_entry, dxt_bag, dxt_calibration, dxt_option_info, dxt_ledger_anchor,
        dxt_ledger_options, dxt_ledger_totals,
    );
    expressions.push("DXT_MAX_BAG_WORDS".to_string());
    values.push(DXT_MAX_BAG_WORDS);
    expressions.push("DXT_E_LEDGER_ROLLBACK".to_string());
    values.push(DXT_E_LEDGER_ROLLBACK as u64);
    assert_eq!(c_values(&expressions), values, "{:?}", expressions);
}

#[test]
fn init_sized_calls_link_and_respect_the_size() {
    let mut options = std::mem::MaybeUninit::<dxt_privatize_options>::uninit();
    let mut record = std::mem::MaybeUninit::<dxt_release_record>::uninit();
    let mut diagnostics = std::mem::MaybeUninit::<dxt_local_diagnostics>::uninit();
    // SAFETY: all three point to writable structs of the declared size.
    let (options, record, diagnostics) = unsafe {
        dxt_privatize_options_init(options.as_mut_ptr());
        dxt_release_record_init(record.as_mut_ptr());
        dxt_local_diagnostics_init(diagnostics.as_mut_ptr());
        (options.assume_init(), record.assume_init(), diagnostics.assume_init())
    };
    assert_eq!(options.struct_size as usize, size_of::<dxt_privatize_options>());
    assert_eq!(options.mechanism, DXT_MECHANISM_LAPLACE);
    assert_eq!(record.struct_size as usize, size_of::<dxt_release_record>());
    assert_eq!(diagnostics.struct_size as usize, size_of::<dxt_local_diagnostics>());
    // SAFETY: plain calls without pointers.
    unsafe {
        assert_eq!(dxt_version_number(), DXT_VERSION_NUMBER);
        assert_eq!(dxt_abi_version(), DXT_ABI_VERSION);
        assert_eq!(dxt_epsilon_min(), DXT_EPSILON_MIN);
        assert_eq!(dxt_epsilon_max(), DXT_EPSILON_MAX);
    }
}
