"""Finding libdxtext, and the ctypes declarations against the library."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from pathlib import Path

import pytest

import dxtext
from dxtext import _library as native

# The directory the tests import dxtext from (source tree or site-packages).
IMPORT_ROOT = Path(dxtext.__file__).resolve().parents[1]


def test_version_and_path() -> None:
    assert dxtext.library_version() == dxtext.__version__
    path = dxtext.library_path()
    if os.environ.get("DXTEXT_LIBRARY"):
        assert path == os.environ["DXTEXT_LIBRARY"]


@pytest.mark.parametrize(
    "struct, init",
    [
        (native.ModelOpenOptions, "dxt_model_open_options_init"),
        (native.ModelInfoStruct, "dxt_model_info_init"),
        (native.ContextOptions, "dxt_context_options_init"),
        (native.PrivatizeOptions, "dxt_privatize_options_init"),
        (native.ReportStruct, "dxt_report_init"),
        (native.CalibrationStruct, "dxt_calibration_init"),
    ],
)
def test_struct_sizes_match_the_library(struct: type, init: str) -> None:
    scratch = ctypes.create_string_buffer(4096)
    getattr(native.lib(), init)(scratch)
    assert ctypes.c_uint32.from_buffer(scratch).value == ctypes.sizeof(struct)


def test_privatize_options_defaults() -> None:
    o = native.initialised(native.PrivatizeOptions, "dxt_privatize_options_init")
    assert o.mechanism == dxtext.Mechanism.LAPLACE
    assert list(o.policy) == [dxtext.Policy.PRIVATIZE] * 4
    assert 0.0 < o.vickrey_t <= 1.0 and 0.0 <= o.mahalanobis_lambda <= 1.0


def run_python(code: str, env: dict) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if k != "DXTEXT_LIBRARY"}
    full_env.update(env)
    full_env["PYTHONPATH"] = str(IMPORT_ROOT)
    return subprocess.run([sys.executable, "-c", code], env=full_env, capture_output=True, text=True, timeout=60)


def test_explicit_library_that_does_not_exist(tmp_path: Path) -> None:
    result = run_python(
        "import dxtext\n"
        "try:\n"
        "    dxtext.library_version()\n"
        "except dxtext.LibraryNotFoundError as e:\n"
        "    print('not found:', e)\n",
        {"DXTEXT_LIBRARY": str(tmp_path / "libdxtext.so")},
    )
    assert result.returncode == 0, result.stderr
    assert "not found:" in result.stdout and "DXTEXT_LIBRARY" in result.stdout


def test_found_without_the_environment_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DXTEXT_LIBRARY", raising=False)
    candidates = native.candidates()
    if not candidates:
        pytest.skip("no bundled, build-tree or system libdxtext to find")
    result = run_python("import dxtext; print(dxtext.library_path())", {})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == candidates[0][1]
