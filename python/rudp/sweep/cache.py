"""The result cache: one JSON file per finished (program, build, parameters, run).

A point's key is a SHA-256 over the program's name, its build identity (the
program and every library it loads: :func:`build_identity`), the
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
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import paths
from .grid import Point

#: A file's state: path, size, modification time (ns), inode. A changed file has another.
FileState = tuple[str, int, int, int]

#: A library the program loads: its name as the program asks for it, and the file
#: the loader finds (None: not found, so the program cannot start).
Linked = tuple[str, Path | None]

_lock = threading.Lock()
_digests: dict[FileState, str] = {}
_linked: dict[tuple[FileState, str], tuple[Linked, ...] | None] = {}
_identities: dict[tuple[FileState, ...], str] = {}


def _state(path: Path) -> FileState:
    s = path.stat()
    return (str(path), s.st_size, s.st_mtime_ns, s.st_ino)


def _file_digest(path: Path, state: FileState) -> str:
    """SHA-256 of a file's bytes, remembered per file state: a library that
    several programs load is read once."""
    with _lock:
        known = _digests.get(state)
    if known is not None:
        return known
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    value = digest.hexdigest()
    with _lock:
        _digests[state] = value
    return value


def parse_ldd(text: str) -> tuple[Linked, ...]:
    """The libraries of ``ldd``'s output, in its order (the vDSO, which is no file, left out).

    Its lines: ``name => /path (0x...)``, ``name => not found``, ``/path (0x...)``.
    """
    linked: list[Linked] = []
    for line in text.splitlines():
        name, arrow, target = (part.strip() for part in line.partition("=>"))
        if not arrow:  # "/lib64/ld-linux-x86-64.so.2 (0x...)" or "linux-vdso.so.1 (0x...)"
            path = name.split(" (", 1)[0]
            if path.startswith("/"):
                linked.append((Path(path).name, Path(path)))
        elif target.startswith("not found"):
            linked.append((name, None))
        elif target.startswith("/"):
            linked.append((name, Path(target.split(" (", 1)[0])))
    return tuple(linked)


def linked_libraries(program: Path, env: Mapping[str, str]) -> tuple[Linked, ...] | None:
    """The shared libraries ``program`` loads in ``env``, as the loader finds them
    (``ldd``): ns-3's, the module's, the C and C++ runtimes.

    Returns () for a program that is not dynamically linked (a script), and
    None where ``ldd`` is not available (not Linux).
    """
    try:
        done = subprocess.run(
            ["ldd", str(program)],
            env=dict(env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    # Not a dynamic executable (a script, a static program): ldd exits 1.
    return parse_ldd(done.stdout) if done.returncode == 0 else ()


def _libraries(
    program: Path, build: paths.Build
) -> tuple[tuple[Linked, ...] | None, list[FileState]]:
    """The program's libraries and their file states. ``ldd`` runs once per program
    state and loader path, and again if a library it found has gone (an upgrade
    that renamed it)."""
    env = build.environment()
    key = (_state(program), env.get(paths.LOADER_PATH_VARIABLE, ""))
    with _lock:
        cached, linked = key in _linked, _linked.get(key)
    if cached:
        try:
            return linked, [_state(f) for _, f in linked or () if f is not None]
        except OSError:
            pass
    linked = linked_libraries(program, env)
    states = [_state(f) for _, f in linked or () if f is not None]
    with _lock:
        _linked[key] = linked
    return linked, states


def build_identity(program: Path, build: paths.Build | None = None) -> str:
    """SHA-256 over the program's bytes and those of every shared library it loads.

    The scenarios link ``librudp.so`` (or, in an ns-3 tree, the tree's
    ``libns3.<version>-rudp``) and ns-3's libraries: a change to the model
    rebuilds the library but may leave the example's own executable
    byte-identical, and an upgrade of the ns-3 wheel (or a rebuild of the
    tree) changes what the same program computes, so each library the loader
    finds for the program (``ldd``, in the environment the program runs in:
    ``build``'s, default :func:`rudp.paths.current_build`) belongs to what
    produced a result; the C and C++ runtimes too (``libm`` draws ns-3's random
    variates). Where ``ldd`` is missing, the standalone build's
    ``librudp.so`` or an ns-3 tree's library folders stand in for the list.
    Remembered per file state (size, mtime, inode), so a sweep hashes each
    file once.
    """
    build = build if build is not None else paths.current_build()
    linked, states = _libraries(program, build)
    if linked is None:  # no ldd
        fallback = (
            [paths.library()]
            if not build.ns3_tree and program.parent == build.folder / "bin"
            else sorted(p for f in build.library_folders for p in f.iterdir() if p.is_file())
        )
        linked = tuple((p.name, p) for p in fallback if p.is_file())
        states = [_state(p) for _, p in linked if p is not None]
    key = (_state(program), *states)
    with _lock:
        known = _identities.get(key)
    if known is not None:
        return known
    digest = hashlib.sha256()
    digest.update(f"{program.name}\0{_file_digest(program, key[0])}\n".encode())
    found = iter(states)
    for name, path in linked:
        file = _file_digest(path, next(found)) if path is not None else "not found"
        digest.update(f"{name}\0{file}\n".encode())
    identity = digest.hexdigest()
    with _lock:
        _identities[key] = identity
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
