"""Where the module's build products are.

The scenario programs come from one of two builds:

* the module's standalone build (``make setup``, over the ns-3 wheel):
  ``$RUDP_BUILD_DIR`` or ``<repo>/build``, programs in ``bin/``;
* an ns-3 tree that builds the module (``contrib/rudp``), e.g. in its
  optimized profile: ``$RUDP_NS3_BUILD`` (or ``--ns3-build`` of a sweep)
  names the tree or its build folder. ns-3 names a program
  ``ns<VERSION>-<name>[-<profile>]`` in its folder of the build
  (``build/contrib/rudp/examples/ns3.48-rudp-cmt-optimized``) and runs it with
  the tree's libraries on the loader path, as ``./ns3 run`` does.

:func:`current_build` chooses: an explicit tree first, then
``$RUDP_NS3_BUILD``, then the standalone build.
"""

from __future__ import annotations

import ast
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

#: The repository (module) root: python/rudp/paths.py -> ../..
REPO_ROOT = Path(__file__).resolve().parents[2]

#: The environment variable naming an ns-3 tree (or its build folder) whose
#: programs the scenarios run instead of the standalone build's.
NS3_BUILD_VARIABLE = "RUDP_NS3_BUILD"

#: The module's name in an ns-3 tree (its folder under contrib/ or src/).
MODULE = "rudp"

#: The module's scenario programs (its examples with program options of their
#: own), as the build names them.
SCENARIO_PROGRAMS = (
    "rudp-file-transfer",
    "rudp-tcp-vs-udp",
    "rudp-cmt",
    "rudp-cc-comparison",
    "rudp-distributed",
    "rudp-transport-cost",
    "rudp-udp-floor",
    "rudp-many-flows",
    "rudp-coupling",
    "rudp-phone",
    "rudp-test-files",
    "rudp-netem-correlation",
    "rudp-scratch-example",
)

#: ns-3's build profiles; "release" programs have no suffix.
NS3_PROFILES = ("debug", "default", "release", "optimized", "minsizerel")

#: The variable through which the dynamic loader finds a tree's libraries.
LOADER_PATH_VARIABLE = "DYLD_LIBRARY_PATH" if sys.platform == "darwin" else "LD_LIBRARY_PATH"

#: The command that starts a program on several MPI ranks (``mpiexec -n N program ...``).
MPIEXEC = "mpiexec"

#: What OpenMPI's mpiexec needs to run as root (a container's user) and to start
#: more ranks than there are cores: set for a build that runs programs on ranks.
OPENMPI_PERMISSIONS = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
}


def build_dir() -> Path:
    """The standalone build folder: ``$RUDP_BUILD_DIR`` or ``<repo>/build``."""
    return Path(os.environ.get("RUDP_BUILD_DIR", REPO_ROOT / "build")).resolve()


def is_program_name(name: str) -> bool:
    """True if ``name`` is a bare program name (no folder, not ``.`` or ``..``)."""
    return bool(name) and name not in {".", ".."} and "/" not in name and "\0" not in name


def _check_name(name: str, where: Path) -> None:
    if not is_program_name(name):
        raise ValueError(f"{name!r} is not a bare program name: programs run from {where}")


def read_lock_file(lock: Path) -> dict[str, Any]:
    """The literal assignments of an ns-3 lock file (Python syntax), without running it."""
    values: dict[str, Any] = {}
    for statement in ast.parse(lock.read_text(encoding="utf-8"), str(lock)).body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                try:
                    values[target.id] = ast.literal_eval(statement.value)
                except (ValueError, TypeError):
                    continue
    return values


def lock_file(tree: Path) -> Path:
    """The lock file ``./ns3 configure`` writes in the tree's root."""
    return tree / f".lock-ns3_{sys.platform}_build"


