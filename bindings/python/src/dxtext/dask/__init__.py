# SPDX-License-Identifier: Apache-2.0
"""dxtext on a Dask cluster: privatise a column of a Dask DataFrame, the
records of a Dask Bag, or JSON lines files, with every record's noise drawn
afresh on the worker that handles it.

    from dask.distributed import Client, LocalCluster
    import dask.bag as db
    import json
    import dxtext.dask as dxd

    client = Client(LocalCluster(n_workers=2, threads_per_worker=1))
    summary = dxd.privatize_jsonl("corpus-*.jsonl", "private/", epsilon=20)
    bag = dxd.privatize_records(db.read_text("corpus.jsonl").map(json.loads), epsilon=20)

- Each worker process opens the memory-mapped model once (checked against
  the SHA-256 the client read) and each of its threads has its own context.
- Every keyword option of Model.privatize() passes through unchanged.
- seed= is NOT private, as everywhere in dxtext; here each record gets its
  own seed derived from it, so records still get independent noise.
- ledger=UserLedgers(directory, cap=...) with user_field= releases each
  record through its user's ledger: charged, capped, memoised (so a retried
  task re-releases nothing and spends nothing).

Requires dask (Debian: python3-dask) and, for clusters, distributed
(python3-distributed). docs/dask.md has a complete example, the behaviour
when workers fail, and how to run on several machines.
"""

from __future__ import annotations

from .bag_and_frame import privatize_column, privatize_records, release_record
from .jsonl_files import privatize_jsonl
from .jsonl_line import RecordError
from .model_source import ModelPlugin, ModelSource, ship_model
from .user_ledgers import UserLedgers

__all__ = [
    "ModelPlugin",
    "ModelSource",
    "RecordError",
    "UserLedgers",
    "privatize_column",
    "privatize_jsonl",
    "privatize_records",
    "release_record",
    "ship_model",
]
