"""The sweep as a function: grids in, a DataFrame out, results and figures on disk.

::

    from rudp.sweep import run_sweep
    frame = run_sweep("seed000", quick=True)            # a preset
    frame = run_sweep("my-grid.toml", runs=3, jobs=2)   # a grid file

:func:`plan` resolves what to run and checks it against the programs;
:meth:`Plan.status` says what the cache already holds (``--dry-run`` prints
it); :func:`run_sweep` runs the rest. The report layer (tables, figures:
pandas' plotting, matplotlib, scipy) is imported only when a report is drawn.
"""

from __future__ import annotations

import math
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

import pandas as pd

from .. import paths
from ..runner import Value
from . import stamp
from .cache import Cache, build_identity, point_key
from .execute import Environment, Outcome, environment
from .frame import Format, failure_report, save, to_frame
from .grid import ExpectedFailure, Grid, GridError, Point, expand, load_grids
from .options import check_grids
from .pool import default_jobs, run_dask, run_local
from .presets import PRESETS, Report
from .progress import Progress
from .schedule import longest_first
from .until import UntilCi, more_runs, runs_per_point, summary_line

if TYPE_CHECKING:
    from distributed import Client

#: What to sweep: a preset's name, a grid file, a built program's name, or grids.
Spec = str | Path | Grid | Sequence[Grid]


@dataclass(frozen=True)
class CacheStatus:
    """Which runs of a plan the cache holds, under the builds and environment of now."""

    #: Every (point, run) of the plan, in order.
    points: list[Point]
    #: The cached outcome of each point, None where it must run.
    outcomes: list[Outcome | None]
    #: Each program's build identity (None: not built now).
    builds: dict[str, str | None]
    #: The result-changing environment the keys were made for.
    environment: Environment

    @property
    def missing(self) -> list[int]:
        """Indexes of the points that are not cached."""
        return [i for i, outcome in enumerate(self.outcomes) if outcome is None]

    @property
    def cached(self) -> int:
        """How many points are cached."""
        return len(self.points) - len(self.missing)


@dataclass(frozen=True)
class Plan:
    """A resolved sweep: its name, grids, the report that suits them, and the
    build whose programs run."""

    name: str
    grids: list[Grid]
    report: Report
    build: paths.Build = field(default_factory=paths.standalone_build)
    #: Failures its design produces on purpose (a preset's), named in the summary.
    expected_failures: tuple[ExpectedFailure, ...] = ()
    #: The preset's runs until the interval is tight (its full size, without ``runs``).
    until_ci: UntilCi | None = None

    def points(self) -> list[Point]:
        return expand(self.grids)

    def status(self, store: Cache | None) -> CacheStatus:
        """What ``store`` holds of this plan now (None, no cache: nothing)."""
        points = self.points()
        builds = program_identities(points, self.build)
        env = environment()
        outcomes = [cached_outcome(store, p, builds[p.program], env) for p in points]
        return CacheStatus(points, outcomes, builds, env)


def _is_built(program: str, build: paths.Build) -> bool:
    try:
        build.program(program)
    except (FileNotFoundError, ValueError):
        return False
    return True


