# SPDX-License-Identifier: Apache-2.0
"""Which model the workers use, and opening it once per worker process.

A ModelSource names a model file (or "the worker's default model") and the
SHA-256 the file must have. It is small and picklable, so it travels inside
every task; a worker opens the file the first time a task needs it, checks
its SHA-256 (dxt_model_fingerprint) against the source's, and keeps the
memory-mapped Model for the life of the process. The Model keeps one
context per thread, so the worker's threads share the mapping and never a
random state.

ship_model() sends the file's bytes to every worker instead (a
distributed WorkerPlugin), for clusters without shared storage.
"""

from __future__ import annotations

import hashlib
import os
import threading
import uuid
from typing import Dict, Optional, Tuple, Union

from ..errors import error_for
from ..model import Model

PathLike = Union[str, "os.PathLike[str]"]

# Per process: SHA-256 (hex) -> the open Model. Models are immutable and
# shared by threads, so one per file content is enough.
_OPEN_MODELS: Dict[str, Model] = {}
_OPEN_LOCK = threading.Lock()


def _digest_mismatch(where: str, expected: str, actual: str) -> Exception:
    return error_for(8, "digest mismatch", f"{where} has SHA-256 {actual}, expected {expected}")


class ModelSource:
    """A model file for the workers and the SHA-256 it must have.

    Args:
        path: the file as the workers see it (shared storage, or the same
            path on every machine); None for each worker's default model
            (Model.default_path(): $DXTEXT_MODEL, the model of the installed
            wheel, ...).
        sha256: 64 hex digits, the SHA-256 of the whole file
            (`dxtext inspect` prints it as "sha256"; `sha256sum` too). Every
            worker refuses a file with another digest.
        verify_digests: also check every section's digest when opening.

    ModelSource.local(path) computes sha256 from a file the client can read.
    """

    __slots__ = ("path", "sha256", "verify_digests", "shipped")

    def __init__(self, path: Optional[PathLike], sha256: str, *, verify_digests: bool = False) -> None:
        if not isinstance(sha256, str) or len(sha256) != 64 or any(c not in "0123456789abcdef" for c in sha256.lower()):
            raise ValueError("sha256 must be 64 hexadecimal digits")
        self.path = os.fspath(path) if path is not None else None
        self.sha256 = sha256.lower()
        self.verify_digests = bool(verify_digests)
        self.shipped = False

    @classmethod
    def local(cls, path: Optional[PathLike] = None, *, verify_digests: bool = False) -> "ModelSource":
        """The model at `path` (None: the default model), with the SHA-256
        of the file as the client sees it. Workers must see the same path
        (None: their own default model, which must have the same digest)."""
        model = Model.open(_file(path), verify_digests=verify_digests)
        digest = model.fingerprint().hex()
        with _OPEN_LOCK:  # kept for this process's own checks (the digest is known now)
            if _OPEN_MODELS.setdefault(digest, model) is not model:
                model.close()
        return cls(path, digest, verify_digests=verify_digests)

    def open(self) -> Model:
        """The Model of this process for this source: opened and checked on
        first use, then shared by every task and thread of the process."""
        with _OPEN_LOCK:
            model = _OPEN_MODELS.get(self.sha256)
            if model is not None:
                return model
            if self.shipped:
                raise error_for(
                    12, "not found", f"model {self.sha256} was not shipped to this worker (see dxtext.dask.ship_model)"
                )
            model = _open_checked(_file(self.path), self.sha256, self.verify_digests)
            _OPEN_MODELS[self.sha256] = model
            return model

    def _fields(self) -> Tuple[Optional[str], str, bool, bool]:
        return (self.path, self.sha256, self.verify_digests, self.shipped)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ModelSource) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        where = "shipped" if self.shipped else ("default" if self.path is None else repr(self.path))
        return f"ModelSource({where}, sha256={self.sha256})"


def _file(path: Optional[PathLike]) -> str:
    """The model file at `path`, or the default model's for None."""
    return Model.default_path() if path is None else os.fspath(path)


def write_atomically(path: str, data: Union[str, bytes]) -> None:
    """Write `data` to `path` under a temporary name (".NAME.*.tmp", which
    privatize_jsonl deletes at the end of a run), sync it and rename it: a
    reader never sees a half-written file."""
    directory, name = os.path.split(path)
    temporary = os.path.join(directory, f".{name}.{uuid.uuid4().hex}.tmp")
    with open(temporary, "wb") as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temporary, path)


def _open_checked(path: PathLike, sha256: str, verify_digests: bool) -> Model:
    model = Model.open(path, verify_digests=verify_digests)
    actual = model.fingerprint().hex()
    if actual != sha256:
        model.close()
        raise _digest_mismatch(f"model file {os.fspath(path)!r}", sha256, actual)
    return model


def resolve(model: Union[None, PathLike, Model, ModelSource]) -> ModelSource:
    """The ModelSource for the `model=` argument of the dxtext.dask calls:
    a ModelSource as it is; None, a path or an open file-backed Model is
    read on the client for its SHA-256."""
    if isinstance(model, ModelSource):
        return model
    if isinstance(model, Model):
        if model.path is None:
            raise ValueError("a Model opened from bytes cannot be sent to workers: use dxtext.dask.ship_model()")
        return ModelSource(model.path, model.fingerprint().hex())
    return ModelSource.local(model)


try:  # distributed is needed for clusters only; dask alone runs the rest
    from distributed.diagnostics.plugin import WorkerPlugin as _WorkerPlugin
except ImportError:  # pragma: no cover
    _WorkerPlugin = object  # type: ignore[misc,assignment]


class ModelPlugin(_WorkerPlugin):  # type: ignore[misc,valid-type]
    """A distributed WorkerPlugin that carries a model file's bytes to every
    worker, present and future (a worker restarted after a crash gets it
    again). Each worker writes them to its local directory, checks the
    SHA-256, and opens the file there, memory-mapped, for its tasks."""

    def __init__(self, data: bytes, sha256: str) -> None:
        actual = hashlib.sha256(data).hexdigest()
        if actual != sha256:
            raise _digest_mismatch("the model's bytes", sha256, actual)
        self.data = data
        self.sha256 = sha256
        self.name = f"dxtext-model-{sha256[:16]}"

    def setup(self, worker) -> None:  # type: ignore[no-untyped-def]
        directory = os.path.join(worker.local_directory, "dxtext-models")
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, f"{self.sha256}.dxe")
        write_atomically(path, self.data)  # a worker never maps a half-written file
        model = _open_checked(path, self.sha256, False)  # the digest checked again, after the rename
        with _OPEN_LOCK:
            old = _OPEN_MODELS.get(self.sha256)
            _OPEN_MODELS[self.sha256] = model
        if old is not None:
            old.close()


def ship_model(client, model: Union[None, PathLike, ModelSource] = None) -> ModelSource:  # type: ignore[no-untyped-def]
    """Send a model file from the client to every worker of `client` (and to
    every worker that joins later), and return the ModelSource that names
    it. `model`: a path, None for the client's default model, or a
    ModelSource whose file the client can read."""
    with open(_file(model.path if isinstance(model, ModelSource) else model), "rb") as f:
        data = f.read()
    plugin = ModelPlugin(data, model.sha256 if isinstance(model, ModelSource) else hashlib.sha256(data).hexdigest())
    register = getattr(client, "register_plugin", None) or client.register_worker_plugin
    register(plugin, name=plugin.name)
    source = ModelSource(None, plugin.sha256)
    source.shipped = True
    return source


__all__ = ["ModelPlugin", "ModelSource", "resolve", "ship_model", "write_atomically"]
