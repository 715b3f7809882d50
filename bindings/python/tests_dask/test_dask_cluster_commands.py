# SPDX-License-Identifier: Apache-2.0
"""The shape of a multi-machine cluster on one machine: a scheduler and
workers started as separate programs (distributed's dask-scheduler and
dask-worker), on 127.0.0.1, each worker with its own local directory. The
model is shipped from the client, and a worker that joins later gets it
too; each worker checks its SHA-256. Then the examples of docs/dask.md run
as written and print what the page shows."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator, List

import dask.bag as db
import pytest

import dxtext.dask as dxd

REPO = Path(__file__).resolve().parents[3]


class Programs:
    """A scheduler started as its own program, and the workers added to it;
    all stopped at the end of the test."""

    def __init__(self, directory: Path) -> None:
        self.scheduler_file = directory / "scheduler.json"
        self.processes: List[subprocess.Popen] = []
        self._start("dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                    "--scheduler-file", str(self.scheduler_file))
        deadline = time.monotonic() + 60
        while not self.scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert self.scheduler_file.exists(), "the scheduler did not start"

    def _start(self, module: str, *args: str) -> None:
        self.processes.append(subprocess.Popen([sys.executable, "-m", f"distributed.cli.{module}", *args],
                                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                               start_new_session=True))

    def worker(self, local_directory: Path) -> None:
        self._start("dask_worker", "--scheduler-file", str(self.scheduler_file), "--nworkers", "1", "--nthreads", "2",
                    "--local-directory", str(local_directory), "--no-dashboard")

    def stop(self) -> None:
        for p in reversed(self.processes):
            os.killpg(p.pid, signal.SIGTERM)
        for p in self.processes:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


@pytest.fixture()
def programs(tmp_path: Path) -> Iterator[Programs]:
    started = Programs(tmp_path)
    try:
        yield started
    finally:
        started.stop()


def test_shipped_model_reaches_workers_started_later(programs: Programs, default_model_path: Path,
                                                     tmp_path: Path) -> None:
    from distributed import Client

    programs.worker(tmp_path / "w1")
    with Client(scheduler_file=str(programs.scheduler_file), timeout=60) as client:
        client.wait_for_workers(1, timeout=60)
        source = dxd.ship_model(client, default_model_path)
        assert source.shipped and source.sha256 == dxd.ModelSource.local(default_model_path).sha256
        programs.worker(tmp_path / "w2")  # joins after the model was shipped
        client.wait_for_workers(2, timeout=60)

        def opened() -> List[str]:
            from dxtext.dask import model_source

            return [m.path for m in model_source._OPEN_MODELS.values()]

        sentence = "The president spoke to the nation about the war."
        out = dxd.privatize_records(db.from_sequence([sentence] * 64, npartitions=16), model=source, field=None,
                                    epsilon=8).compute()
        assert len(out) == 64 and len(set(out)) > 50
        paths = sorted(p for ps in client.run(opened).values() for p in ps)
        assert len(paths) == 2
        assert paths[0].startswith(str(tmp_path / "w1")) and paths[1].startswith(str(tmp_path / "w2"))
        assert all(p.endswith(f"dxtext-models/{source.sha256}.dxe") for p in paths)


def _shown_output(page: str, marker: str) -> List[str]:
    """The lines of the ```text block that follows the example `marker`."""
    block = re.search(re.escape(marker) + r"[^\n]*-->\n```python\n.*?```\n.*?```text\n(.*?)```", page, re.S)
    assert block, f"docs/dask.md lost the output of its example {marker}"
    return block.group(1).splitlines()


def _run_example(page: str, marker: str, directory: Path, model: Path) -> List[str]:
    block = re.search(re.escape(marker) + r"[^\n]*-->\n```python\n(.*?)```", page, re.S)
    assert block, f"docs/dask.md lost its example {marker}"
    (directory / "example.py").write_text(block.group(1), encoding="utf-8")
    # The default model, as a reader of the page has it (not the tests' demo model).
    env = dict(os.environ, DXTEXT_MODEL=str(model))
    result = subprocess.run([sys.executable, "example.py"], cwd=directory, capture_output=True, text=True,
                            timeout=600, env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def _without_text(line: str) -> dict:
    record = json.loads(line)
    assert isinstance(record.pop("text"), str)
    return record


def test_the_example_of_the_docs_prints_what_the_docs_show(default_model_path: Path, tmp_path: Path) -> None:
    page = (REPO / "docs" / "dask.md").read_text(encoding="utf-8")
    shown = _shown_output(page, "<!-- dask-example")
    lines = _run_example(page, "<!-- dask-example", tmp_path, default_model_path)
    assert len(lines) == len(shown) == 6, lines
    # The summaries and the release record exactly; the records but for
    # their text, which is new noise on every run.
    assert lines[:3] == shown[:3]
    assert '"private":true' in lines[2]
    assert [_without_text(line) for line in lines[3:]] == [_without_text(line) for line in shown[3:]]
    records = [json.loads(line) for p in sorted((tmp_path / "private").glob("part-*.jsonl"))
               for line in p.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in records] == list(range(10_000))


def test_the_ledger_example_of_the_docs_prints_what_the_docs_show(default_model_path: Path, tmp_path: Path) -> None:
    page = (REPO / "docs" / "dask.md").read_text(encoding="utf-8")
    shown = _shown_output(page, "<!-- dask-ledger-example")
    lines = _run_example(page, "<!-- dask-ledger-example", tmp_path, default_model_path)
    assert lines == shown
