// SPDX-License-Identifier: Apache-2.0
//! Checks the hand-written declarations of `src/lib.rs` against
//! `include/dxtext/dxtext.h`:
//! - every `DXT_API` function of the header is declared with the same
//!   parameter and return types (translated C -> Rust), and nothing more;
//! - every integer constant (enum value or `#define`) has the same value;
//! - every struct has the header's fields, at the offsets, sizes and
//!   alignments a C compiler (`$CC`, else `cc`) gives them.

use std::collections::BTreeMap;
use std::mem::{align_of, size_of};
use std::path::PathBuf;
use std::process::Command;

use dxtext_sys::*;

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn header_text() -> String {
    let path = repo_root().join("include/dxtext/dxtext.h");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {}", path.display(), e))
}

/// The header without comments and preprocessor lines other than #define.
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"/*") {
            let end = text[i + 2..].find("*/").expect("unterminated comment") + i + 4;
            out.push(' ');
            i = end;
        } else if bytes[i..].starts_with(b"//") {
            i += text[i..].find('\n').unwrap_or(text.len() - i);
        } else {
            let c = text[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A C type (without the parameter name) as the Rust type of lib.rs.
fn rust_type(c: &str) -> String {
    let c = squash(&c.replace('*', " * "));
    let mut words: Vec<&str> = c.split(' ').collect();
    let mut pointers: Vec<bool> = Vec::new(); // const-ness of each pointer level, outermost last
    let mut base_const = false;
    if words.first() == Some(&"const") {
        base_const = true;
        words.remove(0);
    }
    let base = words.remove(0);
    let mut next_const = base_const;
    for w in words {
        match w {
            "*" => {
                pointers.push(next_const);
                next_const = false;
            }
            "const" => next_const = true,
            other => panic!("unexpected C type word {:?} in {:?}", other, c),
        }
    }
    let mut t = match base {
        "void" => "c_void",
        "char" => "c_char",
        "uint8_t" => "u8",
        "uint32_t" => "u32",
        "uint64_t" => "u64",
        "int32_t" => "i32",
        "size_t" => "usize",
        "float" => "f32",
        "double" => "f64",
        "bool" => "bool",
        other if other.starts_with("dxt_") => other,
        other => panic!("no Rust type for C type {:?}", other),
    }
    .to_string();
    if pointers.is_empty() && t == "c_void" {
        return String::new();
    }
    for is_const in pointers {
        t = format!("{} {}", if is_const { "*const" } else { "*mut" }, t);
    }
    t
}

/// "const char *path" -> ("path", "*const c_char"); arrays decay to pointers.
fn c_param(p: &str) -> (String, String) {
    let p = squash(p);
    let (p, array) = match p.find('[') {
        Some(i) => (p[..i].trim().to_string(), true),
        None => (p, false),
    };
    let split = p.rfind(|c: char| c == ' ' || c == '*').expect("parameter without a name");
    let name = p[split + 1..].to_string();
    let mut ty = p[..split + 1].to_string();
    if array {
        ty.push('*');
    }
    (name, rust_type(&ty))
}

/// name -> (parameter types, return type), from the header's DXT_API lines.
fn header_functions() -> BTreeMap<String, (Vec<String>, String)> {
    let text = strip_comments(&header_text());
    let mut out = BTreeMap::new();
    let mut rest = text.as_str();
    // Declarations start a line; the macro's own #define lines do not.
    while let Some(i) = rest.find("\nDXT_API ") {
        let start = i + "\nDXT_API ".len();
        let decl_end = rest[start..].find(';').expect("declaration without ;") + start;
        let decl = squash(&rest[start..decl_end]);
        rest = &rest[decl_end..];
        let decl = decl.replace("DXT_NODISCARD ", "");
        let open = decl.find('(').unwrap();
        let head = decl[..open].trim();
        let split = head.rfind(|c: char| c == ' ' || c == '*').unwrap();
        let name = head[split + 1..].to_string();
        let ret = rust_type(&head[..split + 1]);
        let params_text = &decl[open + 1..decl.rfind(')').unwrap()];
        let params = if params_text.trim() == "void" {
            Vec::new()
        } else {
            params_text.split(',').map(|p| c_param(p).1).collect()
        };
        out.insert(name, (params, ret));
    }
    out
}

/// The same, from the `extern "C"` block of src/lib.rs.
fn rust_functions() -> BTreeMap<String, (Vec<String>, String)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
    let text = std::fs::read_to_string(path).unwrap();
    let start = text.find("extern \"C\" {").expect("no extern block");
    let end = start + text[start..].find("\n}\n").unwrap();
    let block = squash(&text[start..end]);
    let mut out = BTreeMap::new();
    for decl in block.split(';') {
        let decl = match decl.find("pub fn ") {
            Some(i) => &decl[i + "pub fn ".len()..],
            None => continue,
        };
        let open = decl.find('(').unwrap();
        let close = decl.rfind(')').unwrap();
        let name = decl[..open].trim().to_string();
        let params: Vec<String> = decl[open + 1..close]
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| squash(p.splitn(2, ':').nth(1).unwrap()))
            .collect();
        let ret = decl[close + 1..].trim().trim_start_matches("->").trim().to_string();
        out.insert(name, (params, ret));
    }
    out
}

