# SPDX-License-Identifier: Apache-2.0
"""A worker killed in the middle of a run of privatize_jsonl: no record lost
or duplicated, and a run again reuses every partition.

The nanny of the LocalCluster restarts the killed worker process; the tasks
it was running, and the results it held, are computed again elsewhere
(with new noise: see docs/dask.md for what that means for privacy). A
worker killed during a Bag computation, whose retried task must lose no
record and spend nothing: test_dask_ledger.py."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import dxtext.dask as dxd

SENTENCE = "The president spoke to the nation about the war and the economy."


def _worker_pids(client) -> dict:  # type: ignore[no-untyped-def]
    return client.run(os.getpid)


def test_kill_a_worker_during_privatize_jsonl(client, default_model_path, tmp_path: Path) -> None:
    n = 3000
    source = tmp_path / "in.jsonl"
    source.write_text("".join(f'{{"id": {i}, "text": "{SENTENCE}", "k": [{i}]}}\n' for i in range(n)), encoding="utf-8")
    out = tmp_path / "out"
    result: dict = {}

    def run() -> None:
        try:
            result["summary"] = dxd.privatize_jsonl(str(source), out, model=default_model_path, epsilon=20,
                                                    blocksize=8192)
        except BaseException as e:  # noqa: BLE001 - reported by the test below
            result["error"] = e

    pids = _worker_pids(client)
    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.monotonic() + 120
    while len(list(out.glob("part-*.jsonl"))) < 2 and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert thread.is_alive(), "the run ended before a worker could be killed: make it longer"
    victim = sorted(pids.values())[0]
    os.kill(victim, signal.SIGKILL)
    thread.join(300)
    assert not thread.is_alive()
    assert "error" not in result, result.get("error")
    # The nanny restarts the killed worker for the tests after this one; a
    # fresh worker process imports dask, pandas and dxtext, which took more
    # than 60 s on a loaded 2-core machine.
    client.wait_for_workers(2, timeout=240)
    assert victim not in _worker_pids(client).values()  # it really died and was replaced

    summary = result["summary"]
    assert summary["records"] == n and summary["skipped"] == 0
    lines = "".join(p.read_text(encoding="utf-8") for p in sorted(out.glob("part-*.jsonl"))).splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["id"] for r in records] == list(range(n))  # none lost, none twice, in order
    assert all(r["k"] == [r["id"]] for r in records)
    assert not list(out.glob(".*.tmp")) and not list(Path(str(out) + ".state").glob(".*.tmp"))

    # Run again: every partition is reused, nothing is drawn or rewritten.
    before = {p.name: p.read_bytes() for p in out.glob("part-*")}
    again = dxd.privatize_jsonl(str(source), out, model=default_model_path, epsilon=20, blocksize=8192)
    assert again["written"] == 0 and again["reused"] == summary["partitions"]
    assert {p.name: p.read_bytes() for p in out.glob("part-*")} == before
