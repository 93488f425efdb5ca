"""The console commands of pyproject.toml's [project.scripts] resolve and run.

pip writes each entry as a script that loads it as an entry point and exits
with what it returns; these tests do the same from pyproject.toml, so they
check this checkout's definition whatever is installed in the environment.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib.metadata import EntryPoint

import pytest

from rudp import paths
from rudp.sweep import cli


def scripts() -> dict[str, str]:
    with (paths.REPO_ROOT / "pyproject.toml").open("rb") as file:
        project = tomllib.load(file)["project"]
    return dict(project.get("scripts", {}))


def test_rudp_sweep_is_the_sweep_command_line() -> None:
    entry = EntryPoint(name="rudp-sweep", value=scripts()["rudp-sweep"], group="console_scripts")
    assert entry.load() is cli.main


def test_every_console_script_resolves() -> None:
    for name, value in scripts().items():
        assert callable(EntryPoint(name=name, value=value, group="console_scripts").load()), name


@pytest.mark.parametrize(("args", "status"), [(["--help"], 0), (["--no-such-option"], 2)])
def test_rudp_sweep_runs_as_pip_would_run_it(args: list[str], status: int) -> None:
    # What pip's generated rudp-sweep script does: load the entry point, exit with its result.
    launcher = (
        "import sys\n"
        "from importlib.metadata import EntryPoint\n"
        f"main = EntryPoint('rudp-sweep', {scripts()['rudp-sweep']!r}, 'console_scripts').load()\n"
        "sys.exit(main())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", launcher, *args],
        cwd=paths.REPO_ROOT / "python",  # this checkout's package first on the path
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == status, done.stderr
    if status == 0:
        assert "usage:" in done.stdout and "presets:" in done.stdout
