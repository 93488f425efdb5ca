"""What a sweep last wrote, and from what: a re-run whose results and report
code are unchanged rewrites and redraws nothing.

After a sweep writes its results file, figures and tables,
``<out>/.written.json`` records a fingerprint of what they were made from
(:func:`fingerprint`: the frame's content, the format, whether a report was
asked for, and the source of the :mod:`rudp.sweep` package, whose presets
draw the report) and the size and modification time of every file written.
The next sweep into the same folder that reaches the same fingerprint, with
every one of those files still as written, keeps them instead of writing
them again (:func:`unchanged`): no matplotlib import, no figure drawn. Any
difference (a new run, another build's results, an edited report, a figure
deleted or touched by hand) writes everything again.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

#: The stamp's file name in a sweep's output folder.
STAMP = ".written.json"
_VERSION = 1
_source_digest: str | None = None


def _package_source() -> str:
    """SHA-256 over the source of :mod:`rudp.sweep` (presets, tables, figures, stats)."""
    global _source_digest  # noqa: PLW0603 - the sources do not change under a running sweep
    if _source_digest is None:
        root = Path(__file__).resolve().parent
        digest = hashlib.sha256()
        for path in sorted(root.rglob("*.py")):
            digest.update(f"{path.relative_to(root).as_posix()}\0".encode())
            digest.update(path.read_bytes())
        _source_digest = digest.hexdigest()
    return _source_digest


def fingerprint(frame: pd.DataFrame, *, name: str, fmt: str, report: bool) -> str:
    """What the files a sweep writes depend on: the frame's columns, types and
    values, the sweep's name, format and report flag, and the package's source."""
    digest = hashlib.sha256()
    head = {
        "version": _VERSION,
        "name": name,
        "fmt": fmt,
        "report": report,
        "source": _package_source(),
        "dtypes": [[str(c), str(t)] for c, t in frame.dtypes.items()],
    }
    digest.update(json.dumps(head, sort_keys=True).encode())
    digest.update(frame.to_csv(index=False).encode())
    return digest.hexdigest()


def _state(path: Path) -> list[int]:
    info = path.stat()
    return [info.st_size, info.st_mtime_ns]


def unchanged(folder: Path, mark: str) -> list[Path] | None:
    """The files the last sweep into ``folder`` wrote, if it had the fingerprint
    ``mark`` and each of them is still as it was written; else None."""
    try:
        stamp: Any = json.loads((folder / STAMP).read_text(encoding="utf-8"))
        if not isinstance(stamp, dict) or stamp.get("fingerprint") != mark:
            return None
        files = stamp["files"]
        written = [folder / entry["path"] for entry in files]
        if any(_state(p) != entry["state"] for p, entry in zip(written, files, strict=True)):
            return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return written if written else None


def _inside(folder: Path, path: Path) -> str:
    """``path`` relative to ``folder`` if it is inside (so the stamp holds
    wherever the folder is reached from), else absolute."""
    try:
        return path.resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return str(path.resolve())


def record(folder: Path, mark: str, written: list[Path]) -> None:
    """Stamp ``folder``: ``written`` were made from what ``mark`` fingerprints."""
    stamp = {
        "fingerprint": mark,
        "files": [{"path": _inside(folder, p), "state": _state(p)} for p in written],
    }
    temporary = folder / f"{STAMP}.{os.getpid()}.tmp"
    temporary.write_text(json.dumps(stamp, indent=1), encoding="utf-8")
    os.replace(temporary, folder / STAMP)


def forget(folder: Path) -> None:
    """Remove ``folder``'s stamp (before writing files it would no longer describe)."""
    try:
        (folder / STAMP).unlink()
    except FileNotFoundError:
        pass
