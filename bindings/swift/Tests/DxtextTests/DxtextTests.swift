// SPDX-License-Identifier: Apache-2.0
// Run with `swift test` on a machine with Swift and an installed dxtext
// (see README.md); they are not part of the Linux CI, which has no Swift.
import Foundation
import XCTest

@testable import Dxtext

final class DxtextTests: XCTestCase {
    func testPrivatizeTextRecordAndDiagnostics() throws {
        let model = try DxModel(path: try DxModel.defaultPath())
        let privatizer = try DxPrivatizer(model: model)
        var options = PrivatizeOptions(epsilon: 20)
        options.oov = .placeholder
        let (text, record, diagnostics) = try privatizer.privatizeWithLocalDiagnostics(
            "The president spoke to the nation.", options: options)
        XCTAssertTrue(text.hasSuffix("."))
        XCTAssertEqual(diagnostics.wordsPrivatized, 6)
        XCTAssertTrue(record.isPrivate)
        XCTAssertEqual(record.bound, 2)  // DXT_BOUND_POSITIONWISE
        XCTAssertEqual(record.modelFingerprint?.count, 32)
        XCTAssertFalse(record.json.contains("words_privatized"))
    }

    // The presets' values are in tools/options/presets.table; these tests
    // never repeat them. They read what each preset resolves to from the
    // record and the local diagnostics of a call made with it, and check the
    // rules of resolution relative to that.
    static let presets: [Preset] = [.readable, .features, .strongest]
    /// One token of each class: a stopword, a vocabulary word, a number, an unknown word.
    static let eachClass = "the war 42 zzqxv"
    /// The token classes, as the diagnostics' JSON names them.
    static let classes = ["in_vocabulary", "out_of_vocabulary", "number", "stopword"]
    static let countedAs: [Policy: String] = [.privatize: "privatized", .placeholder: "placeholder",
                                              .drop: "dropped", .keep: "kept"]

    /// The policy each token class of `eachClass` went under, from the diagnostics' JSON.
    func policies(_ diagnostics: LocalDiagnostics) throws -> [String: Policy] {
        let parsed = try JSONSerialization.jsonObject(with: Data(diagnostics.json.utf8)) as? [String: Any]
        let tokens = try XCTUnwrap(parsed?["tokens"] as? [String: [String: Int]])
        var out = [String: Policy]()
        for tokenClass in Self.classes {
            for (policy, key) in Self.countedAs where tokens[tokenClass]?[key] == 1 {
                out[tokenClass] = policy
            }
        }
        XCTAssertEqual(out.count, Self.classes.count, diagnostics.json)
        return out
    }

    func testPresetsResolveInTheLibrary() throws {
        let model = try DxModel(path: try DxModel.defaultPath())
        let privatizer = try DxPrivatizer(model: model)
        for preset in Self.presets {
            let name = "\(preset)"
            let (text, record, diagnostics) = try privatizer.privatizeWithLocalDiagnostics(
                Self.eachClass, options: PrivatizeOptions(preset: preset))
            XCTAssertEqual(record.preset, preset)
            XCTAssertTrue(record.json.contains("\"preset\":\"\(name)\""), record.json)
            XCTAssertGreaterThanOrEqual(record.epsilon, PrivatizeOptions.epsilonMin)
            XCTAssertLessThanOrEqual(record.epsilon, PrivatizeOptions.epsilonMax)
            let mechanism = try XCTUnwrap(Mechanism(rawValue: record.mechanism))

            // Each token class under the preset's policy: dropped tokens leave no word.
            let policy = try policies(diagnostics)
            let dropped = policy.values.filter { $0 == .drop }.count
            XCTAssertEqual(text.split(separator: " ").count, Self.classes.count - dropped, "\(name): \(text)")
            XCTAssertEqual(Int(diagnostics.wordsPrivatized), policy.values.filter { $0 == .privatize }.count)
            let counts: [String: UInt64] = ["the": 1, "war": 3, "42": 2, "zzqxv": 1]
            let classOf = ["the": "stopword", "war": "in_vocabulary", "42": "number", "zzqxv": "out_of_vocabulary"]
            let expected = counts.filter { policy[classOf[$0.key]!] != .drop }.values.reduce(0, +)
            let (bag, _) = try privatizer.privatizeBag(counts, options: PrivatizeOptions(preset: preset))
            XCTAssertEqual(bag.values.reduce(0, +), expected, name)

            // An epsilon overrides the preset's, and only that.
            var override = PrivatizeOptions(preset: preset)
            override.epsilon = record.epsilon == 1.5 ? 2.5 : 1.5
            let (_, over) = try privatizer.privatize(Self.eachClass, options: override)
            XCTAssertEqual(over.epsilon, override.epsilon)
            XCTAssertEqual(over.mechanism, record.mechanism)
            XCTAssertEqual(over.releaseShape, record.releaseShape)
            XCTAssertEqual(over.preset, preset)

            // A value other than both the default and the preset's own is
            // refused, and named; the preset's own values are accepted.
            let other = try XCTUnwrap(([.hyperbolic, .exponential, .syntf, .mahalanobis, .vickrey, .tem] as [Mechanism])
                .first { $0 != mechanism })
            var conflict = PrivatizeOptions(preset: preset)
            conflict.mechanism = other
            XCTAssertThrowsError(try privatizer.privatize("cat", options: conflict)) { error in
                XCTAssertEqual((error as? DxtextError)?.status, DxtextError.invalidArgument)
                XCTAssertTrue((error as? DxtextError)?.message.contains("mechanism: '\(other)' conflicts with the preset '\(name)'") == true,
                              "\(error)")
            }
            var own = PrivatizeOptions(preset: preset)
            own.mechanism = mechanism
            own.releaseShape = record.releaseShape
            own.inVocabulary = policy["in_vocabulary"]
            own.oov = policy["out_of_vocabulary"]
            own.numbers = policy["number"]
            own.stopwords = policy["stopword"]
            XCTAssertNoThrow(try privatizer.privatize("cat", options: own))
        }
    }

