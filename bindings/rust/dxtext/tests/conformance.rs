// SPDX-License-Identifier: Apache-2.0
//! The conformance suite of tests/conformance/cases.json (its README says
//! what a case is) through this crate: the same outputs, records and errors
//! as the C ABI and every other binding.

use std::path::PathBuf;

use dxtext::{Context, Ledger, LedgerOptions, Model, Options, ReleaseRecord};

/// Just enough JSON for the suite and release records. An object keeps
/// its keys in order (a bag's order is the order of its draws); two objects
/// are equal when they have the same keys with equal values.
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
            (Json::Object(a), Json::Object(b)) => {
                a.len() == b.len() && a.iter().all(|(k, v)| other.get(k) == Some(v))
            }
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
        let mut parser = Parser { s: text.as_bytes(), at: 0 };
        let value = parser.value();
        parser.space();
        assert_eq!(parser.at, parser.s.len(), "JSON: trailing text");
        value
    }

    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(pairs) => pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn text(&self, key: &str) -> &str {
        match self.get(key) {
            Some(Json::Text(s)) => s,
            other => panic!("{} is not a string: {:?}", key, other),
        }
    }

    fn object(pairs: Vec<(&str, Json)>) -> Json {
        Json::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn space(&mut self) {
        while self.at < self.s.len() && self.s[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.space();
        let found = self.s.get(self.at) == Some(&c);
        if found {
            self.at += 1;
        }
        found
    }

    fn value(&mut self) -> Json {
        self.space();
        if self.eat(b'{') {
            let mut map = Vec::new();
            if !self.eat(b'}') {
                loop {
                    self.space();
                    let key = self.string();
                    assert!(self.eat(b':'), "JSON: expected : at {}", self.at);
                    map.push((key, self.value()));
                    if self.eat(b'}') {
                        break;
                    }
                    assert!(self.eat(b','), "JSON: expected , or }} at {}", self.at);
                }
            }
            return Json::Object(map);
        }
        if self.eat(b'[') {
            let mut array = Vec::new();
            if !self.eat(b']') {
                loop {
                    array.push(self.value());
                    if self.eat(b']') {
                        break;
                    }
                    assert!(self.eat(b','), "JSON: expected , or ] at {}", self.at);
                }
            }
            return Json::Array(array);
        }
        if self.s.get(self.at) == Some(&b'"') {
            return Json::Text(self.string());
        }
        for (word, value) in [("true", Json::Bool(true)), ("false", Json::Bool(false)), ("null", Json::Null)] {
            if self.s[self.at..].starts_with(word.as_bytes()) {
                self.at += word.len();
                return value;
            }
        }
        let start = self.at;
        while self.at < self.s.len() && b"+-0123456789.eE".contains(&self.s[self.at]) {
            self.at += 1;
        }
        let number = std::str::from_utf8(&self.s[start..self.at]).unwrap();
        Json::Number(number.parse().unwrap_or_else(|_| panic!("JSON: bad number at {}", start)))
    }

    fn string(&mut self) -> String {
        assert_eq!(self.s[self.at], b'"', "JSON: expected a string at {}", self.at);
        self.at += 1;
        let mut out: Vec<u16> = Vec::new();
        loop {
            let c = self.s[self.at];
            self.at += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let e = self.s[self.at];
                    self.at += 1;
                    out.push(match e {
                        b'n' => u16::from(b'\n'),
                        b't' => u16::from(b'\t'),
                        b'r' => u16::from(b'\r'),
                        b'b' => 8,
                        b'f' => 12,
                        b'u' => {
                            let hex = std::str::from_utf8(&self.s[self.at..self.at + 4]).unwrap();
                            self.at += 4;
                            u16::from_str_radix(hex, 16).unwrap()
                        }
                        other => u16::from(other),
                    });
                }
                _ => {
                    // A UTF-8 sequence: copy it whole.
                    let start = self.at - 1;
                    while self.at < self.s.len() && (self.s[self.at] & 0xC0) == 0x80 {
                        self.at += 1;
                    }
                    out.extend(std::str::from_utf8(&self.s[start..self.at]).unwrap().encode_utf16());
                }
            }
        }
        String::from_utf16(&out).unwrap()
    }
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

