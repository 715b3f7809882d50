# SPDX-License-Identifier: Apache-2.0
"""Fixtures of the dxtext Python tests.

By default the package is imported from ../src (the source tree); set
DXTEXT_TEST_INSTALLED=1 to test an installed package instead. The library is
found as the package finds it (DXTEXT_LIBRARY, bundled copy, build tree,
system); the model is $DXTEXT_MODEL, else the build tree's demo model, else
the repository's golden test model.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterator

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
if os.environ.get("DXTEXT_TEST_INSTALLED") != "1":
    sys.path.insert(0, str(HERE.parent / "src"))

import dxtext  # noqa: E402

GOLDEN = REPO / "tests" / "data" / "golden_v1.dxe"


def _model_path() -> Path:
    env = os.environ.get("DXTEXT_MODEL")
    if env:
        return Path(env)
    demo = REPO / "build" / "models" / "demo.dxe"
    return demo if demo.is_file() else GOLDEN


@pytest.fixture(scope="session")
def model_path() -> Path:
    path = _model_path()
    if not path.is_file():
        pytest.skip(f"no model at {path}")
    return path


@pytest.fixture(scope="session")
def golden_bytes() -> bytes:
    return GOLDEN.read_bytes()


@pytest.fixture()
def model(model_path: Path) -> Iterator[dxtext.Model]:
    with dxtext.Model.open(model_path) as m:
        yield m


@pytest.fixture()
def golden() -> Iterator[dxtext.Model]:
    with dxtext.Model.open(GOLDEN) as m:
        yield m


@pytest.fixture()
def sentence(model: dxtext.Model) -> str:
    """A sentence of (up to) eight vocabulary words of the model."""
    words = [model.word(i) for i in range(min(8, len(model)))]
    return " ".join(words).capitalize() + "."
