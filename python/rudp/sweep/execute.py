"""Run one point: a subprocess of the scenario program, never an exception.

:func:`run_point` is what every pool (threads here, Dask workers elsewhere)
calls, so it resolves the program and its build identity where it runs and
turns every way a run can go wrong into an :class:`Outcome` with an error.
"""

from __future__ import annotations

import shlex
import subprocess
import time
from dataclasses import dataclass
from typing import Any

from .. import paths
from ..runner import ScenarioError, command_line, format_value, run_scenario
from .cache import build_identity
from .grid import Point


@dataclass(frozen=True)
class Outcome:
    """What one run of one point produced."""

    point: Point
    #: The command line that reproduces the run (without ``--output``).
    command: str
    #: Build identity of the program that ran (None if it could not be found).
    build: str | None = None
    #: The program's JSON metrics, None if the run failed.
    metrics: dict[str, Any] | None = None
    #: None on success, else a one-line reason ("exit status 2: ...").
    error: str | None = None
    #: The program's exit status; None if it never exited (timeout, not found).
    exit_status: int | None = None
    #: What the program printed on stderr when it failed.
    stderr: str | None = None
    #: Wall-clock seconds of the run (not part of the results: it varies).
    seconds: float = 0.0
    #: True if the outcome came from the cache rather than from a run.
    cached: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None

    def record(self) -> dict[str, Any]:
        """The outcome as a JSON-able cache record."""
        return {
            "program": self.point.program,
            "params": [list(p) for p in self.point.params],
            "run": self.point.run,
            "build": self.build,
            "command": self.command,
            "metrics": self.metrics,
            "seconds": self.seconds,
        }

    @classmethod
    def from_record(cls, point: Point, record: dict[str, Any]) -> Outcome:
        return cls(
            point=point,
            command=str(record["command"]),
            build=record.get("build"),
            metrics=record["metrics"],
            exit_status=0,
            seconds=float(record.get("seconds", 0.0)),
            cached=True,
        )


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def command_of(point: Point) -> str:
    """The shell command that runs ``point`` (the bare name if it is not built)."""
    params = {**dict(point.params), "RngRun": point.run}
    try:
        return shlex.join(command_line(point.program, params))
    except FileNotFoundError:
        args = [f"--{name}={format_value(value)}" for name, value in params.items()]
        return shlex.join([point.program, *args])


def failed(point: Point, reason: str) -> Outcome:
    """An outcome for a run that failed outside the program (e.g. a lost worker)."""
    return Outcome(point, command_of(point), error=reason)


def run_point(point: Point, timeout_s: float | None = 3600) -> Outcome:
    """Run ``point`` once and report what happened; never raises for a failed run."""
    params = {**dict(point.params), "RngRun": point.run}
    started = time.monotonic()
    command = command_of(point)
    try:
        program = paths.program(point.program)
    except FileNotFoundError as error:
        return Outcome(point, command, error=str(error))
    try:
        build = build_identity(program)
    except OSError as error:
        return Outcome(point, command, error=f"cannot read {program}: {error}")
    try:
        metrics = run_scenario(point.program, params, timeout_s=timeout_s)
    except ScenarioError as error:
        status = error.returncode
        if status < 0:
            reason = f"killed by signal {-status}"
        elif status == 0:
            reason = "exit status 0 but no metrics written"
        else:
            reason = f"exit status {status}"
        detail = _last_line(error.stderr)
        return Outcome(
            point,
            command,
            build,
            error=f"{reason}: {detail}" if detail else reason,
            exit_status=status,
            stderr=error.stderr,
            seconds=time.monotonic() - started,
        )
    except subprocess.TimeoutExpired as error:
        # run() hands back what was captured as str or bytes depending on the version.
        captured = error.stderr
        stderr = captured.decode(errors="replace") if isinstance(captured, bytes) else captured
        return Outcome(
            point,
            command,
            build,
            error=f"timed out after {timeout_s} s",
            stderr=stderr,
            seconds=time.monotonic() - started,
        )
    except (OSError, ValueError) as error:
        # OSError: the program vanished or is not executable (a rebuild in
        # progress); ValueError: its JSON is malformed.
        return Outcome(
            point,
            command,
            build,
            error=f"{type(error).__name__}: {error}",
            seconds=time.monotonic() - started,
        )
    return Outcome(
        point, command, build, metrics, exit_status=0, seconds=time.monotonic() - started
    )
