"""Seed 002's grid in ns-2.35's SCTP-CMT and in rudp-cmt, side by side.

``python -m rudp.ns2`` (or ``python -m rudp.sweep seed002-ns2``) runs every
point of seed 002's grid (n = 2, 3, 4 paths; RTT 120-200 ms at 1 % loss and
loss 1-5 % at 100 ms), and the same points with one path, for both receive
buffers, in both simulators over ``--seeds`` loss substreams (``--until-ci``:
more where the goodput ratio's interval is wide), and writes per point the
means of goodput, timeouts and fast retransmissions, their ratios and the
goodput ratio's 95 % interval (``seed002-ns2.md``, ``seed002-ns2-runs.csv``), and seed 002's
figures 6-9 with both simulators' points and the model for each mode
(``seed002-ns2-MODE-figureN.png``, :mod:`.figures`).

Modes (``--modes``):

* ``ns2-def``: ns-2 set to what rudp's ``--ns2-defaults`` claims (trigger 4,
  RTX-SAME, no CMT-PF) against ``rudp-cmt --ns2-defaults=1``;
* ``default``: the same ns-2 runs against rudp's default (RFC 4960) mode;
* ``stock``: ns-2.35's own CMT defaults (trigger 3, RTX-CWND, CMT-PF with a
  window of 2) against ``--ns2-defaults=1`` given the same.
"""

from __future__ import annotations

import argparse
import csv
import math
import statistics
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Generic, TypeVar

from ..models import cmt
from .driver import (
    CHUNK,
    NS2_DEFAULTS,
    NS2_STOCK,
    CmtSettings,
    Outcome,
    Point,
    exit_status,
    run_ns2,
    run_rudp,
)

PATHS = (1, 2, 3, 4)
RTTS_MS = (120, 140, 160, 180, 200)
LOSSES = (0.01, 0.02, 0.03, 0.04, 0.05)
BUFFERS = (1 << 28, 16384)

#: The goal: goodput within 10 % of ns-2, timeouts and fast retransmissions within 30 %.
GOODPUT_TOLERANCE = 0.10
COUNT_TOLERANCE = 0.30


@dataclass(frozen=True)
class Mode:
    """A pairing: ns-2 with ``ns2`` settings beside rudp with ``rudp`` (None: RFC mode)."""

    name: str
    ns2: CmtSettings
    rudp: CmtSettings | None


MODES = {
    "ns2-def": Mode("ns2-def", NS2_DEFAULTS, NS2_DEFAULTS),
    "default": Mode("default", NS2_DEFAULTS, None),
    "stock": Mode("stock", NS2_STOCK, NS2_STOCK),
}


def grid_points(paths: Iterable[int] = PATHS, buffers: Iterable[int] = BUFFERS) -> list[Point]:
    """Seed 002's grid (RTT at 1 %, loss at 100 ms) for each number of paths and buffer."""
    points = []
    for rbuf in buffers:
        for n in paths:
            points += [Point(n, rtt, 0.01, rbuf) for rtt in RTTS_MS]
            points += [Point(n, 100, loss, rbuf) for loss in LOSSES]
    return points


#: The fast subset of the CI test: one and two paths, both buffers, the ends
#: of the loss axis and one RTT of the other.
QUICK_POINTS = [
    Point(n, rtt, loss, rbuf)
    for rbuf in BUFFERS
    for n in (1, 2)
    for rtt, loss in ((100, 0.01), (100, 0.05), (160, 0.01))
]


PointT = TypeVar("PointT")
OutcomeT = TypeVar("OutcomeT")


@dataclass
class PairedRuns(Generic[PointT, OutcomeT]):
    """One point of one mode in both simulators: the runs of each, one per seed."""

    point: PointT
    mode: str
    ns2: list[OutcomeT]
    rudp: list[OutcomeT]

    def mean(self, which: str, field: str) -> float:
        """The mean of ``field`` over ``which`` ("ns2" or "rudp") simulator's runs."""
        runs = self.ns2 if which == "ns2" else self.rudp
        values = [float(getattr(run, field)) for run in runs]
        return statistics.fmean(values) if values else float("nan")

    def ratio(self, field: str) -> float:
        """rudp's mean over ns-2's; counts of 0 against 0 are 1."""
        ns2, rudp = self.mean("ns2", field), self.mean("rudp", field)
        if ns2 == 0:
            return 1.0 if rudp == 0 else float("inf")
        return rudp / ns2

    def ratio_interval(self, field: str) -> tuple[float, float, float]:
        """rudp's mean of ``field`` over ns-2's with its 95 % interval (seeds as samples;
        :func:`rudp.sweep.stats.ratio_interval`)."""
        from ..sweep.stats import ratio_interval  # noqa: PLC0415 - scipy, only in a report

        return ratio_interval(
            [float(getattr(run, field)) for run in self.ns2],
            [float(getattr(run, field)) for run in self.rudp],
        )

    def ratio_spread(self, field: str) -> float:
        """How far the ratio's 95 % interval reaches from it, as a fraction (the larger
        side); infinite where the runs give no interval."""
        ratio, low, high = self.ratio_interval(field)
        if not low > 0:
            return math.inf
        return max(high / ratio, ratio / low) - 1

    def surely_outside(self, field: str, tolerance: float) -> bool:
        """Whether the ratio's whole 95 % interval lies more than ``tolerance`` from 1 (the
        ratio itself where the runs give no interval)."""
        _, low, high = self.ratio_interval(field)
        if not low > 0:
            low = high = self.ratio(field)
        return high < 1 - tolerance or low > 1 + tolerance


