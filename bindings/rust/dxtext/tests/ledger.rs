// SPDX-License-Identifier: Apache-2.0
//! The ledger through the safe interface: its typed totals, a fresh draw,
//! set_cap and a corrupted file; anchors and rollback. Spending, refusal
//! past the cap and the memo are the conformance suite's (conformance.rs).

use dxtext::{Context, ErrorKind, Geometry, Ledger, LedgerAnchor, LedgerOptions, Model, Options};

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dxtext-rust-{}-{}", name, std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn totals_a_fresh_draw_set_cap_and_a_corrupted_file() {
    let model = Model::open_default(Geometry::Euclidean).expect("the default Euclidean model");
    let mut context = Context::new(&model).unwrap();
    let dir = temp_dir("ledger");
    let path = dir.join("privacy.dxl");
    // An app key: without one a ledger memoises nothing.
    let options = LedgerOptions { cap: 10.0, key: Some(vec![7u8; 32]), ..LedgerOptions::default() };
    let mut ledger = Ledger::open(&path, "alice", &options).unwrap();
    let text = "the quick brown fox jumps over the lazy dog";
    ledger.privatize_text(&mut context, text, &Options::new(4.0), false).unwrap();
    // A repeat would be memoised; a fresh one draws anew and spends.
    assert!(!ledger.privatize_text(&mut context, text, &Options::new(4.0), true).unwrap().memoised);
    ledger.set_cap(20.0).unwrap();
    let totals = ledger.totals().unwrap();
    assert_eq!((totals.spent, totals.releases, totals.memoised, totals.cap), (8.0, 2, 1, 20.0));
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

// Issue 27, case 1: the copy saved after the first release, put back after
// the second, is refused against the anchor stored after the last call.
#[test]
fn a_rollback_is_refused_against_the_stored_anchor() {
    let model = Model::open_default(Geometry::Euclidean).expect("the default Euclidean model");
    let mut context = Context::new(&model).unwrap();
    let dir = temp_dir("anchor-rollback");
    let path = dir.join("privacy.dxl");
    let key = Some(vec![9u8; 32]);
    let options = LedgerOptions { cap: 8.0, key: key.clone(), ..LedgerOptions::default() };
    let mut ledger = Ledger::open(&path, "default", &options).unwrap();
    ledger.privatize_text(&mut context, "hello", &Options::new(4.0), false).unwrap();
    let saved = std::fs::read(&path).unwrap();
    ledger.privatize_text(&mut context, "world", &Options::new(4.0), false).unwrap();
    let refused = ledger.privatize_text(&mut context, "again", &Options::new(4.0), false).unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::BudgetExceeded);
    let anchor = ledger.anchor().unwrap();
    drop(ledger);
    assert_eq!(anchor.spent, 8.0);
    let stored = anchor.to_bytes();
    assert_eq!(stored.len(), LedgerAnchor::BYTES);
    let restored = LedgerAnchor::from_bytes(&stored).unwrap();
    assert_eq!(restored, anchor);

    std::fs::write(&path, &saved).unwrap();
    let with_anchor = LedgerOptions { key: key.clone(), anchor: Some(restored), ..LedgerOptions::default() };
    let rolled_back = Ledger::open(&path, "default", &with_anchor).err().unwrap();
    assert_eq!(rolled_back.kind(), ErrorKind::LedgerRollback);
    assert_eq!(rolled_back.status(), 20);
    assert!(rolled_back.message().contains("rolled back"), "{}", rolled_back.message());
    // Without the anchor, a deleted file and another ledger's anchor: the
    // library's own tests (tests/unit/test_ledger.cpp).
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fresh_anchor_round_trips_and_a_bad_one_is_refused() {
    let dir = temp_dir("anchor-round-trip");
    let path = dir.join("privacy.dxl");
    let with_anchor = |anchor| LedgerOptions { anchor: Some(anchor), ..LedgerOptions::default() };
    let mut ledger = Ledger::open(&path, "default", &LedgerOptions { cap: 1.0, ..LedgerOptions::default() }).unwrap();
    let anchor = ledger.anchor().unwrap();
    assert_eq!(anchor.spent, 0.0);
    assert_eq!(ledger.anchor().unwrap(), anchor); // nothing changed since
    drop(ledger);
    let stored = LedgerAnchor::from_bytes(&anchor.to_bytes()).unwrap();
    assert_eq!(stored, anchor);
    assert_eq!(Ledger::open(&path, "default", &with_anchor(stored)).unwrap().anchor().unwrap(), anchor);

    for length in [0usize, 31, 33] {
        let bad = LedgerAnchor::from_bytes(&vec![0u8; length]).unwrap_err();
        assert_eq!(bad.kind(), ErrorKind::InvalidArgument);
        assert!(bad.message().contains("32 bytes"), "{}", bad.message());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
