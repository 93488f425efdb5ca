"""--until-ci: runs added to each point until its interval is tight (rudp.sweep.until)."""

from __future__ import annotations

import inspect
import math
from pathlib import Path

import pandas as pd
import pytest

from rudp.sweep import Grid, GridError, run_sweep
from rudp.sweep.cli import COMMANDS, main, parser, sweep_arguments
from rudp.sweep.execute import Outcome
from rudp.sweep.grid import Point
from rudp.sweep.manager import plan
from rudp.sweep.presets import PRESETS
from rudp.sweep.stats import t_quantile
from rudp.sweep.until import (
    PointSample,
    UntilCi,
    more_runs,
    point_states,
    runs_wanted,
    samples,
)

PROGRAM = "rudp-file-transfer"


def sample(values: list[float], runs: int | None = None) -> PointSample:
    return PointSample(("p", ()), (), runs or len(values), tuple(values))


@pytest.mark.parametrize(
    ("fraction", "max_runs", "metric"),
    [
        (0, 10, "m"),
        (1, 10, "m"),
        (math.nan, 10, "m"),
        (0.05, 1, "m"),
        (0.05, True, "m"),
        (0.05, 10, ""),
    ],
)
def test_nonsense_settings_are_refused(fraction: float, max_runs: int, metric: str) -> None:
    with pytest.raises(GridError):
        UntilCi(fraction, max_runs, metric)


def test_a_point_gets_the_runs_its_spread_needs() -> None:
    until = UntilCi(0.05, 10, "m")
    loose = sample([10.0, 10.1])  # two runs: t = 12.7, far too wide
    assert not loose.is_tight(0.05)
    wanted = runs_wanted(loose, until)
    assert wanted == 3  # the projection: 4.30 x 0.071 / sqrt(3) <= 0.5
    assert t_quantile(3) * loose.sd / math.sqrt(3) <= 0.05 * loose.mean


def test_tight_deterministic_capped_and_failed_points() -> None:
    until = UntilCi(0.05, 6, "m")
    assert runs_wanted(sample([10.0, 10.0]), until) == 2  # no spread: tight
    assert runs_wanted(sample([5.0]), until) == 1  # a one-run grid stays so
    assert runs_wanted(sample([1.0, 9.0, 2.0, 8.0, 3.0, 7.0]), until) == 6  # at max-runs
    assert runs_wanted(sample([1.0, 9.0]), until) == 6  # needs more than the cap allows
    assert runs_wanted(sample([10.0], runs=2), until) == 3  # one run failed: one more


def test_several_metrics_each_that_a_point_reports_must_be_tight() -> None:
    until = UntilCi(0.05, 10, "m, ratio")
    assert until.metrics == ("m", "ratio")
    one_flow = [Point(PROGRAM, (("flows", "a"),), run) for run in (1, 2, 3)]
    two_flows = [Point(PROGRAM, (("flows", "a,b"),), run) for run in (1, 2, 3)]
    outcomes: list[Outcome | None] = [
        *(Outcome(p, "", metrics={"m": 10.0}) for p in one_flow),
        *(
            Outcome(p, "", metrics={"m": 10.0, "ratio": r})
            for p, r in zip(two_flows, (1, 2, 3), strict=True)
        ),
    ]
    single, pair = point_states([*one_flow, *two_flows], outcomes, until)
    # No ratio in one-flow runs: the utilisation alone decides, and is tight.
    assert [name for name, _ in single.by_metric] == ["m"]
    assert single.is_tight(0.05) and single.runs_wanted(until) == 3
    # Two flows: the ratio is loose, so it governs and asks for runs up to the cap.
    assert pair.governing[0] == "ratio" and not pair.is_tight(0.05)
    assert pair.runs_wanted(until) == 10
    (grid,) = more_runs([*one_flow, *two_flows], outcomes, until)
    assert dict(grid.fixed) == {"flows": "a,b"} and grid.runs == 10
    # Runs reporting none of the metrics: a sample of the first, asking one more.
    nothing = [Outcome(p, "", metrics={"x": 1.0}) for p in one_flow]
    (silent,) = point_states(one_flow, list(nothing), until)
    assert silent.governing[0] == "m" and silent.runs_wanted(until) == 4


def test_a_preset_runs_until_tight_in_its_full_size_only() -> None:
    until = PRESETS["seed003"].until_ci
    assert until is not None and until.metrics == ("utilization", "throughput_ratio")
    assert plan("seed003", check=False).until_ci == until
    assert plan("seed003", quick=True, check=False).until_ci is None
    assert plan("seed003", runs=5, check=False).until_ci is None
    assert plan("seed000", check=False).until_ci is None


