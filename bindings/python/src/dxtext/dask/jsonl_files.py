# SPDX-License-Identifier: Apache-2.0
"""privatize_jsonl: JSON lines files in, a directory of JSON lines out, one
file per partition, written so that every record is released exactly once.

- Each partition's output is written under a temporary name, synced and
  renamed: a file either is complete or is not there. A task that dies
  (its worker killed) leaves at most a temporary file, which holds a draw
  that was never released; the run deletes those at the end.
- Before it privatises, each task looks for its partition's output from an
  earlier attempt or run. If it is there and was made from the same input
  bytes with the same model and options (the state directory records the
  SHA-256 of each input partition), the task reuses it and draws nothing:
  a retried task, or a run started again after a crash, re-releases no
  record. If it is there but was made from other input or options, the
  task refuses to overwrite it (that would be a second release).
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import json
import os
from typing import Any, Dict, List, Optional, Sequence, Union

from .bag_and_frame import ModelLike, make_privatizer
from .model_source import PathLike, write_atomically
from .record_privatizer import RecordPrivatizer
from .user_ledgers import UserLedgers


def _setting(privatizer: RecordPrivatizer) -> str:
    """What must match for an earlier output to be reused."""
    h = hashlib.sha256(privatizer.setting)
    h.update(json.dumps([privatizer.on_error, privatizer.key_field, privatizer.is_private]).encode())
    return h.hexdigest()


def _partition(
    lines: List[str], number: int, privatizer: RecordPrivatizer, output_dir: str, state_dir: str, resume: bool
) -> Dict[str, Any]:
    name = f"part-{number:05d}.jsonl"
    output = os.path.join(output_dir, name)
    state = os.path.join(state_dir, f"{name}.json")
    digest = hashlib.sha256("".join(lines).encode("utf-8", "surrogateescape")).hexdigest()
    expected = {"input_sha256": digest, "input_lines": len(lines), "setting": _setting(privatizer)}
    if os.path.exists(output):
        previous: Optional[Dict[str, Any]] = None
        if os.path.exists(state):
            with open(state, encoding="utf-8") as f:
                previous = json.load(f)
        if resume and previous is not None and all(previous.get(k) == v for k, v in expected.items()):
            return dict(previous, partition=number, reused=True)
        raise FileExistsError(
            f"{output} exists and was not made from this partition with these options: its records were "
            "released already, and privatising them again would release them twice; write to a new directory"
        )
    out, skipped = privatizer.lines(lines, number)
    if out and not out[-1].endswith("\n"):
        out[-1] += "\n"  # the last line of an input file may lack its newline
    done = dict(expected, records=sum(1 for line in out if line.strip(" \t\r\n")), skipped=skipped)
    # The state first: an output without its state would be refused as foreign.
    write_atomically(state, json.dumps(done))
    write_atomically(output, "".join(out))
    return dict(done, partition=number, reused=False)


def _current_client() -> Any:
    """The distributed Client made current with `Client.as_current()`, if
    any. dask.compute() itself only finds a client set as the default one
    (`Client(...)` without set_as_default=False): without this, a run inside
    `with client.as_current():` would quietly use local threads instead of
    the cluster."""
    try:
        from distributed import Client
    except ImportError:
        return None
    try:
        return Client.current(allow_global=False)
    except ValueError:
        return None


def privatize_jsonl(
    inputs: Union[PathLike, Sequence[PathLike]],
    output_dir: PathLike,
    *,
    model: ModelLike = None,
    field: str = "text",
    on_error: str = "stop",
    key_field: Optional[str] = None,
    ledger: Optional[UserLedgers] = None,
    user_field: Optional[str] = None,
    blocksize: Union[int, str, None] = "4MiB",
    state_dir: Optional[PathLike] = None,
    resume: bool = True,
    **options: Any,
) -> Dict[str, Any]:
    """Privatise the member `field` of every line of JSON lines files on the
    current Dask scheduler (the distributed Client made current with
    `with client.as_current():`, else the default one, else Dask's local
    threads), keeping every other byte of each line.

    Args:
        inputs: a path, a glob ("corpus-*.jsonl") or a list of them, as
            dask.bag.read_text takes; the workers must be able to read them.
        output_dir: the directory of output files part-00000.jsonl, ... (one
            per partition; in name order they hold the records in input
            order). Workers write into it: on a multi-machine cluster it must
            be shared storage.
        blocksize: the size of a partition of the input (None: one per file).
            A run is resumed partition by partition, so resume with the same
            blocksize.
        state_dir: where each partition's bookkeeping goes (the SHA-256 of
            its input, counts, skipped lines); default `<output_dir>.state`.
            It describes the input: keep it with the input, do not ship it.
        resume: reuse complete outputs of an earlier run instead of refusing.
        model, field, on_error, key_field, ledger, user_field, **options: as
            privatize_records().

    Returns:
        a summary: partitions, written (privatised now), reused, records,
        skipped (number), skipped_lines ([line number in the input, reason],
        the first 100).
    """
    import dask
    import dask.bag as db

    privatizer = make_privatizer(
        model, options, field=field, on_error=on_error, key_field=key_field, ledger=ledger, user_field=user_field
    )
    output = os.path.abspath(os.fspath(output_dir))
    state = os.path.abspath(os.fspath(state_dir)) if state_dir is not None else output.rstrip(os.sep) + ".state"
    os.makedirs(output, exist_ok=True)
    os.makedirs(state, exist_ok=True)
    paths = [os.fspath(p) for p in inputs] if isinstance(inputs, (list, tuple)) else os.fspath(inputs)
    lines = db.read_text(paths, blocksize=blocksize, errors="surrogateescape")
    tasks = [
        dask.delayed(_partition, pure=False)(part, i, privatizer, output, state, resume)
        for i, part in enumerate(lines.to_delayed())
    ]
    client = _current_client()
    computed = dask.compute(*tasks, scheduler=client) if client is not None else dask.compute(*tasks)
    results = sorted(computed, key=lambda r: r["partition"])
    # Temporary files left by attempts that died hold draws never released.
    for stale in glob.glob(os.path.join(output, ".*.tmp")) + glob.glob(os.path.join(state, ".*.tmp")):
        with contextlib.suppress(FileNotFoundError):
            os.remove(stale)
    first_line = 0
    skipped_lines: List[List[Any]] = []
    for r in results:
        for i, reason in r["skipped"]:
            if len(skipped_lines) < 100:
                skipped_lines.append([first_line + i + 1, reason])
        first_line += r["input_lines"]
    return {
        "output_dir": output,
        "partitions": len(results),
        "written": sum(1 for r in results if not r["reused"]),
        "reused": sum(1 for r in results if r["reused"]),
        "records": sum(r["records"] for r in results),
        "skipped": sum(len(r["skipped"]) for r in results),
        "skipped_lines": skipped_lines,
    }
