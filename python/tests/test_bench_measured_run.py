"""bench/measured_run.py: the one step every bench shares."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rudp import paths

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
from measured_run import run_measured  # noqa: E402


@pytest.mark.programs("rudp-transport-cost")
def test_a_run_gives_its_record_and_its_own_resource_usage() -> None:
    run = run_measured(
        paths.standalone_build(), "rudp-transport-cost", ["--transport=udp", "--bytes=100000"]
    )
    assert int(run.record["packets"]) > 0
    assert run.cpu_s > 0
    assert run.peak_rss_mb > 1


@pytest.mark.programs("rudp-transport-cost")
def test_a_failed_run_raises_with_the_programs_message() -> None:
    with pytest.raises(RuntimeError, match="--transport"):
        run_measured(paths.standalone_build(), "rudp-transport-cost", ["--transport=carrier"])