@dataclass
class Row(PairedRuns[Point, Outcome]):
    """One point of seed 002's grid in one mode."""

    def sd(self) -> float:
        values = [run.goodput_kBps for run in self.ns2]
        return statistics.stdev(values) if len(values) > 1 else 0.0

    def model_kBps(self) -> float:
        """Seed 002's n-path model at this point (kB/s of 1468-byte data units)."""
        p = self.point
        return cmt.throughput(p.paths, p.loss, p.rtt_ms / 1000, CHUNK, p.rbuf) / 1000


def count_within(ns2: float, rudp: float, tolerance: float, slack: float = 1.0) -> bool:
    """Counts agree within ``tolerance`` of ns-2's, or within ``slack`` per run (small counts)."""
    return abs(rudp - ns2) <= max(tolerance * ns2, slack)


def paired_summary(
    rows: Sequence[PairedRuns[Any, Any]],
    goodput: str,
    goodput_tolerance: float,
    count_tolerance: float,
) -> dict[str, float]:
    r"""Median and worst \|``goodput`` ratio - 1\| over ``rows``, and the shares of points
    within ``goodput_tolerance`` and of timeout and fast-retransmit means within
    ``count_tolerance`` (:func:`count_within`)."""
    errors = [abs(row.ratio(goodput) - 1) for row in rows]
    counts = [
        count_within(row.mean("ns2", f), row.mean("rudp", f), count_tolerance)
        for row in rows
        for f in ("timeouts", "fast_retransmits")
    ]
    return {
        "points": len(rows),
        "surely_outside": sum(row.surely_outside(goodput, goodput_tolerance) for row in rows),
        "median": statistics.median(errors) if errors else float("nan"),
        "worst": max(errors) if errors else float("nan"),
        "within_goodput": (
            sum(e <= goodput_tolerance for e in errors) / len(errors) if errors else float("nan")
        ),
        "within_counts": sum(counts) / len(counts) if counts else float("nan"),
    }


def summary_line(
    rows: Sequence[PairedRuns[Any, Any]],
    goodput: str,
    goodput_tolerance: float,
    count_tolerance: float,
) -> str:
    """A table's summary: median and worst goodput error, shares within the goals."""
    s = paired_summary(rows, goodput, goodput_tolerance, count_tolerance)
    worst = max(rows, key=lambda row: abs(row.ratio(goodput) - 1))
    return (
        f"median |ratio - 1| {100 * s['median']:.1f} %, worst "
        f"{100 * (worst.ratio(goodput) - 1):+.1f} % ({worst.point.label()}); "
        f"{100 * s['within_goodput']:.0f} % of points within "
        f"{100 * goodput_tolerance:.0f} % ({s['surely_outside']} of {s['points']} outside it "
        f"with their whole 95 % interval), {100 * s['within_counts']:.0f} % of counts "
        f"within {100 * count_tolerance:.0f} %"
    )


@dataclass(frozen=True)
class Section:
    """One part of a report: its heading, a summary line and a table."""

    heading: str
    summary: str
    columns: Sequence[str]
    rows: Sequence[Sequence[str]]


def markdown_report(title: str, command: str, note: str, sections: Iterable[Section]) -> str:
    """A report of either comparison: the title, the command, a note, then each section."""
    out = [f"# {title}", "", f"`{command}`", "", note, ""]
    for section in sections:
        out += [
            f"## {section.heading}",
            "",
            section.summary,
            "",
            "| " + " | ".join(section.columns) + " |",
            "|" + "---|" * len(section.columns),
        ]
        out += ["| " + " | ".join(cells) + " |" for cells in section.rows]
        out.append("")
    return "\n".join(out)


