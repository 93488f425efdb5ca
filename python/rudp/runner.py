"""Run one of the module's compiled scenario programs and read its metrics.

Each scenario (``rudp-file-transfer``, ...) takes ``--name=value`` options and
writes its metrics as a JSON object to ``--output``. :func:`run_scenario` is
the one place that turns a parameter dictionary into such a run.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import paths

#: A parameter value as a scenario's command line takes it.
Value = str | int | float | bool


class ScenarioError(RuntimeError):
    """A scenario run failed: it carries the command line and what it printed."""

    def __init__(self, command: list[str], returncode: int, stderr: str) -> None:
        self.command = command
        self.returncode = returncode
        self.stderr = stderr
        super().__init__(
            f"{' '.join(command)} exited with status {returncode}: {stderr.strip()[-2000:]}"
        )


def format_value(value: Value) -> str:
    """A parameter value as ns-3's CommandLine parses it (booleans as 0/1)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def command_line(program: str, params: Mapping[str, Value]) -> list[str]:
    """The argv that runs ``program`` with ``params`` (without --output)."""
    return [str(paths.program(program))] + [
        f"--{name}={format_value(value)}" for name, value in params.items()
    ]


def run_scenario(
    program: str, params: Mapping[str, Value], timeout_s: float | None = 3600
) -> dict[str, Any]:
    """Run ``program`` with ``params`` and return the metrics it wrote.

    Raises:
        ScenarioError: the program exited non-zero or wrote no metrics.
        subprocess.TimeoutExpired: it ran longer than ``timeout_s``.
    """
    with tempfile.TemporaryDirectory(prefix="rudp-run-") as workdir:
        output = Path(workdir) / "metrics.json"
        command = [*command_line(program, params), f"--output={output}"]
        done = subprocess.run(
            command, cwd=workdir, capture_output=True, text=True, timeout=timeout_s, check=False
        )
        if done.returncode != 0 or not output.is_file():
            raise ScenarioError(command, done.returncode, done.stderr or done.stdout)
        metrics: dict[str, Any] = json.loads(output.read_text())
        return metrics
