"""The sweep as a function: grids in, a DataFrame out, results and figures on disk.

::

    from rudp.sweep import run_sweep
    frame = run_sweep("seed000", quick=True)            # a preset
    frame = run_sweep("my-grid.toml", runs=3, jobs=2)   # a grid file
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd
from tqdm import tqdm

from .. import paths
from ..runner import Value
from .cache import Cache, build_identity, point_key
from .execute import Outcome
from .figures import generic_report
from .frame import Format, failure_report, save, to_frame
from .grid import Grid, GridError, Point, expand, load_grids
from .pool import run_dask, run_local
from .presets import PRESETS

if TYPE_CHECKING:
    from distributed import Client

#: What to sweep: a preset's name, a grid file, a built program's name, or grids.
Spec = str | Path | Grid | Sequence[Grid]


@dataclass(frozen=True)
class Plan:
    """A resolved sweep: its name, grids and the report that suits them."""

    name: str
    grids: list[Grid]
    report: Callable[[pd.DataFrame, Path], list[Path]]

    def points(self) -> list[Point]:
        return expand(self.grids)


def _is_built(program: str) -> bool:
    try:
        paths.program(program)
    except FileNotFoundError:
        return False
    return True


def plan(
    spec: Spec,
    quick: bool = False,
    runs: int | None = None,
    fixed: Mapping[str, Value] | None = None,
    axes: Mapping[str, Sequence[Value]] | None = None,
) -> Plan:
    """Resolve ``spec`` into grids, with ``runs``, ``fixed`` and ``axes`` overriding.

    ``spec`` is a preset (:data:`PRESETS`), a TOML grid file, the name of a
    built program (then ``axes`` and ``fixed`` are its grid), or grids.
    """
    report: Callable[[pd.DataFrame, Path], list[Path]] | None = None
    if isinstance(spec, Grid):
        name, grids = spec.name or spec.program, [spec]
    elif not isinstance(spec, str | Path):
        grids = list(spec)
        if not grids:
            raise GridError("no grids to sweep")
        name = grids[0].name or grids[0].program
    elif str(spec) in PRESETS:
        preset = PRESETS[str(spec)]
        name, grids, report = preset.name, preset.grids(quick), preset.report
        name += "-quick" if quick else ""
    elif Path(spec).is_file():
        name, grids = Path(spec).stem, load_grids(spec, quick)
        name += "-quick" if quick else ""
    elif isinstance(spec, str) and "/" not in spec and (_is_built(spec) or axes or fixed):
        name, grids = spec, [Grid(spec, name=spec)]
    else:
        raise GridError(
            f"{spec}: not a preset ({', '.join(PRESETS)}), a grid file or a built program"
        )
    grids = [g.with_overrides(runs, fixed, axes) for g in grids]

    def generic(frame: pd.DataFrame, out: Path) -> list[Path]:
        return generic_report(frame, grids, out)

    return Plan(name, grids, report or generic)


def program_identities(points: Sequence[Point]) -> dict[str, str | None]:
    """Each program's build identity, once per sweep (None: not built now)."""
    identities: dict[str, str | None] = {}
    for program in dict.fromkeys(p.program for p in points):
        try:
            identities[program] = build_identity(paths.program(program))
        except OSError:
            identities[program] = None
    return identities


