# SPDX-License-Identifier: Apache-2.0
"""Build hook of the dxtext package: compile libdxtext and bundle it.

The metadata lives in pyproject.toml. Building the wheel (pip wheel, pip
install) compiles libdxtext from the source tree this directory sits in with
CMake, and puts into the package (dxtext/_lib/):

  * libdxtext.so, built with the portable crypto backend (noise from the
    kernel's CSPRNG through getentropy/getrandom, no OpenSSL) and the C++
    runtime linked in, so it needs nothing from the system but the C library;
  * the default Euclidean model (the newest models/dxtext-en-euclid-*.dxe)
    and the model card models/README.md, in dxtext/_lib/models/, where the
    library looks for its default model (beside itself).

The wheel is tagged py3-none-<platform>: the package is pure Python over
ctypes, so any CPython 3 can load it, but the library is for one platform.
On Linux the platform is manylinux_2_X (X from the newest glibc symbol
version the library needs) when the library links nothing but glibc, else
plain linux_<arch>.

Environment:
  DXTEXT_CMAKE_BUILD_DIR  the CMake build directory (default: under setuptools'
                          build_temp); reused, so rebuilding is incremental
  DXTEXT_BUILD_JOBS       parallel compile jobs (default: the CPU count)
"""

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # no wheel package: only setup.py install paths need this file
    bdist_wheel = None

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
# Only glibc's own libraries may be NEEDED for a manylinux tag (PEP 600).
GLIBC_LIBRARIES = {"libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1",
                   "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1"}


def cmake_flags():
    return [
        "-DCMAKE_BUILD_TYPE=Release",
        "-DDXT_CRYPTO=portable",
        "-DDXT_RELOCATABLE=ON",
        "-DDXT_STATIC_RUNTIME=ON",
        "-DDXT_BUILD_TESTS=OFF",
        "-DDXT_BUILD_TOOLS=OFF",
        "-DDXT_BUILD_BENCH=OFF",
    ]


def default_model():
    """The newest models/dxtext-en-euclid-*.dxe, as the library picks it."""
    models = sorted((ROOT / "models").glob("dxtext-en-euclid-*.dxe"))
    if not models:
        raise SystemExit(f"no default model: {ROOT / 'models'} has no dxtext-en-euclid-*.dxe")
    return models[-1]


def build_library(build_temp):
    if not (ROOT / "CMakeLists.txt").is_file() or not (ROOT / "include" / "dxtext" / "dxtext.h").is_file():
        raise SystemExit(f"the dxtext sources are not at {ROOT}: build the wheel from bindings/python "
                         "of a dxtext checkout")
    if shutil.which("cmake") is None:
        raise SystemExit("building the dxtext wheel needs cmake and a C++17 compiler (Debian: cmake g++ "
                         "libeigen3-dev)")
    build = Path(os.environ.get("DXTEXT_CMAKE_BUILD_DIR") or Path(build_temp) / "libdxtext").resolve()
    generator = ["-G", "Ninja"] if shutil.which("ninja") and not (build / "Makefile").exists() else []
    jobs = os.environ.get("DXTEXT_BUILD_JOBS") or str(os.cpu_count() or 2)
    subprocess.check_call(["cmake", "-S", str(ROOT), "-B", str(build), *generator, *cmake_flags()])
    subprocess.check_call(["cmake", "--build", str(build), "--target", "dxtext", "-j", jobs])
    library = build / "lib" / ("libdxtext.dylib" if sys.platform == "darwin" else "libdxtext.so")
    if not library.exists():
        raise SystemExit(f"the CMake build in {build} made no {library.name}")
    return library.resolve()


class BuildPyWithLibrary(build_py):
    """build_py that also compiles libdxtext and copies it and the default
    model into dxtext/_lib/."""

    def run(self):
        super().run()
        library = build_library(self.get_finalized_command("build").build_temp)
        target_dir = Path(self.build_lib) / "dxtext" / "_lib"
        models_dir = target_dir / "models"
        if target_dir.exists():
            shutil.rmtree(target_dir)
        models_dir.mkdir(parents=True)
        # One real file under the link name; the loader opens it by path.
        target = target_dir / ("libdxtext.dylib" if library.suffix == ".dylib" else "libdxtext.so")
        shutil.copyfile(library, target)
        os.chmod(target, 0o755)
        if sys.platform.startswith("linux") and shutil.which("strip"):
            subprocess.check_call(["strip", "--strip-unneeded", str(target)])
        model = default_model()
        shutil.copyfile(model, models_dir / model.name)
        for card in ("README.md", "NOTICE-dxtext-en-euclid.md"):
            shutil.copyfile(ROOT / "models" / card, models_dir / card)
        self.announce(f"bundled {library} and {model.name}", level=2)


def needed_libraries_and_glibc(library):
    """(NEEDED entries, newest GLIBC_2.x version referenced) from objdump -p."""
    out = subprocess.run(["objdump", "-p", str(library)], check=True, capture_output=True, text=True).stdout
    needed = set(re.findall(r"^\s*NEEDED\s+(\S+)", out, re.M))
    versions = [tuple(int(x) for x in v.split(".")) for v in re.findall(r"GLIBC_(\d+\.\d+)", out)]
    return needed, max(versions) if versions else (2, 17)


def platform_tag(library):
    arch = sysconfig.get_platform().split("-", 1)[-1].replace("-", "_").replace(".", "_")
    if not sys.platform.startswith("linux"):
        return sysconfig.get_platform().replace("-", "_").replace(".", "_")
    try:
        needed, glibc = needed_libraries_and_glibc(library)
    except (OSError, subprocess.CalledProcessError):
        return f"linux_{arch}"
    if needed <= GLIBC_LIBRARIES:
        return f"manylinux_{glibc[0]}_{glibc[1]}_{arch}"
    return f"linux_{arch}"


if bdist_wheel is not None:

    class BdistWheelPy3(bdist_wheel):
        """Tagged py3-none-<platform>: ctypes, no extension module."""

        def get_tag(self):
            library = Path(self.bdist_dir) / "dxtext" / "_lib" / "libdxtext.so"
            if not library.exists():
                library = next(Path(self.bdist_dir).rglob("libdxtext.so"), library)
            return "py3", "none", platform_tag(library)

    commands = {"build_py": BuildPyWithLibrary, "bdist_wheel": BdistWheelPy3}
else:
    commands = {"build_py": BuildPyWithLibrary}


class BinaryDistribution(Distribution):
    """The wheel carries a native library: not a pure wheel."""

    def has_ext_modules(self):
        return True


setup(cmdclass=commands, distclass=BinaryDistribution)
