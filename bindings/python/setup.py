"""Build hook of the dxtext package: bundle the shared library.

The metadata lives in pyproject.toml. This file only copies an already built
libdxtext into the package (dxtext/_lib/) so that the installed package works
without DXTEXT_LIBRARY or a system-wide install. It looks, in order, at

  * $DXTEXT_LIBRARY          the library file itself
  * $DXTEXT_BUILD_DIR/lib    a CMake build directory of dxtext
  * ../../build/lib          the repository's default build directory

When none has the library, the package is built without it and finds
libdxtext at run time (DXTEXT_LIBRARY, then the system loader); set
DXTEXT_REQUIRE_BUNDLE=1 to make that an error instead.
"""

import os
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent
NAMES = ("libdxtext.so", "libdxtext.dylib")


def find_library():
    """The library file to bundle, or None."""
    explicit = os.environ.get("DXTEXT_LIBRARY")
    if explicit:
        path = Path(explicit)
        if not path.is_file():
            raise SystemExit(f"DXTEXT_LIBRARY={explicit} is not a file")
        return path
    dirs = []
    if os.environ.get("DXTEXT_BUILD_DIR"):
        dirs.append(Path(os.environ["DXTEXT_BUILD_DIR"]) / "lib")
    dirs.append(HERE.parent.parent / "build" / "lib")
    for directory in dirs:
        for name in NAMES:
            if (directory / name).exists():
                return directory / name
    return None


class BuildPyWithLibrary(build_py):
    """build_py that also copies libdxtext into dxtext/_lib/."""

    def run(self):
        super().run()
        library = find_library()
        target_dir = Path(self.build_lib) / "dxtext" / "_lib"
        if library is None:
            message = (
                "libdxtext was not found (build the library first, or set DXTEXT_LIBRARY "
                "or DXTEXT_BUILD_DIR); the package will look for it at run time"
            )
            if os.environ.get("DXTEXT_REQUIRE_BUNDLE") == "1":
                raise SystemExit(message)
            self.warn(message)
            return
        target_dir.mkdir(parents=True, exist_ok=True)
        # One real file (symlinks resolved) under the link name; the loader
        # opens it by path, so its SONAME does not matter.
        target = target_dir / ("libdxtext.dylib" if ".dylib" in library.name else "libdxtext.so")
        shutil.copyfile(library.resolve(), target)
        os.chmod(target, 0o755)
        self.announce(f"bundled {library.resolve()} as {target}", level=2)


class BinaryDistribution(Distribution):
    """The wheel carries a native library: tag it for this platform."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildPyWithLibrary}, distclass=BinaryDistribution)
