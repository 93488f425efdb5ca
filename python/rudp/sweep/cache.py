"""The result cache: one JSON file per finished (program, build, parameters, run).

A point's key is a SHA-256 over the program's name, its build identity, the
parameters exactly as the program receives them (sorted) and the run, so a
rebuilt program, a changed parameter or another run is a different point,
and everything else is found again. Only successful runs are stored: a
failed run is retried the next time.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import paths
from .grid import Point

_identities: dict[tuple[tuple[str, int, int, int], ...], str] = {}
_identities_lock = threading.Lock()


def _file_digest(path: Path, digest: Any) -> None:
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)


def build_identity(program: Path) -> str:
    """SHA-256 of the program's bytes and of the module library it runs.

    The scenarios link ``librudp.so``: a change to the model rebuilds the
    library but may leave the example's own executable byte-identical, so
    both belong to what produced a result. Remembered per file state (size,
    mtime, inode), so a sweep hashes each program once.
    """
    library = paths.library() if program.parent == paths.build_dir() / "bin" else None
    files = [program] + ([library] if library is not None and library.is_file() else [])
    state = tuple((str(f), s.st_size, s.st_mtime_ns, s.st_ino) for f in files for s in [f.stat()])
    with _identities_lock:
        known = _identities.get(state)
    if known is not None:
        return known
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.name.encode() + b"\0")
        _file_digest(f, digest)
    identity = digest.hexdigest()
    with _identities_lock:
        _identities[state] = identity
    return identity


def point_key(point: Point, build: str) -> str:
    """The cache key of ``point`` run by the build ``build``."""
    canonical = json.dumps(
        {"program": point.program, "build": build, "params": point.args, "run": point.run},
        sort_keys=True,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


@dataclass(frozen=True)
class Cache:
    """A folder of finished runs, ``<key>.json`` each."""

    folder: Path

    def path(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored record, or None if absent or unreadable (a run cut short)."""
        try:
            record: dict[str, Any] = json.loads(self.path(key).read_text())
        except (OSError, ValueError):
            return None
        return record if record.get("key") == key else None

    def put(self, key: str, record: dict[str, Any]) -> None:
        """Store ``record`` atomically: readers never see half a file."""
        self.folder.mkdir(parents=True, exist_ok=True)
        temporary = self.folder / f".{key}.{os.getpid()}.{threading.get_ident()}.tmp"
        # Insertion order kept: the metrics' order becomes the frame's column order.
        temporary.write_text(json.dumps({**record, "key": key}, indent=1))
        os.replace(temporary, self.path(key))

    def __len__(self) -> int:
        return sum(1 for _ in self.folder.glob("*.json")) if self.folder.is_dir() else 0