@dataclass(frozen=True)
class Build:
    """A build whose programs the scenarios run.

    ``folder`` is the standalone build folder (``ns3_tree`` False) or an ns-3
    tree's build (output) folder. ``version`` and ``profile`` are the tree's
    (from its lock file), which name its programs; None when unknown (a
    build folder without its tree): a program is then the one file of any
    version and profile that has its name.
    """

    folder: Path
    ns3_tree: bool = False
    version: str | None = None
    profile: str | None = None
    #: ns-3's MPI module is built (a tree configured with ``--enable-mpi``): the
    #: programs that take ``--ranks`` can be split across MPI processes.
    mpi: bool = False
    #: The MPI ranks each program runs on (:meth:`with_ranks`): above 1, under
    #: ``mpiexec -n ranks``.
    ranks: int = 1

    def __str__(self) -> str:
        if not self.ns3_tree:
            return f"the standalone build {self.folder}"
        profile = f", profile {self.profile}" if self.profile else ""
        ranks = f", on {self.ranks} MPI ranks" if self.ranks > 1 else ""
        return f"the ns-3 build {self.folder}{profile}{ranks}"

    def with_ranks(self, ranks: int) -> Build:
        """This build with its programs run on ``ranks`` MPI ranks.

        Raises:
            ValueError: ``ranks`` is below 1, or above 1 for a build without
                ns-3's MPI module (the standalone build, whose ns-3 wheel has
                none, or a tree configured without ``--enable-mpi``).
        """
        if isinstance(ranks, bool) or not isinstance(ranks, int) or ranks < 1:
            raise ValueError(f"MPI ranks must be a whole number >= 1, got {ranks!r}")
        if ranks > 1 and not self.mpi:
            raise ValueError(
                f"{ranks} MPI ranks need an ns-3 tree configured with --enable-mpi that "
                f"builds the module; {self} has no MPI"
                + ("" if self.ns3_tree else " (the ns-3 wheel has none)")
            )
        return replace(self, ranks=ranks)

    def launcher(self) -> list[str]:
        """What comes before a program's path on its command line: ``mpiexec -n N``
        on N ranks, nothing on one."""
        return [MPIEXEC, "-n", str(self.ranks)] if self.ranks > 1 else []

    @property
    def program_folders(self) -> tuple[Path, ...]:
        """Where programs are: ``bin/``, or the folders an ns-3 tree builds
        the module's examples, its scratch programs and its test runner into."""
        if not self.ns3_tree:
            return (self.folder / "bin",)
        return (
            self.folder / "contrib" / MODULE / "examples",
            self.folder / "src" / MODULE / "examples",
            self.folder / "scratch",
            self.folder / "utils",
        )

    @property
    def library_folders(self) -> tuple[Path, ...]:
        """The folders of libraries the programs load that the loader does not search
        by itself: an ns-3 tree's ``lib`` (and ``lib64``), as ``./ns3 run`` sets them."""
        if not self.ns3_tree:
            return ()
        return tuple(f for f in (self.folder / "lib", self.folder / "lib64") if f.is_dir())

    def program(self, name: str) -> Path:
        """Path of a compiled example, scratch program or the test runner.

        Only programs of this build run: ``name`` is a bare name, never a path.

        Raises:
            FileNotFoundError: the program is not built.
            ValueError: ``name`` is not a bare program name (``../x``, ``/bin/sh``).
        """
        if not self.ns3_tree:
            _check_name(name, self.folder / "bin")
            path = self.folder / "bin" / name
            if not path.is_file():
                raise FileNotFoundError(f"{path} does not exist: build it with 'make setup'")
            return path
        _check_name(name, self.folder)
        return self._tree_program(name)

    def _tree_program(self, name: str) -> Path:
        if self.version is not None:
            suffix = "" if self.profile in (None, "release") else f"-{self.profile}"
            file = f"ns{self.version}-{name}{suffix}"
            for folder in self.program_folders:
                if (folder / file).is_file():
                    return folder / file
            raise FileNotFoundError(
                f"{file} is not in {self.program_folders[0]} (nor in the tree's scratch/ or "
                f"utils/): build it with './ns3 build {name}'"
            )
        # No lock file: any version and profile, but only one of them.
        pattern = re.compile(
            r"ns3(?:(?:\.[0-9]+)+|-dev)-"
            + re.escape(name)
            + "(?:-(?:"
            + "|".join(NS3_PROFILES)
            + "))?"
        )
        found = [
            path
            for folder in self.program_folders
            if folder.is_dir()
            for path in sorted(folder.iterdir())
            if pattern.fullmatch(path.name) and path.is_file()
        ]
        if not found:
            raise FileNotFoundError(
                f"no ns-3 program {name!r} (ns3.<version>-{name}[-<profile>]) in "
                f"{self.program_folders[0]}: build it with './ns3 build {name}'"
            )
        if len(found) > 1:
            raise FileNotFoundError(
                f"several builds of {name!r} in {self.folder}: "
                + ", ".join(p.name for p in found)
                + "; give the ns-3 tree itself (its lock file names the profile)"
            )
        return found[0]

    def environment(self, base: Mapping[str, str] | None = None) -> dict[str, str]:
        """``base`` (default: this process's environment) as a program of this build
        runs in: an ns-3 tree's library folders first on the loader path."""
        env = dict(os.environ if base is None else base)
        if self.ranks > 1:
            env.update(OPENMPI_PERMISSIONS)
        folders = [str(f) for f in self.library_folders]
        if folders:
            previous = env.get(LOADER_PATH_VARIABLE, "")
            env[LOADER_PATH_VARIABLE] = os.pathsep.join(folders + ([previous] if previous else []))
        return env


