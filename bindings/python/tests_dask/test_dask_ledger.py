# SPDX-License-Identifier: Apache-2.0
"""A privacy ledger per user on a LocalCluster of 2 worker processes
(2 threads each): every record charged to its user, the cap held exactly
while both workers release records of the same user at once, records past
it refused before any draw (skipped or raised), repeats and retried tasks
given the memoised output at no cost, even when a worker dies mid-run."""

from __future__ import annotations

import json
import os
import random
import signal
from collections import defaultdict
from pathlib import Path

import dask.bag as db
import pytest

import dxtext
import dxtext.dask as dxd

EPSILON = 5.0
SENTENCES = [
    "the quick brown fox jumps over the lazy dog",
    "my order never arrived and nobody answers the phone",
    "please reset my password",
    "the invoice shows the wrong address",
    "see you at noon by the river",
    "music and dance in the city tonight",
]


# An app key: without one a ledger memoises nothing, and repeats and
# retried tasks would be charged again.
KEY = b"dask-test-app-key-32-bytes-long!"


def _spent(ledgers: dxd.UserLedgers, user: str) -> float:
    with dxtext.Ledger.open(ledgers.path(user), scope=ledgers.scope, key=ledgers.key) as ledger:
        return ledger.totals().spent


def test_the_cap_holds_across_workers_and_refused_records_are_skipped(client, demo_model_path,
                                                                       tmp_path: Path) -> None:
    # User "a" writes 60 different texts spread over every partition; the cap
    # allows 12, as many as each other user writes. Both workers (and their
    # threads) release a's records at once.
    lines = []
    for i in range(120):
        user = "a" if i % 2 == 0 else f"b{i % 5}"
        lines.append(json.dumps({"id": i, "user": user, "text": f"{SENTENCES[i % 6]} number {i}"}))
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    directory = tmp_path / "ledgers"
    directory.mkdir()
    ledgers = dxd.UserLedgers(directory, cap=12 * EPSILON, key=KEY)
    summary = dxd.privatize_jsonl(str(source), tmp_path / "out", model=demo_model_path, epsilon=EPSILON,
                                  ledger=ledgers, user_field="user", on_error="skip", blocksize=600)
    assert summary["partitions"] >= 4
    assert summary["records"] == 120 - 48 and summary["skipped"] == 48
    assert all("budget" in reason for _, reason in summary["skipped_lines"])
    assert _spent(ledgers, "a") == 12 * EPSILON
    out = [json.loads(line) for p in sorted((tmp_path / "out").glob("part-*.jsonl"))
           for line in p.read_text(encoding="utf-8").splitlines()]
    assert sum(1 for r in out if r["user"] == "a") == 12
    assert sorted(r["id"] for r in out if r["user"] != "a") == [i for i in range(120) if i % 2 != 0]
    for b in range(5):
        assert _spent(ledgers, f"b{b}") == 12 * EPSILON
    # on_error="stop": the first refusal stops the run.
    with pytest.raises(dxtext.BudgetExceededError):
        dxd.privatize_jsonl(str(source), tmp_path / "stop", model=demo_model_path, epsilon=EPSILON,
                            ledger=ledgers, user_field="user", blocksize=600)


def _log_attempt(records: list, numbers: list, log: str) -> list:
    with open(log, "a", encoding="utf-8") as f:
        f.write(f"{numbers[0]}\n")
    return records


def _kill_once(records: list, numbers: list, marker: str) -> list:
    # The first attempt at partition 3 kills its worker process after its
    # records were released through the ledgers; the next attempt goes on.
    if numbers[0] == 3:
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return records
        os.kill(os.getpid(), signal.SIGKILL)
    return records


