"""Tracing a user expects: pcap files, FlowMonitor's XML and the congestion window.

Every scenario program takes ``--pcap=PREFIX`` and ``--flowmon-xml=FILE``
(``RudpTraceOptions``), ``rudp-file-transfer`` also ``--cwnd-trace=FILE``
(``RudpCwndTrace``); ``rudp.sweep.figures.cwnd_figure`` draws such a trace.
Tracing observes and never changes a run: the records with and without it
are the same. Bad paths are refused before anything is simulated.
"""

from __future__ import annotations

import csv
import itertools
import json
import os
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from rudp import paths
from rudp.sweep import figures

#: Each scenario program with a short run, and the link type of its devices'
#: pcap files (1: Ethernet, CSMA; 9: PPP, point-to-point).
SCENARIOS: dict[str, tuple[list[str], int]] = {
    "rudp-file-transfer": (["--variant=reno", "--loss=0.02", "--size=200000"], 1),
    "rudp-tcp-vs-udp": (["--transport=rudp-reno", "--packets=200"], 1),
    "rudp-cmt": (["--paths=2", "--duration=2s", "--warmup=1s"], 9),
    "rudp-cc-comparison": (["--rate=10Mbps", "--flows=cubic@50ms", "--duration=2"], 9),
    "rudp-transport-cost": (["--transport=rudp-reno", "--bytes=200000"], 9),
    "rudp-many-flows": (["--flows=20", "--flow-bytes=20000"], 9),
}

#: Fields of rudp-transport-cost's and rudp-many-flows's records that measure the wall clock.
WALL_CLOCK = ("wall_s", "wall_us_per_packet")
#: The simulator's events measure what a run costs, and FlowMonitor's periodic
#: checks for lost packets add to them: not a result of the scenario.
COST = ("events", "events_per_s")

#: The pcap magic numbers (microsecond and nanosecond resolution), as written
#: on a little- or big-endian host.
PCAP_MAGIC = {0xA1B2C3D4, 0xA1B23C4D}

RUDP_STATES = {"SLOW_START", "CONGESTION_AVOIDANCE", "FAST_RECOVERY", "FIXED_WINDOW"}
TCP_STATES = {"CA_OPEN", "CA_DISORDER", "CA_CWR", "CA_RECOVERY", "CA_LOSS"}


def _each(*programs: str) -> list[Any]:
    return [pytest.param(p, marks=pytest.mark.programs(p), id=p) for p in programs]


def _run(program: str, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(paths.program(program)), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=cwd,
    )


