"""Run one of the module's compiled scenario programs and read its metrics.

Each scenario (``rudp-file-transfer``, ...) takes ``--name=value`` options and
writes its metrics as a JSON object to ``--output``: ``"ok": true`` and the
metrics on success (exit status 0); on a failed run (exit status 1) the same
record with ``"ok": false``, a ``"failure"`` reason and every metric it could
compute; nothing on a bad parameter (exit status 2). :func:`run_scenario` is
the one place that turns a parameter dictionary into such a run, of the
standalone build's program or an ns-3 tree's (:func:`rudp.paths.current_build`).

Each run is a process group of its own in a temporary folder: a timeout or
:meth:`Children.stop` kills the whole group, and the folder goes with the run.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import tempfile
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from . import paths

#: A parameter value as a scenario's command line takes it.
Value = str | int | float | bool


class ScenarioError(RuntimeError):
    """A scenario run failed: it carries the command line, what it printed and its record.

    ``metrics`` is the JSON record the program wrote before it failed (a
    failed transfer's bytes delivered, its ``failure`` reason, ...), or None.
    """

    def __init__(
        self,
        command: list[str],
        returncode: int,
        stderr: str,
        metrics: dict[str, Any] | None = None,
    ) -> None:
        self.command = command
        self.returncode = returncode
        self.stderr = stderr
        self.metrics = metrics
        super().__init__(
            f"{' '.join(command)} exited with status {returncode}: {stderr.strip()[-2000:]}"
        )


class Interrupted(RuntimeError):
    """The run was not started, or was killed, because its :class:`Children` were stopped."""


def _kill_group(process: subprocess.Popen[str]) -> None:
    """SIGKILL ``process``'s process group (it leads one: see :func:`run_scenario`)."""
    if process.returncode is not None:
        return  # reaped: its group id may belong to someone else by now
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class Children:
    """The scenario processes of one sweep, so that all of them can be stopped at once.

    Thread-safe: the pool's threads start runs while the main thread may
    :meth:`stop` them. After :meth:`stop`, no new run starts.
    """

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._running: dict[subprocess.Popen[str], str] = {}
        self._stopped = False

    @property
    def stopped(self) -> bool:
        return self._stopped

    def start(
        self, command: Sequence[str], cwd: str, env: Mapping[str, str] | None = None
    ) -> subprocess.Popen[str]:
        """Start ``command`` as the leader of a new process group (and session), in
        ``env`` (default: this process's environment)."""
        with self._lock:
            if self._stopped:
                raise Interrupted("the sweep is stopping: not started")
            process = subprocess.Popen(
                command,
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                errors="replace",  # a program may print any bytes (a file name, say)
                start_new_session=True,
            )
            self._running[process] = cwd
            return process

    def finished(self, process: subprocess.Popen[str]) -> None:
        with self._lock:
            self._running.pop(process, None)

    def workdirs(self) -> list[str]:
        """The working folders of the runs still registered (not finished)."""
        with self._lock:
            return list(self._running.values())

    def stop(self) -> int:
        """Kill every running run's process group; refuse new runs. Returns how many ran."""
        with self._lock:
            self._stopped = True
            running = list(self._running)
            for process in running:
                _kill_group(process)
            return len(running)


def format_value(value: Value) -> str:
    """A parameter value as ns-3's CommandLine parses it (booleans as 0/1)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


_TIME_UNITS = {"fs": 1e-15, "ps": 1e-12, "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
_TIME = re.compile(r"^\s*\+?([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*(fs|ps|ns|us|ms|s)?\s*$")


def ns3_seconds(value: Any) -> float | None:
    """An ns-3 time as a parameter gives it ("20ms", "2s", "0", 0.5) in seconds; None
    if it is not one. The inverse of :func:`format_value` for times."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    match = _TIME.match(str(value))
    if match is None:
        return None
    return float(match.group(1)) * _TIME_UNITS[match.group(2) or "s"]


def command_line(
    program: str, params: Mapping[str, Value], build: paths.Build | None = None
) -> list[str]:
    """The argv that runs ``program`` of ``build`` (default: :func:`rudp.paths.current_build`)
    with ``params`` (without --output), under ``mpiexec`` when the build runs on ranks."""
    build = build if build is not None else paths.current_build()
    return [*build.launcher(), str(paths.program(program, build))] + [
        f"--{name}={format_value(value)}" for name, value in params.items()
    ]


def _read_record(output: Path) -> dict[str, Any] | None:
    """The JSON object the program wrote, None if it wrote none.

    Raises:
        ValueError: the file is not a JSON object.
    """
    if not output.is_file():
        return None
    record = json.loads(output.read_text(errors="replace"))
    if not isinstance(record, dict):
        raise ValueError(f"{output.name} holds a JSON {type(record).__name__}, not an object")
    return record


def run_scenario(
    program: str,
    params: Mapping[str, Value],
    timeout_s: float | None = 3600,
    children: Children | None = None,
    build: paths.Build | None = None,
) -> dict[str, Any]:
    """Run ``program`` with ``params`` and return the metrics it wrote.

    ``children``: the registry that can stop this run from another thread
    (a sweep's); None runs it on its own. ``build``: whose program runs
    (default: :func:`rudp.paths.current_build`); an ns-3 tree's runs with the
    tree's libraries on the loader path.

    Raises:
        ScenarioError: the program exited non-zero or wrote no metrics; its
            ``metrics`` hold the record it wrote anyway (a failed run's).
        subprocess.TimeoutExpired: it ran longer than ``timeout_s`` (its
            process group is killed).
        Interrupted: ``children`` was stopped before or while it ran.
        ValueError: it wrote something other than a JSON object.
    """
    registry = children if children is not None else Children()
    build = build if build is not None else paths.current_build()
    with tempfile.TemporaryDirectory(prefix="rudp-run-", ignore_cleanup_errors=True) as workdir:
        output = Path(workdir) / "metrics.json"
        command = [*command_line(program, params, build), f"--output={output}"]
        process = registry.start(command, workdir, build.environment())
        try:
            try:
                stdout, stderr = process.communicate(timeout=timeout_s)
            except subprocess.TimeoutExpired as expired:
                _kill_group(process)
                stdout, stderr = process.communicate()
                raise subprocess.TimeoutExpired(
                    command, expired.timeout, output=stdout, stderr=stderr
                ) from None
            except BaseException:
                # KeyboardInterrupt in a caller's own thread: no run outlives it.
                _kill_group(process)
                process.wait()
                raise
        finally:
            registry.finished(process)
        if registry.stopped and process.returncode < 0:
            raise Interrupted(f"killed as the sweep stopped: {' '.join(command)}")
        try:
            metrics = _read_record(output)
        except ValueError:
            if process.returncode == 0:
                raise
            metrics = None  # a run that failed and left a broken record: no record
        if process.returncode != 0 or metrics is None:
            raise ScenarioError(command, process.returncode, stderr or stdout, metrics)
        return metrics
