// SPDX-License-Identifier: Apache-2.0
//! What is the crate's own: the default model, the system generator, local
//! diagnostics, typed errors, models from bytes, and one context per thread
//! over a shared model. Seeded outputs, records and the library's errors are
//! the conformance suite's (conformance.rs).

use std::path::PathBuf;

use dxtext::{
    Context, ErrorKind, Geometry, LocalDiagnostics, Mechanism, Model, Options, Policy, Quantization, Sampler, Search,
    TokenClass,
};

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/data/golden_v1.dxe")
}

fn default_model() -> Model {
    Model::open_default(Geometry::Euclidean).expect("the default Euclidean model")
}

#[test]
fn opens_the_default_model() {
    let model = default_model();
    let info = model.info().unwrap();
    assert_eq!(info.geometry, Geometry::Euclidean);
    assert_ne!(info.quantization, Quantization::Unknown);
    assert!(info.vocabulary_size > 1000, "{:?}", info);
    assert!(info.dimension > 0);
    let index = model.lookup("house").unwrap();
    assert_eq!(model.word(index).unwrap(), "house");
    assert!(dxtext::default_model_path(Geometry::Euclidean).unwrap().is_file());
}

#[test]
fn the_system_generator_with_records_and_local_diagnostics() {
    let model = default_model();
    let mut context = Context::new(&model).unwrap();
    let text = "The president spoke to the nation about the war.";
    let mut diagnostics = LocalDiagnostics::new();
    let (_, record) = context.privatize_text_record(text, &Options::new(20.0), Some(&mut diagnostics)).unwrap();
    assert!(record.is_private());
    assert_eq!(record.reveals(), 0x1 | 0x2 | 0x4);
    assert_eq!(record.model_fingerprint(), Some(model.fingerprint().unwrap()));
    assert_eq!(diagnostics.words_privatized(), 9);
    let privatized = diagnostics.count(TokenClass::InVocabulary, Policy::Privatize)
        + diagnostics.count(TokenClass::Stopword, Policy::Privatize);
    assert_eq!(privatized, 9);
    assert!(diagnostics.to_json().unwrap().contains("\"words_privatized\":9"));

    let bag = [("war", 3u64), ("peace", 2), ("zzqxv-not-a-word", 1)];
    context.privatize_bag(&bag, &Options::new(10.0), Some(&mut diagnostics)).unwrap();
    assert_eq!(diagnostics.words_privatized(), 6);
    assert_eq!(diagnostics.count(TokenClass::OutOfVocabulary, Policy::Privatize), 1);
    let drop = Options::new(10.0).oov(Policy::Drop);
    context.syntf(&bag, 4, &drop, Some(&mut diagnostics)).unwrap();
    assert_eq!(diagnostics.count(TokenClass::OutOfVocabulary, Policy::Drop), 1);
}

#[test]
fn bad_epsilon_is_a_typed_error() {
    let model = default_model();
    let mut context = Context::new(&model).unwrap();
    assert!(context.privatize_text("hello world", &Options::new(dxtext::EPSILON_MIN)).is_ok());
    assert!(context.privatize_text("hello world", &Options::new(dxtext::EPSILON_MAX)).is_ok());
    // 0, -1 and out of range: the conformance suite; here what JSON cannot write.
    for epsilon in [f64::NAN, f64::INFINITY] {
        let error = context.privatize_text("hello world", &Options::new(epsilon)).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidEpsilon, "{}", error);
        assert_eq!(error.status(), 2);
        assert!(error.to_string().contains("epsilon"), "{}", error);
    }
}

#[test]
fn enum_options_reach_the_library() {
    let model = default_model();
    let mut context = Context::new(&model).unwrap();
    let exponential = Options::new(10.0).mechanism(Mechanism::Exponential).sampler(Sampler::PermuteAndFlip);
    assert!(!context.privatize_text("the war", &exponential).unwrap().is_empty());
    assert!(!context.privatize_text("the war", &Options::new(10.0).search(Search::Exact)).unwrap().is_empty());
}

#[test]
fn missing_file_is_an_io_error() {
    let error = Model::open("/nonexistent/dxtext/model.dxe").unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Io);
    assert!(error.message().contains("model.dxe"), "{}", error);
    assert_eq!(Model::open("a\0b").unwrap_err().kind(), ErrorKind::InvalidArgument);
}

#[test]
fn corrupt_models_are_typed_errors() {
    let bytes = std::fs::read(golden_path()).unwrap();
    assert!(Model::from_bytes(&bytes).is_ok());

    let truncated = Model::from_bytes(&bytes[..bytes.len() / 2]).unwrap_err();
    assert_eq!(truncated.kind(), ErrorKind::TruncatedModel, "{}", truncated);
    assert!(truncated.kind().is_model_error());

    let garbage = Model::from_bytes(&[0x42u8; 256]).unwrap_err();
    assert_eq!(garbage.kind(), ErrorKind::NotAModel);
    // A damaged header from a file: the conformance suite.
}

#[test]
fn one_context_per_thread_over_a_shared_model() {
    let model = default_model();
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let model = model.clone();
            std::thread::spawn(move || {
                let mut context = Context::new(&model).unwrap();
                let options = Options::new(15.0);
                (0..20).map(|_| context.privatize_text(&format!("the war of {} nations", i), &options).unwrap()).count()
            })
        })
        .collect();
    let total: usize = handles.into_iter().map(|h| h.join().unwrap()).sum();
    assert_eq!(total, 80);
}

#[test]
fn a_context_outlives_the_model_value_it_came_from() {
    let bytes = std::fs::read(golden_path()).unwrap();
    let model = Model::from_bytes(&bytes).unwrap();
    let word = model.word(0).unwrap().to_string();
    let mut context = Context::new(&model).unwrap();
    drop(model);
    let out = context.privatize_word(&word, &Options::new(1.0)).unwrap();
    assert!(!out.is_empty());
}
