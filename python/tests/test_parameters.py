"""Every program's parameters are parsed strictly, and every failed run leaves its record.

A bad parameter -- trailing characters, hexadecimal, a negative size, a word
for a number, an unknown option, a value out of its range, a malformed ns-3
attribute or global value -- ends the program before it simulates anything,
with exit status 2 and one line ``error: --<name>: <problem>; allowed: ...``
(ns-3's own parsing took ``5abc`` as 5, exited 1 with its help text as the
last line, or aborted). A run whose parameters are legal but which fails
exits 1 and, with ``--output``, still writes its JSON record with
``"ok": false`` and the reason.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from rudp import paths

#: Arguments that make each program's run short, should it run at all.
QUICK: dict[str, list[str]] = {
    "rudp-file-transfer": ["--size=1000"],
    "rudp-cmt": ["--duration=1s", "--warmup=0s"],
    "rudp-tcp-vs-udp": ["--packets=10"],
    "rudp-cc-comparison": ["--duration=1"],
    "rudp-transport-cost": ["--bytes=1000"],
    "rudp-udp-floor": ["--duration=1s", "--data=10", "--acks=5"],
    "rudp-many-flows": ["--flows=2", "--flow-bytes=1000"],
    "rudp-coupling": ["--duration=2s", "--warmup=1s"],
    "rudp-phone": ["--duration=3s", "--walk-out=1s", "--walk-back=2s", "--distance=5"],
    "rudp-test-files": [],
    "rudp-netem-correlation": ["--packets=10", "--loss=0.1", "--correlation=0"],
    "rudp-scratch-example": [],
}

#: Bad arguments any program refuses: (arguments, option named, words of the message).
COMMON: list[tuple[list[str], str, str]] = [
    (["--no-such-option=1"], "no-such-option", "unknown option"),
    (
        ["--ns3::RudpSocket::DataRetries=5abc"],
        "ns3::RudpSocket::DataRetries",
        "not a decimal integer",
    ),
    (
        ["--ns3::RudpSocket::DataRetries=0x10"],
        "ns3::RudpSocket::DataRetries",
        "not a decimal integer",
    ),
    (
        ["--ns3::RudpSocket::DataRetries=-5"],
        "ns3::RudpSocket::DataRetries",
        "not a decimal integer",
    ),
    (["--ns3::RudpSocket::DataRetries=5000"], "ns3::RudpSocket::DataRetries", "[0, 1000]"),
    (["--ns3::RudpSocket::MinRto=5x"], "ns3::RudpSocket::MinRto", "not a time"),
    (
        ["--ns3::RudpCorruptionErrorModel::ErrorUnit=PerBits"],
        "ns3::RudpCorruptionErrorModel::ErrorUnit",
        "PerPacket|PerByte|PerBit",
    ),
    (["--ns3::RudpSocket::NoSuchAttribute=1"], "ns3::RudpSocket::NoSuchAttribute", "no attribute"),
    (["--RngRun=3x"], "RngRun", "not a decimal integer"),
    (["--RngRun=-1"], "RngRun", "not a decimal integer"),
    (["--RngSeed=0"], "RngSeed", "[1, 4294944442]"),
]

#: Each program's own bad values: (program, arguments, option named, words of the message).
OWN: list[tuple[str, list[str], str, str]] = [
    ("rudp-file-transfer", ["--window=5abc"], "window", "not a decimal integer"),
    ("rudp-phone", ["--walk-back=0s"], "walk-back", "must come after"),
    ("rudp-phone", ["--path-manager=mesh"], "path-manager", "full-mesh|sctp"),
    ("rudp-phone", ["--speed=0"], "speed", "[0.1, 100]"),
    ("rudp-phone", ["--cellular=5g"], "cellular", "p2p|lte"),
    (
        "rudp-phone",
        ["--cellular=lte", "--cellular-delay=10ms"],
        "cellular-delay",
        "applies to --cellular=p2p only",
    ),
    ("rudp-file-transfer", ["--loss=0.05abc"], "loss", "not a number"),
    ("rudp-file-transfer", ["--window=0x5"], "window", "not a decimal integer"),
    ("rudp-file-transfer", ["--window=-1"], "window", "not a decimal integer"),
    ("rudp-file-transfer", ["--size=-1"], "size", "not a decimal integer"),
    ("rudp-file-transfer", ["--window=abc"], "window", "not a decimal integer"),
    ("rudp-file-transfer", ["--delay=5x"], "delay", "not a time"),
    ("rudp-file-transfer", ["--rate=10Mbpsx"], "rate", "not a data rate"),
    ("rudp-file-transfer", ["--sack=yes"], "sack", "not a boolean"),
    ("rudp-file-transfer", ["--loss=1.5"], "loss", "'1.5' is out of range: must be in [0, 1]"),
    ("rudp-file-transfer", ["--delay=600ms"], "delay", "too long for --router=none"),
    ("rudp-file-transfer", ["--max-time=0s"], "max-time", "must be in (0s, "),
    ("rudp-cmt", ["--paths=2x"], "paths", "not a decimal integer"),
    ("rudp-cmt", ["--alpha=1x"], "alpha", "not a number"),
    ("rudp-cmt", ["--paths=0x2"], "paths", "not a decimal integer"),
    ("rudp-cmt", ["--rbuf=-1"], "rbuf", "not a decimal integer"),
    ("rudp-cmt", ["--paths=two"], "paths", "not a decimal integer"),
    ("rudp-cmt", ["--rtt=50ms,abc"], "rtt", "not a time"),
    (
        "rudp-cmt",
        ["--loss=0.01,0.02,0.03"],
        "loss",
        "gives 3 values; allowed: one, or one per path",
    ),
    ("rudp-cmt", ["--beta=1"], "beta", "'1' is out of range: must be in (0, 1)"),
    ("rudp-cmt", ["--rbuf=2000000000"], "rbuf", "out of range: must be in [1, 1073741824]"),
    ("rudp-cmt", ["--warmup=2s"], "warmup", "less than --duration"),
    ("rudp-cmt", ["--rbuf=1000"], "rbuf", "cannot hold one --mss=1468 chunk"),
    ("rudp-cmt", ["--checksum=crc"], "checksum", "internet"),
    ("rudp-cmt", ["--scheduler=blast"], "scheduler", "buffer-aware|blest"),
    ("rudp-cmt", ["--queue=droptail"], "queue", "default|ns2"),
    ("rudp-file-transfer", ["--checksum=crc"], "checksum", "crc32c"),
    ("rudp-file-transfer", ["--checksum=crc32c", "--mss=1454"], "mss", "1452"),
    ("rudp-file-transfer", ["--mss=1455"], "mss", "does not fit --mtu=1500; allowed: [1, 1454]"),
    ("rudp-file-transfer", ["--mtu=9000"], "mtu", "too large for --link=csma; allowed: [68, 1500]"),
    ("rudp-file-transfer", ["--link=p2p", "--mtu=70000"], "mtu", "out of range"),
    ("rudp-file-transfer", ["--link=p2p", "--mtu=9000", "--mss=8955"], "mss", "[1, 8954]"),
    ("rudp-file-transfer", ["--link=p2p", "--mtu=65535", "--mss=65001"], "mss", "[1, 65000]"),
    ("rudp-file-transfer", ["--link=ppp"], "link", "csma|p2p"),
    (
        "rudp-file-transfer",
        ["--link=p2p", "--mtu=576", "--checksum=crc32c", "--mss=529"],
        "mss",
        "[1, 528]",
    ),
    ("rudp-file-transfer", ["--reorder=0.1"], "reorder", "needs a netem delay"),
    ("rudp-file-transfer", ["--corruption-bits=65"], "corruption-bits", "out of range"),
    ("rudp-file-transfer", ["--ack-loss=1.5"], "ack-loss", "out of range"),
    ("rudp-tcp-vs-udp", ["--packets=10x"], "packets", "not a decimal integer"),
    ("rudp-tcp-vs-udp", ["--interval=2usx"], "interval", "not a time"),
    ("rudp-tcp-vs-udp", ["--packets=0x10"], "packets", "not a decimal integer"),
    ("rudp-tcp-vs-udp", ["--payload=-1"], "payload", "not a decimal integer"),
    ("rudp-tcp-vs-udp", ["--packets=many"], "packets", "not a decimal integer"),
    ("rudp-tcp-vs-udp", ["--max-time=2e9s"], "max-time", "out of range: must be in (0s, "),
    ("rudp-tcp-vs-udp", ["--delay=600ms"], "delay", "out of range: must be in [0s, 500ms]"),
    ("rudp-cc-comparison", ["--queue-size=100x"], "queue-size", "not a decimal integer"),
    ("rudp-cc-comparison", ["--loss=0.01x"], "loss", "not a number"),
    ("rudp-cc-comparison", ["--queue-size=0x10"], "queue-size", "not a decimal integer"),
    ("rudp-cc-comparison", ["--buffer=-1"], "buffer", "not a decimal integer"),
    ("rudp-cc-comparison", ["--segment-size=big"], "segment-size", "not a decimal integer"),
    ("rudp-cc-comparison", ["--duration=5x"], "duration", "not a time"),
    ("rudp-cc-comparison", ["--initial-ssthresh=+5000"], "initial-ssthresh", "decimal number"),
    ("rudp-cc-comparison", ["--loss=0.6"], "loss", "'0.6' is out of range: must be in [0, 0.5]"),
    ("rudp-transport-cost", ["--bytes=1000x"], "bytes", "not a decimal integer"),
    ("rudp-transport-cost", ["--payload=0x100"], "payload", "not a decimal integer"),
    ("rudp-transport-cost", ["--bytes=-1"], "bytes", "not a decimal integer"),
    ("rudp-transport-cost", ["--del-ack=two"], "del-ack", "not a decimal integer"),
    ("rudp-transport-cost", ["--payload=99"], "payload", "'99' is out of range"),
    ("rudp-udp-floor", ["--data=10,20,30"], "data", "gives 3 values; allowed: one, or one per"),
    ("rudp-udp-floor", ["--acks=5x"], "acks", "not a decimal integer"),
    ("rudp-udp-floor", ["--queue=red"], "queue", "default|ns2"),
    ("rudp-udp-floor", ["--data-size=11"], "data-size", "'11' is out of range"),
    ("rudp-udp-floor", ["--rtt=1us"], "rtt", "out of range"),
    ("rudp-many-flows", ["--flows=0"], "flows", "'0' is out of range"),
    ("rudp-many-flows", ["--flows-per-host=16385"], "flows-per-host", "[1, 16384]"),
    ("rudp-many-flows", ["--transport=quic"], "transport", "rudp|tcp|rudp-cmt"),
    ("rudp-many-flows", ["--flows=2000", "--flows-per-host=1"], "flows", "at most 1000 hosts"),
    ("rudp-many-flows", ["--start-spacing=1x"], "start-spacing", "not a time"),
    ("rudp-test-files", ["--content-seed=1x"], "content-seed", "not a decimal integer"),
    ("rudp-netem-correlation", ["--loss=0.5,2"], "loss", "not a probability"),
    ("rudp-netem-correlation", ["--correlation="], "correlation", "at least one value"),
    ("rudp-netem-correlation", ["--packets=0"], "packets", "[1, 100000000]"),
    ("rudp-test-files", ["--content-seed=0x1"], "content-seed", "not a decimal integer"),
    ("rudp-test-files", ["--content-seed=-1"], "content-seed", "not a decimal integer"),
    ("rudp-test-files", ["--content-seed=abc"], "content-seed", "not a decimal integer"),
    ("rudp-test-files", ["--dir="], "dir", "needs a value"),
    ("rudp-scratch-example", ["--loss=0.5x"], "loss", "not a number"),
    ("rudp-scratch-example", ["--loss=0x1"], "loss", "not a number"),
    ("rudp-scratch-example", ["--loss=abc"], "loss", "not a number"),
    ("rudp-scratch-example", ["--loss=1.5"], "loss", "'1.5' is out of range: must be in [0, 1]"),
]


def _run(
    program: str, args: list[str], cwd: Path, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(paths.program(program)), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        cwd=cwd,
    )


def _record(path: Path) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(path.read_text())
    return record


def _cases() -> list[object]:
    cases: list[object] = []
    for program, quick in QUICK.items():
        for args, name, words in COMMON:
            cases.append(
                pytest.param(
                    program,
                    [*quick, *args],
                    name,
                    words,
                    marks=pytest.mark.programs(program),
                    id=f"{program} {' '.join(args)}",
                )
            )
    for program, args, name, words in OWN:
        cases.append(
            pytest.param(
                program,
                [*QUICK[program], *args],
                name,
                words,
                marks=pytest.mark.programs(program),
                id=f"{program} {' '.join(args)}",
            )
        )
    return cases


@pytest.mark.parametrize(("program", "args", "name", "words"), _cases())
def test_a_bad_parameter_exits_2_naming_it(
    program: str, args: list[str], name: str, words: str, tmp_path: Path
) -> None:
    done = _run(program, args, tmp_path)
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    # One line that names the parameter, not ns-3's help text.
    assert lines and lines[-1].startswith(f"error: --{name}: "), done.stderr
    assert words in lines[-1], lines[-1]
    assert "Program Options" not in done.stderr


@pytest.mark.parametrize("program", [pytest.param(p, marks=pytest.mark.programs(p)) for p in QUICK])
def test_a_stray_argument_is_refused(program: str, tmp_path: Path) -> None:
    done = _run(program, [*QUICK[program], "stray"], tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith("error: 'stray' is not an option")


@pytest.mark.programs("rudp-cmt")
def test_an_unwritable_output_is_refused_before_simulating(tmp_path: Path) -> None:
    # Ten thousand simulated seconds would take minutes: the refusal must come first.
    done = _run(
        "rudp-cmt", ["--duration=10000s", f"--output={tmp_path}/no/such/dir/x.json"], tmp_path, 20
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: --output: cannot write")


@pytest.mark.programs("rudp-cmt")
def test_cmt_without_goodput_fails_with_its_record(tmp_path: Path) -> None:
    output = tmp_path / "cmt.json"
    done = _run(
        "rudp-cmt", ["--loss=1", "--duration=2s", "--warmup=0s", f"--output={output}"], tmp_path
    )
    assert done.returncode == 1, done.stderr
    record = _record(output)
    assert record["ok"] is False
    assert "no byte was delivered" in record["failure"]
    assert record["delivered_bytes"] == 0
    assert record["throughput_Bps"] == 0
    assert record["timeouts"] > 0
    assert len(record["path_stats"]) == 2


@pytest.mark.programs("rudp-cmt")
def test_cmt_success_says_ok(tmp_path: Path) -> None:
    output = tmp_path / "cmt.json"
    done = _run("rudp-cmt", [*QUICK["rudp-cmt"], f"--output={output}"], tmp_path)
    assert done.returncode == 0, done.stderr
    record = _record(output)
    assert (record["ok"], record["failure"]) == (True, "")
    assert record["delivered_bytes"] > 0


@pytest.mark.programs("rudp-tcp-vs-udp")
@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["--max-time=0.5s"], "had not started"),
        (["--packets=100000", "--max-time=1010ms"], "delivered"),
    ],
)
def test_tcp_vs_udp_undelivered_bytes_fail_with_a_record(
    args: list[str], reason: str, tmp_path: Path
) -> None:
    output = tmp_path / "run.json"
    done = _run("rudp-tcp-vs-udp", ["--transport=rudp-reno", *args, f"--output={output}"], tmp_path)
    assert done.returncode == 1, done.stderr
    record = _record(output)
    assert record["ok"] is False
    assert reason in record["failure"]
    assert record["delivered_bytes"] < record["bytes"]
    for key in ("tx_packets", "rx_packets", "lost_packets"):
        assert key in record


@pytest.mark.programs("rudp-cc-comparison")
def test_cc_comparison_flow_without_bytes_fails_with_a_record(tmp_path: Path) -> None:
    output = tmp_path / "cc.json"
    # The second flow starts 10 ms before the end: not even its handshake completes.
    done = _run(
        "rudp-cc-comparison",
        ["--duration=10", "--flows=cubic@50ms,cubic@50ms+9.99s", f"--output={output}"],
        tmp_path,
    )
    assert done.returncode == 1, done.stderr
    record = _record(output)
    assert record["ok"] is False
    assert record["failure"].startswith("flow 1 ")
    first, second = record["flows"]
    assert first["bytes"] > 0 and second["bytes"] == 0


@pytest.mark.programs("rudp-transport-cost")
def test_transport_cost_success_says_ok(tmp_path: Path) -> None:
    output = tmp_path / "cost.json"
    done = _run(
        "rudp-transport-cost", [*QUICK["rudp-transport-cost"], f"--output={output}"], tmp_path
    )
    assert done.returncode == 0, done.stderr
    record = _record(output)
    assert (record["ok"], record["failure"], record["bytes"]) == (True, "", 1000)


@pytest.mark.programs("rudp-scratch-example")
def test_scratch_failure_says_so(tmp_path: Path) -> None:
    done = _run("rudp-scratch-example", ["--loss=1"], tmp_path)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1].startswith("error: the transfer failed")
