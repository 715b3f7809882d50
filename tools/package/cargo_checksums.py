# SPDX-License-Identifier: Apache-2.0
"""Packs VENDOR/NAME into CRATE (a gzipped tar of NAME/, as `cargo package`
writes) and writes VENDOR/NAME/.cargo-checksum.json, which a cargo directory
source needs: the SHA-256 of every file and of the .crate. (tools/package/rust.sh
then edits dxtext's unpacked manifest and removes these files.)

    python3 cargo_checksums.py VENDOR NAME CRATE
"""
import gzip
import hashlib
import io
import json
import sys
import tarfile
from pathlib import Path


def main() -> None:
    vendor, name, crate = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    root = vendor / name
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.name != ".cargo-checksum.json")
    buffer = io.BytesIO()
    # Fixed times and owners: the same sources give the same .crate.
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as gz, tarfile.open(fileobj=gz, mode="w") as tar:
        for path in files:
            info = tar.gettarinfo(str(path), arcname=f"{name}/{path.relative_to(root).as_posix()}")
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            with path.open("rb") as f:
                tar.addfile(info, f)
    crate.write_bytes(buffer.getvalue())
    checksums = {
        "files": {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in files},
        "package": hashlib.sha256(buffer.getvalue()).hexdigest(),
    }
    (root / ".cargo-checksum.json").write_text(json.dumps(checksums, sort_keys=True))


if __name__ == "__main__":
    main()