#[test]
fn functions_match_the_header() {
    let header = header_functions();
    let rust = rust_functions();
    assert!(header.len() >= 30, "parsed only {} functions from the header", header.len());
    for (name, sig) in &header {
        let ours = rust.get(name).unwrap_or_else(|| panic!("{} is in the header but not declared", name));
        assert_eq!(ours, sig, "signature of {}", name);
    }
    for name in rust.keys() {
        assert!(header.contains_key(name), "{} is declared but not in the header", name);
    }
}

/// Integer value of a #define or enum initialiser, when it is a literal.
fn int_value(expr: &str) -> Option<i64> {
    let e = expr.trim().trim_end_matches(',').trim();
    let e = e.trim_end_matches(|c: char| c == 'u' || c == 'U');
    if let Some(hex) = e.strip_prefix("0x") {
        return i64::from_str_radix(hex, 16).ok();
    }
    if let Some(shift) = e.strip_prefix("((uint64_t)1 << ") {
        return shift.trim_end_matches(')').parse::<u32>().ok().map(|s| 1i64 << s);
    }
    e.parse().ok()
}

fn header_constants() -> BTreeMap<String, i64> {
    let text = strip_comments(&header_text());
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let line = line.trim();
        let (name, value) = if let Some(def) = line.strip_prefix("#define ") {
            let mut parts = def.splitn(2, ' ');
            (parts.next().unwrap_or(""), parts.next().unwrap_or(""))
        } else if line.starts_with("DXT_") && line.contains(" = ") {
            let mut parts = line.splitn(2, " = ");
            (parts.next().unwrap(), parts.next().unwrap())
        } else {
            continue;
        };
        if let Some(v) = int_value(value) {
            out.insert(name.to_string(), v);
        }
    }
    out
}

macro_rules! constants {
    ($($name:ident),* $(,)?) => {{
        let mut m = BTreeMap::new();
        $(m.insert(stringify!($name).to_string(), $name as i64);)*
        m
    }};
}

