// Run with `swift test` on a machine with Swift and an installed dxtext
// (see README.md); they are not part of the Linux CI, which has no Swift.
import XCTest

@testable import Dxtext

final class DxtextTests: XCTestCase {
    func testPrivatizeTextAndReport() throws {
        let model = try DxModel(path: try DxModel.defaultPath())
        let privatizer = try DxPrivatizer(model: model)
        var options = PrivatizeOptions(epsilon: 20)
        options.outOfVocabulary = .placeholder
        let (text, report) = try privatizer.privatize("The president spoke to the nation.", options: options)
        XCTAssertTrue(text.hasSuffix("."))
        XCTAssertEqual(report.wordsPrivatized, 6)
        XCTAssertTrue(report.isPrivate)
        XCTAssertEqual(report.modelFingerprint?.count, 32)
    }

    func testBagAndSeed() throws {
        let model = try DxModel(path: try DxModel.defaultPath())
        let seed = [UInt8](repeating: 7, count: 32)
        let a = try DxPrivatizer(model: model, seed: seed)
        let b = try DxPrivatizer(model: model, seed: seed)
        let options = PrivatizeOptions(epsilon: 15)
        let (bag, report) = try a.privatizeBag(["president": 2, "war": 1], options: options)
        XCTAssertEqual(bag.values.reduce(0, +), 3)
        XCTAssertFalse(report.isPrivate)
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
    }
}