def plan(
    spec: Spec,
    quick: bool = False,
    runs: int | None = None,
    fixed: Mapping[str, Value] | None = None,
    axes: Mapping[str, Sequence[Value]] | None = None,
    *,
    ns3_build: str | Path | None = None,
    mpi_ranks: int = 1,
    check: bool = True,
) -> Plan:
    """Resolve ``spec`` into grids, with ``runs``, ``fixed`` and ``axes`` overriding.

    ``spec`` is a preset (:data:`PRESETS`), a TOML grid file, the name of a
    built program (then ``axes`` and ``fixed`` are its grid), or grids. A
    preset's ``until_ci`` applies to its full size when ``runs`` is not given.
    ``ns3_build``: run the programs of this ns-3 tree (or its build folder)
    instead of the standalone build's (default: ``$RUDP_NS3_BUILD`` if set;
    see :func:`rudp.paths.current_build`). ``mpi_ranks`` above 1 runs each
    point split across that many MPI ranks (``mpiexec -n N PROGRAM --ranks=N``:
    the programs that take ``--ranks``, of an ns-3 tree built with MPI); its
    ``ranks`` is then a parameter of every point. With ``check``, every
    parameter is checked against what its program takes
    (:func:`rudp.sweep.options.check_grids`).

    Raises:
        GridError: ``spec`` is none of these, its grids are malformed, a
            parameter is unknown to its program, or ``mpi_ranks`` asks for
            MPI of a build without it.
        FileNotFoundError: ``ns3_build`` holds no ns-3 build.
    """
    build = paths.current_build(ns3_build)
    try:
        build = build.with_ranks(mpi_ranks)
    except ValueError as error:
        raise GridError(f"--mpi-ranks {mpi_ranks}: {error}") from None
    report: Report | None = None
    expected_failures: tuple[ExpectedFailure, ...] = ()
    until_ci: UntilCi | None = None
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
        expected_failures = preset.expected_failures
        until_ci = None if quick or runs is not None else preset.until_ci
        name += "-quick" if quick else ""
    elif Path(spec).is_file():
        name, grids = Path(spec).stem, load_grids(spec, quick)
        name += "-quick" if quick else ""
    elif isinstance(spec, str) and "/" not in spec and (_is_built(spec, build) or axes or fixed):
        name, grids = spec, [Grid(spec, name=spec)]
    else:
        raise GridError(
            f"{spec}: not a preset ({', '.join(PRESETS)}), a grid file or a built program"
        )
    grids = [g.with_overrides(runs, fixed, axes) for g in grids]
    grids = [_on_ranks(g, build.ranks) for g in grids]
    if check:
        check_grids(grids, build)

    def generic(frame: pd.DataFrame, out: Path) -> list[Path]:
        from .figures import generic_report  # noqa: PLC0415 - the report layer, on use only

        return generic_report(frame, grids, out)

    return Plan(name, grids, report or generic, build, expected_failures, until_ci)


def _on_ranks(grid: Grid, ranks: int) -> Grid:
    """``grid`` whose points run on ``ranks`` MPI ranks: ``ranks`` is their parameter
    (the programs' --ranks), which only --mpi-ranks sets: mpiexec must start that many."""
    given = [grid.fixed["ranks"]] if "ranks" in grid.fixed else list(grid.axes.get("ranks", []))
    if any(value != ranks for value in given):
        raise GridError(
            f"grid {grid.name or grid.program!r}: ranks {given}: a point runs on the MPI "
            f"ranks --mpi-ranks gives it (here {ranks}): set that instead"
        )
    return grid.with_overrides(fixed={"ranks": ranks}) if ranks > 1 else grid


def program_identities(
    points: Sequence[Point], build: paths.Build | None = None
) -> dict[str, str | None]:
    """Each program's build identity, once per sweep (None: not built now)."""
    build = build if build is not None else paths.current_build()
    identities: dict[str, str | None] = {}
    for program in dict.fromkeys(p.program for p in points):
        try:
            identities[program] = build_identity(build.program(program), build)
        except (OSError, ValueError):
            identities[program] = None
    return identities


def cached_outcome(
    store: Cache | None, point: Point, build: str | None, env: Environment
) -> Outcome | None:
    """``point``'s result in ``store`` for ``build`` and ``env``, or None.

    A record that is absent, cut short, malformed or incomplete is a miss:
    the point runs again and its new record replaces the bad one.
    """
    if store is None or build is None:
        return None
    record = store.get(point_key(point, build, env))
    if record is None:
        return None
    try:
        return Outcome.from_record(point, record)
    except ValueError:
        return None


class SweepInterrupted(KeyboardInterrupt):
    """A sweep stopped by SIGINT (Ctrl-C) or SIGTERM, after it kept what had finished."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(signal.Signals(signum).name)


@contextmanager
def _interruptible() -> Iterator[None]:
    """SIGINT and SIGTERM raise :class:`SweepInterrupted` in the main thread, once.

    SIGTERM would otherwise end the process at once, leaving its runs
    orphaned. A second signal while the sweep stops (seconds) is ignored.
    Signals ignored by the caller (``nohup``) stay ignored; from a thread
    other than the main one (where handlers cannot be set), nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    raised = False

    def handler(signum: int, frame: FrameType | None) -> None:
        nonlocal raised
        if not raised:
            raised = True
            raise SweepInterrupted(signum)

    previous: dict[signal.Signals, Any] = {}
    for number in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(number) is not signal.SIG_IGN:
            previous[number] = signal.signal(number, handler)
    try:
        yield
    finally:
        for number, old in previous.items():
            signal.signal(number, old if old is not None else signal.SIG_DFL)


