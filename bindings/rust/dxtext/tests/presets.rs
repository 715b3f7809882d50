// SPDX-License-Identifier: Apache-2.0
//! Presets (`Options::preset`, `Options::from_preset`) and output word lists
//! (`Model::output_set`, `Options::output_words`) through the safe crate.

use dxtext::{Context, ErrorKind, Geometry, Mechanism, Model, Options, Preset, ReleaseShape};

fn default_model() -> Model {
    Model::open_default(Geometry::Euclidean).expect("the default Euclidean model")
}

#[test]
fn presets_resolve_in_the_library() {
    let model = default_model();
    let mut context = Context::seeded(&model, [4; 32]).unwrap();
    let (_, record) =
        context.privatize_text_record("The cat sat on the mat.", &Options::from_preset(Preset::Readable), None).unwrap();
    assert_eq!(record.preset(), Some(Preset::Readable));
    assert_eq!(record.mechanism(), Some(Mechanism::Exponential));
    assert_eq!(record.epsilon(), 3.7);
    assert_eq!(record.release_shape(), ReleaseShape::Normalize);
    let json = record.to_json().unwrap();
    assert!(json.contains("\"preset\":\"readable\""), "{}", json);
    assert!(json.contains("\"output_vocabulary\":{\"kind\":\"top\",\"size\":20000,"), "{}", json);

    // An epsilon overrides the preset's.
    let features = Options::from_preset(Preset::Features).epsilon(5.0);
    let (out, record) = context.privatize_text_record("the 42 cats", &features, None).unwrap();
    assert_eq!(record.epsilon(), 5.0);
    assert_eq!(record.mechanism(), Some(Mechanism::Laplace));
    assert_eq!(out.split(' ').count(), 1, "the stopword and the number are dropped: {:?}", out);
    let (_, none) = context.privatize_text_record("cat", &Options::new(2.0), None).unwrap();
    assert_eq!(none.preset(), None);

    // A fixed option set to another value is refused, and named.
    let conflict = Options::from_preset(Preset::Readable).mechanism(Mechanism::Tem);
    let error = context.privatize_text("cat", &conflict).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(error.message().contains("mechanism is tem, but the preset 'readable'"), "{}", error);
    // Its own value is accepted.
    let same = Options::from_preset(Preset::Strongest).release_shape(ReleaseShape::Strict);
    context.privatize_text("cat", &same).unwrap();
}

#[test]
fn output_words_restrict_what_is_released() {
    let model = default_model();
    let mut context = Context::seeded(&model, [5; 32]).unwrap();
    let allowed = ["house", "river", "music"];
    let set = model.output_set(&allowed).unwrap();
    assert_eq!(set.len(), 3);
    assert_eq!(set.words(), &["house", "river", "music"]);
    let options = Options::new(2.0).mechanism(Mechanism::Exponential).release_shape(ReleaseShape::Strict).output_words(&set);
    drop(set); // the options keep the set alive
    for _ in 0..3 {
        let (out, record) = context.privatize_text_record("the cat sat on the mat tonight", &options, None).unwrap();
        assert!(out.split(' ').all(|w| allowed.contains(&w)), "{:?}", out);
        assert!(record.to_json().unwrap().contains("\"kind\":\"list\",\"size\":3"));
    }
    for bad in [&["house", "house"][..], &["house", "zzqxv"][..], &[][..]] {
        let error = model.output_set(bad).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{:?}: {}", bad, error);
    }
    assert!(model.output_set(&["house", "zzqxv"]).unwrap_err().message().contains("zzqxv"));
    assert_eq!(model.output_set(&["a\0b"]).unwrap_err().kind(), ErrorKind::InvalidArgument);
    let both = options.clone().output_top(10);
    assert_eq!(context.privatize_text("cat", &both).unwrap_err().kind(), ErrorKind::InvalidArgument);
    let set = model.output_set(&allowed).unwrap();
    let preset = Options::from_preset(Preset::Features).output_words(&set);
    let error = context.privatize_text("cat", &preset).unwrap_err();
    assert!(error.message().contains("output_set"), "{}", error);
}
