"""A sweep on a cluster's batch jobs: ``--cluster slurm`` through dask-jobqueue,
against a real one-node Slurm cluster (scripts/slurm-cluster.sh, Debian's
slurmctld, slurmd and munge), and the options that choose it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from rudp import paths
from rudp.sweep import GridError
from rudp.sweep.cli import main, parser, slurm_jobs
from rudp.sweep.cluster import SlurmJobs, parse_adaptive, slurm_client
from rudp.sweep.frame import load

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "slurm-cluster.sh"
PROGRAM = "rudp-file-transfer"
SLURM_TOOLS = ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel")

needs_file_transfer = pytest.mark.skipif(
    not (paths.build_dir() / "bin" / PROGRAM).is_file(),
    reason="the examples are not built (make setup)",
)


def _missing_slurm() -> str:
    missing = [tool for tool in SLURM_TOOLS if shutil.which(tool) is None]
    if missing:
        tools = ", ".join(missing)
        return f"no {tools} (scripts/install-system-deps.sh slurm installs Slurm and munge)"
    try:
        import dask_jobqueue  # noqa: F401, PLC0415
    except ImportError:
        return "no dask-jobqueue (pip install -r requirements-cluster.txt)"
    return ""


needs_slurm = pytest.mark.skipif(bool(_missing_slurm()), reason=_missing_slurm() or "-")


@pytest.fixture(scope="module")
def slurm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A one-node Slurm cluster for this module's tests: the environment that
    reaches it (SLURM_CONF). Stopped after them, whatever happens."""
    folder = tmp_path_factory.mktemp("slurm")
    # OMP_NUM_THREADS=1, as Dask's LocalCluster leaves it in the process that
    # ran one: the node must still get every CPU (nproc would say 1).
    started = subprocess.run(
        [str(SCRIPT), "start", str(folder)],
        env=os.environ | {"OMP_NUM_THREADS": "1"},
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert started.returncode == 0, started.stdout + started.stderr
    last = started.stdout.strip().splitlines()[-1]
    assert last == f"export SLURM_CONF={folder}/slurm.conf", started.stdout
    try:
        yield {"SLURM_CONF": str(folder / "slurm.conf")}
    finally:
        subprocess.run([str(SCRIPT), "stop", str(folder)], timeout=60, check=False)


def _squeue(env: dict[str, str]) -> list[str]:
    listed = subprocess.run(
        ["squeue", "-h", "-o", "%i %j %T"],
        env=os.environ | env,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return listed.stdout.split("\n")[:-1]


def _queue_drained(env: dict[str, str], seconds: float = 60.0) -> list[str]:
    """The jobs still queued after waiting up to ``seconds`` for Slurm to clear
    its queue. A job whose processes have ended stays COMPLETING while slurmd
    runs its epilog; none may stay RUNNING or PENDING."""
    deadline = time.monotonic() + seconds
    queued = _squeue(env)
    while queued and time.monotonic() < deadline:
        time.sleep(0.5)
        queued = _squeue(env)
    return queued


def _jobs_ever(env: dict[str, str]) -> list[tuple[str, str]]:
    """(name, state) of the jobs slurmctld knows, running or recently ended."""
    shown = subprocess.run(
        ["scontrol", "-o", "show", "jobs"],
        env=os.environ | env,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    jobs = []
    for line in shown.stdout.splitlines():
        fields = dict(field.split("=", 1) for field in line.split() if "=" in field)
        if "JobName" in fields:
            jobs.append((fields["JobName"], fields["JobState"]))
    return jobs


TINY = [
    PROGRAM,
    "--set",
    "size=20000",
    "--set",
    "window=10",
    "--axis",
    "variant=go-back-n,reno",
    "--axis",
    "loss=0.0,0.05",
    "--runs",
    "2",
    "--no-report",
    "--quiet",
]


def _records(folder: Path) -> dict[str, dict[str, object]]:
    """The cache's records by key, less the one field that is the run's wall time."""
    records = {}
    for path in sorted((folder / "cache").glob("*.json")):
        record = json.loads(path.read_text())
        del record["seconds"]
        records[path.name] = record
    return records


@needs_file_transfer
@needs_slurm
def test_a_sweep_on_slurm_jobs_writes_the_records_of_a_local_run(
    slurm: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in slurm.items():
        monkeypatch.setenv(name, value)
    assert main([*TINY, "--out", str(tmp_path / "local"), "--jobs", "2"]) == 0
    cluster = [
        "--cluster",
        "slurm",
        "--cores",
        "2",
        "--memory",
        "1GB",
        "--walltime",
        "00:10:00",
        "--interface",
        "lo",
        "--cluster-jobs",
        "1",
    ]
    assert main([*TINY, "--out", str(tmp_path / "slurm"), *cluster]) == 0

    local, remote = _records(tmp_path / "local"), _records(tmp_path / "slurm")
    assert len(local) == 8
    assert local == remote
    pd.testing.assert_frame_equal(load(tmp_path / "local"), load(tmp_path / "slurm"))
    # The workers were Slurm's jobs, all ended with the sweep (slurmctld keeps
    # an ended job for MinJobAge, 300 s).
    jobs = _jobs_ever(slurm)
    assert jobs and all(name == "rudp-sweep" for name, _ in jobs), jobs
    # Ended, not merely retiring: none runs or waits, and Slurm clears them.
    assert all(line.endswith(" COMPLETING") for line in _squeue(slurm)), _squeue(slurm)
    assert not _queue_drained(slurm)
    # Each job's output lands beside the results, not where the sweep started.
    assert list((tmp_path / "slurm" / "slurm-jobs").glob("*.out"))


@needs_slurm
def test_a_partition_slurm_does_not_know_is_a_usage_error_before_any_job(
    slurm: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, value in slurm.items():
        monkeypatch.setenv(name, value)
    argv = [*TINY, "--out", str(tmp_path / "out"), "--cluster", "slurm", "--queue", "nope"]
    assert main(argv) == 2
    assert "Slurm would not run the workers' job" in capsys.readouterr().err
    assert not _squeue(slurm)
    assert not (tmp_path / "out" / "cache").exists()


@needs_slurm
def test_the_one_node_cluster_has_every_cpu_of_the_machine(slurm: dict[str, str]) -> None:
    shown = subprocess.run(
        ["scontrol", "-o", "show", "node"],
        env=os.environ | slurm,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    fields = dict(field.split("=", 1) for field in shown.stdout.split() if "=" in field)
    assert int(fields["CPUTot"]) == len(os.sched_getaffinity(0))


# --- the options ---------------------------------------------------------------------------


def _jobs(*argv: str) -> SlurmJobs | None:
    return slurm_jobs(parser().parse_args([PROGRAM, *argv]))


def test_cluster_options_make_the_jobs_dask_jobqueue_submits() -> None:
    assert _jobs() is None
    jobs = _jobs(
        "--cluster", "slurm", "--queue", "q", "--account", "a", "--cores", "16",
        "--memory", "32GB", "--walltime", "1-02:00:00", "--cluster-jobs", "8",
    )  # fmt: skip
    assert jobs == SlurmJobs("q", "a", "1-02:00:00", 16, "32GB", 8)
    assert jobs.cluster_arguments() == {
        "queue": "q",
        "account": "a",
        "walltime": "1-02:00:00",
        "cores": 16,
        "processes": 1,
        "memory": "32GB",
        "job_name": "rudp-sweep",
    }
    adaptive = _jobs("--cluster", "slurm", "--adaptive", "0:20")
    assert adaptive is not None and (adaptive.jobs, adaptive.adaptive) == (None, (0, 20))
    assert _jobs("--cluster", "slurm") == SlurmJobs()


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--queue", "q"], "--queue: only with --cluster"),
        (["--cluster", "slurm", "--scheduler", "tcp://h:8786"], "--cluster and --scheduler"),
        (["--cluster", "slurm", "--jobs", "4"], "--jobs"),
        (["--cluster", "slurm", "--walltime", "90"], "--walltime '90'"),
        (["--cluster", "slurm", "--memory", "lots"], "--memory 'lots'"),
        (["--cluster", "slurm", "--adaptive", "3:2"], "--adaptive 3:2"),
        (["--cluster", "slurm", "--adaptive", "0:2", "--cluster-jobs", "2"], "give one of them"),
        (["--cluster", "slurm", "--mpi-ranks", "2"], "--mpi-ranks with --cluster"),
    ],
)
def test_cluster_options_that_make_no_sense_are_named(argv: list[str], words: str) -> None:
    with pytest.raises(GridError, match=words.replace("(", r"\(").replace("'", "'")):
        _jobs(*argv)


def test_a_cluster_option_error_exits_2_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main([*TINY, "--out", str(out), "--account", "a"]) == 2
    assert "--account: only with --cluster" in capsys.readouterr().err
    assert not out.exists()


def test_adaptive_is_min_colon_max() -> None:
    assert parse_adaptive("2:10") == (2, 10)
    for text in ("10", "a:b", "-1:2", "1:"):
        with pytest.raises(ValueError, match="MIN:MAX"):
            parse_adaptive(text)


def test_without_dask_jobqueue_the_sweep_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "dask_jobqueue", None)
    monkeypatch.setitem(sys.modules, "dask_jobqueue.slurm", None)
    with pytest.raises(GridError, match=r"requirements-cluster\.txt"):
        with slurm_client(SlurmJobs()):
            pass


# --- the script's cold path ----------------------------------------------------------------


def test_the_cluster_script_refuses_a_wrong_call(tmp_path: Path) -> None:
    for argv in ([], ["start"], ["restart", str(tmp_path)]):
        done = subprocess.run(
            [str(SCRIPT), *argv], check=False, capture_output=True, text=True, timeout=30
        )
        assert done.returncode == 2
        assert "usage: slurm-cluster.sh start|stop DIR" in done.stderr


def test_stopping_a_cluster_that_never_started_does_nothing(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(SCRIPT), "stop", str(tmp_path / "none")],
        check=False,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
