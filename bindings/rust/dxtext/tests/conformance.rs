// SPDX-License-Identifier: Apache-2.0
//! The conformance suite of tests/conformance/cases.json (its README says
//! what a case is) through this crate: the same outputs, records and errors
//! as the C ABI and every other binding.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use dxtext::{Context, Error, Ledger, LedgerOptions, Model, Options, ReleaseRecord};

/// Just enough JSON for the suite and release records. An object keeps
/// its keys in order (options are set in the order given); two objects are
/// equal when they have the same keys with equal values.
#[derive(Clone, Debug)]
enum Json {
    Null,
    Bool(bool),
    Number(f64),
    Text(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl PartialEq for Json {
    fn eq(&self, other: &Json) -> bool {
        match (self, other) {
            (Json::Object(a), Json::Object(b)) => a.len() == b.len() && a.iter().all(|(k, v)| other.get(k) == Some(v)),
            (Json::Array(a), Json::Array(b)) => a == b,
            (Json::Number(a), Json::Number(b)) => a == b,
            (Json::Text(a), Json::Text(b)) => a == b,
            (Json::Bool(a), Json::Bool(b)) => a == b,
            (Json::Null, Json::Null) => true,
            _ => false,
        }
    }
}

impl Json {
    fn parse(text: &str) -> Json {
        let mut rest = text;
        let value = Json::read(&mut rest);
        assert!(rest.trim().is_empty(), "JSON: trailing text {:.40}", rest);
        value
    }

    /// The value at the start of `s`, which is left after it.
    fn read(s: &mut &str) -> Json {
        if eat(s, "{") {
            return Json::Object(items(s, "}", |s| {
                let key = Json::read(s).str().to_string();
                assert!(eat(s, ":"), "JSON: no : at {:.40}", s);
                (key, Json::read(s))
            }));
        }
        if eat(s, "[") {
            return Json::Array(items(s, "]", Json::read));
        }
        if eat(s, "\"") {
            return Json::Text(string(s));
        }
        let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || "+-.".contains(c))).unwrap_or(s.len());
        let (word, rest) = s.split_at(end);
        *s = rest;
        match word {
            "true" => Json::Bool(true),
            "false" => Json::Bool(false),
            "null" => Json::Null,
            number => Json::Number(number.parse().unwrap_or_else(|_| panic!("JSON: bad value {:.40}", number))),
        }
    }

    fn object<const N: usize>(pairs: [(&str, Json); N]) -> Json {
        Json::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }

    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(pairs) => pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value at `key`, which the suite always gives.
    fn at(&self, key: &str) -> &Json {
        self.get(key).unwrap_or_else(|| panic!("no {} in {:?}", key, self))
    }

    fn str(&self) -> &str {
        match self {
            Json::Text(s) => s,
            other => panic!("not a string: {:?}", other),
        }
    }

    fn num(&self) -> f64 {
        match self {
            Json::Number(n) => *n,
            other => panic!("not a number: {:?}", other),
        }
    }

    fn items(&self) -> &[Json] {
        match self {
            Json::Array(items) => items,
            other => panic!("not an array: {:?}", other),
        }
    }
}

/// Skips white space at the start of `s`, then `token` if it comes next.
fn eat(s: &mut &str, token: &str) -> bool {
    *s = s.trim_start();
    let found = s.starts_with(token);
    if found {
        *s = &s[token.len()..];
    }
    found
}

/// The items of an array or object, each read by `item`, up to its `close`.
fn items<T>(s: &mut &str, close: &str, item: impl Fn(&mut &str) -> T) -> Vec<T> {
    let mut items = Vec::new();
    while !eat(s, close) {
        assert!(items.is_empty() || eat(s, ","), "JSON: no , or {} at {:.40}", close, s);
        items.push(item(s));
    }
    items
}

/// The rest of a string after its opening quote, and the closing quote.
fn string(s: &mut &str) -> String {
    // UTF-16, so that an escaped surrogate pair (\ud83d\ude00) makes one character.
    let mut out: Vec<u16> = Vec::new();
    loop {
        let (text, rest) = s.split_at(s.find(&['"', '\\'][..]).expect("JSON: an unterminated string"));
        out.extend(text.encode_utf16());
        if let Some(rest) = rest.strip_prefix('"') {
            *s = rest;
            return String::from_utf16(&out).unwrap();
        }
        let (escape, rest) = rest[1..].split_at(1);
        *s = rest;
        out.push(match escape {
            "n" => 0x0A,
            "t" => 0x09,
            "r" => 0x0D,
            "b" => 0x08,
            "f" => 0x0C,
            "u" => {
                let (hex, rest) = s.split_at(4);
                *s = rest;
                u16::from_str_radix(hex, 16).unwrap()
            }
            other => u16::from(other.as_bytes()[0]), // \" \\ \/
        });
    }
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn bytes(hex: &str) -> Vec<u8> {
    (0..hex.len() / 2).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap()).collect()
}