def _record(
    program: str, tmp_path: Path, name: str, *extra: str, run: list[str] | None = None
) -> dict[str, Any]:
    """Runs ``program`` (its short run, or ``run``) with ``extra`` options; returns
    its JSON record."""
    output = tmp_path / f"{name}.json"
    args = SCENARIOS[program][0] if run is None else run
    done = _run(program, *args, *extra, f"--output={output}", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    record: dict[str, Any] = json.loads(output.read_text())
    for field in (*WALL_CLOCK, *COST):
        record.pop(field, None)
    return record


def _pcap_packets(path: Path) -> tuple[int, int]:
    """(link type, number of packets) of a pcap file; fails on a malformed one."""
    data = path.read_bytes()
    assert len(data) >= 24, f"{path.name}: shorter than a pcap header"
    for order in "<>":
        magic, _major, _minor, _zone, _sigfigs, _snaplen, link = struct.unpack(
            order + "IHHiIII", data[:24]
        )
        if magic in PCAP_MAGIC:
            break
    else:
        pytest.fail(f"{path.name}: no pcap magic number")
    offset, packets = 24, 0
    while offset < len(data):
        assert offset + 16 <= len(data), f"{path.name}: truncated record header"
        _sec, _frac, captured, original = struct.unpack(order + "IIII", data[offset : offset + 16])
        assert 0 < captured <= original, f"{path.name}: record of {captured} bytes"
        offset += 16 + captured
        assert offset <= len(data), f"{path.name}: truncated record"
        packets += 1
    return link, packets


@pytest.mark.parametrize("program", _each(*SCENARIOS))
def test_pcap_writes_each_devices_packets(program: str, tmp_path: Path) -> None:
    prefix = tmp_path / "pcap" / "run"
    prefix.parent.mkdir()
    _record(program, tmp_path, "run", f"--pcap={prefix}")
    files = sorted(prefix.parent.glob("run-*-*.pcap"))
    # ns-3's names: PREFIX-<node>-<device>.pcap; one device at least on either end.
    assert len(files) >= 2, files
    counts = {}
    for path in files:
        link, packets = _pcap_packets(path)
        assert link == SCENARIOS[program][1], f"{path.name}: link type {link}"
        counts[path.name] = packets
    # Every device of these scenarios carries traffic (data or ACKs).
    assert all(n > 0 for n in counts.values()), counts
    assert max(counts.values()) >= 50, counts


@pytest.mark.parametrize("program", _each(*SCENARIOS))
def test_flowmon_xml_has_the_flows(program: str, tmp_path: Path) -> None:
    xml_file = tmp_path / "flows.xml"
    _record(program, tmp_path, "run", f"--flowmon-xml={xml_file}")
    root = ET.parse(xml_file).getroot()
    assert root.tag == "FlowMonitor"
    flows = root.findall("./FlowStats/Flow")
    assert flows, "no FlowStats"
    assert sum(int(flow.get("txPackets", "0")) for flow in flows) >= 50
    assert any(int(flow.get("rxBytes", "0")) > 0 for flow in flows)
    # Histograms and probes are in (SerializeToXmlFile(file, true, true)).
    assert flows[0].find("delayHistogram") is not None
    assert root.find("FlowProbes") is not None
    # The classifier names every flow by its five-tuple.
    tuples = root.findall("./Ipv4FlowClassifier/Flow")
    assert {t.get("flowId") for t in tuples} == {f.get("flowId") for f in flows}


@pytest.mark.parametrize("program", _each(*SCENARIOS))
def test_tracing_changes_nothing_that_is_measured(program: str, tmp_path: Path) -> None:
    # rudp-cc-comparison runs FlowMonitor only when asked, and its record says
    # whether it did: the plain run asks, so that only the tracing differs.
    monitor = ["--flow-monitor=1"] if program == "rudp-cc-comparison" else []
    plain = _record(program, tmp_path, "plain", *monitor)
    traced = _record(
        program,
        tmp_path,
        "traced",
        f"--pcap={tmp_path / 'p'}",
        f"--flowmon-xml={tmp_path / 'f.xml'}",
        *([f"--cwnd-trace={tmp_path / 'c.csv'}"] if program == "rudp-file-transfer" else []),
    )
    assert traced == plain
    # Without the options nothing is written beside the record.
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("plain")) == [
        "plain.json"
    ]


def _cwnd_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as stream:
        reader = csv.DictReader(stream)
        assert tuple(reader.fieldnames or ()) == figures.CWND_COLUMNS
        return list(reader)


@pytest.mark.programs("rudp-file-transfer")
def test_cwnd_trace_of_reno(tmp_path: Path) -> None:
    trace = tmp_path / "cwnd.csv"
    record = _record(
        "rudp-file-transfer",
        tmp_path,
        "run",
        f"--cwnd-trace={trace}",
        run=["--variant=reno", "--loss=0.05", "--size=300000"],
    )
    rows = _cwnd_rows(trace)
    assert len(rows) > 20
    times = [float(row["time_s"]) for row in rows]
    # One line per instant, from the sender's start (0.1 s) to the last ACK,
    # which arrives soon after the last byte.
    assert all(a < b for a, b in itertools.pairwise(times))
    end = 0.1 + record["transfer_time_s"]
    assert 0.1 <= times[0] < end < times[-1] < end + 0.5
    assert all(int(row["cwnd_bytes"]) > 0 for row in rows)
    assert all(int(row["ssthresh_bytes"]) > 0 for row in rows)
    states = [row["state"] for row in rows]
    assert set(states) == {"SLOW_START", "CONGESTION_AVOIDANCE", "FAST_RECOVERY"}
    # Seed 000's Reno: it opens with cwnd = 1 MSS and ssthresh = 65535 bytes.
    assert (rows[0]["cwnd_bytes"], rows[0]["ssthresh_bytes"]) == ("1400", "65535")
    assert rows[0]["state"] == "SLOW_START"
    # Each fast retransmit enters fast recovery; each timeout restarts slow
    # start from one segment, and the count reaches the run's.
    entries = sum(1 for a, b in itertools.pairwise(states) if b == "FAST_RECOVERY" != a)
    assert entries == record["fast_retransmits"] > 0
    counts = [int(row["timeouts"]) for row in rows]
    assert counts == sorted(counts)
    assert counts[-1] == record["timeouts"] > 0
    for i in range(1, len(rows)):
        if counts[i] > counts[i - 1]:
            assert (rows[i]["cwnd_bytes"], rows[i]["state"]) == ("1400", "SLOW_START")


