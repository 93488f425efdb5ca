"""sem (ns-3's simulation execution manager) drives the scenario programs.

sem's ``CampaignManager`` runs an ns-3 program over a grid of its options:
it reads the options and their defaults from ``--PrintHelp``, fills every
option the grid leaves out with that default (as sem parses it: numbers as
Python floats, ``None`` for an option printed without one), picks each run's
``RngRun``, runs it in a folder of its own and keeps the files it writes.
These tests build a scratch campaign with sem's own classes over the
standalone build: only the step that finds the program differs from
``CampaignManager.new`` (sem looks in an ns-3 tree's build status file;
here the program is in ``build/bin``, built by CMake), so what sem passes to
the programs, and how it reads their output, is sem's.

sem comes from PyPI (``requirements-sem.txt``, installed by
``make test-python``).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import sem
from sem.database import DatabaseManager
from sem.parallelrunner import ParallelRunner

from rudp import paths


class StandaloneBuildRunner(ParallelRunner):  # type: ignore[misc]
    """sem's default runner for a program of the standalone build.

    sem's ``SimulationRunner.__init__`` configures and builds an ns-3 tree
    and looks the program up in its build status file; here the program is
    the one CMake builds in ``build/bin``, and building it is CMake's job.
    Running, parallelism and result collection are sem's, unchanged.
    """

    def __init__(self, script: str) -> None:
        executable = paths.program(script)
        self.path = str(executable.parent)
        self.script = script
        self.script_executable = str(executable)
        self.optimized = False
        self.max_parallel_processes = 2
        self.environment: dict[str, str] = {}

    def configure_and_build(
        self, show_progress: bool = True, optimized: bool = True, skip_configuration: bool = False
    ) -> None:
        subprocess.run(
            ["cmake", "--build", str(paths.build_dir()), "--target", self.script],
            check=True,
            capture_output=True,
        )


def _campaign(script: str, folder: Path) -> Any:
    """A new campaign, as ``sem.CampaignManager.new`` makes one for a tree."""
    runner = StandaloneBuildRunner(script)
    database = DatabaseManager.new(
        script=script,
        params=runner.get_available_parameters(),
        commit="",
        campaign_dir=str(folder),
        overwrite=True,
    )
    return sem.CampaignManager(database, runner, check_repo=False)


def _record(result: dict[str, Any]) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(result["output"]["metrics.json"])
    return record


#: ``    --name:   description [default]``, the default absent for some options
OPTION = re.compile(r"^\s+--(?P<name>[A-Za-z][\w-]*):\s+.*?(?:\[(?P<default>[^\[\]]*)\])?$")

SCENARIOS = paths.SCENARIO_PROGRAMS


@pytest.mark.parametrize(
    "program", [pytest.param(p, marks=pytest.mark.programs(p), id=p) for p in SCENARIOS]
)
def test_sem_reads_each_default_as_the_program_prints_it(program: str) -> None:
    runner = StandaloneBuildRunner(program)
    help_text = subprocess.run(
        [runner.script_executable, "--PrintHelp"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    section = help_text.split("Program Options:")[1].split("General Arguments:")[0]
    printed = {
        m["name"]: m["default"] for m in map(OPTION.match, section.splitlines()) if m is not None
    }
    read = runner.get_available_parameters()
    for name, default in printed.items():
        # An option printed without a default: sem passes None, which the
        # programs take as unset. A bracket elsewhere on its line (an
        # interval) would be read as its default.
        if default is None:
            assert read[name] is None, f"{program} --{name}: sem reads {read[name]!r}"
        else:
            assert str(read[name]).lower() in {default.lower(), f"{default}.0"}, name


@pytest.mark.programs("rudp-cc-comparison")
def test_sem_runs_cc_comparison_with_its_defaults(tmp_path: Path) -> None:
    campaign = _campaign("rudp-cc-comparison", tmp_path / "campaign")
    campaign.run_missing_simulations(
        {"flows": ["cubic@50ms", "newreno@50ms"], "duration": "2s", "output": "metrics.json"},
        runs=1,
    )
    results = campaign.db.get_complete_results()
    assert len(results) == 2
    for result in results:
        assert result["meta"]["exitcode"] == 0, result["output"]["stderr"]


@pytest.mark.programs("rudp-file-transfer")
def test_sem_runs_file_transfer_with_its_defaults_for_every_other_option(tmp_path: Path) -> None:
    campaign = _campaign("rudp-file-transfer", tmp_path / "campaign")
    defaults = campaign.db.get_params()
    # What sem will pass for the options the grid leaves out.
    assert defaults["mtu"] == 1500.0  # an integer, as sem reads it: a float
    assert defaults["sack"] is False
    assert defaults["output"] is None  # printed without a default

    grid = {"size": 20000, "loss": [0, 0.05], "output": "metrics.json"}
    campaign.run_missing_simulations(grid, runs=2)

    results = campaign.db.get_complete_results()
    assert len(results) == 4
    for result in results:
        assert result["meta"]["exitcode"] == 0, result["output"]["stderr"]
        record = _record(result)
        assert record["ok"] and record["sha256_match"]
        assert record["bytes"] == 20000
        assert record["rng_run"] == result["params"]["RngRun"]
        assert record["mtu"] == 1500
    for loss in (0, 0.05):
        runs = {r["params"]["RngRun"] for r in campaign.db.get_complete_results({"loss": loss})}
        assert len(runs) == 2

    # The doc's recipe: sem's data frame from a parsing function.
    @sem.utils.output_labels(["transfer_time_s", "segments_sent"])  # type: ignore[untyped-decorator]
    def metrics(result: dict[str, Any]) -> list[float]:
        record = _record(result)
        return [record["transfer_time_s"], record["segments_sent"]]

    frame = campaign.get_results_as_dataframe(metrics, params=grid)
    assert len(frame) == 4
    assert (frame["segments_sent"] >= 15).all()  # 20 000 bytes in 1400-byte segments


@pytest.mark.programs("rudp-file-transfer")
def test_a_sem_run_is_reproduced_by_its_command(tmp_path: Path) -> None:
    campaign = _campaign("rudp-file-transfer", tmp_path / "campaign")
    campaign.run_missing_simulations(
        {"size": 30000, "loss": 0.05, "output": "metrics.json"}, runs=1
    )
    (result,) = campaign.db.get_complete_results()
    again = tmp_path / "again"
    again.mkdir()
    command = [paths.program("rudp-file-transfer")] + [
        f"--{name}={value}" for name, value in result["params"].items()
    ]
    done = subprocess.run(
        command, cwd=again, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads((again / "metrics.json").read_text()) == _record(result)


@pytest.mark.programs("rudp-cmt")
def test_sem_runs_cmt_with_its_defaults_for_every_other_option(tmp_path: Path) -> None:
    campaign = _campaign("rudp-cmt", tmp_path / "campaign")
    assert campaign.db.get_params()["rtx-policy"] is None  # set by --ns2-defaults or not
    grid = {
        "paths": [1, 2],
        "ns2-defaults": [False, True],
        "duration": "3s",
        "warmup": "1s",
        "output": "metrics.json",
    }
    campaign.run_missing_simulations(grid, runs=1)

    results = campaign.db.get_complete_results()
    assert len(results) == 4
    for result in results:
        assert result["meta"]["exitcode"] == 0, result["output"]["stderr"]
        record = _record(result)
        assert record["ok"] and record["delivered_in_order"] and record["sha256_match"]
        assert record["paths"] == result["params"]["paths"]
        assert record["throughput_Bps"] > 0
        expected_policy = "RTX-SAME" if result["params"]["ns2-defaults"] else "RTX-SSTHRESH"
        assert record["rtx_policy"] == expected_policy