#[test]
fn constants_match_the_header() {
    let ours = constants![
        DXT_VERSION_MAJOR, DXT_VERSION_MINOR, DXT_VERSION_PATCH, DXT_ABI_VERSION, DXT_FORMAT_VERSION_MAJOR,
        DXT_FORMAT_VERSION_MINOR, DXT_OK, DXT_E_INVALID_ARGUMENT, DXT_E_INVALID_EPSILON, DXT_E_IO, DXT_E_NOT_A_MODEL,
        DXT_E_UNSUPPORTED_VERSION, DXT_E_CORRUPT_MODEL, DXT_E_TRUNCATED_MODEL, DXT_E_DIGEST_MISMATCH,
        DXT_E_OUT_OF_MEMORY, DXT_E_RNG_FAILURE, DXT_E_INVALID_UTF8, DXT_E_NOT_FOUND, DXT_E_UNSUPPORTED,
        DXT_E_INPUT_TOO_LARGE, DXT_E_PARSE, DXT_E_INTERNAL, DXT_E_CONTEXT_BUSY, DXT_E_BUDGET_EXCEEDED, DXT_E_LEDGER_CORRUPT, DXT_E_LEDGER_ROLLBACK,
        DXT_LEDGER_MEMO_DEFAULT, DXT_LEDGER_MEMO_MAX, DXT_LEDGER_FRESH, DXT_GEOMETRY_UNKNOWN, DXT_GEOMETRY_EUCLIDEAN,
        DXT_GEOMETRY_POINCARE, DXT_QUANT_UNKNOWN, DXT_QUANT_F32, DXT_QUANT_F16, DXT_QUANT_INT8,
        DXT_TYPED_NONE, DXT_TYPED_FIRST_NAME, DXT_TYPED_SURNAME, DXT_TYPED_CITY, DXT_TYPED_REGION, DXT_TYPED_COUNTRY, DXT_TYPED_ORGANIZATION, DXT_TYPED_CONDITION, DXT_TYPED_DRUG, DXT_TYPED_NUMBER, DXT_TYPED_PHONE, DXT_TYPED_EMAIL, DXT_TYPED_URL, DXT_TYPED_HANDLE, DXT_TYPED_STREET, DXT_TYPED_MONTH, DXT_TYPED_CLASS_COUNT, DXT_FAMILY_NAMES, DXT_FAMILY_PLACES, DXT_FAMILY_ORGANIZATIONS, DXT_FAMILY_NUMBERS, DXT_FAMILY_ADDRESSES, DXT_FAMILY_HEALTH, DXT_TYPED_DEFAULT, DXT_TYPED_PRIVATIZE, DXT_TYPED_PLACEHOLDER, DXT_TYPED_REPLACE, DXT_TYPED_KEEP, DXT_TYPED_DROP, DXT_NUMBER_SHAPE_HIDE, DXT_NUMBER_SHAPE_KEEP, DXT_NEGATIONS_DEFAULT, DXT_NEGATIONS_PRIVATIZE, DXT_NEGATIONS_KEEP, DXT_TYPED_FLAG_CONSISTENT, DXT_TYPED_FLAG_NUMBER_SHAPE, DXT_REVEALS_TYPED_CLASSES, DXT_TYPED_FAMILY_COUNT,
        DXT_MECHANISM_UNKNOWN, DXT_MECHANISM_LAPLACE, DXT_MECHANISM_HYPERBOLIC, DXT_MECHANISM_EXPONENTIAL,
        DXT_MECHANISM_SYNTF, DXT_MECHANISM_MAHALANOBIS, DXT_MECHANISM_VICKREY, DXT_MECHANISM_TEM, DXT_MECHANISM_ORDERING,
        DXT_METRIC_UNKNOWN, DXT_METRIC_EUCLIDEAN, DXT_METRIC_HYPERBOLIC, DXT_METRIC_MAHALANOBIS,
        DXT_METRIC_DISCRETE, DXT_METRIC_ORDERING, DXT_SAMPLER_DEFAULT, DXT_SAMPLER_GUMBEL, DXT_SAMPLER_PERMUTE_AND_FLIP,
        DXT_SEARCH_EXACT, DXT_SEARCH_IVF, DXT_RNG_UNKNOWN, DXT_RNG_SYSTEM, DXT_RNG_DETERMINISTIC, DXT_POLICY_DEFAULT, DXT_POLICY_PRIVATIZE,
        DXT_POLICY_PLACEHOLDER, DXT_POLICY_DROP, DXT_POLICY_KEEP, DXT_CLASS_IN_VOCABULARY,
        DXT_CLASS_OUT_OF_VOCABULARY, DXT_CLASS_NUMBER, DXT_CLASS_STOPWORD, DXT_TOKEN_CLASS_COUNT,
        DXT_TOKEN_ACTION_COUNT, DXT_OPEN_VERIFY_DIGESTS, DXT_OPEN_PRIVATE_COPY, DXT_MAX_BAG_WORDS, DXT_RELEASE_UNKNOWN,
        DXT_RELEASE_WORD, DXT_RELEASE_TEXT, DXT_RELEASE_BAG, DXT_RELEASE_SYNTHETIC_BAG, DXT_BOUND_UNKNOWN, DXT_BOUND_WORD,
        DXT_BOUND_POSITIONWISE, DXT_BOUND_BAG_EMD, DXT_BOUND_ANY_INPUTS, DXT_REVEALS_WORD_COUNT, DXT_REVEALS_LAYOUT,
        DXT_REVEALS_CASE_SHAPE, DXT_REVEALS_TOKEN_CLASSES, DXT_REVEALS_KEPT_WORDS, DXT_REVEALS_SENTENCE_BOUNDARIES,
        DXT_REVEALS_CLAUSE_BOUNDARIES, DXT_REVEALS_INPUT_WORDS, DXT_REVEALS_NEGATIONS, DXT_SHAPE_DEFAULT, DXT_SHAPE_KEEP, DXT_SHAPE_NORMALIZE, DXT_SHAPE_STRICT,
        DXT_OUTPUT_VOCABULARY, DXT_OUTPUT_TOP, DXT_OUTPUT_LIST, DXT_PRESET_NONE, DXT_PRESET_READABLE,
        DXT_PRESET_FEATURES, DXT_PRESET_STRONGEST, DXT_OPTION_TYPE_UNKNOWN, DXT_OPTION_TYPE_DOUBLE,
        DXT_OPTION_TYPE_UINT32, DXT_OPTION_TYPE_STRING, DXT_OPTION_TYPE_ENUM, DXT_OPTION_TYPE_WORDS,
    ];
    let header = header_constants();
    assert!(header.len() >= 50, "parsed only {} constants from the header", header.len());
    assert_eq!(ours, header);
    assert_eq!(DXT_VERSION_NUMBER, DXT_VERSION_MAJOR * 10000 + DXT_VERSION_MINOR * 100 + DXT_VERSION_PATCH);
}

