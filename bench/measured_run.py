"""One scenario run in its own process, with what the kernel measured of it.

The benches run each program in a child process so that its rusage (CPU
time, peak memory) is the run's alone; this is that one step, shared, and
the same run under ``valgrind --tool=callgrind``, whose instruction count
does not vary with the machine's load.
"""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rudp import paths


@dataclass(frozen=True)
class MeasuredRun:
    """The run's JSON record and its process's resource usage."""

    record: dict[str, Any]
    usage: resource.struct_rusage

    @property
    def cpu_s(self) -> float:
        """User plus system CPU seconds."""
        return self.usage.ru_utime + self.usage.ru_stime

    @property
    def peak_rss_mb(self) -> float:
        """Peak resident memory, MiB (Linux reports ru_maxrss in KiB)."""
        return self.usage.ru_maxrss / 1024


@dataclass(frozen=True)
class Cost:
    """A run's CPU seconds and the packets it delivered."""

    cpu_s: float
    packets: int

    @property
    def us_per_packet(self) -> float:
        return 1e6 * self.cpu_s / max(self.packets, 1)


def run_command(
    command: list[str], env: Mapping[str, str] | None = None, cwd: Path | None = None
) -> tuple[str, resource.struct_rusage]:
    """Run ``command`` in its own process: what it printed and the kernel's measure of
    it; RuntimeError (with its stderr) if it fails. Its output goes to files, so that
    a program that prints much cannot block on a full pipe."""
    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(command, stdout=stdout, stderr=stderr, env=env, cwd=cwd)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        stdout.seek(0)
        stderr.seek(0)
        if process.returncode != 0:
            message = stderr.read().decode(errors="replace")
            raise RuntimeError(f"{' '.join(command)} failed: {message}")
        return stdout.read().decode(errors="replace"), usage


def run_measured(build: paths.Build, program: str, options: list[str]) -> MeasuredRun:
    """Run ``program`` of ``build`` with ``options`` and ``--output=RECORD``;
    RuntimeError (with its stderr) if it fails."""
    with tempfile.TemporaryDirectory() as workdir:
        output = Path(workdir) / "record.json"
        command = [str(build.program(program)), *options, f"--output={output}"]
        _, usage = run_command(command, build.environment())
        return MeasuredRun(json.loads(output.read_text()), usage)


def collected(stderr: str) -> int:
    """The instructions callgrind counted, from its summary line ``==pid== Collected : N``."""
    match = re.search(r"^==\d+== Collected : (\d+)$", stderr, re.MULTILINE)
    if match is None:
        raise RuntimeError(f"callgrind printed no instruction count: {stderr[-500:]}")
    return int(match.group(1))


def run_counted(build: paths.Build, program: str, options: list[str]) -> tuple[int, dict[str, Any]]:
    """The instructions of a run of ``program`` of ``build`` with ``options`` under
    callgrind, and the run's record; RuntimeError (with its stderr) if it fails."""
    with tempfile.TemporaryDirectory() as workdir:
        output = Path(workdir) / "record.json"
        command = [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            str(build.program(program)),
            *options,
            f"--output={output}",
        ]
        done = subprocess.run(
            command, capture_output=True, text=True, env=build.environment(), check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {done.stderr[-500:]}")
        record: dict[str, Any] = json.loads(output.read_text())
        return collected(done.stderr), record
