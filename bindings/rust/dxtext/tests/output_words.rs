// SPDX-License-Identifier: Apache-2.0
//! Output word lists (`Model::output_set`, `Options::output_words`) through
//! the safe crate. What presets resolve to and refuse is the library's,
//! checked for every binding by the conformance suite (conformance.rs,
//! tests/conformance/).

use dxtext::{Context, ErrorKind, Geometry, Mechanism, Model, Options, Preset, ReleaseShape};

#[test]
fn output_words_restrict_what_is_released() {
    let model = Model::open_default(Geometry::Euclidean).expect("the default Euclidean model");
    let mut context = Context::seeded(&model, [5; 32]).unwrap();
    let allowed = ["house", "river", "music"];
    let set = model.output_set(&allowed).unwrap();
    assert_eq!(set.len(), 3);
    assert_eq!(set.words(), &["house", "river", "music"]);
    let strict = Options::new(2.0).mechanism(Mechanism::Exponential).release_shape(ReleaseShape::Strict);
    let options = strict.clone().output_words(&set);
    drop(set); // the options keep the words
               // The set, or the words themselves: a slice, an array, a Vec.
    for options in [options, strict.clone().output_words(&allowed[..]), strict.output_words(allowed.to_vec())] {
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
    let both = Options::new(2.0).output_words(allowed).output_top(10);
    assert_eq!(context.privatize_text("cat", &both).unwrap_err().kind(), ErrorKind::InvalidArgument);
    let set = model.output_set(&allowed).unwrap();
    for preset in [Preset::Readable, Preset::Features, Preset::Strongest] {
        let error = context.privatize_text("cat", &Options::from_preset(preset).output_words(&set)).unwrap_err();
        let name = format!("{:?}", preset).to_lowercase();
        let message = format!("output_words: the preset '{}' fixes the output vocabulary", name);
        assert!(error.message().contains(&message), "{}", error);
    }
}
