"""Every scenario's ``--PrintHelp`` reads as one option per line.

Campaign tools read a program's options from that text: sem (signetlabdei/sem)
takes the last ``--`` before a ``:``, ``=``, ``|`` or ``?`` on each line as the
option's name, so a description that mentions another option (``--file``)
gives it a phantom option. Descriptions name other options without dashes.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from rudp import paths

SCENARIOS = (
    "rudp-file-transfer",
    "rudp-tcp-vs-udp",
    "rudp-cmt",
    "rudp-cc-comparison",
    "rudp-transport-cost",
    "rudp-test-files",
)

#: ``    --name:   description [default]``; the default is absent for empty strings.
OPTION = re.compile(r"^\s+--(?P<name>[A-Za-z][\w-]*):\s+(?P<text>.*)$")


def _options(program: str) -> list[str]:
    help_text = subprocess.run(
        [str(paths.program(program)), "--PrintHelp"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    section = help_text.split("Program Options:")[1].split("General Arguments:")[0]
    return [line for line in section.splitlines() if line.strip()]


@pytest.mark.parametrize("program", SCENARIOS)
def test_each_option_line_names_one_option(program: str) -> None:
    if not (paths.build_dir() / "bin" / program).is_file():
        pytest.skip(f"{program} is not built (make setup)")
    lines = _options(program)
    assert lines, f"{program} has no program options"
    for line in lines:
        match = OPTION.match(line)
        assert match, f"{program}: not an option line: {line!r}"
        assert "--" not in match["text"], f"{program}: description mentions an option: {line!r}"