/// struct name -> field names, from the header's `typedef struct` bodies.
fn header_structs() -> BTreeMap<String, Vec<String>> {
    let text = strip_comments(&header_text());
    let mut out = BTreeMap::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("typedef struct ") {
        rest = &rest[i + "typedef struct ".len()..];
        let name_end = rest.find(|c: char| c == ' ' || c == '{').unwrap();
        let name = rest[..name_end].to_string();
        let after = rest[name_end..].trim_start();
        if !after.starts_with('{') {
            continue; // an opaque handle
        }
        let body = &after[1..after.find('}').unwrap()];
        let mut fields = Vec::new();
        for decl in body.split(';').map(squash).filter(|d| !d.is_empty()) {
            // "double keep_mean, keep_median, keep_max" -> three fields
            let first_name_start = decl.split(',').next().unwrap().rfind(|c: char| c == ' ' || c == '*').unwrap();
            let names = &decl[first_name_start + 1..];
            for n in names.split(',') {
                let n = n.trim();
                fields.push(n[..n.find('[').unwrap_or(n.len())].to_string());
            }
        }
        out.insert(name, fields);
    }
    out
}

macro_rules! layout {
    ($out:ident, $t:ident; $($field:ident),* $(,)?) => {{
        let value = std::mem::MaybeUninit::<$t>::uninit();
        let base = value.as_ptr();
        let mut fields = Vec::new();
        $(
            // SAFETY: only the address of the field is taken, nothing is read.
            let offset = unsafe { std::ptr::addr_of!((*base).$field) as usize - base as usize };
            fields.push((stringify!($field).to_string(), offset));
        )*
        $out.insert(stringify!($t).to_string(), (size_of::<$t>(), align_of::<$t>(), fields));
    }};
}

type Layouts = BTreeMap<String, (usize, usize, Vec<(String, usize)>)>;

