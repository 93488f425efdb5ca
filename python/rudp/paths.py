"""Where the module's build products are."""

from __future__ import annotations

import os
from pathlib import Path

#: The repository (module) root: python/rudp/paths.py -> ../..
REPO_ROOT = Path(__file__).resolve().parents[2]


def build_dir() -> Path:
    """The standalone build folder: ``$RUDP_BUILD_DIR`` or ``<repo>/build``."""
    return Path(os.environ.get("RUDP_BUILD_DIR", REPO_ROOT / "build")).resolve()


def program(name: str) -> Path:
    """Path of a compiled example, scratch program or the test runner.

    Raises:
        FileNotFoundError: the program is not built (run ``make setup``).
    """
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
