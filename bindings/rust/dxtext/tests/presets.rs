// SPDX-License-Identifier: Apache-2.0
//! Presets (`Options::preset`, `Options::from_preset`) and output word lists
//! (`Model::output_set`, `Options::output_words`) through the safe crate.
//!
//! The presets' values are in tools/options/presets.table; these tests never
//! repeat them. They read what each preset resolves to from the record and
//! the local diagnostics of a call made with it, and check the rules of
//! resolution relative to that, so retuning a preset needs no edit here.

use dxtext::{
    Context, ErrorKind, Geometry, LocalDiagnostics, Mechanism, Model, Options, Policy, Preset, ReleaseShape, TokenClass,
};

const PRESETS: [Preset; 3] = [Preset::Readable, Preset::Features, Preset::Strongest];
const MECHANISMS: [Mechanism; 7] = [
    Mechanism::Laplace,
    Mechanism::Hyperbolic,
    Mechanism::Exponential,
    Mechanism::Syntf,
    Mechanism::Mahalanobis,
    Mechanism::Vickrey,
    Mechanism::Tem,
];
const SHAPES: [ReleaseShape; 3] = [ReleaseShape::Keep, ReleaseShape::Normalize, ReleaseShape::Strict];
const POLICIES: [Policy; 4] = [Policy::Privatize, Policy::Placeholder, Policy::Drop, Policy::Keep];
/// The token classes, with the name the library's messages give their policies.
const CLASSES: [(TokenClass, &str); 4] = [
    (TokenClass::InVocabulary, "in_vocabulary"),
    (TokenClass::OutOfVocabulary, "oov"),
    (TokenClass::Number, "numbers"),
    (TokenClass::Stopword, "stopwords"),
];
/// One token of each class: a stopword, a vocabulary word, a number, an unknown word.
const EACH_CLASS: &str = "the war 42 zzqxv";

fn default_model() -> Model {
    Model::open_default(Geometry::Euclidean).expect("the default Euclidean model")
}

/// An enum value as the library's messages spell it (`Tem` -> "tem").
fn spelt<T: std::fmt::Debug>(value: T) -> String {
    format!("{:?}", value).to_lowercase()
}

/// What a call with a preset resolved to, as its record and diagnostics say.
#[derive(Debug)]
struct Resolved {
    name: String,
    mechanism: Mechanism,
    epsilon: f64,
    shape: ReleaseShape,
    /// The N of a top-N output vocabulary; None for the whole vocabulary.
    top: Option<u32>,
    // The top words without negators (negations keep): a list in the record.
    listed: bool,
    policies: Vec<Policy>, // by TokenClass
    text: String,          // EACH_CLASS under the seed of `call`
    words_privatized: u64,
}

fn call(model: &Model, text: &str, options: &Options) -> dxtext::Result<(String, dxtext::ReleaseRecord, LocalDiagnostics)> {
    let mut context = Context::seeded(model, [9; 32])?;
    let mut diagnostics = LocalDiagnostics::new();
    let (out, record) = context.privatize_text_record(text, options, Some(&mut diagnostics))?;
    Ok((out, record, diagnostics))
}

fn resolve(model: &Model, options: &Options) -> Resolved {
    let (text, record, diagnostics) = call(model, EACH_CLASS, options).unwrap();
    let preset = record.preset().expect("the record names the preset");
    let name = spelt(preset);
    let json = record.to_json().unwrap();
    assert!(json.contains(&format!("\"preset\":\"{}\"", name)), "{}", json);
    // The JSON names an output vocabulary other than the whole vocabulary.
    const TOP: &str = "\"output_vocabulary\":{\"kind\":\"top\",\"size\":";
    let top = json.find(TOP).map(|at| {
        let size: String = json[at + TOP.len()..].chars().take_while(char::is_ascii_digit).collect();
        size.parse().unwrap()
    });
    let listed = json.contains("\"output_vocabulary\":{\"kind\":\"list\"");
    let policies = CLASSES
        .iter()
        .map(|&(class, _)| {
            let counted: Vec<Policy> = POLICIES.iter().copied().filter(|&p| diagnostics.count(class, p) == 1).collect();
            assert_eq!(counted.len(), 1, "{}: {:?}", name, class);
            counted[0]
        })
        .collect();
    Resolved {
        name,
        mechanism: record.mechanism().expect("a known mechanism"),
        epsilon: record.epsilon(),
        shape: record.release_shape(),
        top,
        listed,
        policies,
        text,
        words_privatized: diagnostics.words_privatized(),
    }
}

impl Resolved {
    fn count(&self, policy: Policy) -> usize {
        self.policies.iter().filter(|&&p| p == policy).count()
    }

    fn policy(&self, class: TokenClass) -> Policy {
        self.policies[class as usize]
    }
}

