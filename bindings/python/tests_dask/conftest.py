# SPDX-License-Identifier: Apache-2.0
"""Fixtures of the dxtext.dask tests: a LocalCluster of 2 worker processes
(2 threads each) shared by the module, and the models.

The package is imported from ../src unless DXTEXT_TEST_INSTALLED=1; the
workers get the same sys.path and DXTEXT_LIBRARY through the environment.
The default model is the newest models/dxtext-en-euclid-*.dxe (or
$DXTEXT_DEFAULT_MODEL), the demo model $DXTEXT_MODEL or build/models/demo.dxe.
"""

from __future__ import annotations

import glob
import os
import sys
from pathlib import Path
from typing import Iterator

import pytest

pytest.importorskip("dask.bag")
pytest.importorskip("distributed")

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
if os.environ.get("DXTEXT_TEST_INSTALLED") != "1":
    source = str(HERE.parent / "src")
    sys.path.insert(0, source)
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (source, os.environ.get("PYTHONPATH")) if p)

import dxtext  # noqa: E402


def _default_model() -> Path:
    env = os.environ.get("DXTEXT_DEFAULT_MODEL")
    if env:
        return Path(env)
    found = sorted(glob.glob(str(REPO / "models" / "dxtext-en-euclid-*.dxe")))
    return Path(found[-1]) if found else REPO / "models" / "missing.dxe"


@pytest.fixture(scope="session")
def default_model_path() -> Path:
    path = _default_model()
    if not path.is_file():
        pytest.skip(f"no default model at {path}")
    return path


@pytest.fixture(scope="session")
def demo_model_path() -> Path:
    env = os.environ.get("DXTEXT_MODEL")
    path = Path(env) if env else REPO / "build" / "models" / "demo.dxe"
    if not path.is_file():
        pytest.skip(f"no demo model at {path}")
    return path


@pytest.fixture(scope="session")
def client() -> Iterator[object]:
    from distributed import Client, LocalCluster

    # Library loading is checked here, once, rather than in every worker.
    dxtext.library_version()
    cluster = LocalCluster(
        n_workers=2, threads_per_worker=2, processes=True, dashboard_address=":0", silence_logs=40
    )
    with Client(cluster) as c:
        yield c
    cluster.close()
