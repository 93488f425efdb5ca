"""Run one point: a subprocess of the scenario program, never an exception.

:func:`run_point` is what every pool (threads here, Dask workers elsewhere)
calls, so it resolves the program, its build identity and the environment
where it runs, and turns every way a run can end into an :class:`Outcome`:

- ``ok``: the program exited 0 with its record;
- ``failed``: the program ran and reported a failed run (exit status 1 with
  a record saying ``"ok": false``): a result like any other, with the
  metrics it could compute, and as deterministic, so it is cached;
- ``error``: no result: killed by a signal, timed out, a bad parameter
  (exit status 2), no record, not built, or stopped by an interruption.
  Never cached: the next sweep runs it again.
"""

from __future__ import annotations

import math
import os
import shlex
import subprocess
import time
from dataclasses import dataclass
from typing import Any, Literal

from .. import paths
from ..runner import (
    Children,
    Interrupted,
    ScenarioError,
    command_line,
    format_value,
    run_scenario,
)
from .cache import build_identity
from .grid import Point

#: The environment variables that change what an ns-3 program computes
#: (``NS_GLOBAL_VALUE=RngSeed=3``, ``NS_ATTRIBUTE_DEFAULT=ns3::...=...``):
#: part of a result's identity. ``NS_LOG`` only changes what it prints.
RESULT_ENVIRONMENT = ("NS_GLOBAL_VALUE", "NS_ATTRIBUTE_DEFAULT")

#: A run's environment as it enters the cache key: (name, value) pairs, sorted.
Environment = tuple[tuple[str, str], ...]

Status = Literal["ok", "failed", "error"]


def environment() -> Environment:
    """The variables of :data:`RESULT_ENVIRONMENT` set (non-empty) in this process."""
    return tuple((name, os.environ[name]) for name in RESULT_ENVIRONMENT if os.environ.get(name))


@dataclass(frozen=True)
class Outcome:
    """What one run of one point produced."""

    point: Point
    #: The command line that reproduces the run (without ``--output``).
    command: str
    #: Build identity of the program that ran (None if it could not be found).
    build: str | None = None
    #: The program's JSON record: a success's metrics, a failed run's (with
    #: ``"ok": false`` and ``"failure"``), or None if it wrote none.
    metrics: dict[str, Any] | None = None
    #: None on success, else a one-line reason ("exit status 1: <failure>").
    error: str | None = None
    #: The program's exit status; None if it never exited (timeout, not found).
    exit_status: int | None = None
    #: What the program printed on stderr when it failed.
    stderr: str | None = None
    #: Wall-clock seconds of the run (not part of the results: it varies).
    seconds: float = 0.0
    #: True if the outcome came from the cache rather than from a run.
    cached: bool = False
    #: The result-changing environment it ran in (:func:`environment`).
    environment: Environment = ()

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def status(self) -> Status:
        """``ok``, ``failed`` (a reported failure: a result) or ``error`` (no result)."""
        if self.error is None:
            return "ok"
        reported = (
            self.metrics is not None
            and self.metrics.get("ok") is False
            and self.exit_status in (0, 1)
        )
        return "failed" if reported else "error"

    @property
    def is_result(self) -> bool:
        """True for a success or a reported failure: deterministic, so worth caching."""
        return self.status != "error" and self.build is not None

    def record(self) -> dict[str, Any]:
        """The outcome as a JSON-able cache record."""
        record: dict[str, Any] = {
            "program": self.point.program,
            "params": [list(p) for p in self.point.params],
            "run": self.point.run,
            "build": self.build,
            "command": self.command,
            "metrics": self.metrics,
            "seconds": self.seconds,
        }
        if self.environment:
            record["environment"] = [list(e) for e in self.environment]
        if not self.ok:
            record.update(error=self.error, exit_status=self.exit_status, stderr=self.stderr)
        return record

    @classmethod
    def from_record(cls, point: Point, record: dict[str, Any]) -> Outcome:
        """The outcome a cache record holds.

        Raises:
            ValueError: the record is incomplete or malformed (a file cut
                short, another version's, edited by hand): not a result.
        """
        command, metrics = record.get("command"), record.get("metrics")
        error, stderr = record.get("error"), record.get("stderr")
        exit_status, seconds = record.get("exit_status", 0), record.get("seconds", 0.0)
        build, run = record.get("build"), record.get("run", point.run)
        checks = (
            isinstance(command, str),
            isinstance(metrics, dict),
            error is None or isinstance(error, str),
            stderr is None or isinstance(stderr, str),
            isinstance(exit_status, int) and not isinstance(exit_status, bool),
            isinstance(seconds, int | float) and not isinstance(seconds, bool),
            build is None or isinstance(build, str),
            run == point.run,
        )
        if not all(checks) or not math.isfinite(seconds):
            raise ValueError("incomplete or malformed cache record")
        outcome = cls(
            point=point,
            command=str(command),
            build=build,
            metrics=metrics,
            error=error,
            exit_status=exit_status,
            stderr=stderr,
            seconds=float(seconds),
            cached=True,
            environment=_environment_of(record.get("environment", [])),
        )
        if outcome.status == "error":
            raise ValueError("a cache record holds a result, not an error")
        return outcome


