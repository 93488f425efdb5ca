"""bench/rfc6356_goals.py: its verdicts, its table, and one short run of it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
import rfc6356_goals  # noqa: E402

Cell = rfc6356_goals.Cell
Row = rfc6356_goals.Row


def test_a_cell_gives_the_mean_and_the_spread_of_its_runs() -> None:
    assert Cell([1.0, 1.2, 1.4]).text() == "1.20 (1.00-1.40)"
    assert Cell([0.95]).text() == "0.95"


def test_goal_two_is_judged_for_lia_and_olia_behind_the_queues_it_can_be_met_behind() -> None:
    queues = ["default", "fifo1", "red"]
    rows = [
        Row("uncoupled", 1, "equal", [Cell([2.3]), Cell([2.0]), Cell([2.1])]),
        Row("lia", 1, "equal", [Cell([1.9]), Cell([1.2]), Cell([1.35])]),
        Row("olia", 1, "equal", [Cell([1.9]), Cell([0.7]), Cell([1.1])]),
        Row("olia", 3, "unequal", [Cell([1.9]), Cell([1.0]), Cell([1.31])]),
    ]
    lines = rfc6356_goals.verdicts(rows, queues)
    assert lines[0].split()[:3] == ["n/a", "behind", "default:"]
    missed = [line for line in lines if line.startswith("MISSED")]
    assert missed == [
        "MISSED  lia with 1 TCP, RTTs 48/48 ms, behind red: 1.35 (goal 0.8-1.3)",
        "MISSED  olia with 1 TCP, RTTs 48/48 ms, behind fifo1: 0.70 (goal 0.8-1.3)",
        "MISSED  olia with 3 TCP, RTTs 48/96 ms, behind red: 1.31 (goal 0.8-1.3)",
    ]
    met = rfc6356_goals.verdicts(
        [Row("lia", 1, "equal", [Cell([1.9]), Cell([1.0]), Cell([1.1])])], queues
    )
    assert met[-1] == "  met  LIA within 0.8-1.3 x a TCP flow behind fifo1, red"


def test_goal_two_is_judged_for_every_coupled_coupling_and_named() -> None:
    queues = ["fifo1", "red"]
    rpv2 = rfc6356_goals.verdicts([Row("rpv2", 3, "equal", [Cell([1.4]), Cell([1.2])])], queues)
    assert rpv2 == ["MISSED  rpv2 with 3 TCP, RTTs 48/48 ms, behind fifo1: 1.40 (goal 0.8-1.3)"]
    both = rfc6356_goals.verdicts(
        [
            Row("olia", 3, "equal", [Cell([1.1]), Cell([1.2])]),
            Row("rpv2", 3, "equal", [Cell([1.2]), Cell([1.0])]),
        ],
        queues,
    )
    assert both == ["  met  OLIA, RPV2 within 0.8-1.3 x a TCP flow behind fifo1, red"]
    uncoupled = [Row("uncoupled", 1, "equal", [Cell([2.0]), Cell([2.1])])]
    assert rfc6356_goals.verdicts(uncoupled, queues) == []


def test_a_short_run_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--runs", "2", "--duration", "4", "--warmup", "2", "--couplings", "lia"]
    assert rfc6356_goals.main([*argv, "--queues", "fifo1,red", "--flows", "1", "--jobs", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "newreno TCP" in out[0]
    assert out[1].split() == ["coupling", "TCP", "RTTs", "fifo1", "red"]
    assert out[2].split()[:4] == ["one", "path", "1", "48"]
    lia = out[3].split()
    assert lia[:3] == ["lia", "1", "48/48"] and float(lia[3]) > 0
    unequal = out[4].split()
    assert unequal[:3] == ["lia", "1", "48/96"] and float(unequal[3]) > 0
    assert out[-1].startswith(("  met", "MISSED"))


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--runs", "0"], "--runs: at least 1"),
        (["--jobs", "0"], "--jobs: at least 1"),
        (["--warmup", "10", "--duration", "5"], "--warmup: at least 0 and less than --duration"),
        (["--queues", "fifo7"], "--queues: fifo7; allowed:"),
        (["--rtts", "equal,skewed"], "--rtts: skewed; allowed: equal,unequal"),
        (["--tcp", "cubic"], "--tcp: cubic; allowed: newreno,rfc5681-reno,linux-reno"),
    ],
)
def test_bad_arguments_exit_2_naming_the_option(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        rfc6356_goals.main(argv)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