// An option's value as dxt_options_set reads it: whole numbers without ".0",
// as the other bindings write them.
fn option_text(value: &Json) -> String {
    match value {
        Json::Text(s) => s.clone(),
        Json::Number(n) => format!("{}", n),
        other => panic!("an option's value is a string or a number, not {:?}", other),
    }
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

fn seed(hex: &str) -> [u8; 32] {
    let mut seed = [0u8; 32];
    for (i, byte) in seed.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap();
    }
    seed
}

fn options(given: Option<&Json>) -> Options {
    let mut options = Options::default();
    if let Some(Json::Object(given)) = given {
        for (name, value) in given {
            options = options.set(name, &option_text(value));
        }
    }
    options
}

fn error_json(e: &dxtext::Error, file: &std::path::Path) -> Json {
    Json::object(vec![
        ("status", Json::Number(f64::from(e.status()))),
        ("message", Json::Text(e.message().replace(&*file.to_string_lossy(), "{path}"))),
    ])
}

// A ledger case: its releases, each with a new context of the seed, through
// a new ledger file, and the scope's JSON.
fn ledger_outcome(model: &Model, case: &Json) -> Json {
    let directory = std::env::temp_dir().join(format!("dxtext-conformance-{}", std::process::id()));
    std::fs::create_dir_all(&directory).unwrap();
    let file = directory.join("ledger.dxl");
    let key = match case.get("key") {
        Some(Json::Text(hex)) => Some((0..hex.len() / 2).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap()).collect()),
        _ => None,
    };
    let cap = match case.get("cap") {
        Some(Json::Number(cap)) => *cap,
        other => panic!("a ledger case's cap: {:?}", other),
    };
    let mut ledger = Ledger::open(&file, case.text("scope"), &LedgerOptions { cap, key, ..LedgerOptions::default() })
        .expect("a new ledger");
    let mut releases = Vec::new();
    if let Some(Json::Array(given)) = case.get("releases") {
        for release in given {
            let mut context = Context::seeded(model, seed(case.text("seed"))).expect("a seeded context");
            releases.push(match ledger.privatize_text(&mut context, release.text("input"), &options(release.get("options")), false) {
                Ok(done) => Json::object(vec![("text", Json::Text(done.text)), ("memoised", Json::Bool(done.memoised))]),
                Err(e) => Json::object(vec![("error", error_json(&e, &file))]),
            });
        }
    }
    let json = Json::parse(&ledger.to_json().unwrap());
    drop(ledger);
    std::fs::remove_dir_all(&directory).unwrap();
    Json::object(vec![("releases", Json::Array(releases)), ("ledger", json)])
}

// What the crate gives for a case, in the shape of its "expect"; a word
// call gives no record in this crate, so its record is left out of both.
// A file's path in a message is "{path}" in the suite.
fn outcome(model: &Model, case: &Json) -> (Json, Option<ReleaseRecord>) {
    let file = repo().join(case.get("model").map_or("", |_| case.text("model")));
    let error = |e: dxtext::Error| (Json::object(vec![("error", error_json(&e, &file))]), None);
    if case.text("call") == "ledger" {
        return (ledger_outcome(model, case), None);
    }
    if case.text("call") == "open" {
        return match Model::open(&file) {
            Ok(_) => (Json::object(vec![("opened", Json::Bool(true))]), None),
            Err(e) => error(e),
        };
    }
    let options = options(case.get("options"));
    let mut context = Context::seeded(model, seed(case.text("seed"))).expect("a seeded context");
    let call = case.text("call");
    if call == "calibrate" {
        let count = |key: &str| match case.get(key) {
            Some(Json::Number(n)) => *n as u32,
            other => panic!("{}: {:?}", key, other),
        };
        return match context.calibrate(&options, count("words"), count("trials")) {
            Ok(c) => {
                let numbers = [
                    ("words", f64::from(c.words)),
                    ("trials", f64::from(c.trials)),
                    ("keep_mean", c.keep_mean),
                    ("keep_median", c.keep_median),
                    ("keep_max", c.keep_max),
                    ("distinct_mean", c.distinct_mean),
                    ("distinct_median", c.distinct_median),
                    ("distinct_max", c.distinct_max),
                ];
                let calibration = Json::object(numbers.iter().map(|(k, v)| (*k, Json::Number(*v))).collect());
                (Json::object(vec![("calibration", calibration)]), None)
            }
            Err(e) => error(e),
        };
    }
    if call == "bag" || call == "syntf" {
        // [word, count] pairs, in the order of the draws.
        let words: Vec<(&str, u64)> = match case.get("bag") {
            Some(Json::Array(pairs)) => pairs
                .iter()
                .map(|pair| match pair {
                    Json::Array(p) => match (&p[0], &p[1]) {
                        (Json::Text(w), Json::Number(n)) => (w.as_str(), *n as u64),
                        other => panic!("a [word, count] pair: {:?}", other),
                    },
                    other => panic!("a [word, count] pair: {:?}", other),
                })
                .collect(),
            other => panic!("a bag: {:?}", other),
        };
        let released = if call == "bag" {
            context.privatize_bag(&words, &options, None)
        } else {
            let n_out = match case.get("n_out") {
                Some(Json::Number(n)) => *n as u32,
                other => panic!("n_out: {:?}", other),
            };
            context.syntf(&words, n_out, &options, None)
        };
        return match released {
            Ok((bag, record)) => {
                let bag = Json::Object(bag.into_iter().map(|(w, c)| (w, Json::Number(c as f64))).collect());
                let json = Json::parse(&record.to_json().unwrap());
                (Json::object(vec![("bag", bag), ("record", json)]), Some(record))
            }
            Err(e) => error(e),
        };
    }
    let input = case.text("input");
    if call == "word" {
        return match context.privatize_word(input, &options) {
            Ok(text) => (Json::object(vec![("text", Json::Text(text))]), None),
            Err(e) => error(e),
        };
    }
    match context.privatize_text_record(input, &options, None) {
        Ok((text, record)) => {
            let json = Json::parse(&record.to_json().unwrap());
            (Json::object(vec![("text", Json::Text(text)), ("record", json)]), Some(record))
        }
        Err(e) => error(e),
    }
}

