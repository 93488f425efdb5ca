"""Grids: a program, fixed parameters and axes, expanded into points x runs.

A grid file is TOML. One grid::

    program = "rudp-file-transfer"
    runs = 3
    [fixed]
    file = "1.jpg"
    [axes]
    variant = ["stop-and-wait", "go-back-n"]
    loss = [0.0, 0.05]

or several, sharing the top-level ``program``, ``runs`` and ``[fixed]`` as
defaults::

    program = "rudp-file-transfer"
    runs = 5
    [fixed]
    file = "1.jpg"
    [[grid]]
    name = "loss"
    axes = { variant = ["stop-and-wait", "go-back-n"], loss = [0.0, 0.02] }
    [[grid]]
    name = "delay"
    axes = { variant = ["stop-and-wait", "go-back-n"], delay = ["0ms", "20ms"] }

An optional ``[quick]`` table (``runs``, ``fixed``, ``axes``) is applied to
every grid under ``--quick`` (and checked always). Each axis is a list; a
grid's points are the Cartesian product of its axes, and each point runs
``runs`` times with ns-3's ``RngRun`` = 1..runs. ``program`` is the bare name
of a program of the build folder, never a path.
"""

from __future__ import annotations

import itertools
import math
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..paths import is_program_name
from ..runner import Value, format_value

if TYPE_CHECKING:
    import pandas as pd

#: Parameters the sweep sets itself: a grid may not.
RESERVED = frozenset({"RngRun", "output"})

#: Most runs one grid may expand to: beyond it a typo (an axis of 10^7
#: values, runs = 1e9) would exhaust the memory before anything runs.
MAX_RUNS = 1_000_000


class GridError(ValueError):
    """A grid file or grid definition is malformed."""


@dataclass(frozen=True)
class Grid:
    """One program's parameter grid: ``fixed`` everywhere, the product of ``axes``."""

    program: str
    fixed: Mapping[str, Value] = field(default_factory=dict)
    axes: Mapping[str, Sequence[Value]] = field(default_factory=dict)
    runs: int = 1
    name: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.program, str) or not is_program_name(self.program):
            raise GridError(
                f"grid {self.name!r}: program {self.program!r} is not a bare program name "
                "(the name of a program of the build folder, without a folder)"
            )
        if not isinstance(self.runs, int) or isinstance(self.runs, bool):
            raise GridError(f"grid {self.name or self.program!r}: runs must be an integer")
        if self.runs < 1:
            raise GridError(f"grid {self.name or self.program!r}: runs must be >= 1")
        for key in (*self.fixed, *self.axes):
            if key in RESERVED:
                raise GridError(
                    f"grid {self.name or self.program!r}: {key!r} is set by the sweep "
                    "(use runs for RngRun)"
                )
        for key, values in self.axes.items():
            if isinstance(values, str | bytes) or len(values) == 0:
                raise GridError(f"grid {self.name or self.program!r}: axis {key!r} needs a list")
        total = self.runs * math.prod(len(values) for values in self.axes.values())
        if total > MAX_RUNS:
            raise GridError(
                f"grid {self.name or self.program!r}: too many runs ({total}; at most {MAX_RUNS}"
                " a grid): check its axes and runs"
            )

    def points(self) -> list[dict[str, Value]]:
        """The parameter dictionaries of this grid, axes varying last-first."""
        names = list(self.axes)
        return [
            {**self.fixed, **dict(zip(names, combo, strict=True))}
            for combo in itertools.product(*(self.axes[n] for n in names))
        ]

    def with_overrides(
        self,
        runs: int | None = None,
        fixed: Mapping[str, Value] | None = None,
        axes: Mapping[str, Sequence[Value]] | None = None,
    ) -> Grid:
        """This grid with ``runs`` replaced and parameters set or swept.

        A name in ``fixed`` replaces an axis of that name and a name in
        ``axes`` replaces a fixed value, so an override always wins.
        """
        fixed = dict(fixed or {})
        axes = dict(axes or {})
        new_fixed = {k: v for k, v in self.fixed.items() if k not in axes} | fixed
        new_axes = {k: v for k, v in self.axes.items() if k not in fixed} | axes
        return replace(
            self, runs=runs if runs is not None else self.runs, fixed=new_fixed, axes=new_axes
        )


@dataclass(frozen=True)
class ExpectedFailure:
    """Runs of a preset that are known not to succeed, and why.

    A failed run is *expected* when its parameters have every value in
    ``where`` (so a failure elsewhere is never excused); ``why`` says in one
    line what happens and where the documentation explains it.
    """

    where: Mapping[str, Value]
    why: str

    def matches(self, frame: pd.DataFrame) -> pd.Series:
        """True for the rows of ``frame`` that have every value of ``where``."""
        import pandas as pd  # noqa: PLC0415 - the grids are read without pandas

        selected = pd.Series(True, index=frame.index)
        for column, value in self.where.items():
            if column not in frame:
                return pd.Series(False, index=frame.index)
            selected &= frame[column].astype(str) == str(value)
        return selected