def test_a_users_text_is_charged_once_even_when_its_task_is_retried(client, demo_model_path, tmp_path: Path) -> None:
    # Partition 3's worker dies after releasing its records; the retried task
    # gets their memoised outputs and spends nothing again.
    rng = random.Random(5)
    records = [{"id": i, "user": f"u{rng.randrange(3)}", "text": rng.choice(SENTENCES), "n": i} for i in range(200)]
    directory = tmp_path / "ledgers"
    directory.mkdir()
    ledgers = dxd.UserLedgers(directory, cap=1000, scope="2026-11", key=KEY)
    numbers = db.from_sequence(range(8), npartitions=8)
    log = str(tmp_path / "attempts")
    logged = db.from_sequence(records, npartitions=8).map_partitions(_log_attempt, numbers, log)
    bag = dxd.privatize_records(logged, model=demo_model_path, epsilon=EPSILON, ledger=ledgers, user_field="user")
    marker = str(tmp_path / "killed")
    out = bag.map_partitions(_kill_once, numbers, marker).compute()
    # The nanny restarts the killed worker for the tests after this one; a
    # fresh worker process imports dask, pandas and dxtext, which took more
    # than 60 s on a loaded 2-core machine.
    client.wait_for_workers(2, timeout=240)
    assert os.path.exists(marker)
    attempts = Path(log).read_text(encoding="utf-8").split()
    assert attempts.count("3") >= 2  # partition 3 was privatised again
    assert [{**r, "text": s["text"]} for r, s in zip(out, records)] == records  # in order, other members kept
    outputs, distinct = defaultdict(set), defaultdict(set)
    for r, s in zip(out, records):
        outputs[(s["user"], s["text"])].add(r["text"])
        distinct[s["user"]].add(s["text"])
    assert all(len(v) == 1 for v in outputs.values())  # a repeated text is its user's memoised output
    for user, texts in distinct.items():
        assert _spent(ledgers, user) == EPSILON * len(texts)  # once per distinct text: the retry was free
    assert len(list(directory.glob("*.dxl"))) == len(distinct)


def test_a_column_with_integer_users(client, demo_model_path, tmp_path: Path) -> None:
    pandas = pytest.importorskip("pandas")
    import dask.dataframe as dd

    frame = pandas.DataFrame({"user": [7, 7, 8, 9] * 10, "text": [SENTENCES[i % 3] for i in range(40)]})
    directory = tmp_path / "ledgers"
    directory.mkdir()
    ledgers = dxd.UserLedgers(directory, cap=100, key=KEY)
    result = dxd.privatize_column(dd.from_pandas(frame, npartitions=4), "text", model=demo_model_path,
                                  epsilon=EPSILON, ledger=ledgers, user_field="user").compute()
    assert len(result) == 40
    for user in ("7", "8", "9"):
        texts = set(frame[frame["user"] == int(user)]["text"])
        assert _spent(ledgers, user) == EPSILON * len(texts)


def test_bad_ledger_arguments(client, demo_model_path, tmp_path: Path) -> None:
    bag = db.from_sequence([{"user": "a", "text": "hello"}, {"text": "no user"}], npartitions=1)
    ledgers = dxd.UserLedgers(tmp_path, cap=10)
    with pytest.raises(TypeError, match="user_field"):
        dxd.privatize_records(bag, model=demo_model_path, epsilon=EPSILON, ledger=ledgers)
    with pytest.raises(TypeError, match="UserLedgers"):
        dxd.privatize_records(bag, model=demo_model_path, epsilon=EPSILON, ledger=str(tmp_path), user_field="user")
    with pytest.raises(TypeError, match="seed"):
        dxd.privatize_records(bag, model=demo_model_path, epsilon=EPSILON, ledger=ledgers, user_field="user",
                              seed=b"\1" * 32)
    with pytest.raises(TypeError, match="ledger"):
        dxd.privatize_records(bag, model=demo_model_path, epsilon=EPSILON, user_field="user")
    with pytest.raises(dxd.RecordError, match="user"):
        dxd.privatize_records(bag, model=demo_model_path, epsilon=EPSILON, ledger=ledgers,
                              user_field="user").compute()
    kept = dxd.privatize_records(bag, model=demo_model_path, epsilon=EPSILON, ledger=ledgers, user_field="user",
                                 on_error="skip").compute()
    assert [r["user"] for r in kept] == ["a"]
    assert "key=<set>" in repr(dxd.UserLedgers(tmp_path, cap=1, key=b"k" * 32))
