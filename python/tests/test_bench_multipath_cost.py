"""bench/multipath_cost.py: its table, and one short run of it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
import measured_run  # noqa: E402
import multipath_cost  # noqa: E402


def test_the_table_gives_each_cost_and_its_ratio_to_one_path() -> None:
    cost = measured_run.Cost
    lines = multipath_cost.table([cost(1.0, 100_000), cost(3.0, 200_000)])
    assert lines[1].split() == ["1", "100000", "10.0", "1.00"]
    assert lines[2].split() == ["2", "200000", "15.0", "1.50"]


def test_the_socket_table_gives_each_cost_against_the_single_path_socket() -> None:
    cost = measured_run.Cost
    lines = multipath_cost.socket_table(cost(1.0, 100_000), [cost(1.2, 100_000)], [1.25])
    assert lines[0].split() == ["paths", "packets", "us/pkt", "x", "paired"]
    assert lines[1].split() == ["RUDP", "100000", "10.0", "1.00", "1.00"]
    assert lines[2].split() == ["1", "100000", "12.0", "1.20", "1.25"]


def test_callgrinds_count_is_read_from_its_summary_line() -> None:
    stderr = "==12== Events    : Ir\n==12== Collected : 1606870330\n==12== \n"
    assert measured_run.collected(stderr) == 1606870330
    with pytest.raises(RuntimeError, match="no instruction count"):
        measured_run.collected("==12== I   refs:      1,606,870,330\n")


def test_the_instruction_table_gives_each_count_against_the_single_path_socket() -> None:
    lines = multipath_cost.instruction_table((80_000.0, 14_289), [(104_000.0, 14_289)])
    assert lines[0].split() == ["paths", "packets", "instr/pkt", "x"]
    assert lines[1].split() == ["RUDP", "14289", "80000", "1.00"]
    assert lines[2].split() == ["1", "14289", "104000", "1.30"]


def test_instructions_without_valgrind_exit_2_naming_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("shutil.which", lambda name: None)
    with pytest.raises(SystemExit) as stop:
        multipath_cost.main(["--instructions"])
    assert stop.value.code == 2
    assert "--instructions: needs valgrind" in capsys.readouterr().err


def test_the_paths_are_alike_and_the_buffer_unbounded() -> None:
    options = multipath_cost.options(3, 100, 200, 30)
    assert "--paths=3" in options and "--rbuf=268435456" in options
    assert "--rate=100Mbps" in options and "--rtt=200ms" in options


@pytest.mark.programs("rudp-cmt", "rudp-transport-cost")
def test_a_short_run_prints_the_tables(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--max-paths", "2", "--repeat", "1", "--duration", "3", "--rate-mbps", "10"]
    assert multipath_cost.main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["paths", "packets", "us/pkt", "x"]
    one, two = out[2].split(), out[3].split()
    assert one[0] == "1" and one[3] == "1.00" and int(one[1]) > 0
    assert two[0] == "2" and int(two[1]) > int(one[1])
    sockets = out[out.index("paths     packets    us/pkt      x  paired", 4) :]
    assert sockets[1].split()[0] == "RUDP" and sockets[1].split()[3:] == ["1.00", "1.00"]
    assert [row.split()[0] for row in sockets[2:4]] == ["1", "2"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--repeat", "0"], "--repeat: at least 1"),
        (["--max-paths", "9"], "--max-paths: allowed [1, 8]"),
        (["--duration", "1"], "--duration: more than the 1 s warm-up"),
    ],
)
def test_bad_arguments_exit_2_naming_the_option(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        multipath_cost.main(argv)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
