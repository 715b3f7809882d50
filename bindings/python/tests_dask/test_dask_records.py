# SPDX-License-Identifier: Apache-2.0
"""dxtext.dask on a LocalCluster of 2 worker processes: Bags, DataFrames,
options passed through, independent noise, seeds, the model's SHA-256
(shipped models: test_dask_cluster_commands.py)."""

from __future__ import annotations

import os
import warnings

import dask.bag as db
import pytest

import dxtext
import dxtext.dask as dxd

SENTENCE = "The president spoke to the nation about the war and the economy."


def test_every_record_once_in_order_with_independent_noise(client, default_model_path) -> None:
    # 400 copies of one sentence over 2 processes x 2 threads: with fresh
    # noise per record nearly all outputs differ; shared or replayed noise
    # would repeat outputs (exactly, for records drawn from the same state).
    records = [{"id": i, "text": SENTENCE, "score": 0.5 + i, "tags": ["a", {"text": "nested"}]} for i in range(400)]
    bag = db.from_sequence(records, npartitions=8)
    out = dxd.privatize_records(bag, model=default_model_path, epsilon=10).compute()
    assert [r["id"] for r in out] == list(range(400))
    for before, after in zip(records, out):
        assert {k: v for k, v in after.items() if k != "text"} == {k: v for k, v in before.items() if k != "text"}
        assert after["text"].count(" ") == SENTENCE.count(" ")  # tokens and spacing are kept
    assert records[0]["text"] == SENTENCE  # the input is not changed
    assert len({r["text"] for r in out}) >= 390
    # Both worker processes took part.
    pids = db.from_sequence(range(8), npartitions=8).map(lambda _: os.getpid()).compute()
    assert len(set(pids)) == 2


def test_each_worker_opens_the_model_once_and_checks_it(client, default_model_path) -> None:
    source = dxd.ModelSource.local(default_model_path)
    dxd.privatize_records(db.from_sequence([SENTENCE] * 40, npartitions=8), model=source, field=None, epsilon=20).compute()

    def opened() -> list:
        from dxtext.dask import model_source

        return sorted(model_source._OPEN_MODELS)

    # The workers keep one open model per file content (a dict keyed by its
    # SHA-256); earlier tests on the same cluster may have left other models
    # open, and a worker may have run none of these tasks.
    per_worker = list(client.run(opened).values())
    assert any(source.sha256 in v for v in per_worker), per_worker
    wrong = dxd.ModelSource(str(default_model_path), "0" * 64)
    bag = db.from_sequence([SENTENCE], npartitions=1)
    with pytest.raises(dxtext.DigestMismatchError):
        dxd.privatize_records(bag, model=wrong, field=None, epsilon=20)  # the client checks first
    client_less = dxd.ModelSource(str(default_model_path) + ".absent", "0" * 64)
    with pytest.raises(dxtext.DxtextIOError):  # only the workers try: the client cannot read it
        dxd.privatize_records(bag, model=client_less, field=None, epsilon=20).compute()


def test_options_pass_through_unchanged(client, demo_model_path) -> None:
    bag = db.from_sequence([{"text": "the quick brown fox 42 zzqx"}] * 6, npartitions=2)
    out = dxd.privatize_records(
        bag, model=demo_model_path, epsilon=5, mechanism="vickrey", vickrey_t=0.5, oov="placeholder", numbers="drop",
        placeholder="[X]",
    ).compute()
    for r in out:
        assert r["text"].endswith("  [X]"), r  # 42 dropped (its space kept), zzqx replaced
    with pytest.raises((TypeError, dxtext.InvalidArgumentError), match="unknown option"):
        dxd.privatize_records(bag, model=demo_model_path, epsilon=5, no_such_option=1)
    with pytest.raises(dxtext.InvalidEpsilonError):
        dxd.privatize_records(bag, model=demo_model_path, epsilon=0)
    for refused in ("with_report", "with_record", "local_diagnostics"):
        with pytest.raises(TypeError, match=refused):
            dxd.privatize_records(bag, model=demo_model_path, epsilon=5, **{refused: True})


def test_bad_records_stop_or_are_skipped(client, demo_model_path) -> None:
    records = [{"text": "a fox"}, {"other": 1}, {"text": 7}, "not a mapping", {"text": "\ud800"}, {"text": "a dog"}]
    bag = db.from_sequence(records, npartitions=2)
    with pytest.raises(dxd.RecordError):
        dxd.privatize_records(bag, model=demo_model_path, epsilon=5).compute()
    out = dxd.privatize_records(bag, model=demo_model_path, epsilon=5, on_error="skip").compute()
    assert len(out) == 2 and all(set(r) == {"text"} for r in out)


def test_seed_is_reproducible_per_record_and_not_private(client, demo_model_path) -> None:
    texts = ["the quick brown fox jumps over the lazy dog"] * 20
    bag = db.from_sequence(texts, npartitions=4)
    with pytest.warns(dxtext.NotPrivateWarning):
        a = dxd.privatize_records(bag, model=demo_model_path, field=None, epsilon=3, seed=7).compute()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dxtext.NotPrivateWarning)
        b = dxd.privatize_records(bag, model=demo_model_path, field=None, epsilon=3, seed=7).compute()
        c = dxd.privatize_records(bag, model=demo_model_path, field=None, epsilon=3, seed=8).compute()
        d = dxd.privatize_records(bag, model=demo_model_path, field=None, epsilon=4, seed=7).compute()
        record = dxd.release_record(model=demo_model_path, epsilon=3, seed=7)
    assert a == b  # the same run again: the same release
    assert a != c and a != d  # another seed or other options: other noise
    assert len(set(a)) > 10  # equal texts of different records: independent noise
    assert record.is_private is False
    # With key_field the seed follows the record, not its position.
    keyed = [{"k": f"r{i}", "text": t} for i, t in enumerate(texts)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dxtext.NotPrivateWarning)
        e = dxd.privatize_records(db.from_sequence(keyed, npartitions=4), model=demo_model_path, epsilon=3, seed=7,
                                  key_field="k").compute()
        f = dxd.privatize_records(db.from_sequence(keyed[::-1], npartitions=3), model=demo_model_path, epsilon=3,
                                  seed=7, key_field="k").compute()
    assert {r["k"]: r["text"] for r in e} == {r["k"]: r["text"] for r in f}


def test_dataframe_column(client, demo_model_path) -> None:
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    frame = pd.DataFrame({"id": range(8), "text": ["the quick brown fox", None, "a lazy dog", 3, "", "fox", "dog", "x"],
                          "n": [1.5] * 8})
    df = dd.from_pandas(frame, npartitions=3)
    with pytest.raises(dxd.RecordError):
        dxd.privatize_column(df, "text", model=demo_model_path, epsilon=5).compute()
    out = dxd.privatize_column(df, "text", model=demo_model_path, epsilon=5, on_error="skip").compute()
    assert list(out["id"]) == [0, 1, 2, 4, 5, 6, 7]  # the row with 3 is skipped
    assert out["text"].iloc[1] is None and out["text"].iloc[3] == ""
    assert list(out["n"]) == [1.5] * 7
    # A column of pandas' string dtype writes a missing value as pandas.NA.
    typed = dd.from_pandas(pd.DataFrame({"text": pd.array(["a lazy dog", None], dtype="string")}), npartitions=1)
    out = dxd.privatize_column(typed, "text", model=demo_model_path, epsilon=5).compute()
    assert out["text"].iloc[1] is pd.NA and isinstance(out["text"].iloc[0], str)
    with pytest.raises(KeyError):
        dxd.privatize_column(df, "body", model=demo_model_path, epsilon=5)
