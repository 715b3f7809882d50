# SPDX-License-Identifier: Apache-2.0
# The SwiftPM package: bindings/swift (Package.swift, the CDxtext module map
# and the Dxtext wrapper) with LICENSE, and the core's sources in core/ for
# build-xcframework.sh, and the default model in models/. It links an installed libdxtext (pkg-config) or the
# CDxtext.xcframework that build-xcframework.sh makes on a Mac. There is no
# Swift toolchain on Debian 12: this package is packed, not built, here.
version=$(sed -n 's/^project(dxtext VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
stage=build-package/swift/dxtext-swift-$version
rm -rf "build-package/swift"
mkdir -p "$stage"
cp -r bindings/swift/Package.swift bindings/swift/README.md bindings/swift/Sources bindings/swift/Tests \
  bindings/swift/build-xcframework.sh bindings/swift/xcframework LICENSE "$stage/"
dxt_stage_core_sources "$stage/core"
# The default model, to ship in an app bundle (the package has no built
# library: build-xcframework.sh or an installed dxtext provides it).
mkdir -p "$stage/models"
cp "$(dxt_default_model)" models/README.md models/NOTICE-dxtext-en-euclid.md "$stage/models/"
tar -C build-package/swift -czf "dist/swift/dxtext-swift-$version.tar.gz" "dxtext-swift-$version"
