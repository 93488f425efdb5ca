"""Results as a pandas DataFrame, written as Parquet or CSV.

One row per (point, run), whatever became of it. Columns: ``program``, the
parameters, ``run``, the program's metrics (a failed run's too: the record
it wrote, with ``ok`` false and its ``failure``), then ``status``
(``ok``; ``failed``: the program reported a failed run, a result; ``error``:
no result, e.g. a crash or a timeout), ``error`` (None when the run
succeeded, else a one-line reason), ``exit_status``, ``stderr``,
``command`` (the command line that reproduces the run) and ``build`` (the
program's build identity). Where a metric has a
parameter's name (``variant``, ``loss``, ...), the column holds the
parameter as the grid gave it, so failed rows carry it too; a metric that
shares a parameter's name but holds a list or a mapping (``flows``: the
option ``cubic@50ms,veno@200ms``, the metrics one record per flow) goes to
the column ``<name>_metrics``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import pandas as pd

from .execute import Outcome

#: Columns after the metrics, in this order.
TRAILING = ("status", "error", "exit_status", "stderr", "command", "build")

Format = Literal["parquet", "csv"]


def _structured(value: Any) -> bool:
    return isinstance(value, list | dict)


def to_frame(outcomes: Sequence[Outcome]) -> pd.DataFrame:
    """The outcomes as rows, in the given order."""
    param_names: dict[str, None] = {}
    for outcome in outcomes:
        param_names.update(dict.fromkeys(name for name, _ in outcome.point.params))
    # metric -> its column
    columns_of: dict[str, str] = {}
    for outcome in outcomes:
        for name, value in (outcome.metrics or {}).items():
            if name in TRAILING:
                continue
            if name not in param_names:
                columns_of.setdefault(name, name)
            elif _structured(value):
                columns_of.setdefault(name, f"{name}_metrics")

    rows: list[dict[str, Any]] = []
    for outcome in outcomes:
        row: dict[str, Any] = {"program": outcome.point.program}
        row.update(dict(outcome.point.params))
        row["run"] = outcome.point.run
        metrics = outcome.metrics or {}
        row.update(
            {
                column: metrics[name]
                for name, column in columns_of.items()
                if name in metrics and (column == name or _structured(metrics[name]))
            }
        )
        row.update(
            status=outcome.status,
            error=outcome.error,
            exit_status=outcome.exit_status,
            stderr=outcome.stderr,
            command=outcome.command,
            build=outcome.build,
        )
        rows.append(row)
    columns = ["program", *param_names, "run", *columns_of.values(), *TRAILING]
    frame = pd.DataFrame(rows, columns=columns)
    frame["exit_status"] = frame["exit_status"].astype("Int64")
    for column in ("error", "stderr", "build"):
        # All-None columns would otherwise be float NaN, and a reader tests `is None`.
        frame[column] = frame[column].astype(object).where(frame[column].notna(), None)
    return frame


def success(frame: pd.DataFrame) -> pd.Series:
    """True for the rows whose run succeeded.

    From ``status`` (``"ok"``), or for results written before that column
    existed from ``error`` (None); a frame with neither is all successes.
    """
    if "status" in frame:
        return frame["status"] == "ok"
    if "error" in frame:
        return frame["error"].isna()
    return pd.Series(True, index=frame.index)


def succeeded(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows whose run succeeded."""
    return frame[success(frame)]


def _uniform(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy whose object columns Parquet can store.

    A parameter may be a number in one grid and a string in another (say
    ``delay`` as 0 and as "20ms"); Arrow needs one type per column, and the
    text form loses nothing the program saw.
    """
    frame = frame.copy()
    for column in [c for c in frame.columns if pd.api.types.is_object_dtype(frame[c])]:
        values = frame[column].dropna()
        kinds = {type(v) for v in values}
        if len(kinds) > 1 and not kinds <= {int, float} and list not in kinds:
            frame[column] = frame[column].map(lambda v: None if v is None else str(v))
    return frame


def save(frame: pd.DataFrame, folder: Path, fmt: Format = "parquet") -> Path:
    """Write ``frame`` as ``folder/results.<fmt>`` and return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"results.{fmt}"
    if fmt == "parquet":
        _uniform(frame).to_parquet(path, index=False)
    elif fmt == "csv":
        frame.to_csv(path, index=False)
    else:
        raise ValueError(f"unknown format {fmt!r}: parquet or csv")
    return path


def load(path: str | Path) -> pd.DataFrame:
    """Read a results file written by :func:`save`."""
    path = Path(path)
    if path.is_dir():
        path = next(
            (p for p in (path / "results.parquet", path / "results.csv") if p.is_file()), path
        )
    if path.suffix == ".csv":
        return pd.read_csv(path)
    return pd.read_parquet(path)


def _statuses(frame: pd.DataFrame) -> pd.Series:
    if "status" in frame:
        return frame["status"]
    return frame["error"].isna().map({True: "ok", False: "error"})


def failure_report(frame: pd.DataFrame, limit: int = 10, stderr_chars: int = 1500) -> str:
    """The runs that did not succeed, for a person.

    Runs without a result (crashed, timed out, a bad parameter, ...) first:
    each distinct reason once, with how many runs it hit, one command line
    that reproduces it and its stderr. Then the reported failures, results
    of the experiment, more briefly: each reason, how many, one command.
    """
    statuses = _statuses(frame)
    errors, reported = frame[statuses == "error"], frame[statuses == "failed"]
    lines: list[str] = []
    if not errors.empty:
        lines.append(
            f"{len(errors)} of {len(frame)} runs FAILED without a result "
            "(not cached: the next sweep runs them again):"
        )
        lines.extend(_reasons(errors, limit, stderr_chars))
    if not reported.empty:
        lines.append(
            f"{len(reported)} of {len(frame)} runs reported a failure "
            "(results: kept as rows with their metrics, and cached):"
        )
        lines.extend(_reasons(reported, min(limit, 5), 0))
    return "\n".join(lines)


def _reasons(failures: pd.DataFrame, limit: int, stderr_chars: int) -> list[str]:
    lines: list[str] = []
    reasons = failures.groupby("error", sort=False)
    for number, (reason, group) in enumerate(reasons):
        if number == limit:
            lines.append(f"... and {reasons.ngroups - limit} more reasons: see the 'error' column")
            break
        row = group.iloc[0]
        lines.append(f"- [{len(group)} run{'s' if len(group) > 1 else ''}] {reason}")
        lines.append(f"  {'e.g. ' if len(group) > 1 else ''}command: {row['command']}")
        stderr = row["stderr"] if isinstance(row["stderr"], str) and stderr_chars else ""
        lines.extend(f"  | {line}" for line in stderr.strip()[-stderr_chars:].splitlines())
    return lines
