"""Run many points at once: a local pool of subprocesses, or a Dask cluster.

Both yield ``(index, outcome)`` as runs finish, in completion order, and call
``on_finish(index, outcome)`` for every run that finishes, the moment it
does, whether or not the caller has taken it yet: the caller stores results
there, so a sweep cut short keeps everything it finished.

Closing the local pool's generator (a ``KeyboardInterrupt`` or another
exception in the caller, or ``close()``) stops it: no new run starts, the
running programs are killed with their process groups, their temporary
folders removed, and it returns within seconds. Its threads are daemons, so
nothing at interpreter exit waits for a run.
"""

from __future__ import annotations

import os
import queue
import shutil
import threading
import time
from collections.abc import Callable, Generator, Sequence
from typing import TYPE_CHECKING, Any

from ..paths import Build
from ..runner import Children
from .execute import Outcome, failed, run_point
from .grid import Point

if TYPE_CHECKING:
    from distributed import Client

#: What the pools call for each finished run: its index in the points and its outcome.
OnFinish = Callable[[int, Outcome], None]

#: How long a stop waits for the pool's threads after killing their programs (seconds).
STOP_GRACE_S = 5.0


def default_jobs() -> int:
    """All cores: each run is one single-threaded process."""
    return os.cpu_count() or 1


class _LocalPool:
    """``jobs`` daemon threads, each running one point's program at a time."""

    def __init__(
        self,
        points: Sequence[Point],
        jobs: int,
        timeout_s: float | None,
        on_finish: OnFinish | None,
        build: Build | None = None,
    ) -> None:
        self.points = points
        self.build = build
        self.timeout_s = timeout_s
        self.on_finish = on_finish
        self.children = Children()
        self.todo: queue.SimpleQueue[int] = queue.SimpleQueue()
        self.done: queue.SimpleQueue[tuple[int, Outcome] | BaseException] = queue.SimpleQueue()
        for i in range(len(points)):
            self.todo.put(i)
        self.jobs = min(jobs, len(points))
        self.threads: list[threading.Thread] = []

    def start(self) -> None:
        for n in range(self.jobs):
            thread = threading.Thread(target=self._work, name=f"sweep-{n}", daemon=True)
            self.threads.append(thread)  # before start(): a stop then waits for it
            thread.start()

    def _work(self) -> None:
        while not self.children.stopped:
            try:
                i = self.todo.get_nowait()
            except queue.Empty:
                return
            try:
                outcome = run_point(self.points[i], self.timeout_s, self.children, self.build)
                if self.on_finish is not None:
                    self.on_finish(i, outcome)
            except BaseException as error:  # a full disk in on_finish, say: the caller's
                self.done.put(error)
                return
            self.done.put((i, outcome))

    def stop(self) -> int:
        """Kill the running programs, wait (briefly) for the threads. Returns how many ran."""
        running = self.children.stop()
        deadline = time.monotonic() + STOP_GRACE_S
        for thread in self.threads:
            if thread.ident is not None:  # started
                thread.join(max(0.0, deadline - time.monotonic()))
        return running


def run_local(
    points: Sequence[Point],
    jobs: int | None = None,
    timeout_s: float | None = 3600,
    on_finish: OnFinish | None = None,
    build: Build | None = None,
) -> Generator[tuple[int, Outcome], None, None]:
    """Run ``points`` as subprocesses, ``jobs`` at a time (default: every core), with
    ``build``'s programs (default: :func:`rudp.paths.current_build`).

    Threads suffice to launch them: each one waits on its subprocess, and
    the work happens in the processes. ``on_finish`` runs in those threads.
    """
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs}")
    if not points:
        return
    pool = _LocalPool(points, jobs or default_jobs(), timeout_s, on_finish, build)
    try:
        pool.start()
        for _ in range(len(points)):
            while True:
                try:
                    # A timeout, so that a signal's handler runs at once on every platform.
                    item = pool.done.get(timeout=0.2)
                    break
                except queue.Empty:
                    continue
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        pool.stop()
        _remove_run_folders(pool)


def _remove_run_folders(pool: _LocalPool) -> None:
    """Remove the temporary folders of runs whose threads did not finish in time.

    Each run removes its own folder; this only catches a thread still stuck
    after :data:`STOP_GRACE_S`, whose folder would outlive the process.
    """
    for folder in pool.children.workdirs():
        shutil.rmtree(folder, ignore_errors=True)


def run_dask(
    points: Sequence[Point],
    scheduler: str | Client,
    timeout_s: float | None = 3600,
    on_finish: OnFinish | None = None,
    build: Build | None = None,
) -> Generator[tuple[int, Outcome], None, None]:
    """Run ``points`` on a Dask distributed cluster, one task per run.

    ``scheduler`` is an address (``tcp://host:8786``) or a connected
    ``distributed.Client``. Workers run the programs of ``build`` at the
    same path, or with None of their own build (``$RUDP_NS3_BUILD``,
    ``$RUDP_BUILD_DIR`` or the repository's ``build/``), so they need the
    built tree at that path: a shared file system or a copy.
    On an interruption, tasks not started are cancelled; a task already
    running on a worker runs to its end there, and its result is not kept.
    """
    # Imported here: only a scale-out sweep should pay for importing distributed.
    from distributed import Client, as_completed  # noqa: PLC0415

    client = scheduler if isinstance(scheduler, Client) else Client(scheduler)  # type: ignore[no-untyped-call]
    handled: set[int] = set()

    def outcome_of(i: int, future: Any) -> Outcome:
        try:
            result: Outcome = future.result()
        except Exception as error:  # a lost worker or a task Dask gave up on
            result = failed(points[i], f"dask: {type(error).__name__}: {error}", build)
        return result

    futures: list[Any] = []
    try:
        # pure=False: two runs of the same point are not one task to Dask.
        futures = client.map(run_point, list(points), timeout_s=timeout_s, build=build, pure=False)
        index = {future.key: i for i, future in enumerate(futures)}
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            i = index[future.key]
            outcome = outcome_of(i, future)
            if on_finish is not None:
                on_finish(i, outcome)
            handled.add(i)
            yield i, outcome
            future.release()
    finally:
        # Results that arrived but were not taken yet are kept all the same.
        for i, future in enumerate(futures):
            finished = future.status == "finished"
            if i not in handled and finished and on_finish is not None:
                on_finish(i, outcome_of(i, future))
        if futures:
            client.cancel([f for f in futures if f.status == "pending"])  # type: ignore[no-untyped-call]
        if client is not scheduler:
            client.close()  # type: ignore[no-untyped-call]
