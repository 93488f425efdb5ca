"""Every scenario's ``--PrintHelp`` reads as one option per line.

Campaign tools read a program's options from that text: sem (signetlabdei/sem)
takes the last ``--`` before a ``:``, ``=``, ``|`` or ``?`` on each line as the
option's name, so a description that mentions another option (``--file``)
gives it a phantom option. Descriptions name other options without dashes.
The strict command line (RudpCommandLine) keeps ns-3's help format: each
option with its allowed values and its default in brackets.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from rudp import paths

SCENARIOS = paths.SCENARIO_PROGRAMS

#: ``    --name:   description [default]``; the default is absent for empty strings.
OPTION = re.compile(r"^\s+--(?P<name>[A-Za-z][\w-]*):\s+(?P<text>.*)$")


def _run(program: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(paths.program(program)), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _options(program: str) -> list[str]:
    done = _run(program, "--PrintHelp")
    assert done.returncode == 0, done.stderr
    section = done.stdout.split("Program Options:")[1].split("General Arguments:")[0]
    return [line for line in section.splitlines() if line.strip()]


def _each(*programs: str) -> list[object]:
    return [pytest.param(p, marks=pytest.mark.programs(p), id=p) for p in programs]


@pytest.mark.parametrize("program", _each(*SCENARIOS))
def test_each_option_line_names_one_option(program: str) -> None:
    lines = _options(program)
    assert lines, f"{program} has no program options"
    for line in lines:
        match = OPTION.match(line)
        assert match, f"{program}: not an option line: {line!r}"
        assert "--" not in match["text"], f"{program}: description mentions an option: {line!r}"


@pytest.mark.programs("rudp-file-transfer")
@pytest.mark.parametrize(
    ("option", "shown"),
    [
        ("window", "allowed: an integer in [1, 65535] [30]"),
        ("loss", "allowed: a number in [0, 1] [0]"),
        ("delay", "allowed: a time in [0s, 10s] [0s]"),
        ("rate", "[100Mbps]"),
        ("variant", "allowed: one of stop-and-wait|go-back-n|reno [reno]"),
        ("sack", "[false]"),
        ("max-time", "[3600s]"),
    ],
)
def test_help_shows_the_allowed_values_and_the_default(option: str, shown: str) -> None:
    (line,) = [line for line in _options("rudp-file-transfer") if f"--{option}:" in line]
    assert line.endswith(shown), line


@pytest.mark.parametrize("program", _each(*SCENARIOS))
def test_ns3_general_arguments_still_work(program: str) -> None:
    globals_ = _run(program, "--PrintGlobals")
    assert globals_.returncode == 0 and "--RngRun=" in globals_.stdout
    attributes = _run(program, "--PrintAttributes=ns3::RudpSocket")
    assert attributes.returncode == 0 and "--ns3::RudpSocket::WindowSize=" in attributes.stdout
    # Help wins over a bad argument given with it, as in ns-3.44.
    helped = _run(program, "--loss=abc", "--PrintHelp")
    assert helped.returncode == 0 and "Program Options:" in helped.stdout
