"""What a program accepts, read from the program itself, and grids checked against it.

An ns-3 program's ``CommandLine`` takes three kinds of ``--name=value``:

- its own options, which ``--PrintHelp`` lists under "Program Options";
- ns-3's global values (``RngSeed``, ``SchedulerType``, ...), which
  ``--PrintGlobals`` lists;
- attribute defaults, ``--ns3::Type::Attribute=value``, which
  ``--PrintAttributes=ns3::Type`` lists per type (the type's own attributes:
  those ``Config::SetDefault`` accepts under that type's name).

:func:`check_grids` refuses, before anything runs, every grid parameter that
is none of these, as sem does with the options it reads from ``--PrintHelp``:
a misspelt axis (``los = [0.1]``) would otherwise run every point of the
sweep and fail each one. Values are left to the program (it checks them,
with their ranges, when it runs).
"""

from __future__ import annotations

import difflib
import re
import subprocess
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .. import paths
from .cache import build_identity
from .grid import RESERVED, Grid, GridError

#: How long reading a program's help may take (seconds).
HELP_TIMEOUT_S = 60.0

#: An option line of ``--PrintHelp``, ``--PrintGlobals`` or ``--PrintAttributes``:
#: ``    --loss:  ...``, ``    --RngRun=[1]``, ``    --ns3::RudpSocket::Mss=[1400]``.
_OPTION = re.compile(r"^\s+--([^\s:=\[]+(?:::[^\s:=\[]+)*)[:=]")


class ProgramError(GridError):
    """A program cannot say what it accepts (it fails on ``--PrintHelp``)."""


def _ask(program: Path, build: paths.Build, argument: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(program), argument],
        env=build.environment(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=HELP_TIMEOUT_S,
        check=False,
    )


def _section(text: str, heading: str) -> list[str]:
    """The option names of one section of a help text (``Program Options:``), in order."""
    names: list[str] = []
    inside = False
    for line in text.splitlines():
        if not line.startswith((" ", "\t")):
            inside = line.strip() == heading
            continue
        match = _OPTION.match(line)
        if inside and match is not None:
            names.append(match.group(1))
    return names


def parse_help(text: str) -> tuple[str, ...]:
    """The program's own options in a ``--PrintHelp`` text."""
    return tuple(_section(text, "Program Options:"))


def parse_globals(text: str) -> tuple[str, ...]:
    """The global values in a ``--PrintGlobals`` text."""
    return tuple(_section(text, "Global values:"))


def parse_attributes(text: str, type_name: str) -> tuple[str, ...]:
    """The attribute names of ``type_name`` in a ``--PrintAttributes`` text."""
    prefix = f"{type_name}::"
    return tuple(
        name.removeprefix(prefix)
        for name in _section(text, f"Attributes for TypeId {type_name}")
        if name.startswith(prefix)
    )


