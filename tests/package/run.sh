#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs a dxtext build into a temporary prefix, then builds and runs the
# consumer in this directory against it twice: with CMake's
# find_package(dxtext), and with plain compiler commands from
# `pkg-config --cflags --libs dxtext`.
#
# usage: run.sh CMAKE BUILD_DIR SOURCE_DIR GENERATOR CC CXX
set -euo pipefail

cmake_command=$1 build_dir=$2 source_dir=$3 generator=$4 cc=$5 cxx=$6
here=$source_dir/tests/package
model=$source_dir/tests/data/golden_v1.dxe

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
unset LD_LIBRARY_PATH  # binaries must find the library through their rpath

step() { printf '== %s\n' "$*"; }
fail() {
  printf 'FAIL: %s\n' "$*" >&2
  exit 1
}

# Runs a consumer binary on the model and checks its output.
run_consumer() {
  local binary=$1 out
  out=$("$binary" "$model") || fail "$binary exited with $?"
  printf '%s\n' "$out"
  grep -q '"mechanism":"laplace"' <<<"$out" || fail "$binary printed no release record"
}

step "install into a temporary prefix"
"$cmake_command" --install "$build_dir" --prefix "$prefix" >"$tmp/install.log"
[ -f "$prefix/include/dxtext/dxtext.h" ] || fail "dxtext.h is not installed"
[ -f "$prefix/include/dxtext/dxtext.hpp" ] || fail "dxtext.hpp is not installed"
config=$(find "$prefix" -name dxtextConfig.cmake -print -quit)
pc=$(find "$prefix" -name dxtext.pc -print -quit)
[ -n "$config" ] || fail "dxtextConfig.cmake is not installed"
[ -n "$pc" ] || fail "dxtext.pc is not installed"
# Eigen is a private, header-only dependency of the library: it must not
# reach consumers through the package files.
if grep -il eigen "$(dirname "$config")"/*.cmake "$pc"; then fail "the installed package mentions Eigen"; fi

# Configures and builds the consumer project in $1 with the options after it.
build_consumer() {
  local dir=$1
  shift
  "$cmake_command" -S "$here" -B "$dir" -G "$generator" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON "$@" >"$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log"; fail "configuring the consumer failed"; }
  grep -q "dxtext_DIR:PATH=$prefix/" "$dir/CMakeCache.txt" || fail "find_package found another dxtext"
  "$cmake_command" --build "$dir" >"$dir.build.log" 2>&1 ||
    { cat "$dir.build.log"; fail "building the consumer failed"; }
}

step "CMake: find_package(dxtext), C and C++"
build_consumer "$tmp/cmake-build"
for binary in consumer_c consumer_c_static consumer_cpp; do
  run_consumer "$tmp/cmake-build/$binary"
done

step "CMake: find_package(dxtext), a C-only project"
build_consumer "$tmp/cmake-build-c" -DCONSUMER_C_ONLY=ON
for binary in consumer_c consumer_c_static; do
  run_consumer "$tmp/cmake-build-c/$binary"
done

step "pkg-config --cflags --libs dxtext"
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$pc")
version=$(pkg-config --modversion dxtext)
[ "$version" = "$(sed -n 's/^Version: //p' "$pc")" ] || fail "pkg-config found another dxtext ($version)"
libdir=$(pkg-config --variable=libdir dxtext)
[ -f "$(pkg-config --variable=includedir dxtext)/dxtext/dxtext.h" ] || fail "pkg-config's includedir is wrong"
mkdir -p "$tmp/pc"
# shellcheck disable=SC2046  # word splitting of the pkg-config flags is intended
"$cc" -std=c99 -Wall -Wextra -Wpedantic -Werror -o "$tmp/pc/consumer_c" "$here/main.c" \
  $(pkg-config --cflags --libs dxtext) -Wl,-rpath,"$libdir"
# shellcheck disable=SC2046
"$cxx" -std=c++17 -Wall -Wextra -Wpedantic -Werror -o "$tmp/pc/consumer_cpp" "$here/main.cpp" \
  $(pkg-config --cflags --libs dxtext) -Wl,-rpath,"$libdir"
# Static: libdxtext.a with the Libs.private of dxtext.pc.
static_libs=$(pkg-config --static --libs dxtext)
static_libs=${static_libs/-ldxtext/-Wl,-Bstatic -ldxtext -Wl,-Bdynamic}
# shellcheck disable=SC2046,SC2086
"$cc" -std=c99 -Wall -Wextra -Wpedantic -Werror -o "$tmp/pc/consumer_c_static" "$here/main.c" \
  $(pkg-config --cflags dxtext) $static_libs
if command -v readelf >/dev/null && readelf -d "$tmp/pc/consumer_c_static" | grep -q 'libdxtext'; then
  fail "the static consumer still needs the shared libdxtext"
fi
for binary in consumer_c consumer_cpp consumer_c_static; do
  run_consumer "$tmp/pc/$binary"
done

step "ok"
