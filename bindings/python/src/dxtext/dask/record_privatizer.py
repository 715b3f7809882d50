# SPDX-License-Identifier: Apache-2.0
"""Privatising the records of one partition, on a worker.

A RecordPrivatizer holds what every task needs: the ModelSource, the
keyword options of Model.privatize() exactly as the caller gave them (they
are passed through unchanged, so options added to Model.privatize() work
here too), the field to privatise and what to do with a bad record. It is
pickled into each task; the model is opened once per worker process
(model_source.py) and each thread draws from its own context.

Noise: without seed= every record is privatised by its own call with fresh
noise from the system generator. With ledger= (a UserLedgers) each record is
released through its user's ledger (user_ledgers.py): charged there, refused
past the user's cap, and memoised, so that a retried task re-releases
nothing. With seed= (NOT private, as everywhere in
dxtext) each record gets its own seed, HMAC-SHA256(seed, what identifies
the record), so that records still get independent noise and a run can be
repeated exactly (docs/dask.md, "Retries, re-runs and memoisation").
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ..errors import BudgetExceededError, InputTooLargeError, InvalidUtf8Error
from ..model import Model
from ..options import seed_bytes
from .jsonl_line import RecordError, find_string_member, replace_member
from .model_source import ModelSource
from .user_ledgers import UserLedgers

LOG = logging.getLogger("dxtext.dask")

# Options of Model.privatize() that do not make sense for a whole
# collection, and what to use instead.
_REFUSED = {
    "with_report": "the release record is the same for every record: use dxtext.dask.release_record()",
    "with_record": "the release record is the same for every record: use dxtext.dask.release_record()",
    "local_diagnostics": "diagnostics describe the input and would stay on the workers; run Model.privatize() locally",
}

# Problems of one record, which on_error="skip" skips; every other error
# (an unreadable model, a failing random generator, a bad option, a corrupt
# ledger) stops the run, as in `dxtext privatize --jsonl --on-error skip`.
# With a ledger, a record its user has no budget left for is one of them:
# nothing was drawn for it, and skipping leaves it out of the output.
RECORD_ERRORS = (RecordError, InvalidUtf8Error, InputTooLargeError, BudgetExceededError)

_SEED_DOMAIN = b"dxtext.dask record seed v1\0"


class RecordPrivatizer:
    """Privatises one field of records (or plain strings) with one model
    and one set of options; picklable and immutable."""

    def __init__(
        self,
        source: ModelSource,
        options: Mapping[str, Any],
        *,
        field: Optional[str] = "text",
        on_error: str = "stop",
        key_field: Optional[str] = None,
        ledger: Optional[UserLedgers] = None,
        user_field: Optional[str] = None,
    ) -> None:
        for name, instead in _REFUSED.items():
            if name in options:
                raise TypeError(f"{name}= is not available in dxtext.dask: {instead}")
        if on_error not in ("stop", "skip"):
            raise ValueError(f'on_error must be "stop" or "skip", not {on_error!r}')
        if field is not None and not isinstance(field, str):
            raise TypeError(f"field must be str or None, not {type(field).__name__}")
        if key_field is not None and not isinstance(key_field, str):
            raise TypeError(f"key_field must be str or None, not {type(key_field).__name__}")
        if "ledger" in options:
            raise TypeError(
                "ledger= of dxtext.dask is a dxtext.dask.UserLedgers, with user_field= naming the user of each record"
            )
        if ledger is not None:
            if not isinstance(ledger, UserLedgers):
                raise TypeError(
                    f"ledger must be a dxtext.dask.UserLedgers (a directory, a cap, a scope), not {type(ledger).__name__}"
                )
            if not isinstance(user_field, str):
                raise TypeError("ledger= needs user_field=, the member (or column) that names each record's user")
            if field is None:
                raise TypeError("ledger= needs records with a user_field, not plain strings (field=None)")
            if "seed" in options:
                raise TypeError("seed= and ledger= together: the ledger's memo already makes retries free; choose one")
        elif user_field is not None:
            raise TypeError("user_field= names the user of a ledger=: pass ledger=dxtext.dask.UserLedgers(...)")
        passed = dict(options)
        seed = passed.pop("seed", None)
        self.source = source
        self.options = passed
        self.field = field
        self.on_error = on_error
        self.key_field = key_field
        self.ledger = ledger
        self.user_field = user_field
        self.seed = seed_bytes(seed) if seed is not None else None
        # What the per-record seeds depend on besides the record: the model
        # and the options as given (so two runs with other options or another
        # model never share noise).
        setting: List[Any] = [source.sha256, field, sorted((k, repr(v)) for k, v in passed.items())]
        if ledger is not None:
            setting.append(["ledger", ledger.setting(), user_field])
        self.setting = json.dumps(setting, ensure_ascii=False).encode("utf-8", "surrogatepass")

    @property
    def is_private(self) -> bool:
        return self.seed is None

    # -- one text ------------------------------------------------------------

    def record_seed(self, identity: Sequence[Any], text: str) -> bytes:
        """HMAC-SHA256(seed, domain | model, field, options | identity | text).
        The text is part of it, so a record whose text changed gets fresh
        noise instead of the old noise on new words; the identity is, so
        equal texts of different records do not come out equal."""
        assert self.seed is not None
        message = b"\0".join(
            (
                _SEED_DOMAIN + self.setting,
                json.dumps(list(identity), ensure_ascii=False, default=str).encode("utf-8", "surrogatepass"),
                text.encode("utf-8", "surrogatepass"),
            )
        )
        return hmac.new(self.seed, message, hashlib.sha256).digest()

    def privatize(self, model: Model, text: str, record: Any, position: Tuple[int, int]) -> str:
        """`text` released with fresh noise, through its user's ledger, or
        with its own seed; `record` (a mapping) names its key and its user."""
        key = _member(record, self.key_field, "key")  # a record without its key is refused, seed= or not
        if self.ledger is not None:
            ledger = self.ledger.open(UserLedgers.user_id(_member(record, self.user_field, "user")))
            return model.privatize(text, ledger=ledger, **self.options)  # type: ignore[no-any-return]
        identity = ("position",) + position if self.key_field is None else ("key", key)
        seed = None if self.seed is None else self.record_seed(identity, text)
        return model.privatize(text, seed=seed, **self.options)  # type: ignore[no-any-return]

    # -- partitions ------------------------------------------------------------

    def _each(
        self, items: Sequence[Any], partition: int, release: Callable[[Model, Any, Tuple[int, int]], Any]
    ) -> Tuple[List[Any], List[Tuple[int, str]]]:
        """release(model, item, position) of each item of a partition: the
        results, and the items skipped as (index, reason)."""
        model = self.source.open()
        out: List[Any] = []
        skipped: List[Tuple[int, str]] = []
        for i, item in enumerate(items):
            try:
                out.append(release(model, item, (partition, i)))
            except RECORD_ERRORS as e:
                if self.on_error == "stop":
                    raise
                LOG.warning("dxtext.dask: record %d of partition %d skipped: %s", i, partition, e)
                skipped.append((i, str(e)))
        return out, skipped

    def records(self, records: Sequence[Any], partition: int) -> List[Any]:
        """A partition of a Bag: strings (field=None) or mappings whose
        `field` is privatised; the other members are kept (a new dict, the
        input is not changed)."""

        def release(model: Model, record: Any, position: Tuple[int, int]) -> Any:
            if self.field is None:
                if not isinstance(record, str):
                    raise RecordError(f"a record is {type(record).__name__}, not str (field=None)")
                return self.privatize(model, record, record, position)
            if not isinstance(record, Mapping):
                raise RecordError(f"a record is {type(record).__name__}, not a mapping")
            if self.field not in record:
                raise RecordError(f'no member "{self.field}"')
            text = record[self.field]
            if not isinstance(text, str):
                raise RecordError(f'"{self.field}" is not a string')
            return {**record, self.field: self.privatize(model, text, record, position)}

        return self._each(records, partition, release)[0]

    def lines(self, lines: Sequence[str], partition: int) -> Tuple[List[str], List[Tuple[int, str]]]:
        """A partition of JSON lines: each line's `field` privatised in place,
        every other byte kept; blank lines kept. Returns the lines and the
        skipped ones as (line number in the partition, reason)."""
        assert self.field is not None
        field = self.field

        def release(model: Model, line: str, position: Tuple[int, int]) -> str:
            body = line.rstrip("\n")
            if not body.strip(" \t\r"):
                return line
            try:
                body.encode("utf-8")
            except UnicodeEncodeError:
                raise RecordError("invalid UTF-8") from None
            begin, end, text = find_string_member(body, field)
            record = json.loads(body) if self.key_field or self.user_field else None
            return replace_member(body, begin, end, self.privatize(model, text, record, position)) + line[len(body) :]

        return self._each(lines, partition, release)

    def frame(self, frame: Any, column: str, partition: int) -> Any:
        """A partition of a DataFrame with `column` privatised; missing
        values (None, NaN, pandas.NA) stay missing, and skipped rows are
        dropped."""
        import pandas as pd  # a DataFrame's partition is a pandas one

        def release(model: Model, row: Dict[str, Any], position: Tuple[int, int]) -> Any:
            text = row[column]
            if not isinstance(text, str) and pd.api.types.is_scalar(text) and pd.isna(text):
                return text
            if not isinstance(text, str):
                raise RecordError(f'"{column}" is {type(text).__name__}, not str')
            return self.privatize(model, text, row, position)

        names = list(dict.fromkeys(n for n in (column, self.key_field, self.user_field) if n is not None))
        out, skipped = self._each(frame[names].to_dict("records"), partition, release)
        dropped = {i for i, _ in skipped}
        result = frame.loc[[i not in dropped for i in range(len(frame))]].copy()
        result[column] = text_series(result[column], out)
        return result


def _member(record: Any, name: Optional[str], what: str) -> Any:
    """The member `name` of a record (None without a name), or a RecordError."""
    if name is None:
        return None
    try:
        return record[name]
    except (KeyError, IndexError, TypeError):
        raise RecordError(f'no {what} member "{name}"') from None


def text_series(column: Any, values: Sequence[Any]) -> Any:
    """`values` as the released text of a DataFrame's `column` (pandas'
    string dtype kept, object otherwise)."""
    import pandas

    return pandas.Series(values, index=column.index, dtype=column.dtype if str(column.dtype) == "string" else object)


__all__ = ["RECORD_ERRORS", "RecordError", "RecordPrivatizer", "text_series"]
