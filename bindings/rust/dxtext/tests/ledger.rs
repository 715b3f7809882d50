// SPDX-License-Identifier: Apache-2.0
//! The ledger through the safe interface: a cap, a refusal, a memoised
//! repeat, a fresh draw, the JSON, and a corrupted file.

use dxtext::{Context, ErrorKind, Geometry, Ledger, LedgerOptions, Model, Options};

#[test]
fn ledger_caps_memoises_and_detects_corruption() {
    let model = Model::open_default(Geometry::Euclidean).expect("the default Euclidean model");
    let mut context = Context::new(&model).unwrap();
    let dir = std::env::temp_dir().join(format!("dxtext-rust-ledger-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("privacy.dxl");
    // An app key: without one a ledger memoises nothing.
    let options = LedgerOptions { cap: 10.0, key: Some(vec![7u8; 32]), ..LedgerOptions::default() };
    let mut ledger = Ledger::open(&path, "alice", &options).unwrap();
    let text = "the quick brown fox jumps over the lazy dog";
    let first = ledger.privatize_text(&mut context, text, &Options::new(4.0), false).unwrap();
    assert!(!first.memoised);
    let again = ledger.privatize_text(&mut context, text, &Options::new(4.0), false).unwrap();
    assert!(again.memoised);
    assert_eq!(again.text, first.text);
    ledger.privatize_text(&mut context, "hello world", &Options::new(4.0), false).unwrap();
    let totals = ledger.totals().unwrap();
    assert_eq!((totals.spent, totals.releases, totals.memoised, totals.cap), (8.0, 2, 2, 10.0));
    let refused = ledger.privatize_text(&mut context, "a new text", &Options::new(4.0), false).unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::BudgetExceeded);
    assert_eq!(refused.status(), 18);
    let refused = ledger.privatize_text(&mut context, text, &Options::new(4.0), true).unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::BudgetExceeded);
    ledger.set_cap(20.0).unwrap();
    let fresh = ledger.privatize_text(&mut context, text, &Options::new(4.0), true).unwrap();
    assert!(!fresh.memoised);
    assert_eq!(ledger.totals().unwrap().spent, 12.0);
    let json = ledger.to_json().unwrap();
    assert!(json.starts_with("{\"scope\":\"alice\""), "{}", json);
    assert!(json.contains("\"spent_by_metric\":{\"euclidean\":12}"), "{}", json);
    assert_eq!(ledger.set_cap(f64::NAN).unwrap_err().kind(), ErrorKind::InvalidArgument);
    drop(ledger);

    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let corrupt = Ledger::open(&path, "alice", &LedgerOptions::default()).err().unwrap();
    assert_eq!(corrupt.kind(), ErrorKind::LedgerCorrupt);
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    std::fs::remove_dir_all(&dir).unwrap();
}