def _environment_of(value: Any) -> Environment:
    if not isinstance(value, list) or not all(
        isinstance(e, list) and len(e) == 2 and all(isinstance(s, str) for s in e) for e in value
    ):
        raise ValueError("malformed environment in a cache record")
    return tuple((str(e[0]), str(e[1])) for e in value)


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def command_of(point: Point, build: paths.Build | None = None) -> str:
    """The shell command that runs ``point`` with ``build``'s program (default:
    :func:`rudp.paths.current_build`; the bare name if it is not built)."""
    params = {**dict(point.params), "RngRun": point.run}
    try:
        return shlex.join(command_line(point.program, params, build))
    except (FileNotFoundError, ValueError):
        args = [f"--{name}={format_value(value)}" for name, value in params.items()]
        return shlex.join([point.program, *args])


def failed(point: Point, reason: str, build: paths.Build | None = None) -> Outcome:
    """An outcome for a run that failed outside the program (e.g. a lost worker)."""
    return Outcome(point, command_of(point, build), error=reason)


def _reported_failure(metrics: dict[str, Any], stderr: str) -> str:
    """A failed run's reason: its record's ``failure``, else its last line on stderr."""
    failure = metrics.get("failure")
    if isinstance(failure, str) and failure.strip():
        return failure.strip().splitlines()[0]
    return _last_line(stderr) or "the run failed (no reason given)"


def _scenario_failure(error: ScenarioError) -> dict[str, Any]:
    """The Outcome fields of a run whose program exited non-zero or wrote no record."""
    status, record = error.returncode, error.metrics
    if status == 1 and record is not None and record.get("ok") is False:
        reason = f"exit status 1: {_reported_failure(record, error.stderr)}"
        return {"metrics": record, "error": reason, "exit_status": 1, "stderr": error.stderr}
    if status < 0:
        reason = f"killed by signal {-status}"
    elif status == 0:
        reason = "exit status 0 but no metrics written"
    elif record is None:
        reason = f"exit status {status}"
    else:
        reason = f'exit status {status} with a record that does not say "ok": false'
    detail = _last_line(error.stderr)
    return {
        "metrics": record,
        "error": f"{reason}: {detail}" if detail else reason,
        "exit_status": status,
        "stderr": error.stderr,
    }


def _no_result(error: Exception, timeout_s: float | None) -> dict[str, Any]:
    """The Outcome fields of a run that ended without an exit status of its own."""
    if isinstance(error, subprocess.TimeoutExpired):
        # Captured output comes as str or bytes depending on the version.
        captured = error.stderr
        stderr = captured.decode(errors="replace") if isinstance(captured, bytes) else captured
        return {"error": f"timed out after {timeout_s} s", "stderr": stderr}
    if isinstance(error, Interrupted):
        return {"error": f"interrupted: {error}"}
    # OSError: the program vanished or is not executable (a rebuild in
    # progress); ValueError: its record is not a JSON object.
    return {"error": f"{type(error).__name__}: {error}"}


def run_point(
    point: Point,
    timeout_s: float | None = 3600,
    children: Children | None = None,
    build: paths.Build | None = None,
) -> Outcome:
    """Run ``point`` once and report what happened; never raises for a failed run.

    ``children``: the sweep's registry of running programs, which an
    interruption stops (None: the run is on its own, as on a Dask worker).
    ``build``: whose program runs (default: :func:`rudp.paths.current_build`
    where the run happens: a Dask worker's own).
    """
    params = {**dict(point.params), "RngRun": point.run}
    started = time.monotonic()
    env = environment()
    try:
        # FileNotFoundError: not built, or $RUDP_NS3_BUILD names no ns-3 build;
        # ValueError: not a program name.
        build = build if build is not None else paths.current_build()
        program = build.program(point.program)
        identity = build_identity(program, build)
    except (OSError, ValueError) as error:
        reason = str(error) if isinstance(error, FileNotFoundError | ValueError) else None
        return Outcome(
            point,
            command_of(point, build),
            error=reason or f"cannot read {point.program}: {error}",
            environment=env,
        )
    command = command_of(point, build)

    def ended(**fields: Any) -> Outcome:
        return Outcome(
            point,
            command,
            identity,
            seconds=time.monotonic() - started,
            environment=env,
            **fields,
        )

    try:
        metrics = run_scenario(
            point.program, params, timeout_s=timeout_s, children=children, build=build
        )
    except ScenarioError as error:
        return ended(**_scenario_failure(error))
    except (subprocess.TimeoutExpired, Interrupted, OSError, ValueError) as error:
        return ended(**_no_result(error, timeout_s))
    if metrics.get("ok") is False:
        # Exit status 0, yet the record says the run failed: believe the record.
        reason = f"exit status 0: {_reported_failure(metrics, '')}"
        return ended(metrics=metrics, error=reason, exit_status=0)
    return ended(metrics=metrics, exit_status=0)