def run_sweep(
    spec: Spec,
    *,
    quick: bool = False,
    runs: int | None = None,
    jobs: int | None = None,
    scheduler: str | Client | None = None,
    out: str | Path | None = None,
    cache: str | Path | None = None,
    use_cache: bool = True,
    fmt: Format = "parquet",
    fixed: Mapping[str, Value] | None = None,
    axes: Mapping[str, Sequence[Value]] | None = None,
    report: bool = True,
    progress: bool = True,
    timeout_s: float | None = 3600,
    cached_only: bool = False,
) -> pd.DataFrame:
    """Run every (point, run) of ``spec`` not yet cached; return all of them as rows.

    Args:
        spec: a preset name (``"seed000"``, ``"seed001"``), a TOML grid file,
            a built program's name (its grid given by ``fixed`` and ``axes``),
            or :class:`Grid` objects.
        quick: the preset's (or the grid file's ``[quick]``) small size.
        runs: runs per point (RngRun 1..runs), overriding the grids'.
        jobs: local processes at a time (default: every core).
        scheduler: a Dask scheduler address or ``distributed.Client``: run
            there instead of locally.
        out: folder for ``results.<fmt>``, figures, tables and the cache
            (default ``results/<name>``).
        cache: the cache folder (default ``<out>/cache``); sweeps may share one.
        use_cache: False runs everything again and stores nothing.
        fmt: ``"parquet"`` or ``"csv"``.
        fixed, axes: parameters to set in, or sweep over, every grid.
        report: write the figures and tables.
        progress: show a progress bar and a closing summary on stderr.
        timeout_s: wall-clock limit of one run.
        cached_only: run nothing; the results and report hold the cached runs
            only (the figures of a long sweep so far, from another process).

    Returns:
        One row per (point, run), or per cached one with ``cached_only``;
        failed runs are rows too, with ``error`` set (see
        :mod:`rudp.sweep.frame`). ``frame.attrs`` holds counts: ``runs``,
        ``cached``, ``executed``, ``failed``, ``missing`` (not run, with
        ``cached_only``), ``seconds``, and the paths written under ``written``.

    Failures never stop the sweep and are never cached; they are printed
    with their command line and stderr at the end.
    """
    started = time.monotonic()
    the_plan = plan(spec, quick, runs, fixed, axes)
    points = the_plan.points()
    folder = Path(out) if out is not None else Path("results") / the_plan.name
    if cached_only and not use_cache:
        raise GridError("cached_only needs the cache: it runs nothing")
    store = Cache(Path(cache) if cache is not None else folder / "cache") if use_cache else None

    expected = program_identities(points)
    outcomes: list[Outcome | None] = [None] * len(points)
    pending: list[int] = []
    for i, point in enumerate(points):
        build = expected[point.program]
        record = store.get(point_key(point, build)) if store and build else None
        if record is not None:
            outcomes[i] = Outcome.from_record(point, record)
        else:
            pending.append(i)

    failures = rebuilt = 0
    missing = len(pending) if cached_only else 0
    if cached_only:
        pending = []
    todo = [points[i] for i in pending]
    runner: Iterator[tuple[int, Outcome]] = (
        run_dask(todo, scheduler, timeout_s)
        if scheduler is not None
        else run_local(todo, jobs, timeout_s)
    )
    with tqdm(
        total=len(points) - missing,
        initial=len(points) - missing - len(pending),
        desc=the_plan.name,
        unit="run",
        disable=not progress,
        dynamic_ncols=True,
    ) as bar:
        bar.set_postfix(failed=0, refresh=False)
        for j, outcome in runner:
            i = pending[j]
            outcomes[i] = outcome
            if outcome.ok and store is not None and outcome.build is not None:
                # Under the build that really ran: a program rebuilt mid-sweep
                # must not file its results under the old identity.
                store.put(point_key(points[i], outcome.build), outcome.record())
            failures += not outcome.ok
            rebuilt += (
                outcome.build is not None and outcome.build != expected[outcome.point.program]
            )
            bar.set_postfix(failed=failures, refresh=False)
            bar.update()

    frame = to_frame([o for o in outcomes if o is not None])
    results = save(frame, folder, fmt)
    written = [results, *(the_plan.report(frame, folder) if report else [])]
    frame.attrs.update(
        name=the_plan.name,
        runs=len(points),
        cached=len(points) - missing - len(pending),
        executed=len(pending),
        missing=missing,
        failed=failures,
        seconds=round(time.monotonic() - started, 3),
        written=[str(p) for p in written],
    )
    if progress:
        print(_summary(frame, rebuilt), file=sys.stderr)
    if failures:
        print(failure_report(frame), file=sys.stderr)
    return frame


def _summary(frame: pd.DataFrame, rebuilt: int) -> str:
    a = frame.attrs
    lines = [
        f"{a['name']}: {a['runs']} runs ({a['cached']} from cache, {a['executed']} executed, "
        f"{a['failed']} failed) in {a['seconds']:.1f} s"
        + (f"; {a['missing']} not run yet, left out" if a["missing"] else ""),
        f"wrote {a['written'][0]} and {len(a['written']) - 1} figure/table file(s)",
    ]
    if rebuilt:
        lines.append(
            f"warning: {rebuilt} run(s) ran on a build other than the one the sweep started "
            "with (the program was rebuilt meanwhile); see the 'build' column"
        )
    return "\n".join(lines)
