"""examples/rudp-phone.py: the Python twin of rudp-phone simulates what the C++ program does.

One walk run by both programs with the same options: the records are the
same bytes, and so are the traces and what they print (but the program's
name). The run takes about 35 s (20 s of CPU, half of it importing ns-3); the
command-line checks fail before ns-3 is imported.
"""

from __future__ import annotations

import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from rudp import paths

EXAMPLE = paths.REPO_ROOT / "examples" / "rudp-phone.py"
#: A short walk, not the defaults: out of the Wi-Fi's reach from about 4.25 s
#: to 6 s, back as soon as it arrives, OLIA, another run number, 0.25 s bins
#: (and the cellular radio: a 20 ms link, or LTE).
WALK = [
    "--duration=8s",
    "--walk-out=2s",
    "--walk-back=5s",
    "--distance=60",
    "--speed=20",
    "--interval=250ms",
    "--coupling=olia",
    "--RngRun=2",
]


def python_phone(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLE), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def cpp_phone(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(paths.program("rudp-phone")), *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ("--coupling=reno", "error: --coupling: 'reno' is not a choice; allowed: one of "),
        ("--path-manager=mesh", "error: --path-manager: 'mesh' is not a choice"),
        ("--cellular-rate=10Mbit", "error: --cellular-rate: '10Mbit' is not a data rate"),
        ("--cellular-rate=1kbps", "error: --cellular-rate: '1kbps' is out of range"),
        ("--duration=1s", "error: --duration: '1s' is out of range: must be in [2s, 100000s]"),
        ("--speed=0", "error: --speed: '0' is out of range: must be in [0.1, 100]"),
        ("--walk-back=12s", "error: --walk-back: must come after walk-out plus the walk's time"),
        ("--trace=no/such/dir/t.tsv", "error: --trace: 'no/such/dir/t.tsv': the folder"),
        ("--ns3::RudpCmtSocket::Sfr=0", "error: --ns3::RudpCmtSocket::Sfr=0: not an option"),
        ("--cellular=5g", "error: --cellular: '5g' is not a choice; allowed: one of p2p|lte"),
        (
            "--cellular=lte --cellular-rate=20Mbps",
            "error: --cellular-rate: applies to --cellular=p2p only",
        ),
    ],
)
def test_bad_parameter_exits_2_naming_it(argument: str, message: str, tmp_path: Path) -> None:
    done = python_phone(*argument.split(), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith(message), done.stderr
    assert done.stdout == ""


@pytest.mark.programs("rudp-phone")
def test_the_options_are_the_cpp_programs() -> None:
    """Every option of rudp-phone is the twin's, with the same choices (the output's too)."""
    shown = cpp_phone("--PrintHelp").stdout
    cpp_options = set(re.findall(r"^\s+--([a-z-]+):", shown, re.MULTILINE))
    example = runpy.run_path(str(EXAMPLE))
    twin = example["parser"]()
    twin_options = {
        option.removeprefix("--")
        for action in twin._actions
        for option in action.option_strings
        if option.startswith("--") and option != "--help"
    }
    assert cpp_options == twin_options - {"RngRun"}, shown
    couplings = re.search(r"--coupling:.*allowed: one of ([\w|]+)", shown)
    assert couplings, shown
    assert tuple(couplings.group(1).split("|")) == example["COUPLINGS"]


@pytest.mark.usefixtures("library_built")
@pytest.mark.programs("rudp-phone")
@pytest.mark.parametrize(
    ("cellular", "wifi_out_of_reach"),
    [
        (["--cellular-delay=20ms"], 0),
        # One segment: the Wi-Fi path's timeout at 5.087 s, before the
        # station missed enough beacons to take its link down (5.094 s).
        (["--cellular=lte"], 1452),
    ],
    ids=["p2p", "lte"],
)
def test_the_twin_writes_the_cpp_programs_record_byte_for_byte(
    cellular: list[str], wifi_out_of_reach: int, tmp_path: Path
) -> None:
    walk = [*WALK, *cellular]
    cpp_record, cpp_trace = tmp_path / "cpp.json", tmp_path / "cpp.tsv"
    cpp = cpp_phone(*walk, f"--output={cpp_record}", f"--trace={cpp_trace}")
    assert cpp.returncode == 0, cpp.stderr
    py_record, py_trace = tmp_path / "py.json", tmp_path / "py.tsv"
    twin = python_phone(*walk, f"--output={py_record}", f"--trace={py_trace}", cwd=tmp_path)
    assert twin.returncode == 0, twin.stderr

    assert py_record.read_bytes() == cpp_record.read_bytes()
    assert py_trace.read_bytes() == cpp_trace.read_bytes()
    cpp_lines, twin_lines = cpp.stdout.splitlines(), twin.stdout.splitlines()
    assert twin_lines[0] == cpp_lines[0].replace("rudp-phone:", "rudp-phone.py:", 1)
    assert twin_lines[1:] == cpp_lines[1:]
    # Not an empty agreement: both radios carried data, the Wi-Fi's path
    # nothing out of its reach (4.25 to 6 s), the cellular path went on.
    radios = re.findall(r"^  (\w+) sent (\d+) bytes before the outage", twin.stdout, re.MULTILINE)
    assert {name for name, _ in radios} == {"cellular", "wifi"}, twin.stdout
    assert all(int(before) > 100_000 for _, before in radios), twin.stdout
    bins: dict[str, dict[float, int]] = {}
    for line in py_trace.read_text().splitlines()[1:]:
        end, flow, size = line.split("\t")
        bins.setdefault(flow, {})[float(end)] = int(size)
    assert sum(bins["wifi"][t] for t in (4.5, 4.75, 5.0, 5.25, 5.5, 5.75, 6.0)) == wifi_out_of_reach
    assert sum(bins["cellular"][t] for t in (4.5, 4.75, 5.0, 5.25, 5.5, 5.75, 6.0)) > 1_000_000
    assert min(bins["server"][t] for t in (5.5, 5.75, 6.0)) > 0