    func testOutputWords() throws {
        let model = try DxModel(path: try DxModel.defaultPath())
        let privatizer = try DxPrivatizer(model: model)
        let allowed = ["house", "river", "music"]
        let set = try model.outputSet(allowed)
        XCTAssertEqual(set.count, 3)
        var options = PrivatizeOptions(epsilon: 2, mechanism: .exponential)
        options.releaseShape = .strict
        options.outputWords = set
        let (text, listed) = try privatizer.privatize("the cat sat on the mat", options: options)
        XCTAssertTrue(text.split(separator: " ").allSatisfy { allowed.contains(String($0)) })
        XCTAssertTrue(listed.json.contains("\"kind\":\"list\",\"size\":3"))
        XCTAssertThrowsError(try model.outputSet([]))
        XCTAssertThrowsError(try model.outputSet(["house", "house"]))
        XCTAssertThrowsError(try model.outputSet(["house", "zzqxv"]))
    }

    func testBagAndSeed() throws {
        let model = try DxModel(path: try DxModel.defaultPath())
        let seed = [UInt8](repeating: 7, count: 32)
        let a = try DxPrivatizer(model: model, seed: seed)
        let b = try DxPrivatizer(model: model, seed: seed)
        let options = PrivatizeOptions(epsilon: 15)
        let (bag, record) = try a.privatizeBag(["president": 2, "war": 1], options: options)
        XCTAssertEqual(bag.values.reduce(0, +), 3)
        XCTAssertFalse(record.isPrivate)
        XCTAssertEqual(record.bound, 3)  // DXT_BOUND_BAG_EMD
        XCTAssertEqual(try b.privatizeBag(["president": 2, "war": 1], options: options).bag, bag)
    }

    func testErrors() throws {
        let model = try DxModel(path: try DxModel.defaultPath())
        let privatizer = try DxPrivatizer(model: model)
        XCTAssertThrowsError(try privatizer.privatize("war", epsilon: -1)) { error in
            XCTAssertEqual((error as? DxtextError)?.status, DxtextError.invalidEpsilon)
        }
        XCTAssertThrowsError(try DxModel(path: "/no/such/model.dxe")) { error in
            XCTAssertEqual((error as? DxtextError)?.status, DxtextError.io)
        }
        XCTAssertThrowsError(try DxModel(bytes: Array("not a model".utf8))) { error in
            XCTAssertEqual((error as? DxtextError)?.status, DxtextError.notAModel)
        }
        // A NUL would end the C string early: refused, not truncated.
        var options = PrivatizeOptions(epsilon: 5)
        options.oov = .placeholder
        options.placeholder = "[x\u{0}y]"
        XCTAssertThrowsError(try privatizer.privatize("zzqxv", options: options)) { error in
            XCTAssertEqual((error as? DxtextError)?.status, DxtextError.invalidArgument)
        }
    }

