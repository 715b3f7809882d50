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

    func testPresetsAndOutputWords() throws {
        let model = try DxModel(path: try DxModel.defaultPath())
        let privatizer = try DxPrivatizer(model: model)
        let (_, record) = try privatizer.privatize("The cat sat on the mat.", options: PrivatizeOptions(preset: .readable))
        XCTAssertEqual(record.preset, .readable)
        XCTAssertEqual(record.mechanism, 3)  // DXT_MECHANISM_EXPONENTIAL
        XCTAssertEqual(record.epsilon, 3.7)
        XCTAssertEqual(record.releaseShape, .normalize)
        XCTAssertTrue(record.json.contains("\"preset\":\"readable\""))
        var conflict = PrivatizeOptions(preset: .readable)
        conflict.mechanism = .tem
        XCTAssertThrowsError(try privatizer.privatize("cat", options: conflict))

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
        let ledger = try DxLedger(path: path, scope: "alice", cap: 10)
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
}