@dataclass
class ProgramOptions:
    """What one build of one program accepts, read from it on demand."""

    #: The program's name, as a grid gives it.
    name: str
    program: Path
    build: paths.Build
    options: tuple[str, ...]
    _globals: tuple[str, ...] | None = None
    _attributes: dict[str, tuple[str, ...] | None] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def read(cls, name: str, program: Path, build: paths.Build) -> ProgramOptions:
        """The options ``program --PrintHelp`` lists (``name``: the program's name).

        Raises:
            ProgramError: the program fails on ``--PrintHelp`` or prints
                something other than ns-3's help.
        """
        try:
            done = _ask(program, build, "--PrintHelp")
        except (OSError, subprocess.TimeoutExpired) as error:
            raise ProgramError(f"{program}: cannot read its options: {error}") from error
        if done.returncode != 0 or "General Arguments:" not in done.stdout:
            last = (done.stderr.strip().splitlines() or ["its help is not ns-3's"])[-1]
            raise ProgramError(
                f"{program} --PrintHelp exited with status {done.returncode}: {last} "
                "(a sweep runs ns-3 programs, which list their options so)"
            )
        return cls(name, program, build, parse_help(done.stdout))

    def global_values(self) -> tuple[str, ...]:
        """ns-3's global values (``--PrintGlobals``; none if it fails)."""
        with self._lock:
            if self._globals is None:
                try:
                    done = _ask(self.program, self.build, "--PrintGlobals")
                    self._globals = parse_globals(done.stdout) if done.returncode == 0 else ()
                except (OSError, subprocess.TimeoutExpired):
                    self._globals = ()
            return self._globals

    def attributes(self, type_name: str) -> tuple[str, ...] | None:
        """The attributes of ``type_name`` (None: the program knows no such TypeId)."""
        with self._lock:
            if type_name not in self._attributes:
                try:
                    done = _ask(self.program, self.build, f"--PrintAttributes={type_name}")
                    known = done.returncode == 0
                    self._attributes[type_name] = (
                        parse_attributes(done.stdout, type_name) if known else None
                    )
                except (OSError, subprocess.TimeoutExpired):
                    self._attributes[type_name] = None
            return self._attributes[type_name]

    def problem(self, name: str) -> str | None:
        """Why ``--name=...`` is not something the program takes, or None if it is."""
        if name in self.options:
            return None
        if "::" in name:
            type_name, _, attribute = name.rpartition("::")
            attributes = self.attributes(type_name)
            if attributes is None:
                hint = "" if type_name.startswith("ns3::") else " (TypeIds start with 'ns3::')"
                return f"no TypeId {type_name!r} in {self.name}{hint}"
            if attribute in attributes:
                return None
            return f"{type_name} has no attribute {attribute!r}" + _did_you_mean(
                attribute, attributes, f"{type_name}::"
            )
        if name in self.global_values():
            return None
        return f"{self.name} has no option {name!r}" + _did_you_mean(name, self.options, "")


def _did_you_mean(name: str, known: Iterable[str], prefix: str) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {prefix}{close[0]!r}?)" if close else ""


_cache: dict[tuple[str, str], ProgramOptions] = {}
_cache_lock = threading.Lock()


def program_options(name: str, build: paths.Build) -> ProgramOptions:
    """:meth:`ProgramOptions.read` of ``build``'s program ``name``, once per build of
    the program (its identity).

    Raises:
        FileNotFoundError, ValueError: as :meth:`rudp.paths.Build.program`.
        ProgramError: the program cannot list its options.
    """
    program = build.program(name)
    key = (str(program), build_identity(program, build))
    with _cache_lock:
        known = _cache.get(key)
    if known is None:
        known = ProgramOptions.read(name, program, build)
        with _cache_lock:
            _cache[key] = known
    return known


def check_grids(grids: Iterable[Grid], build: paths.Build) -> None:
    """Refuse every parameter of ``grids`` that its program does not take.

    Each program of the grids is asked once (``--PrintHelp``, and
    ``--PrintGlobals`` or ``--PrintAttributes`` for names that are not its
    options). A program that is not built is not checked: its runs fail
    each with "does not exist", as before.

    Raises:
        GridError: naming every unknown parameter with its grid, and the
            likely intended name where one is close.
        ProgramError: a program cannot list its options.
    """
    problems: list[str] = []
    options: dict[str, ProgramOptions | None] = {}
    for grid in grids:
        if grid.program not in options:
            try:
                build.program(grid.program)
            except (FileNotFoundError, ValueError):  # not built: its runs say so
                options[grid.program] = None
            else:
                options[grid.program] = program_options(grid.program, build)
        known = options[grid.program]
        if known is None:
            continue
        names: Mapping[str, object] = {**grid.fixed, **grid.axes}
        for name in names:
            reason = known.problem(name) if name not in RESERVED else None
            if reason is not None:
                problems.append(f"grid {grid.name or grid.program!r}: {name!r}: {reason}")
    if problems:
        listed = "\n  ".join(dict.fromkeys(problems))
        raise GridError(
            f"unknown parameter(s), nothing was run:\n  {listed}\n"
            "(PROGRAM --PrintHelp lists a program's options, --PrintGlobals ns-3's globals, "
            "--PrintAttributes=ns3::Type a type's attribute defaults)"
        )