#[test]
fn presets_resolve_in_the_library() {
    let model = default_model();
    let vocabulary = model.info().unwrap().vocabulary_size;
    let (_, none, _) = call(&model, "cat", &Options::new(2.0)).unwrap();
    assert_eq!(none.preset(), None);
    for preset in PRESETS {
        let r = resolve(&model, &Options::from_preset(preset));
        assert!((1e-6..=1e6).contains(&r.epsilon), "{:?}", r);
        if let Some(n) = r.top {
            assert!(n > 0 && n <= vocabulary, "{:?}", r);
        }
        // An epsilon overrides the preset's, and only that.
        let other = if r.epsilon == 1.5 { 2.5 } else { 1.5 };
        let over = resolve(&model, &Options::from_preset(preset).epsilon(other));
        assert_eq!(over.epsilon, other);
        assert_eq!((&over.name, over.mechanism, over.shape, over.top), (&r.name, r.mechanism, r.shape, r.top));
        assert_eq!(over.policies, r.policies);
        // The preset's own values are accepted beside it: the same noise then
        // gives the same text (a default that is not the preset's value is
        // refused: preset_conflicts_are_refused_and_named).
        let mut own = Options::from_preset(preset).mechanism(r.mechanism).release_shape(r.shape);
        for &(class, _) in &CLASSES {
            own = own.policy(class, r.policy(class));
        }
        if let Some(n) = r.top {
            own = own.output_top(n);
        }
        assert_eq!(call(&model, EACH_CLASS, &own).unwrap().0, r.text, "{}", r.name);
    }
}

#[test]
fn preset_conflicts_are_refused_and_named() {
    let model = default_model();
    let mut context = Context::new(&model).unwrap();
    for preset in PRESETS {
        let r = resolve(&model, &Options::from_preset(preset));
        let named = format!("' conflicts with the preset '{}'", r.name);
        let mut refused = |options: Options, expected: String| {
            let error = context.privatize_text("cat", &options).unwrap_err();
            assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{}", error);
            assert!(error.message().contains(&expected), "{} (expected: {})", error, expected);
        };
        // A value other than both the default and the preset's own.
        let mechanism = *MECHANISMS.iter().find(|&&m| m != Mechanism::Laplace && m != r.mechanism).unwrap();
        refused(Options::from_preset(preset).mechanism(mechanism), format!("mechanism: '{}{}", spelt(mechanism), named));
        if let Some(&shape) = SHAPES.iter().find(|&&s| s != ReleaseShape::Keep && s != r.shape) {
            refused(Options::from_preset(preset).release_shape(shape), format!("release_shape: '{}{}", spelt(shape), named));
        }
        for &(class, field) in &CLASSES {
            let policy = *POLICIES.iter().find(|&&p| p != Policy::Privatize && p != r.policy(class)).unwrap();
            refused(Options::from_preset(preset).policy(class, policy), format!("{}: '{}{}", field, spelt(policy), named));
        }
        let top = if r.top == Some(7) { 8 } else { 7 };
        refused(Options::from_preset(preset).output_top(top), format!("output_top: '{}{}", top, named));
        // The defaults too, where they are not the preset's values: a preset
        // with release_shape Keep is refused, as on the command line, not
        // silently read as unset.
        if r.mechanism != Mechanism::Laplace {
            refused(Options::from_preset(preset).mechanism(Mechanism::Laplace), format!("mechanism: 'laplace{}", named));
        }
        if r.shape != ReleaseShape::Keep {
            refused(Options::from_preset(preset).release_shape(ReleaseShape::Keep), format!("release_shape: 'keep{}", named));
        }
        for &(class, field) in &CLASSES {
            if r.policy(class) != Policy::Privatize {
                refused(Options::from_preset(preset).policy(class, Policy::Privatize), format!("{}: 'privatize{}", field, named));
            }
        }
    }
}

