"""bench/window_cost.py: its windows, its table, and one short run of it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
import measured_run  # noqa: E402
import window_cost  # noqa: E402


def test_the_windows_are_the_issues() -> None:
    assert [b.window for b in window_cost.BOTTLENECKS] == [417, 3333, 16667, 66667]
    assert window_cost.BOTTLENECKS[2].label == "1 Gbit/s x 200 ms"


def test_simulated_time_covers_slow_start_and_the_round_trips() -> None:
    small, _, _, large = window_cost.BOTTLENECKS
    assert window_cost.simulated_seconds(small, 40) == 10.0
    # 66 667 packets: 17 round trips of slow start, then 40, at 800 ms.
    assert window_cost.simulated_seconds(large, 40) == pytest.approx(57 * 0.8)


def test_the_table_gives_each_cost_and_its_ratio_to_the_first_row() -> None:
    cost = measured_run.Cost
    lines = window_cost.table(
        {"rudp": [cost(1.0, 100_000), cost(3.0, 200_000)], "tcp": [cost(2.0, 100_000), None]}
    )
    assert len(lines) == 3
    assert lines[1].split()[-4:] == ["10.0", "1.00", "20.0", "1.00"]
    assert lines[2].split()[-4:] == ["15.0", "1.50", "(not", "run)"]


def test_a_short_run_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert window_cost.main(["--max-window", "417", "--rtts", "1", "--tcp-max-window", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[:2] == ["bottleneck", "window"]
    row = out[2].split()
    assert row[:5] == ["100", "Mbit/s", "x", "50", "ms"]
    assert row[5] == "417" and float(row[6]) > 0 and row[7] == "1.00"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--rtts", "0"], "--rtts: at least 1"),
        (["--max-window", "10"], "--max-window: at least 417"),
    ],
)
def test_bad_arguments_exit_2_naming_the_option(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        window_cost.main(argv)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
