"""bench/peer_speed.py: its tables, the packets it counts, its options, and one short run."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rudp.ns2 import Point, driver
from rudp.ns2.compare import QUICK_POINTS

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
import peer_speed  # noqa: E402

#: A FlowMonitor record of two paths, in the form ns-3 writes it (trimmed).
FLOWS = """<?xml version="1.0" ?>
<FlowMonitor>
  <FlowStats>
    <Flow flowId="1" txBytes="1516000" txPackets="1000" rxPackets="990" />
    <Flow flowId="2" txBytes="24000" txPackets="500" rxPackets="500" />
    <Flow flowId="3" txBytes="758000" txPackets="500" rxPackets="495" />
    <Flow flowId="4" txBytes="14000" txPackets="250" rxPackets="250" />
  </FlowStats>
  <Ipv4FlowClassifier>
    <Flow flowId="1" sourceAddress="10.1.1.1" destinationAddress="10.1.1.2" protocol="17"
          sourcePort="49153" destinationPort="5000" />
    <Flow flowId="2" sourceAddress="10.1.1.2" destinationAddress="10.1.1.1" protocol="17"
          sourcePort="5000" destinationPort="49153" />
    <Flow flowId="3" sourceAddress="10.2.1.1" destinationAddress="10.2.1.2" protocol="17"
          sourcePort="49153" destinationPort="5000" />
    <Flow flowId="4" sourceAddress="10.2.1.2" destinationAddress="10.2.1.1" protocol="17"
          sourcePort="5000" destinationPort="49153" />
  </Ipv4FlowClassifier>