def test_failed_runs_and_other_metrics_are_not_in_the_sample() -> None:
    points = [Point(PROGRAM, (("loss", 0.1),), run) for run in (1, 2, 3)]
    outcomes: list[Outcome | None] = [
        Outcome(points[0], "", metrics={"m": 2.0}),
        Outcome(points[1], "", metrics={"m": 9.0, "ok": False}, error="exit status 1: failed"),
        Outcome(points[2], "", metrics={"other": 1.0}),
    ]
    (only,) = samples(points, outcomes, "m")
    assert only.runs == 3 and only.values == (2.0,)
    (grid,) = more_runs(points, outcomes, UntilCi(0.05, 5, "m"))
    assert grid.runs == 4 and dict(grid.fixed) == {"loss": 0.1}


@pytest.mark.programs(PROGRAM)
def test_a_sweep_adds_runs_until_each_point_is_tight_and_caches_them(tmp_path: Path) -> None:
    grid = Grid(PROGRAM, {"size": 20000}, {"loss": [0.0, 0.05]}, 2)
    until = UntilCi(0.05, 6, "transfer_time_s")
    frame = run_sweep(grid, out=tmp_path, jobs=2, progress=False, report=False, until_ci=until)
    table = pd.read_csv(tmp_path / "runs-per-point.csv")
    assert list(table["loss"]) == [0.0, 0.05]
    attrs = pd.DataFrame(frame.attrs["until_ci"])
    assert list(attrs["runs"]) == list(table["runs"])
    assert list(attrs["tight"]) == list(table["tight"])
    for row in table.itertuples():
        runs = frame[frame["loss"] == row.loss]
        assert len(runs) == row.runs and sorted(runs["run"]) == list(range(1, row.runs + 1))
        assert row.tight or row.runs == 6
        assert 2 <= row.runs <= 6
    assert frame.attrs["executed"] == len(frame)
    # Everything is cached: the same sweep runs nothing and gives the same rows.
    again = run_sweep(grid, out=tmp_path, jobs=2, progress=False, report=False, until_ci=until)
    assert again.attrs["executed"] == 0
    pd.testing.assert_frame_equal(again, frame)
    # The cached rounds make the report of a sweep that ran (--cached-only).
    cached = run_sweep(
        grid, out=tmp_path, progress=False, report=False, until_ci=until, cached_only=True
    )
    assert cached.attrs["missing"] == 0 and cached.attrs["until_ci"] == frame.attrs["until_ci"]
    pd.testing.assert_frame_equal(cached, frame)
    # Without a cache the rounds go the same way (the runs are deterministic).
    fresh = run_sweep(
        grid,
        out=tmp_path / "fresh",
        jobs=2,
        progress=False,
        report=False,
        until_ci=until,
        use_cache=False,
    )
    assert fresh.attrs["executed"] == len(frame)
    assert list(fresh["transfer_time_s"]) == list(frame["transfer_time_s"])


@pytest.mark.parametrize(
    "argv",
    [
        ["--until-ci", "0.05"],  # no metric
        ["--ci-metric", "utilization"],  # no --until-ci
        ["--until-ci", "1.5", "--ci-metric", "utilization"],
        ["--until-ci", "0.05", "--ci-metric", "utilization", "--max-runs", "1"],
        ["--until-ci", "0.05", "--ci-metric", "utilization,"],
    ],
)
def test_until_ci_options_that_make_no_sense_exit_2(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([PROGRAM, "--out", str(tmp_path), *argv]) == 2
    assert "error:" in capsys.readouterr().err


def test_every_argument_of_run_sweep_has_an_option() -> None:
    """The command line passes run_sweep's keyword arguments by their names:
    each one is an option's dest, so none is re-listed by hand or left out."""
    args = parser().parse_args(["seed003", "--no-cache", "--quiet", "--timeout", "5"])
    passed = sweep_arguments(args, {}, {})
    keywords = {
        name
        for name, parameter in inspect.signature(run_sweep).parameters.items()
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY
    }
    assert set(passed) == keywords
    assert passed["use_cache"] is False and passed["progress"] is False
    assert passed["timeout_s"] == 5 and passed["report"] is True and passed["fmt"] == "parquet"
    assert passed["until_ci"] is None  # the preset's own applies in run_sweep


def test_the_other_commands_are_listed_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = capsys.readouterr().out
    for name in COMMANDS:
        assert f"  {name} " in shown
    assert "seed003" in shown and "within 0.05 of the mean" in shown