#[test]
fn conformance_suite() {
    let path = repo().join("tests/conformance/cases.json");
    let suite = Json::parse(&std::fs::read_to_string(&path).expect("tests/conformance/cases.json"));
    // The models the privatising cases name (the suite's, or their own), opened once.
    let mut models: std::collections::BTreeMap<String, Model> = std::collections::BTreeMap::new();
    let cases = match suite.get("cases") {
        Some(Json::Array(cases)) => cases,
        _ => panic!("no cases"),
    };
    let mut failures = Vec::new();
    for case in cases {
        let mut expect = case.get("expect").unwrap().clone();
        let path = match (case.text("call"), case.get("model")) {
            ("open", _) | (_, None) => suite.text("model"),
            _ => case.text("model"),
        };
        let model = models
            .entry(path.to_string())
            .or_insert_with(|| Model::open(repo().join(path)).expect("a case's model"));
        let (got, record) = outcome(model, case);
        if case.text("call") == "word" {
            if let Json::Object(pairs) = &mut expect {
                let before = pairs.len();
                pairs.retain(|(k, _)| k != "record");
                assert!(pairs.len() < before || pairs[0].0 == "error", "a word case without a record");
            }
        }
        if got != expect {
            failures.push(format!("{}:\n  expected {:?}\n  got      {:?}", case.text("name"), expect, got));
            continue;
        }
        if let Some(record) = record {
            // The typed record says what its JSON says (reveals: bits here,
            // with no names to compare).
            let json = expect.get("record").unwrap();
            let fingerprint = record.model_fingerprint().map(|f| f.iter().map(|b| format!("{:02x}", b)).collect());
            let typed = [
                ("release", Json::Text(snake(record.release()))),
                ("mechanism", Json::Text(record.mechanism().map_or("none".to_string(), snake))),
                ("epsilon", Json::Number(record.epsilon())),
                ("metric", Json::Text(snake(record.metric()))),
                ("private", Json::Bool(record.is_private())),
                ("model_sha256", fingerprint.map_or(Json::Null, Json::Text)),
                ("bound", Json::Text(snake(record.bound()))),
                ("shape", Json::Text(snake(record.release_shape()))),
                ("preset", Json::Text(record.preset().map_or("none".to_string(), snake))),
            ];
            for (key, value) in typed {
                let want = json.get(key).cloned().unwrap_or(Json::Text("none".to_string()));
                if value != want {
                    failures.push(format!("{}: the record's {} is {:?}, its JSON says {:?}", case.text("name"), key,
                                          value, want));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} conformance cases fail:\n{}", failures.len(), cases.len(),
            failures.join("\n"));
    println!("conformance: {} cases pass", cases.len());
}
