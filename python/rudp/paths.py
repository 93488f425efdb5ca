"""Where the module's build products are."""

from __future__ import annotations

import os
from pathlib import Path

#: The repository (module) root: python/rudp/paths.py -> ../..
REPO_ROOT = Path(__file__).resolve().parents[2]


def build_dir() -> Path:
    """The standalone build folder: ``$RUDP_BUILD_DIR`` or ``<repo>/build``."""
    return Path(os.environ.get("RUDP_BUILD_DIR", REPO_ROOT / "build")).resolve()


def is_program_name(name: str) -> bool:
    """True if ``name`` is a bare program name (no folder, not ``.`` or ``..``)."""
    return bool(name) and name not in {".", ".."} and "/" not in name and "\0" not in name


def program(name: str) -> Path:
    """Path of a compiled example, scratch program or the test runner.

    Only programs of the build folder run: ``name`` is a bare name, never a path.

    Raises:
        FileNotFoundError: the program is not built (run ``make setup``).
        ValueError: ``name`` is not a bare program name (``../x``, ``/bin/sh``).
    """
    if not is_program_name(name):
        raise ValueError(
            f"{name!r} is not a bare program name: programs run from {build_dir()}/bin"
        )
    path = build_dir() / "bin" / name
    if not path.is_file():
        raise FileNotFoundError(f"{path} does not exist: build it with 'make setup'")
    return path


def library() -> Path:
    """Path of the module's shared library (``librudp.so``)."""
    return build_dir() / "lib" / "librudp.so"


def include_dir() -> Path:
    """Folder holding ``ns3/rudp-module.h`` and the module's headers."""
    return build_dir() / "include"
