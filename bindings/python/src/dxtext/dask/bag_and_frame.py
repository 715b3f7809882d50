# SPDX-License-Identifier: Apache-2.0
"""privatize_records (a Dask Bag) and privatize_column (a Dask DataFrame)."""

from __future__ import annotations

import os
import warnings
from typing import Any, Optional, Union

from ..errors import DxtextIOError, NotFoundError
from ..model import Model
from ..options import NotPrivateWarning, warn_not_private
from .model_source import ModelSource, PathLike, resolve
from .record_privatizer import RecordPrivatizer, text_series
from .user_ledgers import UserLedgers

ModelLike = Union[None, PathLike, Model, ModelSource]


def make_privatizer(model: ModelLike, options: dict, **settings: Any) -> RecordPrivatizer:
    """The RecordPrivatizer of a call, with its options checked on the
    client when the client can open the model (else the first task raises)."""
    source = resolve(model)
    privatizer = RecordPrivatizer(source, options, **settings)
    if privatizer.ledger is not None and os.path.isdir(privatizer.ledger.directory):
        privatizer.ledger.check()  # else only the workers see it; they raise
    try:
        local = source.open()
    except (DxtextIOError, NotFoundError):
        pass  # the model is on the workers only
    else:  # options Model.privatize() refuses raise now: an empty text draws no noise
        local.privatize("", **privatizer.options)
    if not privatizer.is_private:
        warn_not_private()
    return privatizer


def _records_partition(records: list, numbers: list, privatizer: RecordPrivatizer) -> list:
    return privatizer.records(records, numbers[0])


def privatize_records(
    bag: Any,
    *,
    model: ModelLike = None,
    field: Optional[str] = "text",
    on_error: str = "stop",
    key_field: Optional[str] = None,
    ledger: Optional[UserLedgers] = None,
    user_field: Optional[str] = None,
    **options: Any,
) -> Any:
    """A Dask Bag with `field` of each record privatised.

    Args:
        bag: a dask.bag.Bag of mappings (dicts from JSON lines, say), or of
            strings with field=None.
        model: a path the workers can read, None for the default model, an
            open file-backed Model, or a ModelSource (ship_model() returns
            one). The client reads the file once for its SHA-256, and every
            worker checks its own copy against it.
        field: the member to privatise; the others are kept as they are.
        on_error: "stop" (default) raises on a record that is not a mapping,
            lacks `field`, has a non-string or invalid `field`; "skip" leaves
            such records out (with a warning in the worker's log).
        key_field: a member that identifies each record; used only with
            seed= (see docs/dask.md).
        ledger, user_field: a UserLedgers, and the member naming each
            record's user: every record is released through its user's
            ledger (charged, refused past the cap, memoised; docs/dask.md,
            "A ledger per user"). A record its user has no budget left for
            raises BudgetExceededError, or is left out with on_error="skip".
        **options: every keyword option of Model.privatize() (epsilon,
            mechanism, policies, mechanism parameters, ...), passed to it
            unchanged. seed= gives each record its own seed derived from
            it: reproducible, NOT private.

    Returns:
        a new Bag with the same partitions, in the same order.
    """
    import dask.bag as db

    privatizer = make_privatizer(
        model, options, field=field, on_error=on_error, key_field=key_field, ledger=ledger, user_field=user_field
    )
    n = bag.npartitions
    numbers = db.from_sequence(range(n), npartitions=n)
    return bag.map_partitions(_records_partition, numbers, privatizer)


def _frame_partition(frame: Any, privatizer: RecordPrivatizer, column: str, partition_info: Any = None) -> Any:
    number = partition_info["number"] if partition_info else 0
    return privatizer.frame(frame, column, number)


def privatize_column(
    frame: Any,
    column: str = "text",
    *,
    model: ModelLike = None,
    on_error: str = "stop",
    key_field: Optional[str] = None,
    ledger: Optional[UserLedgers] = None,
    user_field: Optional[str] = None,
    **options: Any,
) -> Any:
    """A Dask DataFrame with `column` privatised, every other column kept.
    Missing values stay missing; with on_error="skip" rows whose value
    cannot be privatised are dropped. `key_field` and `user_field` name
    columns, and the other arguments are those of privatize_records()."""
    for name in (column, key_field, user_field):
        if name is not None and name not in frame.columns:
            raise KeyError(f"no column {name!r}")
    privatizer = make_privatizer(
        model, options, field=column, on_error=on_error, key_field=key_field, ledger=ledger, user_field=user_field
    )
    meta = frame._meta.copy()
    meta[column] = text_series(meta[column], [])
    return frame.map_partitions(_frame_partition, privatizer, column, meta=meta)


def release_record(*, model: ModelLike = None, **options: Any) -> Any:
    """The release record of privatising text with these options on this
    model: it is the same for every record of a run (it depends only on the
    options, the model and the generator mode), so one is enough for a
    whole data set. Computed on the client."""
    privatizer = make_privatizer(model, options)
    local = privatizer.source.open()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotPrivateWarning)
        _, record = local.privatize("", seed=privatizer.seed, with_record=True, **privatizer.options)
    return record
