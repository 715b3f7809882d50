#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds bindings/swift/CDxtext.xcframework: the static libdxtext for iOS
# devices (arm64) and the iOS simulator (arm64, x86_64), with
# DXT_CRYPTO=portable (noise from SecRandomCopyBytes, no OpenSSL), and the
# public header with a module map. Package.swift uses it when it exists.
# Needs macOS with Xcode, CMake and Eigen (brew install cmake eigen).
# Not run by dxtext's CI, which has no Apple toolchain.
# The core's sources: core/ beside this script in the packed Swift package
# (tools/package.sh swift), else the dxtext source tree it sits in.
set -euo pipefail
package=$(cd "$(dirname "$0")" && pwd)
if [ -f "$package/core/CMakeLists.txt" ]; then cd "$package/core"; else cd "$package/../.."; fi
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

rm -rf "$out/headers" "$package/CDxtext.xcframework"
mkdir -p "$out/headers"
cp -R include/dxtext "$out/headers/"
cp "$package/xcframework/module.modulemap" "$out/headers/"
xcodebuild -create-xcframework \
  -library "$out/iphoneos/lib/libdxtext.a" -headers "$out/headers" \
  -library "$out/iphonesimulator/lib/libdxtext.a" -headers "$out/headers" \
  -output "$package/CDxtext.xcframework"
