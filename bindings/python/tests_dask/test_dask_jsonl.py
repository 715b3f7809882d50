# SPDX-License-Identifier: Apache-2.0
"""dxtext.dask.privatize_jsonl on a LocalCluster: every other byte of a line
kept, bad lines stopped or skipped with their line numbers, runs resumed
without drawing again, and outputs of other runs never overwritten."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import dxtext.dask as dxd
from dxtext.dask.jsonl_line import RecordError, find_string_member

LINES = [
    '{"id": 1, "text": "the quick brown fox", "n": 1.50, "e": 1E5, "u": "caf\\u00e9"}',
    '{"meta": {"text": "nested, kept"}, "text": "a lazy dog", "list": ["text", "text"]}',
    "",
    '  {"text":"the dog",   "id":3}  ',
    '{"id": 4, "te\\u0078t": "escaped key, the fox", "tail": null}',
    '{"id": 5, "text": "no newline at the end"}',
]


def _without_text(line: str) -> str:
    begin, end, _ = find_string_member(line, "text")
    return line[:begin] + line[end:]


def _read(directory: Path) -> list:
    return "".join(p.read_text(encoding="utf-8") for p in sorted(directory.glob("part-*.jsonl"))).splitlines()


def test_find_string_member() -> None:
    assert find_string_member('{"a": "text", "text": "x"}', "text")[2] == "x"
    assert find_string_member('{"a": {"text": 1}, "text": "y"}', "text")[2] == "y"
    for bad in ('{"text": 1}', '{"text": ["x"]}', '{"a": "b"}', '["text"]', "{", '{"text": "a", "text": "b"}'):
        with pytest.raises(RecordError):
            find_string_member(bad, "text")


def test_every_other_byte_is_kept(client, demo_model_path, tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(LINES), encoding="utf-8")  # no final newline
    summary = dxd.privatize_jsonl(str(source), tmp_path / "out", model=demo_model_path, epsilon=5, blocksize=64)
    assert summary["records"] == 5 and summary["skipped"] == 0 and summary["partitions"] > 1
    out = _read(tmp_path / "out")
    assert len(out) == len(LINES)
    for before, after in zip(LINES, out):
        if before:
            assert _without_text(after) == _without_text(before)
            json.loads(after)
        else:
            assert after == ""
    assert not list((tmp_path / "out").glob(".*.tmp"))
    assert (tmp_path / "out.state").is_dir()  # the bookkeeping is outside the output directory


def test_bad_lines(client, demo_model_path, tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    lines = ['{"text": "a fox"}', "not json", '{"text": 1}', '{"other": "x"}', '{"text": "a dog"}']
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with open(source, "ab") as f:
        f.write(b'{"text": "bad \xff byte"}\n')
    with pytest.raises(RecordError):
        dxd.privatize_jsonl(str(source), tmp_path / "stop", model=demo_model_path, epsilon=5)
    summary = dxd.privatize_jsonl(str(source), tmp_path / "skip", model=demo_model_path, epsilon=5, on_error="skip",
                                  blocksize=40)
    assert summary["records"] == 2 and summary["skipped"] == 4
    assert [n for n, _ in summary["skipped_lines"]] == [2, 3, 4, 6]
    assert len(_read(tmp_path / "skip")) == 2


def test_resume_reuses_and_refuses_other_runs(client, demo_model_path, tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text("".join(f'{{"id": {i}, "text": "the quick brown fox"}}\n' for i in range(200)), encoding="utf-8")
    out = tmp_path / "out"
    first = dxd.privatize_jsonl(str(source), out, model=demo_model_path, epsilon=5, blocksize=1024)
    before = {p.name: p.read_bytes() for p in out.glob("part-*")}
    # A partition whose output is gone (never written) is privatised again;
    # the others are reused: not one record drawn twice.
    missing = sorted(before)[2]
    os.remove(out / missing)
    again = dxd.privatize_jsonl(str(source), out, model=demo_model_path, epsilon=5, blocksize=1024)
    assert again["written"] == 1 and again["reused"] == first["partitions"] - 1
    after = {p.name: p.read_bytes() for p in out.glob("part-*")}
    assert all(after[name] == data for name, data in before.items() if name != missing)
    # Other options, or other input, must not overwrite what was released.
    with pytest.raises(FileExistsError, match="released"):
        dxd.privatize_jsonl(str(source), out, model=demo_model_path, epsilon=6, blocksize=1024)
    with pytest.raises(FileExistsError):
        dxd.privatize_jsonl(str(source), out, model=demo_model_path, epsilon=5, blocksize=1024, resume=False)


def test_runs_on_the_client_made_current(client, demo_model_path, tmp_path: Path) -> None:
    # A Client that is not the default one, made current with as_current():
    # the run must go to its cluster, not to local threads (dask.compute()
    # alone would not see it).
    import dask
    from distributed import Client, get_task_stream

    source = tmp_path / "in.jsonl"
    source.write_text("".join(f'{{"id": {i}, "text": "the quick brown fox"}}\n' for i in range(50)), encoding="utf-8")
    with Client(client.scheduler.address, set_as_default=False) as other, dask.config.set(scheduler="sync"):
        with other.as_current(), get_task_stream(other) as stream:
            summary = dxd.privatize_jsonl(str(source), tmp_path / "out", model=demo_model_path, epsilon=5,
                                          blocksize=500)
    assert summary["records"] == 50
    keys = [task["key"] for task in stream.data]
    assert sum(1 for key in keys if key.startswith("_partition-")) == summary["partitions"]
