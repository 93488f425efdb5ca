"""Shared test setup: tests that run the compiled programs declare them.

``@pytest.mark.programs("rudp-file-transfer", ...)`` (or a module's
``pytestmark``) makes a test FAIL when one of those programs is not built,
instead of passing with a skip that only ``-ra`` shows: ``make test`` builds
them first. Set ``RUDP_SKIP_UNBUILT=1`` to skip such tests on purpose (e.g.
to run the pure-Python tests in a checkout that has not been built).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from rudp import paths

#: Environment variable that turns "not built" from a failure into a skip.
SKIP_UNBUILT = "RUDP_SKIP_UNBUILT"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "programs(*names): the test runs these compiled programs; it fails if one is "
        f"not built, or is skipped if {SKIP_UNBUILT}=1",
    )


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in item.iter_markers(name="programs"):
        missing = [name for name in marker.args if not (paths.build_dir() / "bin" / name).is_file()]
        if not missing:
            continue
        message = (
            f"not built in {paths.build_dir()}: {', '.join(missing)} "
            f"('make setup' builds them; {SKIP_UNBUILT}=1 skips these tests)"
        )
        if os.environ.get(SKIP_UNBUILT) == "1":
            pytest.skip(message)
        pytest.fail(message, pytrace=False)


@pytest.fixture
def library_built() -> None:
    """As the ``programs`` marker, for the module's library (the Python examples load it):
    fail if it is not built, unless told to skip."""
    if paths.library().is_file():
        return
    message = f"{paths.library()} is not built ('make setup' builds it)"
    if os.environ.get(SKIP_UNBUILT) == "1":
        pytest.skip(message)
    pytest.fail(message, pytrace=False)


#: The project's installer of Debian's ns2 (ns-2.35).
NS2_INSTALLER = Path(__file__).resolve().parents[2] / "scripts" / "install-ns2.sh"


@pytest.fixture(scope="session")
def ns2() -> str:
    """ns-2.35's ns, installed by the project's script when it is missing (the
    cross-checks against ns-2 fail, not skip, if that does not work)."""
    done = subprocess.run([str(NS2_INSTALLER)], check=False, timeout=1800)
    if done.returncode != 0:
        pytest.fail(
            f"{NS2_INSTALLER.name} failed (status {done.returncode}): the cross-check needs "
            "Debian's ns2 (apt-get install ns2)",
            pytrace=False,
        )
    found = shutil.which("ns")
    assert found, "install-ns2.sh succeeded but ns is not on PATH"
    return found