@pytest.mark.programs("rudp-file-transfer")
def test_cwnd_trace_of_a_fixed_window(tmp_path: Path) -> None:
    trace = tmp_path / "cwnd.csv"
    _record(
        "rudp-file-transfer",
        tmp_path,
        "run",
        f"--cwnd-trace={trace}",
        run=["--variant=go-back-n", "--loss=0.02", "--size=200000"],
    )
    rows = _cwnd_rows(trace)
    assert rows
    assert {row["state"] for row in rows} == {"FIXED_WINDOW"}
    assert all(int(row["cwnd_bytes"]) > 0 for row in rows)


@pytest.mark.programs("rudp-cc-comparison")
def test_cwnd_trace_of_tcp_shares_the_format(tmp_path: Path) -> None:
    prefix = tmp_path / "cc"
    _record(
        "rudp-cc-comparison",
        tmp_path,
        "run",
        f"--cwnd-trace={prefix}",
        run=["--rate=10Mbps", "--flows=cubic@50ms", "--duration=2", "--loss=0.01"],
    )
    rows = _cwnd_rows(Path(f"{prefix}-0-cwnd.csv"))
    assert len(rows) > 10
    states = {row["state"] for row in rows}
    assert states <= TCP_STATES
    assert "CA_RECOVERY" in states
    assert all(int(row["cwnd_bytes"]) > 0 for row in rows)
    figure = figures.cwnd_figure(Path(f"{prefix}-0-cwnd.csv"), tmp_path / "tcp.png")
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("program", "argument"),
    [
        *[(p, "--pcap=/no/such/dir/run") for p in SCENARIOS],
        *[(p, "--flowmon-xml=/no/such/dir/flows.xml") for p in SCENARIOS],
        ("rudp-file-transfer", "--cwnd-trace=/no/such/dir/cwnd.csv"),
        ("rudp-file-transfer", "--pcap=/dev/null/run"),
    ],
)
def test_a_path_that_cannot_be_written_is_refused(program: str, argument: str) -> None:
    if not (paths.build_dir() / "bin" / program).is_file():
        pytest.fail(f"{program} is not built")
    done = _run(program, *SCENARIOS[program][0], argument)
    assert done.returncode == 2, done.stderr
    name, value = argument.split("=", maxsplit=1)
    # The option is known, and its value is what is wrong: the message names both.
    assert done.stderr.startswith(f"error: {name}: "), done.stderr
    assert str(Path(value).parent) in done.stderr
    assert "unknown option" not in done.stderr
    assert done.stdout == ""  # refused before anything was simulated


@pytest.mark.parametrize("program", _each("rudp-file-transfer", "rudp-cmt"))
def test_a_directory_is_not_a_file(program: str, tmp_path: Path) -> None:
    done = _run(program, *SCENARIOS[program][0], f"--flowmon-xml={tmp_path}")
    assert done.returncode == 2, done.stderr
    assert "--flowmon-xml" in done.stderr
    assert "is a directory" in done.stderr


@pytest.mark.programs("rudp-test-files")
def test_the_test_set_writer_says_why_it_has_no_tracing(tmp_path: Path) -> None:
    done = _run("rudp-test-files", "--PrintHelp")
    assert "no tracing options" in done.stdout
    refused = _run("rudp-test-files", f"--dir={tmp_path / 'set'}", f"--pcap={tmp_path / 'p'}")
    assert refused.returncode == 2
    assert "--pcap" in refused.stderr


