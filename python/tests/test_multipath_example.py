"""examples/rudp-multipath.py: the multipath socket from Python, with its per-path traces.

One run (a process of its own: importing ns-3 costs about 15 s), and the
command-line checks, which fail before ns-3 is imported.
"""

from __future__ import annotations

import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from rudp import paths

EXAMPLE = paths.REPO_ROOT / "examples" / "rudp-multipath.py"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def example(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLE), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_listed_for_ns3s_test_py() -> None:
    listed = runpy.run_path(str(paths.REPO_ROOT / "test" / "examples-to-run.py"))
    assert any(name.startswith("rudp-multipath.py ") for name, _ in listed["python_examples"])


@pytest.mark.parametrize(
    ("argument", "named"),
    [("--coupling=reno", "--coupling"), ("--bytes=0", "--bytes"), ("--max-time=x", "--max-time")],
)
def test_bad_parameter_exits_2_naming_it(argument: str, named: str, tmp_path: Path) -> None:
    done = example(argument, cwd=tmp_path)
    assert done.returncode == 2
    assert named in done.stderr


@pytest.mark.programs("rudp-multipath")
def test_coupling_names_are_the_modules_table() -> None:
    """--coupling's names are RudpCmtCoupling's short names, which rudp-multipath lists."""
    shown = subprocess.run(
        [str(paths.program("rudp-multipath")), "--PrintHelp"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    listed = re.search(r"--coupling:.*allowed: one of ([\w|]+)", shown)
    assert listed, shown
    example_names = runpy.run_path(str(EXAMPLE))["COUPLINGS"]
    assert tuple(listed.group(1).split("|")) == example_names


@pytest.mark.usefixtures("library_built")
def test_both_paths_carry_the_transfer_and_windows_are_drawn(tmp_path: Path) -> None:
    figure = tmp_path / "paths.png"
    done = example("--bytes=1000000", "--coupling=lia", f"--figure={figure}", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "1000000 of 1000000 bytes" in done.stdout
    sent = {
        int(path): (int(bytes_sent), int(window))
        for path, bytes_sent, window in re.findall(
            r"path (\d) \(\w+\): (\d+) bytes sent, \d+ resent, largest window (\d+)", done.stdout
        )
    }
    assert set(sent) == {0, 1}, done.stdout
    for bytes_sent, window in sent.values():
        assert bytes_sent > 100_000  # each path carried a share
        assert window > 0  # the per-path trace reached Python
    assert figure.read_bytes().startswith(PNG_SIGNATURE)
