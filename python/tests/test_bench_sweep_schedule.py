"""bench/sweep_schedule.py: a sweep's measured runs replayed in three orders."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
import sweep_schedule  # noqa: E402

from rudp.sweep.grid import Point  # noqa: E402
from rudp.sweep.schedule import makespan  # noqa: E402


def test_makespan_starts_each_run_on_the_first_free_worker() -> None:
    durations = [1.0, 1.0, 1.0, 3.0]
    assert makespan(durations, [0, 1, 2, 3], 2) == 4.0  # the long one starts last
    assert makespan(durations, [3, 0, 1, 2], 2) == 3.0  # longest first
    assert makespan(durations, [3, 0, 1, 2], 1) == 6.0
    with pytest.raises(ValueError, match="workers"):
        makespan(durations, [0], 0)


def test_pauses_are_the_stop_to_cont_spans(tmp_path: Path) -> None:
    log = tmp_path / "pauses"
    log.write_text("stop 100 10:00 pids: 1\ncont 130 10:00\nsegment2-start 200\nstop 300\n")
    assert sweep_schedule.pauses(log) == [(100.0, 130.0)]
    assert sweep_schedule.pauses(None) == []


def write_run(
    cache: Path, name: str, flows: str, *, seconds: float, end: float, run: int = 1
) -> None:
    # A high-BDP point of the seed003 preset.
    params = [["duration", 600], ["flows", flows], ["loss", 0], ["queue", "bfifo"]]
    params += [["rate", "100Mbps"], ["transport", "tcp"], ["warmup", 10]]
    record = {"program": "rudp-cc-comparison", "params": params, "run": run, "seconds": seconds}
    file = cache / f"{name}.json"
    file.write_text(json.dumps(record))
    os.utime(file, (end, end))


def test_a_paused_run_is_measured_without_its_pause(tmp_path: Path) -> None:
    write_run(tmp_path, "a", "cubic@50ms", seconds=100.0, end=1000.0)  # ran 900-1000
    runs = sweep_schedule.measured(tmp_path, [(950.0, 970.0), (2000.0, 2100.0)])
    assert list(runs.values()) == [pytest.approx(80.0)]


def test_until_ci_runs_come_in_rounds_after_the_planned_ones() -> None:
    def p(flows: str, run: int) -> Point:
        return Point("x", (("flows", flows),), run)

    planned = [p("a", 1), p("b", 1), p("c", 1)]
    runs = {p("b", 1): 1.0, p("a", 1): 2.0, p("b", 2): 3.0, p("a", 2): 4.0, p("a", 3): 5.0}
    assert sweep_schedule.rounds(planned, runs) == [
        [p("a", 1), p("b", 1)],
        [p("a", 2), p("b", 2)],
        [p("a", 3)],
    ]


def test_the_replay_prints_the_three_orders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_run(tmp_path, "a", "newreno@400ms", seconds=300.0, end=1000.0)
    write_run(tmp_path, "b", "newreno@50ms", seconds=100.0, end=1000.0)
    assert sweep_schedule.main(["--preset", "seed003", "--cache", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("2 runs in 1 round(s), 400 s of run time; on 2 workers at best 200 s")
    assert [line.split()[-4] for line in out[1:]] == ["300", "300", "300"]


def test_a_bad_argument_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        sweep_schedule.main(["--cache", str(tmp_path / "none")])
    assert exit_info.value.code == 2
    assert "--cache" in capsys.readouterr().err


def test_no_worker_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        sweep_schedule.main(["--cache", str(tmp_path), "--jobs", "0"])
    assert exit_info.value.code == 2
    assert "--jobs: 0 is out of range" in capsys.readouterr().err
