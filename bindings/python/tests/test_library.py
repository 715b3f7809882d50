# SPDX-License-Identifier: Apache-2.0
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


def test_struct_sizes_match_the_library(model: dxtext.Model) -> None:
    """The library accepts each struct at the size declared here, and refuses
    it with non-zero bytes just past that size as fields it does not know:
    so the library's struct is no bigger than ours (structs only grow at the
    end, and ours must not miss a field). That _init_sized writes no byte
    past the size it is given is the C tests' (tests/unit/test_abi.cpp)."""
    library = native.lib()
    handle = model._handle
    assert handle is not None
    ptr = handle.ptr

    def accepted(struct: type, call) -> bool:  # type: ignore[no-untyped-def]
        value = native.initialised(struct)
        size = ctypes.sizeof(struct)
        assert value.struct_size == size
        status = call(value)

        class Longer(ctypes.Structure):
            _fields_ = [("value", struct), ("extra", ctypes.c_uint8 * 8)]

        longer = Longer()
        ctypes.memmove(ctypes.byref(longer), ctypes.byref(value), size)
        longer.value.struct_size = size + 8
        longer.extra[7] = 1
        long_status = call(longer.value)
        return status != 1 and long_status == 13  # 1 = DXT_E_INVALID_ARGUMENT, 13 = DXT_E_UNSUPPORTED

    out = ctypes.c_void_p()
    assert accepted(
        native.dxt_model_open_options,
        lambda o: library.dxt_model_open_file(b"/nonexistent/model.dxe", ctypes.byref(o), ctypes.byref(out)),
    )
    assert accepted(native.dxt_model_info, lambda o: library.dxt_model_get_info(ptr, ctypes.byref(o)))
    buffer = ctypes.create_string_buffer(4096)
    assert accepted(
        native.dxt_release_record,
        lambda o: library.dxt_release_record_to_json(ctypes.byref(o), buffer, 4096, None),
    )
    assert accepted(
        native.dxt_local_diagnostics,
        lambda o: library.dxt_local_diagnostics_to_json(ctypes.byref(o), buffer, 4096, None),
    )
    contexts = []

    def create(o: native.dxt_context_options) -> int:
        ctx = ctypes.c_void_p()
        status = library.dxt_context_create(ptr, ctypes.byref(o), ctypes.byref(ctx))
        contexts.append(ctx.value)
        return int(status)

    assert accepted(native.dxt_context_options, create)
    context = contexts[0]
    try:
        index = ctypes.c_uint32()

        def privatize(o: native.dxt_privatize_options) -> int:
            o.epsilon = 1.0
            return int(library.dxt_privatize_index(context, ctypes.byref(o), 0, ctypes.byref(index), None, None))

        assert accepted(native.dxt_privatize_options, privatize)
        options = native.initialised(native.dxt_privatize_options)
        options.epsilon = 1.0
        assert accepted(
            native.dxt_calibration,
            lambda c: library.dxt_calibrate(context, ctypes.byref(options), 1, 1, ctypes.byref(c)),
        )
    finally:
        for c in contexts:
            library.dxt_context_destroy(c)


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
