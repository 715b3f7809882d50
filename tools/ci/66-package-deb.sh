#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The installable command line (cmake/DxtPackage.cmake), installed as a new
# user would:
#  1. the Debian package, with `apt install ./dxtext_*.deb` in a clean
#     Debian 12 root (debootstrap --variant=minbase bookworm, under
#     build-ci/deb/), then `dxtext privatize --preset readable` there, and a
#     C program built with pkg-config against it, linked with the shared
#     library and with the static one (which finds the installed models
#     through the system's data directories); the package carries the
#     manual page (made from `dxtext help`) and the docs;
#  2. the relocatable tarball, unpacked into an empty directory: its program
#     finds its own models, a copy of the program outside the tree finds
#     none (and says so), and a C program built with its dxtext.pc runs.
# Packages are made from build/ (tools/setup.sh); without it, from a build
# of the library and the command line alone in build-ci/deb/build.
# Needs root (debootstrap, chroot, mount); without it, step 1 is replaced by
# `dpkg -x` into an empty prefix.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/package/common.sh
dxt_need_packages debootstrap dpkg-dev pkg-config gcc cmake ninja-build g++ libssl-dev libeigen3-dev

work=$PWD/build-ci/deb
sentence="The president spoke to the nation about the war."
root=$work/root
cleanup() {
  for m in proc dev/pts dev sys; do mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m" || true; done
}
trap cleanup EXIT
cleanup
rm -rf "$work/packages" "$work/tree" "$work/prefix"
mkdir -p "$work/packages"

build=build
if [ ! -x build/bin/dxtext ] || [ ! -f build/CPackConfig.cmake ]; then
  build=$work/build
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDXT_BUILD_TESTS=OFF -DDXT_BUILD_BENCH=OFF >/dev/null
  cmake --build "$build" -j"$(nproc)" --target dxtext dxtext_static dxtext_cli
fi
(cd "$build" && cpack -G "DEB;TGZ" -B "$work/packages" >/dev/null)
deb=$(ls "$work"/packages/dxtext_*.deb)
tgz=$(ls "$work"/packages/dxtext-*.tar.gz)
echo "packages: $(basename "$deb") ($(stat -c %s "$deb") bytes), $(basename "$tgz") ($(stat -c %s "$tgz") bytes)"
dpkg-deb --info "$deb" | sed -n '/Package:/,/Description:/p'
dpkg-deb --contents "$deb" | awk '{print $6}' | grep -E 'bin/dxtext$|libdxtext\.so\.0|dxtext\.h$|dxtext\.pc$|dxtextConfig\.cmake$|models/dxtext-en-euclid-.*\.dxe$' |
  sort | tee "$work/contents.txt"
[ "$(wc -l <"$work/contents.txt")" -ge 6 ] || { echo "the .deb lacks a part (CLI, library, header, pkg-config, CMake, models)" >&2; exit 1; }
# The manual page and the docs `dxtext help` points at.
for part in usr/share/man/man1/dxtext.1 usr/share/doc/dxtext/README.md usr/share/doc/dxtext/docs/guarantees.md \
  usr/share/doc/dxtext/docs/options.md usr/share/doc/dxtext/docs/budgets.md; do
  dpkg-deb --contents "$deb" | awk '{print $6}' | grep -qx "./$part" || { echo "the .deb lacks $part" >&2; exit 1; }
done
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/man/man1/dxtext.1 >"$work/dxtext.1"
grep -q '^\.TH DXTEXT 1' "$work/dxtext.1" && grep -q 'privatize \[--model M' "$work/dxtext.1" ||
  { echo "dxtext.1 is not the manual page of dxtext help" >&2; exit 1; }
echo "the .deb carries dxtext.1 ($(wc -l <"$work/dxtext.1") lines) and the docs"

cat >"$work/app.c" <<'C'
#include <dxtext/dxtext.h>
#include <stdio.h>
#include <string.h>
int main(void) {
  char path[4096];
  dxt_model *m = NULL;
  dxt_context *c = NULL;
  dxt_privatize_options o;
  char *out = NULL;
  size_t n = 0;
  dxt_status s = dxt_default_model_path(DXT_GEOMETRY_EUCLIDEAN, path, sizeof path, NULL);
  if (s == DXT_OK) s = dxt_model_open_file(path, NULL, &m);
  if (s == DXT_OK) s = dxt_context_create(m, NULL, &c);
  dxt_privatize_options_init(&o);
  o.preset = DXT_PRESET_READABLE;
  if (s == DXT_OK) s = dxt_privatize_text(c, &o, "The president spoke.", 20, &out, &n, NULL, NULL);
  if (s == DXT_OK) printf("%s (model %s)\n", out, path);
  else fprintf(stderr, "%s\n", dxt_last_error_message());
  dxt_text_free(out);
  dxt_context_destroy(c);
  dxt_model_close(m);
  return s == DXT_OK ? 0 : 1;
}
C

