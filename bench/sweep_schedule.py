"""What starting the longest runs first saves a sweep (issue 26).

Replays a finished (or partly run) sweep's measured run times on ``--jobs``
workers, starting the runs in three orders, and prints when each would end:

- the grids' order (what a sweep did before it ordered its runs);
- longest first by the sweep's own estimates before anything ran
  (:func:`rudp.sweep.schedule.longest_first` with an empty cache: what a
  fresh sweep does);
- longest first by the measured times (the best LPT can do).

Runs added by ``--until-ci`` come in rounds after the planned ones, each
round in the same order, as the sweep runs them. ``--pauses`` takes a log of
``stop EPOCH`` / ``cont EPOCH`` lines (SIGSTOP and SIGCONT of the sweep) and
subtracts the paused time from the runs it overlapped. Run by hand::

    .venv/bin/python bench/sweep_schedule.py --preset seed003 --cache RESULTS/cache [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from rudp.sweep.grid import Point, expand
from rudp.sweep.presets import PRESETS
from rudp.sweep.schedule import longest_first, makespan


def pauses(path: Path | None) -> list[tuple[float, float]]:
    """The (start, end) of each pause in a log of stop/cont lines."""
    spans: list[tuple[float, float]] = []
    stopped: float | None = None
    for line in path.read_text().splitlines() if path else []:
        kind, _, rest = line.partition(" ")
        if kind == "stop":
            stopped = float(rest.split()[0])
        elif kind in ("cont", "interrupted") and stopped is not None:
            spans.append((stopped, float(rest.split()[0])))
            stopped = None
    return spans


def measured(cache: Path, paused: Sequence[tuple[float, float]]) -> dict[Point, float]:
    """Each cached run's wall time, less the pauses it overlapped."""
    runs: dict[Point, float] = {}
    for file in cache.rglob("*.json"):
        record = json.loads(file.read_text())
        params = tuple(sorted((name, value) for name, value in record["params"]))
        end = file.stat().st_mtime
        begin = end - float(record["seconds"])
        overlap = sum(max(0.0, min(end, b) - max(begin, a)) for a, b in paused)
        runs[Point(record["program"], params, int(record["run"]))] = record["seconds"] - overlap
    return runs


def rounds(planned: list[Point], runs: dict[Point, float]) -> list[list[Point]]:
    """The planned runs that ran, then each until-ci round (RngRun beyond the plan's)."""
    first = [p for p in planned if p in runs]
    planned_set = set(planned)
    extra = sorted({p.run for p in runs if p not in planned_set})
    order = {(p.program, p.args): i for i, p in enumerate(planned)}
    later = [
        sorted(
            (p for p in runs if p not in planned_set and p.run == run),
            key=lambda p: order.get((p.program, p.args), len(order)),
        )
        for run in extra
    ]
    return [first, *later]


def replay(batches: list[list[Point]], runs: dict[Point, float], jobs: int) -> dict[str, float]:
    """Makespans of the three orders, each batch after the one before."""
    spans = {"grid order": 0.0, "longest first (estimates)": 0.0, "longest first (measured)": 0.0}
    for batch in batches:
        durations = [runs[p] for p in batch]
        indexes = list(range(len(batch)))
        estimated = longest_first(batch, indexes, [None] * len(batch))
        best = sorted(indexes, key=lambda i: -durations[i])
        spans["grid order"] += makespan(durations, indexes, jobs)
        spans["longest first (estimates)"] += makespan(durations, estimated, jobs)
        spans["longest first (measured)"] += makespan(durations, best, jobs)
    return spans


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="seed003", choices=sorted(PRESETS))
    parser.add_argument("--cache", type=Path, required=True, help="the sweep's cache folder")
    parser.add_argument("--jobs", type=int, default=2, help="workers (default 2)")
    parser.add_argument("--pauses", type=Path, help="log of stop/cont lines to subtract")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs: {args.jobs} is out of range: must be at least 1")
    if not args.cache.is_dir():
        parser.error(f"--cache: {args.cache} is not a folder")
    runs = measured(args.cache, pauses(args.pauses))
    batches = rounds(expand(PRESETS[args.preset].grids()), runs)
    total = sum(runs[p] for batch in batches for p in batch)
    print(
        f"{sum(map(len, batches))} runs in {len(batches)} round(s), {total:.0f} s of run time; "
        f"on {args.jobs} workers at best {total / args.jobs:.0f} s "
        f"(longest run {max(runs.values(), default=0):.0f} s)"
    )
    for order, span in replay(batches, runs, args.jobs).items():
        print(f"  {order:28s} {span:8.0f} s  ({span / 3600:.2f} h)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
