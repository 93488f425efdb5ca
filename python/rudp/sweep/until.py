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
        if not self.metric:
            raise GridError("until-ci needs a metric (ci-metric: a key of the programs' records)")


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
    for sample in samples(points, outcomes, until.metric):
        wanted = runs_wanted(sample, until)
        if wanted > sample.runs:
            grids.append(Grid(sample.key[0], dict(sample.params), {}, wanted, name="until-ci"))
    return grids


def runs_per_point(
    points: Sequence[Point], outcomes: Sequence[Outcome | None], until: UntilCi
) -> pd.DataFrame:
    """One row a point: its parameters, ``runs``, ``n`` (successful runs),
    ``mean`` and ``ci95`` of the metric, and ``tight`` (the interval reached
    the fraction; False where ``max_runs`` stopped it, or a one-run grid)."""
    rows = [
        {
            "program": sample.key[0],
            **dict(sample.params),
            "runs": sample.runs,
            "n": len(sample.values),
            "mean": sample.mean,
            "ci95": sample.half_width(),
            "tight": sample.is_tight(until.fraction),
        }
        for sample in samples(points, outcomes, until.metric)
    ]
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
