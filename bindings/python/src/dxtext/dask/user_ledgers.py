# SPDX-License-Identifier: Apache-2.0
"""A privacy ledger per user for a corpus on Dask (docs/dask.md, "A ledger
per user").

UserLedgers names a directory of ledger files, one per user, and the cap,
scope, memo capacity and app key of each. It is small and picklable, so it
travels inside every task; a worker opens a user's ledger the first time a
record of that user comes by (creating the file with the cap when the user
is new) and keeps the handle for the life of the process.

Every release of a record goes through its user's ledger: it is charged
there, refused past the cap before any noise is drawn, and a record whose
text the user already released with the same options (same model, same
law) gets the memoised output back at no cost. That makes retries free: a
task that Dask runs again after a worker died gets, for each record it had
already released, the same output as before and spends nothing.

Why a file per user rather than one file with a scope per user: every
ledger call reads its file and rewrites it whole under an exclusive lock,
so one file for all users would serialise every worker on one lock and
rewrite every user's entries for every record. A file per user locks only
that user; two workers releasing records of the same user at the same time
are serialised by the file's lock (flock), which holds across processes,
and across machines on storage whose flock() is honoured there (local
disks, NFSv4).
"""

from __future__ import annotations

import contextlib
import hashlib
import numbers
import os
import threading
from typing import Any, Dict, Optional, Tuple

from ..ledger import MEMO_MAX, Ledger, LedgerTotals
from ..errors import invalid_argument
from ..options import number
from .jsonl_line import RecordError

# Per process: (file, scope, key digest) -> the open Ledger. Handles hold no
# file descriptor between calls; the bound only keeps memory flat over a
# corpus of many users.
_OPEN: Dict[Tuple[str, str, str], Ledger] = {}
_OPEN_LOCK = threading.Lock()
_OPEN_MAX = 4096


class UserLedgers:
    """One ledger file per user in `directory` (docs/budgets.md for the
    ledger itself).

    Args:
        directory: where the files go, one per user, named by the SHA-256 of
            the user's id (the id itself is stored nowhere). Workers must all
            see the same directory: a local path on a LocalCluster, shared
            storage whose file locks hold across machines on a cluster.
        cap: the cap of a user seen for the first time (epsilon summed over
            releases; docs/budgets.md, "Choosing a cap"). An existing user
            keeps their own cap.
        scope: the scope inside each user's file, e.g. a period
            ("2026-11"): a new scope is a new budget.
        memo_capacity: memoised outputs per user (at most 4096, the
            default). A retried task re-releases its records for free only
            while they are still memoised: keep it at least the number of
            records a user has in one run.
        key: an app key (16 to 64 bytes) for the ledgers' MAC and memo keys
            (docs/budgets.md, "Tamper evidence"). It travels to the workers
            inside every task. Without it nothing is memoised (the file
            would hold the memo secret: docs/budgets.md, "What the file
            reveals"), so repeats and retried tasks are charged again.
    """

    __slots__ = ("directory", "cap", "scope", "memo_capacity", "key")

    def __init__(
        self,
        directory: "str | os.PathLike[str]",
        *,
        cap: float,
        scope: str = "default",
        memo_capacity: int = MEMO_MAX,
        key: Optional[bytes] = None,
    ) -> None:
        cap = number(cap, "cap")
        if not isinstance(scope, str):
            raise TypeError(f"scope must be str, not {type(scope).__name__}")
        if key is not None and not isinstance(key, (bytes, bytearray)):
            raise TypeError(f"key must be bytes, not {type(key).__name__}")
        self.directory = os.path.abspath(os.fspath(directory))
        self.cap = cap
        self.scope = scope
        self.memo_capacity = int(memo_capacity)
        self.key = bytes(key) if key is not None else None

    def __repr__(self) -> str:
        return (
            f"UserLedgers({self.directory!r}, cap={self.cap}, scope={self.scope!r}, "
            f"memo_capacity={self.memo_capacity}, key={'<set>' if self.key else None})"
        )

    def setting(self) -> Any:
        """What identifies these ledgers in a run's setting (never the key)."""
        return [self.directory, self.scope]

    @staticmethod
    def user_id(value: Any) -> str:
        """A record's user as the string its file is named from: a str as
        it is, an int in decimal; anything else is a RecordError."""
        if isinstance(value, bool) or not isinstance(value, (str, numbers.Integral)):
            raise RecordError(f"the user is {type(value).__name__}, not str or int")
        text = value if isinstance(value, str) else str(int(value))
        if not text:
            raise RecordError("the user is empty")
        return text

    def path(self, user: str) -> str:
        """The ledger file of `user`."""
        digest = hashlib.sha256(user.encode("utf-8", "surrogatepass")).hexdigest()
        return os.path.join(self.directory, digest[:40] + ".dxl")

    def check(self) -> None:
        """Raise now, on the client, for settings every worker would refuse."""
        if not os.path.isdir(self.directory):
            raise invalid_argument(f"the ledger directory {self.directory} does not exist")
        probe = os.path.join(self.directory, ".dxtext-check.dxl")
        Ledger.open(probe, scope=self.scope, cap=self.cap, memo_capacity=self.memo_capacity, key=self.key).close()
        for leftover in (probe, probe + ".lock"):
            with contextlib.suppress(FileNotFoundError):
                os.remove(leftover)

    def totals(self, user: Any) -> Optional[LedgerTotals]:
        """`user`'s totals in this scope (None for a user never seen), read
        from their file on any machine that sees the directory. A file
        without this scope gets it added, with a cap of 0."""
        path = self.path(self.user_id(user))
        if not os.path.exists(path):
            return None
        with Ledger.open(path, scope=self.scope, cap=0, memo_capacity=self.memo_capacity, key=self.key) as ledger:
            return ledger.totals()

    def open(self, user: str) -> Ledger:
        """This process's handle on `user`'s ledger (made on first use)."""
        path = self.path(user)
        key_digest = hashlib.sha256(self.key).hexdigest() if self.key else ""
        cache_key = (path, self.scope, key_digest)
        with _OPEN_LOCK:
            ledger = _OPEN.pop(cache_key, None)
        if ledger is None:
            ledger = Ledger.open(path, scope=self.scope, cap=self.cap, memo_capacity=self.memo_capacity, key=self.key)
        with _OPEN_LOCK:
            ledger = _OPEN.setdefault(cache_key, ledger)  # the newest last; another thread's if it opened one too
            while len(_OPEN) > _OPEN_MAX:
                del _OPEN[next(iter(_OPEN))]  # closed when no task uses it any more
        return ledger


__all__ = ["UserLedgers"]