# 1. The .deb in a clean Debian root.
# A clean root needs root, a mirror and the right to mount /proc there (the
# program finds its models through /proc/self/exe); without any of them,
# dpkg -x below.
clean_root=false
if [ "$(id -u)" -eq 0 ] && { [ -x "$root/usr/bin/apt-get" ] ||
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1; } &&
  mount -t proc proc "$root/proc" && mount --bind /dev "$root/dev"; then
  clean_root=true
fi
if $clean_root; then
  # (no devpts in the root: apt's "Can not write log" warning is harmless)
  cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
  chroot "$root" dpkg -r dxtext >/dev/null 2>&1 || true
  cp "$deb" "$work/app.c" "$root/tmp/"
  chroot "$root" apt-get update -qq
  chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "/tmp/$(basename "$deb")" >/dev/null
  echo "--- in the clean root: dxtext privatize --preset readable"
  chroot "$root" dxtext privatize --preset readable "$sentence"
  chroot "$root" dxtext version
  # A C program from the installed package: pkg-config, no rpath needed under /usr.
  chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gcc libc6-dev pkg-config >/dev/null
  chroot "$root" sh -c 'cc -std=c99 /tmp/app.c $(pkg-config --cflags --libs dxtext) -o /tmp/app && /tmp/app'
  # The same program linked with the static library, outside any dxtext tree:
  # it finds the models installed under /usr/share.
  chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends g++ libssl-dev >/dev/null
  chroot "$root" sh -c 'cc -std=c99 -DDXT_STATIC_DEFINE $(pkg-config --cflags dxtext) -c /tmp/app.c -o /tmp/app.o &&
    c++ /tmp/app.o -o /tmp/app-static -Wl,-Bstatic -ldxtext -Wl,-Bdynamic $(pkg-config --static --libs-only-l dxtext | sed "s/-ldxtext//") &&
    ! ldd /tmp/app-static | grep -q libdxtext && env -u DXTEXT_MODEL /tmp/app-static'
  cleanup
else
  echo "no clean root (not root, no Debian mirror for debootstrap, or no mount): checking the .deb with dpkg -x into an empty prefix instead" >&2
  cleanup
  dpkg -x "$deb" "$work/prefix"
  env -u DXTEXT_MODEL "$work/prefix/usr/bin/dxtext" privatize --preset readable "$sentence"
  # A program linked with the static library, outside the tree: it finds the
  # models under the data directory (here the unpacked /usr/share).
  cc -std=c99 -DDXT_STATIC_DEFINE -I "$work/prefix/usr/include" -c "$work/app.c" -o "$work/app.o"
  c++ "$work/app.o" -o "$work/app-static" "$(find "$work/prefix" -name libdxtext.a)" -lcrypto -lpthread -lm
  env -u DXTEXT_MODEL XDG_DATA_DIRS="$work/prefix/usr/share" "$work/app-static"
fi

# 2. The tarball, unpacked anywhere: the program and the library find the
# models of their own tree.
mkdir -p "$work/tree"
tar -xzf "$tgz" -C "$work/tree"
top=$(ls -d "$work"/tree/dxtext-*)
echo "--- from the unpacked tarball ($top)"
env -u DXTEXT_MODEL "$top/bin/dxtext" privatize --preset readable "$sentence"
mkdir -p "$work/tree/elsewhere"
cp "$top/bin/dxtext" "$work/tree/elsewhere/"
if env -u DXTEXT_MODEL XDG_DATA_DIRS="$work/tree/elsewhere" "$work/tree/elsewhere/dxtext" privatize --preset readable "$sentence" 2>"$work/copied.err"; then
  echo "a copy of the program outside its tree found a model" >&2
  exit 1
fi
grep -q "no default Euclidean model" "$work/copied.err" || { cat "$work/copied.err" >&2; exit 1; }
echo "a copied program finds no model outside its tree: ok ($(cut -c1-80 "$work/copied.err")...)"
export PKG_CONFIG_PATH=$top/lib/pkgconfig
cc -std=c99 "$work/app.c" $(pkg-config --cflags --libs dxtext) -Wl,-rpath,"$(pkg-config --variable=libdir dxtext)" -o "$work/app"
env -u DXTEXT_MODEL "$work/app"
echo "deb and tarball: ok"
