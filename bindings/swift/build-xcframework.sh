#!/usr/bin/env bash
# Builds bindings/swift/CDxtext.xcframework: the static libdxtext for iOS
# devices (arm64) and the iOS simulator (arm64, x86_64), with
# DXT_CRYPTO=portable (noise from SecRandomCopyBytes, no OpenSSL), and the
# public header with a module map. Package.swift uses it when it exists.
# Needs macOS with Xcode, CMake and Eigen (brew install cmake eigen).
# Not run by dxtext's CI, which has no Apple toolchain.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=build-ios
eigen_dir="${EIGEN3_DIR:-$(brew --prefix eigen)/share/eigen3/cmake}"

build() {  # build <sdk> <architectures>
  cmake -S . -B "$out/$1" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_SYSTEM_NAME=iOS -DCMAKE_OSX_SYSROOT="$1" -DCMAKE_OSX_ARCHITECTURES="$2" \
    -DCMAKE_OSX_DEPLOYMENT_TARGET=14.0 -DDXT_CRYPTO=portable \
    -DDXT_BUILD_TESTS=OFF -DDXT_BUILD_TOOLS=OFF -DDXT_BUILD_BENCH=OFF -DEigen3_DIR="$eigen_dir"
  cmake --build "$out/$1" --target dxtext_static --config Release
}
build iphoneos arm64
build iphonesimulator "arm64;x86_64"

rm -rf "$out/headers" bindings/swift/CDxtext.xcframework
mkdir -p "$out/headers"
cp -R include/dxtext "$out/headers/"
cp bindings/swift/xcframework/module.modulemap "$out/headers/"
xcodebuild -create-xcframework \
  -library "$out/iphoneos/lib/libdxtext.a" -headers "$out/headers" \
  -library "$out/iphonesimulator/lib/libdxtext.a" -headers "$out/headers" \
  -output bindings/swift/CDxtext.xcframework