</FlowMonitor>
"""


def test_the_flows_give_each_paths_packets_each_way_and_their_udp_payload() -> None:
    counts = peer_speed.flow_counts(FLOWS, 2)
    assert counts.data == [1000, 500] and counts.acks == [500, 250]
    # 2 274 000 bytes in 1 500 packets: 1 516 a packet, less the IPv4 and UDP headers
    assert counts.data_size == 1516 - 28
    assert counts.ack_size == round(38000 / 750) - 28


def test_a_flow_off_the_paths_or_no_sack_is_refused() -> None:
    with pytest.raises(ValueError, match="on none of the 1 paths"):
        peer_speed.flow_counts(FLOWS, 1)
    one_way = FLOWS.replace('sourcePort="5000"', 'sourcePort="6000"')
    one_way = one_way.replace('destinationPort="49153"', 'destinationPort="5000"')
    with pytest.raises(ValueError, match="no data or no SACK"):
        peer_speed.flow_counts(one_way, 2)


def test_the_floor_carries_the_counted_packets_over_the_points_links() -> None:
    counts = peer_speed.FlowCounts([1000, 500], [500, 250], 1488, 23)
    options = peer_speed.floor_options(Point(2, 140, 0.03, 16384), counts, 200)
    assert options == [
        "--paths=2",
        "--rtt=140ms",
        "--loss=0.03",
        "--queue=ns2",
        "--duration=200s",
        "--data=1000,500",
        "--acks=500,250",
        "--data-size=1488",
        "--ack-size=23",
    ]


def test_rudp_cmt_runs_with_the_ns2_defaults_at_the_point() -> None:
    options = peer_speed.cmt_options(Point(3, 100, 0.05, 1 << 28), 11, 200, 20)
    assert "--ns2-defaults=true" in options or "--ns2-defaults=1" in options
    assert {"--paths=3", "--rtt=100ms", "--loss=0.05", f"--rbuf={1 << 28}"} <= set(options)
    assert {"--duration=200s", "--warmup=20s", "--RngRun=11", "--mss=1468"} <= set(options)


def test_the_table_gives_each_cost_and_its_ratios() -> None:
    rows = [peer_speed.CpuRow("2/100/0.01/2^28", 0.25, 0.5, 3.25, 0.4)]
    lines = peer_speed.table(rows, "paths/RTT/p/rbuf")
    assert lines[1].split() == [
        "paths/RTT/p/rbuf",
        "ns-2",
        "s",
        "before",
        "s",
        "x",
        "ns-2",
        "rudp",
        "s",
        "x",
        "ns-2",
        "floor",
        "s",
        "x",
        "floor",
    ]
    assert lines[3].split() == [
        "2/100/0.01/2^28",
        "0.25",
        "3.25",
        "13.00",
        "0.50",
        "2.00",
        "0.40",
        "1.25",
    ]
    assert lines[0] == lines[2] == lines[-1] and set(lines[0]) == {"=", " "}
    plain = peer_speed.table([peer_speed.CpuRow("50/0.01", 1.0, 1.5)], "RTT/p")
    assert plain[3].split() == ["50/0.01", "1.00", "1.50", "1.50"]


def test_the_instruction_table_gives_each_count_against_the_floor() -> None:
    rows = [peer_speed.CpuRow("1/120/0.01/16384", 0.0, 1.5, 3.0, 1.2)]
    lines = peer_speed.count_table(rows, "paths/RTT/p/rbuf")
    header = "paths/RTT/p/rbuf  floor G  before G  x floor  rudp G  x floor"
    assert lines[1].split() == header.split()
    assert lines[3].split() == ["1/120/0.01/16384", "1.20", "3.00", "2.50", "1.50", "1.25"]


def test_the_verdicts_name_the_worst_point() -> None:
    rows = [
        peer_speed.CpuRow("a", 1.0, 2.0, None, 1.5),
        peer_speed.CpuRow("b", 1.0, 3.5, None, 1.5),
    ]
    met_ns2, missed_floor = peer_speed.verdicts(rows)
    assert met_ns2.split()[0] == "MISSED" and "worst 3.50 (b)" in met_ns2
    assert missed_floor.split()[0] == "MISSED" and "worst 2.33 (b)" in missed_floor
    (met,) = peer_speed.verdicts([peer_speed.CpuRow("a", 1.0, 2.0)])
    assert met.split()[0] == "met"


def test_a_copied_build_finds_its_libraries(tmp_path: Path) -> None:
    for folder in ("bin", "lib", "ns3-lib64"):
        (tmp_path / folder).mkdir()
    build = peer_speed.CopiedBuild(tmp_path)
    loader = build.environment({})["LD_LIBRARY_PATH"].split(":")
    assert loader == [str(tmp_path / "lib"), str(tmp_path / "ns3-lib64")]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--repeat", "0"], "--repeat: at least 1"),
        (["--seed", "0"], "--seed: at least 1"),
        (["--duration", "20"], "--warmup: allowed [0, --duration)"),
        (["--paths", "2,5"], "--paths: '2,5': allowed numbers of 1..4"),
        (["--before", "/nonexistent"], "--before: /nonexistent has no bin/rudp-cmt"),
        (["--ns3-build", "/nonexistent"], "--ns3-build: /nonexistent: no such folder"),
    ],
)
def test_bad_arguments_exit_2_naming_the_option(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert peer_speed.main(argv) == 2
    assert message in capsys.readouterr().err


def test_instructions_without_valgrind_exit_2_naming_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("shutil.which", lambda name: None)
    assert peer_speed.main(["--instructions"]) == 2
    assert "--instructions: needs valgrind" in capsys.readouterr().err


def test_without_ns2_it_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(driver, "ns_program", lambda: None)
    assert peer_speed.main(["--quick"]) == 1
    assert "scripts/install-ns2.sh" in capsys.readouterr().err


@pytest.mark.usefixtures("ns2")
@pytest.mark.programs("rudp-cmt", "rudp-udp-floor", "rudp-cc-comparison")
def test_a_short_run_prints_both_tables(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--quick", "--paths", "1", "--duration", "4", "--warmup", "1"]
    assert peer_speed.main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2].split()[:3] == ["paths/RTT/p/rbuf", "ns-2", "s"]
    cmt_rows = out[4:10]
    assert [row.split()[0] for row in cmt_rows] == [
        f"{p.label()}/{'2^28' if p.rbuf == 1 << 28 else p.rbuf}"
        for p in QUICK_POINTS
        if p.paths == 1
    ]
    assert all(float(value) > 0 for row in cmt_rows for value in row.split()[1:])
    assert out[11].split()[0] in {"met", "MISSED"} and out[12].split()[0] in {"met", "MISSED"}
    tcp_header = next(i for i, line in enumerate(out) if line.startswith("RTT/p"))
    tcp_rows = out[tcp_header + 2 : tcp_header + 2 + len(peer_speed.TCP_POINTS)]
    assert [row.split()[0] for row in tcp_rows] == [
        f"{rtt}/{loss:g}" for rtt, loss in peer_speed.TCP_POINTS
    ]
    assert all(float(value) > 0 for row in tcp_rows for value in row.split()[1:])
