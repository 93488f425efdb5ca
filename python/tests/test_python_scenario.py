"""examples/rudp-python-scenario.py: the scenario written in Python runs, measures and draws.

One run of the example (a process of its own: importing ns-3 costs about 15 s
and 600 MB), and its command-line checks, which fail before ns-3 is imported.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import re
import runpy
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rudp import bindings, paths

EXAMPLE = paths.REPO_ROOT / "examples" / "rudp-python-scenario.py"
EXAMPLES_TO_RUN = paths.REPO_ROOT / "test" / "examples-to-run.py"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def scenario(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLE), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@functools.cache
def load_example() -> ModuleType:
    """The example as a module (its name has hyphens: no import statement reaches it)."""
    spec = importlib.util.spec_from_file_location("rudp_python_scenario", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through it
    spec.loader.exec_module(module)
    return module


def test_listed_for_ns3s_test_py() -> None:
    listed = runpy.run_path(str(EXAMPLES_TO_RUN))["python_examples"]
    assert ("rudp-python-scenario.py", "True") in listed
    for name, *_ in listed:
        assert (paths.REPO_ROOT / "examples" / name.split()[0]).is_file()


@pytest.mark.usefixtures("library_built")
def test_transfer_goodput_and_window_figure(tmp_path: Path) -> None:
    figure = tmp_path / "cwnd.png"
    record = tmp_path / "run.json"
    size = 200_000
    done = scenario(
        "--variant=reno",
        f"--size={size}",
        f"--figure={figure}",
        f"--output={record}",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    goodput = re.search(rf"{size} bytes in ([0-9.]+) s: goodput ([0-9.]+) Mbit/s", done.stdout)
    assert goodput, done.stdout
    seconds, mbps = float(goodput.group(1)), float(goodput.group(2))
    assert 0 < mbps < 10  # below the 10 Mbit/s bottleneck
    assert mbps == pytest.approx(size * 8 / seconds / 1e6, rel=1e-2)
    assert "error:" not in done.stderr  # cling's spurious reports stay away too

    metrics: dict[str, Any] = json.loads(record.read_text(encoding="utf-8"))
    assert metrics["ok"] is True and metrics["failure"] == ""
    assert metrics["bytes"] == size
    # The Python callback saw Reno's window: from its initial window, slow
    # start grows it past the 20-packet queue, whose overflow cuts it again.
    assert metrics["cwnd_samples"] > 10
    assert metrics["max_cwnd_segments"] > 20
    assert metrics["retransmissions"] > 0

    image = figure.read_bytes()
    assert image.startswith(PNG_SIGNATURE)
    assert len(image) > 10_000  # axes, a line and a legend, not an empty canvas
    assert str(figure) in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--loss=2"], "error: --loss: '2' is out of range: must be in [0, 0.5]\n"),
        (["--loss=x"], "error: --loss: 'x' is not a probability"),
        (["--size=0"], "error: --size: '0' is out of range: must be in [1, 1e+09]\n"),
        (["--rate=10Mbit"], "error: --rate: '10Mbit' is not a data rate"),
        (["--rate=100bps"], "error: --rate: '100bps' is out of range: must be in [1kbps, 100Gbps]"),
        (["--delay=2s"], "error: --delay: '2s' is out of range: must be in [0s, 1s]"),
        (["--queue=0"], "error: --queue: '0' is out of range"),
        (["--variant=tahoe"], "error: --variant: 'tahoe' is not a choice; allowed: one of "),
        (["--variant=reno", "--congestion=cubic"], "error: --congestion: cannot be combined"),
        (["--congestion=1x"], "error: --congestion: '1x' is not a congestion control name"),
        (["--sack=2"], "error: --sack: '2' is not a boolean"),
        (["--rto-mode=fast"], "error: --rto-mode: 'fast' is not a choice"),
        (["--figure=cwnd.txt"], "error: --figure: 'cwnd.txt' has no image suffix"),
        (["--figure=no/such/dir/cwnd.png"], "error: --figure: 'no/such/dir/cwnd.png': the folder"),
        (["--output=no/such/dir/run.json"], "error: --output: 'no/such/dir/run.json': the folder"),
        (["--frobnicate=1"], "error: --frobnicate=1: not an option"),
        (["--var=reno"], "error: --var=reno: not an option"),  # no abbreviations
    ],
)
def test_bad_parameter_exits_2_naming_it(args: list[str], message: str, tmp_path: Path) -> None:
    done = scenario(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith(message), done.stderr
    assert done.stdout == ""


def test_parameters_take_units_and_defaults() -> None:
    example = load_example()
    args = example.parse(["--rate=1.5Gbps", "--delay=250us", "--sack", "--rto-mode=adaptive"])
    assert args.rate == 1.5e9
    assert args.delay == pytest.approx(250e-6)
    assert args.sack is True
    assert args.variant is None and args.congestion is None
    defaults = example.parse([])
    assert (defaults.rate, defaults.delay, defaults.size, defaults.sack) == (
        10e6,
        0.02,
        1_000_000,
        False,
    )
    assert example.parse(["--delay=0.1"]).delay == 0.1  # a bare number is seconds
    assert example.parse(["--sack=0"]).sack is False


def socket_default(ns: Any, attribute: str) -> str:
    value = ns.StringValue()
    ns.CreateObject[ns.RudpSocket]().GetAttribute(attribute, value)
    return str(value.Get())


@pytest.mark.usefixtures("library_built")
def test_protocol_options_set_the_sockets_attributes(capsys: pytest.CaptureFixture[str]) -> None:
    ns = bindings.load()  # in this process already when the bindings' tests ran
    example = load_example()
    try:
        label = example.configure_protocol(ns, example.parse(["--congestion=cubic", "--sack"]))
        assert label == "congestion cubic"
        assert socket_default(ns, "WindowPolicy") == "ns3::TcpCubic"
        assert socket_default(ns, "SelectiveRepeat") == "true"
        label = example.configure_protocol(ns, example.parse(["--variant=go-back-n"]))
        assert label == "go-back-n"
        assert socket_default(ns, "WindowPolicy") == "ns3::RudpGoBackN"
        assert socket_default(ns, "WindowSize") == "100"
        # Whether ns-3 has the algorithm is known once ns-3 is loaded.
        with pytest.raises(SystemExit) as exit_status:
            example.configure_protocol(ns, example.parse(["--congestion=ns3::Node"]))
        assert exit_status.value.code == 2
        assert capsys.readouterr().err.startswith(
            "error: --congestion: 'ns3::Node' is not a congestion control of this ns-3; "
            "allowed: one of newreno|reno|cubic|"
        )
    finally:
        ns.Config.Reset()
