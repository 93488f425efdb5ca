"""``index.md``: what a results folder holds, one line a file.

Every report ends with :func:`write_index` over the files it wrote: a
reader opening ``results/<name>/`` finds each figure and table linked with
one line on what it shows, and the runs' file (``results.parquet`` or
``.csv``) named first. The line comes from the file itself, so no report
repeats it: a figure's title (:func:`rudp.sweep.figures.finish` stores it in
the PNG as its ``Title``), a Markdown table's heading, a CSV's Markdown
twin.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

__all__ = ["INDEX", "describe", "png_title", "with_index", "write_index"]

INDEX = "index.md"
RESULTS = ("results.parquet", "results.csv")


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def png_title(path: Path) -> str:
    """The ``Title`` text chunk of a PNG (empty if it has none)."""
    data = path.read_bytes()
    at = 8
    while at + 8 <= len(data):
        length = int.from_bytes(data[at : at + 4], "big")
        kind = data[at + 4 : at + 8]
        body = data[at + 8 : at + 8 + length]
        if kind == b"tEXt":
            key, _, value = body.partition(b"\0")
            if key == b"Title":
                return value.decode("latin-1")
        elif kind == b"iTXt":
            key, _, rest = body.partition(b"\0")
            if key == b"Title":
                # compression flag, method, language\0, translated keyword\0, text
                rest = rest[2:]
                rest = rest.split(b"\0", 2)[2]
                return rest.decode("utf-8")
        elif kind == b"IEND":
            break
        at += 12 + length
    return ""


def _markdown_heading(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            return _one_line(line.lstrip("#").strip().strip("*"))
    return "table"


def _csv_line(path: Path) -> str:
    twin = path.with_suffix(".md")
    if twin.exists():
        return f"the numbers of {twin.name}, one value a row, with the intervals"
    return "columns: " + path.read_text(encoding="utf-8").partition("\n")[0]


def describe(path: Path) -> str:
    """One line on what ``path`` shows, read from the file."""
    if path.name in RESULTS:
        return "every run, one row per (point, run): parameters, metrics, status"
    suffix = path.suffix.lower()
    if suffix == ".png":
        return _one_line(png_title(path)) or "figure"
    if suffix == ".md":
        return _markdown_heading(path)
    if suffix == ".csv":
        return _csv_line(path)
    return suffix.lstrip(".") or "file"


def write_index(out: Path, files: Sequence[Path], title: str) -> Path:
    """Write ``out/index.md``: the runs' file, then every figure and table of
    ``files`` (in their order, each once) linked, with one line on what it
    shows; return its path."""
    out.mkdir(parents=True, exist_ok=True)
    index = out / INDEX
    seen: list[Path] = []
    for given in [*(out / r for r in RESULTS), *files]:
        path = Path(given)
        if path.name == INDEX or not path.exists() or path in seen:
            continue
        seen.append(path)

    def link(path: Path) -> str:
        try:
            target = path.relative_to(out).as_posix()
        except ValueError:
            target = path.as_posix()
        return f"- [{path.name}]({target}): {describe(path)}"

    groups = (
        ("Runs", [p for p in seen if p.name in RESULTS]),
        ("Figures", [p for p in seen if p.suffix.lower() == ".png"]),
        ("Tables", [p for p in seen if p.suffix.lower() in (".md", ".csv")]),
        (
            "Other files",
            [
                p
                for p in seen
                if p.name not in RESULTS and p.suffix.lower() not in (".png", ".md", ".csv")
            ],
        ),
    )
    lines = [f"# {title}", "", "What this folder holds, one line a file.", ""]
    for heading, paths in groups:
        if paths:
            lines += [f"## {heading}", "", *(link(p) for p in paths), ""]
    index.write_text("\n".join(lines), encoding="utf-8")
    return index


def with_index(out: Path, files: Sequence[Path], title: str) -> list[Path]:
    """``files`` and the ``index.md`` that lists them (:func:`write_index`), for a
    report's last line; nothing when the report wrote nothing."""
    written = [Path(f) for f in files]
    return [*written, write_index(out, written, title)] if written else written