#[test]
fn each_token_class_follows_the_policy_of_the_preset() {
    let model = default_model();
    let mut context = Context::seeded(&model, [10; 32]).unwrap();
    for preset in PRESETS {
        let r = resolve(&model, &Options::from_preset(preset));
        assert_eq!(r.text.split_whitespace().count(), 4 - r.count(Policy::Drop), "{}: {:?}", r.name, r.text);
        assert_eq!(r.words_privatized as usize, r.count(Policy::Privatize), "{}", r.name);
        // A bag: each entry's count is released unless its class is dropped.
        let bag = [("the", 1), ("war", 3), ("42", 2), ("zzqxv", 1)];
        let classes = [TokenClass::Stopword, TokenClass::InVocabulary, TokenClass::Number, TokenClass::OutOfVocabulary];
        let expected: u64 =
            bag.iter().zip(classes).filter(|&(_, class)| r.policy(class) != Policy::Drop).map(|(&(_, n), _)| n).sum();
        let (out, record) = context.privatize_bag(&bag, &Options::from_preset(preset), None).unwrap();
        assert_eq!(out.iter().map(|(_, n)| n).sum::<u64>(), expected, "{}: {:?}", r.name, out);
        assert_eq!(record.preset(), Some(preset));
        // SynTF draws words or drops them: it refuses a placeholder or keep policy.
        let synthetic = context.syntf(&[("war", 2), ("peace", 1)], 3, &Options::from_preset(preset), None);
        if r.count(Policy::Placeholder) + r.count(Policy::Keep) > 0 {
            assert_eq!(synthetic.unwrap_err().kind(), ErrorKind::Unsupported, "{}", r.name);
        } else {
            let (out, record) = synthetic.unwrap();
            assert_eq!(out.iter().map(|(_, n)| n).sum::<u64>(), 3);
            assert_eq!(record.mechanism(), Some(Mechanism::Syntf));
            assert_eq!(record.epsilon(), r.epsilon);
            assert_eq!(record.preset(), Some(preset));
        }
        assert_eq!(context.calibrate(&Options::from_preset(preset), 5, 5).unwrap().words, 5);
    }
}

#[test]
fn only_a_preset_of_top_words_needs_frequencies() {
    let model = default_model();
    let golden = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/data/golden_v1.dxe");
    let bare = Model::from_bytes(&without_frequencies(&std::fs::read(golden).unwrap())).unwrap();
    assert!(!bare.info().unwrap().has_frequencies);
    let word = bare.word(0).unwrap().to_string();
    for preset in PRESETS {
        let r = resolve(&model, &Options::from_preset(preset));
        match r.top.or(if r.listed { Some(0) } else { None }) {
            Some(_) => {
                let error = call(&bare, &word, &Options::from_preset(preset)).unwrap_err();
                assert_eq!(error.kind(), ErrorKind::Unsupported, "{}", error);
                assert!(error.message().contains(&format!("preset '{}'", r.name)), "{}", error);
                assert!(error.message().contains("no frequencies section"), "{}", error);
            }
            None => {
                // The whole vocabulary needs no frequencies; the golden model
                // has no typed classes section either, which every preset needs.
                let error = call(&bare, &word, &Options::from_preset(preset)).unwrap_err();
                assert_eq!(error.kind(), ErrorKind::Unsupported, "{}", error);
                assert!(!error.message().contains("no frequencies section"), "{}", error);
                assert!(error.message().contains("no typed classes section"), "{}", error);
            }
        }
    }
}

/// A copy of a model whose frequencies section (kind 8) is relabelled as a
/// section of a reserved kind, which readers skip (docs/format.md, §4), with
/// the header digest recomputed.
fn without_frequencies(model: &[u8]) -> Vec<u8> {
    let mut out = model.to_vec();
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let header_size = u32_at(&out, 16) as usize;
    let entry = (0..u32_at(&out, 20) as usize).map(|i| 128 + 64 * i).find(|&at| u32_at(&out, at) == 8);
    let entry = entry.expect("the model has a frequencies section");
    out[entry..entry + 4].copy_from_slice(&100u32.to_le_bytes());
    out[96..128].fill(0);
    let digest = sha256(&out[..header_size]);
    out[96..128].copy_from_slice(&digest);
    out
}

/// SHA-256 (FIPS 180-4), for the header digest above.
fn sha256(data: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
        0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
        0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
        0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
        0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
        0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
        0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] =
        [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    let mut message = data.to_vec();
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in message.chunks(64) {
        let mut w = [0u32; 64];
        for i in 0..16 {
            w[i] = u32::from_be_bytes(block[4 * i..4 * i + 4].try_into().unwrap());
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
        }
        let mut v = h;
        for i in 0..64 {
            let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7].wrapping_add(s1).wrapping_add(ch).wrapping_add(K[i]).wrapping_add(w[i]);
            let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v = [t1.wrapping_add(t2), v[0], v[1], v[2], v[3].wrapping_add(t1), v[4], v[5], v[6]];
        }
        for (x, y) in h.iter_mut().zip(v) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 32];
    for (chunk, word) in out.chunks_mut(4).zip(h) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

#[test]
fn the_test_sha256_is_sha256() {
    let hex = |d: [u8; 32]| d.iter().map(|b| format!("{:02x}", b)).collect::<String>();
    assert_eq!(hex(sha256(b"abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert_eq!(hex(sha256(b"")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
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
    for preset in PRESETS {
        let error = context.privatize_text("cat", &Options::from_preset(preset).output_words(&set)).unwrap_err();
        assert!(error.message().contains(&format!("output_words: the preset '{}' fixes the output vocabulary", spelt(preset))), "{}", error);
    }
}