def standalone_build() -> Build:
    """The module's standalone build (:func:`build_dir`)."""
    return Build(build_dir())


def ns3_build(path: str | Path) -> Build:
    """The build of the ns-3 tree at ``path``: the tree (the folder holding ``./ns3``)
    or its build folder.

    A configured tree's lock file (``.lock-ns3_<platform>_build``) gives the
    build folder, the ns-3 version and the profile that name the programs.
    A build folder whose tree has no such lock file (an older ns-3, a copy)
    still works: its programs are found by name, whatever their version and
    profile, as long as each is there once.

    Raises:
        FileNotFoundError: ``path`` is not a folder, or holds no ns-3 build.
    """
    folder = Path(path).expanduser().resolve()
    if not folder.is_dir():
        raise FileNotFoundError(f"{path}: no such folder (an ns-3 tree or its build folder)")
    for tree in (folder, folder.parent):
        lock = lock_file(tree)
        if not lock.is_file():
            continue
        values = read_lock_file(lock)
        out_dir = Path(str(values.get("out_dir", tree / "build"))).resolve()
        if folder in (tree, out_dir):
            version = values.get("VERSION")
            profile = values.get("BUILD_PROFILE")
            modules = values.get("NS3_ENABLED_MODULES")
            return Build(
                out_dir,
                ns3_tree=True,
                version=str(version) if version else None,
                profile=str(profile) if profile else None,
                mpi=isinstance(modules, list) and "ns3-mpi" in modules,
            )
    build = folder / "build" if (folder / "ns3").exists() else folder
    if not (build / "lib").is_dir() and not (build / "lib64").is_dir():
        raise FileNotFoundError(
            f"{path} is neither a configured ns-3 tree nor an ns-3 build folder "
            "(no lock file, no lib/): './ns3 configure --enable-examples' and "
            "'./ns3 build' first"
        )
    return Build(build, ns3_tree=True)


def current_build(ns3: str | Path | None = None) -> Build:
    """The build whose programs run: the ns-3 tree ``ns3`` if given, else the one
    ``$RUDP_NS3_BUILD`` names, else the standalone build.

    Raises:
        FileNotFoundError: the ns-3 tree named holds no ns-3 build.
    """
    chosen = ns3 if ns3 is not None else os.environ.get(NS3_BUILD_VARIABLE) or None
    return ns3_build(chosen) if chosen is not None else standalone_build()


def program(name: str, build: Build | None = None) -> Path:
    """Path of a compiled example, scratch program or the test runner of ``build``
    (default: :func:`current_build`).

    Only programs of the build run: ``name`` is a bare name, never a path.

    Raises:
        FileNotFoundError: the program is not built (run ``make setup``).
        ValueError: ``name`` is not a bare program name (``../x``, ``/bin/sh``).
    """
    return (build if build is not None else current_build()).program(name)


def library() -> Path:
    """Path of the module's shared library (``librudp.so``) of the standalone build."""
    return build_dir() / "lib" / "librudp.so"


def include_dir() -> Path:
    """Folder holding ``ns3/rudp-module.h`` and the module's headers."""
    return build_dir() / "include"
