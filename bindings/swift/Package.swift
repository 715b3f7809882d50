// swift-tools-version:5.7
// SPDX-License-Identifier: Apache-2.0
// dxtext for Swift: a thin wrapper over the C ABI of include/dxtext/dxtext.h.
// The C library comes from CDxtext.xcframework when build-xcframework.sh has
// made it (iOS), else from an installed dxtext found by pkg-config (macOS,
// Linux). See README.md.
import Foundation
import PackageDescription

let packageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let hasXCFramework = FileManager.default.fileExists(
    atPath: packageDirectory.appendingPathComponent("CDxtext.xcframework").path)

let cLibrary: Target = hasXCFramework
    ? .binaryTarget(name: "CDxtext", path: "CDxtext.xcframework")
    : .systemLibrary(name: "CDxtext", path: "Sources/CDxtext", pkgConfig: "dxtext")

let package = Package(
    name: "Dxtext",
    platforms: [.macOS(.v11), .iOS(.v14)],
    products: [
        .library(name: "Dxtext", targets: ["Dxtext"])
    ],
    targets: [
        cLibrary,
        .target(name: "Dxtext", dependencies: ["CDxtext"]),
        .testTarget(name: "DxtextTests", dependencies: ["Dxtext"]),
    ]
)
