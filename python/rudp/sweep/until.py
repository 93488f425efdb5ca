"""Runs added to a point until its interval is tight (sem's conditional runner).

A fixed number of runs a point is too many where runs hardly differ and too
few where they differ a lot. With :class:`UntilCi`, a sweep first runs each
point as its grid says, then, round after round, gives each point whose 95 %
Student-t interval of the metric is still wider than ``fraction`` of the
mean the runs it needs (``RngRun`` values after those it has), up to
``max_runs``. The number asked for is the smallest ``n`` at which the
interval of a sample with the present mean and standard deviation would be
tight enough (at least one more), so most points need one or two rounds.

A grid of one run a point stays so: the presets use one run where nothing
in a run is random (seed003's high-BDP grids), and every ``RngRun`` would
repeat it. A point's failed runs do not count towards its sample, but do
towards ``max_runs``.

The metric may be several record keys separated by commas (seed003's
``utilization,throughput_ratio``): a point is tight when each of them that
its runs report is, so one setting serves a sweep of one-flow runs (no
ratio) and two-flow runs alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from ..runner import Value
from .execute import Outcome
from .grid import Grid, GridError, Point

#: A point: its program and the parameters it receives.
PointKey = tuple[str, tuple[tuple[str, str], ...]]


@dataclass(frozen=True)
class UntilCi:
    """Add runs until the 95 % interval's half-width is at most ``fraction``
    of the mean of ``metric`` (a key of the programs' JSON records), or a
    point has ``max_runs`` runs."""

    fraction: float
    max_runs: int
    #: A record key, or several separated by commas.
    metric: str

    def __post_init__(self) -> None:
        if not (isinstance(self.fraction, int | float) and 0 < self.fraction < 1):
            raise GridError(
                f"until-ci: the interval's half-width as a fraction of the mean, in (0, 1); "
                f"got {self.fraction!r}"
            )
        if isinstance(self.max_runs, bool) or not isinstance(self.max_runs, int):
            raise GridError(f"max-runs: a whole number of runs, got {self.max_runs!r}")
        if not 2 <= self.max_runs <= 10_000:
            raise GridError(
                f"max-runs: at least 2 (an interval needs two runs), at most 10000; "
                f"got {self.max_runs}"
            )
        if not self.metric or not all(self.metrics):
            raise GridError(
                "until-ci needs a metric (ci-metric: a key of the programs' records, or several "
                f"separated by commas); got {self.metric!r}"
            )

    @property
    def metrics(self) -> tuple[str, ...]:
        """The record keys the interval is tightened for."""
        return tuple(name.strip() for name in self.metric.split(","))


@dataclass(frozen=True)
class PointSample:
    """What a point's runs say of the metric so far."""

    key: PointKey
    #: Its parameters, as its grid gives them.
    params: tuple[tuple[str, Value], ...]
    #: The runs it has (RngRun 1..runs).
    runs: int
    #: The metric of its successful runs.
    values: tuple[float, ...]

    @property
    def mean(self) -> float:
        return math.fsum(self.values) / len(self.values) if self.values else math.nan

    @property
    def sd(self) -> float:
        n = len(self.values)
        if n < 2:
            return math.nan
        mean = self.mean
        return math.sqrt(math.fsum((v - mean) ** 2 for v in self.values) / (n - 1))

    def half_width(self) -> float:
        """The 95 % Student-t half-width of the mean (NaN below two values)."""
        from .stats import t_quantile  # noqa: PLC0415 - scipy, only when asked

        n = len(self.values)
        return math.nan if n < 2 else t_quantile(n) * self.sd / math.sqrt(n)

    def is_tight(self, fraction: float) -> bool:
        half = self.half_width()
        if math.isnan(half):
            return False
        return half <= fraction * abs(self.mean) or (half == 0 and self.mean == 0)

    def looseness(self) -> float:
        """The half-width as a fraction of the mean (infinite where there is none)."""
        half = self.half_width()
        if math.isnan(half) or (self.mean == 0 and half != 0):
            return math.inf
        return 0.0 if half == 0 else half / abs(self.mean)


def samples(
    points: Sequence[Point], outcomes: Sequence[Outcome | None], metric: str
) -> list[PointSample]:
    """Each point's sample, in the order its first run appears."""
    runs: dict[PointKey, int] = {}
    params: dict[PointKey, tuple[tuple[str, Value], ...]] = {}
    values: dict[PointKey, list[float]] = {}
    for point, outcome in zip(points, outcomes, strict=True):
        key = (point.program, point.args)
        runs[key] = max(runs.get(key, 0), point.run)
        params.setdefault(key, point.params)
        values.setdefault(key, [])
        value = outcome.metrics.get(metric) if outcome and outcome.ok and outcome.metrics else None
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
            values[key].append(float(value))
    return [PointSample(key, params[key], runs[key], tuple(values[key])) for key in runs]


@dataclass(frozen=True)
class PointState:
    """A point's samples of each metric its runs report, loosest first."""

    #: At least one sample: a point whose runs report none of the metrics
    #: keeps an empty sample of the first.
    by_metric: tuple[tuple[str, PointSample], ...]

    @property
    def governing(self) -> tuple[str, PointSample]:
        """The metric furthest from tight, with its sample."""
        return self.by_metric[0]

    def runs_wanted(self, until: UntilCi) -> int:
        return max(runs_wanted(sample, until) for _, sample in self.by_metric)

    def is_tight(self, fraction: float) -> bool:
        return all(sample.is_tight(fraction) for _, sample in self.by_metric)


def point_states(
    points: Sequence[Point], outcomes: Sequence[Outcome | None], until: UntilCi
) -> list[PointState]:
    """Each point's state for every metric of ``until``, in the order its first run appears."""
    per_metric = [(name, samples(points, outcomes, name)) for name in until.metrics]
    states: list[PointState] = []
    for i in range(len(per_metric[0][1])):
        reported = [(name, found[i]) for name, found in per_metric if found[i].values]
        ordered = sorted(reported, key=lambda item: -item[1].looseness())
        first_name, first_samples = per_metric[0]
        states.append(PointState(tuple(ordered) or ((first_name, first_samples[i]),)))
    return states


def runs_wanted(sample: PointSample, until: UntilCi) -> int:
    """The runs ``sample``'s point should have next (its runs now if it is done)."""
    if sample.runs == 1 or sample.runs >= until.max_runs or sample.is_tight(until.fraction):
        return sample.runs
    n = len(sample.values)
    if n < 2 or sample.mean == 0:
        return sample.runs + 1  # nothing to project from: one more
    from .stats import t_quantile  # noqa: PLC0415 - scipy, only when asked

    failed = sample.runs - n
    target = until.fraction * abs(sample.mean)
    for wanted in range(n + 1, until.max_runs - failed + 1):
        if t_quantile(wanted) * sample.sd / math.sqrt(wanted) <= target:
            return min(wanted + failed, until.max_runs)
    return until.max_runs


def more_runs(
    points: Sequence[Point], outcomes: Sequence[Outcome | None], until: UntilCi
) -> list[Grid]:
    """One-point grids that give the points not tight yet the runs they want."""
    grids: list[Grid] = []
    for state in point_states(points, outcomes, until):
        _, sample = state.governing
        wanted = state.runs_wanted(until)
        if wanted > sample.runs:
            grids.append(Grid(sample.key[0], dict(sample.params), {}, wanted, name="until-ci"))
    return grids


def runs_per_point(
    points: Sequence[Point], outcomes: Sequence[Outcome | None], until: UntilCi
) -> pd.DataFrame:
    """One row a point: its parameters, ``runs``, and for its loosest metric
    (``metric``) ``n`` (successful runs), ``mean`` and ``ci95``; ``tight``:
    every metric's interval reached the fraction (False where ``max_runs``
    stopped it, or a one-run grid)."""
    rows = []
    for state in point_states(points, outcomes, until):
        metric, sample = state.governing
        rows.append(
            {
                "program": sample.key[0],
                **dict(sample.params),
                "runs": sample.runs,
                "metric": metric,
                "n": len(sample.values),
                "mean": sample.mean,
                "ci95": sample.half_width(),
                "tight": state.is_tight(until.fraction),
            }
        )
    return pd.DataFrame(rows)


def summary_line(table: pd.DataFrame, until: UntilCi) -> str:
    """One line: how many runs the points needed, how many are tight."""
    if table.empty:
        return "until-ci: no points"
    runs = table["runs"]
    loose = int((~table["tight"].astype(bool)).sum())
    return (
        f"until-ci ({until.metric} within {until.fraction:g} of the mean): {len(table)} points, "
        f"{int(runs.min())} to {int(runs.max())} runs a point (median {runs.median():g}); "
        f"{loose} not tight (one-run grids, or stopped at {until.max_runs} runs): "
        "runs-per-point.csv"
    )
