"""Tables as CSV (for programs), Markdown (for people) and reStructuredText (for the
model documentation, which includes them as the sweep wrote them), without tabulate."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd


def number(value: Any, digits: int = 4) -> str:
    """``value`` with ``digits`` significant digits; empty for a missing value.

    Positional notation where it stays short (a reader compares 8401 with
    220 more easily than with 2.2e+02), exponent notation beyond.
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool) or not isinstance(value, float | int):
        return str(value)
    if isinstance(value, int) or (float(value).is_integer() and abs(value) < 1e15):
        # Counts (lost packets, say) average to whole numbers when runs agree.
        return str(int(value))
    magnitude = math.floor(math.log10(abs(value)))
    if not -4 <= magnitude < 9:
        return f"{value:.{digits - 1}e}"
    return f"{value:.{max(0, digits - 1 - magnitude)}f}"


def estimate(mean: float, ci95: float, digits: int = 4) -> str:
    """``mean ± half-width`` (just the mean when there is no interval)."""
    if math.isnan(mean):
        return ""
    if math.isnan(ci95):
        return number(mean, digits)
    return f"{number(mean, digits)} ± {number(ci95, 2)}"


def failures(failed: int, runs: int) -> str:
    """``k/n``: how many of a point's runs failed."""
    return f"{int(failed)}/{int(runs)}"


def estimate_of_successes(mean: float, ci95: float, failed: int, runs: int, digits: int = 4) -> str:
    """A table cell for a mean over the successful runs of a point.

    ``mean ± half-width`` when every run succeeded; ``mean ± half-width
    (k/n failed)`` when k of its n runs failed and the mean is over the
    others; ``k/n failed`` when none succeeded.
    """
    shown = estimate(mean, ci95, digits)
    if not failed:
        return shown
    count = f"{failures(failed, runs)} failed"
    return f"{shown} ({count})" if shown else count


def markdown(frame: pd.DataFrame, decimals: Mapping[str, int] | None = None) -> str:
    """A GitHub-flavoured Markdown table of ``frame``'s cells as they stand.

    ``decimals`` gives columns shown with a fixed number of decimals (a
    percentage to 0.1 reads 22.0 beside 40.1, not 22), the others
    :func:`number`'s way.
    """
    header, rows = _cells(frame, decimals)
    rows = [[text.replace("|", "\\|") for text in row] for row in rows]
    numeric = [pd.api.types.is_numeric_dtype(frame[c]) for c in frame.columns]
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---:" if n else "---" for n in numeric) + "|",
    ]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return "\n".join(lines) + "\n"


def _cells(
    frame: pd.DataFrame, decimals: Mapping[str, int] | None
) -> tuple[list[str], list[list[str]]]:
    """The header and the cells of ``frame`` as text, as :func:`markdown` describes."""
    fixed = dict(decimals or {})

    def cell(value: Any, column: str) -> str:
        text = (
            f"{value:.{fixed[column]}f}"
            if column in fixed and isinstance(value, float) and not math.isnan(value)
            else number(value)
        )
        return text.replace("\n", " ")

    header = [str(c) for c in frame.columns]
    rows = [
        [cell(v, c) for v, c in zip(row, header, strict=True)]
        for row in frame.itertuples(index=False, name=None)
    ]
    return header, rows


def restructured_text(frame: pd.DataFrame, decimals: Mapping[str, int] | None = None) -> str:
    """``frame`` as a reStructuredText grid table, cells as in :func:`markdown`.

    A grid table, not a simple one: an empty first cell there would join its
    row to the one above.
    """
    header, rows = _cells(frame, decimals)
    widths = [max(len(text) for text in column) for column in zip(header, *rows, strict=True)]

    def border(fill: str) -> str:
        return "+" + "+".join(fill * (w + 2) for w in widths) + "+"

    def line(texts: list[str]) -> str:
        return "|" + "|".join(f" {t:<{w}} " for t, w in zip(texts, widths, strict=True)) + "|"

    lines = [border("-"), line(header), border("=")]
    for row in rows:
        lines += [line(row), border("-")]
    return "\n".join(lines) + "\n"


def write(
    folder: Path,
    *,
    stem: str,
    title: str,
    long: pd.DataFrame,
    wide: pd.DataFrame | Sequence[tuple[str, pd.DataFrame]],
    note: str = "",
    decimals: Mapping[str, int] | None = None,
) -> list[Path]:
    """Write ``stem.csv`` (``long``: one value a row), ``stem.md`` and ``stem.rst`` (``wide``).

    ``wide`` is one table, or several as (heading, table) pairs; ``decimals``
    as in :func:`markdown`. ``stem.rst`` holds the tables alone, each after
    its heading as a bold line, for a ``.. include::`` in the documentation
    (the title and note are the document's to write).
    """
    folder.mkdir(parents=True, exist_ok=True)
    csv_path, md_path, rst_path = (folder / f"{stem}.{ext}" for ext in ("csv", "md", "rst"))
    long.to_csv(csv_path, index=False)
    parts = [f"### {title}\n"]
    if note:
        parts.append(note.strip() + "\n")
    sections = [("", wide)] if isinstance(wide, pd.DataFrame) else list(wide)
    rst_parts = []
    for heading, table in sections:
        if heading:
            parts.append(f"**{heading}**\n")
            rst_parts.append(f"**{heading}**\n")
        parts.append(markdown(table, decimals))
        rst_parts.append(restructured_text(table, decimals))
    md_path.write_text("\n".join(parts))
    rst_path.write_text("\n".join(rst_parts))
    return [csv_path, md_path, rst_path]