# --- the figure ------------------------------------------------------------------------------

#: A hand-made trace of seed 000's Reno: slow start, a fast recovery,
#: congestion avoidance, a timeout.
TRACE = """\
time_s,cwnd_bytes,ssthresh_bytes,state,timeouts
0.1,1400,65535,SLOW_START,0
0.2,2800,65535,SLOW_START,0
0.3,5600,65535,SLOW_START,0
0.4,11200,65535,SLOW_START,0
0.45,9800,5600,FAST_RECOVERY,0
0.46,11200,5600,FAST_RECOVERY,0
0.5,5600,5600,CONGESTION_AVOIDANCE,0
0.6,7000,5600,CONGESTION_AVOIDANCE,0
2.6,1400,3500,SLOW_START,1
2.7,2800,3500,SLOW_START,1
2.8,4200,3500,CONGESTION_AVOIDANCE,1
"""


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_read_cwnd_trace(tmp_path: Path) -> None:
    trace = tmp_path / "cwnd.csv"
    trace.write_text(TRACE)
    data = figures.read_cwnd_trace(trace)
    assert data.time_s[0] == 0.1
    assert data.cwnd_bytes[-1] == 4200
    assert data.timeout_rows() == [8]
    assert data.state_spans() == [
        ("SLOW_START", 0.1, 0.45),
        ("FAST_RECOVERY", 0.45, 0.5),
        ("CONGESTION_AVOIDANCE", 0.5, 2.6),
        ("SLOW_START", 2.6, 2.8),
        ("CONGESTION_AVOIDANCE", 2.8, 2.8),
    ]


def test_cwnd_figure_writes_a_png(tmp_path: Path) -> None:
    trace = tmp_path / "cwnd.csv"
    trace.write_text(TRACE)
    out = figures.cwnd_figure(trace, tmp_path / "figures" / "cwnd.png", segment_size=1400)
    assert out == tmp_path / "figures" / "cwnd.png"
    width, height = _png_size(out)
    assert width >= 800 and height >= 400
    assert out.stat().st_size > 20000  # drawn, not blank


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("time_s,cwnd_bytes\n0.1,1400\n", "first line"),
        ("", "first line"),
        (TRACE.splitlines()[0] + "\n", "no line"),
        (TRACE.replace("0.2,2800", "0.2,lots"), ":3:"),
        (TRACE.replace("0.3,5600", "0.01,5600"), "goes back"),
        (TRACE.replace("0.2,2800,65535,SLOW_START", "0.2,2800,65535,SLOW"), "unknown state"),
        (TRACE.replace("0.2,2800,65535,SLOW_START,0", "0.2,2800"), ":3:"),
    ],
)
def test_a_file_that_is_no_cwnd_trace_is_refused(tmp_path: Path, text: str, problem: str) -> None:
    trace = tmp_path / "cwnd.csv"
    trace.write_text(text)
    with pytest.raises(ValueError, match=problem):
        figures.cwnd_figure(trace, tmp_path / "cwnd.png")
    assert not (tmp_path / "cwnd.png").exists()


def _sweep_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rudp.sweep", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": str(paths.REPO_ROOT / "python")},
    )


def test_cwnd_figure_from_the_command_line(tmp_path: Path) -> None:
    trace = tmp_path / "cwnd.csv"
    trace.write_text(TRACE)
    done = _sweep_cli("cwnd-figure", str(trace), "--title", "Reno", "--mss", "1400")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(tmp_path / "cwnd.png")
    _png_size(tmp_path / "cwnd.png")
    bad = tmp_path / "bad.csv"
    bad.write_text("time_s,cwnd_bytes\n")
    done = _sweep_cli("cwnd-figure", str(bad), "--out", str(tmp_path / "bad.png"))
    assert done.returncode == 2
    assert "not a cwnd trace" in done.stderr


def test_import_rudp_sweep_does_not_load_matplotlib() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, rudp.sweep, rudp.sweep.cli, rudp.sweep.figures;"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={**os.environ, "PYTHONPATH": str(paths.REPO_ROOT / "python")},
    )
    assert done.stdout.strip() == "[]"