fn rust_layouts() -> Layouts {
    let mut m = BTreeMap::new();
    layout!(m, dxt_model_open_options; struct_size, flags);
    layout!(m, dxt_model_info; struct_size, format_major, format_minor, dimension, vocabulary_size, geometry,
        quantization, lowercase, has_frequencies);
    layout!(m, dxt_context_options; struct_size, rng_mode, seed);
    layout!(m, dxt_privatize_options; struct_size, mechanism, epsilon, policy, placeholder, tem_gamma, tem_beta,
        vickrey_t, mahalanobis_lambda, syntf_s, exponential_sampler, search, ivf_nprobe,
        release_shape, output_top, output_set, preset, typed, typed_consistent, number_shape, uniform_floor,
        negations);
    layout!(m, dxt_release_record; struct_size, mechanism, epsilon, metric, rng_mode, is_private,
        fingerprint_valid, model_fingerprint, release, bound, reveals, draws, epsilon_total, epsilon_vocabulary,
        release_shape, output_kind, output_size, output_digest, preset, typed_classes, typed_flags, uniform_floor,
        worst_case_per_word, typed_dropped);
    layout!(m, dxt_local_diagnostics; struct_size, counts, words_privatized, words_leaked);
    layout!(m, dxt_bag_entry; word, length, count);
    layout!(m, dxt_bag; entries, size);
    layout!(m, dxt_calibration; struct_size, words, trials, keep_mean, keep_median, keep_max, distinct_mean,
        distinct_median, distinct_max);
    layout!(m, dxt_option_info; struct_size, kind, name, type_name, default_value, values, meaning);
    layout!(m, dxt_ledger_anchor; struct_size, ledger_id, commits, spent);
    layout!(m, dxt_ledger_options; struct_size, cap, memo_capacity, key, key_length, anchor);
    layout!(m, dxt_ledger_totals; struct_size, cap, spent, spent_any_inputs, releases, memoised, memo_capacity,
        words);
    m
}

/// The same layouts as a C compiler sees them.
fn c_layouts(structs: &BTreeMap<String, Vec<String>>) -> Layouts {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let source = dir.join("dxtext_layout.c");
    let program = dir.join("dxtext_layout");
    let mut c = String::from("#include <stdio.h>\n#include <stddef.h>\n#include \"dxtext/dxtext.h\"\nint main(void) {\n");
    for (name, fields) in structs {
        c += &format!(
            "  printf(\"S {n} %zu %zu\\n\", sizeof({n}), (size_t)_Alignof({n}));\n",
            n = name
        );
        for f in fields {
            c += &format!("  printf(\"F {n} {f} %zu\\n\", offsetof({n}, {f}));\n", n = name, f = f);
        }
    }
    c += "  return 0;\n}\n";
    std::fs::write(&source, c).unwrap();
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let status = Command::new(&cc)
        .arg("-std=c11")
        .arg("-I")
        .arg(repo_root().join("include"))
        .arg(&source)
        .arg("-o")
        .arg(&program)
        .status()
        .unwrap_or_else(|e| panic!("cannot run the C compiler {:?}: {}", cc, e));
    assert!(status.success(), "the C layout program did not compile");
    let output = Command::new(&program).output().unwrap();
    assert!(output.status.success());
    let mut m: Layouts = BTreeMap::new();
    for line in String::from_utf8(output.stdout).unwrap().lines() {
        let parts: Vec<&str> = line.split(' ').collect();
        match parts[0] {
            "S" => {
                m.insert(parts[1].to_string(), (parts[2].parse().unwrap(), parts[3].parse().unwrap(), Vec::new()));
            }
            _ => m.get_mut(parts[1]).unwrap().2.push((parts[2].to_string(), parts[3].parse().unwrap())),
        }
    }
    m
}

#[test]
fn struct_layouts_match_the_c_compiler() {
    let structs = header_structs();
    assert_eq!(structs.len(), 13, "structs parsed from the header: {:?}", structs.keys());
    assert_eq!(rust_layouts(), c_layouts(&structs));
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
