"""The result cache: one JSON file per finished (program, build, parameters, run).

A point's key is a SHA-256 over the program's name, its build identity, the
parameters exactly as the program receives them (sorted), the run and the
environment variables that change results (``NS_GLOBAL_VALUE``,
``NS_ATTRIBUTE_DEFAULT``, when set), so a rebuilt program, a changed
parameter or another run is a different point, and everything else is found
again. Results are stored: successes and reported failures (a program that
ran and said its run failed). Runs without a result (a crash, a timeout, a
bad parameter) are not: they are retried the next time.

Writes are atomic and durable (a temporary file, fsync, rename, fsync of the
folder); a record that cannot be read back whole is a miss, never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import threading
import time
from collections.abc import Sequence
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


def point_key(point: Point, build: str, environment: Sequence[tuple[str, str]] = ()) -> str:
    """The cache key of ``point`` run by the build ``build`` in ``environment``.

    ``environment``: the result-changing variables set for the run
    (:func:`rudp.sweep.execute.environment`). Without any, the key is what
    it always was, so caches written before it counted stay valid.
    """
    identity: dict[str, Any] = {
        "program": point.program,
        "build": build,
        "params": point.args,
        "run": point.run,
    }
    if environment:
        identity["environment"] = sorted(environment)
    canonical = json.dumps(identity, sort_keys=True)
    return hashlib.sha256(canonical.encode()).hexdigest()


#: A temporary file older than this is an orphan whoever wrote it (seconds).
ORPHAN_AGE_S = 3600.0


def _host() -> str:
    return socket.gethostname().replace("/", "_") or "localhost"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass(frozen=True)
class Cache:
    """A folder of finished runs, ``<key>.json`` each."""

    folder: Path

    def path(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored record, or None if absent, unreadable or not a JSON object.

        Whether its fields make sense is for the reader to check
        (:meth:`rudp.sweep.execute.Outcome.from_record`).
        """
        try:
            record = json.loads(self.path(key).read_bytes().decode("utf-8"))
        except (OSError, ValueError):  # ValueError: bad JSON or bad UTF-8
            return None
        return record if isinstance(record, dict) and record.get("key") == key else None

    def put(self, key: str, record: dict[str, Any]) -> None:
        """Store ``record`` atomically and durably: readers never see half a file,
        and a crash of the machine leaves the old file or the new one."""
        self.folder.mkdir(parents=True, exist_ok=True)
        temporary = self.folder / f".{key}.{_host()}.{os.getpid()}.{threading.get_ident()}.tmp"
        # Insertion order kept: the metrics' order becomes the frame's column order.
        data = json.dumps({**record, "key": key}, indent=1).encode()
        try:
            with temporary.open("wb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
            os.replace(temporary, self.path(key))
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        _sync_folder(self.folder)

    def remove_orphans(self) -> int:
        """Delete temporary files that no writer will rename: those of a process of
        this machine that is gone, and any older than :data:`ORPHAN_AGE_S`.
        Returns how many were removed."""
        if not self.folder.is_dir():
            return 0
        removed, host, now = 0, _host(), time.time()
        for path in self.folder.glob(".*.tmp"):
            # .<key>.<host>.<pid>.<thread>.tmp; before hosts were named: .<key>.<pid>.<thread>.tmp
            parts = path.name[1 : -len(".tmp")].split(".", 1)
            fields = parts[1].rsplit(".", 2) if len(parts) == 2 else []
            if len(fields) == 3:
                writer_host, pid = fields[0], fields[1]
            elif len(fields) == 2:
                writer_host, pid = host, fields[0]
            else:
                writer_host, pid = "", ""
            try:
                age = now - path.stat().st_mtime
                mine = writer_host == host and pid.isdigit()
                if age > ORPHAN_AGE_S or (mine and not _alive(int(pid))):
                    path.unlink()
                    removed += 1
            except OSError:
                continue  # renamed or removed meanwhile
        return removed

    def __len__(self) -> int:
        """How many records the folder holds (``<key>.json`` files)."""
        return sum(1 for _ in self.folder.glob("*.json")) if self.folder.is_dir() else 0


def _sync_folder(folder: Path) -> None:
    """fsync a folder, so a rename in it survives a crash (where the system allows)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass  # some file systems cannot sync a folder
    finally:
        os.close(descriptor)
