"""A sweep starts its longest runs first (rudp.sweep.schedule)."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any

import pytest

from rudp.runner import Value
from rudp.sweep import Grid, plan, run_sweep
from rudp.sweep import manager as manager_module
from rudp.sweep.execute import Outcome
from rudp.sweep.grid import Point
from rudp.sweep.pool import run_local
from rudp.sweep.schedule import (
    SECONDS_PER_PACKET,
    bits_per_second,
    estimated_seconds,
    longest_first,
    seconds,
    work,
)


def point(program: str, run: int = 1, **params: Value) -> Point:
    return Point(program, tuple(sorted(params.items())), run)


def ran(p: Point, wall: float) -> Outcome:
    return Outcome(point=p, command="", metrics={}, seconds=wall, cached=True)


def test_times_and_rates_read_as_the_programs_take_them() -> None:
    assert seconds(600) == 600.0
    assert seconds("50ms") == pytest.approx(0.05)
    assert seconds("1.5s") == 1.5
    assert bits_per_second("100Mbps") == 1e8
    assert bits_per_second(2e6) == 2e6
    for bad in ("5 parsecs", "fast", ""):
        with pytest.raises(ValueError):
            seconds(bad)
    with pytest.raises(ValueError):
        bits_per_second("10MB")


def test_work_grows_with_simulated_time_rate_and_tcp_window() -> None:
    cc = "rudp-cc-comparison"
    full = point(cc, duration=600, rate="100Mbps", flows="cubic@400ms", transport="tcp")
    short_rtt = point(cc, duration=600, rate="100Mbps", flows="cubic@50ms", transport="tcp")
    over_rudp = point(cc, duration=600, rate="100Mbps", flows="cubic@400ms", transport="rudp")
    quick = point(cc, duration=20, rate="100Mbps", flows="cubic@400ms", transport="tcp")
    lossy = point(cc, duration=600, rate="10Mbps", flows="cubic@50ms", transport="tcp")
    costs = [work(p) for p in (full, short_rtt, over_rudp, quick, lossy)]
    assert all(c is not None for c in costs)
    assert costs == sorted(costs, reverse=True)  # type: ignore[type-var]
    assert work(point("rudp-cmt", paths=4)) == pytest.approx(2 * work(point("rudp-cmt", paths=2)))  # type: ignore[operator]
    assert work(point("rudp-test-files")) is None  # no model: no estimate
    assert work(point(cc, duration="soon")) is None  # the program will refuse it


def test_a_cached_run_of_the_same_point_is_the_estimate() -> None:
    a1, a2 = point("rudp-cmt", 1, paths=2), point("rudp-cmt", 2, paths=2)
    b1 = point("rudp-cmt", 1, paths=4)
    estimates = estimated_seconds([a1, a2, b1], [ran(a1, 3.0), None, None])
    # a2 as a1 took; b1 scaled from a1's seconds per unit of work (twice the work).
    assert estimates == pytest.approx([3.0, 3.0, 6.0])


def test_without_measurements_the_default_cost_per_packet() -> None:
    p = point("rudp-tcp-vs-udp", packets=5000)
    assert estimated_seconds([p], [None]) == [pytest.approx(5000 * SECONDS_PER_PACKET)]


def test_longest_first_keeps_the_grids_order_among_equals_and_unknowns_last() -> None:
    points = [
        point("rudp-test-files"),  # unknown
        point("rudp-tcp-vs-udp", packets=10),
        point("rudp-tcp-vs-udp", packets=1000),
        point("rudp-transport-cost"),  # unknown
        point("rudp-tcp-vs-udp", 2, packets=10),
    ]
    assert longest_first(points, range(5), [None] * 5) == [2, 1, 4, 0, 3]
    assert longest_first(points, [0, 1, 4], [None] * 5) == [1, 4, 0]


@pytest.mark.programs("rudp-file-transfer")
def test_a_sweep_starts_its_longest_runs_first_and_files_rows_in_grid_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[Point] = []

    def recording(
        points: Sequence[Point], *args: Any, **kwargs: Any
    ) -> Generator[tuple[int, Outcome], None, None]:
        started.extend(points)
        yield from run_local(points, *args, **kwargs)

    monkeypatch.setattr(manager_module, "run_local", recording)
    grid = Grid("rudp-file-transfer", {}, {"size": [20000, 200000, 50000]}, 1)
    frame = run_sweep(grid, out=tmp_path, jobs=1, progress=False, report=False)
    assert [dict(p.params)["size"] for p in started] == [200000, 50000, 20000]
    assert list(frame["size"]) == [20000, 200000, 50000]
    assert (frame["status"] == "ok").all()


def test_the_seed003_preset_starts_with_its_600s_high_bdp_tcp_runs() -> None:
    the_plan = plan("seed003")
    points = the_plan.points()
    order = longest_first(points, range(len(points)), [None] * len(points))
    first = dict(points[order[0]].params)
    assert first["transport"] == "tcp" and first["rate"] == "100Mbps"
    assert "400ms" in str(first["flows"])
    last = dict(points[order[-1]].params)
    assert last["rate"] == "10Mbps"