    func testLedger() throws {
        let model = try DxModel(path: try DxModel.defaultPath())
        let privatizer = try DxPrivatizer(model: model)
        let path = NSTemporaryDirectory() + "dxtext-swift-ledger-\(getpid()).dxl"
        defer { unlink(path); unlink(path + ".lock") }
        // An app key: without one a ledger memoises nothing.
        let ledger = try DxLedger(path: path, scope: "alice", cap: 10, key: [UInt8](repeating: 7, count: 32))
        let options = PrivatizeOptions(epsilon: 4)
        let first = try ledger.privatize("The president spoke.", with: privatizer, options: options)
        XCTAssertFalse(first.memoised)
        let again = try ledger.privatize("The president spoke.", with: privatizer, options: options)
        XCTAssertTrue(again.memoised)
        XCTAssertEqual(again.text, first.text)
        _ = try ledger.privatize("hello world", with: privatizer, options: options)
        XCTAssertEqual(try ledger.totals().spent, 8)
        XCTAssertThrowsError(try ledger.privatize("a new text", with: privatizer, options: options)) { error in
            XCTAssertEqual((error as? DxtextError)?.status, DxtextError.budgetExceeded)
        }
        XCTAssertTrue(try ledger.json().contains("\"releases\":2"))
    }

    // Issue 27, case 1: the copy saved after the first release, put back
    // after the second, is refused against the anchor stored after the last call.
    func testLedgerRollbackIsRefusedAgainstTheAnchor() throws {
        let model = try DxModel(path: try DxModel.defaultPath())
        let privatizer = try DxPrivatizer(model: model)
        let path = NSTemporaryDirectory() + "dxtext-swift-anchor-\(getpid()).dxl"
        defer { unlink(path); unlink(path + ".lock") }
        let key = [UInt8](repeating: 9, count: 32)
        let options = PrivatizeOptions(epsilon: 4)
        let anchor: LedgerAnchor
        let saved: Data
        do {
            let ledger = try DxLedger(path: path, cap: 8, key: key)
            _ = try ledger.privatize("hello", with: privatizer, options: options)
            saved = try Data(contentsOf: URL(fileURLWithPath: path))
            _ = try ledger.privatize("world", with: privatizer, options: options)
            XCTAssertThrowsError(try ledger.privatize("again", with: privatizer, options: options)) { error in
                XCTAssertEqual((error as? DxtextError)?.status, DxtextError.budgetExceeded)
            }
            anchor = try ledger.anchor()
        }
        XCTAssertEqual(anchor.spent, 8)
        XCTAssertEqual(anchor.ledgerId.count, 16)
        let stored = anchor.toBytes()
        XCTAssertEqual(stored.count, LedgerAnchor.byteCount)
        let restored = try LedgerAnchor(bytes: stored)
        XCTAssertEqual(restored, anchor)
        XCTAssertEqual(restored.commits, anchor.commits)

        try saved.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try DxLedger(path: path, key: key, anchor: restored)) { error in
            XCTAssertEqual((error as? DxtextError)?.status, DxtextError.ledgerRollback)
            XCTAssertEqual((error as? DxtextError)?.status, 20)
        }
        // Without the anchor it is not detected (documented).
        XCTAssertEqual(try DxLedger(path: path, key: key).totals().spent, 4)
        // A deleted file is a rollback too, and is not made anew.
        unlink(path)
        XCTAssertThrowsError(try DxLedger(path: path, key: key, anchor: anchor)) { error in
            XCTAssertEqual((error as? DxtextError)?.status, DxtextError.ledgerRollback)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testLedgerAnchorRoundTripsAndABadOneIsRefused() throws {
        let path = NSTemporaryDirectory() + "dxtext-swift-anchor-fresh-\(getpid()).dxl"
        defer { unlink(path); unlink(path + ".lock") }
        let anchor = try DxLedger(path: path, cap: 1).anchor()
        XCTAssertEqual(anchor.spent, 0)
        XCTAssertEqual(try LedgerAnchor(bytes: anchor.toBytes()), anchor)
        let reopened = try DxLedger(path: path, anchor: try LedgerAnchor(bytes: anchor.toBytes()))
        XCTAssertEqual(try reopened.anchor(), anchor)
        for count in [0, 31, 33] {
            XCTAssertThrowsError(try LedgerAnchor(bytes: [UInt8](repeating: 0, count: count))) { error in
                XCTAssertEqual((error as? DxtextError)?.status, DxtextError.invalidArgument)
                XCTAssertTrue((error as? DxtextError)?.message.contains("32 bytes") ?? false)
            }
        }
    }
}