def _check_limits(jobs: int | None, timeout_s: float | None) -> None:
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise ValueError(f"jobs must be a whole number >= 1, got {jobs!r}")
    if timeout_s is not None and not (
        isinstance(timeout_s, int | float) and math.isfinite(timeout_s) and timeout_s > 0
    ):
        raise ValueError(f"timeout_s must be a positive number of seconds, got {timeout_s!r}")


def _execute(
    name: str,
    points: Sequence[Point],
    pending: Sequence[int],
    outcomes: list[Outcome | None],
    *,
    store: Cache | None,
    expected: Mapping[str, str | None],
    jobs: int | None,
    scheduler: str | Client | None,
    timeout_s: float | None,
    progress: bool,
    shown: int,
    build: paths.Build,
) -> int:
    """Run ``points[i]`` for each ``i`` of ``pending`` into ``outcomes[i]``, storing
    each result as it finishes; returns how many ran on a rebuilt program.

    On SIGINT or SIGTERM: stop the runs under way, say what was kept, raise.
    """
    todo = [points[i] for i in pending]
    stored = [0]
    stored_lock = threading.Lock()

    def keep(j: int, outcome: Outcome) -> None:
        # Called as each run finishes, from the pool's threads: a result is
        # stored even if the sweep is stopped before it takes it. Filed under
        # the build and environment that really ran it: a program rebuilt
        # mid-sweep must not file its results under the old identity.
        if store is not None and outcome.is_result and outcome.build is not None:
            store.put(point_key(todo[j], outcome.build, outcome.environment), outcome.record())
            with stored_lock:
                stored[0] += 1

    rebuilt = 0
    with _interruptible():
        runner: Generator[tuple[int, Outcome], None, None] = (
            # Dask workers run their own standalone build, or the ns-3 tree's at its path.
            run_dask(todo, scheduler, timeout_s, keep, build if build.ns3_tree else None)
            if scheduler is not None
            else run_local(todo, jobs, timeout_s, keep, build)
        )
        try:
            with Progress(name, total=shown, initial=shown - len(todo), enabled=progress) as bar:
                for j, outcome in runner:
                    outcomes[pending[j]] = outcome
                    rebuilt += (
                        outcome.build is not None
                        and outcome.build != expected[outcome.point.program]
                    )
                    bar.update(failed=not outcome.ok)
        except KeyboardInterrupt as interruption:
            runner.close()  # stops the runs under way and keeps what finished
            kept = shown - len(todo) + stored[0]
            message = _interrupted(
                interruption, name=name, kept=kept, total=len(points), new=stored[0], store=store
            )
            print(message, file=sys.stderr)
            raise
        finally:
            runner.close()
    return rebuilt


@dataclass
class _Ran:
    """A sweep's runs so far: the plan (with the runs until-ci added), its points
    and their outcomes (None: not run), and counts."""

    plan: Plan
    points: list[Point]
    outcomes: list[Outcome | None]
    missing: int = 0
    executed: int = 0
    rebuilt: int = 0


def _run(
    the_plan: Plan,
    status: CacheStatus,
    store: Cache | None,
    execute: Callable[[_Ran, Sequence[int]], int],
    *,
    until_ci: UntilCi | None,
    cached_only: bool,
) -> _Ran:
    """Run the plan's missing runs, longest first (none with ``cached_only``), then
    with ``until_ci`` the rounds of runs it adds; ``execute`` runs indexes of ``ran.points``."""
    ran = _Ran(the_plan, status.points, list(status.outcomes))
    # The longest runs start first, so that none of them starts last.
    pending = longest_first(ran.points, status.missing, ran.outcomes)
    if cached_only:
        ran.missing, pending = len(pending), []
    ran.rebuilt += execute(ran, pending)
    ran.executed += len(pending)
    while until_ci is not None and (more := more_runs(ran.points, ran.outcomes, until_ci)):
        # The plan's points stay a prefix: expand() lists the new grids' runs after them.
        widened = replace(ran.plan, grids=[*ran.plan.grids, *more])
        added = widened.status(store)
        new_outcomes = added.outcomes[len(ran.points) :]
        if cached_only and all(outcome is None for outcome in new_outcomes):
            break  # the rounds the cache holds are taken: the sweep that ran stopped here
        ran.plan, ran.points, ran.outcomes = widened, added.points, ran.outcomes + new_outcomes
        everything = longest_first(ran.points, range(len(ran.points)), ran.outcomes)
        pending = [i for i in everything if ran.outcomes[i] is None]
        if cached_only:
            ran.missing, pending = ran.missing + len(pending), []
        ran.rebuilt += execute(ran, pending)
        ran.executed += len(pending)
    return ran


