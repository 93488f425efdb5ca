"""bench/many_flows.py: its table, its verdicts, its profile's parsing, and one short run."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
import many_flows  # noqa: E402


def row(transport: str, flows: int, cpu_s: float, peak_mb: float) -> many_flows.Row:
    total = 100_000_000
    return many_flows.Row(transport, flows, total // flows, cpu_s, total, peak_mb, 2_000_000, flows)


def test_the_table_gives_cpu_per_byte_memory_per_connection_and_events() -> None:
    rows = [row("rudp", 1000, 10.0, 60.0), row("rudp", 20000, 15.0, 400.0)]
    lines = many_flows.table(rows, {"rudp": 40.0})
    assert lines[0].split() == [
        "transport",
        "flows",
        "kB/flow",
        "concurrent",
        "CPU",
        "s",
        "ns/B",
        "x",
        "peak",
        "MB",
        "kB/conn",
        "Mevents",
        "Mev/CPU-s",
    ]
    # 10 s for 100 MB: 100 ns a byte; (60 - 40) MiB over 1000 connections: 20.5 KiB each.
    assert lines[1].split()[:8] == ["RUDP", "1000", "100", "1000", "10.0", "100.0", "1.00", "60"]
    assert lines[1].split()[8:] == ["20.5", "2.00", "0.20"]
    assert lines[2].split()[:7] == ["RUDP", "20000", "5", "20000", "15.0", "150.0", "1.50"]
    assert lines[2].split()[8] == "18.4"  # (400 - 40) MiB / 20000


def test_the_verdicts_judge_rudp_against_itself_and_against_tcp() -> None:
    rows = [
        row("rudp", 1000, 10.0, 60.0),
        row("tcp", 1000, 10.0, 60.0),
        row("rudp", 20000, 16.0, 240.0),
        row("tcp", 20000, 20.0, 440.0),
    ]
    lines = many_flows.verdicts(rows, {"rudp": 40.0, "tcp": 40.0})
    assert lines == [
        " MISSED  RUDP at 20000 flows <= 1.5 x its CPU per byte at 1000: 1.60",
        "    met  RUDP at 20000 flows <= TCP's CPU per byte: 0.80",
        "    met  RUDP at 20000 flows <= TCP's memory per connection: 0.50",
    ]
    assert many_flows.verdicts([row("tcp", 1000, 1.0, 50.0)], {"tcp": 40.0}) == []


ANNOTATED = """\
--------------------------------------------------------------------------------
Ir
--------------------------------------------------------------------------------
2,000,000 (100.0%)  PROGRAM TOTALS

--------------------------------------------------------------------------------
Ir                 file:function
--------------------------------------------------------------------------------
860,000 (43.00%)  ???:ns3::Ipv4EndPoint::IsRxEnabled() [/x/libns3.44-internet.so]
380,000 (19.00%)  ./model/ipv4-end-point-demux.cc:ns3::Ipv4EndPointDemux::Lookup(...) [/y]
100,000 ( 5.00%)  ns3::RudpEndpoint::Deliver(ns3::Ptr<ns3::Packet>, ns3::Address const&)
"""


def test_the_profile_lists_each_function_with_its_share() -> None:
    assert many_flows.top_functions(ANNOTATED, 2) == [
        (43.0, "ns3::Ipv4EndPoint::IsRxEnabled()"),
        (19.0, "ns3::Ipv4EndPointDemux::Lookup(...)"),
    ]
    assert many_flows.top_functions(ANNOTATED, 5)[2] == (
        5.0,
        "ns3::RudpEndpoint::Deliver(ns3::Ptr<ns3::Packet>, ns3::Address const&)",
    )


def test_the_flow_counts_are_increasing_numbers() -> None:
    assert many_flows.flow_counts("1000,5000,20000") == [1000, 5000, 20000]
    for bad in ["5000,1000", "0,10", "10,10", "ten"]:
        with pytest.raises(ValueError):
            many_flows.flow_counts(bad)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--flows", "20000,1000"], "--flows: increasing numbers in [1, 1000000]"),
        (["--transports", "rudp,quic"], "--transports: allowed a list of rudp, tcp, rudp-cmt"),
        (["--transports", "tcp,tcp"], "--transports: allowed a list of"),
        (["--flows", "10", "--total-bytes", "9"], "--total-bytes: at least one byte per flow"),
        (["--flow-bytes", "0"], "--flow-bytes: at least 1"),
        (["--flow-bytes", "5", "--total-bytes", "9"], "not allowed with argument"),
        (["--repeat", "0"], "--repeat: at least 1"),
        (["--profile-flows", "0"], "--profile-flows: from 1 to --profile-bytes"),
        (["--top", "0"], "--top: at least 1"),
    ],
)
def test_bad_arguments_exit_2_naming_the_option(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        many_flows.main(argv)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_a_profile_without_valgrind_exits_2_naming_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("shutil.which", lambda name: None)
    with pytest.raises(SystemExit) as stop:
        many_flows.main(["--profile"])
    assert stop.value.code == 2
    assert "--profile, --instructions: need valgrind" in capsys.readouterr().err


def test_each_flow_moves_its_share_or_the_bytes_asked() -> None:
    shared = many_flows.parse(["--total-bytes", "1000000"])[0]
    assert many_flows.bytes_per_flow(shared, 1000) == 1000
    fixed = many_flows.parse(["--flow-bytes", "5000"])[0]
    assert many_flows.bytes_per_flow(fixed, 1000) == 5000
    assert many_flows.bytes_per_flow(fixed, 20000) == 5000


@pytest.mark.programs("rudp-many-flows")
def test_a_short_run_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--flows", "10,40", "--total-bytes", "400000"]
    assert many_flows.main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[:2] == ["transport", "flows"]
    names = [line.split()[:2] for line in out[2:6]]
    assert names == [["RUDP", "10"], ["TCP", "10"], ["RUDP", "40"], ["TCP", "40"]]
    assert out[2].split()[6] == "1.00" and out[3].split()[6] == "1.00"
    assert int(out[4].split()[3]) > 1  # the flows overlapped
    assert "RUDP at 40 flows <= 1.5 x its CPU per byte at 10" in out[7]