def write_paired_runs(
    rows: Sequence[PairedRuns[Any, Any]],
    path: Path,
    point_fields: Sequence[str],
    goodput: str,
    digits: int,
) -> None:
    """Every run, one line each: the mode, the point's ``point_fields``, the seed, the
    simulator, then ``goodput`` (``digits`` decimals), timeouts and fast retransmits."""
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            ["mode", *point_fields, "seed", "simulator", goodput, "timeouts", "fast_retransmits"]
        )
        for row in rows:
            for which, runs in (("ns2", row.ns2), ("rudp", row.rudp)):
                for seed, run in enumerate(runs, 1):
                    writer.writerow(
                        [
                            row.mode,
                            *(getattr(row.point, f) for f in point_fields),
                            seed,
                            which,
                            f"{getattr(run, goodput):.{digits}f}",
                            run.timeouts,
                            run.fast_retransmits,
                        ]
                    )


@dataclass(frozen=True)
class UntilCi:
    """More seeds for a point until its goodput ratio's 95 % interval reaches at most
    ``fraction`` from the ratio, or it has ``max_seeds`` (sem's conditional runner,
    as ``python -m rudp.sweep --until-ci``)."""

    fraction: float
    max_seeds: int

    def seeds_for(self, row: Row) -> int:
        """The seeds ``row``'s point should have: its own if its interval is tight enough
        (or it has the most allowed), else a projection from the interval's width,
        which narrows as one over the square root of the seeds."""
        have = min(len(row.ns2), len(row.rudp))
        spread = row.ratio_spread("goodput_kBps")
        if spread <= self.fraction or have >= self.max_seeds:
            return have
        if math.isinf(spread):
            return min(self.max_seeds, max(have + 1, 3))
        need = math.ceil(have * (math.log1p(spread) / math.log1p(self.fraction)) ** 2)
        return min(self.max_seeds, max(have + 1, need))