def results_folder(name: str, out: str | Path | None = None) -> Path:
    """Where a sweep called ``name`` writes: ``out`` if given, else ``results/<name>``."""
    return Path(out) if out is not None else Path("results") / name


def cache_of(folder: Path, cache: str | Path | None = None) -> Cache:
    """The cache of a sweep writing to ``folder``: ``cache`` if given, else ``folder/cache``."""
    return Cache(Path(cache) if cache is not None else folder / "cache")


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
    ns3_build: str | Path | None = None,
    mpi_ranks: int = 1,
    until_ci: UntilCi | None = None,
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
        ns3_build: run the programs of this ns-3 tree (or its build folder),
            e.g. one built in the optimized profile, instead of the standalone
            build's (default: ``$RUDP_NS3_BUILD`` if set). The cache works
            the same: results are filed under the identity of the program
            that ran, its libraries included.
        mpi_ranks: run each point split across this many MPI ranks, under
            ``mpiexec -n mpi_ranks`` with ``--ranks`` (the programs that take
            it, of an ns-3 tree built with MPI: ``ns3_build``). ``jobs``
            defaults to the cores divided by it.
        until_ci: after the grids' runs, add runs to each point until its
            interval is tight (:class:`rudp.sweep.until.UntilCi`; default:
            the preset's, in its full size without ``runs``); the frame's
            ``attrs["until_ci"]`` lists each point's runs, mean, interval and
            whether it is tight, as ``runs-per-point.csv`` beside the
            results. With ``cached_only``, the rounds the cache holds.

    Returns:
        One row per (point, run), or per cached one with ``cached_only``;
        failed runs are rows too, with ``status`` and ``error`` set (see
        :mod:`rudp.sweep.frame`). ``frame.attrs`` holds counts: ``runs``,
        ``cached``, ``executed``, ``failed`` (runs that did not succeed),
        ``errors`` (those of them without a result), ``missing`` (not run,
        with ``cached_only``), ``seconds``, and the paths written under
        ``written`` (kept as they were, ``unchanged`` True, when the
        results and the package's source are those they were written from:
        see :mod:`rudp.sweep.stamp`).

    Raises:
        SweepInterrupted: SIGINT or SIGTERM stopped the sweep. Every run
            that had finished is in the cache first, the running programs
            are killed, and a message says how to resume.
        ValueError: ``jobs`` or ``timeout_s`` makes no sense (GridError:
            the grids do not, or name a parameter their program does not
            take: checked before anything runs).
        FileNotFoundError: ``ns3_build`` holds no ns-3 build.

    Failures never stop the sweep. A reported failure (the program ran and
    said its run failed) is a result: a row with its metrics, cached like
    a success. A run without a result (a crash, a timeout, a bad
    parameter) is a row with its error, not cached: the next sweep runs it
    again. Both are printed at the end, with a command line to reproduce.
    """
    started = time.monotonic()
    _check_limits(jobs, timeout_s)
    if cached_only and not use_cache:
        raise GridError("cached_only needs the cache: it runs nothing")
    the_plan = plan(spec, quick, runs, fixed, axes, ns3_build=ns3_build, mpi_ranks=mpi_ranks)
    if jobs is None and scheduler is None and mpi_ranks > 1:
        jobs = max(1, default_jobs() // mpi_ranks)  # each run takes mpi_ranks cores
    until_ci = until_ci if until_ci is not None else the_plan.until_ci
    folder = results_folder(the_plan.name, out)
    store = cache_of(folder, cache) if use_cache else None
    if store is not None and not cached_only:
        store.remove_orphans()

    status = the_plan.status(store)

    def execute(ran: _Ran, pending: Sequence[int]) -> int:
        return _execute(
            ran.plan.name,
            ran.points,
            pending,
            ran.outcomes,
            store=store,
            expected=status.builds,
            jobs=jobs,
            scheduler=scheduler,
            timeout_s=timeout_s,
            progress=progress,
            shown=len(ran.points) - ran.missing,
            build=ran.plan.build,
        )

    ran = _run(the_plan, status, store, execute, until_ci=until_ci, cached_only=cached_only)
    the_plan, points, outcomes, missing = ran.plan, ran.points, ran.outcomes, ran.missing
    frame = to_frame([o for o in outcomes if o is not None])
    per_point = runs_per_point(points, outcomes, until_ci) if until_ci is not None else None
    mark = stamp.fingerprint(frame, name=the_plan.name, fmt=fmt, report=report)
    kept = stamp.unchanged(folder, mark)
    if kept is not None:  # the same results, the same report code: nothing to redo
        written = kept
    else:
        stamp.forget(folder)
        results = save(frame, folder, fmt)
        written = [results, *(the_plan.report(frame, folder) if report else [])]
        if per_point is not None:
            written.append(folder / "runs-per-point.csv")
            per_point.to_csv(written[-1], index=False)
        stamp.record(folder, mark, written)
    frame.attrs.update(
        name=the_plan.name,
        runs=len(points),
        cached=len(points) - missing - ran.executed,
        executed=ran.executed,
        missing=missing,
        failed=int((frame["status"] != "ok").sum()),
        errors=int((frame["status"] == "error").sum()),
        seconds=round(time.monotonic() - started, 3),
        written=[str(p) for p in written],
        unchanged=kept is not None,
    )
    if per_point is not None:
        frame.attrs["until_ci"] = per_point.to_dict("records")
    if progress:
        print(_summary(frame, ran.rebuilt), file=sys.stderr)
        if per_point is not None and until_ci is not None:
            print(summary_line(per_point, until_ci), file=sys.stderr)
    if (frame["status"] != "ok").any():
        print(failure_report(frame), file=sys.stderr)
        # Last, so that a newcomer reads it where the output ends.
        for line in expected_failure_lines(frame, the_plan.expected_failures):
            print(line, file=sys.stderr)
    return frame


def _interrupted(
    interruption: KeyboardInterrupt,
    *,
    name: str,
    kept: int,
    total: int,
    new: int,
    store: Cache | None,
) -> str:
    how = signal.Signals(getattr(interruption, "signum", signal.SIGINT)).name
    if store is None:
        return (
            f"{name}: interrupted by {how}; the runs under way were stopped. Nothing was "
            "cached (no cache): a new sweep starts from the beginning."
        )
    return (
        f"{name}: interrupted by {how}; the runs under way were stopped. "
        f"{kept} of {total} runs are in the cache ({new} finished in this sweep), "
        f"in {store.folder}. To resume, run the same command again: it runs only "
        "the missing ones (add --cached-only to see the results so far)."
    )


def expected_failure_lines(frame: pd.DataFrame, expected: Sequence[ExpectedFailure]) -> list[str]:
    """One line for each kind of ``expected`` failure among ``frame``'s reported failures.

    Only reported failures (a result that says the run failed) are matched:
    a crash or a timeout is never expected.
    """
    reported = frame["status"] == "failed" if "status" in frame else None
    lines: list[str] = []
    if reported is None:
        return lines
    for failure in expected:
        count = int((reported & failure.matches(frame)).sum())
        if count:
            lines.append(f"{count} of these failures are expected: {failure.why}")
    return lines


def _summary(frame: pd.DataFrame, rebuilt: int) -> str:
    a = frame.attrs
    reported = a["failed"] - a["errors"]
    lines = [
        f"{a['name']}: {a['runs']} runs ({a['cached']} from cache, {a['executed']} executed) "
        f"in {a['seconds']:.1f} s; {a['failed']} did not succeed: {reported} reported a "
        f"failure (a result, cached), {a['errors']} without a result"
        + (f"; {a['missing']} not run yet, left out" if a["missing"] else ""),
        (
            f"kept {a['written'][0]} and {len(a['written']) - 1} figure/table file(s): "
            "the results and the report's code are those they were written from"
            if a.get("unchanged")
            else f"wrote {a['written'][0]} and {len(a['written']) - 1} figure/table file(s)"
        ),
    ]
    if rebuilt:
        lines.append(
            f"warning: {rebuilt} run(s) ran on a build other than the one the sweep started "
            "with (the program was rebuilt meanwhile); see the 'build' column"
        )
    return "\n".join(lines)
