# SPDX-License-Identifier: Apache-2.0
# The jar: the classes of bindings/java, libdxtext_jni for this platform at
# org/dxtext/native/<os>-<arch>/ (the core linked in statically, portable
# crypto; DxNativeLoader copies it out and loads it), the default model at
# org/dxtext/models/ (DxModel.openDefault() reads it), LICENSE and the model
# card. A pom beside it gives the Maven coordinates and the licence.
# With ANDROID_NDK_HOME set, an AAR too: classes.jar (the model inside, no
# desktop natives), jni/<abi>/libdxtext_jni.so for arm64-v8a, armeabi-v7a
# and x86_64, AndroidManifest.xml.
dxt_need_packages default-jdk-headless cmake ninja-build g++ libeigen3-dev zip
version=$(sed -n 's/^project(dxtext VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
model=$(dxt_default_model)
build=build-package/java
# shellcheck disable=SC2046
cmake -S bindings/java -B "$build" -G Ninja -DDXTEXT_BUILD_CORE=ON -DDXTEXT_BUILD_TESTS=OFF \
  $(dxt_core_cmake_flags) >/dev/null
cmake --build "$build" -j"$(nproc)" --target dxtext_jni dxtext_jar

case "$(uname -m)" in
  x86_64 | amd64) arch=x86_64 ;;
  aarch64 | arm64) arch=aarch64 ;;
  *) arch=$(uname -m) ;;
esac
stage=$build/stage
rm -rf "$stage"
mkdir -p "$stage/org/dxtext/native/linux-$arch" "$stage/org/dxtext/models" "$stage/META-INF"
cp "$build/libdxtext_jni.so" "$stage/org/dxtext/native/linux-$arch/"
strip --strip-unneeded "$stage/org/dxtext/native/linux-$arch/libdxtext_jni.so"
cp "$model" models/README.md models/NOTICE-dxtext-en-euclid.md "$stage/org/dxtext/models/"
basename "$model" >"$stage/org/dxtext/models/default-euclidean"
cp LICENSE "$stage/META-INF/LICENSE"
cat >"$build/manifest.txt" <<MANIFEST
Implementation-Title: dxtext
Implementation-Version: $version
Bundle-License: Apache-2.0
Automatic-Module-Name: org.dxtext
MANIFEST
jar=dist/java/dxtext-$version.jar
cp "$build/dxtext.jar" "$jar"
jar ufm "$jar" "$build/manifest.txt" -C "$stage" org -C "$stage" META-INF
sed "s/@VERSION@/$version/" bindings/java/pom.xml.in >"dist/java/dxtext-$version.pom"

if [ -n "${ANDROID_NDK_HOME:-}" ]; then
  # Not run by dxtext's CI (Debian has no Android NDK): see docs/bindings/java.md.
  aar=$build/aar
  rm -rf "$aar"
  mkdir -p "$aar/classes"
  (cd "$aar/classes" && jar xf "$root/$build/dxtext.jar")
  mkdir -p "$aar/classes/org/dxtext/models" "$aar/classes/META-INF"
  cp -r "$stage/org/dxtext/models/." "$aar/classes/org/dxtext/models/"
  cp LICENSE "$aar/classes/META-INF/LICENSE"
  for abi in arm64-v8a armeabi-v7a x86_64; do
    # shellcheck disable=SC2046
    cmake -S bindings/java -B "$build/android-$abi" -G Ninja \
      -DCMAKE_TOOLCHAIN_FILE="$ANDROID_NDK_HOME/build/cmake/android.toolchain.cmake" \
      -DANDROID_ABI="$abi" -DANDROID_PLATFORM=android-24 -DEigen3_DIR=/usr/share/eigen3/cmake \
      -DDXTEXT_BUILD_CORE=ON $(dxt_core_cmake_flags) -DDXT_STATIC_RUNTIME=OFF -DANDROID_STL=c++_static >/dev/null
    cmake --build "$build/android-$abi" -j"$(nproc)" --target dxtext_jni
    mkdir -p "$aar/jni/$abi"
    cp "$build/android-$abi/libdxtext_jni.so" "$aar/jni/$abi/"
  done
  (cd "$aar/classes" && jar cf ../classes.jar .)
  rm -rf "$aar/classes"
  printf '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="org.dxtext">\n  <uses-sdk android:minSdkVersion="24"/>\n</manifest>\n' \
    >"$aar/AndroidManifest.xml"
  : >"$aar/R.txt"
  (cd "$aar" && zip -qr "$root/dist/java/dxtext-$version.aar" AndroidManifest.xml R.txt classes.jar jni)
else
  echo "ANDROID_NDK_HOME is not set: no AAR (see docs/bindings/java.md)"
fi