def run_grid(
    points: Sequence[Point],
    modes: Sequence[Mode],
    seeds: int,
    *,
    duration_s: float,
    warmup_s: float,
    jobs: int = 2,
    until: UntilCi | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[Row]:
    """Run every point of every mode over seeds 1..``seeds`` (and, ``until`` given, more
    where the goodput ratio's interval is wide); ns-2's runs are shared by modes with
    the same settings, and every run is run once."""
    wanted = {(mode.name, point): seeds for mode in modes for point in points}
    results: dict[tuple[str, Point, int, str], Outcome] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        while True:
            tasks: dict[tuple[str, Point, int, str], Callable[[], Outcome]] = {}
            for mode in modes:
                for point in points:
                    for seed in range(1, wanted[mode.name, point] + 1):
                        for key, task in _run_tasks(mode, point, seed, duration_s, warmup_s):
                            if key not in results:
                                tasks.setdefault(key, task)
            futures = {key: pool.submit(task) for key, task in tasks.items()}
            for done, (key, future) in enumerate(futures.items(), 1):
                results[key] = future.result()
                if progress is not None and done % 20 == 0:
                    progress(f"{done}/{len(futures)} runs")
            rows = [
                _row(mode, point, wanted[mode.name, point], results)
                for mode in modes
                for point in points
            ]
            if until is None:
                return rows
            needed = {(row.mode, row.point): until.seeds_for(row) for row in rows}
            more = {key: n for key, n in needed.items() if n > wanted[key]}
            if not more:
                return rows
            wanted.update(more)
            if progress is not None:
                progress(f"--until-ci: more seeds for {len(more)} points")


def _rudp_name(mode: Mode) -> str:
    return mode.rudp.name if mode.rudp else "default"


def _run_tasks(
    mode: Mode, point: Point, seed: int, duration_s: float, warmup_s: float
) -> list[tuple[tuple[str, Point, int, str], Callable[[], Outcome]]]:
    """The two runs of ``point`` and ``seed`` in ``mode``, each under its key."""
    return [
        (
            ("ns2", point, seed, mode.ns2.name),
            partial(
                run_ns2, point, seed, settings=mode.ns2, duration_s=duration_s, warmup_s=warmup_s
            ),
        ),
        (
            ("rudp", point, seed, _rudp_name(mode)),
            partial(
                run_rudp, point, seed, settings=mode.rudp, duration_s=duration_s, warmup_s=warmup_s
            ),
        ),
    ]


def _row(
    mode: Mode, point: Point, seeds: int, results: dict[tuple[str, Point, int, str], Outcome]
) -> Row:
    """``point``'s row in ``mode`` from seeds 1..``seeds`` of ``results``."""
    numbers = range(1, seeds + 1)
    return Row(
        point,
        mode.name,
        [results["ns2", point, s, mode.ns2.name] for s in numbers],
        [results["rudp", point, s, _rudp_name(mode)] for s in numbers],
    )


def seeds_text(rows: Sequence[PairedRuns[Any, Any]]) -> str:
    """How many seeds the rows' means are over: "3 seeds", or "3 to 30 seeds (column n)"."""
    counts = sorted({len(row.ns2) for row in rows})
    if len(counts) == 1:
        return f"{counts[0]} seeds"
    return f"{counts[0]} to {counts[-1]} seeds (column n)"


#: The columns of :func:`markdown`'s tables.
COLUMNS = (
    "n/RTT/p",
    "n",
    "ns-2 (sd)",
    "rudp",
    "ratio [95 %]",
    "ns-2 TO/FR",
    "rudp TO/FR",
    "TO ratio",
    "FR ratio",
    "model",
    "model / ns-2",
)


def _cells(row: Row) -> list[str]:
    """A row of :func:`markdown`'s tables."""
    _, low, high = row.ratio_interval("goodput_kBps")
    ns2 = row.mean("ns2", "goodput_kBps")
    return [
        row.point.label(),
        str(len(row.ns2)),
        f"{ns2:.1f} ({row.sd():.1f})",
        f"{row.mean('rudp', 'goodput_kBps'):.1f}",
        f"{row.ratio('goodput_kBps'):.2f} [{low:.2f}, {high:.2f}]",
        f"{row.mean('ns2', 'timeouts'):.0f}/{row.mean('ns2', 'fast_retransmits'):.0f}",
        f"{row.mean('rudp', 'timeouts'):.0f}/{row.mean('rudp', 'fast_retransmits'):.0f}",
        f"{row.ratio('timeouts'):.2f}",
        f"{row.ratio('fast_retransmits'):.2f}",
        f"{row.model_kBps():.1f}",
        f"{row.model_kBps() / ns2:.2f}",
    ]


def markdown(rows: Sequence[Row], command: str) -> str:
    """The tables: one per mode and buffer, with a summary line each."""
    sections = []
    for mode in dict.fromkeys(row.mode for row in rows):
        for rbuf in dict.fromkeys(row.point.rbuf for row in rows):
            part = [row for row in rows if row.mode == mode and row.point.rbuf == rbuf]
            model = [row.model_kBps() / row.mean("ns2", "goodput_kBps") for row in part]
            line = summary_line(part, "goodput_kBps", GOODPUT_TOLERANCE, COUNT_TOLERANCE)
            sections.append(
                Section(
                    f"{mode}, rbuf {rbuf}",
                    f"{line}; the model {min(model):.2f} to {max(model):.2f} x ns-2",
                    COLUMNS,
                    [_cells(row) for row in part],
                )
            )
    return markdown_report(
        "Seed 002 in ns-2.35's SCTP-CMT and in rudp-cmt",
        command,
        f"kB/s of 1468-byte data units, mean of {seeds_text(rows)}; TO/FR: timeouts and fast "
        "retransmissions per run (SACKs that triggered one, as ns-2's frCount_ counts); "
        "ratio = rudp / ns-2, with its 95 % interval over the seeds.",
        sections,
    )


def write_runs(rows: Sequence[Row], path: Path) -> None:
    """Every run, one line each."""
    write_paired_runs(rows, path, ("paths", "rtt_ms", "loss", "rbuf"), "goodput_kBps", 3)


def read_runs(path: Path) -> list[Row]:
    """The rows of a runs file that :func:`write_runs` wrote, in its order."""
    rows: dict[tuple[str, Point], Row] = {}
    with path.open(newline="") as handle:
        for line in csv.DictReader(handle):
            point = Point(
                int(line["paths"]), int(line["rtt_ms"]), float(line["loss"]), int(line["rbuf"])
            )
            row = rows.setdefault((line["mode"], point), Row(point, line["mode"], [], []))
            outcome = Outcome(
                float(line["goodput_kBps"]), int(line["timeouts"]), int(line["fast_retransmits"])
            )
            (row.ns2 if line["simulator"] == "ns2" else row.rudp).append(outcome)
    return list(rows.values())


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m rudp.ns2",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--out", type=Path, default=Path("results/seed002-ns2"), help="output folder")
    p.add_argument("--seeds", type=int, default=3, help="loss substreams per point (>= 1)")
    p.add_argument("--jobs", type=int, default=2, help="runs at once (>= 1)")
    p.add_argument(
        "--modes",
        default="ns2-def,default",
        help=f"comma-separated, of {', '.join(MODES)} (default: ns2-def,default)",
    )
    p.add_argument("--paths", default="1,2,3,4", help="numbers of paths (default 1,2,3,4)")
    p.add_argument(
        "--rbuf", default=",".join(str(b) for b in BUFFERS), help="receive buffers (bytes)"
    )
    p.add_argument(
        "--until-ci",
        type=float,
        metavar="FRACTION",
        help="more seeds for a point until its goodput ratio's 95 %% interval reaches at "
        "most FRACTION from the ratio (0 < FRACTION < 1), up to --max-seeds",
    )
    p.add_argument(
        "--max-seeds", type=int, default=30, help="most seeds a point gets with --until-ci"
    )
    p.add_argument("--quick", action="store_true", help="the CI test's dozen points only")
    p.add_argument("--duration", type=float, default=200, help="simulated seconds (> warmup)")
    p.add_argument("--warmup", type=float, default=20, help="seconds not counted (>= 0)")
    p.add_argument(
        "--from-runs",
        type=Path,
        metavar="CSV",
        help="run nothing: redraw the table and figures from a seed002-ns2-runs.csv",
    )
    return p