fn seeded(model: &Model, case: &Json) -> Context {
    let seed = bytes(case.at("seed").str()).try_into().expect("a 32-byte seed");
    Context::seeded(model, seed).expect("a seeded context")
}

// The options by name, values as dxt_options_set reads them: whole numbers
// without ".0", as the other bindings write them.
fn options(case: &Json) -> Options {
    let mut options = Options::default();
    if let Some(Json::Object(given)) = case.get("options") {
        for (name, value) in given {
            let value = match value {
                Json::Text(s) => s.clone(),
                other => other.num().to_string(),
            };
            options = options.set(name, &value);
        }
    }
    options
}

// An error as the suite writes it: a file's path in a message is "{path}".
fn error_json(e: &Error, file: &Path) -> Json {
    let status = Json::Number(f64::from(e.status()));
    let message = Json::Text(e.message().replace(&*file.to_string_lossy(), "{path}"));
    Json::object([("error", Json::object([("status", status), ("message", message)]))])
}

// A ledger case: its releases, each with a new context of the seed, through
// a new ledger file, and the scope's JSON.
fn ledger_outcome(model: &Model, case: &Json) -> Json {
    let directory = std::env::temp_dir().join(format!("dxtext-conformance-{}", std::process::id()));
    std::fs::create_dir_all(&directory).unwrap();
    let file = directory.join("ledger.dxl");
    let key = match case.at("key") {
        Json::Null => None,
        key => Some(bytes(key.str())),
    };
    let new = LedgerOptions { cap: case.at("cap").num(), key, ..LedgerOptions::default() };
    let mut ledger = Ledger::open(&file, case.at("scope").str(), &new).expect("a new ledger");
    let mut releases = Vec::new();
    for release in case.at("releases").items() {
        let input = release.at("input").str();
        releases.push(match ledger.privatize_text(&mut seeded(model, case), input, &options(release), false) {
            Ok(done) => Json::object([("text", Json::Text(done.text)), ("memoised", Json::Bool(done.memoised))]),
            Err(e) => error_json(&e, &file),
        });
    }
    let scope = Json::parse(&ledger.to_json().unwrap());
    drop(ledger);
    std::fs::remove_dir_all(&directory).unwrap();
    Json::object([("releases", Json::Array(releases)), ("ledger", scope)])
}

// What the crate gives for a case, in the shape of its "expect", with the
// typed record of a release; `file` is the case's model.
fn outcome(model: &Model, case: &Json, file: &Path) -> dxtext::Result<(Json, Option<ReleaseRecord>)> {
    let options = options(case);
    let (output, record) = match case.at("call").str() {
        "open" => return Model::open(file).map(|_| (Json::object([("opened", Json::Bool(true))]), None)),
        "ledger" => return Ok((ledger_outcome(model, case), None)),
        // This crate gives no record for a word.
        "word" => {
            let text = seeded(model, case).privatize_word(case.at("input").str(), &options)?;
            return Ok((Json::object([("text", Json::Text(text))]), None));
        }
        "calibrate" => {
            let (words, trials) = (case.at("words").num() as u32, case.at("trials").num() as u32);
            let c = seeded(model, case).calibrate(&options, words, trials)?;
            let fields = [
                ("words", f64::from(c.words)),
                ("trials", f64::from(c.trials)),
                ("keep_mean", c.keep_mean),
                ("keep_median", c.keep_median),
                ("keep_max", c.keep_max),
                ("distinct_mean", c.distinct_mean),
                ("distinct_median", c.distinct_median),
                ("distinct_max", c.distinct_max),
            ];
            let calibration = Json::object(fields.map(|(k, v)| (k, Json::Number(v))));
            return Ok((Json::object([("calibration", calibration)]), None));
        }
        "text" => {
            let (text, record) = seeded(model, case).privatize_text_record(case.at("input").str(), &options, None)?;
            (("text", Json::Text(text)), record)
        }
        call => {
            // A bag: [word, count] pairs, in the order of the draws.
            let pairs = case.at("bag").items().iter().map(|pair| (pair.items()[0].str(), pair.items()[1].num() as u64));
            let bag: Vec<(&str, u64)> = pairs.collect();
            let mut context = seeded(model, case);
            let (bag, record) = match call {
                "bag" => context.privatize_bag(&bag, &options, None)?,
                _ => context.syntf(&bag, case.at("n_out").num() as u32, &options, None)?,
            };
            (("bag", Json::Object(bag.into_iter().map(|(w, c)| (w, Json::Number(c as f64))).collect())), record)
        }
    };
    let json = Json::parse(&record.to_json()?);
    Ok((Json::object([output, ("record", json)]), Some(record)))
}

