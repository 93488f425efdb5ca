"""Run many points at once: a local pool of subprocesses, or a Dask cluster.

Both yield ``(index, outcome)`` as runs finish, in completion order, so the
caller can cache each result the moment it exists: a sweep cut short keeps
everything it finished.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING

from .execute import Outcome, failed, run_point
from .grid import Point

if TYPE_CHECKING:
    from distributed import Client


def default_jobs() -> int:
    """All cores: each run is one single-threaded process."""
    return os.cpu_count() or 1


def run_local(
    points: Sequence[Point], jobs: int | None = None, timeout_s: float | None = 3600
) -> Iterator[tuple[int, Outcome]]:
    """Run ``points`` as subprocesses, ``jobs`` at a time (default: every core).

    Threads suffice to launch them: each one waits on its subprocess, and
    the work happens in the processes.
    """
    pool = ThreadPoolExecutor(max_workers=jobs or default_jobs(), thread_name_prefix="sweep")
    try:
        pending: dict[Future[Outcome], int] = {
            pool.submit(run_point, point, timeout_s): i for i, point in enumerate(points)
        }
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield pending.pop(future), future.result()
    finally:
        # On Ctrl-C or an abandoned generator: start nothing new, wait only
        # for the runs already under way (they are short and their results
        # are lost anyway).
        pool.shutdown(wait=False, cancel_futures=True)


def run_dask(
    points: Sequence[Point], scheduler: str | Client, timeout_s: float | None = 3600
) -> Iterator[tuple[int, Outcome]]:
    """Run ``points`` on a Dask distributed cluster, one task per run.

    ``scheduler`` is an address (``tcp://host:8786``) or a connected
    ``distributed.Client``. Workers run the programs of their own build
    folder (``$RUDP_BUILD_DIR`` or the repository's ``build/``), so they need
    the built tree at a path of their own: a shared file system or a copy.
    """
    # Imported here: only a scale-out sweep should pay for importing distributed.
    from distributed import Client, as_completed  # noqa: PLC0415

    client = scheduler if isinstance(scheduler, Client) else Client(scheduler)  # type: ignore[no-untyped-call]
    try:
        # pure=False: two runs of the same point are not one task to Dask.
        futures = client.map(run_point, list(points), timeout_s=timeout_s, pure=False)
        index = {future.key: i for i, future in enumerate(futures)}
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            i = index[future.key]
            try:
                outcome: Outcome = future.result()
            except Exception as error:  # a lost worker or a task Dask gave up on
                outcome = failed(points[i], f"dask: {type(error).__name__}: {error}")
            yield i, outcome
            future.release()
    finally:
        if client is not scheduler:
            client.close()  # type: ignore[no-untyped-call]