def run_refusals(args: argparse.Namespace) -> list[str]:
    """What is wrong with --seeds, --jobs and --warmup (shared with :mod:`.tcp`)."""
    errors = []
    if args.seeds < 1:
        errors.append(f"--seeds={args.seeds}: allowed [1, ...)")
    if args.jobs < 1:
        errors.append(f"--jobs={args.jobs}: allowed [1, ...)")
    if not 0 <= args.warmup < args.duration:
        errors.append(f"--warmup={args.warmup}: allowed [0, --duration={args.duration})")
    return errors


def _refusals(args: argparse.Namespace) -> list[str]:
    """What is wrong with the options, each naming the option and its range."""
    errors = run_refusals(args)
    errors += [
        f"--modes: {name!r} is not one of {', '.join(MODES)}"
        for name in args.modes.split(",")
        if name and name not in MODES
    ]
    try:
        paths = [int(v) for v in args.paths.split(",")]
        buffers = [int(v) for v in args.rbuf.split(",")]
    except ValueError as bad:
        return [*errors, f"--paths/--rbuf: integers, please ({bad})"]
    if any(not 1 <= n <= 8 for n in paths):
        errors.append(f"--paths={args.paths}: allowed [1, 8]")
    if any(not CHUNK_MIN <= b <= 1 << 30 for b in buffers):
        errors.append(f"--rbuf={args.rbuf}: allowed [{CHUNK_MIN}, 1073741824]")
    if args.until_ci is not None:
        if not 0 < args.until_ci < 1:
            errors.append(f"--until-ci={args.until_ci}: allowed (0, 1)")
        if args.max_seeds < args.seeds:
            errors.append(f"--max-seeds={args.max_seeds}: allowed [--seeds={args.seeds}, ...)")
    if args.from_runs is not None and not args.from_runs.is_file():
        errors.append(f"--from-runs={args.from_runs}: no such file")
    return errors


def _run(args: argparse.Namespace) -> list[Row]:
    """The options' grid in both simulators."""
    buffers = [int(v) for v in args.rbuf.split(",")]
    points = (
        [p for p in QUICK_POINTS if p.rbuf in buffers]
        if args.quick
        else grid_points([int(v) for v in args.paths.split(",")], buffers)
    )
    return run_grid(
        points,
        [MODES[name] for name in args.modes.split(",") if name],
        args.seeds,
        duration_s=args.duration,
        warmup_s=args.warmup,
        jobs=args.jobs,
        until=None if args.until_ci is None else UntilCi(args.until_ci, args.max_seeds),
        progress=lambda text: print(text, file=sys.stderr),
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    status = exit_status(_refusals(args), needs_ns=args.from_runs is None)
    if status is not None:
        return status
    rows = read_runs(args.from_runs) if args.from_runs is not None else _run(args)
    args.out.mkdir(parents=True, exist_ok=True)
    command = "python -m rudp.ns2 " + " ".join(sys.argv[1:] if argv is None else argv)
    table = args.out / "seed002-ns2.md"
    table.write_text(markdown(rows, command.strip()))
    write_runs(rows, args.out / "seed002-ns2-runs.csv")
    from .figures import write_figures  # noqa: PLC0415 - matplotlib only when drawing

    print(table)
    for path in write_figures(rows, args.out):
        print(path)
    return 0


#: The smallest receive buffer: one chunk.
CHUNK_MIN = 1468