// A variant's name as the JSON spells it: BagEmd -> bag_emd.
fn snake(value: impl std::fmt::Debug) -> String {
    let mut out = String::new();
    for (i, c) in format!("{:?}", value).chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

// What the typed record says, by the keys of its JSON. A key the JSON leaves
// out has no value here: "none", 0 or null.
fn typed(record: &ReleaseRecord) -> [(&'static str, Json); 16] {
    let finite = |x: f64| if x.is_finite() { Json::Number(x) } else { Json::Null };
    let fingerprint = record.model_fingerprint().map(|f| f.iter().map(|b| format!("{:02x}", b)).collect());
    [
        ("release", Json::Text(snake(record.release()))),
        ("mechanism", Json::Text(record.mechanism().map_or("none".to_string(), snake))),
        ("epsilon", Json::Number(record.epsilon())),
        ("metric", Json::Text(snake(record.metric()))),
        ("rng", Json::Text(snake(record.rng_mode()))),
        ("private", Json::Bool(record.is_private())),
        ("model_sha256", fingerprint.map_or(Json::Null, Json::Text)),
        ("bound", Json::Text(snake(record.bound()))),
        ("draws", Json::Number(record.draws() as f64)),
        ("epsilon_total", Json::Number(record.epsilon_total())),
        ("epsilon_vocabulary", Json::Number(record.epsilon_vocabulary())),
        ("shape", Json::Text(snake(record.release_shape()))),
        ("preset", Json::Text(record.preset().map_or("none".to_string(), snake))),
        ("worst_case_per_word", finite(record.worst_case_per_word())),
        ("floor", Json::Number(record.uniform_floor())),
        ("context_prior", Json::Number(record.context_prior())),
    ]
}

#[test]
fn conformance_suite() {
    let suite = Json::parse(&std::fs::read_to_string(repo().join("tests/conformance/cases.json")).unwrap());
    // The models the privatising cases name (the suite's, or their own), opened once.
    let mut models: BTreeMap<&str, Model> = BTreeMap::new();
    let cases = suite.at("cases").items();
    let mut failures = Vec::new();
    for case in cases {
        let name = case.at("name").str();
        let file = repo().join(case.get("model").map_or("", Json::str));
        let path = match case.get("model") {
            Some(path) if case.at("call").str() != "open" => path.str(),
            _ => suite.at("model").str(),
        };
        let model = models.entry(path).or_insert_with(|| Model::open(repo().join(path)).expect("a case's model"));
        let (got, record) = outcome(model, case, &file).unwrap_or_else(|e| (error_json(&e, &file), None));
        let mut expect = case.at("expect").clone();
        if let (Json::Object(pairs), "word") = (&mut expect, case.at("call").str()) {
            pairs.retain(|(k, _)| k != "record");
        }
        if got != expect {
            failures.push(format!("{}:\n  expected {:?}\n  got      {:?}", name, expect, got));
            continue;
        }
        // The typed record says what its JSON says (reveals: bits here, with
        // no names to compare).
        for (key, value) in record.as_ref().map(typed).into_iter().flatten() {
            let absent = value == Json::Null || value == Json::Number(0.0) || value == Json::Text("none".into());
            let want = expect.at("record").get(key);
            if !(want == Some(&value) || want.is_none() && absent) {
                failures.push(format!("{}: the record's {} is {:?}, its JSON says {:?}", name, key, value, want));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} cases fail:\n{}", failures.len(), cases.len(), failures.join("\n"));
    println!("conformance: {} cases pass", cases.len());
}