@dataclass(frozen=True)
class Point:
    """One simulation to run: a program, its parameters and the RngRun."""

    program: str
    params: tuple[tuple[str, Value], ...]
    run: int

    @property
    def args(self) -> tuple[tuple[str, str], ...]:
        """The parameters as the program receives them: what identifies the point."""
        return tuple((name, format_value(value)) for name, value in self.params)


def expand(grids: Iterable[Grid]) -> list[Point]:
    """Every (point, run) of ``grids``, in order, each once.

    Points that several grids share (an experiment's baseline, say) appear
    once, where they first occur: two points are the same when the program
    and the parameters it receives are the same.
    """
    seen: set[tuple[str, tuple[tuple[str, str], ...], int]] = set()
    out: list[Point] = []
    for grid in grids:
        for params in grid.points():
            for run in range(1, grid.runs + 1):
                point = Point(grid.program, tuple(sorted(params.items())), run)
                identity = (point.program, point.args, point.run)
                if identity not in seen:
                    seen.add(identity)
                    out.append(point)
    return out


def _value(where: str, value: Any) -> Value:
    if isinstance(value, bool | int | float | str):
        return value
    raise GridError(f"{where}: {value!r} is not a string, number or boolean")


def _params(where: str, table: Any) -> dict[str, Value]:
    if not isinstance(table, dict):
        raise GridError(f"{where} must be a table")
    return {str(k): _value(f"{where}.{k}", v) for k, v in table.items()}


def _axes(where: str, table: Any) -> dict[str, list[Value]]:
    if not isinstance(table, dict):
        raise GridError(f"{where} must be a table")
    axes: dict[str, list[Value]] = {}
    for key, values in table.items():
        if not isinstance(values, list):
            raise GridError(f"{where}.{key} must be a list")
        axes[str(key)] = [_value(f"{where}.{key}", v) for v in values]
    return axes


def _grid(where: str, table: Mapping[str, Any], defaults: Mapping[str, Any]) -> Grid:
    unknown = set(table) - {"program", "runs", "fixed", "axes", "name"}
    if unknown:
        raise GridError(f"{where}: unknown key(s) {sorted(unknown)}")
    program = table.get("program", defaults.get("program"))
    if not isinstance(program, str):
        raise GridError(f"{where}: 'program' (a string) is required")
    runs = table.get("runs", defaults.get("runs", 1))
    if not isinstance(runs, int) or isinstance(runs, bool):
        raise GridError(f"{where}: 'runs' must be an integer")
    fixed = _params(f"{where}.fixed", defaults.get("fixed", {})) | _params(
        f"{where}.fixed", table.get("fixed", {})
    )
    axes = _axes(f"{where}.axes", table.get("axes", {}))
    return Grid(program, fixed, axes, runs, str(table.get("name", "")))


def parse_grids(data: Mapping[str, Any], where: str = "grid", quick: bool = False) -> list[Grid]:
    """Grids from a parsed TOML document (see the module's docstring)."""
    data = dict(data)
    quick_table = data.pop("quick", {})
    if "grid" in data:
        tables = data.pop("grid")
        if not isinstance(tables, list) or not tables:
            raise GridError(f"{where}: 'grid' must be a non-empty array of tables ([[grid]])")
        unknown = set(data) - {"program", "runs", "fixed"}
        if unknown:
            raise GridError(f"{where}: unknown top-level key(s) {sorted(unknown)}")
        grids = [_grid(f"{where}: grid[{i}]", t, data) for i, t in enumerate(tables)]
    else:
        grids = [_grid(where, data, {})]
    # [quick] is checked whether or not it applies: a typo in it shows at once.
    if not isinstance(quick_table, dict) or set(quick_table) - {"runs", "fixed", "axes"}:
        raise GridError(f"{where}: [quick] takes only runs, fixed and axes")
    runs = quick_table.get("runs")
    if runs is not None and (not isinstance(runs, int) or isinstance(runs, bool)):
        raise GridError(f"{where}: quick.runs must be an integer")
    fixed = _params(f"{where}: quick.fixed", quick_table.get("fixed", {}))
    axes = _axes(f"{where}: quick.axes", quick_table.get("axes", {}))
    quick_grids = [g.with_overrides(runs, fixed, axes) for g in grids]
    return quick_grids if quick else grids


def load_grids(path: str | Path, quick: bool = False) -> list[Grid]:
    """Grids from a TOML grid file.

    Raises:
        GridError: the file cannot be read, is not UTF-8 or TOML, or its grids
            are malformed.
    """
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as error:
        raise GridError(f"{path}: cannot read the grid file: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise GridError(f"{path}: not UTF-8 text (byte {error.start}): TOML is UTF-8") from error
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise GridError(f"{path}: {error}") from error
    return parse_grids(data, str(path), quick)
