"""A sweep's Dask workers as batch jobs of a cluster's scheduler: Slurm, through
dask-jobqueue's ``SLURMCluster``.

::

    python -m rudp.sweep seed003 --cluster slurm --queue batch --account proj \\
        --walltime 02:00:00 --cores 16 --memory 32GB --cluster-jobs 8

Each Slurm job runs one Dask worker with ``cores`` threads, each thread one
run at a time (a run is one single-threaded process). The Dask scheduler runs
in the sweep's own process, which also keeps the cache and writes the results:
the jobs only run programs, at the same path (a shared file system), and send
back their records, which are the records a local run writes. ``--cluster-jobs
N`` keeps N jobs; ``--adaptive MIN:MAX`` lets Dask submit and cancel jobs as
the runs left need. Every job is cancelled when the sweep ends, however it
ends.

Before any job is submitted, the job script is checked by ``sbatch
--test-only``: a queue or account Slurm does not know is a usage error, not
a sweep that waits for workers that never come.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .grid import GridError

if TYPE_CHECKING:
    from distributed import Client

#: The cluster schedulers --cluster knows.
CLUSTERS = ("slurm",)

#: What installs dask-jobqueue (not part of requirements.txt: make demo needs none of it).
REQUIREMENTS = "requirements-cluster.txt"

_WALLTIME = re.compile(r"^(?:(\d+)-)?(\d{1,2}):(\d{2}):(\d{2})$")
_MEMORY = re.compile(r"^\d+(?:\.\d+)?\s*(?:[KMGT]i?B)$", re.IGNORECASE)


@dataclass(frozen=True)
class SlurmJobs:
    """The Slurm jobs that run a sweep's workers, as ``--cluster slurm`` gives them."""

    #: The partition (``sbatch -p``); None: the cluster's default.
    queue: str | None = None
    #: The account charged (``sbatch -A``); None: the user's default.
    account: str | None = None
    #: Each job's time limit, ``[D-]HH:MM:SS``.
    walltime: str = "01:00:00"
    #: Cores of each job: as many runs at a time.
    cores: int = 1
    #: Memory of each job (``4GB``, ``500MiB``).
    memory: str = "2GB"
    #: How many jobs to keep (None with ``adaptive``).
    jobs: int | None = 1
    #: The fewest and most jobs Dask may keep as the runs left need, or None.
    adaptive: tuple[int, int] | None = None
    #: The network interface the scheduler and the workers talk over
    #: (``ib0``, ``lo`` on one machine); None: Dask's choice.
    interface: str | None = None
    #: Where the jobs write their output files (None: Slurm's default, the
    #: directory of submission).
    log_directory: Path | None = None

    def __post_init__(self) -> None:
        if not _WALLTIME.match(self.walltime):
            raise GridError(f"--walltime {self.walltime!r}: allowed: [D-]HH:MM:SS, e.g. 01:30:00")
        if isinstance(self.cores, bool) or not isinstance(self.cores, int) or self.cores < 1:
            raise GridError(f"--cores {self.cores!r}: allowed: a whole number >= 1")
        if not _MEMORY.match(self.memory):
            raise GridError(f"--memory {self.memory!r}: allowed: a size such as 4GB or 500MiB")
        if (self.jobs is None) == (self.adaptive is None):
            raise GridError("--cluster-jobs and --adaptive: give one of them")
        if self.jobs is not None and self.jobs < 1:
            raise GridError(f"--cluster-jobs {self.jobs}: allowed: a whole number >= 1")
        if self.adaptive is not None:
            low, high = self.adaptive
            if low < 0 or high < max(low, 1):
                raise GridError(
                    f"--adaptive {low}:{high}: allowed: MIN:MAX with 0 <= MIN <= MAX, MAX >= 1"
                )

    def cluster_arguments(self) -> dict[str, Any]:
        """``SLURMCluster``'s keyword arguments: one worker process per job, with a
        thread per core."""
        arguments: dict[str, Any] = {
            "queue": self.queue,
            "account": self.account,
            "walltime": self.walltime,
            "cores": self.cores,
            "processes": 1,
            "memory": self.memory,
            "job_name": "rudp-sweep",
        }
        if self.interface is not None:
            arguments["interface"] = self.interface
        if self.log_directory is not None:
            arguments["log_directory"] = str(self.log_directory)
        return arguments


def parse_adaptive(text: str) -> tuple[int, int]:
    """``MIN:MAX`` as --adaptive takes it."""
    low, sep, high = text.partition(":")
    if not sep or not low.isdigit() or not high.isdigit():
        raise ValueError(f"{text!r}: expected MIN:MAX, whole numbers (e.g. 0:20)")
    return int(low), int(high)


def _test_job_script(script: str) -> None:
    """Ask Slurm whether it would take ``script`` (``sbatch --test-only``), without
    submitting it.

    Raises:
        GridError: it would not (an unknown queue or account, a time limit
            above the partition's): Slurm's reason.
        OSError: sbatch cannot run.
    """
    with tempfile.NamedTemporaryFile("w", suffix=".sh", prefix="rudp-sweep-") as file:
        file.write(script)
        file.flush()
        checked = subprocess.run(
            ["sbatch", "--test-only", file.name],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    if checked.returncode != 0:
        reason = (checked.stderr or checked.stdout).strip().splitlines()
        raise GridError(
            "--cluster slurm: Slurm would not run the workers' job: "
            + (reason[-1] if reason else f"sbatch --test-only exited {checked.returncode}")
        )


@contextmanager
def slurm_client(jobs: SlurmJobs) -> Iterator[Client]:
    """A Dask client whose workers are Slurm jobs, for as long as the block runs;
    then every job is cancelled.

    Raises:
        GridError: dask-jobqueue is not installed, sbatch is not there, or
            Slurm refuses the job (``sbatch --test-only``).
    """
    try:
        from dask_jobqueue.slurm import SLURMCluster  # noqa: PLC0415 - only --cluster needs it
    except ImportError:
        raise GridError(
            f"--cluster slurm needs dask-jobqueue: pip install -r {REQUIREMENTS}"
        ) from None
    from distributed import Client  # noqa: PLC0415 - a scale-out sweep's import

    if shutil.which("sbatch") is None:
        raise GridError("--cluster slurm: no sbatch on PATH (Slurm's client commands)")
    # Any: dask-jobqueue is untyped, and absent where --cluster is not used.
    cluster: Any = SLURMCluster(**jobs.cluster_arguments())
    try:
        _test_job_script(cluster.job_script())
        if jobs.adaptive is not None:
            cluster.adapt(minimum_jobs=jobs.adaptive[0], maximum_jobs=jobs.adaptive[1])
        else:
            cluster.scale(jobs=jobs.jobs)
        client = Client(cluster)  # type: ignore[no-untyped-call]
        try:
            yield client
        finally:
            client.close()  # type: ignore[no-untyped-call]
    finally:
        cluster.close()
